"""When the reply comes back: what was played, and the learned delay to the microphone.

The echo gate (echo.py) needs, for each microphone frame, how loud the echo
in it can be. Without knowing the delay from the speaker callback to the
microphone (device buffers, the room), it must assume that the loudest block
played in the last `delay_max_s` is echoing now. In a pause of the reply the
last loud word then still sets the bar, and a user who starts talking there
is heard only at her loudest syllable: measured on the audio stack, 130 ms
after her first sound.

`EchoPath` learns the delay instead: it correlates the level envelope of
the last second of microphone frames with the played levels at every lag
from 0 to `delay_max_s` (10 ms steps) and keeps the lag that fits best, if
it fits well (Pearson r ≥ `MIN_CORRELATION`; a user talking during the fit
spoils it and the previous delay stays). With a delay, the reference is the
loudest block within `SPREAD_S` of that lag; without one, the whole window,
as before. Either way blocks older than the window still count, fading at
`TAIL_DB_PER_S` (a room's reverberation: 100 dB/s is a reverberant room's
RT60 of 0.6 s, so the estimate errs long). When the audio device reports an
underrun or overflow, played blocks are no longer heard when their time says
(the device dropped or repeated audio): the whole window stands again until
a fit on the frames after it agrees (a full-suite CI run on a busy host had
its reply interrupt itself right after two ALSA underruns).
"""

from __future__ import annotations

import bisect
from collections import deque
from dataclasses import dataclass, field
from typing import Final

import numpy as np

FRAME_S: Final = 0.02  # the client's microphone frame
DELAY_STEP_S: Final = 0.01
SPREAD_S: Final = 0.015  # either side of the learned delay: block length and jitter
TAIL_DB_PER_S: Final = 100.0
TAIL_KEEP_S: Final = 0.6  # beyond this the tail is 60 dB down: ignore it
FIT_FRAMES: Final = 50  # fit on up to one second of microphone frames
REFIT_FRAMES: Final = 25  # the first fit after half a second of a reply, then every half second
MIN_CORRELATION: Final = 0.6
STALE_S: Final = 0.5  # a gap this long between observed frames: a reply ended


@dataclass
class PlayedLevels:
    """(monotonic time, rms) of each block the speaker played; thread-safe enough.

    The speaker callback appends and drops what is older than `keep_s` (deque
    appends and pops are atomic in CPython); the main loop reads a copy.
    """

    keep_s: float = 2.0
    # When the audio device last reported an underflow or overflow (its
    # callback's status): from then on a played block's time no longer says
    # when it was heard, so a delay learned before it is void (`EchoPath`).
    disturbed_s: float | None = None
    # A hard bound whatever the device's block size (1 ms blocks: 4 s).
    _blocks: deque[tuple[float, float]] = field(default_factory=lambda: deque(maxlen=4096))

    def disturbed(self, at_s: float) -> None:
        """The device dropped or repeated audio at `at_s` (an ALSA underrun)."""
        self.disturbed_s = at_s

    def played(self, at_s: float, rms: float) -> None:
        self._blocks.append((at_s, rms))
        # Bounded by time too: a fit looks back FIT_FRAMES + delay_max_s (1.3 s).
        while self._blocks and self._blocks[0][0] < at_s - self.keep_s:
            self._blocks.popleft()

    def faded_peak(self, until_s: float, span_s: float, tail_db_per_s: float) -> float:
        """The loudest block in (until - span, until]; older blocks fade at `tail_db_per_s`."""
        blocks = list(self._blocks)
        times = [t for t, _ in blocks]
        end = bisect.bisect_right(times, until_s)
        oldest_s = until_s - span_s - TAIL_KEEP_S
        start = bisect.bisect_right(times, oldest_s)
        best = 0.0
        for t, rms in blocks[start:end]:
            behind_s = until_s - span_s - t
            if behind_s > 0:
                rms *= 10 ** (-tail_db_per_s * behind_s / 20)
            best = max(best, rms)
        return best

    def envelope(self, frame_ends_s: list[float], lag_s: float) -> np.ndarray:
        """For each frame ending at t: the loudest block in (t - lag - FRAME_S, t - lag]."""
        blocks = list(self._blocks)
        times = [t for t, _ in blocks]
        out = np.zeros(len(frame_ends_s))
        for i, t in enumerate(frame_ends_s):
            start = bisect.bisect_right(times, t - lag_s - FRAME_S)
            end = bisect.bisect_right(times, t - lag_s)
            out[i] = max((rms for _, rms in blocks[start:end]), default=0.0)
        return out


@dataclass
class EchoPath:
    """The learned delay from a played block to its echo in a microphone frame."""

    delay_max_s: float = 0.3
    delay_s: float | None = None
    correlation: float = 0.0
    # When a fit last agreed with the delay (a good correlation): a device
    # disturbance after it sends the reference back to the whole window.
    fitted_s: float = float("-inf")
    _frames: deque[tuple[float, float]] = field(default_factory=lambda: deque(maxlen=FIT_FRAMES))
    _since_fit: int = 0

    def reference(self, levels: PlayedLevels, now_s: float) -> float:
        """The played level the echo in the frame ending now can be at most (before coupling)."""
        disturbed = levels.disturbed_s is not None and levels.disturbed_s > self.fitted_s
        if self.delay_s is None or disturbed:
            return levels.faded_peak(now_s, self.delay_max_s, TAIL_DB_PER_S)
        return levels.faded_peak(now_s - self.delay_s + SPREAD_S, 2 * SPREAD_S, TAIL_DB_PER_S)

    def observe(self, now_s: float, mic_rms: float, levels: PlayedLevels) -> bool:
        """One microphone frame while a reply plays; True when the delay changed."""
        if self._frames and now_s - self._frames[-1][0] > STALE_S:
            self.forget_frames()  # a new reply: a fit must not span the silence before it
        if (
            self._frames
            and levels.disturbed_s is not None
            and levels.disturbed_s > self._frames[-1][0]
        ):
            self.forget_frames()  # an underrun moved the echo: fit on what follows it
        self._frames.append((now_s, mic_rms))
        self._since_fit += 1
        if self._since_fit < REFIT_FRAMES:
            return False
        self._since_fit = 0
        return self._fit(levels)

    def frames(self) -> list[tuple[float, float]]:
        """The (time, mic rms) frames of the current fit window, oldest first."""
        return list(self._frames)

    def forget_frames(self) -> None:
        self._frames.clear()
        self._since_fit = 0

    def _fit(self, levels: PlayedLevels) -> bool:
        ends = [t for t, _ in self._frames]
        mic = np.array([m for _, m in self._frames])
        if float(mic.std()) == 0.0:
            return False
        best_r, best_lag = -1.0, 0.0
        for k in range(round(self.delay_max_s / DELAY_STEP_S) + 1):
            lag_s = k * DELAY_STEP_S
            ref = levels.envelope(ends, lag_s)
            if float(ref.std()) == 0.0:
                continue
            r = float(np.corrcoef(ref, mic)[0, 1])
            if r > best_r:
                best_r, best_lag = r, lag_s
        self.correlation = best_r
        if best_r >= MIN_CORRELATION:
            self.fitted_s = ends[-1]
        if best_r < MIN_CORRELATION or best_lag == self.delay_s:
            return False
        self.delay_s = best_lag
        return True
