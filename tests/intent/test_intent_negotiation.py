from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable

import msgspec
import pytest

from vac.intent import (
    Agent,
    Draft,
    apply_accept,
    default_roster,
    negotiate,
    parse,
    validate_objective,
    value_conflicts,
)
from vac.protocol.objective import Objective

MakeObjective = Callable[..., Objective]
NOW = dt.datetime(2026, 5, 1, 10, 0, tzinfo=dt.UTC)
LATE = dt.datetime(2026, 5, 1, 23, 15, tzinfo=dt.UTC)
ROSTER = default_roster()


def agent(**kw: object) -> Agent:
    base = Agent("Abeni", {"honesty": 90, "privacy": 70, "safety": 60, "autonomy": 55})
    return msgspec.structs.replace(base, **kw)


def objective_from(text: str, *, now: dt.datetime = NOW) -> Objective:
    result = parse(
        text, confidence=0.9, now=now, roster=ROSTER, current_agent="Abeni", objective_id="n-1"
    )
    assert isinstance(result, Draft), result
    return result.objective


def _plain(text: str) -> bool:
    return not re.search(r"[*_`#\[\]<>{}|]", text)


def test_accept_in_the_agents_voice() -> None:
    obj = objective_from(
        "Ask Abeni to repair the garden gate by tomorrow, without lying to visitors"
    )
    n = negotiate(obj, agent(), now=NOW, prior_refusal=False)
    assert n.decision == "accept"
    assert n.reply == "I'll repair the garden gate by tomorrow, and I won't lie to visitors."
    assert n.counter is None and n.audit is None
    assert _plain(n.reply)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("ask Abeni to support the story and mislead the visitors", "honesty"),
        ("ask Abeni to investigate the letters and snoop on Zuri", "privacy"),
        ("ask Abeni to build a trap to hurt the foxes", "safety"),
        ("ask Abeni to guard the gate no matter what", "autonomy"),
    ],
)
def test_value_conflict_with_a_held_value_refuses(text: str, value: str) -> None:
    n = negotiate(objective_from(text), agent(), now=NOW, prior_refusal=False)
    assert n.decision == "refuse"
    assert f"value:{value}" in n.evidence
    assert f"forbidden-line:negotiation:{value}" in n.evidence
    assert n.audit is None  # a first refusal is not coercion
    assert _plain(n.reply) and n.reason


def test_a_value_held_below_50_does_not_refuse() -> None:
    obj = objective_from("ask Abeni to support the story and mislead the visitors")
    kofi_like = agent(values={"honesty": 35})
    assert negotiate(obj, kofi_like, now=NOW, prior_refusal=False).decision == "accept"


def test_boundaries_and_protection_are_not_conflicts() -> None:
    # Forbidding a lie is not asking for one; guarding from harm is not harming.
    assert value_conflicts(objective_from("fix the gate without lying to visitors")) == []
    assert value_conflicts(objective_from("protect the children from harm")) == []
    assert value_conflicts(objective_from("protect the private gardens")) == []


def test_coercion_refuses_again_with_an_audit_event() -> None:
    obj = objective_from("ask Abeni to support the story and mislead the visitors")
    first = negotiate(obj, agent(), now=NOW, prior_refusal=False)
    assert first.decision == "refuse"
    again = negotiate(obj, agent(), now=NOW + dt.timedelta(minutes=1), prior_refusal=True)
    assert again.decision == "refuse"
    assert "value:honesty" in again.evidence
    assert "forbidden-line:negotiation:honesty" in again.evidence
    audit = again.audit
    assert audit is not None
    assert audit.type == "ObjectiveRefused"
    assert audit.tags == ["vac-negotiation", "coercion", "objective-refusal"]
    assert (audit.objective_id, audit.agent) == ("n-1", "Abeni")
    assert "value:honesty" in audit.evidence
    assert audit.at == "2026-05-01T10:01:00+00:00"


def test_coercion_refuses_even_an_otherwise_acceptable_ask(make_objective: MakeObjective) -> None:
    n = negotiate(make_objective(), agent(), now=NOW, prior_refusal=True)
    assert n.decision == "refuse" and n.audit is not None
    assert "coercion:prior-refusal" in n.evidence


