"""Deadline matchers measured from `now`: clock times ("by 5 pm", "by
noon") and spans ("in three days", "within a week", "in an hour")."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from typing import Final

from vac.intent import calendar_words as cw
from vac.intent.lexicon import Tok, phrase_at
from vac.intent.numbers import number_at, spoken_number
from vac.intent.when_days import period_end, relative_day, weekday
from vac.intent.when_match import HHMM_RE, ONE_DAY, Bad, Found, Hit, add_months, ends_here, word_at


def _meridiem(toks: Sequence[Tok], k: int, suffix: str) -> tuple[str, int]:
    """ "pm" / "p.m." / "p.m" (written as tokens p . m .) after an hour."""
    if suffix in ("a", "p"):
        if word_at(toks, k) == "." and word_at(toks, k + 1) == "m":
            k += 2
            return suffix + "m", k + 1 if word_at(toks, k) == "." else k
        return "", k
    if suffix:
        return suffix, k
    low = word_at(toks, k)
    if low in ("am", "pm"):
        return low, k + 1
    if low in ("a", "p") and word_at(toks, k + 1) == "." and word_at(toks, k + 2) == "m":
        return _meridiem(toks, k + 1, low)
    return "", k


# A part of the day said after an hour ("at 7 in the morning", "by 6 in
# the evening", "at 11 at night"): its am or pm, for the hours it can be.
_PARTS_OF_DAY: Final = (
    (("in", "the", "morning"), "am", range(1, 12)),
    (("in", "the", "afternoon"), "pm", range(1, 13)),
    (("in", "the", "evening"), "pm", range(1, 12)),
    (("at", "night"), "pm", range(7, 12)),
    (("at", "night"), "am", range(1, 5)),  # "at 3 at night": the small hours
    (("in", "the", "night"), "am", range(1, 6)),
    (("in", "the", "night"), "pm", range(9, 12)),
    # Today's part named (a typed probe: "by 8 tonight" was read back "by 8
    # o'clock", at 02:35 as good as 8 am; "by 3 this morning" lost its hour).
    (("tonight",), "pm", range(5, 12)),
    (("tonight",), "am", range(1, 5)),  # "by 1 tonight": after midnight
    (("this", "morning"), "am", range(1, 12)),
    (("this", "afternoon"), "pm", range(1, 13)),
    (("this", "evening"), "pm", range(1, 12)),
)
_DAY_AFTER: Final = cw.DAY_NAMES | {"tomorrow"}
# Parts said of today: a time in them already past is asked about, as "by
# 10 am today" said at 15:30 is ("by 1 this morning" at 02:41 was today's).
_TODAYS: Final = frozenset({("this", "morning"), ("this", "afternoon"), ("this", "evening")})


def _part_of_day(toks: Sequence[Tok], k: int, hour: int) -> tuple[str, int]:
    """The am or pm a part of the day after the hour says, and where it
    ends; ("", k) when none is said (or it cannot be: "at 12 at night")."""
    for said, meridiem, hours in _PARTS_OF_DAY:
        if hour in hours and all(word_at(toks, k + n) == w for n, w in enumerate(said)):
            return meridiem, k + len(said)
    return "", k


_HOUR_RE: Final = re.compile(r"^(\d{1,2})(am|pm|a|p)?$")
_MINUTE_RE: Final = re.compile(r"^(\d{2})(am|pm|a|p)?$")


def _alternate_meridiem(toks: Sequence[Tok], k: int) -> tuple[str, int] | None:
    """The am or pm of another hour said as an alternative ("3 or 4 in the
    morning", `k` after "or"), which is the first one's too, and its end."""
    other = _hour_at(toks, k)
    if other is None or not 1 <= other[0] <= 12:
        return None
    meridiem, end = _meridiem(toks, other[2], other[1])
    if not meridiem:
        end = other[2] + (word_at(toks, other[2]) == "o'clock")
        meridiem, end = _part_of_day(toks, end, other[0])
    return (meridiem, end) if meridiem else None


def _hour_at(toks: Sequence[Tok], i: int) -> tuple[int, str, int] | None:
    """An hour as digits ("5", "5pm", "5p") or words ("five"): hour, suffix, end."""
    match = _HOUR_RE.match(word_at(toks, i))
    if match:
        return int(match.group(1)), match.group(2) or "", i + 1
    number = number_at(toks, i)
    if number is None or number.ordinal:
        return None
    return number.value, "", number.end


_PAST_TO: Final = {"past": 1, "after": 1, "to": -1, "before": -1}


def _said_clock(toks: Sequence[Tok], i: int, cued: bool) -> tuple[int, int, str, str, int] | None:
    """A time said the way people say it, after a cue ("by", "before"…):
    "(a) quarter to six", "half past five", "twenty past 5pm", "five
    thirty", "nine oh five". Without a cue these are counts or start times
    ("ten to twelve planks", "from half past five"). Hour (1-12), minute,
    as read back, its am/pm if said, and where it ends."""
    if not cued:
        return None
    i += word_at(toks, i) == "a"  # "a quarter to six"
    low, number = word_at(toks, i), number_at(toks, i)
    minute, k = {"half": (30, i + 1), "quarter": (15, i + 1)}.get(low, (0, i))
    if number is not None and not number.ordinal and 1 <= number.value <= 30:
        minute, k = number.value, number.end + (word_at(toks, number.end) in ("minute", "minutes"))
    way = _PAST_TO.get(word_at(toks, k), 0)
    if low == "half" and not way:  # British "by half six": half past six
        way, k = 1, k - 1
    hour_at = _hour_at(toks, k + 1) if way and minute else None
    if hour_at is not None and 1 <= hour_at[0] <= 12 and hour_at[1] in ("", "am", "pm"):
        hour, minute = (hour_at[0], minute) if way > 0 else (hour_at[0] - 1, 60 - minute)
        return hour or 12, minute, f"{hour or 12}:{minute:02d}", hour_at[1], hour_at[2]
    if number is None or number.ordinal or not 1 <= number.value <= 12:
        return None
    minute_at = number_at(toks, number.end)
    late = number_at(toks, number.end + 1) if word_at(toks, number.end) in ("oh", "o") else None
    if late is not None and late.value < 10 and not late.ordinal:  # "five oh five"
        return number.value, late.value, f"{number.value}:{late.value:02d}", "", late.end
    if minute_at is None or minute_at.ordinal or not 10 <= minute_at.value < 60:
        return None
    return number.value, minute_at.value, f"{number.value}:{minute_at.value:02d}", "", minute_at.end


def clock(toks: Sequence[Tok], i: int, now: dt.datetime, cued: bool) -> Found:
    """ "by 5 pm", "5:30 p.m.", "17:00", "five o'clock", "by noon", "by dusk"."""
    low = word_at(toks, i)
    minutes: tuple[int, ...]
    crack = [word_at(toks, i + n) for n in range(4)] == ["the", "crack", "of", "dawn"]
    if cued and low in ("first", "last") and word_at(toks, i + 1) == "light":
        # "by first light" (dawn), "by last light" (dusk) were dropped (a typed probe).
        word = "dawn" if low == "first" else "dusk"
        minutes, spoken, k = (cw.CLOCK_WORDS_MINUTE[word],), f"{low} light", i + 2
    elif cued and crack:  # "at the crack of dawn" (it was a place)
        minutes, spoken, k = (cw.CLOCK_WORDS_MINUTE["dawn"],), "dawn", i + 4
    elif low in cw.CLOCK_WORDS_MINUTE or (cued and low in cw.CLOCK_WORDS_CUED):
        # "noon" and "midnight" alone are times; "lunch" or "dinner" only after
        # a cue ("make dinner" is a meal, "by dinner" a time).
        if not cued and low not in ("noon", "midday", "midnight"):
            return None
        minute_of = cw.CLOCK_WORDS_MINUTE.get(low) or cw.CLOCK_WORDS_CUED[low]
        k = i + 1 + (low in cw.MEAL_WORDS and word_at(toks, i + 1) == "time")  # "lunch time"
        minutes, spoken = (minute_of,), cw.CLOCK_WORDS_SAID.get(low, low)
    elif (said := _said_clock(toks, i, cued)) is not None:
        hour, minute, spoken, suffix, k = said
        meridiem, k = _meridiem(toks, k, suffix)
        if not meridiem:  # "at half 7 in the morning"
            meridiem, k = _part_of_day(toks, k, hour)
        if meridiem:
            minutes = ((hour % 12 + (12 if meridiem == "pm" else 0)) * 60 + minute,)
            spoken += f" {meridiem}"
        else:  # the next one, morning or afternoon
            minutes = ((hour % 12) * 60 + minute, (hour % 12 + 12) * 60 + minute)
    else:
        hour_at = _hour_at(toks, i)
        after = word_at(toks, i + 1)
        if (
            hour_at is None
            and cued
            and (hhmm := HHMM_RE.match(low))
            and (ends_here(toks, i + 1) or after in _DAY_AFTER or after == "on")
        ):  # not "at 1500 mm", "at 1200 rpm"
            hour_at = int(hhmm.group(1)), "", i  # "by 1700", "at 0930": 17:00, 9:30
        elif hour_at is None and cued and re.match(r"^20\d\d$", low):
            return Bad(i + 1)  # "by 2030": the year, or 20:30? Asked (it was dropped).
        if hour_at is None:
            return None
        hour, suffix, k = hour_at
        minute, colon = 0, False
        if k == i:
            minute, colon, k = int(low[2:]), True, i + 1
        # "5:30"; "5.30" as Britain writes it, only after a cue ("by 5.30pm")
        colon_at = word_at(toks, k) == ":" or (cued and word_at(toks, k) == ".")
        minute_match = _MINUTE_RE.match(word_at(toks, k + 1)) if colon_at else None
        dotted_ok = word_at(toks, k) == ":" or bool(
            minute_match and (minute_match.group(2) or ends_here(toks, k + 2))
        )  # "at 1.45 m tall" is a height, "by 5.30" a time
        if minute_match and int(minute_match.group(1)) < 60 and dotted_ok:
            minute, colon = int(minute_match.group(1)), True
            dotted = word_at(toks, k) == "." and not (suffix or minute_match.group(2))
            if dotted and hour >= 13 and 1 <= minute <= 12:
                return Bad(k + 2)  # "before 20.12": 20:12, or 20 December? Asked.
            suffix, k = suffix or minute_match.group(2) or "", k + 2
        meridiem, k = _meridiem(toks, k, suffix)
        if not meridiem and not colon and word_at(toks, k) == "or" and 1 <= hour <= 12:
            # "at 3 or 4 in the morning": the morning's 3 (was 3 pm today)
            meridiem, k = _alternate_meridiem(toks, k + 1) or ("", k)
        oclock = not meridiem and word_at(toks, k) == "o'clock"
        k += oclock
        k += word_at(toks, k) == "sharp"  # "at 8 sharp" was dropped (a typed probe)
        if not meridiem and (cued or oclock or colon):  # "at 7 in the morning"
            meridiem, k = _part_of_day(toks, k, hour)
        # A bare number is not a time ("fix 3 gates"): it needs am/pm,
        # o'clock or minutes, or a cue before it and nothing after it that
        # it counts ("by 6", "at 3 tomorrow"; not "by 3 fences").
        decimal = word_at(toks, k) in (".", ",") and word_at(toks, k + 1)[:1].isdigit()
        # "at 6 on Saturday", "by 6 tomorrow": its day follows (the hour was lost).
        dated = word_at(toks, k) in _DAY_AFTER or (
            word_at(toks, k) == "on" and word_at(toks, k + 1) in _DAY_AFTER
        )
        street = word_at(toks, k + 1) in cw.STREET_WORDS  # "at 12 Friday Street": a house
        bare = cued and 1 <= hour <= 12 and (ends_here(toks, k) or dated) and not decimal
        bare = bare and not street
        if not (meridiem or oclock or colon or bare) or hour > 24 or (hour == 24 and minute):
            return None  # not "24:12"
        if meridiem and not 1 <= hour <= 12:
            return None
        if meridiem:
            minutes = ((hour % 12 + (12 if meridiem == "pm" else 0)) * 60 + minute,)
        elif hour == 0 or hour > 12:  # a 24-hour clock
            minutes = (hour * 60 + minute,)
        else:  # "5 o'clock", "5:30": the next one, morning or afternoon
            minutes = ((hour % 12) * 60 + minute, (hour % 12 + 12) * 60 + minute)
        spoken = f"{hour}:{minute:02d}" if colon else str(hour)
        spoken += f" {meridiem}" if meridiem else " o'clock" if oclock or not colon else ""
    now_minute = now.hour * 60 + now.minute
    today = now.date()
    if word_at(toks, k) == "tomorrow":
        return Hit(today + ONE_DAY, f"by {spoken} tomorrow", k + 1)
    said_today = (
        word_at(toks, k) == "today" or (word_at(toks, k - 2), word_at(toks, k - 1)) in _TODAYS
    )
    said_today = said_today or (word_at(toks, k - 1) == "tonight" and minutes[0] >= 12 * 60)
    k += word_at(toks, k) in ("today", "tonight")
    if any(m > now_minute for m in minutes):
        return Hit(today, f"by {spoken}", k)
    if said_today:
        return Bad(k)  # "by 10 am today" said at 15:30: over (it was tomorrow's); asked
    return Hit(today + ONE_DAY, f"by {spoken} tomorrow", k)


# --- spans: "in three days", "within a week", "in an hour" ------------------


def _count(toks: Sequence[Tok], k: int) -> tuple[int, int] | None:
    """How many, and where the unit starts: "3", "three", "a couple of", "a few"."""
    number = number_at(toks, k)
    if number is not None and not number.ordinal:
        # "in 3-4 days", "in 3 to 4 days", "in two or three days": by the longer
        # (a typed probe: dropped without a word).
        j = number.end + (word_at(toks, number.end) in ("to", "or"))
        upper = number_at(toks, j)
        if upper is not None and not upper.ordinal and upper.value > number.value:
            return upper.value, upper.end
        return number.value, number.end
    vague = phrase_at(toks, k, cw.VAGUE_COUNT_PHRASES)
    return None if vague is None else (cw.VAGUE_COUNTS[vague], k + len(vague))


def span(toks: Sequence[Tok], i: int, now: dt.datetime, cued: bool) -> Found:
    today, low = now.date(), word_at(toks, i)
    lead = low if low in ("in", "within", "over") else ""
    k = i + bool(lead)
    if lead and (hedge := phrase_at(toks, k, cw.SPAN_HEDGES)) is not None:
        k += len(hedge)  # "in about two hours", "in like 2 hrs": the span said
    if lead and word_at(toks, k) == "the" and word_at(toks, k + 1) in ("next", "coming"):
        k += 2
        if word_at(toks, k) in ("days", "weeks", "months"):
            return Bad(k + 1)  # "in the coming days": how many? Asked.
    elif lead == "over":
        return None  # "over a week": how long it takes; "over the next week": by when
    lead = "within" if lead == "over" else lead
    if lead == "within" and word_at(toks, k) == "the":  # "within the week / hour"
        unit = word_at(toks, k + 1)
        if unit == "hour":
            return Hit((now + dt.timedelta(hours=1)).date(), "within the hour", k + 2)
        found = period_end(unit, "this", today)
        return None if found is None else Hit(found[0], f"within the {unit}", k + 2)
    if k == i + 3 and word_at(toks, k) == "half" and word_at(toks, k + 1) == "hour":
        # "in the next half hour": a helper's probe (2026-12-07) found it dropped
        return Hit((now + dt.timedelta(minutes=30)).date(), f"{lead} the next half hour", k + 2)
    if lead and word_at(toks, k) == "half" and word_at(toks, k + 1) in ("an", "a"):
        if word_at(toks, k + 2) == "hour":
            return Hit((now + dt.timedelta(minutes=30)).date(), f"{lead} half an hour", k + 3)
        return None
    counted = _count(toks, k)
    if counted is None and k == i + 3 and word_at(toks, k) in _ONE_UNIT:
        counted = (1, k)  # "in the next hour", "within the next day"
    if counted is None:
        return None
    count, k = counted
    half = _and_a_half(toks, k)  # "two and a half days"
    k += 3 * half
    unit = word_at(toks, k)
    k += 1
    if word_at(toks, k) == "time" and unit.removesuffix("'s").removesuffix("'") in _UNITS:
        # "in a week's time", "in two weeks' time", "in three days time"
        unit, k = unit.removesuffix("'s").removesuffix("'"), k + 1
        unit += "s" * (count > 1 and not unit.endswith("s"))
    if not half and _and_a_half(toks, k):  # "an hour and a half", "a week and a half"
        half, k = True, k + 3
    if word_at(toks, k) == "or":  # "in a day or two", "in a week or so"
        more = _count(toks, k + 1)
        if word_at(toks, k + 1) == "so":
            k += 2
        elif more is not None and more[1] == k + 2:
            # "a day and a half or two": two, not two and a half
            half = half and more[0] <= count
            count, k = max(count, more[0]), more[1]
    base: Hit | None = None
    if not lead:  # "three days from now", "a week from Friday"
        if word_at(toks, k) != "from":
            return None
        if word_at(toks, k + 1) not in ("now", "today"):
            base = _from_day(toks, k + 1, now)
            if base is None:
                return None
            today, k = base.day, base.end - 2
        k += 2
    lead = lead or "in"
    if base is not None and unit in cw.HOUR_UNITS:
        return Bad(k)  # "three hours from Friday": from when on Friday?
    try:
        if unit in cw.DAY_UNITS:  # half a day rounds up to the next whole day
            day = (
                today + (count * cw.DAY_UNITS[unit] + -(-cw.DAY_UNITS[unit] * half // 2)) * ONE_DAY
            )
        elif unit in cw.MONTH_UNITS and not half:
            day = add_months(today, count)
        elif unit in ("year", "years") and not half:
            day = add_months(today, 12 * count)
        elif unit in cw.HOUR_UNITS:
            minutes = (2 * count + half) * cw.HOUR_UNITS[unit] / 2
            day = (now + dt.timedelta(minutes=minutes)).date()
        elif half:
            return Bad(min(k, len(toks)))  # "a month and a half": which day is that?
        else:
            return None
    except (OverflowError, ValueError):
        return None
    if word_at(toks, k) in _NOT_A_SPAN_AFTER:
        return None  # "a timer that beeps in 5 min intervals": how often, not by when
    singular = unit.removesuffix("s")
    if count == 1 and not half:
        amount = f"{'an' if singular == 'hour' else 'a'} {singular}"
    elif count == 1:
        amount = f"{'an' if singular == 'hour' else 'a'} {singular} and a half"
    else:
        amount = f"{spoken_number(count)}{' and a half' if half else ''} {singular}s"
    if base is not None:  # "a week from Friday, December 11"
        return Hit(day, f"by {amount} from {base.phrase.removeprefix('by ')}", k)
    return Hit(day, f"{lead} {amount}", k)


_ONE_UNIT: Final = frozenset({"hour", "day", "week", "fortnight", "month", "year"})
_NOT_A_SPAN_AFTER: Final = frozenset(
    {"intervals", "interval", "increments", "bursts", "chunks", "blocks", "slots", "shifts"}
)
_UNITS: Final = frozenset({*_ONE_UNIT, *(u + "s" for u in _ONE_UNIT)})


def _and_a_half(toks: Sequence[Tok], k: int) -> bool:
    return [word_at(toks, k + n) for n in range(3)] == ["and", "a", "half"]


def _from_day(toks: Sequence[Tok], k: int, now: dt.datetime) -> Hit | None:
    """The day a span counts from: "(a week from) Friday / tomorrow / next Monday"."""
    for matcher in (relative_day, weekday):
        found = matcher(toks, k, now, True)
        if isinstance(found, Hit):
            return found
    return None
