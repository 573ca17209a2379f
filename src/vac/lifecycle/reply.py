"""The spoken reply's lifecycle (PROTOCOL §5.2, §7), as a table.

Pure: no clock, no tasks, no audio. It decides what an event *means* for a
reply and returns the actions that the speaker (`runtime/speaker.py`)
carries out: send the stream's messages, drop a generation's queued chunks,
report an overrun, send the one `audio.output.done`, or stop the reply's task.

    rendering --refused--> refused            (audio.output.refused, no stream)
    rendering --silent--> silent              (the session's output is text only)
    rendering --started--> synthesizing       (audio.output.start)
    synthesizing --phrase_ready--> streaming  (its visemes, then its chunks)
    streaming --phrase_sent--> synthesizing   (the next phrase)
    streaming --done--> completed
    streaming --no_room--> overrun            (the client is not reading)
    any live --fence--> cancelled             (barge-in, turn.cancel)
    any live --synthesis_failed--> failed

A live reply (synthesizing, streaming) ends exactly once, and only then is
its `audio.output.done` sent, with the wire reason of the state it ended in.
An ended reply answers every streaming event with STOP: the fence ran while
the reply's task was awaiting, and the task stops before sending anything.
A pair absent from the table is a bug of the shell (a chunk of a reply that
never started), raised as `ReplyEventInvalid`, never a silent no-op.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final, Literal

from vac.errors import VacError
from vac.protocol.messages import OutputDoneReason

# How a reply ended, as `Speaker.speak` reports it to the turn.
ReplyEnd = Literal["completed", "cancelled", "failed", "overrun", "refused", "silent"]


class ReplyState(Enum):
    RENDERING = "rendering"  # the render gate and the session's output decide
    SYNTHESIZING = "synthesizing"  # started; waiting for a phrase's audio
    STREAMING = "streaming"  # sending a phrase's visemes and paced chunks
    # Ended (`END_OF` says how, as the turn hears it).
    COMPLETED = "completed"
    CANCELLED = "cancelled"
    FAILED = "failed"
    OVERRUN = "overrun"
    REFUSED = "refused"
    SILENT = "silent"


class ReplyEvent(Enum):
    REFUSED = "refused"  # the render gate refused the text
    SILENT = "silent"  # the session does not want audio
    STARTED = "started"  # rendered, with a generation: the stream begins
    PHRASE_READY = "phrase_ready"  # a phrase's synthesis is in
    CHUNK_DUE = "chunk_due"  # pacing says the next chunk may go
    CHUNK_SENT = "chunk_sent"  # the transport queued it
    NO_ROOM = "no_room"  # the transport's chunk budget is full (§7)
    PHRASE_SENT = "phrase_sent"  # every chunk of a phrase (not the last) went
    DONE = "done"  # every chunk of the last phrase went
    FENCE = "fence"  # barge-in or turn.cancel (§5.2)
    SYNTHESIS_FAILED = "synthesis_failed"  # the engine (or resampling) raised
    PLAYED = "played"  # audio.output.played from the client


class ReplyAction(Enum):
    """What the speaker does, in this order, for one transition."""

    SEND_REFUSED = "send_refused"  # audio.output.refused
    SEND_START = "send_start"  # audio.output.start
    SEND_VISEMES = "send_visemes"  # the phrase's audio.output.visemes
    SEND_CHUNK = "send_chunk"  # offer the next chunk to the transport
    DROP_CHUNKS = "drop_chunks"  # drop the generation's queued, unsent chunks
    REPORT_OVERRUN = "report_overrun"  # error output_overrun
    SEND_DONE = "send_done"  # the reply's one audio.output.done
    STOP = "stop"  # the reply's task stops here, sending nothing more
    NOTE_PLAYED = "note_played"  # remember how much the client has played


_S, _E, _A = ReplyState, ReplyEvent, ReplyAction
LIVE: Final = frozenset({_S.SYNTHESIZING, _S.STREAMING})
# Ended after a stream was started: played reports still name it.
STREAMED: Final = frozenset({_S.COMPLETED, _S.CANCELLED, _S.FAILED, _S.OVERRUN})
ENDED: Final = STREAMED | {_S.REFUSED, _S.SILENT}
# Events of a reply's own task, which stops if a fence got there first.
STREAM_EVENTS: Final = (
    _E.PHRASE_READY,
    _E.CHUNK_DUE,
    _E.CHUNK_SENT,
    _E.NO_ROOM,
    _E.PHRASE_SENT,
    _E.DONE,
)

_CUT: Final = (_A.DROP_CHUNKS, _A.SEND_DONE)

_Table = dict[tuple[ReplyState, ReplyEvent], tuple[ReplyState, tuple[ReplyAction, ...]]]


def _table() -> _Table:
    table: _Table = {
        (_S.RENDERING, _E.REFUSED): (_S.REFUSED, (_A.SEND_REFUSED,)),
        (_S.RENDERING, _E.SILENT): (_S.SILENT, ()),
        (_S.RENDERING, _E.STARTED): (_S.SYNTHESIZING, (_A.SEND_START,)),
        (_S.SYNTHESIZING, _E.PHRASE_READY): (_S.STREAMING, (_A.SEND_VISEMES,)),
        (_S.STREAMING, _E.CHUNK_DUE): (_S.STREAMING, (_A.SEND_CHUNK,)),
        (_S.STREAMING, _E.CHUNK_SENT): (_S.STREAMING, ()),
        (_S.STREAMING, _E.PHRASE_SENT): (_S.SYNTHESIZING, ()),
        (_S.STREAMING, _E.DONE): (_S.COMPLETED, (_A.SEND_DONE,)),
        # The error first, so a client reads why before the stream's end.
        (_S.STREAMING, _E.NO_ROOM): (_S.OVERRUN, (_A.DROP_CHUNKS, _A.REPORT_OVERRUN, _A.SEND_DONE)),
    }
    for live in LIVE:
        table[(live, _E.FENCE)] = (_S.CANCELLED, _CUT)
        table[(live, _E.SYNTHESIS_FAILED)] = (_S.FAILED, _CUT)
        table[(live, _E.PLAYED)] = (live, (_A.NOTE_PLAYED,))
    for ended in STREAMED:
        for event in STREAM_EVENTS:
            table[(ended, event)] = (ended, (_A.STOP,))
        # Already ended: a late fence or failure changes nothing.
        table[(ended, _E.FENCE)] = (ended, ())
        table[(ended, _E.SYNTHESIS_FAILED)] = (ended, ())
        # The client may report playback after the reply's end.
        table[(ended, _E.PLAYED)] = (ended, (_A.NOTE_PLAYED,))
    for unstreamed in (_S.REFUSED, _S.SILENT):
        table[(unstreamed, _E.FENCE)] = (unstreamed, ())
    return table


# (state, event) → (next state, actions). Absent pairs are `ReplyEventInvalid`.
TRANSITIONS: Final = _table()

# The `audio.output.done` reason of each state a stream can end in: an
# overrun is a failure on the wire; the turn hears it was an overrun.
DONE_REASON: Final[dict[ReplyState, OutputDoneReason]] = {
    _S.COMPLETED: "completed",
    _S.CANCELLED: "cancelled",
    _S.FAILED: "failed",
    _S.OVERRUN: "failed",
}


# How a reply that ended in each state ended, for the turn.
END_OF: Final[dict[ReplyState, ReplyEnd]] = {
    _S.COMPLETED: "completed",
    _S.CANCELLED: "cancelled",
    _S.FAILED: "failed",
    _S.OVERRUN: "overrun",
    _S.REFUSED: "refused",
    _S.SILENT: "silent",
}


class ReplyEventInvalid(VacError):
    """The speaker fed an event that cannot happen in this state (a bug)."""


def step(state: ReplyState, event: ReplyEvent) -> tuple[ReplyState, tuple[ReplyAction, ...]]:
    """The next state and the actions of one event. Pure."""
    found = TRANSITIONS.get((state, event))
    if found is None:
        raise ReplyEventInvalid(f"{event.value} cannot happen to a reply that is {state.value}")
    return found


@dataclass(slots=True)
class ReplyLife:
    """One reply's state; the speaker keeps the audio bookkeeping beside it."""

    state: ReplyState = ReplyState.RENDERING

    @property
    def ended(self) -> bool:
        return self.state in ENDED

    @property
    def end(self) -> ReplyEnd | None:
        """How it ended, or None while it is live."""
        return END_OF.get(self.state)

    @property
    def done_reason(self) -> OutputDoneReason:
        """The `audio.output.done` reason; only for a stream that ended."""
        return DONE_REASON[self.state]

    def feed(self, event: ReplyEvent) -> tuple[ReplyAction, ...]:
        """Apply `event`; return what the speaker must do, in order."""
        self.state, actions = step(self.state, event)
        return actions
