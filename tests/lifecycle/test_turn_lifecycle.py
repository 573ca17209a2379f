"""The turn table (vac.lifecycle.turn): every state × event pair, the
session's book of turns, and a Hypothesis model of any sequence of events."""

from __future__ import annotations

import itertools
from typing import get_args

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from vac.lifecycle.turn import (
    MAX_ENDED_TURNS,
    TRANSITIONS,
    Action,
    CancelWork,
    FenceReply,
    SendDone,
    Speak,
    TurnBook,
    TurnEvent,
    TurnEventInvalid,
    TurnLife,
    TurnOutcome,
    TurnState,
    step,
)
from vac.protocol.errors import ProtocolError
from vac.protocol.messages import TurnStatus

W, SP, M, D = TurnState.WORKING, TurnState.SPEAKING, TurnState.MUTED, TurnState.DONE
RB, RE, BI, CA, FI = (
    TurnEvent.REPLY_BEGINS,
    TurnEvent.REPLY_ENDS,
    TurnEvent.BARGE_IN,
    TurnEvent.CANCEL,
    TurnEvent.FINISH,
)
END = (Action.FENCE_REPLY, Action.CANCEL_WORK, Action.SEND_DONE)

# Written out by hand from PROTOCOL §5 and §5.2, independently of the table.
# None: the shell can never feed this event in this state (a bug).
EXPECTED: dict[tuple[TurnState, TurnEvent], tuple[TurnState, tuple[Action, ...]] | None] = {
    (W, RB): (SP, (Action.SPEAK,)),
    (W, RE): None,  # no reply began
    (W, BI): (M, ()),  # still working: it goes on, silent
    (W, CA): (D, END),
    (W, FI): (D, (Action.SEND_DONE,)),
    (SP, RB): None,  # one reply at a time
    (SP, RE): (W, ()),
    (SP, BI): (D, END),  # the reply is cut and the turn cancelled
    (SP, CA): (D, END),
    (SP, FI): (D, (Action.SEND_DONE,)),
    (M, RB): (M, ()),  # muted: never speaks
    (M, RE): None,  # its reply never began
    (M, BI): (M, ()),
    (M, CA): (D, END),
    (M, FI): (D, (Action.SEND_DONE,)),
    (D, RB): (D, ()),
    (D, RE): (D, ()),
    (D, BI): (D, ()),
    (D, CA): (D, ()),
    (D, FI): (D, ()),
}


def test_expected_covers_every_pair() -> None:
    assert set(EXPECTED) == set(itertools.product(TurnState, TurnEvent))


@pytest.mark.parametrize(("state", "event"), list(itertools.product(TurnState, TurnEvent)), ids=str)
def test_every_state_event_pair(state: TurnState, event: TurnEvent) -> None:
    expected = EXPECTED[(state, event)]
    if expected is None:
        assert (state, event) not in TRANSITIONS
        with pytest.raises(TurnEventInvalid) as info:
            step(state, event)
        assert info.value.code == "internal"
    else:
        assert step(state, event) == expected


def test_done_is_final_and_only_done_is_final() -> None:
    for (state, _), (nxt, _) in TRANSITIONS.items():
        if state is D:
            assert nxt is D
    live = [s for s in TurnState if s is not D]
    for state in live:
        assert TRANSITIONS[(state, CA)][0] is D
        assert TRANSITIONS[(state, FI)][0] is D


def test_send_done_only_on_the_way_into_done() -> None:
    for (state, _), (nxt, actions) in TRANSITIONS.items():
        assert (Action.SEND_DONE in actions) == (state is not D and nxt is D)


# ------------------------------------------------------------- the book


def test_start_ends_the_active_turn_cancelled() -> None:
    book = TurnBook()
    first, out = book.start("t1")
    assert out == [] and book.active is first
    second, out = book.start("t2")
    assert out == [FenceReply("t1"), CancelWork("t1"), SendDone("t1", "cancelled")]
    assert first.done and book.active is second
    assert list(book.ended) == ["t1"]


def test_finish_sends_done_once_with_its_status() -> None:
    book = TurnBook()
    turn, _ = book.start("t1")
    assert book.feed(turn, FI, "parsed") == [SendDone("t1", "parsed")]
    assert book.active is None
    assert book.feed(turn, FI, "failed") == []
    assert book.feed(turn, CA) == []


def test_barge_in_mutes_a_working_turn_and_cuts_a_speaking_one() -> None:
    book = TurnBook()
    turn, _ = book.start("t1")
    assert book.barge_in() == []
    assert turn.state is M
    assert book.feed(turn, RB) == []  # muted: no Speak
    other, _ = book.start("t2")
    assert book.feed(other, RB) == [Speak("t2")]
    assert book.barge_in() == [FenceReply("t2"), CancelWork("t2"), SendDone("t2", "cancelled")]
    assert book.barge_in() == []  # nothing active


def test_cancel_of_active_ended_and_unknown_turns() -> None:
    book = TurnBook()
    book.start("t1")
    assert book.cancel("t1")[-1] == SendDone("t1", "cancelled")
    assert book.cancel("t1") == []  # ended: no error, nothing to do
    with pytest.raises(ProtocolError) as info:
        book.cancel("nope")
    assert info.value.code == "turn_unknown" and info.value.turn == "nope"


