"""One input stream's state in the listener (`listener.py`): its stream
machine, detector, audio and recognition tasks. Data only."""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass, field
from typing import Final

from vac.protocol.messages import AudioInputDone, TranscriptFinal
from vac.protocol.streams import InputStream
from vac.runtime.continuation import Window
from vac.runtime.session import Session
from vac.speech import vad as vadlib
from vac.speech.stt import Transcript


@dataclass
class Speculation:
    """A final-quality recognition started in a pause, before the commit.

    It stands as the final only if no voiced audio came after it started:
    `voiced_ms` is the VAD's count when it was taken.
    """

    voiced_ms: int
    task: asyncio.Task[Transcript]


@dataclass
class OpenStream:
    machine: InputStream
    mode: str
    # Dropped when the stream closes: a closed stream is remembered (for
    # repeated commits and stream_closed) without its VAD state or audio.
    vad: vadlib.VadStream | None
    pcm: bytearray = field(default_factory=bytearray)
    partial_revision: int = 0
    partial_task: asyncio.Task[None] | None = None
    partial_audio_bytes: int = 0
    recognized_bytes: int = 0
    speech_started: bool = False
    final_task: asyncio.Task[None] | None = None
    # What a repeated commit is answered with (§4): the final, or no_speech.
    outcome: TranscriptFinal | AudioInputDone | None = None
    # Repeated commits (new ids) that came while the final was being
    # recognised: each is answered with the outcome once there is one.
    waiting: list[str] = field(default_factory=list)
    speculation: Speculation | None = None
    client_trace: str | None = None  # `audio.input.start.trace`, kept to `turn.done`
    voiced_ms_at_close: int = 0
    window: Window | None = None  # an open continuation window (`vad` mode)
    turn_id: str | None = None  # the turn a provisional final already named
    # A provisional final named `turn_id`, and that turn has not opened yet:
    # if it never does, the listener ends it with `turn.done {cancelled}`.
    announced: bool = False
    stall: asyncio.TimerHandle | None = None  # `vad` mode: the client stopped sending
    # (monotonic s, audio ms) as chunks came, the last PACE_WINDOW_S: `sent_ahead_ms`.
    arrivals: deque[tuple[float, int]] = field(default_factory=lambda: deque(maxlen=256))

    @property
    def id(self) -> str:
        return self.machine.stream

    @property
    def voiced_ms(self) -> int:
        return self.vad.voiced_ms if self.vad is not None else self.voiced_ms_at_close


# How far back `sent_ahead_ms` looks: a client that sent a buffered second
# (pre-roll) and then streams live is live again once it has passed.
PACE_WINDOW_S: Final = 1.0


def sent_ahead_ms(st: OpenStream, audio_ms: int, now_s: float) -> float:
    """Record that the stream has `audio_ms` of audio at `now_s`; return how
    much more audio than wall time came in the last `PACE_WINDOW_S` (about 0
    for a client streaming live; the whole of it for a recording sent at once)."""
    st.arrivals.append((now_s, audio_ms))
    while now_s - st.arrivals[0][0] > PACE_WINDOW_S:
        st.arrivals.popleft()
    first_s, first_ms = st.arrivals[0]
    return (audio_ms - first_ms) - (now_s - first_s) * 1000


def partial_key(session: Session, st: OpenStream) -> str:
    return f"{session.id}/{st.id}/partial"


def final_key(session: Session, st: OpenStream) -> str:
    return f"{session.id}/{st.id}/final"


def spec_key(session: Session, st: OpenStream) -> str:
    return f"{session.id}/{st.id}/speculative"


def quiet(task: asyncio.Future[Transcript]) -> None:
    # A dropped speculation's failure is expected and uninteresting; reading
    # the exception keeps asyncio from reporting it as never retrieved.
    if not task.cancelled():
        task.exception()
