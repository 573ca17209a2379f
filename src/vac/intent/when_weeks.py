"""Deadlines a whole number of weeks on, as people say them in Britain and
elsewhere: "a week today", "two weeks tomorrow", "a week on Monday", "this
time next week", "the week after next", "the Monday after next". Before,
the first three were read as today, tomorrow or Monday with "a week" left
in the thing ("repair the bench a week today" was due today), the others
were no deadline at all. ("Monday week" is read with the weekday, in
`when_days.weekday`.)
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Final

from vac.intent import calendar_words as cw
from vac.intent.lexicon import Tok
from vac.intent.numbers import number_at
from vac.intent.when_days import period_end
from vac.intent.when_match import (
    ONE_DAY,
    Bad,
    Found,
    Hit,
    add_months,
    ends_here,
    month_day,
    word_at,
)

_MAX_WEEKS: Final = 8  # "nine weeks today" is read as it was: not these shapes
_ONE: Final = frozenset({"a", "one"})


def _coming(today: dt.date, index: int) -> dt.date:
    """The weekday's next date after today ("Monday" on a Monday is next week's)."""
    return today + ((index - today.weekday()) % 7 or 7) * ONE_DAY


def _weeks_at(toks: Sequence[Tok], i: int) -> tuple[int, int] | None:
    """ "a week", "one week", "two weeks": how many, and where the unit ends."""
    if word_at(toks, i) in _ONE and word_at(toks, i + 1) == "week":
        return 1, i + 2
    if word_at(toks, i) in _ONE and word_at(toks, i + 1) == "fortnight":
        return 2, i + 2  # "a fortnight on Friday" (it was Friday)
    number = number_at(toks, i)
    if number is None or number.ordinal or not 1 <= number.value <= _MAX_WEEKS:
        return None
    return (number.value, number.end + 1) if word_at(toks, number.end) == "weeks" else None


def _day_of_a_week(toks: Sequence[Tok], i: int, today: dt.date) -> Hit | None:
    """ "Friday next week", "next week Friday", "Friday fortnight" (a typed
    probe: each was this Friday, or the end of next week, with the rest
    dropped), and "the end of the week after next" (was this week's end)."""
    said = [word_at(toks, i + n) for n in range(7)]
    if said[:6] == ["the", "end", "of", "the", "week", "after"] and said[6] == "next":
        if ends_here(toks, i + 7):
            day = today + (6 - today.weekday() + 14) * ONE_DAY
            return Hit(day, f"by the end of the week after next, {month_day(day, today)}", i + 7)
        return None
    if said[:2] == ["next", "week"] and said[2] in cw.WEEKDAYS and ends_here(toks, i + 3):
        index, end = cw.WEEKDAYS[said[2]], i + 3  # "next week Friday"
    elif said[0] in cw.WEEKDAYS and said[1:3] == ["next", "week"] and ends_here(toks, i + 3):
        index, end = cw.WEEKDAYS[said[0]], i + 3  # "Friday next week"
    elif said[0] in cw.WEEKDAYS and said[1] == "fortnight" and ends_here(toks, i + 2):
        day = _coming(today, cw.WEEKDAYS[said[0]]) + 14 * ONE_DAY  # British, as "Friday week"
        name = cw.WEEKDAY_NAMES[cw.WEEKDAYS[said[0]]]
        return Hit(day, f"a fortnight on {name}, {month_day(day, today)}", i + 2)
    else:
        return None
    day = today + (7 - today.weekday() + index) * ONE_DAY  # as "next Friday"
    return Hit(day, f"by next {cw.WEEKDAY_NAMES[index]}, {month_day(day, today)}", end)


def weeks_on(toks: Sequence[Tok], i: int, now: dt.datetime, cued: bool) -> Found:
    today, low = now.date(), word_at(toks, i)
    if (of_a_week := _day_of_a_week(toks, i, today)) is not None:
        return of_a_week
    said = [word_at(toks, i + n) for n in range(4)]
    after_next = said[1:3] == ["after", "next"] and ends_here(toks, i + 3)
    if after_next and (low in cw.WEEKDAYS or low == "weekend"):  # "Friday / weekend after next"
        low, said, i = "the", ["the", *said[:3]], i - 1  # (was this Friday / weekend)
    if said[:4] == ["this", "time", "next", "week"]:
        day = today + 7 * ONE_DAY
        return Hit(day, f"this time next week, {month_day(day, today)}", i + 4)
    if low == "the" and said[2:4] == ["after", "next"] and ends_here(toks, i + 4):
        if said[1] == "week":  # done by the end of that week, its Sunday
            day = today + (6 - today.weekday() + 14) * ONE_DAY
            return Hit(day, f"by the end of the week after next, {month_day(day, today)}", i + 4)
        if said[1] == "weekend":  # that week's Saturday (it was left in the thing)
            day = today + (5 - today.weekday() + 14) * ONE_DAY
            return Hit(day, f"by the weekend after next, {month_day(day, today)}", i + 4)
        if said[1] in cw.WEEKDAYS:  # a week after "next Saturday" (the one in next week)
            day = today + (7 - today.weekday() + cw.WEEKDAYS[said[1]] + 7) * ONE_DAY
            name = cw.WEEKDAY_NAMES[cw.WEEKDAYS[said[1]]]
            return Hit(day, f"by the {name} after next, {month_day(day, today)}", i + 4)
        return None
    if low == "the" and (
        (said[1] == "following" and (said[2] in ("week", "weekend") or said[2] in cw.WEEKDAYS))
        or (said[1] in cw.WEEKDAYS and said[2] == "after" and ends_here(toks, i + 3))
    ):
        return Bad(i + 3)  # "the following week", "the Monday after": after what? Asked.
    weeks = _weeks_at(toks, i)
    before = word_at(toks, i - 1 - (word_at(toks, i - 1) == "about"))
    if weeks is None or before in ("for", "been", "over"):
        return None  # "guard the barn for (about) a week today", "it's been a week today"
    count, k = weeks
    base, name = word_at(toks, k), ""
    if base == "on" and word_at(toks, k + 1) in cw.WEEKDAYS:
        k, base = k + 1, word_at(toks, k + 1)
    if base == "today":
        start = today
    elif base == "tomorrow":
        start = today + ONE_DAY
    elif base in cw.WEEKDAYS:
        start, name = _coming(today, cw.WEEKDAYS[base]), cw.WEEKDAY_NAMES[cw.WEEKDAYS[base]]
    else:
        return None
    if not ends_here(toks, k + 1):
        return None  # "a week today's date…"
    day = start + 7 * count * ONE_DAY
    unit = (
        "a week"
        if count == 1
        else "a fortnight"
        if any(t.low == "fortnight" for t in toks[i:k])
        else f"{count} weeks"
    )
    spoken = f"on {name}" if name else base
    return Hit(day, f"{unit} {spoken}, {month_day(day, today)}", k + 1)


_PART_WORDS: Final = {"middle": "the middle", "start": "the start", "beginning": "the beginning"}
# "midweek", "mid-week", "mid week": the middle of the week.
_MIDWEEK: Final = frozenset({"midweek", "mid"})


def middle(toks: Sequence[Tok], i: int, now: dt.datetime, cued: bool) -> Found:
    """ "(by) the middle of (this / next) week": its Wednesday; "the middle of
    (this / next) month": its 15th; "the start / beginning of next week":
    its Monday; "… of next month / year": its first day; "(by) midweek":
    this week's Wednesday. Only after a cue ("the middle of the week market"
    is a thing). Already past ("the middle of the week" said on a Friday):
    asked. Before, "the middle of next week" was read as the end of next
    week, "the start of next week" as its end, and "midweek" was no
    deadline."""
    today = now.date()
    if not cued and not (word_at(toks, i) == "midweek" and ends_here(toks, i + 1)):
        return None  # "look after the stall midweek" (an eleventh typed probe: "Stall midweek")
    k = i + (word_at(toks, i) == "the")
    part, which = word_at(toks, k), ""
    if part in _MIDWEEK and i == k:
        k += 1 + (word_at(toks, k + 1) == "week" and part == "mid")
        if part == "mid" and k == i + 1:
            return None  # "mid-December": `when_days.part_of_month`
        part, unit, later = "middle", "week", False
        k -= 1
    elif part in _PART_WORDS and word_at(toks, k + 1) == "of":
        which = word_at(toks, k + 2)
        k += 2 + (which in ("the", "this", "next"))
        unit, later = word_at(toks, k), which == "next"
    else:
        return None
    first = today.replace(day=1)
    if part == "middle" and unit == "week":
        day = today + (2 - today.weekday() + 7 * later) * ONE_DAY
    elif part == "middle" and unit == "month":
        day = add_months(first, int(later)).replace(day=15)
    elif part != "middle" and unit == "week":
        day = today + (-today.weekday() + 7 * later) * ONE_DAY
    elif part != "middle" and unit == "month":
        day = add_months(first, int(later))
    elif part != "middle" and unit == "year":
        day = dt.date(today.year + later, 1, 1)
    else:
        return None  # "the middle of December": `when_days.part_of_month`
    if day < today:
        return Bad(k + 1)
    said = f"{_PART_WORDS[part]} of {'next' if later else 'the'} {unit}"
    return Hit(day, f"by {said}, {month_day(day, today)}", k + 1)


# "by EOW / EOM / EOY" (as "EOD" is read), "by month end", "by year end":
# a typed probe found them dropped without a word.
_SHORT_ENDS: Final = {"eow": "week", "eom": "month", "eoy": "year"}


def short_end(toks: Sequence[Tok], i: int, now: dt.datetime, cued: bool) -> Found:
    """The end of this week, month or year, said short (after a cue, or last)."""
    low = word_at(toks, i)
    unit, end = _SHORT_ENDS.get(low), i + 1
    if unit is None and low in ("week", "month", "year") and word_at(toks, i + 1) == "end":
        unit, end = low, i + 2  # "by month end"
        if not cued:
            return None
    if unit is None or not (cued or ends_here(toks, end)):
        return None
    found = period_end(unit, "this", now.date())
    return None if found is None else Hit(found[0], found[1], end)
