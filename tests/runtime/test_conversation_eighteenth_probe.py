"""What the twenty-sixth session found (a review of the earlier leftovers
and the blind probes T29, T28c): a second name told to do the order after
it was given ("Kofi, fix the tap. Tariq, you do it") was lost, the draft
Kofi's. Now which of the two is asked, and the answer drafts the order with
that name. The real daemon's twin: tests/daemon/test_amend.py."""

from __future__ import annotations

import pytest

from tests.runtime.test_coordinator import Rig, rig  # noqa: F401 (the fixture)
from vac.protocol.messages import (
    ObjectiveClarify,
    ObjectiveConfirmed,
    ObjectiveDraft,
    ObjectiveRejected,
)


@pytest.mark.parametrize("name", ["Kofi", "Tariq"])
async def test_the_answer_to_which_of_two_drafts_that_ones(rig: Rig, name: str) -> None:  # noqa: F811
    rig.text("t1", "Kofi, fix the tap by Friday. Tariq, you do it.")
    await rig.settle(1)
    assert [m.question for m in rig.of(ObjectiveClarify)] == ["Who should do it: Kofi or Tariq?"]
    assert not rig.of(ObjectiveDraft)
    rig.text("t2", name)
    await rig.settle(2)
    made = [(d.objective.agent, d.objective.target.label) for d in rig.of(ObjectiveDraft)]
    assert made == [(name, "Tap")]
    assert rig.of(ObjectiveDraft)[0].preview.summary.endswith("by Friday — confirm?")


def summaries(rig: Rig) -> list[tuple[str, str, str]]:  # noqa: F811
    return [
        (d.objective.agent, d.objective.verb, d.preview.summary) for d in rig.of(ObjectiveDraft)
    ]


@pytest.mark.parametrize(
    "said", ["just look at it for now", "no, just look at it for now", "just look into it"]
)
async def test_another_deed_on_it_changes_the_verb(rig: Rig, said: str) -> None:  # noqa: F811
    """T28c: "just look at it for now" drafted a second objective, a look
    into "It for now", and the yes was asked which."""
    rig.text("t1", "Tariq, repair the chimney")
    await rig.settle(1)
    rig.text("t2", said)
    await rig.settle(2)
    assert summaries(rig)[-1] == (
        "Tariq",
        "Investigate",
        "Tariq will look into the chimney — confirm?",
    )
    rig.text("t3", "yes")
    await rig.settle(3)
    assert [c.objective.verb for c in rig.of(ObjectiveConfirmed)] == ["Investigate"]


@pytest.mark.parametrize(
    ("said", "agent", "when"),
    [
        ("no, Kofi by Friday", "Kofi", "by Friday"),
        ("make it Kofi by Friday", "Kofi", "by Friday"),
        ("no, Kofi tonight", "Kofi", "tonight"),
        ("no tariq today", "Abeni", "by tomorrow"),  # who is away when: no change
    ],
)
async def test_a_name_and_a_time_change_both(rig: Rig, said: str, agent: str, when: str) -> None:  # noqa: F811
    """T28c: "no, Kofi by Friday" moved the day and kept Abeni."""
    rig.text("t1", "Abeni, repair the gate by tomorrow")
    await rig.settle(1)
    rig.text("t2", said)
    await rig.settle(2)
    last = rig.of(ObjectiveDraft)[-1]
    assert last.objective.agent == agent and f"the gate {when} — confirm?" in last.preview.summary


@pytest.mark.parametrize(
    ("said", "how"),
    [("carefully", ("pace", "careful")), ("slowly then", ("pace", "slow"))],
)
async def test_how_said_alone_is_added(rig: Rig, said: str, how: tuple[str, str]) -> None:  # noqa: F811
    """T28c: "carefully" got "I heard you, but not what to do"."""
    rig.text("t1", "Tariq, fix the gate")
    await rig.settle(1)
    rig.text("t2", said)
    await rig.settle(2)
    last = rig.of(ObjectiveDraft)[-1].objective
    assert [(c.kind, c.value) for c in last.constraints] == [how]


@pytest.mark.parametrize(
    ("said", "done"),
    [
        ("yes that's exactly what I want, thanks", ObjectiveConfirmed),
        ("perfect, go ahead and send it", ObjectiveConfirmed),
        ("no I don't think we need that anymore actually, forget it", ObjectiveRejected),
    ],
)
async def test_a_yes_or_no_said_at_length(rig: Rig, said: str, done: type) -> None:  # noqa: F811
    """T28c: each was "I heard you, but not what to do", and after the
    last a "yes" confirmed the draft just dropped."""
    rig.text("t1", "Tariq, fix the gate")
    await rig.settle(1)
    rig.text("t2", said)
    await rig.settle(2)
    assert len(rig.of(done)) == 1


async def test_just_support_him_changes_nothing_it_was_not_said_of(rig: Rig) -> None:  # noqa: F811
    """A review: "just support him for now" to a repair of the boiler
    drafted a support of the boiler (and the yes confirmed it)."""
    rig.text("t1", "Kofi, fix the boiler")
    await rig.settle(1)
    rig.text("t2", "just support him for now")
    await rig.settle(2)
    assert [d.objective.verb for d in rig.of(ObjectiveDraft)] == ["Repair"]


