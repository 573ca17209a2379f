"""Deadlines said as a day of the month without its name: "by the 3rd",
"on the twenty-first" (this month, or the next that has it), "the 7th of
next month", "by the 20th of this month". Before 2026-12-05, "the 7th of
next month" was read as the end of next month, with "the 7th of" left in
the thing."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from vac.intent import calendar_words as cw
from vac.intent.lexicon import ISO_DATE_RE, SLASH_DATE_RE, Tok
from vac.intent.numbers import number_at
from vac.intent.when_days import calendar_date
from vac.intent.when_match import (
    Bad,
    Found,
    Hit,
    add_months,
    ends_here,
    month_day,
    month_end,
    word_at,
)


def _of_month(toks: Sequence[Tok], k: int) -> tuple[int, int] | None:
    """ "of (this / next) month" at `k`: months ahead (0 or 1) and where it ends."""
    said = [word_at(toks, k + n) for n in range(3)]
    if said[0] == "of" and said[1] in ("this", "next") and said[2] == "month":
        return int(said[1] == "next"), k + 3
    return None


def day_of_month(toks: Sequence[Tok], i: int, now: dt.datetime, cued: bool) -> Found:
    """ "by the 3rd", "on the twenty-first": this month, or the next that has
    it; "(by) the 7th of next month": that one (uncued too: it says a day)."""
    k = i + (word_at(toks, i) == "the")
    number = number_at(toks, k)
    if number is None or not number.ordinal:
        return None
    today = now.date()
    first = today.replace(day=1)
    of_month = _of_month(toks, number.end)
    if of_month is not None:
        ahead, end = of_month
        try:
            day = add_months(first, ahead).replace(day=number.value)
        except ValueError:  # "the 31st of next month" in a month of 30
            return Bad(end)
        return Bad(end) if day < today else Hit(day, f"by {month_day(day, today)}", end)
    if not cued or (k == i and word_at(toks, k) == "first" and word_at(toks, i - 1) == "on"):
        return None  # "put your shoes on first" (a conversation probe: April 1); "on the first"
    if word_at(toks, number.end) in cw.WEEKDAYS:  # "on the first Monday": not the 1st (a probe)
        return None if word_at(toks, number.end + 1) == "of" else Bad(number.end + 1)
    if not ends_here(toks, number.end):
        return None  # "on the third floor"
    if not 1 <= number.value <= 31:
        return Bad(number.end)
    for ahead in range(3):
        month_first = add_months(first, ahead)
        try:
            day = month_first.replace(day=number.value)
        except ValueError:
            continue
        if day >= today:
            return Hit(day, f"by {month_day(day, today)}", number.end)
    return Bad(number.end)


def first_or_last_day(toks: Sequence[Tok], i: int, now: dt.datetime, cued: bool) -> Found:
    """ "(by) the last day of the month / of this month / of next month / of
    March", "the first day of next month": that day (this year's month, or
    next year's once past). A typed probe found "by the last day of the
    month" with no deadline and a read-back cut short ("by the last day of the")."""
    k = i + (word_at(toks, i) == "the")
    which = word_at(toks, k)
    if which not in ("first", "last") or [word_at(toks, k + 1), word_at(toks, k + 2)] != [
        "day",
        "of",
    ]:
        return None
    today, k = now.date(), k + 3
    said = [word_at(toks, k), word_at(toks, k + 1)]
    if said[1] == "month" and said[0] in ("the", "this", "next"):
        first = add_months(today.replace(day=1), int(said[0] == "next"))
        end, then = k + 2, 1 if said[0] == "the" else 0  # "the month": the next one that has it
    elif said[0] in cw.MONTHS:
        first, end, then = today.replace(month=cw.MONTHS[said[0]], day=1), k + 1, 12
    else:
        return None

    def pick(month_first: dt.date) -> dt.date:
        return month_first if which == "first" else month_end(month_first.year, month_first.month)

    day = pick(first)
    if day < today and then:  # gone: "the first day of March" said on the 6th is next year's
        day = pick(add_months(first, then))
    if day < today:  # "the first day of this month", said after it: asked
        return Bad(end)
    return Hit(day, f"by {month_day(day, today)}", end)


def slash_date(toks: Sequence[Tok], i: int, now: dt.datetime, cued: bool) -> Found:
    """ "by 12/24", "by 24/12", "by 31/12/2026": a date written with slashes
    whose order only one reading allows (one number over 12); the next such
    day, or that year's. Both 12 or under ("12/11") stays a question: its
    order is the writer's country's. A typed probe found "by 31/12" asked."""
    low = word_at(toks, i)
    if not cued or not SLASH_DATE_RE.match(low):
        return None
    first, second, *year = (int(p) for p in low.split("/"))
    if (first > 12) == (second > 12) and first != second:
        return None  # "12/11": asked (`when._looks_temporal`); "31/31": no date; "12/12" is one
    month, day_no = (second, first) if first > 12 else (first, second)
    today = now.date()
    years = [today.year, today.year + 1]
    if year:  # "24/12/27": 2027; "24/12/99": 1999, gone (it was 2099)
        century = 2000 if year[0] >= 100 or 2000 + year[0] <= today.year + 50 else 1900
        years = [year[0] if year[0] >= 100 else century + year[0]]
    for y in years:
        try:
            day = dt.date(y, month, day_no)
        except ValueError:
            return Bad(i + 1)  # "by 31/2"
        if day >= today:
            return Hit(day, f"by {month_day(day, today)}", i + 1)
    return Bad(i + 1)  # "by 31/12/2020": gone


def its_date(clause: Sequence[Tok], day: Hit, now: dt.datetime) -> Found:
    """A weekday with its date said after it ("Friday the 11th", "Monday,
    December 7"): the same day, read back with its date; another day is
    asked about (a typed probe: "on Wednesday the 10th" was the 9th, the
    date dropped)."""
    k = day.end + (word_at(clause, day.end) == ",")
    for dated in (calendar_date, day_of_month):
        try:
            found = dated(clause, k, now, True)
        except (OverflowError, ValueError):  # past year 9999: no such day
            found = None
        if isinstance(found, Hit):
            if found.day != day.day:
                return Bad(found.end)
            date = month_day(day.day, now.date())
            said = day.phrase if date in day.phrase else f"{day.phrase}, {date}"  # "next Friday…"
            return Hit(day.day, said, found.end)
    return day


def iso(toks: Sequence[Tok], i: int, now: dt.datetime, cued: bool) -> Found:
    low = word_at(toks, i)
    if not ISO_DATE_RE.match(low):
        return None
    try:
        day = dt.date.fromisoformat(low)
        # A day already past is no deadline: asked about, as "by yesterday"
        # is (a probe: "by 2026-12-01" said on the 5th was drafted so).
        return Bad(i + 1) if day < now.date() else Hit(day, f"by {low}", i + 1)
    except ValueError:
        # Not a real date. Kept as no deadline (not a question): the parser's
        # tests pin "by 2026-02-31" to a draft without one.
        return None
