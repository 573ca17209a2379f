"""Deadline matchers for named days: today, tomorrow, weekdays, weeks and
months, calendar dates and ISO dates (rules in `when`'s docstring)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Final

from vac.intent import calendar_words as cw
from vac.intent.lexicon import DETERMINERS, Tok, phrase_at, words
from vac.intent.numbers import number_at
from vac.intent.when_match import (
    ONE_DAY,
    Bad,
    Found,
    Hit,
    add_months,
    an_hour_at,
    ends_here,
    month_day,
    month_end,
    past_form,
    word_at,
)

_NOT_BEFORE_BARE_DAY: Final = frozenset({*DETERMINERS, "every", "each", "last", "of"})
# "on my Thursday", "by your Friday": the day itself. Also where a clause ends
# without a cue ("visit the miller my Sunday"): tiny.en writes espeak's "by"
# as "my" (docs/speaking.md). Not before another word ("cover my Sunday shift").
_POSSESSIVES: Final = frozenset(words("my your our his her their"))


# --- days that have passed ---------------------------------------------------

# A passed day said where a deadline goes ("fix the fence yesterday", "by last
# week", "two days ago") names no day to come: asked. Not cued, it may describe
# the target: after these words ("the storm from yesterday", "report on the last
# month"), or a word that starts a clause ("the fence that fell last night").
_DESCRIBING: Final = frozenset({"from", "of", "since", "about", "during", "on"})
_CLAUSE_WORDS: Final = frozenset(
    words(
        "that which who whom whose what when where how why i we he she it they you "
        "like as because after while"
    )
)
_PAST_UNITS: Final = frozenset(
    {"night", "week", "weekend", "month", "year", *cw.WEEKDAYS, *cw.PARTS_OF_DAY}
)


def _describes(toks: Sequence[Tok], i: int, cued: bool) -> bool:
    k = i - 1 if word_at(toks, i - 1) not in DETERMINERS else i - 2
    if word_at(toks, k) in _DESCRIBING:  # also the cue "on": "report on last night"
        return True
    # "the gate the cows pushed over yesterday": a past form says it happened
    # (not one after "the": "the broken gate yesterday" is asked about).
    return not cued and any(
        t.low in _CLAUSE_WORDS or (past_form(t.low) and word_at(toks, n - 1) not in DETERMINERS)
        for n, t in enumerate(toks[:i])
    )


def past_day(toks: Sequence[Tok], i: int, now: dt.datetime, cued: bool) -> Found:
    # The day first, then whether it is described (`_describes` reads every
    # word before: at every word, a long text's cost grew as its square).
    low, found = word_at(toks, i), None
    if low == "yesterday":
        found = Bad(i + 1)
    elif low == "last" and word_at(toks, i + 1) in _PAST_UNITS:
        found = Bad(i + 2)
    elif (number := number_at(toks, i)) is not None:
        unit = word_at(toks, number.end)
        if (unit in cw.DAY_UNITS or unit in cw.MONTH_UNITS) and (
            word_at(toks, number.end + 1) == "ago"
        ):
            found = Bad(number.end + 2)
    return None if found is None or _describes(toks, i, cued) else found


# --- days named relative to today -------------------------------------------


# "to night": how the recogniser writes "today", "tonight", "tomorrow" said with a break.
_SPLIT: Final = {"day": "today", "night": "tonight", "morrow": "tomorrow"}


def _split_day(toks: Sequence[Tok], i: int) -> bool:
    """ "to night" at `i` is "tonight" only at the end of a phrase ("… to
    night.", "to morrow morning"), and not after a day word: "from morning to
    night", "day to day chores", "to day five", "to day after tomorrow",
    "to night watch" keep their own sense."""
    after = word_at(toks, i + 2)
    if word_at(toks, i - 1) in cw.PARTS_OF_DAY | {"day"}:
        return False
    if word_at(toks, i + 1) == "morrow" and after in cw.PARTS_OF_DAY:
        return True
    return not after or not after[0].isalnum()


def relative_day(toks: Sequence[Tok], i: int, now: dt.datetime, cued: bool) -> Found:
    today, low, nxt = now.date(), word_at(toks, i), word_at(toks, i + 1)
    if low == "to" and nxt in _SPLIT and _split_day(toks, i):
        low, nxt, i = _SPLIT[nxt], word_at(toks, i + 2), i + 1
    if low in ("today", "tonight"):
        return Hit(today, low, i + 1)
    if low == "this" and nxt in cw.PARTS_OF_DAY - {"night"}:
        if nxt in _PART_OVER_H and now.hour >= _PART_OVER_H[nxt]:
            return Bad(i + 2)  # "this morning" said at 15:30: over; asked
        return Hit(today, f"this {nxt}", i + 2)
    if low == "tomorrow":
        if nxt in cw.PARTS_OF_DAY:
            return Hit(today + ONE_DAY, f"tomorrow {nxt}", i + 2)
        return Hit(today + ONE_DAY, "by tomorrow", i + 1)
    k = i + 1 if low == "the" else i
    # "next tomorrow" (Nigerian English; not "what's next tomorrow", a review)
    if [word_at(toks, k + n) for n in range(3)] == ["day", "after", "tomorrow"] or (
        [low, nxt] == ["next", "tomorrow"] and word_at(toks, i - 1) not in cw.WHATS_NEXT
    ):
        return Hit(today + 2 * ONE_DAY, "by the day after tomorrow", k + 3 - (low == "next"))
    if low == "later" and nxt in ("today", "tonight", "this"):  # "later today"
        found = relative_day(toks, i + 1, now, cued)
        if not isinstance(found, Hit):
            return None
        return Hit(found.day, f"later {found.phrase}", found.end)
    part = word_at(toks, i + 2)
    if (
        low == "in"
        and nxt == "the"
        and part in _PART_TODAY_BEFORE_H
        and ends_here(toks, i + 3)  # not "in the morning light"
    ):
        later = now.hour >= _PART_TODAY_BEFORE_H[part]
        return Hit(today + later * ONE_DAY, f"{'tomorrow' if later else 'this'} {part}", i + 3)
    if low == "night" and word_at(toks, i - 1) == "at":  # "at" is a cue: called past it
        return Hit(today, "tonight", i + 1)
    # Not "the overnight bag", "the all night lamp", "through the night shift";
    # nor when a day follows ("overnight tomorrow", "all night Saturday"):
    # that day is the deadline, read next.
    night = (
        1 if low == "overnight" else 2 + (part == "long") if (low, nxt) == ("all", "night") else 0
    )
    if (nxt, part) == ("the", "night") and low in ("through", "during", "in"):
        night = 3
    ws = [word_at(toks, i + n) for n in range(6)]  # "in the middle of the night": a probe
    if ws[:2] == ["in", "the"] and ws[2:4] in (["middle", "of"], ["dead", "of"]):
        night = {"night": 5, "the": 6 * (ws[5] == "night")}.get(ws[4], 0)
    if night and ends_here(toks, i + night) and not past_form(word_at(toks, i - 1)):  # "barked"
        said = {"overnight": "overnight", "all": "all night"}.get(low, " ".join(ws[:night]))
        day = _day_after(toks, i + night, now)  # "overnight tomorrow", "all night Saturday"
        if day is not None:
            return Hit(day.day, f"{said} {day.phrase.removeprefix('by ')}", day.end)
        return Hit(today, said, i + night)
    return _until(toks, i, now) or _before_dark(toks, i, now)


def _day_after(toks: Sequence[Tok], k: int, now: dt.datetime) -> Hit | None:
    # "by the end of the day on Friday" (its "on Friday" was left: today)
    k += word_at(toks, k) == "on" and word_at(toks, k + 1) in cw.DAY_NAMES  # "by COB fri" too
    if word_at(toks, k) != "tomorrow" and word_at(toks, k) not in cw.DAY_NAMES:
        return None
    found = relative_day(toks, k, now, True) or weekday(toks, k, now, True)
    return found if isinstance(found, Hit) else None


# "until morning" / "until dark": a watch kept until then ends then. The
# morning is tomorrow's (from 5 am on), dark today's.
_UNTIL: Final = frozenset({"until", "till", "til", "'til"})
_UNTIL_MORNING: Final = frozenset({"morning", "dawn", "sunrise", "daybreak"})
_UNTIL_DARK: Final = frozenset({"dark", "dusk", "sunset", "sundown", "nightfall", "evening"})


def _until(toks: Sequence[Tok], i: int, now: dt.datetime) -> Found:
    """ "(until) the morning" at `i` ("until" is a cue: called past it)."""
    low = word_at(toks, i)
    k = i + 1 if low == "the" else i
    said, before = word_at(toks, k), word_at(toks, i - 1)
    if before not in _UNTIL or not ends_here(toks, k + 1):
        return None
    if word_at(toks, k + 1) == "tomorrow" and said in _UNTIL_MORNING | _UNTIL_DARK:
        return Hit(now.date() + ONE_DAY, f"until tomorrow {said}", k + 2)
    if said in _UNTIL_MORNING:
        later = now.hour >= _PART_TODAY_BEFORE_H["morning"]
        return Hit(now.date() + later * ONE_DAY, f"until {said}", k + 1)
    if said in _UNTIL_DARK:  # today's, until it is over (then the next)
        later = now.hour >= _PART_TODAY_BEFORE_H["evening"]
        return Hit(now.date() + later * ONE_DAY, f"until {said}", k + 1)
    return None


def _before_dark(toks: Sequence[Tok], i: int, now: dt.datetime) -> Found:
    """ "(before / until) it gets dark" at `i`: today."""
    said = [word_at(toks, i + n) for n in range(3)]
    if word_at(toks, i - 1) in _UNTIL | {"before"} and said == ["it", "gets", "dark"]:
        if word_at(toks, i + 3) == "tomorrow":
            return Hit(now.date() + ONE_DAY, "before dark tomorrow", i + 4)
        return Hit(now.date(), "before dark", i + 3)
    return None


# "in the morning" said in the morning means tomorrow's (before 5 am, the
# coming one); the afternoon and the evening are today's until they are over.
_PART_TODAY_BEFORE_H: Final = {"morning": 5, "afternoon": 17, "evening": 22}
# When "this morning" is over (later it is asked); "this afternoon" said at evening stays today's.
_PART_OVER_H: Final = {"morning": 12}


# --- weekdays, weeks, months ------------------------------------------------


def _typed_day(toks: Sequence[Tok], k: int) -> bool:
    """A day typed short, last or before its hour, after its thing: "visit
    grandma sun", "fix the gate fri 5pm" (not "in the sun")."""
    before, hour = word_at(toks, k - 1), an_hour_at(toks, k + 1)
    return (
        (ends_here(toks, k + 1) or hour)
        and (toks[k].text.islower() or (hour and toks[k].low in ("tues", "thurs", "weds", "fri")))
        and (before.isalpha() or (hour and before in (",", ".", "")))  # ", Tues 10:30"
        and before not in _NOT_BEFORE_BARE_DAY | {"in", "on", "at", "to", "from", "the"}
    )


def weekday(toks: Sequence[Tok], i: int, now: dt.datetime, cued: bool) -> Found:
    today = now.date()
    low, nxt = word_at(toks, i), word_at(toks, i + 1)
    mode, k = "plain", i
    if (low == "this" and nxt == "coming") or (low == "the" and nxt == "coming"):
        mode, k = "plain", i + 2
    elif low in ("this", "next", "coming"):
        mode, k = low.replace("coming", "plain"), i + 1
    elif low in _POSSESSIVES and nxt in cw.WEEKDAYS:
        if not (cued or ends_here(toks, i + 2)):
            return None
        k = i + 1
    name = word_at(toks, k)
    if name in cw.WEEKDAYS:
        index = cw.WEEKDAYS[name]
    elif name in cw.WEEKDAY_ABBREVIATIONS and (cued or k > i or _typed_day(toks, k)):
        index = cw.WEEKDAY_ABBREVIATIONS[name]
    else:
        return None
    bare = k == i and not cued
    if word_at(toks, k - 1) in cw.FEAST_BEFORE_DAY:
        return None  # "Good Friday" is no Friday (`holiday` asks about it after a cue)
    if word_at(toks, k + 1) in cw.STREET_WORDS:
        return None  # "the lamp on Friday Street" was due Friday (a typed probe)
    k += 1 + (word_at(toks, k + 1) == "." and name not in cw.WEEKDAYS)
    part = word_at(toks, k) if word_at(toks, k) in cw.PARTS_OF_DAY else ""
    k += bool(part)
    week_on = mode == "plain" and not part and word_at(toks, k) == "week"  # "Monday week"
    k += week_on
    said = ends_here(toks, k) or an_hour_at(toks, k)
    if bare and (word_at(toks, i - 1) in _NOT_BEFORE_BARE_DAY or not said):
        return None  # "the Sunday market", "every Friday"; not "the gate Friday 5pm"
    weekday = cw.WEEKDAY_NAMES[index]
    if week_on:  # British: a week after the coming one
        day = today + ((index - today.weekday()) % 7 or 7) * ONE_DAY + 7 * ONE_DAY
        return Hit(day, f"by {weekday} week, {month_day(day, today)}", k)
    if mode == "next":
        day = today + (7 - today.weekday() + index) * ONE_DAY
        return Hit(day, f"by next {weekday}, {month_day(day, today)}", k)
    ahead = (index - today.weekday()) % 7
    if mode == "plain" and ahead == 0:
        ahead = 7
    day = today + ahead * ONE_DAY
    if day == today:
        return Hit(day, f"this {part}" if part else "today", k)
    dated = f", {month_day(day, today)}" if ahead == 7 else ""  # said on that day (T29c)
    return Hit(day, f"by {weekday}{' ' + part if part else ''}{dated}", k)


def period_end(unit: str, which: str, today: dt.date) -> tuple[dt.date, str] | None:
    """The last day of this/next week, month or year, and how to say it."""
    later = which == "next"
    if unit == "day":
        return None if later else (today, "by the end of the day")
    if unit == "week":
        day = today + ((6 - today.weekday()) + 7 * later) * ONE_DAY
    elif unit == "month":
        first = add_months(today.replace(day=1), int(later))
        day = month_end(first.year, first.month)
    elif unit == "year":
        day = dt.date(today.year + later, 12, 31)
    else:
        return None
    return day, f"by the end of {'next' if later else 'the'} {unit}"


_COMING: Final = frozenset({"weekend", "week", "month", "year"})
# "over / during (the) …" these: a stretch of time with no day it is due by.
_OVER: Final = dict.fromkeys(["holidays", "christmas", "easter", "week", "month", "year"], True)
_UNITS_OWNING: Final = {"week's": "week", "month's": "month", "year's": "year"}


def _end_of_day(toks: Sequence[Tok], k: int, now: dt.datetime) -> Hit:
    """ "(by end of day / EOD / close of business) <tomorrow / Friday>" ending
    before `k`: that day's end, else today's (before, "by EOD Friday" was today)."""
    day = _day_after(toks, k, now)
    if day is None:
        return Hit(now.date(), "by the end of the day", k)
    return Hit(day.day, f"by the end of {day.phrase.removeprefix('by ')}", day.end)


def _end_on_unit(toks: Sequence[Tok], k: int) -> bool:
    """ "(the) end on the week": a week, weekend, month or year follows."""
    k += word_at(toks, k) in ("the", "this", "next")
    return word_at(toks, k) in ("week", "weekend", "month", "year")


def period(toks: Sequence[Tok], i: int, now: dt.datetime, cued: bool) -> Found:
    """ "this week", "next month", "(the) end of (the/next) week", "the weekend"."""
    today, low = now.date(), word_at(toks, i)
    k = i + (low == "the")
    if (low == "eod" and (cued or ends_here(toks, i + 1) or _day_after(toks, i + 1, now))) or (
        cued
        and (
            low == "cob"
            or [word_at(toks, k + n) for n in range(3)]
            in (
                ["close", "of", "business"],
                ["end", "of", "business"],
                ["close", "of", "play"],  # British: the working day's end
                ["end", "of", "play"],
                ["close", "of", "day"],  # an eleventh typed probe: dropped
            )
        )
    ):  # "cob" only after a cue: "a cob oven", "corn on the cob"
        return _end_of_day(toks, i + 1 if low in ("eod", "cob") else k + 3, now)
    # "end on the week": the recogniser's "end of the week" (no "on" before a week, a month)
    said_on = word_at(toks, k + 1) == "on" and _end_on_unit(toks, k + 2)
    if word_at(toks, k) == "end" and (word_at(toks, k + 1) == "of" or said_on):
        k += 2
        which = word_at(toks, k) if word_at(toks, k) in ("the", "this", "next") else "the"
        # "the end of a week": how tiny.en often writes espeak's "the" (dev).
        a_unit = word_at(toks, k) == "a" and word_at(toks, k + 1) in ("week", "month", "year")
        k += word_at(toks, k) in ("the", "this", "next") or a_unit
        unit = word_at(toks, k)
        if unit == "today":
            return Hit(today, "by the end of the day", k + 1)
        if unit == "tomorrow" or unit == "day":  # "by (the) end of (day) tomorrow / Friday"
            return _end_of_day(toks, k + (unit == "day"), now)
        if unit == "weekend":  # its Sunday (today on one), or next week's
            sunday = today + (6 - today.weekday() + 7 * (which == "next")) * ONE_DAY
            return Hit(
                sunday, f"by the end of {'next' if which == 'next' else 'the'} weekend", k + 1
            )
        if (unit in cw.MONTHS and len(unit) > 3) or unit == "may":
            month = cw.MONTHS[unit]
            year = today.year + (month < today.month)
            return Hit(month_end(year, month), f"by the end of {cw.MONTH_NAMES[month - 1]}", k + 1)
        found = period_end(unit, which, today)
        return None if found is None else Hit(found[0], found[1], k + 1)
    # "by the week's end", "by month's end", "by next month's end".
    which = word_at(toks, k) if word_at(toks, k) in ("this", "next") else "the"
    k += word_at(toks, k) in ("this", "next")
    owner = word_at(toks, k)
    if cued and owner in _UNITS_OWNING and word_at(toks, k + 1) == "end":
        found = period_end(_UNITS_OWNING[owner], which, today)
        return None if found is None else Hit(found[0], found[1], k + 2)
    i -= (bare := cued and low == "weekend")  # "by weekend": "by the weekend" (a probe: asked)
    which, unit = ("the", "weekend") if bare else (low, word_at(toks, i + 1))
    if (
        which in ("early", "mid", "late")
        and unit in ("this", "next")
        and word_at(toks, i + 2) in ("week", "month", "year")
    ):
        return Bad(i + 3)  # "early next week": which day is that? Asked.
    # "by spring", "this winter": asked. Not "the spring" (a place: "a bench
    # by the spring"), nor an uncued "fall" ("don't fall off the roof").
    if (which in cw.SEASONS and cued) or (which in ("this", "next", "in") and unit in cw.SEASONS):
        return Bad(i + 1 + (which not in cw.SEASONS))  # "in spring" too, not "in the spring"
    if which in ("this", "the") and unit == "coming" and word_at(toks, i + 2) in _COMING:
        which, unit, i = "this", word_at(toks, i + 2), i + 1  # "this coming weekend / week"
    if which in ("over", "during") and _OVER.get(word_at(toks, i + 1 + (unit == "the"))):
        return Bad(i + 2 + (unit == "the"))  # "over Christmas", "during the week": until when?
    if which in ("over", "during") and "weekend" in (unit, word_at(toks, i + 2) * (unit == "the")):
        sunday = today + (6 - today.weekday()) * ONE_DAY  # by its end (today on a Sunday)
        return Hit(sunday, "over the weekend", i + 2 + (unit == "the"))  # "over weekend" too
    if unit == "weekend" and (which in ("this", "next") or (which == "the" and cued)):
        wd = today.weekday()  # its Saturday; said at the weekend, its Sunday (was: that night)
        saturday = today + (5 - wd if wd < 5 else 6 - wd) * ONE_DAY
        if which == "next":
            day = today + (7 - today.weekday() + 5) * ONE_DAY
            return Hit(day, f"by next weekend, {month_day(day, today)}", i + 2)
        return Hit(saturday, "this weekend" if which == "this" else "by the weekend", i + 2)
    if which in ("this", "next") and unit in ("week", "month", "year"):
        found = period_end(unit, which, today)
        return None if found is None else Hit(found[0], found[1], i + 2)
    return None


# --- calendar dates ------------------------------------------------------------


def _month_at(toks: Sequence[Tok], k: int) -> tuple[int, int] | None:
    low = word_at(toks, k)
    if low not in cw.MONTHS or (low == "may" and word_at(toks, k - 1) in _MAY_SUBJECTS):
        return None  # "check we may first" was May 1 (a spoken probe)
    k += 1
    return cw.MONTHS[low], k + (word_at(toks, k) == "." and len(low) <= 4)


_MAY_SUBJECTS: Final = frozenset(words("i we you they he she it that this who which"))


def _year_at(toks: Sequence[Tok], k: int, today: dt.date) -> tuple[int | None, int]:
    j = k + (word_at(toks, k) == ",")
    low = word_at(toks, j)
    if low.isdigit() and len(low) == 4 and 1900 <= int(low) <= 2999:
        return int(low), j + 1
    if low in ("this", "next") and word_at(toks, j + 1) == "year":  # "5 January next year"
        return today.year + (low == "next"), j + 2
    return None, k


def _next_date(today: dt.date, month: int, day: int, year: int | None) -> dt.date | None:
    """That day and month on or after today, this year or next; None past
    that (a 29 February two years on was the deadline: a probe; asked)."""
    if year is not None:
        try:
            return dt.date(year, month, day)
        except ValueError:
            return None
    for later in range(2):
        try:
            candidate = dt.date(today.year + later, month, day)
        except ValueError:
            continue
        if candidate >= today:
            return candidate
    return None


def calendar_date(toks: Sequence[Tok], i: int, now: dt.datetime, cued: bool) -> Found:
    """ "December 24", "Dec. 24th, 2027", "24 December", "the 24th of December",
    "on the twenty-fourth of December", "December the 24th"."""
    month_first = _month_at(toks, i)
    if month_first is not None:  # "December (the) 24(th)"
        month, k = month_first
        number = number_at(toks, k + (word_at(toks, k) == "the"))
        if number is None:
            return None
        end = number.end
    else:  # "(the) 24(th) (of) December"
        number = number_at(toks, i + (word_at(toks, i) == "the"))
        if number is None:
            return None
        month_after = _month_at(toks, number.end + (word_at(toks, number.end) == "of"))
        if month_after is None:
            return None
        month, end = month_after
    year, end = _year_at(toks, end, now.date())
    return _dated(now.date(), month, number.value, year, end)


def holiday(toks: Sequence[Tok], i: int, now: dt.datetime, cued: bool) -> Found:
    """ "by Christmas", "before New Year's Eve", "on Halloween", "for
    Christmas": the next one."""
    if not cued and word_at(toks, i - 1) != "for":
        return None
    k = i + (word_at(toks, i) == "the")
    if word_at(toks, k) in cw.FEAST_BEFORE_DAY and word_at(toks, k + 1) in cw.WEEKDAYS:
        return Bad(k + 2)  # "by Good Friday", "by Easter Monday": which day? Asked.
    said = phrase_at(toks, k, cw.HOLIDAY_PHRASES)
    if said is None or not (cued or ends_here(toks, k + len(said))):
        return None  # "for the Christmas decorations" (a ninth typed probe: due Christmas)
    month, day, name = cw.HOLIDAYS[" ".join(said)]
    found = _next_date(now.date(), month, day, None)
    return None if found is None else Hit(found, f"by {name}", k + len(said))


def part_of_month(toks: Sequence[Tok], i: int, now: dt.datetime, cued: bool) -> Found:
    """ "mid-December", "the middle of December" (the 15th); "late December"
    (its last day); "early December" is asked about (which day?)."""
    k = i + (word_at(toks, i) == "the")
    low = word_at(toks, k)
    if low == "middle" and word_at(toks, k + 1) == "of":
        low, k = "mid", k + 1
    if not cued or low not in ("mid", "late", "early") or word_at(toks, k + 1) not in cw.MONTHS:
        return None  # only after a cue: "the late March frost"
    month = cw.MONTHS[word_at(toks, k + 1)]
    if low == "early":
        return Bad(k + 2)
    if low == "late":  # its last day (29 February in a leap year), this year or next
        found: dt.date | None = month_end(now.year, month)
        if found is not None and found < now.date():
            found = month_end(now.year + 1, month)
    else:
        found = _next_date(now.date(), month, 15, None)
    if found is None:
        return None
    said = "mid-" if low == "mid" else "the end of "
    return Hit(found, f"by {said}{cw.MONTH_NAMES[month - 1]}", k + 2)


def _dated(today: dt.date, month: int, day: int, year: int | None, end: int) -> Found:
    found = _next_date(today, month, day, year) if 1 <= day <= 31 else None
    if found is None or found < today:  # "by December 1, 2026" said on the 6th: asked
        return Bad(end)
    return Hit(found, f"by {month_day(found, today)}", end)