@pytest.mark.parametrize("said", ["no, Tariq after all", "no, Tariq"])
async def test_a_name_then_no_time_is_the_name(rig: Rig, said: str) -> None:  # noqa: F811
    """A review: "no, Tariq after all" was read as a time ("couldn't change")."""
    rig.text("t1", "Kofi, fix the tap")
    await rig.settle(1)
    rig.text("t2", said)
    await rig.settle(2)
    assert rig.of(ObjectiveDraft)[-1].objective.agent == "Tariq"


async def test_say_again_reads_the_draft_back(rig: Rig) -> None:  # noqa: F811
    """T28c: "say again", "pardon?" got "I heard you, but not what to do"."""
    rig.text("t1", "Tariq, fix the gate by Friday")
    await rig.settle(1)
    rig.text("t2", "pardon?")
    await rig.settle(2)
    assert [m.question for m in rig.of(ObjectiveClarify)] == [
        "Tariq will repair the gate by Friday — confirm?"
    ]


@pytest.mark.parametrize(
    "said", ["do the fence instead", "wrong one, the fence", "wrong thing, it's the fence"]
)
async def test_the_thing_said_instead(rig: Rig, said: str) -> None:  # noqa: F811
    """T28c: "do the fence instead" was a question, "wrong one, the fence" no change."""
    rig.text("t1", "Tariq, fix the gate")
    await rig.settle(1)
    rig.text("t2", said)
    await rig.settle(2)
    assert rig.of(ObjectiveDraft)[-1].objective.target.label == "Fence"


# A conversation probe (T29c, the twenty-sixth session).


@pytest.mark.parametrize("said", ["not yet", "no, not yet", "not now", "hmm, not yet"])
async def test_not_yet_keeps_the_draft_waiting(rig: Rig, said: str) -> None:  # noqa: F811
    """T29c: "not yet" rejected the draft, and "ok now yes" then found none."""
    rig.text("t1", "Zuri, repair the tap")
    await rig.settle(1)
    rig.text("t2", said)
    await rig.settle(2)
    assert not rig.of(ObjectiveRejected)
    assert rig.of(ObjectiveClarify)[-1].question.startswith("Okay, take your time.")
    rig.text("t3", "ok now yes")
    await rig.settle(3)
    assert [c.objective.target.label for c in rig.of(ObjectiveConfirmed)] == ["Tap"]


@pytest.mark.parametrize("said", ["and when will she have it done?", "and when is it due?"])
async def test_a_question_with_and_first_changes_nothing(rig: Rig, said: str) -> None:  # noqa: F811
    """T29c: "…by Friday, when will she have it done — confirm?" was drafted and confirmed."""
    rig.text("t1", "Imani, repair the fence by Friday")
    await rig.settle(1)
    rig.text("t2", said)
    await rig.settle(2)
    assert len(rig.of(ObjectiveDraft)) == 1 and not rig.of(ObjectiveRejected)


async def test_a_hedge_in_an_answer_is_no_part_of_the_thing(rig: Rig) -> None:  # noqa: F811
    """T29c: "definitely the gate" was read back "…repair definitely the gate"."""
    rig.text("t1", "Kofi, repair it")
    await rig.settle(1)
    rig.text("t2", "definitely the gate")
    await rig.settle(2)
    assert rig.of(ObjectiveDraft)[-1].objective.target.label == "Gate"


@pytest.mark.parametrize(
    ("said", "agent"),
    [
        ("it should be Kofi who does it", "Kofi"),
        ("I think Imani should handle that one", "Imani"),
        ("I want Imani to do it", "Imani"),
    ],
)
async def test_the_one_who_should_do_it_said_in_a_sentence(rig: Rig, said: str, agent: str) -> None:  # noqa: F811
    """T29c: each changed nothing, and the yes confirmed Abeni's."""
    rig.text("t1", "Abeni, fix the gate")
    await rig.settle(1)
    rig.text("t2", said)
    await rig.settle(2)
    assert rig.of(ObjectiveDraft)[-1].objective.agent == agent


@pytest.mark.parametrize("said", ["sorry, yes", "yes sorry"])
async def test_sorry_around_a_yes(rig: Rig, said: str) -> None:  # noqa: F811
    rig.text("t1", "Tariq, fix the gate")
    await rig.settle(1)
    rig.text("t2", said)
    await rig.settle(2)
    assert len(rig.of(ObjectiveConfirmed)) == 1


@pytest.mark.parametrize(
    ("said", "label", "agent"),
    [
        ("no, Tariq on the weekend", "Boiler", "Tariq"),
        ("wrong one, the heater", "Heater", "Kofi"),
        ("do the shopping instead", "Boiler", "Kofi"),  # a chore: asked, nothing changed
        ("wrong one, the heater in the loft", "Boiler", "Kofi"),  # asked: it kept the boiler
    ],
)
async def test_changes_a_review_found_taken_too_far(
    rig: Rig,  # noqa: F811
    said: str,
    label: str,
    agent: str,
) -> None:
    rig.text("t1", "Kofi, fix the boiler")
    await rig.settle(1)
    rig.text("t2", said)
    await rig.settle(2)
    last = rig.of(ObjectiveDraft)[-1].objective
    assert (last.target.label, last.agent) == (label, agent)
