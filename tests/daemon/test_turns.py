"""Text turns end to end over real sockets: draft, confirm/edit/reject, negotiation."""

from __future__ import annotations

import msgspec
import pytest

from tests.conftest import RunningDaemon, fast_config, start_daemon
from vac.client.connection import Connection
from vac.home import Home
from vac.protocol.messages import (
    Error,
    Negotiation,
    ObjectiveClarify,
    ObjectiveConfirm,
    ObjectiveConfirmed,
    ObjectiveDraft,
    ObjectiveReject,
    ObjectiveRejected,
    OutboundMessage,
    SquadMessage,
    SquadSend,
    TextInput,
    TranscriptFinal,
    TurnCancel,
    TurnDone,
)
from vac.protocol.objective_lifecycle import ANSWERS
from vac.runtime.store import EventLog

pytestmark = pytest.mark.slow


def turn(c: Connection, msg: object, timeout_s: float = 10.0) -> list[OutboundMessage]:
    c.send(msg)  # type: ignore[arg-type]
    return [m for m, _ in c.recv_until(lambda m: isinstance(m, TurnDone), timeout_s)]


def say(c: Connection, text: str) -> list[OutboundMessage]:
    return turn(c, TextInput(id=c.next_id(), text=text))


def one(msgs: list[OutboundMessage], cls: type) -> object:
    found = [m for m in msgs if isinstance(m, cls)]
    assert len(found) == 1, (cls.__name__, msgs)
    return found[0]


def test_text_turn_yields_a_draft_never_a_command(daemon: RunningDaemon) -> None:
    c = daemon.connect()
    c.hello()
    msgs = say(c, "Tell Kofi to build a wooden bench near the pond by tomorrow")
    assert [type(m).__name__ for m in msgs] == ["TranscriptFinal", "ObjectiveDraft", "TurnDone"]
    final, draft, done = msgs
    assert isinstance(final, TranscriptFinal) and final.stream is None and final.ref
    assert isinstance(draft, ObjectiveDraft) and isinstance(done, TurnDone)
    obj = draft.objective
    assert (obj.status, obj.confirmed_by_steward, obj.accepted_by_agent) == ("draft", False, False)
    assert obj.agent == "Kofi" and obj.verb == "Build"
    assert draft.preview.state == "awaiting-steward-confirmation"
    assert "Kofi" in draft.preview.summary
    assert done.status in ("parsed", "budget-exceeded")
    assert {"parse", "ack"} <= set(done.latency_ms)
    assert final.turn == draft.turn == done.turn


def test_unclear_words_clarify(daemon: RunningDaemon) -> None:
    c = daemon.connect()
    c.hello()
    msgs = say(c, "maybe the weather is nice")
    clarify = one(msgs, ObjectiveClarify)
    assert isinstance(clarify, ObjectiveClarify) and clarify.question
    done = msgs[-1]
    assert isinstance(done, TurnDone) and done.status == "needs-clarification"
    assert not any(isinstance(m, ObjectiveDraft) for m in msgs)


def test_several_agents_at_once_are_asked_and_the_answer_drafts_one(
    daemon: RunningDaemon,
) -> None:
    c = daemon.connect()
    c.hello()
    asked = one(say(c, "ask Kofi, Zuri and Imani to map the orchard"), ObjectiveClarify)
    assert isinstance(asked, ObjectiveClarify) and asked.reason == "uncertain-agent"
    assert asked.candidates == ["Kofi", "Zuri", "Imani"]
    draft = one(say(c, "Zuri"), ObjectiveDraft)
    assert isinstance(draft, ObjectiveDraft)
    assert draft.objective.agent == "Zuri" and draft.objective.verb == "Map"
    assert draft.objective.source_text == "ask Zuri to map the orchard"


def test_a_name_no_one_has_is_asked_and_the_answer_drafts_it(daemon: RunningDaemon) -> None:
    c = daemon.connect()
    c.hello()
    asked = one(say(c, "Ask Duri to fix the gate by Friday"), ObjectiveClarify)
    assert isinstance(asked, ObjectiveClarify) and asked.reason == "unknown-agent"
    assert "Duri" in asked.question and "Zuri" in asked.candidates
    draft = one(say(c, "Zuri"), ObjectiveDraft)
    assert isinstance(draft, ObjectiveDraft)
    assert (draft.objective.agent, draft.objective.verb) == ("Zuri", "Repair")
    assert draft.objective.source_text == "Ask Zuri to fix the gate by Friday"


