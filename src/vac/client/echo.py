"""Echo-safe barge-in for `vac talk`: the client knows what it plays, and uses it.

With loudspeakers the reply leaks back into the microphone. A plain energy
gate then interrupts the reply with its own voice. This gate compares the
microphone with an estimate of that echo:

- `PlayedLevels` remembers the level of every block the speaker callback
  played, with its time (bounded: the last two seconds).
- The echo at the microphone is a played level times the **coupling**: how
  loud the echo is relative to what was played. The played level is the
  loudest block around the echo delay `EchoPath` learned (echo_path.py), or
  within `delay_max_s` until it has. The coupling is learned while a reply
  plays: a high percentile of the mic/played ratio over the last second. A
  user who starts speaking fires the gate within `hold_frames` (one 20 ms
  frame), long before a percentile of 50 frames can follow her. Before anything is
  learned the prior (-6 dB) is deliberately pessimistic: an early
  interruption must be louder; when the learned delay changes, the coupling
  is learned again at once from the frames the delay was fitted on.
- Barge-in needs `hold_frames` consecutive frames that are voiced (webrtcvad,
  so a door slam is not speech), above `floor_rms`, and `margin` times above
  the echo estimate.

No echo *cancellation* here (nothing is subtracted from the audio sent to the
daemon): the session is half-duplex while a reply plays, so only the
decision to interrupt needs to be echo-safe. `docs/client.md` has the
measurements, including the AEC package that was tried.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Final

from vac.client.echo_path import EchoPath, PlayedLevels

__all__ = ["EchoGate", "PlayedLevels"]

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
class EchoGate:
    """Fires on `hold_frames` voiced frames that are louder than the echo could be."""

    floor_rms: float = 600.0
    # 8 dB over the echo estimate, on one 20 ms voiced frame. On the audio
    # stack (20 replies, echo at -12 dB arriving 130 ms after it was played)
    # no echo frame came within 1.3x of the estimate once the delay was
    # learned; in the simulated rooms (tests/client/test_capture.py) the reply
    # first interrupts itself at 1.7x. Two frames at 3x (and no learned
    # delay), the first design, stopped playback 144-165 ms after the user's
    # first sound; this, 76-136 ms (docs/client.md).
    margin: float = 2.5
    hold_frames: int = 1
    path: EchoPath = field(default_factory=EchoPath)
    coupling: float = COUPLING_PRIOR
    _ratios: deque[float] = field(default_factory=lambda: deque(maxlen=COUPLING_WINDOW_FRAMES))
    _loud: int = 0

    def echo_now(self, levels: PlayedLevels, now_s: float) -> float:
        """The loudest echo (rms) the microphone frame ending now can hold."""
        return self.coupling * self.path.reference(levels, now_s)

    def update(self, mic_rms: float, voiced: bool, levels: PlayedLevels, now_s: float) -> bool:
        """One microphone frame while a reply plays: True when the user barged in."""
        reference = self.path.reference(levels, now_s)
        threshold = max(self.floor_rms, self.margin * self.coupling * reference)
        above = voiced and mic_rms > threshold
        self._loud = self._loud + 1 if above else 0
        if self._loud >= self.hold_frames:
            self._loud = 0
            return True
        if self.path.observe(now_s, mic_rms, levels):
            self._relearn(levels)
        elif not above and reference >= MIN_REFERENCE_RMS:
            self._learn(mic_rms / reference)
        return False

    def _relearn(self, levels: PlayedLevels) -> None:
        """The delay changed: the coupling learned against the old reference is void;
        learn it again at once from the frames the new delay was fitted on."""
        self._ratios.clear()
        self.coupling = COUPLING_PRIOR
        for at_s, mic_rms in self.path.frames():
            reference = self.path.reference(levels, at_s)
            if reference >= MIN_REFERENCE_RMS:
                self._learn(mic_rms / reference)

    def _learn(self, ratio: float) -> None:
        self._ratios.append(ratio)
        if len(self._ratios) >= COUPLING_MIN_FRAMES:
            ordered = sorted(self._ratios)
            learned = ordered[int(COUPLING_PERCENTILE * (len(ordered) - 1))]
            self.coupling = max(COUPLING_FLOOR, learned)

    def reset(self) -> None:
        """Between replies: the echo path is the room's, keep what was learned."""
        self._loud = 0