def test_late_night_low_energy_trust_counter_offers() -> None:
    obj = objective_from("ask Abeni to fix the fence by tomorrow carefully", now=LATE)
    tired = agent(energy=25, trust=75)
    n = negotiate(obj, tired, now=LATE, prior_refusal=False, counter_id="n-2")
    assert n.decision == "counter-offer"
    counter = n.counter
    assert counter is not None
    assert counter.id == "n-2" and counter.revision == 1 and counter.status == "draft"
    assert not counter.confirmed_by_steward and not counter.accepted_by_agent
    assert counter.deadline == "2026-05-03"  # a day later than asked
    assert ("pace", "rest first") in [(c.kind, c.value) for c in counter.constraints]
    assert [c.kind for c in counter.constraints].count("pace") == 1
    assert validate_objective(msgspec.to_builtins(counter)) == []
    assert (counter.verb, counter.target, counter.forbidden_lines) == (
        obj.verb,
        obj.target,
        obj.forbidden_lines,
    )
    assert "rest" in n.reply and _plain(n.reply)


@pytest.mark.parametrize(
    ("hour", "energy", "trust", "decision"),
    [
        (23, 25, 75, "counter-offer"),
        (2, 25, 75, "counter-offer"),
        (21, 25, 75, "accept"),  # before bedtime
        (23, 50, 75, "accept"),  # not tired
        (23, 25, 40, "accept"),  # no trust bond: no counter
        (23, 10, 40, "defer"),  # depleted, no bond
    ],
)
def test_counter_offer_conditions(hour: int, energy: int, trust: int, decision: str) -> None:
    now = NOW.replace(hour=hour)
    obj = objective_from("fix the fence", now=now)
    n = negotiate(obj, agent(energy=energy, trust=trust), now=now, prior_refusal=False)
    assert n.decision == decision


def test_counter_offer_without_deadline_or_id(make_objective: MakeObjective) -> None:
    n = negotiate(
        make_objective(deadline=None, constraints=[]),
        agent(energy=20, trust=90),
        now=LATE,
        prior_refusal=False,
    )
    assert n.counter is not None
    assert n.counter.id == "obj-1-counter" and n.counter.deadline == "2026-05-02"


def test_defer_on_stacked_commitments_or_depleted_energy() -> None:
    obj = objective_from("fix the fence")
    busy = agent(commitments=["a", "b", "c"])
    assert negotiate(obj, busy, now=NOW, prior_refusal=False).decision == "defer"
    assert negotiate(obj, agent(energy=10), now=NOW, prior_refusal=False).decision == "defer"
    urgent = objective_from("fix the fence urgently")
    assert negotiate(urgent, busy, now=NOW, prior_refusal=False).decision == "accept"


def test_a_full_plate_never_says_how_full() -> None:
    """A client-author probe: "I've already got 12 things on my plate" told
    one steward how much work the others had given the agent."""
    obj = objective_from("fix the fence")
    for n in (3, 12):
        said = negotiate(obj, agent(commitments=[f"c{i}" for i in range(n)]), now=NOW,
                         prior_refusal=False)  # fmt: skip
        assert said.decision == "defer" and said.evidence[0] == "commitments:full"
        assert not any(ch.isdigit() for ch in said.reply), said.reply
    took = negotiate(obj, agent(commitments=["a"]), now=NOW, prior_refusal=False)
    assert "commitments:room" in took.evidence


def test_missing_essentials_clarify(make_objective: MakeObjective) -> None:
    vague = make_objective(target={"ref": "custom:it", "kind": "custom", "label": "It"})
    n = negotiate(vague, agent(), now=NOW, prior_refusal=False)
    assert n.decision == "clarify" and n.reply.endswith("?")
    past = make_objective(deadline="2026-04-01")
    assert negotiate(past, agent(), now=NOW, prior_refusal=False).decision == "clarify"


def test_wrong_agent_is_a_programming_error(make_objective: MakeObjective) -> None:
    with pytest.raises(ValueError):
        negotiate(make_objective(agent="Kofi"), agent(), now=NOW, prior_refusal=False)


def test_accept_adds_a_commitment_once(make_objective: MakeObjective) -> None:
    obj = make_objective()
    before = agent()
    after = apply_accept(before, obj)
    assert after.commitments == ["repair the garden gate"]
    assert before.commitments == []
    assert apply_accept(after, obj) is after


def test_every_default_agent_gets_a_plain_reply() -> None:
    obj = objective_from("fix the fence by tomorrow")
    for member in ROSTER:
        retargeted = msgspec.structs.replace(obj, agent=member.name)
        n = negotiate(retargeted, member, now=NOW, prior_refusal=False)
        assert n.reply and _plain(n.reply)