def test_the_answer_to_what_to_do_goes_to_the_agent_addressed(daemon: RunningDaemon) -> None:
    c = daemon.connect()
    c.hello()
    asked = one(
        say(c, "Zuri, the radiator in the hall is cold. Can you bleed it?"), ObjectiveClarify
    )
    assert isinstance(asked, ObjectiveClarify) and asked.reason == "no-verb"
    assert "Should Zuri repair" in asked.question
    draft = one(say(c, "fix the radiator"), ObjectiveDraft)
    assert isinstance(draft, ObjectiveDraft)
    assert (draft.objective.agent, draft.objective.verb) == ("Zuri", "Repair")


def test_names_said_before_the_order_are_asked_and_any_agent_answers(
    daemon: RunningDaemon,
) -> None:
    c = daemon.connect()
    c.hello()
    asked = one(say(c, "Kofi is here. Zuri, fix the gate by Friday."), ObjectiveClarify)
    assert isinstance(asked, ObjectiveClarify) and asked.reason == "uncertain-agent"
    assert asked.candidates[:2] == ["Kofi", "Zuri"] and "Tariq" in asked.candidates
    draft = one(say(c, "Tariq"), ObjectiveDraft)
    assert isinstance(draft, ObjectiveDraft)
    assert (draft.objective.agent, draft.objective.verb) == ("Tariq", "Repair")
    assert draft.objective.deadline is not None
    assert draft.objective.source_text == "Tariq fix the gate by Friday."


def test_a_missing_thing_and_an_unclear_deadline_are_answered_in_a_word(
    daemon: RunningDaemon,
) -> None:
    c = daemon.connect()
    c.hello()
    asked = one(say(c, "Ask Kofi to repair by Friday"), ObjectiveClarify)
    assert isinstance(asked, ObjectiveClarify) and asked.reason == "no-target"
    draft = one(say(c, "the gate"), ObjectiveDraft)
    assert isinstance(draft, ObjectiveDraft)
    assert (draft.objective.agent, draft.objective.target.label) == ("Kofi", "Gate")
    assert draft.objective.source_text == "Ask Kofi to repair the gate by Friday"
    asked = one(say(c, "Ask Zuri to map the river after Friday"), ObjectiveClarify)
    assert isinstance(asked, ObjectiveClarify) and asked.reason == "unclear-deadline"
    draft = one(say(c, "by Saturday"), ObjectiveDraft)
    assert isinstance(draft, ObjectiveDraft) and draft.objective.deadline is not None
    assert draft.objective.source_text == "Ask Zuri to map the river by Saturday"
    asked = one(say(c, "Ask Imani to water the plants by Friday"), ObjectiveClarify)
    assert isinstance(asked, ObjectiveClarify) and asked.reason == "no-verb"
    assert '"water the plants" for Imani' in asked.question
    draft = one(say(c, "take care of the plants"), ObjectiveDraft)
    assert isinstance(draft, ObjectiveDraft)
    assert (draft.objective.agent, draft.objective.verb) == ("Imani", "Support")
    assert draft.objective.deadline is not None  # "by Friday" kept
    # A name typed without its comma, and the deed that answers with
    # "instead" after it (a seventh typed probe: the default agent's).
    asked = one(say(c, "Tariq mop the floor"), ObjectiveClarify)
    assert isinstance(asked, ObjectiveClarify) and '"mop the floor" for Tariq' in asked.question
    draft = one(say(c, "guard the house instead"), ObjectiveDraft)
    assert isinstance(draft, ObjectiveDraft)
    assert (draft.objective.agent, draft.objective.verb) == ("Tariq", "Protect")
    # Something else drops the question: a new order is its own.
    one(say(c, "Ask Kofi to repair by Friday"), ObjectiveClarify)
    other = one(say(c, "Ask Tariq to guard the barn"), ObjectiveDraft)
    assert isinstance(other, ObjectiveDraft) and other.objective.agent == "Tariq"


def test_confirm_negotiates_and_reject_rejects(daemon: RunningDaemon) -> None:
    c = daemon.connect()
    c.hello()
    draft = one(say(c, "Ask Zuri to repair the garden gate by tomorrow"), ObjectiveDraft)
    assert isinstance(draft, ObjectiveDraft)
    oid = draft.objective.id
    msgs = turn(c, ObjectiveConfirm(id=c.next_id(), objective_id=oid))
    confirmed = one(msgs, ObjectiveConfirmed)
    neg = one(msgs, Negotiation)
    assert isinstance(confirmed, ObjectiveConfirmed) and isinstance(neg, Negotiation)
    assert confirmed.objective.confirmed_by_steward
    # Offered and answered in one decision: the status is the answer's (§9).
    assert confirmed.objective.status == ANSWERS[neg.decision]
    assert neg.decision in ("accept", "clarify", "counter-offer", "defer", "refuse") and neg.reply
    assert isinstance(msgs[-1], TurnDone) and msgs[-1].status == "completed"
    # A settled objective is not pending any more.
    err_msgs = list(c.drain(0.2))
    c.send(ObjectiveConfirm(id=c.next_id(), objective_id=oid))
    err = c.expect(Error)
    assert err.code == "objective_unknown"
    del err_msgs
    second = one(say(c, "have Tariq investigate the noise in the barn"), ObjectiveDraft)
    assert isinstance(second, ObjectiveDraft)
    rejected = one(
        turn(c, ObjectiveReject(id=c.next_id(), objective_id=second.objective.id)),
        ObjectiveRejected,
    )
    assert isinstance(rejected, ObjectiveRejected) and rejected.objective.status == "rejected"


