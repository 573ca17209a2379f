"""Deadlines said as a day of the month without its name: "by the 3rd",
"on the twenty-first" (this month, or the next that has it), "the 7th of
next month", "by the 20th of this month". Before 2026-12-05, "the 7th of
next month" was read as the end of next month, with "the 7th of" left in
the thing."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from vac.intent.lexicon import Tok
from vac.intent.numbers import number_at
from vac.intent.when_match import Bad, Found, Hit, add_months, ends_here, month_day, word_at


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
    if not cued:
        return None
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
