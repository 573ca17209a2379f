"""Hands-free capture for `vac talk`: the client's own VAD decides what leaves the machine.

The contract asks that a session hear speech only after activation, never a
continuous microphone. In hands-free mode the client therefore keeps the
last `pre_roll_ms` of audio in memory only, and opens a `vad` stream when
its own VAD hears `start_frames` voiced frames in a row (that are also
louder than any echo of the reply). The stream begins with the pre-roll, so
the first syllable is not lost; the daemon then endpoints it (with its
continuation window, so a mid-sentence pause is one turn) and closes it with
`audio.input.done`. Until the next onset nothing is sent.

Pure: frames and decisions in, what to send out; webrtcvad is passed in as
`is_speech`, so the rules are tested without a microphone.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

FRAME_MS: Final = 20
DEFAULT_PRE_ROLL_MS: Final = 400  # >= 300 ms: the onset of "ask" is quiet and short
DEFAULT_START_FRAMES: Final = 3  # 60 ms of voice, like the daemon's own VAD


@dataclass
class HandsFree:
    """Idle → (onset) → streaming → (the daemon closed the stream) → idle."""

    pre_roll_ms: int = DEFAULT_PRE_ROLL_MS
    start_frames: int = DEFAULT_START_FRAMES
    streaming: bool = False
    _voiced_run: int = 0
    _ring: deque[bytes] = field(default_factory=deque)

    def __post_init__(self) -> None:
        self._ring = deque(maxlen=max(1, self.pre_roll_ms // FRAME_MS))

    def feed(self, frame: bytes, onset_voice: bool) -> list[bytes] | None:
        """One 20 ms frame. Returns the frames to send, or None to send nothing.

        `onset_voice`: the frame is speech (VAD) and not the reply's echo. When
        idle, the first list returned is the pre-roll: the caller opens a
        stream before sending it.
        """
        if self.streaming:
            return [frame]
        self._ring.append(frame)
        self._voiced_run = self._voiced_run + 1 if onset_voice else 0
        if self._voiced_run < self.start_frames:
            return None
        self.streaming = True
        self._voiced_run = 0
        frames = list(self._ring)
        self._ring.clear()
        return frames

    def stream_closed(self) -> None:
        """The daemon ended the stream (endpoint, auto-commit, overrun…): listen again."""
        self.streaming = False
        self._voiced_run = 0

    def forget(self) -> None:
        """Drop the pre-roll (e.g. while a reply plays, its echo is not the user)."""
        self._ring.clear()
        self._voiced_run = 0


def webrtc_is_speech(aggressiveness: int = 2) -> Callable[[bytes], bool]:
    """webrtcvad on 20 ms 16 kHz frames (imported here: the client needs no models)."""
    import webrtcvad

    vad = webrtcvad.Vad(aggressiveness)

    def is_speech(frame: bytes) -> bool:
        return len(frame) == 640 and bool(vad.is_speech(frame, 16000))

    return is_speech
