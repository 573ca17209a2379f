"""Changes from a ninth typed probe's conversations (2026-12-06, the
seventeenth session): "no" and someone else's news with a time made that
time the draft's deadline ("Nah, the engineer's coming tomorrow": due
tomorrow)."""

from __future__ import annotations

import pytest

from tests.runtime import amend_factories as factories
from vac.intent import Draft
from vac.runtime.news_said import after_news

NOW, ROSTER = factories.NOW, factories.ROSTER
MACHINE = "Kofi, fix the washing machine"


def changed(text: str, source: str = MACHINE) -> object:
    return factories.changed(text, source)


@pytest.mark.parametrize(
    "text",
    [
        "Nah, the engineer's coming tomorrow",
        "No, the plumber's coming on Friday",
        "No, my brother is sorting it out on Saturday",
        "Actually, the kids are back tomorrow",
    ],
)
def test_news_after_a_no_changes_no_deadline(text: str) -> None:
    got = changed(text)
    assert not isinstance(got, Draft) or got.objective.deadline is None, got


@pytest.mark.parametrize(
    ("text", "deadline", "target"),
    [
        ("No, tomorrow", "2026-03-12", "Washing machine"),
        ("No, the dryer is better", None, "Dryer"),
        ("No, the dryer, by Friday", "2026-03-13", "Dryer"),
    ],
)
def test_a_change_is_still_a_change(text: str, deadline: str | None, target: str) -> None:
    got = changed(text)
    assert isinstance(got, Draft), got
    assert got.objective.deadline == deadline
    assert got.objective.target.label == target


@pytest.mark.parametrize(
    ("text", "deadline", "priority"),
    [
        # What is said after the news is the change (a review: "news").
        ("no, the plumber's coming Thursday, so do it by Wednesday", "2026-03-18", 55),
        ("no, my brother's coming Thursday and make it urgent", None, 90),
    ],
)
def test_a_change_said_after_news_is_made(text: str, deadline: str | None, priority: int) -> None:
    got = changed(text)
    assert isinstance(got, Draft), got
    assert (got.objective.deadline, got.objective.priority) == (deadline, priority)


@pytest.mark.parametrize(
    ("rest", "after"),
    [
        ("the engineer's coming tomorrow", ""),
        ("the plumber is fixing it on Friday", ""),
        ("the plumber's coming Thursday, so do it by Wednesday", "do it by Wednesday"),
        ("the gate is better", None),
        ("Zuri", None),
    ],
)
def test_after_news(rest: str, after: str | None) -> None:
    assert after_news(rest) == after


@pytest.mark.parametrize(
    ("text", "source", "agent", "deadline"),
    [
        # Each was "I didn't change anything".
        ("Can Zuri do it instead?", "Imani, visit Grandma on Saturday", "Zuri", "2026-03-14"),
        ("Half six tonight, actually.", "Kofi, build the shelves by Friday", "Kofi", "2026-03-11"),
        ("By Monday if you can.", "Zuri, map the spare room", "Zuri", "2026-03-16"),
    ],
)
def test_a_change_asked_or_said_with_a_courtesy(
    text: str, source: str, agent: str, deadline: str
) -> None:
    got = changed(text, source)
    assert isinstance(got, Draft), got
    assert (got.objective.agent, got.objective.deadline) == (agent, deadline)
