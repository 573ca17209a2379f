"""Changes from a tenth typed probe's conversations (2026-12-07, the
eighteenth session): a time of day said alone moved tomorrow's draft to
today ("At three.", "In the afternoon, after lunch."); a thing corrected to
one with a side word ("No, the back gate.") was no change."""

from __future__ import annotations

import pytest

from tests.runtime import amend_factories as factories
from vac.intent import Draft
from vac.runtime.moved_days import day_unsaid

NOW, ROSTER = factories.NOW, factories.ROSTER
HIVES = "Zuri, check the hives tomorrow"


@pytest.mark.parametrize(
    "text", ["At three.", "In the afternoon, after lunch.", "at half past four"]
)
def test_a_time_of_day_alone_never_moves_a_dated_draft_to_another_day(text: str) -> None:
    got = factories.changed(text, HIVES)
    assert not isinstance(got, Draft) or got.objective.deadline == "2026-03-12", got


@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        ("Friday at three", "2026-03-13"),
        ("No, the 14th", "2026-03-14"),
        ("make it today", "2026-03-11"),
    ],
)
def test_a_day_said_still_moves_it(text: str, deadline: str) -> None:
    got = factories.changed(text, HIVES)
    assert isinstance(got, Draft), got
    assert got.objective.deadline == deadline


def test_a_time_of_day_dates_an_undated_draft() -> None:
    got = factories.changed("At three.", "Zuri, check the hives")
    assert isinstance(got, Draft), got
    assert got.objective.deadline == "2026-03-11"


def test_a_thing_with_a_side_word_said_instead_is_the_change() -> None:
    got = factories.changed("No, the back gate.", "Kofi, repair the side gate")
    assert isinstance(got, Draft), got
    assert got.objective.target.label == "Back gate"


@pytest.mark.parametrize(
    ("text", "was", "new", "unsaid"),
    [
        ("At three.", "2026-03-12", "2026-03-11", True),
        ("at three tomorrow", "2026-03-13", "2026-03-12", False),
        ("by the 14th", "2026-03-12", "2026-03-14", False),
        ("At three.", None, "2026-03-11", False),
        ("At three.", "2026-03-11", "2026-03-11", False),
    ],
)
def test_day_unsaid(text: str, was: str | None, new: str, unsaid: bool) -> None:
    assert day_unsaid(text, was, new) is unsaid


@pytest.mark.parametrize(
    ("source", "text", "deadline"),
    [
        ("Kofi, fix the gate tomorrow", "in two hours", "2026-03-11"),
        ("Kofi, fix the gate tomorrow", "by 11am on 3/20", "2026-03-20"),
        ("Kofi, fix the gate today", "at eight in the morning", "2026-03-12"),
    ],
)
def test_a_span_a_date_or_a_passed_hour_still_moves_it(
    source: str, text: str, deadline: str
) -> None:
    got = factories.changed(text, source)
    assert isinstance(got, Draft), got
    assert got.objective.deadline == deadline


def test_a_time_of_day_alone_says_why_nothing_changed() -> None:
    # "At three." moves the hour on tomorrow (the twenty-fifth session,
    # tests/runtime/test_conversation_seventeenth_probe.py); more than an hour is asked.
    got = factories.changed("In the afternoon, after lunch.", HIVES)
    assert not isinstance(got, Draft)
    assert "A time of day alone doesn't say which day" in getattr(got, "question", "")
    at_three = factories.changed("At three.", HIVES)
    assert isinstance(at_three, Draft) and "by tomorrow at 3" in at_three.summary


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("Stay off the flower beds.", "Stay off the flower beds"),
        ("Keep off the grass please", "Keep off the grass"),
    ],
)
def test_a_boundary_said_alone_is_added(text: str, line: str) -> None:
    got = factories.changed(text, "Kofi, fix the shelf")
    assert isinstance(got, Draft), got
    assert line in [f.text for f in got.objective.forbidden_lines]


def test_someone_off_on_a_day_is_still_no_change() -> None:
    got = factories.changed("Tariq is off Friday", "Kofi, fix the shelf")
    assert not isinstance(got, Draft), got


@pytest.mark.parametrize(
    "text",
    [
        "Stay away until Friday",
        "Stay out of it, Zuri is doing it",
        "Stay off my back",
        "Stay off the beds tomorrow",
    ],
)
def test_a_stay_away_with_more_said_adds_no_ban(text: str) -> None:
    got = factories.changed(text, "Kofi, fix the gate tomorrow")
    assert not isinstance(got, Draft), got


@pytest.mark.parametrize(
    ("text", "label"),
    [("The front garden, I mean.", "Front garden"), ("The front garden I meant", "Front garden")],
)
def test_a_thing_said_then_i_mean_is_the_change(text: str, label: str) -> None:
    got = factories.changed(text, "Zuri, map the back garden")
    assert isinstance(got, Draft), got
    assert got.objective.target.label == label
    assert "map the front garden — confirm?" in got.summary  # not "The front garden"


def test_i_mean_it_is_no_change() -> None:
    got = factories.changed("I mean it, do it properly", "Zuri, map the back garden")
    assert not isinstance(got, Draft), got