def test_edit_makes_a_new_revision_and_bad_edits_name_every_field(daemon: RunningDaemon) -> None:
    c = daemon.connect()
    c.hello()
    draft = one(say(c, "Ask Abeni to map the grove path"), ObjectiveDraft)
    assert isinstance(draft, ObjectiveDraft)
    oid = draft.objective.id
    c.send(
        ObjectiveConfirm(
            id="bad",
            objective_id=oid,
            edits={"priority": 101, "forbidden_lines": [], "status": "confirmed"},
        )
    )
    err = c.expect(Error)
    assert err.code == "objective_invalid" and err.ref == "bad"
    assert err.details is not None
    fields = set(err.details["fields"])
    assert {"priority", "forbidden_lines", "status"} <= fields
    assert "priority" in err.message and "forbidden_lines" in err.message
    c.send(ObjectiveConfirm(id="stale", objective_id=oid, revision=draft.objective.revision + 5))
    stale = c.expect(Error)
    assert stale.code == "objective_invalid" and stale.details == {"fields": ["revision"]}
    msgs = turn(
        c,
        ObjectiveConfirm(
            id=c.next_id(),
            objective_id=oid,
            revision=draft.objective.revision,
            edits={"priority": 90},
        ),
    )
    confirmed = one(msgs, ObjectiveConfirmed)
    assert isinstance(confirmed, ObjectiveConfirmed)
    assert confirmed.objective.priority == 90
    assert confirmed.objective.revision == draft.objective.revision + 1


def test_a_condition_said_after_the_draft_is_added_to_it(daemon: RunningDaemon) -> None:
    """It was "I heard you, but not what to do" (a seventh typed probe)."""
    c = daemon.connect()
    c.hello()
    draft = one(say(c, "Kofi, fix the gate"), ObjectiveDraft)
    assert isinstance(draft, ObjectiveDraft)
    again = one(say(c, "but only if it stops raining"), ObjectiveDraft)
    assert isinstance(again, ObjectiveDraft) and again.objective.id != draft.objective.id
    assert [(k.kind, k.value) for k in again.objective.constraints] == [
        ("custom", "only if it stops raining")
    ]
    assert "only if it stops raining" in again.preview.summary


def test_only_the_principal_can_confirm_its_draft(daemon: RunningDaemon) -> None:
    alice, bob = daemon.connect("alice"), daemon.connect("bob")
    alice.hello()
    bob.hello()
    draft = one(say(alice, "Ask Imani to support the harvest"), ObjectiveDraft)
    assert isinstance(draft, ObjectiveDraft)
    oid = draft.objective.id
    for msg in (
        ObjectiveConfirm(id="x1", objective_id=oid),
        ObjectiveReject(id="x2", objective_id=oid),
    ):
        bob.send(msg)
        err = bob.expect(Error)
        assert err.code == "objective_unknown"
    bob.send(ObjectiveConfirm(id="x3", objective_id="no-such-objective"))
    unknown = bob.expect(Error)
    assert unknown.message == err.message  # existence is never revealed
    # Still pending for alice, from another of her sessions.
    alice2 = daemon.connect("alice")
    ok = alice2.hello()
    assert [p.id for p in ok.pending] == [oid]
    msgs = turn(alice2, ObjectiveConfirm(id=alice2.next_id(), objective_id=oid))
    assert any(isinstance(m, Negotiation) for m in msgs)


def test_spoken_yes_confirms_the_sole_pending_draft_and_cancel_rejects(
    daemon: RunningDaemon,
) -> None:
    c = daemon.connect()
    c.hello()
    one(say(c, "Ask Kofi to build a bench by the pond"), ObjectiveDraft)
    msgs = say(c, "yes")
    assert any(isinstance(m, ObjectiveConfirmed) for m in msgs)
    assert any(isinstance(m, Negotiation) for m in msgs)
    one(say(c, "Ask Kofi to repair the fence"), ObjectiveDraft)
    msgs = say(c, "never mind")
    assert any(isinstance(m, ObjectiveRejected) for m in msgs)


