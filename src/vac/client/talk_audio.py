"""Sound-card-free audio helpers for `vac talk`: energy, the barge-in gate, playback.

Barge-in here is deliberately naive. The client owns echo handling (PROTOCOL
§5.2) and this one does none: no echo cancellation, only an energy gate that
fires when the microphone is louder than `threshold_rms` for `hold_frames`
consecutive frames while a reply plays. With loudspeakers the reply itself
can trip it; use headphones, or raise the threshold.
"""

from __future__ import annotations

import math
import sys
import threading
from array import array
from collections import deque
from dataclasses import dataclass, field
from typing import Final

from vac.client.pacing import pcm_ms

# Full scale is 32768; ~1500 is ordinary speech close to a laptop microphone.
DEFAULT_THRESHOLD_RMS: Final = 1500.0
DEFAULT_HOLD_FRAMES: Final = 3  # 60 ms of 20 ms frames: a click is not a barge-in
PRE_ROLL_FRAMES: Final = 10  # 200 ms kept so the first syllable survives the gate


def rms_s16(pcm: bytes) -> float:
    """Root mean square of mono s16le samples (0.0 for no samples)."""
    samples = array("h")
    samples.frombytes(pcm[: len(pcm) - len(pcm) % 2])
    if sys.byteorder == "big":
        samples.byteswap()
    if not samples:
        return 0.0
    return math.sqrt(sum(s * s for s in samples) / len(samples))


@dataclass
class EnergyGate:
    """Fires once `hold_frames` consecutive frames are louder than `threshold_rms`."""

    threshold_rms: float = DEFAULT_THRESHOLD_RMS
    hold_frames: int = DEFAULT_HOLD_FRAMES
    _loud: int = 0

    def update(self, frame_rms: float) -> bool:
        self._loud = self._loud + 1 if frame_rms > self.threshold_rms else 0
        if self._loud >= self.hold_frames:
            self._loud = 0
            return True
        return False

    def reset(self) -> None:
        self._loud = 0


@dataclass
class PreRoll:
    """The last few microphone frames, sent first when a stream starts mid-speech."""

    frames: deque[bytes] = field(default_factory=lambda: deque(maxlen=PRE_ROLL_FRAMES))

    def push(self, frame: bytes) -> None:
        self.frames.append(frame)

    def take(self) -> list[bytes]:
        out = list(self.frames)
        self.frames.clear()
        return out


class PlaybackBuffer:
    """A thread-safe FIFO between the socket loop and the audio device callback.

    Counts bytes pushed and played so the client can say how much of a reply
    the user actually heard (`played_ms` in `turn.cancel`).
    """

    def __init__(self, rate_hz: int) -> None:
        self.rate_hz = rate_hz
        self._lock = threading.Lock()
        self._queue = bytearray()
        self.pushed_bytes = 0
        self.played_bytes = 0

    def push(self, pcm: bytes) -> None:
        with self._lock:
            self._queue += pcm
            self.pushed_bytes += len(pcm)

    def read(self, n_bytes: int) -> bytes:
        """Exactly `n_bytes` for the device; silence where nothing is queued."""
        with self._lock:
            out = bytes(self._queue[:n_bytes])
            del self._queue[:n_bytes]
            self.played_bytes += len(out)
        return out + b"\x00" * (n_bytes - len(out))

    def clear(self) -> None:
        """Stop at once: drop everything queued (counted as never played)."""
        with self._lock:
            self.pushed_bytes -= len(self._queue)
            self._queue.clear()

    @property
    def playing(self) -> bool:
        with self._lock:
            return bool(self._queue)

    def played_ms_since(self, mark_bytes: int) -> int:
        """ms played after `pushed_bytes` was `mark_bytes` (a reply's start)."""
        with self._lock:
            return pcm_ms(max(0, self.played_bytes - mark_bytes), self.rate_hz)
