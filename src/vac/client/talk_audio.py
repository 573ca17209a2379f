"""Sound-card-free audio helpers for `vac talk`: levels, the pre-roll, playback.

The barge-in decision is `echo.py`'s; the speaker side records what it
played (`PlayedLevels`) so that decision knows the echo to expect.
"""

from __future__ import annotations

import math
import sys
import threading
from array import array
from collections import deque
from dataclasses import dataclass, field
from typing import Final

from vac.client.echo import PlayedLevels
from vac.client.pacing import pcm_ms

PRE_ROLL_FRAMES: Final = 20  # 400 ms kept so the first syllable survives a barge-in


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

    def __init__(self, rate_hz: int, levels: PlayedLevels | None = None) -> None:
        self.rate_hz = rate_hz
        self.levels = levels if levels is not None else PlayedLevels()
        self._lock = threading.Lock()
        self._queue = bytearray()
        self.pushed_bytes = 0
        self.played_bytes = 0

    def push(self, pcm: bytes) -> None:
        with self._lock:
            self._queue += pcm
            self.pushed_bytes += len(pcm)

    def read(self, n_bytes: int, now_s: float | None = None) -> bytes:
        """Exactly `n_bytes` for the device; silence where nothing is queued.

        With `now_s` (the device's clock), the block's level is recorded for
        the echo estimate.
        """
        with self._lock:
            out = bytes(self._queue[:n_bytes])
            del self._queue[:n_bytes]
            self.played_bytes += len(out)
        block = out + b"\x00" * (n_bytes - len(out))
        if now_s is not None:
            self.levels.played(now_s, rms_s16(block))
        return block

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
