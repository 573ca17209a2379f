"""Echo-safe barge-in for `vac talk`: the client knows what it plays, and uses it.

With loudspeakers the reply leaks back into the microphone. A plain energy
gate then interrupts the reply with its own voice. This gate compares the
microphone with an estimate of that echo:

- `PlayedLevels` remembers the level of every block the speaker callback
  played, with its time (bounded: the last two seconds).
- The echo at the microphone is the loudest recently played block (within
  `delay_max_s`, which covers the device latency and the room) times the
  **coupling**: how loud the echo is relative to what was played. The
  coupling is learned while a reply plays: a high percentile of the
  mic/played ratio over the last second. A user who starts speaking fires
  the gate within `hold_frames` (60 ms), long before a percentile of 50
  frames can follow her. Before anything is learned the prior (-6 dB) is
  deliberately pessimistic: an early interruption must be louder.
- Barge-in needs `hold_frames` consecutive frames that are voiced (webrtcvad,
  so a door slam is not speech), above `floor_rms`, and `margin` times above
  the echo estimate.

No echo *cancellation* here (nothing is subtracted from the audio sent to the
daemon): the session is half-duplex while a reply plays, so only the
decision to interrupt needs to be echo-safe. `docs/client.md` has the
measurements, including the AEC package that was tried.
"""

from __future__ import annotations

import bisect
from collections import deque
from dataclasses import dataclass, field
from typing import Final

COUPLING_PRIOR: Final = 0.5  # -6 dB: louder than any laptop's echo path
COUPLING_WINDOW_FRAMES: Final = 50  # one second of 20 ms frames
COUPLING_PERCENTILE: Final = 0.9
# Until half a second of a reply was heard, the prior stands: the first
# blocks' echo has not arrived yet (device and room delay), and ratios from
# them would teach a coupling of zero.
COUPLING_MIN_FRAMES: Final = 25
# Never trust a quieter echo path than -30 dB: a muted, then unmuted,
# microphone must not make the next reply interrupt itself.
COUPLING_FLOOR: Final = 0.03
# A played block this quiet teaches nothing about the echo path (silence
# between phrases: the ratio would be noise over nothing).
MIN_REFERENCE_RMS: Final = 200.0


@dataclass
class PlayedLevels:
    """(monotonic time, rms) of each block the speaker played; thread-safe enough.

    The speaker callback appends (a deque append is atomic in CPython); the
    main loop reads. Two seconds of 10–40 ms blocks is at most a few hundred.
    """

    keep_s: float = 2.0
    _blocks: deque[tuple[float, float]] = field(default_factory=lambda: deque(maxlen=512))

    def played(self, at_s: float, rms: float) -> None:
        self._blocks.append((at_s, rms))

    def peak(self, now_s: float, delay_max_s: float) -> float:
        """The loudest block played in (now - delay_max_s, now]: what may echo now."""
        blocks = list(self._blocks)
        times = [t for t, _ in blocks]
        start = bisect.bisect_right(times, now_s - delay_max_s)
        return max((rms for t, rms in blocks[start:] if t <= now_s), default=0.0)


@dataclass
class EchoGate:
    """Fires on `hold_frames` voiced frames that are louder than the echo could be."""

    floor_rms: float = 600.0
    # ~10 dB over the echo estimate: on real replies, no echo frame came
    # within 1.7x of it (tests/client/test_capture.py).
    margin: float = 3.0
    hold_frames: int = 2  # 40 ms: a click is not a barge-in, and onset to stop stays short
    delay_max_s: float = 0.3
    coupling: float = COUPLING_PRIOR
    _ratios: deque[float] = field(default_factory=lambda: deque(maxlen=COUPLING_WINDOW_FRAMES))
    _loud: int = 0

    def echo_estimate(self, reference_peak_rms: float) -> float:
        return self.coupling * reference_peak_rms

    def update(self, mic_rms: float, voiced: bool, reference_peak_rms: float) -> bool:
        """One microphone frame while a reply plays: True when the user barged in."""
        threshold = max(self.floor_rms, self.margin * self.echo_estimate(reference_peak_rms))
        above = voiced and mic_rms > threshold
        self._loud = self._loud + 1 if above else 0
        if not above and reference_peak_rms >= MIN_REFERENCE_RMS:
            self._learn(mic_rms / reference_peak_rms)
        if self._loud >= self.hold_frames:
            self._loud = 0
            return True
        return False

    def _learn(self, ratio: float) -> None:
        self._ratios.append(ratio)
        if len(self._ratios) >= COUPLING_MIN_FRAMES:
            ordered = sorted(self._ratios)
            learned = ordered[int(COUPLING_PERCENTILE * (len(ordered) - 1))]
            self.coupling = max(COUPLING_FLOOR, learned)

    def reset(self) -> None:
        """Between replies: the echo path is the room's, keep what was learned."""
        self._loud = 0
