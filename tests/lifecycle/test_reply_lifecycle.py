"""The reply table (vac.lifecycle.reply): every state × event pair, and a
Hypothesis model of any sequence of events a speaker could feed it."""

from __future__ import annotations

import itertools
from typing import get_args

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from vac.lifecycle.reply import (
    DONE_REASON,
    END_OF,
    ENDED,
    LIVE,
    TRANSITIONS,
    ReplyAction,
    ReplyEnd,
    ReplyEvent,
    ReplyEventInvalid,
    ReplyLife,
    ReplyState,
    step,
)

S, E, A = ReplyState, ReplyEvent, ReplyAction
REN, SYN, STR = S.RENDERING, S.SYNTHESIZING, S.STREAMING
COM, CAN, FAI, OVR, REF, SIL = S.COMPLETED, S.CANCELLED, S.FAILED, S.OVERRUN, S.REFUSED, S.SILENT
CUT = (A.DROP_CHUNKS, A.SEND_DONE)
STOP = (A.STOP,)
PLAYED = (A.NOTE_PLAYED,)

Row = tuple[ReplyState, tuple[ReplyAction, ...]] | None


def _row(
    refused: Row = None,
    silent: Row = None,
    started: Row = None,
    phrase_ready: Row = None,
    chunk_due: Row = None,
    chunk_sent: Row = None,
    no_room: Row = None,
    phrase_sent: Row = None,
    done: Row = None,
    fence: Row = None,
    synthesis_failed: Row = None,
    played: Row = None,
) -> dict[ReplyEvent, Row]:
    return {
        E.REFUSED: refused,
        E.SILENT: silent,
        E.STARTED: started,
        E.PHRASE_READY: phrase_ready,
        E.CHUNK_DUE: chunk_due,
        E.CHUNK_SENT: chunk_sent,
        E.NO_ROOM: no_room,
        E.PHRASE_SENT: phrase_sent,
        E.DONE: done,
        E.FENCE: fence,
        E.SYNTHESIS_FAILED: synthesis_failed,
        E.PLAYED: played,
    }


def _streamed(state: ReplyState) -> dict[ReplyEvent, Row]:
    """An ended stream: its task stops at its next event; played still counts."""
    return _row(
        phrase_ready=(state, STOP),
        chunk_due=(state, STOP),
        chunk_sent=(state, STOP),
        no_room=(state, STOP),
        phrase_sent=(state, STOP),
        done=(state, STOP),
        fence=(state, ()),
        synthesis_failed=(state, ()),
        played=(state, PLAYED),
    )


# Written out by hand from PROTOCOL §5.2 and §7, independently of the table.
# None: the speaker can never feed this event in this state (a bug).
EXPECTED: dict[ReplyState, dict[ReplyEvent, Row]] = {
    REN: _row(
        refused=(REF, (A.SEND_REFUSED,)),
        silent=(SIL, ()),
        started=(SYN, (A.SEND_START,)),
    ),
    SYN: _row(
        phrase_ready=(STR, (A.SEND_VISEMES,)),
        fence=(CAN, CUT),
        synthesis_failed=(FAI, CUT),
        played=(SYN, PLAYED),
    ),
    STR: _row(
        chunk_due=(STR, (A.SEND_CHUNK,)),
        chunk_sent=(STR, ()),
        no_room=(OVR, (A.DROP_CHUNKS, A.REPORT_OVERRUN, A.SEND_DONE)),
        phrase_sent=(SYN, ()),
        done=(COM, (A.SEND_DONE,)),
        fence=(CAN, CUT),
        synthesis_failed=(FAI, CUT),
        played=(STR, PLAYED),
    ),
    COM: _streamed(COM),
    CAN: _streamed(CAN),
    FAI: _streamed(FAI),
    OVR: _streamed(OVR),
    # Never streamed: nothing to stop, nothing played; a fence is harmless.
    REF: _row(fence=(REF, ())),
    SIL: _row(fence=(SIL, ())),
}

PAIRS = list(itertools.product(ReplyState, ReplyEvent))


def test_expected_covers_every_pair() -> None:
    assert {(s, e) for s, row in EXPECTED.items() for e in row} == set(PAIRS)


@pytest.mark.parametrize(("state", "event"), PAIRS, ids=str)
def test_every_state_event_pair(state: ReplyState, event: ReplyEvent) -> None:
    expected = EXPECTED[state][event]
    if expected is None:
        assert (state, event) not in TRANSITIONS
        with pytest.raises(ReplyEventInvalid) as info:
            step(state, event)
        assert info.value.code == "internal"
    else:
        assert step(state, event) == expected