def test_a_finish_status_never_leaks_into_a_cancel() -> None:
    book = TurnBook()
    turn, _ = book.start("t1")
    assert book.feed(turn, CA, "completed") == [
        FenceReply("t1"),
        CancelWork("t1"),
        SendDone("t1", "cancelled"),
    ]


def test_ended_ids_are_bounded() -> None:
    book = TurnBook(max_ended=3)
    for i in range(5):
        book.start(f"t{i}")
    book.end_active()
    assert list(book.ended) == ["t2", "t3", "t4"]
    with pytest.raises(ProtocolError):
        book.cancel("t0")
    assert TurnBook().ended.maxlen == MAX_ENDED_TURNS


# ----------------------------------------------------- any sequence of events

# Every status a turn's own work may end with (a cancel always says `cancelled`).
FINISHED: list[TurnStatus] = [s for s in get_args(TurnStatus) if s != "cancelled"]
STATUSES = st.sampled_from(FINISHED)


class TurnBookMachine(RuleBasedStateMachine):
    """Whatever happens, each turn ends with exactly one `turn.done`, at most
    one turn is active, a muted or ended turn never speaks, and a cancel or
    a barge-in ends a turn `cancelled`."""

    def __init__(self) -> None:
        super().__init__()
        self.book = TurnBook(max_ended=8)
        self.turns: list[TurnLife] = []
        self.done: dict[str, int] = {}
        self.next_id = 0

    def carry(self, outcomes: list[TurnOutcome], *, cancelled: bool = False) -> None:
        for out in outcomes:
            if isinstance(out, SendDone):
                self.done[out.turn] = self.done.get(out.turn, 0) + 1
                if cancelled:
                    assert out.status == "cancelled"
        dones = [o for o in outcomes if isinstance(o, SendDone)]
        assert len(dones) <= 1
        if dones:  # fence and cancel come before the turn.done
            assert outcomes[-1] is dones[0]

    @rule()
    def start(self) -> None:
        turn_id = f"t{self.next_id}"
        self.next_id += 1
        old = self.book.active
        turn, out = self.book.start(turn_id)
        self.carry(out, cancelled=True)
        if old is not None:
            assert old.done
        self.turns.append(turn)

    @precondition(lambda self: self.turns)
    @rule(data=st.data(), status=STATUSES)
    def finish(self, data: st.DataObject, status: TurnStatus) -> None:
        turn = data.draw(st.sampled_from(self.turns))
        was_done = turn.done
        out = self.book.feed(turn, FI, status)
        self.carry(out)
        assert out == ([] if was_done else [SendDone(turn.id, status)])

    @rule()
    def barge_in(self) -> None:
        self.carry(self.book.barge_in(), cancelled=True)

    @rule()
    def end_active(self) -> None:
        self.carry(self.book.end_active(), cancelled=True)

    @precondition(lambda self: self.turns)
    @rule(data=st.data())
    def cancel(self, data: st.DataObject) -> None:
        turn = data.draw(st.sampled_from(self.turns))
        known = turn is self.book.active or turn.id in self.book.ended
        if known:
            self.carry(self.book.cancel(turn.id), cancelled=True)
            assert turn.done
        else:
            with pytest.raises(ProtocolError):
                self.book.cancel(turn.id)

    @rule()
    def cancel_unknown(self) -> None:
        with pytest.raises(ProtocolError):
            self.book.cancel("never")

    @precondition(lambda self: self.turns)
    @rule(data=st.data())
    def reply(self, data: st.DataObject) -> None:
        """A turn's work asks to speak, and its reply ends (as `turns.py` does)."""
        turn = data.draw(st.sampled_from(self.turns))
        if turn.state is SP:
            return  # its reply is under way; the shell never asks twice
        before = turn.state
        out = self.book.feed(turn, RB)
        assert (out == [Speak(turn.id)]) == (before is W)
        if out:
            assert turn.state is SP
            if data.draw(st.booleans()):
                assert self.book.feed(turn, RE) == []
                assert turn.state is W

    @invariant()
    def one_done_per_ended_turn(self) -> None:
        for turn in self.turns:
            assert self.done.get(turn.id, 0) == (1 if turn.done else 0)

    @invariant()
    def the_active_turn_is_live_and_latest(self) -> None:
        active = self.book.active
        live = [t for t in self.turns if not t.done]
        assert len(live) <= 1
        assert live == ([active] if active is not None else [])
        if active is not None:
            assert active is self.turns[-1]
            assert active.id not in self.book.ended

    @invariant()
    def ended_ids_are_the_latest_done(self) -> None:
        ended = [t.id for t in self.turns if t.done]
        assert set(self.book.ended) <= set(ended)
        assert len(self.book.ended) == min(len(ended), 8)


TestTurnBookMachine = TurnBookMachine.TestCase
TestTurnBookMachine.settings = settings(max_examples=200, stateful_step_count=40, deadline=None)
