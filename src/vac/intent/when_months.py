"""A month, or a week of one, said as when to do it: "in January", "during
January", "in the second week of January", "in the last week of the
month". A typed probe (2026-12-06) found "in January" dropped without a
word, "in the first week of January" kept as a place, and "by the 2nd week
of January" read as January 2.

- "in / during <month>": due by that month's last day (this month's, said
  in it; else the next one), read back with the date ("in January, by
  January 31 2027");
- "in / during the <first … fourth, last> week of <month> / of next month /
  of the month": due by that week's last day, the weeks counted from the
  1st (days 1–7, 8–14, 15–21, 22–28; the last week ends with the month);
- "by / before the second week of January": by when it starts, or ends?
  Asked; so is any other week of a month ("the fifth week"), and "in the
  new year" (which day?).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Final

from vac.intent import calendar_words as cw
from vac.intent.lexicon import Tok, words
from vac.intent.numbers import number_at
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

_DURING: Final = frozenset({"in", "during", "within", "throughout"})
_LAST: Final = frozenset({"last", "final"})
_NTH: Final = ("", "first", "second", "third", "fourth", "fifth")


def _month(toks: Sequence[Tok], k: int, today: dt.date) -> tuple[dt.date, str, int] | None:
    """The month named at `k` ("January", "the month of May", "next month",
    "the month", "this month"): its first day, how to say it, where it ends.
    A month name is this year's unless it is over, then next year's."""
    said = [word_at(toks, k + n) for n in range(5)]
    if said[:3] == ["the", "month", "of"]:
        k, said = k + 3, said[3:]
    low = said[0]
    if low in ("next", "this", "the") and said[1] == "month":
        first = add_months(today.replace(day=1), int(low == "next"))
        return first, f"{low if low == 'next' else 'this'} month", k + 2
    if low in cw.MONTHS:  # "in Jan" too: after "in", "may" is no modal
        month = cw.MONTHS[low]
        year = today.year + (month < today.month)
        said_year = said[1] if said[1].isdigit() and len(said[1]) == 4 else ""
        if said_year and 1900 <= int(said_year) <= 2999:  # "in January 2028"
            return (
                dt.date(int(said_year), month, 1),
                f"{cw.MONTH_NAMES[month - 1]} {said_year}",
                k + 2,
            )
        return dt.date(year, month, 1), cw.MONTH_NAMES[month - 1], k + 1
    return None


def _which_week(toks: Sequence[Tok], k: int) -> tuple[int | None, int] | None:
    """ "the second week of", "the 2nd week of", "the last week of", "week 2
    of": which (None for the last) and where "of" ends."""
    number = number_at(toks, k + 1) if word_at(toks, k) == "week" else None
    if number is not None and not number.ordinal and word_at(toks, number.end) == "of":
        return number.value, number.end + 1  # "in week 2 of January" (it was January 2)
    which = _the_nth(toks, k)
    if which is None or word_at(toks, which[1]) != "week" or word_at(toks, which[1] + 1) != "of":
        return None
    return which[0], which[1] + 2


def _the_nth(toks: Sequence[Tok], k: int) -> tuple[int | None, int] | None:
    """ "the second", "the 2nd", "the last" at `k`: which (None for the
    last) and where it ends."""
    if word_at(toks, k) != "the":
        return None
    if word_at(toks, k + 1) in _LAST:
        return None, k + 2
    number = number_at(toks, k + 1)
    return None if number is None or not number.ordinal else (number.value, number.end)


def _nth_day(first: dt.date, name: str, nth: int | None) -> dt.date | None:
    """The `nth` (None: last) weekday `name` of `first`'s month, if it has one."""
    days = [
        first.replace(day=d)
        for d in range(1, month_end(first.year, first.month).day + 1)
        if first.replace(day=d).weekday() == cw.WEEKDAYS[name]
    ]
    if nth is not None and not 1 <= nth <= len(days):
        return None  # "the fifth Monday of February"
    return days[-1] if nth is None else days[nth - 1]


def _nth_weekday(toks: Sequence[Tok], k: int, today: dt.date) -> Found:
    """ "the first Monday of January", "the last Friday of the month": that day."""
    which = _the_nth(toks, k)
    if which is None:
        return None
    nth, at = which
    name = word_at(toks, at)
    if name not in cw.WEEKDAYS or word_at(toks, at + 1) != "of":
        return None
    month: tuple[dt.date, str, int] | None
    if word_at(toks, at + 2) in ("every", "each") and word_at(toks, at + 3) == "month":
        # "…of every month" (a typed probe: due the 1st): its next one, which
        # a standing order repeats at (`when_said.repeats_at`)
        this = today.replace(day=1)
        soon = _nth_day(this, name, nth)
        month = (this if soon is not None and soon >= today else add_months(this, 1)), "", at + 4
    else:
        month = _month(toks, at + 2, today)
    if month is None:
        return None
    first, said, end = month
    day = _nth_day(first, name, nth)
    if day is None or day < today:
        return Bad(end)
    ordinal = "last" if nth is None else _NTH[nth] if nth < len(_NTH) else f"{nth}th"
    weekday = cw.WEEKDAY_NAMES[cw.WEEKDAYS[name]]
    of = f"of {said}, " if said else "of every month, "
    return Hit(day, f"by the {ordinal} {weekday} {of}{month_day(day, today)}", end)


_EARLY: Final = frozenset({"early", "start", "beginning"})
_MIDDLE: Final = frozenset({"mid", "middle"})
_LATE: Final = frozenset({"late", "end"})


