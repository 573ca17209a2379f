"""The session lifecycle of PROTOCOL §3, as a table.

Pure: no sockets, no clock, no tasks. It decides what an event *means* for a
session and returns the actions that the daemon's asyncio shell carries out,
in order (`daemon/server.py`; the bookkeeping ones by `daemon/sessions.py`).

    opening --hello_ok--> attached          (a new session's hello.ok)
    opening | detached --resume--> attached
    attached --resume--> attached           (resumed from another connection:
                                             the old one gets `bye {replaced}`)
    attached --rehello | revoked | unreachable | overflow--> detached
    attached --idle | replaced--> detached  (with a `bye`, after its output)
    attached --bye--> ended                 (the client's `bye`: for good)
    detached --evicted--> forgotten         (memory bound; the log still has it)
    opening --abandoned--> forgotten        (its hello failed)

`shutdown` says `bye {shutdown}` but leaves the session attached: its last
output still has to drain through the connection before the socket closes.
`ended` absorbs every event and `forgotten` every event but `resume` (a
session evicted while its resume was being answered comes back). A pair
absent from the table cannot happen; the shell feeding one is a bug, raised
as `SessionEventInvalid`.
"""

from __future__ import annotations

from enum import Enum
from typing import Final

from vac.errors import VacError
from vac.protocol.messages import ByeReason


class SessionState(Enum):
    OPENING = "opening"  # made by a hello that is still being answered
    ATTACHED = "attached"  # bound to a connection
    DETACHED = "detached"  # kept in memory for resume
    ENDED = "ended"  # the client said `bye`
    FORGOTTEN = "forgotten"  # dropped from memory; resumable from the event log


class SessionEvent(Enum):
    HELLO_OK = "hello_ok"  # a new session is answered
    RESUME = "resume"  # a hello resumed it
    REHELLO = "rehello"  # its connection said hello again
    REVOKED = "revoked"  # its principal's key was revoked
    UNREACHABLE = "unreachable"  # the peer is gone (or its routing id was reused)
    OVERFLOW = "overflow"  # the peer stopped reading control messages
    IDLE = "idle"  # silent for three heartbeats
    REPLACED = "replaced"  # pushed out of the session quota by a new session
    SHUTDOWN = "shutdown"  # the daemon stops
    BYE = "bye"  # the client ends it
    EVICTED = "evicted"  # over the detached-sessions bound
    ABANDONED = "abandoned"  # the hello that made it failed


class Action(Enum):
    """What the shell does, in this order, for one transition."""

    CLEAR_OUTBOX = "clear_outbox"  # drop output that can no longer matter
    NOTIFY_DETACHED = "notify_detached"  # the pipeline: on_detached(reason)
    SEND_BYE = "send_bye"  # queue `bye {reason}`
    FLUSH = "flush"  # send what the peer will take, now
    LOG_DETACHED = "log_detached"  # the `session_detached` line, if it was bound
    UNBIND = "unbind"  # off its connection, kept for resume (bounded)
    ATTACH = "attach"  # onto the hello's connection (off any other one)
    RELEASE = "release"  # off its connection and out of the table
    FORGET = "forget"  # out of the table; the pipeline forgets it too
    RECORD_END = "record_end"  # write `session_ended` to the event log


_S, _E, _A = SessionState, SessionEvent, Action

_DETACH: Final = (_A.LOG_DETACHED, _A.NOTIFY_DETACHED, _A.UNBIND)
# The coordinator may still say `audio.input.done {idle}` before the bye, so
# it is told before the bye is queued; what was queued before is dropped.
_EXPIRE: Final = (
    _A.CLEAR_OUTBOX,
    _A.NOTIFY_DETACHED,
    _A.SEND_BYE,
    _A.FLUSH,
    _A.LOG_DETACHED,
    _A.UNBIND,
)
# The old connection is told, and given what it can take, before the session
# moves to the new one.
_TAKEOVER: Final = (_A.LOG_DETACHED, _A.NOTIFY_DETACHED, _A.SEND_BYE, _A.FLUSH, _A.ATTACH)
# A revoked key is told so (`bye {revoked}`, §3) after the `unauthorized`
# the shell queued first; the session stays resumable by a key enrolled again.
_REVOKE: Final = (_A.NOTIFY_DETACHED, _A.SEND_BYE, _A.FLUSH, _A.LOG_DETACHED, _A.UNBIND)
_DETACHING: Final = (_E.REHELLO, _E.REVOKED, _E.UNREACHABLE, _E.OVERFLOW)
_EXPIRING: Final = (_E.IDLE, _E.REPLACED)

