"""The turn lifecycle of PROTOCOL §5, as a table.

Pure: no clock, no tasks, no sockets. It decides what an event *means* for a
turn and returns outcomes that the runtime's asyncio shell carries out
(`runtime/turns.py`): speak the reply, fence it, cancel the turn's work,
send its one `turn.done`.

    working --reply_begins--> speaking --reply_ends--> working
    working --barge_in--> muted            (it goes on, but says nothing)
    speaking --barge_in--> done            (the reply is cut: cancelled)
    any live --cancel--> done              (turn.cancel, a newer turn, detach)
    any live --finish(status)--> done      (its own work ended)

`done` absorbs every event: a turn ends with exactly one `turn.done`. A pair
that is absent from the table is a bug of the shell (a reply that ends
before it began), raised as `TurnEventInvalid`, never a silent no-op.

`TurnBook` holds one session's turns: the active one, and the ids of those
that ended recently, so a `turn.cancel` of a finished turn is no error.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from enum import Enum
from typing import Final

from vac.errors import VacError
from vac.protocol.errors import ProtocolError
from vac.protocol.messages import TurnStatus

# Ids of ended turns remembered for `turn.cancel` (bounded memory).
MAX_ENDED_TURNS: Final = 256


class TurnState(Enum):
    WORKING = "working"  # deciding, writing, or between replies
    SPEAKING = "speaking"  # its reply is being spoken
    MUTED = "muted"  # barged in on before its reply began: it speaks no more
    DONE = "done"  # its one `turn.done` was sent


class TurnEvent(Enum):
    REPLY_BEGINS = "reply_begins"  # the turn wants to speak its reply
    REPLY_ENDS = "reply_ends"  # the reply was spoken (or refused, or silent)
    BARGE_IN = "barge_in"  # the user started speaking (§5.2)
    CANCEL = "cancel"  # turn.cancel, a newer turn, or the session detached
    FINISH = "finish"  # the turn's own work ended, with a status


class Action(Enum):
    """What the shell does, in this order, for one transition."""

    SPEAK = "speak"  # go on and speak the reply
    FENCE_REPLY = "fence_reply"  # stop the reply now (audio.output.done cancelled)
    CANCEL_WORK = "cancel_work"  # cancel the turn's task
    SEND_DONE = "send_done"  # send the turn's one `turn.done`


_S, _E, _A = TurnState, TurnEvent, Action
_END: Final = (_A.FENCE_REPLY, _A.CANCEL_WORK, _A.SEND_DONE)

# (state, event) → (next state, actions). Absent pairs are `TurnEventInvalid`.
TRANSITIONS: Final[dict[tuple[TurnState, TurnEvent], tuple[TurnState, tuple[Action, ...]]]] = {
    (_S.WORKING, _E.REPLY_BEGINS): (_S.SPEAKING, (_A.SPEAK,)),
    (_S.WORKING, _E.BARGE_IN): (_S.MUTED, ()),
    # A working turn has no reply to fence, but fencing is harmless and
    # keeps "ending a turn" one rule whatever it was doing.
    (_S.WORKING, _E.CANCEL): (_S.DONE, _END),
    (_S.WORKING, _E.FINISH): (_S.DONE, (_A.SEND_DONE,)),
    (_S.SPEAKING, _E.REPLY_ENDS): (_S.WORKING, ()),
    (_S.SPEAKING, _E.BARGE_IN): (_S.DONE, _END),
    (_S.SPEAKING, _E.CANCEL): (_S.DONE, _END),
    # Overrun or a synthesis failure: the speaker already ended the reply.
    (_S.SPEAKING, _E.FINISH): (_S.DONE, (_A.SEND_DONE,)),
    # Muted: after the daemon read new input, no audio of this turn is sent.
    (_S.MUTED, _E.REPLY_BEGINS): (_S.MUTED, ()),
    (_S.MUTED, _E.BARGE_IN): (_S.MUTED, ()),
    (_S.MUTED, _E.CANCEL): (_S.DONE, _END),
    (_S.MUTED, _E.FINISH): (_S.DONE, (_A.SEND_DONE,)),
    # Done absorbs everything: a failed write's `finish` after a detach, a
    # late event of a task that was being cancelled.
    (_S.DONE, _E.REPLY_BEGINS): (_S.DONE, ()),
    (_S.DONE, _E.REPLY_ENDS): (_S.DONE, ()),
    (_S.DONE, _E.BARGE_IN): (_S.DONE, ()),
    (_S.DONE, _E.CANCEL): (_S.DONE, ()),
    (_S.DONE, _E.FINISH): (_S.DONE, ()),
}


class TurnEventInvalid(VacError):
    """The shell fed an event that cannot happen in this state (a bug)."""


def step(state: TurnState, event: TurnEvent) -> tuple[TurnState, tuple[Action, ...]]:
    """The next state and the actions of one event. Pure."""
    found = TRANSITIONS.get((state, event))
    if found is None:
        raise TurnEventInvalid(f"{event.value} cannot happen to a turn that is {state.value}")
    return found


# ------------------------------------------------------------- outcomes


@dataclass(frozen=True, slots=True)
class Speak:
    turn: str


@dataclass(frozen=True, slots=True)
class FenceReply:
    turn: str


@dataclass(frozen=True, slots=True)
class CancelWork:
    turn: str


@dataclass(frozen=True, slots=True)
class SendDone:
    turn: str
    status: TurnStatus


TurnOutcome = Speak | FenceReply | CancelWork | SendDone


@dataclass(slots=True)
class TurnLife:
    """One turn's state. Made only by `TurnBook.start`."""

    id: str
    state: TurnState = TurnState.WORKING

    @property
    def done(self) -> bool:
        return self.state is TurnState.DONE