def _part_of(toks: Sequence[Tok], k: int, today: dt.date) -> Found:
    """After "in" / "during": "early / mid / late January", "the middle / start
    / end of January" (the 15th, asked, its last day); "the spring", "the new
    year" are asked (they were places). A typed probe: each was dropped or a place."""
    said = [word_at(toks, k + n) for n in range(4)]
    if said[0] == "the" and (said[1] in cw.SEASONS or said[1:3] == ["new", "year"]):
        return Bad(k + 2 + (said[1] == "new"))
    if said[0] in ("early", "mid", "late"):
        part, at = said[0], k + 1
    elif said[0] == "the" and said[1] in _EARLY | _MIDDLE | _LATE and said[2] == "of":
        part, at = said[1], k + 3
    else:
        return None
    if [word_at(toks, at + n) for n in range(3)] == ["the", "new", "year"]:
        return Bad(at + 3)  # "at the start of the new year": which day?
    month = _month(toks, at, today)
    if month is None:
        return None
    first, name, end = month
    if part in _EARLY:
        return Bad(end)  # "in early February": which day? Asked.
    day = first.replace(day=15) if part in _MIDDLE else month_end(first.year, first.month)
    if day < today:
        return Bad(end)
    said_part = "mid-" if part in _MIDDLE else "the end of "
    return Hit(day, f"by {said_part}{name}, {month_day(day, today)}", end)


def _day_of(toks: Sequence[Tok], k: int, first: dt.date, last: int) -> tuple[dt.date, int] | None:
    """ "by / on / before the 10th" at `k`, said after a month: that day of it."""
    if word_at(toks, k) not in ("by", "on", "before") or word_at(toks, k + 1) != "the":
        return None
    said = number_at(toks, k + 2)
    if said is None or not said.ordinal or not 1 <= said.value <= last:
        return None
    return (first.replace(day=said.value), said.end) if ends_here(toks, said.end) else None


# After a month, these make it what is talked about, not when.
_SAID_OF: Final = frozenset(words("is was will 's looks seems has had gets can could"))
# After those, these leave the month the deadline: "next March will do", "…is out".
_STILL_WHEN: Final = frozenset(words("do fine ok okay when due out over good work"))


def month_said(toks: Sequence[Tok], i: int, now: dt.datetime, cued: bool) -> Found:
    today, low = now.date(), word_at(toks, i)
    # "in January or February": the second month said after "or" (not "help
    # April or June": names, a review found due June 30)
    after_or = low == "or" and word_at(toks, i - 1) in cw.MONTHS and word_at(toks, i - 2) in _DURING
    during = low in _DURING or after_or
    k = i + during
    month = _month(toks, i + 1, today) if low in ("this", "next") else None
    written = month is not None and toks[i + 1].text != "may"  # "this may hurt": no month
    if (
        month is not None
        and word_at(toks, month[2]) in _SAID_OF
        and word_at(toks, month[2] + 1) not in _STILL_WHEN  # not "…will do", "…is out"
    ):
        return None  # "this May is busy": the month talked about (a probe: due May 31)
    if month is not None and written and not month[1].endswith(" month"):
        day = month_end(month[0].year, month[0].month)  # "this December" (it was the thing's)
        return Hit(day, f"{low} {month[1]}, by {month_day(day, today)}", month[2])
    # "at the start / end of January" too (an "at" is never asked about otherwise)
    at_part = low == "the" and word_at(toks, i - 1) == "at" and word_at(toks, i + 2) == "of"
    if (during or at_part) and (part := _part_of(toks, i + during, today)) is not None:
        return part
    nth_day = _nth_weekday(toks, k + (word_at(toks, k) == "on"), today)
    if nth_day is not None:
        return nth_day  # "on the first Monday of January" (it was January 1, a Friday)
    if during and [word_at(toks, k + n) for n in range(3)] == ["the", "new", "year"]:
        return Bad(k + 3)  # "in the new year": which day? Asked (it was a place).
    week = _which_week(toks, k)
    if week is not None:
        nth, k = week
        month = _month(toks, k, today)
        if month is None:
            return None  # "the second week of training"
        first, name, end = month
        if not during or (nth is not None and not 1 <= nth <= 4):
            return Bad(end)  # "by the 2nd week of January": its start or its end? Asked.
        last = month_end(first.year, first.month)
        day = last if nth is None else first.replace(day=7 * nth)
        if day < today:
            return Bad(end)  # "in the first week of this month", said on the 20th
        which = "last" if nth is None else _NTH[nth]
        return Hit(day, f"in the {which} week of {name}, by {month_day(day, today)}", end)
    if not during:
        return None
    month = _month(toks, k, today)
    if month is None or month[1].endswith(" month"):
        return None  # "in the month", "in next month" are said other ways (`period`)
    first, name, end = month
    day = month_end(first.year, first.month)
    if day < today:
        return Bad(end)  # "in January 2020": gone
    # "in January, by the 10th": that day (it was the 31st, "by the 10th" a place)
    dated = _day_of(toks, end + (word_at(toks, end) == ","), first, day.day)
    if dated is not None:
        return (
            Hit(dated[0], f"by {month_day(dated[0], today)}", dated[1])
            if dated[0] >= today
            else Bad(dated[1])
        )
    return Hit(day, f"in {name}, by {month_day(day, today)}", end)


__all__ = ["month_said"]