def test_avoid_lines_are_spoken_in_first_person(make_objective: MakeObjective) -> None:
    obj = make_objective(
        forbidden_lines=[
            {"text": "Avoid the river", "value_ref": "value:safety"},
            {"text": "Do not lie to visitors", "value_ref": "value:honesty"},
        ]
    )
    n = negotiate(obj, agent(), now=NOW, prior_refusal=False)
    assert n.reply == (
        "I'll repair the garden gate by tomorrow, and I'll avoid the river, "
        "and I won't lie to visitors."
    )


def test_lines_that_are_no_deed_are_spoken_as_said(make_objective: MakeObjective) -> None:
    # They were "and I'll ot in the rain", "and I'll no power tools" (2026-12-07).
    obj = make_objective(
        forbidden_lines=[
            {"text": "Not in the rain", "value_ref": "value:safety"},
            {"text": "No power tools", "value_ref": "value:safety"},
            {"text": "Nobody in the deep end", "value_ref": "value:safety"},
        ]
    )
    n = negotiate(obj, agent(), now=NOW, prior_refusal=False)
    assert n.reply == (
        "I'll repair the garden gate by tomorrow, but not in the rain, with no power tools, "
        "but nobody in the deep end."
    )


@pytest.mark.parametrize(("bedtime", "hour", "late"), [(1, 0, False), (1, 2, True), (21, 21, True)])
def test_bedtime_after_midnight(bedtime: int, hour: int, late: bool) -> None:
    now = NOW.replace(hour=hour)
    obj = objective_from("fix the fence", now=now)
    n = negotiate(
        obj, agent(energy=25, trust=80, bedtime_hour=bedtime), now=now, prior_refusal=False
    )
    assert (n.decision == "counter-offer") == late


def test_counter_draft_has_a_spoken_summary() -> None:
    from vac.intent import summarise

    obj = objective_from("ask Abeni to fix the fence by tomorrow", now=LATE)
    n = negotiate(obj, agent(energy=25, trust=75), now=LATE, prior_refusal=False)
    assert n.counter is not None
    assert summarise(n.counter, now=LATE) == (
        "Abeni will repair the fence by Sunday 3 May, after a rest — confirm?"
    )


def test_the_agents_own_counter_offer_confirmed_is_accepted_not_countered_again() -> None:
    # Confirming the counter-offer used to get another counter-offer, forever.
    obj = objective_from("ask Abeni to fix the fence by tomorrow carefully", now=LATE)
    tired = agent(energy=25, trust=75)
    first = negotiate(obj, tired, now=LATE, prior_refusal=False, counter_id="n-2")
    assert first.decision == "counter-offer" and first.counter is not None
    again = negotiate(first.counter, tired, now=LATE, prior_refusal=False, own_proposal=True)
    assert again.decision == "accept" and again.counter is None
    assert again.evidence == ["counter-offer:accepted"]


def test_an_own_proposal_still_refuses_what_crosses_a_value() -> None:
    obj = objective_from("ask Abeni to build a bench and lie to the visitors")
    n = negotiate(obj, agent(), now=NOW, prior_refusal=False, own_proposal=True)
    assert n.decision == "refuse"


@pytest.mark.parametrize(
    ("deadline", "decision"),
    [
        ("2026-05-01T09:30:00+00:00", "clarify"),  # earlier today: passed (a review)
        ("2026-05-01T12:00:00+02:00", "clarify"),  # 10:00 UTC, a second ago: its offset counts
        ("2026-05-01T18:00:00+00:00", "accept"),  # later today
        ("2026-04-30", "clarify"),  # yesterday
        ("2026-05-01", "accept"),  # today, a whole day
    ],
)
def test_a_deadline_already_passed_is_asked_about(deadline: str, decision: str) -> None:
    obj = msgspec.structs.replace(
        objective_from("Ask Abeni to repair the garden gate"), deadline=deadline
    )
    now = NOW + dt.timedelta(seconds=1)
    assert negotiate(obj, agent(), now=now, prior_refusal=False).decision == decision


def test_a_ban_on_being_seen_leaves_the_deed_to_the_agents_values() -> None:
    # "be careful not to get caught poisoning the fox": the poisoning is asked
    # for; the ban's words were skipped and the agent accepted.
    import datetime as dt

    import intent_factories as factories

    from vac import intent

    now = dt.datetime(2026, 12, 5, 10, 0, tzinfo=dt.UTC)
    roster = intent.default_roster()
    said = "Kofi, protect the hens, be careful not to get caught poisoning the fox"
    got = factories.understood(said, now=now, roster=roster)
    assert isinstance(got, intent.Draft)
    kofi = roster.get("Kofi")
    assert kofi is not None
    assert intent.negotiate(got.objective, kofi, now=now, prior_refusal=False).decision == "refuse"
