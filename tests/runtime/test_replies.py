"""A repeated message id's stored outcome (PROTOCOL §2): every message of the
turn it began, to its `turn.done`; bounded; after a restart each turn ends."""

from __future__ import annotations

from vac.protocol.agent_messages import ObjectiveListResult, SquadAnswered
from vac.protocol.messages import (
    AudioOutputStart,
    Error,
    Negotiation,
    ObjectiveClarify,
    ObjectiveConfirmed,
    ObjectiveDraft,
    ObjectiveRejected,
    Preview,
    SquadMessage,
    TranscriptFinal,
    TurnDone,
)
from vac.runtime.session import LISTINGS_KEPT, REPEATS_WAITING_MAX, Replies, ended

PREVIEW = Preview(
    summary="Kofi will build a bench by Friday.", state="awaiting-steward-confirmation"
)


def final(ref: str | None, turn: str) -> TranscriptFinal:
    return TranscriptFinal(ref=ref, stream=None, turn=turn, text="once", confidence=1.0)


def test_a_turns_later_messages_without_ref_are_its_outcome_but_not_its_audio() -> None:
    r = Replies(window=8)
    r.begin("m1")
    r.record(final("m1", "t1"))
    clarify = ObjectiveClarify(turn="t1", reason="no-verb", question="What?")
    r.record(clarify)
    start = AudioOutputStart(
        turn="t1",
        stream="s1",
        generation=1,
        rate=24000,
        text="What?",
        encoding="pcm_s16le",
        channels=1,
    )
    r.record(start)
    r.record(ObjectiveClarify(turn="t-other", reason="no-verb", question="?"))  # no id began it
    done = TurnDone(turn="t1", status="needs-clarification", latency_ms={"ack": 3})
    r.record(done)
    assert r.seen("m1") == [final("m1", "t1"), clarify, done]


def test_the_turns_remembered_are_bounded_by_the_window() -> None:
    r = Replies(window=4)
    for i in range(50):
        r.begin(f"m{i}")
        r.record(final(f"m{i}", f"t{i}"))
    assert len(r.turns) == 4 and len(r.recent) == 4


def test_a_retryable_error_is_no_outcome() -> None:
    r = Replies(window=8)
    r.begin("m1")
    r.record(Error(ref="m1", code="busy", message="later", retryable=True))
    assert r.seen("m1") is None


def test_a_turn_stays_with_the_id_that_began_it_and_a_later_retryable_error_keeps_it() -> None:
    r = Replies(window=8)
    r.begin("m1")
    r.record(final("m1", "t1"))
    r.begin("m2")
    r.record(Error(ref="m2", code="invalid_message", message="no", retryable=False, turn="t1"))
    r.record(Error(ref=None, code="busy", message="later", retryable=True, turn="t1"))
    done = TurnDone(turn="t1", status="needs-clarification", latency_ms={})
    r.record(done)
    assert r.seen("m1") == [final("m1", "t1"), done]


def test_outcomes_read_back_after_a_restart_end_each_turn() -> None:
    stored = [final("m1", "t1"), ObjectiveClarify(turn="t1", reason="no-verb", question="?")]
    assert ended(stored)[-1] == TurnDone(turn="t1", status="needs-clarification", latency_ms={})
    whole = [*stored, TurnDone(turn="t1", status="needs-clarification", latency_ms={"ack": 2})]
    assert ended(whole) == whole  # never a second one
    assert ended([final("m1", "t1")]) == [final("m1", "t1")]  # no decision: nothing to end
    r = Replies(window=8)
    r.load([("m1", stored)])
    assert r.seen("m1") == ended(stored)


