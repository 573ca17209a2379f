"""Changes and answers from a seventh typed probe's conversations
(2026-12-06, the fifteenth session): a condition said after the draft was
"I heard you, but not what to do", and the deed that answers "What should
Tariq do?" with "instead" or "then" after it was a new order for the
default agent."""

from __future__ import annotations

import pytest

from tests.runtime import amend_factories as factories
from vac.intent import Draft, says_instead

NOW, ROSTER = factories.NOW, factories.ROSTER
GATE = "Kofi, fix the gate"


def changed(text: str, source: str = GATE) -> object:
    return factories.changed(text, source)


@pytest.mark.parametrize(
    ("text", "condition"),
    [
        ("but only if it stops raining", "only if it stops raining"),
        ("once the rain stops", "once the rain stops"),
        ("if it doesn't rain", "if it doesn't rain"),
        ("and as soon as the parts arrive", "as soon as the parts arrive"),
    ],
)
def test_a_condition_said_next_is_added(text: str, condition: str) -> None:
    got = changed(text)
    assert isinstance(got, Draft), got
    said = [c.value for c in got.objective.constraints if c.kind == "custom"]
    assert said == [condition] and condition in got.summary
    assert (got.objective.agent, got.objective.target.label) == ("Kofi", "Gate")


def test_a_second_condition_is_read_back_with_the_first() -> None:
    """Both are kept, so both are said: the steward confirms what is sent."""
    got = changed("if it doesn't snow", "Kofi, fix the gate unless it rains")
    assert isinstance(got, Draft), got
    assert "unless it rains, if it doesn't snow" in got.summary


@pytest.mark.parametrize("text", ["if Zuri is busy", "if you like"])
def test_chatter_with_if_changes_nothing(text: str) -> None:
    got = changed(text)
    assert not isinstance(got, Draft) or not [
        c for c in got.objective.constraints if c.kind == "custom"
    ], got


@pytest.mark.parametrize(
    ("answer", "deed"),
    [
        ("guard the house instead", "guard the house"),
        ("check the hens then", "check the hens"),
        ("ok then, take care of the plants instead", "take care of the plants"),
    ],
)
def test_the_deed_that_answers_may_end_in_instead(answer: str, deed: str) -> None:
    assert says_instead(answer, ROSTER.names()) == deed


def test_a_condition_said_as_a_correction_replaces_the_drafts() -> None:
    got = changed("no wait, as soon as the rain stops", "Kofi fix the gate once the rain stops")
    assert isinstance(got, Draft), got
    assert [c.value for c in got.objective.constraints if c.kind == "custom"] == [
        "as soon as the rain stops"
    ]


@pytest.mark.parametrize("text", ["if it rains, do it tomorrow", "after you check the fence"])
def test_a_deed_with_a_condition_is_no_condition_added(text: str) -> None:
    got = changed(text)
    assert not isinstance(got, Draft) or (
        got.objective.deadline is None
        and not [c for c in got.objective.constraints if c.kind == "custom"]
    ), got


@pytest.mark.parametrize(
    ("text", "condition"),
    [
        ("Only if it's not raining.", "only if it's not raining"),
        ("unless it's not dry", "unless it's not dry"),
    ],
)
def test_not_inside_a_condition_said_next_is_kept(text: str, condition: str) -> None:
    """An eighth typed probe: "only if it's", the opposite, was added."""
    got = changed(text)
    assert isinstance(got, Draft), got
    assert [c.value for c in got.objective.constraints if c.kind == "custom"] == [condition]


def test_a_day_taken_back_with_not_still_is() -> None:
    got = changed("Saturday not Sunday", "Kofi, fix the gate by Friday")
    assert isinstance(got, Draft), got
    assert got.objective.deadline == "2026-03-14"


@pytest.mark.parametrize(
    ("text", "condition", "due"),
    [
        ("Yes, if it stops raining.", "if it stops raining", None),
        ("Only if I'm late.", "only if I'm late", None),
        ("Yes, but a fortnight on Monday.", None, "2026-03-30"),
    ],
)
def test_a_yes_with_a_condition_or_a_time_is_that_change(
    text: str, condition: str | None, due: str | None
) -> None:
    """A ninth typed probe: each was asked again."""
    got = changed(text)
    assert isinstance(got, Draft), got
    said = [c.value for c in got.objective.constraints if c.kind == "custom"]
    assert said == ([condition] if condition else [])
    assert got.objective.deadline == due
