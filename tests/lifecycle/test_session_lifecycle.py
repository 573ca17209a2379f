"""The session table (vac.lifecycle.session): every state × event pair, and
a Hypothesis model of one session's life under any sequence of events."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from vac.lifecycle.session import (
    BYE_REASON,
    TRANSITIONS,
    Action,
    SessionEvent,
    SessionEventInvalid,
    SessionState,
    reason_of,
    step,
)

OP, A, D, E, F = (
    SessionState.OPENING,
    SessionState.ATTACHED,
    SessionState.DETACHED,
    SessionState.ENDED,
    SessionState.FORGOTTEN,
)
Ev = SessionEvent
DETACH = (Action.LOG_DETACHED, Action.NOTIFY_DETACHED, Action.UNBIND)
EXPIRE = (
    Action.CLEAR_OUTBOX,
    Action.NOTIFY_DETACHED,
    Action.SEND_BYE,
    Action.FLUSH,
    Action.LOG_DETACHED,
    Action.UNBIND,
)
TAKEOVER = (
    Action.LOG_DETACHED,
    Action.NOTIFY_DETACHED,
    Action.SEND_BYE,
    Action.FLUSH,
    Action.ATTACH,
)
BYE = (Action.LOG_DETACHED, Action.NOTIFY_DETACHED, Action.RELEASE, Action.RECORD_END)
SHUTDOWN = (Action.LOG_DETACHED, Action.NOTIFY_DETACHED, Action.SEND_BYE)
DETACHING = (Ev.REHELLO, Ev.REVOKED, Ev.UNREACHABLE, Ev.OVERFLOW)
EXPIRING = (Ev.IDLE, Ev.REPLACED)

Step = tuple[SessionState, tuple[Action, ...]]

# Written out by hand from PROTOCOL §3 and the daemon's rules, independently
# of the table. None: the shell can never feed this event in this state.
EXPECTED: dict[tuple[SessionState, SessionEvent], Step | None] = {
    (OP, Ev.HELLO_OK): (A, (Action.ATTACH,)),
    (OP, Ev.RESUME): (A, (Action.ATTACH,)),  # read back by a racing resume
    **{(OP, e): None for e in (*DETACHING, *EXPIRING)},  # it has no connection
    (OP, Ev.SHUTDOWN): (OP, ()),
    (OP, Ev.BYE): None,
    (OP, Ev.EVICTED): None,  # only detached sessions are kept, and evicted
    (OP, Ev.ABANDONED): (F, (Action.FORGET,)),
    (A, Ev.HELLO_OK): None,  # only a new session is answered hello_ok
    (A, Ev.RESUME): (A, TAKEOVER),
    **{(A, e): (D, DETACH) for e in DETACHING},
    # §3 `bye {revoked}`, after the `unauthorized` the shell queued first.
    (A, Ev.REVOKED): (
        D,
        (Action.NOTIFY_DETACHED, Action.SEND_BYE, Action.FLUSH, Action.LOG_DETACHED, Action.UNBIND),
    ),
    **{(A, e): (D, EXPIRE) for e in EXPIRING},
    (A, Ev.SHUTDOWN): (A, SHUTDOWN),  # its bye drains through the connection
    (A, Ev.BYE): (E, BYE),
    (A, Ev.EVICTED): None,
    (A, Ev.ABANDONED): (A, ()),  # a failed resume leaves it where it was
    (D, Ev.HELLO_OK): None,
    (D, Ev.RESUME): (A, (Action.ATTACH,)),
    **{(D, e): (D, ()) for e in (*DETACHING, *EXPIRING)},
    (D, Ev.SHUTDOWN): (D, ()),
    (D, Ev.BYE): (D, ()),
    (D, Ev.EVICTED): (F, (Action.FORGET,)),
    (D, Ev.ABANDONED): (D, ()),
    **{(E, e): (E, ()) for e in SessionEvent},
    **{(F, e): (F, ()) for e in SessionEvent},
    (F, Ev.RESUME): (A, (Action.ATTACH,)),  # evicted while its resume was answered
}


def test_expected_covers_every_pair() -> None:
    assert set(EXPECTED) == set(itertools.product(SessionState, SessionEvent))


@pytest.mark.parametrize(
    ("state", "event"), list(itertools.product(SessionState, SessionEvent)), ids=str
)
def test_every_state_event_pair(state: SessionState, event: SessionEvent) -> None:
    expected = EXPECTED[(state, event)]
    if expected is None:
        assert (state, event) not in TRANSITIONS
        with pytest.raises(SessionEventInvalid) as info:
            step(state, event)
        assert info.value.code == "internal"
        assert event.value in info.value.message and state.value in info.value.message
    else:
        assert step(state, event) == expected


def test_every_bye_has_a_wire_reason() -> None:
    for (_, event), (_, actions) in TRANSITIONS.items():
        if Action.SEND_BYE in actions:
            assert event in BYE_REASON
    assert BYE_REASON[Ev.RESUME] == "replaced"  # heard by the connection it was taken from


def test_reasons_are_the_event_names_but_a_takeover() -> None:
    assert reason_of(Ev.RESUME) == "replaced"
    for event in SessionEvent:
        if event is not Ev.RESUME:
            assert reason_of(event) == event.value


def test_terminal_states_never_leave_but_a_forgotten_resume() -> None:
    for (state, event), (nxt, _) in TRANSITIONS.items():
        if state is E:
            assert nxt is E
        if state is F and event is not Ev.RESUME:
            assert nxt is F


# -------------------------------------------------------- hypothesis model


class SessionLifeMachine(RuleBasedStateMachine):
    """One session fed any event its state allows; the actions are carried
    out on a model of the shell (bound or not, in the table or not, what the
    pipeline and the event log were told) and checked against the state."""

    def __init__(self) -> None:
        super().__init__()
        self.state = OP
        self.bound = False
        self.in_table = True
        self.notified = 0  # `on_detached` calls
        self.left = 0  # times it stopped being bound (or was taken over)
        self.ends_recorded = 0
        self.forgotten = 0

    def carry(self, event: SessionEvent, actions: tuple[Action, ...]) -> None:
        was_bound = self.bound
        for action in actions:
            match action:
                case Action.ATTACH:
                    self.bound = self.in_table = True
                case Action.UNBIND:
                    assert self.bound
                    self.bound = False
                case Action.RELEASE:
                    assert self.bound
                    self.bound = self.in_table = False
                case Action.FORGET:
                    assert not self.bound
                    self.in_table = False
                    self.forgotten += 1
                case Action.NOTIFY_DETACHED:
                    assert self.bound  # the pipeline hears of a live connection only
                    self.notified += 1
                case Action.SEND_BYE | Action.FLUSH | Action.CLEAR_OUTBOX | Action.LOG_DETACHED:
                    assert self.bound  # nothing is sent to, or logged of, no connection
                    if action is Action.SEND_BYE:
                        assert event in BYE_REASON
                case Action.RECORD_END:
                    self.ends_recorded += 1
        if was_bound and (not self.bound or event is Ev.RESUME):
            self.left += 1

    @rule(event=st.sampled_from(SessionEvent))
    def feed(self, event: SessionEvent) -> None:
        if (self.state, event) not in TRANSITIONS:
            with pytest.raises(SessionEventInvalid):
                step(self.state, event)
            return
        before = self.state
        self.state, actions = step(self.state, event)
        self.carry(event, actions)
        if before is E:
            assert actions == ()

    @invariant()
    def bound_exactly_while_attached(self) -> None:
        assert self.bound == (self.state is A)

    @invariant()
    def in_the_table_exactly_while_alive(self) -> None:
        assert self.in_table == (self.state in (OP, A, D))

    @invariant()
    def the_pipeline_hears_of_every_departure(self) -> None:
        # Shutdown tells the pipeline but stays bound (its bye must drain).
        assert self.notified >= self.left

    @invariant()
    def an_end_is_recorded_once(self) -> None:
        assert self.ends_recorded == (1 if self.state is E else 0)


TestSessionLifeMachine = SessionLifeMachine.TestCase
TestSessionLifeMachine.settings = settings(max_examples=200, stateful_step_count=40, deadline=None)