def test_after_a_restart_a_confirm_with_a_counter_and_a_request_end_completed() -> None:
    """§5: `completed` for confirm turns, also when the counter-offer's draft
    comes last; a permission-request's turn (its squad.message) ends too."""
    from tests.runtime.test_offers import objective

    obj = objective("o1")
    stored = [
        ObjectiveConfirmed(ref="c1", turn="t1", objective_id="o1", objective=obj),
        Negotiation(
            turn="t1",
            objective_id="o1",
            decision="counter-offer",
            reply="By Friday instead?",
            reason="",
            evidence=[],
            answered_by="agent",
        ),
        ObjectiveDraft(turn="t1", objective=objective("o2"), preview=PREVIEW, counter_of="o1"),
    ]
    assert ended(stored)[-1] == TurnDone(turn="t1", status="completed", latency_ms={})
    asked = [
        SquadMessage(
            ref="p1",
            kind="permission-request",
            sender="Kofi",
            recipients=["steward"],
            text="May I use the ladder?",
            realm="household",
            time_sensitive=False,
            needs_steward=True,
            duckable=False,
            turn="t2",
        )
    ]
    assert ended(asked) == [*asked, TurnDone(turn="t2", status="completed", latency_ms={})]
    answered = [
        SquadAnswered(
            ref="a1",
            turn="t3",
            message_id="m1",
            answer="granted",
            text="yes",
            by="alice",
            asked_by="Kofi",
        )
    ]
    assert ended(answered)[-1] == TurnDone(turn="t3", status="completed", latency_ms={})


def test_a_written_outcome_outlives_any_number_of_later_ids() -> None:
    """An independent client's pings pushed a confirm out of the window, and
    its retried "yes" then confirmed the draft pending by then (§2)."""
    r = Replies(window=4)
    r.begin("yes-1")
    r.record(final("yes-1", "t1"))
    confirmed = [final("yes-1", "t1"), ObjectiveClarify(turn="t1", reason="x", question="?")]
    r.settle("yes-1", confirmed)
    for i in range(1000):
        r.begin(f"ping-{i}")
    assert r.seen("yes-1") == confirmed
    assert r.seen("ping-0") is None and r.seen("ping-999") == []
    done = TurnDone(turn="t1", status="completed", latency_ms={})
    r.record(done)  # the turn's end still joins its outcome
    assert r.seen("yes-1") == [*confirmed, done]
    for i in range(4):  # written outcomes are bounded too (as the event log keeps them)
        r.settle(f"d{i}", [])
    assert r.seen("yes-1") is None and len(r.decided) == 4


def test_only_the_newest_listings_are_kept_an_older_ones_id_is_answered_afresh() -> None:
    """Kept whole (~75 KB each), 256 listings made every session held for
    resume ~15 MiB: a probe grew the daemon 146 MiB in 10 sessions. The
    newest `LISTINGS_KEPT` are answered again as they were (PROTOCOL §2)."""
    r = Replies(window=64)
    for i in range(LISTINGS_KEPT + 3):
        r.begin(f"l{i}")
        r.record(ObjectiveListResult(ref=f"l{i}", objectives=[], more=False))
    newest = [f"l{i}" for i in range(3, LISTINGS_KEPT + 3)]
    assert all(r.seen(ref) for ref in newest)  # the stored answer, again
    assert all(r.seen(f"l{i}") is None for i in range(3))  # older: executed again
    assert len(r.listings) == LISTINGS_KEPT
    r.begin("e")
    r.record(Error(ref="e", code="internal", message="x", retryable=False))
    assert r.seen("e") is not None  # other outcomes are kept as before


def test_a_repeat_while_the_outcome_is_made_waits_for_all_of_it() -> None:
    r = Replies(window=8)
    r.begin("m1")
    assert r.wait("m1") and r.wait("m1")  # sent twice more before any reply
    assert r.record(final("m1", "t1")) == []  # the turn goes on
    done = TurnDone(turn="t1", status="parsed", latency_ms={"ack": 3})
    assert r.record(done) == [("m1", 2)]  # complete: both repeats are answered now
    assert r.seen("m1") == [final("m1", "t1"), done]
    assert not r.wait("m1")  # later repeats are answered at once, as before


