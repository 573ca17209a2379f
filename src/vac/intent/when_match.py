"""What the deadline matchers share: a match, date arithmetic, token access.

A matcher reads tokens from a position and returns a `Hit` (a day, how to
say it, where the phrase ends), a `Bad` (shaped like a date but no such day)
or None. `when.resolve` runs them; `when_days` and `when_hours` hold them.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from typing import Final, NamedTuple

from vac.intent import calendar_words as cw
from vac.intent.lexicon import PUNCT, Tok, words

ONE_DAY: Final = dt.timedelta(days=1)


class Hit(NamedTuple):
    day: dt.date
    phrase: str
    end: int


class Bad(NamedTuple):
    """Shaped like a date, but no such day: "February 30", "the 32nd"."""

    end: int


Found = Hit | Bad | None

# Where the words of an unresolvable phrase end.
STOPS: Final = frozenset(
    {*PUNCT, "and", "but", "so", "then", "while", "because", "if", "or", "please"}
)
# After "the 3rd", these may follow a date; a noun may not ("the third floor").
AFTER_DAY: Final = frozenset(
    {*STOPS, "at", "by", "in", "without", "never", "don't", "do", "before", "until"}
    # "Tuesday latest", "Friday max", "Monday first thing" (a typed probe:
    # "Gate Tuesday", no deadline)
    | {"latest", "max", "tops", "first"}
)

# A day said to be good enough: "Friday is fine", "tomorrow's OK".
FINE: Final = frozenset(
    words("fine ok okay good great alright perfect better best early enough ideal plenty")
)


def word_at(toks: Sequence[Tok], i: int) -> str:
    return toks[i].low if 0 <= i < len(toks) else ""


def ends_here(toks: Sequence[Tok], k: int) -> bool:
    """Whether a day phrase may end before token `k`: not when a noun follows
    ("the third floor", "the Sunday market")."""
    after = word_at(toks, k)
    # "Friday is fine", "Friday's fine" (`when_said.said_as_fine` reads it as "Friday")
    said_is = 0 < k <= len(toks) and toks[k - 1].text.lower().replace("’", "'").endswith("'s")
    fine = (after == "is" and word_at(toks, k + 1) in FINE) or (said_is and after in FINE)
    return not after or after in AFTER_DAY or after in cw.TEMPORAL_WORDS or fine


def month_end(year: int, month: int) -> dt.date:
    first_of_next = dt.date(year + month // 12, month % 12 + 1, 1)
    return first_of_next - ONE_DAY


def add_months(day: dt.date, months: int) -> dt.date:
    """The same day `months` later, or that month's last day ("January 31" + 1)."""
    index = day.month - 1 + months
    year, month = day.year + index // 12, index % 12 + 1
    return dt.date(year, month, min(day.day, month_end(year, month).day))


def month_day(day: dt.date, today: dt.date) -> str:
    """ "December 24", with the year when it is not this one."""
    text = f"{cw.MONTH_NAMES[day.month - 1]} {day.day}"
    return text if day.year == today.year else f"{text} {day.year}"


# Words that open a clause about something ("the fence that the storm…",
# "the trap we set…", "what happened…").
_CLAUSE_OPENERS: Final = frozenset(
    words("that which who whom whose what where we i he she they you it")
    # A clause after a thing with no "that": "the gate the wind knocked over on
    # monday", "the window the kids smashed at 3 o'clock" (a seventh typed probe:
    # each was the deadline).
    + words("the my our")
)
# Past forms that do not end in "-ed" (a day said after one is when it happened).
_IRREGULAR_PAST: Final = frozenset(
    words(
        """set left broke broken fell fallen came went gone saw seen found built made got took
    taken brought bought lost said told gave given ran laid dug caught stole stolen blew blown
    began had did done was were been knew thought wrote written hid hidden tore torn froze
    frozen shook spent sent kept sold stood hung heard met paid sat slept spoke drove ate drank
    forgot chose rode rang threw thrown won woke"""
    )
)
# Words in "-ed" that are no past form.
_ED_WORDS: Final = frozenset(
    words("""need seed feed speed weed breed bleed steed reed greed heed deed indeed exceed
    succeed proceed riverbed flowerbed seedbed hotbed seabed sickbed waterbed sled shred
    hundred""")
)


def past_form(low: str) -> bool:
    """ "knocked", "planted", "set", "broke" (not "shed", "woodshed", "seed")."""
    shed = low.endswith("shed") and low[-5:-4] not in tuple("aeiou")  # "woodshed", not "pushed"
    regular = len(low) > 4 and low.endswith("ed") and low not in _ED_WORDS and not shed
    return regular or low in _IRREGULAR_PAST


