"""An hour with the part of the day said after it ("at 7 in the morning")
is that morning's hour, not the next 7 o'clock: said at 10 am, "at 7 in
the morning" is tomorrow's (the bare hour after a cue read it as 7 pm
today)."""

from __future__ import annotations

import datetime as dt

import intent_factories as factories
import pytest

from vac.intent import Draft, default_roster

MORNING = dt.datetime(2026, 5, 1, 10, 0, tzinfo=dt.UTC)  # a Friday
EVENING = dt.datetime(2026, 5, 1, 20, 0, tzinfo=dt.UTC)
ROSTER = default_roster()


def draft(text: str, now: dt.datetime) -> Draft:
    got = factories.understood(text, now=now, roster=ROSTER)
    assert isinstance(got, Draft), got
    return got


@pytest.mark.parametrize(
    ("text", "now", "deadline"),
    [
        ("Kofi, fix the gate at 7 in the morning", MORNING, "2026-05-02"),
        ("Kofi, fix the gate by 9 in the morning", MORNING, "2026-05-02"),
        ("Kofi, fix the gate by 9 in the morning", EVENING, "2026-05-02"),
        ("Kofi, fix the gate at half 7 in the morning", MORNING, "2026-05-02"),
        ("Kofi, fix the gate at 7 o'clock in the morning", MORNING, "2026-05-02"),
        ("Kofi, fix the gate at 7:30 in the morning", MORNING, "2026-05-02"),
        ("Kofi, fix the gate at 11 in the morning", MORNING, "2026-05-01"),
        ("Kofi, fix the gate by 6 in the evening", MORNING, "2026-05-01"),
        ("Kofi, fix the gate by 6 in the evening", EVENING, "2026-05-02"),
        ("Kofi, fix the gate at 5 in the afternoon", EVENING, "2026-05-02"),
        ("Kofi, fix the gate by 11 at night", MORNING, "2026-05-01"),
        # The small hours: "at 3 at night" was 3 pm today.
        ("Kofi, guard the barn at 3 at night", MORNING, "2026-05-02"),
        ("Kofi, guard the barn at 2 in the night", MORNING, "2026-05-02"),
        ("Kofi, guard the barn at 10 in the night", MORNING, "2026-05-01"),
        # Another hour said as an alternative: its part of the day is both's
        # ("at 3 or 4 in the morning" was 3 pm today).
        ("Kofi, check the hens at 3 or 4 in the morning", MORNING, "2026-05-02"),
        ("Kofi, check the hens at 3 or 4 in the morning", EVENING, "2026-05-02"),
        ("Kofi, check the hens at 8 or 9 pm", MORNING, "2026-05-01"),
        ("Kofi, check the hens at 8 or 9 in the morning", EVENING, "2026-05-02"),
    ],
)
def test_an_hour_and_its_part_of_the_day(text: str, now: dt.datetime, deadline: str) -> None:
    assert draft(text, now).objective.deadline == deadline


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, check the hives at 7 in the morning every day",
        "Kofi, check the hives every day at 7 in the morning",
        "Kofi, lock up the shed every night at 11 at night",
    ],
)
def test_a_standing_order_repeats_at_it(text: str) -> None:
    got = draft(text, MORNING)
    assert got.objective.autonomy == "standing-intent"
    assert got.objective.deadline is None


@pytest.mark.parametrize(
    ("text", "deadline", "said"),
    [
        # A day said after the hour and another one (or "or so", "at the
        # latest", a comma) is the hour's day: the bare hour made these
        # today's, and before it they were that day.
        ("Kofi, fix the gate at 3 or 4 tomorrow", "2026-05-02", "at 3 o'clock tomorrow"),
        ("Kofi, fix the gate at 3 or 4 on Friday", "2026-05-08", "at 3 o'clock on Friday"),
        ("Kofi, fix the gate at 3 or so tomorrow", "2026-05-02", "at 3 o'clock tomorrow"),
        ("Kofi, fix the gate by 6, tomorrow", "2026-05-02", "by 6 o'clock tomorrow"),
        ("Kofi, fix the gate by 6 at the latest tomorrow", "2026-05-02", "by 6 o'clock tomorrow"),
        ("Kofi, fix the gate at 3pm or 4pm tomorrow", "2026-05-02", "at 3 pm tomorrow"),
        ("Kofi, fix the gate around 3 or 4 tomorrow afternoon", "2026-05-02", "tomorrow"),
    ],
)
def test_an_hour_and_its_day_said_after_another(text: str, deadline: str, said: str) -> None:
    got = draft(text, MORNING)
    assert got.objective.deadline == deadline
    assert said in got.summary


@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        ("Kofi, fix the gate at 3, check the hives tomorrow", "2026-05-01"),
        ("Kofi, fix the gate at 3 and 4 fences tomorrow", "2026-05-01"),
    ],
)
def test_a_day_of_another_thing_is_not_the_hours(text: str, deadline: str) -> None:
    assert draft(text, MORNING).objective.deadline == deadline


@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        # Past a comma, a day that starts the next words is theirs, not the
        # hour's ("tomorrow check the hives" was left out of the draft, and
        # its day made the gate's 3 o'clock tomorrow's).
        ("Kofi, fix the gate at 3, tomorrow check the hives", "2026-05-01"),
        ("Kofi, fix the gate by 6, tomorrow feed the hens", "2026-05-01"),
        ("Kofi, fix the gate by 6, tomorrow please", "2026-05-02"),
        ("Kofi, fix the gate at 3, please, tomorrow", "2026-05-02"),
    ],
)
def test_a_day_past_a_comma_starting_other_words_is_not_the_hours(text: str, deadline: str) -> None:
    assert draft(text, MORNING).objective.deadline == deadline


@pytest.mark.parametrize(
    ("text", "deadline", "said"),
    [
        # A clock time said after the day is read back with it (the date was
        # right, the read-back dropped the hour: "by tomorrow").
        ("Kofi, fix the gate tomorrow at 7 in the morning", "2026-05-02", "tomorrow at 7 am"),
        ("Kofi, fix the gate on Friday at 3 pm", "2026-05-08", "on Friday, May 8 at 3 pm"),
        ("Kofi, fix the gate on Friday by noon", "2026-05-08", "on Friday, May 8 by noon"),
        ("Kofi, fix the gate in three days at 5 pm", "2026-05-04", "in three days at 5 pm"),
    ],
)
def test_a_day_and_its_hour_said_after_it(text: str, deadline: str, said: str) -> None:
    got = draft(text, MORNING)
    assert got.objective.deadline == deadline
    assert said in got.summary