def test_a_repeat_of_a_reply_without_a_turn_is_answered_with_it() -> None:
    r = Replies(window=8)
    r.begin("p1")
    assert r.wait("p1")
    err = Error(ref="p1", code="objective_unknown", message="no such objective", retryable=False)
    assert r.record(err) == [("p1", 1)]


def test_an_error_naming_a_turn_it_did_not_begin_is_the_whole_answer() -> None:
    # turn.cancel of an unknown turn: its repeats waited for that turn's
    # turn.done, which never came (an independent client's probe).
    r = Replies(window=8)
    r.begin("tc")
    err = Error(ref="tc", code="turn_unknown", message="no such turn", retryable=False, turn="t9")
    assert r.record(err) == []
    assert r.seen("tc") == [err]
    assert not r.wait("tc")  # answered at once with it
    r.begin("c1")  # an error in a turn its id began stays part of that turn
    r.record(final("c1", "t1"))
    failed = Error(ref="c1", code="output_overrun", message="x", retryable=False, turn="t1")
    assert r.record(failed) == []
    assert r.wait("c1")


def test_a_second_id_answered_in_a_turn_another_began_is_complete_when_it_ends() -> None:
    # A stream's second commit id gets the turn's transcript; its repeats wait
    # for that turn's turn.done (they waited for ever: the turn was the first id's).
    r = Replies(window=8)
    r.begin("c1")
    r.record(final("c1", "t1"))
    r.begin("c2")
    r.record(final("c2", "t1"))
    assert r.wait("c2")
    done = TurnDone(turn="t1", status="parsed", latency_ms={})
    assert r.record(done) == [("c2", 1)]


def test_a_repeat_of_an_ended_turn_waits_for_the_turn_under_way() -> None:
    """A client-author probe: an old id sent again during a new turn was
    answered at once, its turn's messages between the new turn's (§5: one
    turn is active per session). Now after the new turn's `turn.done`."""
    r = Replies(window=8)
    r.begin("m1")
    r.record(final("m1", "t1"))
    r.record(TurnDone(turn="t1", status="parsed", latency_ms={}))
    old = r.seen("m1")
    assert old is not None and not r.defer("m1", old)  # no turn under way: at once
    r.begin("m2")
    r.record(final("m2", "t2"))
    assert r.defer("m1", old) and r.defer("m1", old)
    assert r.record(TurnDone(turn="t2", status="parsed", latency_ms={})) == [("m1", 2)]
    assert r.live is None and not r.deferred
    # A late message of an ended turn does not make it live again.
    r.record(final(None, "t1"))
    assert r.live is None and not r.defer("m1", old)
    # An error naming a turn never begun here (turn.cancel of an unknown turn)
    # makes no turn live: nothing would ever end it.
    r.record(Error(ref="x", code="turn_unknown", message="x", retryable=False, turn="t9"))
    assert r.live is None
    pong_like = [Error(ref="e", code="objective_unknown", message="x", retryable=False)]
    r.begin("m3")
    r.record(final("m3", "t3"))
    assert not r.defer("e", pong_like)  # an outcome of no turn: at once
    for _ in range(REPEATS_WAITING_MAX):
        assert r.defer("m1", old)
    assert not r.defer("m1", old)  # bounded: past the limit, at once


def test_a_change_to_a_draft_replayed_after_a_restart_ends_parsed() -> None:
    # A review: the stored new draft, then the old one's rejection, replayed
    # `turn.done {completed}`; the turn had ended `parsed`.
    from tests.runtime.test_offers import objective

    stored = [
        final("m1", "t1"),
        ObjectiveDraft(turn="t1", objective=objective("o2"), preview=PREVIEW),
        ObjectiveRejected(turn="t1", objective_id="o1", objective=objective("o1")),
    ]
    assert ended(stored)[-1] == TurnDone(turn="t1", status="parsed", latency_ms={})