def _outcome(action: Action, turn: str, status: TurnStatus) -> TurnOutcome:
    match action:
        case Action.SPEAK:
            return Speak(turn)
        case Action.FENCE_REPLY:
            return FenceReply(turn)
        case Action.CANCEL_WORK:
            return CancelWork(turn)
        case Action.SEND_DONE:
            return SendDone(turn, status)


@dataclass(slots=True)
class TurnBook:
    """One session's turns: at most one active, and the recently ended ids."""

    max_ended: int = MAX_ENDED_TURNS
    active: TurnLife | None = None
    ended: deque[str] = field(default_factory=deque)

    def __post_init__(self) -> None:
        self.ended = deque(self.ended, maxlen=self.max_ended)

    def feed(
        self, turn: TurnLife, event: TurnEvent, status: TurnStatus = "cancelled"
    ) -> list[TurnOutcome]:
        """Apply `event` to `turn`; `status` is what a `turn.done` says.

        A cancel or a barge-in always ends a turn `cancelled`.
        """
        was_done = turn.done
        turn.state, actions = step(turn.state, event)
        if event is not TurnEvent.FINISH:
            status = "cancelled"
        if turn.done and not was_done:
            if self.active is turn:
                self.active = None
            self.ended.append(turn.id)
        return [_outcome(a, turn.id, status) for a in actions]

    def start(self, turn_id: str) -> tuple[TurnLife, list[TurnOutcome]]:
        """A new turn becomes the active one; the old one ends `cancelled` first."""
        out = self.end_active()
        turn = self.active = TurnLife(turn_id)
        return turn, out

    def end_active(self) -> list[TurnOutcome]:
        """A newer turn or a detach: the active turn ends `cancelled`."""
        if self.active is None:
            return []
        return self.feed(self.active, TurnEvent.CANCEL)

    def barge_in(self) -> list[TurnOutcome]:
        if self.active is None:
            return []
        return self.feed(self.active, TurnEvent.BARGE_IN)

    def cancel(self, turn_id: str) -> list[TurnOutcome]:
        """`turn.cancel`: the active turn ends; a recently ended one is no error."""
        if self.active is not None and self.active.id == turn_id:
            return self.feed(self.active, TurnEvent.CANCEL)
        if turn_id in self.ended:
            return []
        raise ProtocolError("turn_unknown", "no such turn", turn=turn_id)