def test_coercion_is_refused_again_and_audited(daemon: RunningDaemon) -> None:
    c = daemon.connect()
    c.hello()
    draft = one(say(c, "ask Abeni to support the story and mislead the visitors"), ObjectiveDraft)
    assert isinstance(draft, ObjectiveDraft)
    oid = draft.objective.id
    first = one(turn(c, ObjectiveConfirm(id=c.next_id(), objective_id=oid)), Negotiation)
    assert isinstance(first, Negotiation) and first.decision == "refuse"
    again = one(turn(c, ObjectiveConfirm(id=c.next_id(), objective_id=oid)), Negotiation)
    assert isinstance(again, Negotiation) and again.decision == "refuse"
    assert "value:honesty" in again.evidence
    rows = daemon.query(EventLog.audit_rows, "alice")
    refused = [r for r in rows if r["kind"] == "ObjectiveRefused"]
    assert refused and set(refused[-1]["detail"]["tags"]) == {
        "vac-negotiation",
        "coercion",
        "objective-refusal",
    }


def test_turn_cancel_rules(daemon: RunningDaemon) -> None:
    c = daemon.connect()
    c.hello()
    msgs = say(c, "Ask Kofi to build a bench")
    ended = msgs[-1]
    assert isinstance(ended, TurnDone)
    c.send(TurnCancel(id="c1", turn=ended.turn))  # an ended turn: a no-op
    c.send(TurnCancel(id="c2", turn="never-seen"))
    err = c.expect(Error)
    assert (err.code, err.ref) == ("turn_unknown", "c2")
    for _ in range(3):  # the same id again: the stored answer each time (it got nothing)
        c.send(TurnCancel(id="c2", turn="never-seen"))
        again = c.expect(Error, 3)
        assert (again.code, again.ref) == ("turn_unknown", "c2")


def test_cancelling_an_ended_turn_is_a_no_op_after_a_restart_too(home: Home) -> None:
    """A client-author probe (2026-12-06): after a restart and a resume, a
    `turn.cancel` of a turn the session had ended was `turn_unknown` ("no
    such turn"); §5.2: a no-op, the error only for a turn never seen."""
    d = start_daemon(home, config=fast_config())
    c = d.connect()
    session = c.hello().session
    ended = next(m for m in say(c, "Ask Kofi to build a bench") if isinstance(m, TurnDone))
    d.shutdown()
    d = start_daemon(home, config=fast_config())
    try:
        c = d.connect()
        assert c.hello(resume=session).resumed
        c.send(TurnCancel(id="c1", turn=ended.turn))
        c.send(TurnCancel(id="c2", turn="never-seen"))
        err = c.expect(Error)  # the first is answered with nothing at all
        assert (err.code, err.ref) == ("turn_unknown", "c2")
    finally:
        d.shutdown()


def test_squad_message_routed(daemon: RunningDaemon) -> None:
    c = daemon.connect()
    c.hello()
    msgs = turn(
        c, SquadSend(id=c.next_id(), kind="callout", text="Storm coming, bring the tools in")
    )
    routed = one(msgs, SquadMessage)
    assert isinstance(routed, SquadMessage) and routed.time_sensitive
    assert routed.sender == "steward" and "Kofi" in routed.recipients
    msgs = turn(c, SquadSend(id=c.next_id(), kind="directed-order", text="Fix the gate", to="kofi"))
    order = one(msgs, SquadMessage)
    assert isinstance(order, SquadMessage) and order.recipients == ["Kofi"]


def test_a_squad_message_reaches_every_attached_session_of_the_household(
    daemon: RunningDaemon,
) -> None:
    c = daemon.connect()
    c.hello()
    mine = daemon.connect()  # the same steward, another device
    mine.hello()
    bob = daemon.connect("bob")
    bob.hello()
    msgs = turn(c, SquadSend(id="q1", kind="callout", text="Storm coming, bring the tools in"))
    sent = one(msgs, SquadMessage)
    assert isinstance(sent, SquadMessage) and sent.ref == "q1" and sent.turn is not None
    for other in (mine, bob):
        shared = other.expect(SquadMessage)
        assert (shared.text, shared.sender, shared.ref, shared.turn) == (
            "Storm coming, bring the tools in",
            "steward",
            None,
            None,
        )


def test_objective_schema_is_strict_everywhere() -> None:
    from vac.intent import objective_json_schema

    schema = objective_json_schema()

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if node.get("type") == "object":
                assert node.get("additionalProperties") is False, node
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(schema)
    assert msgspec.json.encode(schema)