def test_send_done_only_on_the_way_from_live_to_ended() -> None:
    for (state, _), (nxt, actions) in TRANSITIONS.items():
        assert (A.SEND_DONE in actions) == (state in LIVE and nxt in ENDED)


def test_ended_is_final() -> None:
    for (state, _), (nxt, _) in TRANSITIONS.items():
        if state in ENDED:
            assert nxt is state


def test_chunks_are_dropped_before_every_end_but_completion() -> None:
    for (state, _), (nxt, actions) in TRANSITIONS.items():
        if state in LIVE and nxt in ENDED:
            assert (A.DROP_CHUNKS in actions) == (nxt is not COM)
            if A.DROP_CHUNKS in actions:
                assert actions.index(A.DROP_CHUNKS) < actions.index(A.SEND_DONE)


def test_stop_only_for_a_reply_that_ended() -> None:
    for (state, _), (_, actions) in TRANSITIONS.items():
        assert (A.STOP in actions) <= (state in ENDED)


def test_wire_reasons_and_ends() -> None:
    assert DONE_REASON == {COM: "completed", CAN: "cancelled", FAI: "failed", OVR: "failed"}
    assert set(END_OF) == ENDED
    assert set(END_OF.values()) == set(get_args(ReplyEnd))
    life = ReplyLife()
    assert life.end is None and not life.ended
    life.feed(E.REFUSED)
    assert life.ended and life.end == "refused"


def test_an_invalid_event_leaves_the_state_alone() -> None:
    life = ReplyLife()
    with pytest.raises(ReplyEventInvalid):
        life.feed(E.CHUNK_DUE)
    assert life.state is REN


def test_a_typical_reply_of_two_phrases() -> None:
    life = ReplyLife()
    out = [
        life.feed(e)
        for e in (
            E.STARTED,
            E.PHRASE_READY,
            E.CHUNK_DUE,
            E.CHUNK_SENT,
            E.PHRASE_SENT,
            E.PHRASE_READY,
            E.CHUNK_DUE,
            E.CHUNK_SENT,
            E.DONE,
        )
    ]
    flat = [a for actions in out for a in actions]
    assert flat == [
        A.SEND_START,
        A.SEND_VISEMES,
        A.SEND_CHUNK,
        A.SEND_VISEMES,
        A.SEND_CHUNK,
        A.SEND_DONE,
    ]
    assert life.end == "completed" and life.done_reason == "completed"


# ------------------------------------------------------------- stateful


class ReplyModel(RuleBasedStateMachine):
    """Feed any event at any time; the shell's promises hold whatever the order."""

    def __init__(self) -> None:
        super().__init__()
        self.life = ReplyLife()
        self.dones = 0
        self.started = False
        self.ended_as: ReplyState | None = None

    @rule(event=st.sampled_from(ReplyEvent))
    def feed(self, event: ReplyEvent) -> None:
        before = self.life.state
        try:
            actions = self.life.feed(event)
        except ReplyEventInvalid:
            assert (before, event) not in TRANSITIONS
            assert self.life.state is before
            return
        self.dones += actions.count(A.SEND_DONE)
        if A.SEND_START in actions:
            assert not self.started
            self.started = True
        if A.SEND_DONE in actions:
            assert self.started
            assert self.life.done_reason in ("completed", "cancelled", "failed")
        if A.STOP in actions:
            # Only a task whose reply already ended is told to stop.
            assert before in ENDED and self.life.state is before
        if before in ENDED:
            assert self.life.state is before
            assert not set(actions) - {A.STOP, A.NOTE_PLAYED}

    @invariant()
    def one_done_per_started_stream(self) -> None:
        assert self.dones <= 1
        if self.started and self.life.ended:
            assert self.dones == 1
        if not self.started:
            assert self.dones == 0

    @invariant()
    def an_end_never_changes(self) -> None:
        if self.life.ended:
            if self.ended_as is None:
                self.ended_as = self.life.state
            assert self.life.state is self.ended_as
            assert self.life.end is not None
        else:
            assert self.life.end is None


ReplyModel.TestCase.settings = settings(max_examples=200, stateful_step_count=30, deadline=None)
test_reply_model = ReplyModel.TestCase
