"""Changes from an eleventh typed probe's conversations (2026-12-07, the
nineteenth session): "scratch the deadline" changed nothing."""

from __future__ import annotations

import pytest

from tests.runtime import amend_factories as factories
from vac.intent import Draft


@pytest.mark.parametrize("text", ["scratch the deadline", "ok, scratch that deadline"])
def test_scratching_the_deadline_takes_it_off(text: str) -> None:
    got = factories.changed(text, "Zuri, check the hives tomorrow")
    assert isinstance(got, Draft), got
    assert got.objective.deadline is None
    assert not [c for c in got.objective.constraints if c.kind == "time"]


PLANTER = "Kofi, build a planter box for the patio by Friday"


@pytest.mark.parametrize(
    ("text", "autonomy"),
    [
        ("check with me before calling the police", "direct-tether"),
        ("run it past me before you buy the wood", "direct-tether"),
        ("use your own judgement on the design", "free"),
    ],
)
def test_a_hand_said_of_a_part_of_the_work(text: str, autonomy: str) -> None:
    got = factories.changed(text, PLANTER)
    assert isinstance(got, Draft), got
    assert got.objective.autonomy == autonomy


def test_a_ban_with_when_it_holds() -> None:
    got = factories.changed("no power tools after 8pm", PLANTER)
    assert isinstance(got, Draft), got
    assert "No power tools after 8pm" in [f.text for f in got.objective.forbidden_lines]


@pytest.mark.parametrize("text", ["no school monday", "no kofi tomorrow"])
def test_who_or_what_is_off_is_still_no_ban(text: str) -> None:
    got = factories.changed(text, PLANTER)
    assert not isinstance(got, Draft) or len(got.objective.forbidden_lines) == 1, got


@pytest.mark.parametrize(
    ("text", "deadline"),
    [("sooner pls tmrw", "2026-03-12"), ("shes busy sat, do friday", "2026-03-13")],
)
def test_typed_changes_to_the_deadline(text: str, deadline: str) -> None:
    got = factories.changed(text, "Imani, visit Auntie Mercy on Saturday")
    assert isinstance(got, Draft), got
    assert got.objective.deadline == deadline


def test_a_ban_with_a_reason_beside_it() -> None:
    got = factories.changed("No power tools though, the baby's asleep.", "Zuri, build a shelf")
    assert isinstance(got, Draft), got
    assert "No power tools" in [f.text for f in got.objective.forbidden_lines]


def test_what_the_agent_needs_said_after_the_draft() -> None:
    got = factories.changed("Only if you've got the right screws.", "Zuri, build a shelf")
    assert isinstance(got, Draft), got
    custom = [c.value for c in got.objective.constraints if c.kind == "custom"]
    assert custom == ["only if you've got the right screws"]


# A review of the session's rules (2026-12-07): each was no change before them.


@pytest.mark.parametrize(
    "text",
    [
        "no water in the kitchen",
        "no power on Sunday",
        "no rain on Friday though",
        "check with me before Thursday",
        "ask me before you spend over £50",
        "earlier, wednesday",
    ],
)
def test_news_and_details_are_no_bare_change(text: str) -> None:
    got = factories.changed(text, PLANTER)
    assert not isinstance(got, Draft) or got.objective.deadline in (None, "2026-03-13"), got
    assert not isinstance(got, Draft) or len(got.objective.forbidden_lines) == 1, got


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("no hang on, forget it", "reject"),
        ("no actually never mind", "reject"),
        ("yes go", "confirm"),
        ("ok good", "confirm"),
    ],
)
def test_replies_said_with_a_lead(text: str, kind: str) -> None:
    from vac.intent.reply_words import classify_reply

    assert classify_reply(text) == kind


def test_a_lead_before_a_change_is_no_reply() -> None:
    from vac.intent.reply_words import classify_reply

    assert classify_reply("no actually, make it Friday") is None
