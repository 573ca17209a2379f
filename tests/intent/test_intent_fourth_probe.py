"""Words from the fourth round of probes (2026-12-06, a new session; none
from the understanding corpus): the leftovers of the third round and a
fourth typed probe. Each was dropped without a word, or drafted wrong,
before.
"""

from __future__ import annotations

import datetime as dt

import intent_factories as factories
import pytest

from vac.intent import Clarify, Draft, default_roster

NOW = dt.datetime(2026, 12, 7, 14, 10, tzinfo=dt.UTC)  # a Monday afternoon
ROSTER = default_roster()


def draft(text: str, now: dt.datetime = NOW) -> Draft:
    got: Draft | Clarify = factories.understood(text, now=now, roster=ROSTER)
    assert isinstance(got, Draft), got
    return got


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("Kofi, check the hens in the middle of the night", "in the middle of the night"),
        ("Kofi, check the hens in the dead of night", "in the dead of night"),
    ],
)
def test_the_middle_of_the_night_is_tonight(text: str, said: str) -> None:
    got = draft(text)
    assert got.objective.deadline == "2026-12-07"
    assert said in got.summary


def test_the_middle_of_the_night_shift_is_a_thing_not_a_time() -> None:
    assert draft("Kofi, check the hens in the middle of the night shift").objective.deadline is None


@pytest.mark.parametrize(
    "text",
    [
        "Zuri, fix the tap that always drips at night",
        "Zuri, fix the tap that drips at night",
        "Kofi, fix the light that comes on at 6",
        "Kofi, the fox came at night, guard the hens",  # "at night" was read past the deed
    ],
)
def test_when_the_thing_does_what_it_does_is_no_deadline(text: str) -> None:
    assert draft(text).objective.deadline is None


@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        ("Kofi, fix the tap that drips at night by Friday", "2026-12-11"),
        ("Kofi, check the gate that sticks on Friday", "2026-12-11"),  # a day: when to check
        ("Kofi, fix the tap that leaks by Friday", "2026-12-11"),
    ],
)
def test_the_deadline_after_what_the_thing_does_stays(text: str, deadline: str) -> None:
    assert draft(text).objective.deadline == deadline


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, this May is busy, fix the gate",
        "Kofi, next January will be cold, fix the boiler",
        "Kofi, this December's been mad, fix the gate",
    ],
)
def test_a_month_talked_about_is_no_deadline(text: str) -> None:
    assert draft(text).objective.deadline is None


def test_a_month_said_as_when_is_still_the_deadline() -> None:
    assert draft("Kofi, fix the gate this December, it's cold").objective.deadline == "2026-12-31"
