"""Days said to a draft's deadline as a change (`runtime.amend`): a span it
moves by ("push it back a day"), a day of its month ("no, the 10th" to
January's draft), a part of a day said alone ("in the afternoon" to
Sunday's draft: Sunday's, not today's), and a second time added ("and
tomorrow night": a draft has one deadline). Pure: strings and dates in.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Final

from vac.intent import calendar_words as cw
from vac.intent.lexicon import PUNCT, tokenize, words
from vac.intent.numbers import number_at
from vac.intent.when import When, resolve

# A deadline moved by a span ("push it back a day", "bring it forward two
# days", "move it back by a week"): a typed probe found each no change.
SHIFT: Final = re.compile(
    r"^\W*(?:(?:can|could|would)\s+you\s+|please\s+|just\s+)*"
    r"(?:push|move|put|bump|set|bring|pull)\s+(?:it|that|the\s+deadline)\s+"
    r"(back|forward|up|later|earlier)\s+(?:by\s+)?(a|an|one|two|three|four|five|six|seven|\d{1,2})\s+"
    r"(days?|weeks?)\W*(?:please)?\W*$",
    re.IGNORECASE,
)
_SHIFT_COUNTS: Final = {
    **{"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5},
    **{"six": 6, "seven": 7},
}


# The same said from the deadline: "a day earlier", "two days later",
# "actually the day after", "the day before" (a fourth typed probe: asked).
SHIFT_FROM: Final = re.compile(
    r"^\W*(?:(?:actually|no|oh|ok|okay|sorry|hmm)\W+)*(?:make\s+(?:it|that)\s+)?"
    r"(?:(?P<count>a|an|one|two|three|four|five|six|seven|\d{1,2})\s+(?P<unit>days?|weeks?)\s+"
    r"(?P<way>earlier|later|sooner)|the\s+(?P<unit1>day|week)\s+(?P<way1>after|before))"
    r"\W*(?:please|instead|then)?\W*$",
    re.IGNORECASE,
)


def shift_of(text: str) -> tuple[str, str, str] | None:
    """(way, count, unit) of a move said either way, or None."""
    if (m := SHIFT.match(text)) is not None:
        way, count, unit = m.groups()
        return way.lower(), count.lower(), unit.lower()
    if (m := SHIFT_FROM.match(text)) is None:
        return None
    if m["way"] is not None:
        return m["way"].lower(), m["count"].lower(), m["unit"].lower()
    return ("later" if m["way1"].lower() == "after" else "earlier"), "a", m["unit1"].lower()


def shifted(shift: tuple[str, str, str], deadline: dt.date, today: dt.date) -> str | None:
    """The change said as the day it names ("make it December 12"); None
    when that day has passed ("bring it forward three days" on Monday's)."""
    way, count, unit = shift
    n = _SHIFT_COUNTS.get(count) or int(count)
    days = n * (7 if unit.startswith("week") else 1) * (1 if way in ("back", "later") else -1)
    day = deadline + dt.timedelta(days=days)
    if day < today:
        return None
    year = "" if day.year == today.year else f" {day.year}"
    return f"make it {cw.MONTH_NAMES[day.month - 1]} {day.day}{year}"


# A day of the month said alone as a change ("no, the 10th", "make it the 3rd").
# Said in words too, "no, the thirtieth" (a conversation probe, T26c: it
# became the thing, "look into the thirtieth on March 13", and the yes
# confirmed it); "the first" to "the fourth" said alone are which one.
_NTH_WORDS: Final = (
    r"(?:twenty|thirty)[\s-]+(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)"
    r"|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth"
    r"|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|thirtieth"
)
DAY_ONLY: Final = re.compile(
    r"^\W*(?:(?:no|nope|nah|actually|sorry|oh)\W+)*(?:make\s+(?:it|that)\s+)?(?:on\s+|by\s+)?"
    rf"the\s+(\d{{1,2}}(?:st|nd|rd|th)|{_NTH_WORDS})\W*(?:please|instead)?\W*$",
    re.IGNORECASE,
)


def _ordinal(n: int) -> str:
    """30 → "30th", 21 → "21st"."""
    end = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{end}"


def _day_number(said: str) -> int | None:
    toks = tokenize(said)
    found = number_at(toks, 0)
    return found.value if found is not None and found.end == len(toks) else None


def that_months(nth: re.Match[str], deadline: dt.date, today: dt.date) -> str:
    """ "the 10th" as a day of the deadline's month when it has one and it is
    not past; else as said (the next 10th)."""
    n = _day_number(nth.group(1))
    as_said = nth.group(0) if n is None else f"make it the {_ordinal(n)}"  # in digits
    try:
        day = deadline.replace(day=n or 0)
    except ValueError:  # "the 31st" of a month of 30
        return as_said
    if day < today or day.month == today.month:
        return as_said
    year = "" if day.year == today.year else f" {day.year}"
    return f"make it {cw.MONTH_NAMES[day.month - 1]} {day.day}{year}"


# A part of the day said alone ("in the afternoon", "at night"): of the
# draft's own day when it has one (a probe: Sunday's visit moved to today).
PART_ONLY: Final = re.compile(
    r"^\W*(?:(?:and|but|oh|actually|ok|okay)\W+)*(?:in\s+the\s+|at\s+|during\s+the\s+)"
    r"(?:(?:middle|dead)\s+of\s+(?:the\s+)?)?"
    r"(?:morning|afternoon|evening|night)\W*(?:please|then|instead|thanks)?\W*$",
    re.IGNORECASE,
)
# "and tomorrow night", "also on Friday": a second time, not the draft's one.
ADDED: Final = re.compile(
    r"^\W*(?:and|also|plus|as\s+well\s+as)\s+(?!.*\b(?:better|instead|rather|latest|actually)\b)",
    re.IGNORECASE,
)  # not "also, Friday would be better", "and by Monday at the latest" (a review)


# Words a follow-up may say around a time and still say only that time:
# "they need it done by Thursday", "give him till Monday", "nah tmrw",
# "u can do it by weds" (a typed conversation probe: each was "I didn't
# change anything"). No name, no negation, no other deed, not the past.
_AROUND_A_TIME: Final = frozenset(
    words("""they we he she it him her them need needs want wants done do by give till
    until is fine ok okay ta thanks please nah yeah yes can could you should shud must be
    latest then actually so just the""")
)
_NEAR: Final = dt.timedelta(days=60)
_COURTESY_AFTER: Final = re.compile(
    r",?\s*\b(?:if (?:you can|possible|poss|that's ok|that works)|when you can)\W*$", re.I
)
_CLOCK_ALONE: Final = re.compile(
    r"^(?:by|at|before|until|till)?\s*\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm)?$", re.I
)


def time_only(text: str, now: dt.datetime) -> str | None:
    """The time a follow-up says with only words that say nothing else, as
    said ("by Thursday"); None when it says anything more, or an hour with
    no day ("by 5": which day?). A courtesy after it says nothing more ("By
    Monday if you can."), and an hour said first is cued ("Half six tonight,
    actually.": a ninth typed probe, each "I didn't change anything")."""
    said_as, text = text, _COURTESY_AFTER.sub("", text)
    toks = tokenize(text)
    found = resolve(toks, now)
    cued_toks = tokenize(f"by {text}")
    cued = resolve(cued_toks, now)
    if (
        isinstance(cued, When)
        and isinstance(found, When)
        and cued.start == 0 < found.start
        and cued.end - 1 > found.end - found.start
    ):
        toks, found = cued_toks, cued  # "half six | tonight": one time
    if not isinstance(found, When) or dt.date.fromisoformat(found.iso_date) > now.date() + _NEAR:
        return None  # a day months away, said in passing: asked, never taken (a review)
    rest = [t.low for k, t in enumerate(toks) if not found.start <= k < found.end]
    if any(w not in _AROUND_A_TIME and w not in PUNCT for w in rest):
        return None
    said = re.sub(r"['’]s$", "", " ".join(t.text for t in toks[found.start : found.end]))
    alone = said.lower() == said_as.strip(" .!?").lower()  # read as said elsewhere
    return None if _CLOCK_ALONE.match(said) or alone else said


# Words that name a day (or a span of days) in a change.
DAY_WORDS: Final = (
    frozenset(
        words("""today tonight tomorrow tmrw 2moro 2day 2nite this next week weekend weeks month
    months year day days now asap later soon yesterday fortnight""")
    )
    | frozenset(cw.WEEKDAYS)
    | frozenset(cw.MONTHS)
    | frozenset(cw.WEEKDAY_ABBREVIATIONS)
)


def day_unsaid(text: str, was: str | None, new: str | None) -> bool:
    """Whether a change that names no day ("At three.", "In the afternoon,
    after lunch.") would move the draft's dated deadline to an earlier day
    (a tenth typed probe: tomorrow's draft moved to today). A time of day
    alone cannot say which day; the draft keeps its own. A span from now
    ("in two hours") and a date ("3/20") say theirs."""
    if was is None or new is None or new[:10] >= was[:10]:
        return False  # later: "at eight in the morning" to today's draft, past eight
    if "/" in text:
        return False  # "by 11am on 3/20"
    lows = [t.low for t in tokenize(text)]
    dated = any(w in DAY_WORDS or (w[:1].isdigit() and w[-2:] in _NTH) for w in lows)
    spans = any(w in _SPAN_UNITS for w in lows)  # "in two hours": from now, as said
    return not dated and not spans and any(w in _TIME_OF_DAY or w[:1].isdigit() for w in lows)


_SPAN_UNITS: Final = frozenset(words("hour hours hr hrs minute minutes min mins"))
WHICH_DAY: Final = "A time of day alone doesn't say which day"


_NTH: Final = frozenset(words("st nd rd th"))
# Words of a time of day ("at three", "after lunch"); a change without one
# ("make it Christmas Eve") names its own day.
_TIME_OF_DAY: Final = frozenset(
    words("""o'clock oclock am pm half quarter noon midday midnight morning afternoon evening
    night lunch lunchtime dinner teatime breakfast one two three four five six seven eight
    nine ten eleven twelve""")
)