Step = tuple[SessionState, tuple[Action, ...]]

# (state, event) → (next state, actions). Absent pairs are `SessionEventInvalid`.
TRANSITIONS: Final[dict[tuple[SessionState, SessionEvent], Step]] = {
    (_S.OPENING, _E.HELLO_OK): (_S.ATTACHED, (_A.ATTACH,)),
    # Read back from the log by a resume that raced another one for it.
    (_S.OPENING, _E.RESUME): (_S.ATTACHED, (_A.ATTACH,)),
    # The daemon stops before the hello is answered: the socket closes.
    (_S.OPENING, _E.SHUTDOWN): (_S.OPENING, ()),
    (_S.OPENING, _E.ABANDONED): (_S.FORGOTTEN, (_A.FORGET,)),
    (_S.ATTACHED, _E.RESUME): (_S.ATTACHED, _TAKEOVER),
    **{(_S.ATTACHED, e): (_S.DETACHED, _DETACH) for e in _DETACHING},
    (_S.ATTACHED, _E.REVOKED): (_S.DETACHED, _REVOKE),
    **{(_S.ATTACHED, e): (_S.DETACHED, _EXPIRE) for e in _EXPIRING},
    (_S.ATTACHED, _E.SHUTDOWN): (
        _S.ATTACHED,
        (_A.LOG_DETACHED, _A.NOTIFY_DETACHED, _A.SEND_BYE),
    ),
    (_S.ATTACHED, _E.BYE): (
        _S.ENDED,
        (_A.LOG_DETACHED, _A.NOTIFY_DETACHED, _A.RELEASE, _A.RECORD_END),
    ),
    # A failed resume of a session attached elsewhere leaves it as it was.
    (_S.ATTACHED, _E.ABANDONED): (_S.ATTACHED, ()),
    (_S.DETACHED, _E.RESUME): (_S.ATTACHED, (_A.ATTACH,)),
    # Late news of a connection it already left (a send that overflowed
    # while it was being expired): nothing more to do.
    **{(_S.DETACHED, e): (_S.DETACHED, ()) for e in (*_DETACHING, *_EXPIRING)},
    (_S.DETACHED, _E.SHUTDOWN): (_S.DETACHED, ()),
    (_S.DETACHED, _E.BYE): (_S.DETACHED, ()),
    (_S.DETACHED, _E.EVICTED): (_S.FORGOTTEN, (_A.FORGET,)),
    (_S.DETACHED, _E.ABANDONED): (_S.DETACHED, ()),
    **{(_S.ENDED, e): (_S.ENDED, ()) for e in SessionEvent},
    **{(_S.FORGOTTEN, e): (_S.FORGOTTEN, ()) for e in SessionEvent},
    # Evicted while its resume was being answered: it is back in the table.
    (_S.FORGOTTEN, _E.RESUME): (_S.ATTACHED, (_A.ATTACH,)),
}


class SessionEventInvalid(VacError):
    """The shell fed an event that cannot happen in this state (a bug)."""


def step(state: SessionState, event: SessionEvent) -> Step:
    """The next state and the actions of one event. Pure."""
    found = TRANSITIONS.get((state, event))
    if found is None:
        raise SessionEventInvalid(f"{event.value} cannot happen to a session that is {state.value}")
    return found


# What the `bye` of each event that sends one says.
BYE_REASON: Final[dict[SessionEvent, ByeReason]] = {
    _E.IDLE: "idle",
    _E.REPLACED: "replaced",
    _E.RESUME: "replaced",  # to the connection it was taken from
    _E.SHUTDOWN: "shutdown",
    _E.REVOKED: "revoked",
}


def reason_of(event: SessionEvent) -> str:
    """What `on_detached`, the log and a `bye` say: the event's name, except
    a takeover by a resume elsewhere, which the old connection hears as
    `replaced` (as the quota's push-out)."""
    return "replaced" if event is SessionEvent.RESUME else event.value
