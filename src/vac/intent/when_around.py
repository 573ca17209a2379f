"""A day counted from another: "the day before Christmas", "the day after
Boxing Day", "two days before the 20th", "the night before Friday". A
typed probe (2026-12-06) found "the day before Christmas" read as Christmas
and "the day after Boxing Day" left in the thing.

Days only: the day said is resolved as if after a cue (a holiday, a date, a
day of the month, a weekday), then moved. "The week before Christmas" (which
day of it?) is asked about; so is a day that comes out already past.
"The day after tomorrow" is `when_days.relative_day`'s.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from typing import Final

from vac.intent.lexicon import Tok
from vac.intent.numbers import number_at
from vac.intent.when_days import calendar_date, holiday, weekday
from vac.intent.when_match import ONE_DAY, Bad, Found, Hit, month_day, word_at
from vac.intent.when_month_days import day_of_month, iso, slash_date

_DAYS: Final[tuple[Callable[[Sequence[Tok], int, dt.datetime, bool], Found], ...]] = (
    iso,
    holiday,
    slash_date,
    calendar_date,
    day_of_month,
    weekday,
)
_MAX_DAYS: Final = 14
_WAY: Final = {"before": -1, "after": 1}


def _count(toks: Sequence[Tok], i: int) -> tuple[int, int] | None:
    """ "the day" / "the night" (1), "two days", "a couple of days": how many
    days, and where "before" / "after" should stand."""
    low = word_at(toks, i)
    if low == "the" and word_at(toks, i + 1) in ("day", "night", "evening"):
        return 1, i + 2
    if low == "a" and [word_at(toks, i + n) for n in (1, 2, 3)] == ["couple", "of", "days"]:
        return 2, i + 4
    number = number_at(toks, i)
    if number is not None and not number.ordinal and word_at(toks, number.end) == "days":
        return number.value, number.end + 1
    return None


def day_around(toks: Sequence[Tok], i: int, now: dt.datetime, cued: bool) -> Found:
    if word_at(toks, i) == "the" and word_at(toks, i + 1) in ("week", "weekend"):
        if word_at(toks, i + 2) in _WAY and word_at(toks, i + 3) not in ("", "next", "last"):
            day = _said_day(toks, i + 3, now)
            return None if day is None else Bad(day.end)  # "the week before Christmas": asked
        return None
    count = _count(toks, i)
    if count is None or word_at(toks, count[1]) not in _WAY:
        return None
    days, k = count
    if word_at(toks, k + 1) == "tomorrow":
        return None  # "the day after tomorrow": `relative_day`'s
    day = _said_day(toks, k + 1, now)
    if day is None:
        return None  # "the day after the storm": no day said
    if not 1 <= days <= _MAX_DAYS:
        return Bad(day.end)  # "20 days before Christmas": asked (it was Christmas)
    moved = day.day + _WAY[word_at(toks, k)] * days * ONE_DAY
    if moved < now.date():
        return Bad(day.end)
    said = " ".join(t.text for t in toks[i : k + 1])
    return Hit(
        moved,
        f"by {said} {day.phrase.removeprefix('by ')}, {month_day(moved, now.date())}",
        day.end,
    )


def _said_day(toks: Sequence[Tok], k: int, now: dt.datetime) -> Hit | None:
    for matcher in _DAYS:
        try:
            found = matcher(toks, k, now, True)
        except (OverflowError, ValueError):
            return None
        if isinstance(found, Hit):
            return found
        if found is not None:
            return None
    return None


__all__ = ["day_around"]
