"""Deadline phrases → a date (`vac.intent.when`), golden tables and properties.

`NOW` is Wednesday 2 December 2026, 10:00 in London: "Friday" is the 4th,
"next Friday" the 11th, and "December 1" has passed (so it is next year's).
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vac.intent.lexicon import tokenize, words
from vac.intent.numbers import number_at, spoken_number
from vac.intent.when import Unresolved, When, resolve

LONDON = ZoneInfo("Europe/London")
NOW = dt.datetime(2026, 12, 2, 10, 0, tzinfo=LONDON)  # a Wednesday
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = words(
    "January February March April May June July August September October November December"
)


def when(text: str, now: dt.datetime = NOW) -> When:
    found = resolve(tokenize(text), now)
    assert isinstance(found, When), (text, found)
    return found


def said(text: str, found: When | Unresolved) -> str:
    toks = tokenize(text)
    return text[toks[found.start].start : toks[found.end - 1].end]


GOLDEN = [
    # kept from before
    ("by 2026-12-25", "2026-12-25", "by 2026-12-25"),
    ("today", "2026-12-02", "today"),
    ("tonight", "2026-12-02", "tonight"),
    ("by tomorrow", "2026-12-03", "by tomorrow"),
    ("tomorrow", "2026-12-03", "by tomorrow"),
    ("this week", "2026-12-06", "by the end of the week"),
    ("next week", "2026-12-13", "by the end of next week"),
    # weekdays
    ("by Friday", "2026-12-04", "by Friday"),
    ("on Friday", "2026-12-04", "on Friday"),
    ("Friday", "2026-12-04", "by Friday"),
    ("friday.", "2026-12-04", "by Friday"),
    ("this Friday", "2026-12-04", "by Friday"),
    ("this coming Friday", "2026-12-04", "by Friday"),
    ("by Wednesday", "2026-12-09", "by Wednesday, December 9"),  # never today; dated
    ("this Wednesday", "2026-12-02", "today"),
    ("this Monday", "2026-12-07", "by Monday"),
    ("next Monday", "2026-12-07", "by next Monday, December 7"),
    ("next Friday", "2026-12-11", "by next Friday, December 11"),
    ("next Wednesday", "2026-12-09", "by next Wednesday, December 9"),
    ("by Thurs", "2026-12-03", "by Thursday"),
    ("on Fri.", "2026-12-04", "on Friday"),
    ("Friday evening", "2026-12-04", "by Friday evening"),
    ("by the weekend", "2026-12-05", "by the weekend"),
    ("this weekend", "2026-12-05", "this weekend"),
    ("next weekend", "2026-12-12", "by next weekend, December 12"),
    # dates
    ("December 24", "2026-12-24", "by December 24"),
    ("24 December", "2026-12-24", "by December 24"),
    ("December 24th,", "2026-12-24", "by December 24"),
    ("by December the 24th", "2026-12-24", "by December 24"),
    ("Dec 24", "2026-12-24", "by December 24"),
    ("Dec. 24", "2026-12-24", "by December 24"),
    ("on the twenty-fourth of December", "2026-12-24", "on December 24"),
    ("by the twenty fourth of december", "2026-12-24", "by December 24"),
    ("the 24th of December", "2026-12-24", "by December 24"),
    ("by twenty-four December", "2026-12-24", "by December 24"),
    ("by December 1", "2027-12-01", "by December 1 2027"),  # passed: next year's
    ("by December 2", "2026-12-02", "by December 2"),  # today is not past
    ("January 5", "2027-01-05", "by January 5 2027"),
    ("December 24th, 2027", "2027-12-24", "by December 24 2027"),
    ("by the 3rd", "2026-12-03", "by December 3"),
    ("on the third", "2026-12-03", "on December 3"),
    ("by the 2nd", "2026-12-02", "by December 2"),
    ("by the first", "2027-01-01", "by January 1 2027"),  # past this month
    ("before the twenty-first", "2026-12-21", "by December 21"),
    ("by the 31st", "2026-12-31", "by December 31"),
    # spans
    ("in three days", "2026-12-05", "in three days"),
    ("in 3 days", "2026-12-05", "in three days"),
    ("within a week", "2026-12-09", "within a week"),
    ("within two weeks", "2026-12-16", "within two weeks"),
    ("in a couple of days", "2026-12-04", "in two days"),
    ("in a few days", "2026-12-05", "in three days"),
    ("in a day or two", "2026-12-04", "in two days"),
    ("three days from now", "2026-12-05", "in three days"),
    ("within the next 10 days", "2026-12-12", "within ten days"),
    ("in a fortnight", "2026-12-16", "in a fortnight"),
    ("in a month", "2027-01-02", "in a month"),
    ("by the end of the week", "2026-12-06", "by the end of the week"),
    ("by end of week", "2026-12-06", "by the end of the week"),
    ("by the end on the week", "2026-12-06", "by the end of the week"),  # as often heard
    ("by the end of a week", "2026-12-06", "by the end of the week"),  # as often heard
    ("by the end of a month", "2026-12-31", "by the end of the month"),
    ("by the week's end", "2026-12-06", "by the end of the week"),
    ("by month's end", "2026-12-31", "by the end of the month"),
    ("before next month's end", "2027-01-31", "by the end of next month"),
    ("by the year's end", "2026-12-31", "by the end of the year"),
    ("in a week's time", "2026-12-09", "in a week"),
    ("over the next few days", "2026-12-05", "within three days"),
    ("over the coming week", "2026-12-09", "within a week"),
    ("in the coming week", "2026-12-09", "in a week"),
    ("this coming week", "2026-12-06", "by the end of the week"),
    ("this coming month", "2026-12-31", "by the end of the month"),
    ("by sundown", "2026-12-02", "by sundown"),
    ("during the night", "2026-12-02", "during the night"),
    ("in the night", "2026-12-02", "in the night"),  # a typed probe: it was dropped
    ("the 7th of next month", "2027-01-07", "by January 7 2027"),
    ("by the 20th of this month", "2026-12-20", "by December 20"),
    ("by the 31st of next month", "2027-01-31", "by January 31 2027"),
    ("in two weeks' time", "2026-12-16", "in two weeks"),
    ("in three days time", "2026-12-05", "in three days"),
    ("by the middle of the week", "2026-12-02", "by the middle of the week, December 2"),
    ("by the middle of next week", "2026-12-09", "by the middle of next week, December 9"),
    ("by the middle of the month", "2026-12-15", "by the middle of the month, December 15"),
    (
        "before the middle of next month",
        "2027-01-15",
        "by the middle of next month, January 15 2027",
    ),
    ("by end on the month", "2026-12-31", "by the end of the month"),
    ("by the end of the month", "2026-12-31", "by the end of the month"),
    ("by the end of next week", "2026-12-13", "by the end of next week"),
    ("by the end of next month", "2027-01-31", "by the end of next month"),
    ("by the end of the year", "2026-12-31", "by the end of the year"),
    ("by the end of the day", "2026-12-02", "by the end of the day"),
    ("by the end of February", "2027-02-28", "by the end of February"),
    ("within the week", "2026-12-06", "within the week"),
    ("in an hour", "2026-12-02", "in an hour"),
    ("in two hours", "2026-12-02", "in two hours"),
    ("in half an hour", "2026-12-02", "in half an hour"),
    # a hedged or written-short span is the span (they were dropped silently)
    ("in about two hours", "2026-12-02", "in two hours"),
    ("in like 2 hrs", "2026-12-02", "in two hours"),
    ("in roughly an hour", "2026-12-02", "in an hour"),
    ("in under an hour", "2026-12-02", "in an hour"),
    ("within about a week", "2026-12-09", "within a week"),
    ("in less than 3 days", "2026-12-05", "in three days"),
    ("in 2h", "2026-12-02", "in two hours"),
    ("in 45min", "2026-12-02", "in forty-five minutes"),
    ("within the hour", "2026-12-02", "within the hour"),
    ("the day after tomorrow", "2026-12-04", "by the day after tomorrow"),
    # times of day
    ("this afternoon", "2026-12-02", "this afternoon"),
    ("this evening", "2026-12-02", "this evening"),
    ("this morning", "2026-12-02", "this morning"),
    ("by noon", "2026-12-02", "by noon"),
    ("by midnight", "2026-12-02", "by midnight"),
    ("by 5 pm", "2026-12-02", "by 5 pm"),
    ("by 5pm", "2026-12-02", "by 5 pm"),
    ("by 5 p.m.", "2026-12-02", "by 5 pm"),
    ("by 5:30 pm", "2026-12-02", "by 5:30 pm"),
    ("by 17:00", "2026-12-02", "by 17:00"),
    ("by five o'clock", "2026-12-02", "by 5 o'clock"),
    ("by 9 am", "2026-12-03", "by 9 am tomorrow"),  # 9 am has passed at 10:00
    ("by 9 am tomorrow", "2026-12-03", "by 9 am tomorrow"),
    ("by dinner", "2026-12-02", "by dinner"),
    ("after lunch", "2026-12-02", "after lunch"),
    ("after dark", "2026-12-02", "after dark"),
    ("after the dinner", "2026-12-02", "after dinner"),
    ("after lunch tomorrow", "2026-12-03", "by tomorrow, after lunch"),
    ("after lunch on Friday", "2026-12-04", "by Friday, after lunch"),
    ("after lunch, by Friday", "2026-12-04", "by Friday"),  # the day said wins
    ("at noon", "2026-12-02", "at noon"),
    ("tomorrow morning", "2026-12-03", "tomorrow morning"),
    ("tomorrow night", "2026-12-03", "tomorrow night"),
    # other cues mean the same day
    ("before Friday", "2026-12-04", "by Friday"),
    ("until Friday", "2026-12-04", "by Friday"),
    ("due Friday", "2026-12-04", "by Friday"),
    ("due by Friday", "2026-12-04", "by Friday"),
    ("no later than Friday", "2026-12-04", "by Friday"),
]


@pytest.mark.parametrize(("text", "iso", "phrase"), GOLDEN)
def test_golden(text: str, iso: str, phrase: str) -> None:
    found = when(text)
    assert (found.iso_date, found.phrase) == (iso, phrase)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("by the thirty-second", "by the thirty-second"),
        ("by Fooday", "by Fooday"),
        ("before the harvest", "before the harvest"),
        ("by the harvest festival, and", "by the harvest festival"),
        ("until the storm passes", "until the storm passes"),
        ("until the morning meeting", "until the morning meeting"),
        ("by spring", "by spring"),
        ("this winter", "this winter"),
        ("early next week", "early next week"),
        ("by 12/11", "by 12/11"),
        ("in a month and a half", "in a month and a half"),
        ("by February 30", "by February 30"),
        ("by the 32nd", "by the 32nd"),
        ("no later than the festival", "no later than the festival"),
        ("on the thirty-second", "on the thirty-second"),
        ("after Friday", "after Friday"),  # when to start, not when it is due
        ("after the harvest", "after the harvest"),
        # Dropped without a word before 2026-12-05: an article after "of", a possessive.
        ("by the end of a fortnight", "by the end of a fortnight"),
        ("by the festival's end", "by the festival's end"),
        ("by the middle of a fortnight", "by the middle of a fortnight"),
        ("in the coming days", "in the coming days"),  # how many?
        ("over the holidays", "over the holidays"),  # until when?
        ("over Christmas", "over Christmas"),
        ("during the week", "during the week"),
        ("by the 1st of this month", "by the 1st of this month"),  # passed
        ("by the week's close", "by the week's close"),
    ],
)
def test_a_deadline_it_cannot_place_is_unresolved(text: str, words: str) -> None:
    found = resolve(tokenize(text), NOW)
    assert isinstance(found, Unresolved), found
    assert said(text, found) == words


@pytest.mark.parametrize(
    "text",
    [
        "by the pond",
        "by hand",
        "build it by myself",
        "report on the harvest",
        "on the third floor",
        "visit the Sunday market",
        "every Friday",
        "make dinner",
        "fix 3 gates",
        "by 3 fences",
        "due to the rain",
        "until further notice",
        "by 2026-02-31",  # kept: an ISO non-date is no deadline (tests/intent/test_intent_parser)
        "march to the river",
        "you may go",
        "fix the till",
        "pack the overnight bag",
        "don't fall off the roof",
        "build a bench by the spring",
        "fix the spring",
        "fix the all night lamp",
        "look after the kids",
        "clean up after the party",
        "the storm will end on the day after",  # "end on" only before a week or month
        "help me through the night shift",
        "cover my Sunday shift",
        "fix the week's end report",  # no cue: a name for the report
        "build a shed by the end of the road",  # a place
        "visit the middle of the week market",  # no cue: a thing
        "fix 5.30 gates",  # no cue: no clock
        "build the fence at 1.20 metres high",  # a height
        "it sits at 1.20 m",
        "build it over a week",  # how long it takes
        "fix the gate, my Sunday is free",
        "",
    ],
)
def test_not_a_deadline(text: str) -> None:
    assert resolve(tokenize(text), NOW) is None


@pytest.mark.parametrize(
    ("text", "iso", "words"),
    [
        ("fix the gate by my Friday", "2026-12-04", "by my Friday"),
        ("fix the gate on our Saturday", "2026-12-05", "on our Saturday"),
        # tiny.en writes espeak's "by" as "my": a possessive day ending the clause
        ("visit the old miller my Sunday", "2026-12-06", "my Sunday"),
        ("support the new farm in my Saturday", "2026-12-05", "my Saturday"),
    ],
)
def test_a_possessive_before_a_weekday_is_the_day(text: str, iso: str, words: str) -> None:
    found = when(text)
    assert (found.iso_date, said(text, found)) == (iso, words)


def test_a_resolved_phrase_wins_over_an_unresolved_one() -> None:
    found = resolve(tokenize("before the harvest, by Friday"), NOW)
    assert isinstance(found, When) and found.iso_date == "2026-12-04"


def test_skipped_tokens_start_nothing() -> None:
    toks = tokenize("ask me before the harvest")
    assert isinstance(resolve(toks, NOW), Unresolved)
    assert resolve(toks, NOW, skip=frozenset({0, 1, 2})) is None


def test_the_span_covers_the_cue_and_the_words() -> None:
    text = "build a bench by the end of next week near the pond"
    found = when(text)
    assert said(text, found) == "by the end of next week"


def test_times_roll_over_with_the_clock() -> None:
    late = dt.datetime(2026, 12, 2, 23, 30, tzinfo=LONDON)
    assert when("in an hour", late).iso_date == "2026-12-03"
    assert when("by midnight", late).iso_date == "2026-12-02"
    assert when("by noon", late).phrase == "by noon tomorrow"
    early = dt.datetime(2026, 12, 2, 4, 0, tzinfo=LONDON)
    assert when("by five o'clock", early).iso_date == "2026-12-02"  # 5 am is still ahead
    assert when("tonight", early).iso_date == "2026-12-02"


@pytest.mark.parametrize(
    ("text", "hour", "iso", "phrase"),
    [
        ("fix it in the morning", 10, "2026-12-03", "tomorrow morning"),
        ("fix it in the morning", 4, "2026-12-02", "this morning"),
        ("fix it in the afternoon", 10, "2026-12-02", "this afternoon"),
        ("fix it in the afternoon", 18, "2026-12-03", "tomorrow afternoon"),
        ("fix it in the evening", 21, "2026-12-02", "this evening"),
        ("fix it in the evening", 23, "2026-12-03", "tomorrow evening"),
        ("guard it at night", 10, "2026-12-02", "tonight"),
        ("fix it later today", 10, "2026-12-02", "later today"),
        ("fix it later this afternoon", 10, "2026-12-02", "later this afternoon"),
        ("fix it over the weekend", 10, "2026-12-06", "over the weekend"),
        ("fix it during the weekend", 10, "2026-12-06", "over the weekend"),
        ("watch the sheep overnight", 10, "2026-12-02", "overnight"),
        ("guard the barn all night long", 10, "2026-12-02", "all night"),
        ("guard the barn through the night", 10, "2026-12-02", "through the night"),
        ("guard the barn until morning", 10, "2026-12-03", "until morning"),
        ("guard the barn till the dawn", 4, "2026-12-02", "until dawn"),
        ("guard the barn until dark", 10, "2026-12-02", "until dark"),
        ("fix it before it gets dark", 10, "2026-12-02", "before dark"),
        ("fix it by the end of the weekend", 10, "2026-12-06", "by the end of the weekend"),
        ("fix it by the end of next weekend", 10, "2026-12-13", "by the end of next weekend"),
        ("fix it by end of day tomorrow", 10, "2026-12-03", "by the end of tomorrow"),
        ("fix it by the end of tomorrow", 10, "2026-12-03", "by the end of tomorrow"),
        ("fix it in two and a half days", 10, "2026-12-05", "in two and a half days"),
        ("fix it within a week and a half", 10, "2026-12-13", "within a week and a half"),
        ("fix it in an hour and a half", 10, "2026-12-02", "in an hour and a half"),
        ("fix it in an hour and a half", 23, "2026-12-03", "in an hour and a half"),
        ("watch the kids till evening tomorrow", 10, "2026-12-03", "until tomorrow evening"),
        ("guard the barn until dark", 23, "2026-12-03", "until dark"),
        ("fix it in a day and a half or two", 10, "2026-12-04", "in two days"),
    ],
)
def test_parts_of_the_day_follow_the_clock(text: str, hour: int, iso: str, phrase: str) -> None:
    found = when(text, NOW.replace(hour=hour))
    assert (found.iso_date, found.phrase) == (iso, phrase)


@pytest.mark.parametrize(
    ("text", "iso", "phrase"),
    [
        # Said at 10:00 on Wednesday 2 December 2026.
        ("fix it by five thirty", "2026-12-02", "by 5:30"),
        ("fix it by half past five", "2026-12-02", "by 5:30"),
        ("fix it by quarter to six", "2026-12-02", "by 5:45"),
        ("fix it by twenty past nine", "2026-12-02", "by 9:20"),  # 9:20 pm
        ("fix it by quarter past nine am", "2026-12-03", "by 9:15 am tomorrow"),
        ("fix it by ten to twelve", "2026-12-02", "by 11:50"),
        ("fix it by nine oh five", "2026-12-02", "by 9:05"),
        ("fix it by Christmas", "2026-12-25", "by Christmas"),
        ("fix it before Christmas Eve", "2026-12-24", "by Christmas Eve"),
        ("fix it by New Year's", "2027-01-01", "by New Year's Day"),
        ("fix it on New Year's Eve", "2026-12-31", "on New Year's Eve"),
        ("fix it by Halloween", "2027-10-31", "by Halloween"),
        ("fix it by mid-December", "2026-12-15", "by mid-December"),
        ("fix it by the middle of January", "2027-01-15", "by mid-January"),
        ("fix it by late February", "2027-02-28", "by the end of February"),
        ("fix it by close of business", "2026-12-02", "by the end of the day"),
        ("fix it by COB", "2026-12-02", "by the end of the day"),
        # The day after "end of day" is the day meant (was today before 2026-12-05).
        ("fix it by EOD Friday", "2026-12-04", "by the end of Friday"),
        ("fix it EOD Friday", "2026-12-04", "by the end of Friday"),
        ("fix it by close of business Monday", "2026-12-07", "by the end of Monday"),
        ("fix it by end of day Friday", "2026-12-04", "by the end of Friday"),
        ("fix it by end of day tomorrow", "2026-12-03", "by the end of tomorrow"),
        # "5.30" as Britain writes it, after a cue.
        ("fix it by 5.30", "2026-12-02", "by 5:30"),
        ("fix it at 5.30 pm", "2026-12-02", "at 5:30 pm"),
        ("fix it by 9.15am", "2026-12-03", "by 9:15 am tomorrow"),
        ("fix it in the next hour", "2026-12-02", "in an hour"),
        ("fix it in the next three days", "2026-12-05", "in three days"),
        ("fix it this coming weekend", "2026-12-05", "this weekend"),
        ("fix it a week from Friday", "2026-12-11", "by a week from Friday"),
        ("fix it two days from tomorrow", "2026-12-05", "by two days from tomorrow"),
    ],
)
def test_times_and_days_as_people_say_them(text: str, iso: str, phrase: str) -> None:
    found = when(text)
    assert (found.iso_date, found.phrase) == (iso, phrase)


@pytest.mark.parametrize("text", ["fix it by early January", "fix it before Easter"])
def test_a_vague_part_of_a_month_or_a_moving_feast_is_asked_about(text: str) -> None:
    assert isinstance(resolve(tokenize(text), NOW), Unresolved)


@pytest.mark.parametrize(
    "text", ["buy Christmas lights", "build five benches", "send twenty to the market"]
)
def test_holiday_words_and_counts_alone_are_no_deadline(text: str) -> None:
    assert resolve(tokenize(text), NOW) is None


def test_over_the_weekend_said_on_a_sunday_is_today() -> None:
    sunday = dt.datetime(2026, 12, 6, 10, 0, tzinfo=LONDON)
    assert when("fix it over the weekend", sunday).iso_date == "2026-12-06"


def test_dates_follow_nows_zone() -> None:
    # 23:30 in New York on 2 December is already 3 December in London.
    new_york = dt.datetime(2026, 12, 2, 23, 30, tzinfo=ZoneInfo("America/New_York"))
    assert when("today", new_york).iso_date == "2026-12-02"
    assert when("by Friday", new_york).iso_date == "2026-12-04"


def test_leap_days() -> None:
    # No 29 February this year or next: asked (a probe: it was the deadline, 2028)
    assert isinstance(resolve(tokenize("by February 29"), NOW), Unresolved)
    assert when("by February 29 2028").iso_date == "2028-02-29"
    assert when("by the end of February", NOW.replace(year=2027)).iso_date == "2028-02-29"
    assert when("in a month", NOW.replace(month=1, day=31)).iso_date == "2026-02-28"


def test_numbers_in_words_and_digits() -> None:
    toks = tokenize("twenty-first 21st 21 twenty one third 3rd seven")
    values = []
    i = 0
    while i < len(toks):
        number = number_at(toks, i)
        assert number is not None
        values.append((number.value, number.ordinal))
        i = number.end
    assert values == [
        (21, True),
        (21, True),
        (21, False),
        (21, False),
        (3, True),
        (3, True),
        (7, False),
    ]
    assert [spoken_number(n) for n in (1, 3, 10, 21, 40, 150)] == [
        "one",
        "three",
        "ten",
        "twenty-one",
        "forty",
        "150",
    ]


# --- properties -----------------------------------------------------------------

_NOWS = st.datetimes(
    min_value=dt.datetime(1990, 1, 1),
    max_value=dt.datetime(2200, 12, 31),
    timezones=st.sampled_from([dt.UTC, LONDON, ZoneInfo("Pacific/Auckland")]),
)


@settings(max_examples=300, deadline=None)
@given(now=_NOWS, weekday=st.integers(0, 6), cue=st.sampled_from(["by", "on", "", "before"]))
def test_a_weekday_is_the_next_one_within_seven_days(
    now: dt.datetime, weekday: int, cue: str
) -> None:
    found = when(f"{cue} {WEEKDAYS[weekday]}".strip(), now)
    day = dt.date.fromisoformat(found.iso_date)
    assert day.weekday() == weekday
    assert 1 <= (day - now.date()).days <= 7


@settings(max_examples=300, deadline=None)
@given(now=_NOWS, weekday=st.integers(0, 6))
def test_this_weekday_is_this_weeks_and_next_is_next_weeks(now: dt.datetime, weekday: int) -> None:
    this = dt.date.fromisoformat(when(f"this {WEEKDAYS[weekday]}", now).iso_date)
    assert this.weekday() == weekday and 0 <= (this - now.date()).days <= 6
    following = dt.date.fromisoformat(when(f"by next {WEEKDAYS[weekday]}", now).iso_date)
    next_monday = now.date() + dt.timedelta(days=7 - now.weekday())
    assert following.weekday() == weekday
    assert next_monday <= following <= next_monday + dt.timedelta(days=6)
    end_of_next_week = dt.date.fromisoformat(when("next week", now).iso_date)
    assert following <= end_of_next_week  # "next Friday" agrees with "next week"


@settings(max_examples=300, deadline=None)
@given(
    now=_NOWS,
    days=st.integers(0, 400),
    in_words=st.booleans(),
    lead=st.sampled_from(["in", "within"]),
)
def test_a_span_of_days_adds_them(now: dt.datetime, days: int, in_words: bool, lead: str) -> None:
    count = spoken_number(days) if in_words else str(days)  # "twenty-one" or "21"
    found = when(f"{lead} {count} days", now)
    assert found.iso_date == (now.date() + dt.timedelta(days=days)).isoformat()


@settings(max_examples=300, deadline=None)
@given(now=_NOWS, day=st.dates(min_value=dt.date(2000, 1, 1), max_value=dt.date(2100, 12, 31)))
def test_a_date_without_a_year_is_the_next_one(now: dt.datetime, day: dt.date) -> None:
    for text in (
        f"by {MONTHS[day.month - 1]} {day.day}",
        f"on the {day.day}th of {MONTHS[day.month - 1]}",
    ):
        found = resolve(tokenize(text), now)
        if not isinstance(found, When):  # 29 February: only in a leap year
            assert (day.month, day.day) == (2, 29)
            continue
        resolved = dt.date.fromisoformat(found.iso_date)
        assert (resolved.month, resolved.day) == (day.month, day.day)
        assert now.date() <= resolved
        assert (resolved - now.date()).days < 366 or (day.month, day.day) == (2, 29)


_WORDS = st.sampled_from(
    words(
        "by on before until due no later than the this next coming end of week month year "
        "weekend Friday fri Monday December dec May 24th 3rd twenty first thirty second in "
        "within a couple few days hours hour an half 5 pm p . m : 30 o'clock noon midnight "
        "tomorrow today tonight morning night harvest pond 2026-12-25 2026-02-31 , and 9999"
    )
)


@settings(max_examples=500, deadline=None)
@given(heard=st.lists(st.one_of(_WORDS, st.text(max_size=8)), max_size=14), now=_NOWS)
def test_resolve_never_raises_and_spans_are_inside(heard: list[str], now: dt.datetime) -> None:
    toks = tokenize(" ".join(heard))
    found = resolve(toks, now)
    if found is None:
        return
    assert 0 <= found.start < found.end <= len(toks)
    if isinstance(found, When):
        dt.date.fromisoformat(found.iso_date)
        assert found.phrase


def test_far_future_years_do_not_raise() -> None:
    end = dt.datetime(9999, 12, 31, 12, 0, tzinfo=dt.UTC)
    for text in ("next year", "by the end of next month", "in a month", "in 3 weeks", "by Friday"):
        resolve(tokenize(text), end)  # a question or nothing, never an exception


@pytest.mark.parametrize(
    ("text", "unresolved"),
    [
        ("fix the fence yesterday", "yesterday"),
        ("fix the fence by last week", "by last week"),
        ("fix the fence last Friday", "last friday"),
        ("fix the fence two days ago", "two days ago"),
        ("fix the fence 3 weeks ago", "3 weeks ago"),
    ],
)
def test_a_day_that_has_passed_is_never_a_deadline(text: str, unresolved: str) -> None:
    toks = tokenize(text)
    got = resolve(toks, NOW)
    assert isinstance(got, Unresolved), got
    assert " ".join(t.low for t in toks[got.start : got.end]) == unresolved


@pytest.mark.parametrize(
    "text",
    [
        "report on the storm from yesterday",
        "report on last night",
        "tell me about yesterday",
        "fix the last fence",
        "fix yesterday's damage",
        "fix the fence that fell last night",
        "repair the fence he broke two days ago",
        "support the family who arrived yesterday",
        "check the well, it ran dry yesterday",
        "build the shed like last year",
        "report on the last month",
    ],
)
def test_a_passed_day_that_describes_the_target_is_left_alone(text: str) -> None:
    assert resolve(tokenize(text), NOW) is None


def test_late_in_a_month_is_its_last_day_this_year_or_next() -> None:
    assert (
        when("fix it by late February", dt.datetime(2027, 12, 1, 10, tzinfo=LONDON)).iso_date
        == "2028-02-29"
    )
    assert (
        when("fix it by late December", dt.datetime(2026, 12, 20, 10, tzinfo=LONDON)).iso_date
        == "2026-12-31"
    )
    assert (
        when("fix it by late November", dt.datetime(2026, 12, 20, 10, tzinfo=LONDON)).iso_date
        == "2027-11-30"
    )


@pytest.mark.parametrize(
    ("text", "iso", "span"),
    [
        # Said on Wednesday 2 December: a span is due at its end.
        ("guard the gate from tonight until Sunday", "2026-12-06", "from tonight until Sunday"),
        ("fix the gate between now and Friday", "2026-12-04", "between now and Friday"),
        ("watch the hens from Monday to Friday", "2026-12-11", "from Monday to Friday"),
        ("watch them from tomorrow through Sunday", "2026-12-06", "from tomorrow through Sunday"),
        ("guard the gate from now till dawn", "2026-12-03", "from now till dawn"),
        ("guard it starting from tonight until Sunday", "2026-12-06",
         "starting from tonight until Sunday"),
        # The end's weekday comes before the start's: the one after the start.
        ("watch the hens from Sunday to Thursday", "2026-12-10", "from Sunday to Thursday"),
    ],
)  # fmt: skip
def test_a_span_is_due_at_its_end_and_covers_both_ends(text: str, iso: str, span: str) -> None:
    found = when(text)
    assert found.iso_date == iso
    assert said(text, found) == span


@pytest.mark.parametrize(
    "text",
    [
        "move the logs from the barn to the shed",
        "walk between the barn and the well",
    ],
)
def test_from_and_between_without_times_are_no_span(text: str) -> None:
    assert resolve(tokenize(text), NOW) is None


@pytest.mark.parametrize(
    "text",
    ["fix the gate not between now and Friday", "guard the barn except from Monday to Friday"],
)
def test_a_negated_span_is_no_span(text: str) -> None:
    found = resolve(tokenize(text), NOW)
    if found is not None:
        assert said(text, found).split()[0] not in ("from", "between"), said(text, found)


def test_a_span_ending_on_a_weekday_and_its_date_is_due_that_date() -> None:
    for text, iso in [
        ("guard the barn from Sunday to Thursday the 10th", "2026-12-10"),
        ("guard the barn from Friday to Monday 7 December", "2026-12-07"),
    ]:
        found = when(text)
        assert found.iso_date == iso and said(text, found).startswith("from"), (text, found)


@pytest.mark.parametrize(
    ("text", "iso"),
    [
        # A weekday said alone after a later start is the first one on or after it.
        ("guard the barn from Christmas to Sunday", "2026-12-27"),
        ("guard the barn from December 20 to Monday", "2026-12-21"),
        # An hour after the weekday is no date: the weekday stands.
        ("fix the gate from now until Friday 3 pm", "2026-12-04"),
        ("fix the gate between now and Friday 5", "2026-12-04"),
    ],
)
def test_span_ends_against_their_start(text: str, iso: str) -> None:
    assert when(text).iso_date == iso


def test_a_rolled_span_end_names_its_date_and_never_overflows() -> None:
    found = when("watch the hens from Sunday to Thursday")
    assert (found.iso_date, found.phrase) == ("2026-12-10", "by Thursday, December 10")
    far = dt.datetime(9999, 12, 20, 10, tzinfo=dt.UTC)
    assert resolve(tokenize("from December 31 to Monday"), far) is not None


def test_the_middle_of_a_week_that_has_passed_is_asked_about() -> None:
    friday = dt.datetime(2026, 12, 4, 10, 0, tzinfo=LONDON)
    found = resolve(tokenize("by the middle of the week"), friday)
    assert isinstance(found, Unresolved), found
    assert when("by the middle of next week", friday).iso_date == "2026-12-09"


def test_a_height_after_at_is_no_clock_and_leaves_the_day() -> None:
    assert when("build the wall at 1.45 m tall by Friday").iso_date == "2026-12-04"