def of_the_past(toks: Sequence[Tok], i: int, j: int) -> bool:
    """Whether a day said at `i` (its words from `j`) tells when something
    happened: after "since" ("in the fridge since Monday"), or a weekday or
    date ending a clause about the thing with a past form ("the fence that
    the storm knocked down on Tuesday", "the trap we set on Monday"). Not
    across a comma ("…knocked down, on Tuesday"), not a state ("the doors
    that are locked on Monday"), not after a day said there already ("the tap
    you fixed last Monday on Friday"), nor "for Monday" (a plan)."""
    if word_at(toks, i - 1) == "since":
        return True
    day = word_at(toks, j + (word_at(toks, j) in ("in", "during")))  # "…fixed in January"
    dated = day in cw.WEEKDAYS or day in cw.MONTHS or day == "the" or day[:1].isdigit()
    dated = dated or day in cw.CLOCK_WORDS_MINUTE  # "the door that slammed at midnight"
    dated = dated or (
        day == "this" and word_at(toks, j + 1) == "morning"
    )  # "I mentioned this morning"
    if not dated or word_at(toks, i - 1) == "for":
        return False
    k = i - 1
    while k > 0 and toks[k].low not in PUNCT:
        if toks[k].low in _CLAUSE_OPENERS and _after_a_thing(toks, k):
            said = [t.low for t in toks[k + 1 : i]]
            if any(w in _DAYS_SAID for w in said):
                return False
            past = [
                n for n, w in enumerate(said) if past_form(w) and (n and said[n - 1]) not in _STATE
            ]
            # The clause ends with its past verb's words: "…knocked down | on
            # Tuesday"; not "the gate you fixed needs checking | on Monday".
            return bool(past) and not any(w in _MAIN_VERBS for w in said[past[-1] + 1 :])
        k -= 1
    return False


def has_lasted(toks: Sequence[Tok], i: int) -> bool:
    """Whether the clause before `i` says something has gone on ("the
    shutter's been banging | all night", "it has been leaking | all week"):
    a duration said there ("all night") is how long, not when it is due
    ("it's been a week | today" is still today's)."""
    k = i - 1
    while k >= 0 and toks[k].low not in PUNCT:
        if toks[k].low == "been":
            return True
        k -= 1
    return False


def _after_a_thing(toks: Sequence[Tok], k: int) -> bool:
    """Whether the clause word at `k` follows a thing ("the fence that…",
    "the trap we…", "on what…"), not a frame ("I said…", "make sure that…")."""
    before = word_at(toks, k - 1)
    if not before.isalpha() or before in _FRAMES:
        return False
    if toks[k].low in _THINGS_FIRST:  # "the gate the wind…": a thing said right before
        return any(word_at(toks, j) in _THINGS_FIRST | {"a", "an"} for j in (k - 2, k - 3))
    return toks[k].low in _RELATIVES or before not in _FUNCTION_WORDS


_THINGS_FIRST: Final = frozenset(words("the my our"))


_RELATIVES: Final = frozenset(words("that which who whom whose what where"))
_FRAMES: Final = frozenset(words("sure certain so said say says than as make check if when"))
_FUNCTION_WORDS: Final = frozenset(
    words("and but or so as if when because that than then to of on in at for by with")
)
# Before a past form these make it a state or a wish: "are locked", "need fixed".
_STATE: Final = frozenset(
    words("is are be being get gets need needs want wants will would look looks seem seems")
)
# A verb after the clause's past one is the main clause's: the day is its.
_MAIN_VERBS: Final = frozenset(
    words("""need needs is are must should will can could arrive arrives move moves come comes
    go goes be get gets stay stays""")
)
_DAYS_SAID: Final = (
    frozenset(words("yesterday last ago tonight tomorrow today"))
    | frozenset(cw.WEEKDAYS)
    | frozenset(cw.MONTHS)
)


# After a day, a clock time: "…the gate Friday noon", "fri 5pm".
_AN_HOUR: Final = frozenset({"noon", "midday"})
_HOUR_SAID: Final = re.compile(r"^(?:[1-9]|1[0-2])(?:am|pm|a|p)$")
# A 24-hour time written as four digits ("1700", "0930"); not 20xx, a year as often.
HHMM_RE: Final = re.compile(r"^([01]\d|2[1-3])([0-5]\d)$")
_AFTER_AN_HOUR: Final = frozenset(
    {"am", "pm", "a", "p", "o'clock", ":", ".", "tonight", "in", "this", "at", "noon", "sharp"}
)


def an_hour_at(toks: Sequence[Tok], k: int) -> bool:
    """A clock time at `k` ("5pm", "5 pm", "5 p.m.", "5:30", "5.30pm", "1700",
    "5 tonight", "noon", "at 5", "5" said last), not a count ("Friday 13",
    "sat 4 weeks", "Sunday 2 nil": a review)."""
    low, nxt = word_at(toks, k), word_at(toks, k + 1)
    if low in _AN_HOUR or _HOUR_SAID.match(low) or HHMM_RE.match(low):
        return True
    if low == "at":
        return an_hour_at(toks, k + 1) or (nxt.isdecimal() and 1 <= int(nxt[:2]) <= 12)
    if not low.isdecimal() or len(low) > 2 or int(low) > 23:
        return False
    return nxt in _AFTER_AN_HOUR or (int(low) <= 12 and (not nxt or nxt in PUNCT))
