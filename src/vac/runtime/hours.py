"""A time of day said alone as a change: the draft's own day, at that hour.

"Tariq, guard the gate tomorrow at 6pm" → "make it 7pm", "half six",
"in the evening instead", "earlier, say 8": the steward moves the hour, not
the day. A time of day names no day, so the draft keeps its own: the order
is said again with the draft's day and the new hour ("…, tomorrow at 7pm")
and read as any order is. Before, these were "I heard you, but not what to
do" (a conversation probe, T25c), and the next "yes" confirmed 6 pm.

The deadline field holds the day (the parser writes a date, not the hour,
for "tomorrow at 6 pm"); the hour is in the words read back, which are what
the steward confirms. On today's draft an hour already past today is
tomorrow's, read back so ("at 8 am tomorrow"), as when said first. A bare number ("make it 8") is an
hour only when the draft was read back with one: "make that two" to "fix
the shelves" is how many, not 2 o'clock.

Also here: a day said alone after a correction, read as one after "by"
(`dated`).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import Final

import msgspec

from vac import intent
from vac.intent import calendar_words as cw
from vac.intent.lexicon import tokenize, words
from vac.intent.numbers import CARDINALS
from vac.intent.plainly import but_when, said_plainly, what
from vac.intent.when import said_alone
from vac.protocol.objective import Objective
from vac.runtime import moved_days as md

# Words before the hour that say nothing else: "no, make it 7pm", "earlier, say 8".
_LEAD: Final = re.compile(
    r"^\W*(?:(?:no|nah|nope|sorry|actually|oh|ok|okay|um|uh|er|hmm|well|wait|and|but|or|so"
    r"|instead|rather|then|earlier|later|a\s+(?:bit|little)\s+(?:earlier|later)"
    r"|make\s+(?:it|that)|change\s+(?:it|that)\s+to|move\s+(?:it|that)\s+to|let'?s\s+say|say"
    r"|how\s+about|what\s+about|shall\s+we\s+say|(?:can|could)\s+(?:we|you|he|she|they)"
    r"\s+(?:make\s+it|do\s+it)|do\s+it|better)(?:\W+|$))+",
    re.IGNORECASE,
)
# Words after it that say nothing else: "half six instead", "at 8 would be better".
_TAIL: Final = re.compile(
    r"(?:\W+(?:instead|then|please|thanks|actually|rather|is\s+better|would\s+be\s+better"
    r"|is\s+fine|works|if\s+(?:you|he|she|they)\s+can))*\W*$",
    re.IGNORECASE,
)
# The words of an hour: one of these says it is a time of day, not a count.
_CLOCK_WORDS: Final = frozenset(
    words("""o'clock oclock am pm half quarter noon midday midnight morning afternoon evening
    night lunch lunchtime dinner teatime breakfast""")
)
_PARTS_OF_DAY: Final = frozenset(words("morning afternoon evening night"))
# "one" to "twelve": the hours said in words.
_NUMBERS: Final = frozenset(w for w, n in CARDINALS.items() if 1 <= n <= 12)
_CLOCK_READ: Final = re.compile(
    r"\d|\b(?:am|pm|o'clock|noon|midday|midnight|half|quarter|morning|afternoon|evening|night)\b",
    re.I,
)
# Every word of an hour said alone ("at about half past six in the evening").
_HOUR_WORDS: Final = (
    _CLOCK_WORDS
    | _NUMBERS
    | frozenset(
        words("""at by around about in the past to after ish or so twenty thirty fifteen forty
        fifty oh a p m : , . - !""")
    )
)
_NTH: Final = frozenset(words("st nd rd th"))


def hour_only(text: str, read_back: str | None, said: str = "") -> tuple[str, ...]:
    """The ways to say the hour `text` says, and nothing else ("at 7pm",
    "in the evening"), best first; () when it says anything more, names a
    day, or is a bare number and the draft (`read_back`: its words for when)
    had no hour, or its words (`said`) count something ("fix 2 shelves …
    at 6pm" → "make it 3": how many? a review)."""
    if "?" in text:
        return ()
    lead = _LEAD.match(text)
    rest = text[lead.end() :] if lead else text
    rest = _TAIL.sub("", rest).strip(" ,.")
    lows = [t.low for t in tokenize(rest)]
    if not lows or len(lows) > 5:
        return ()
    if not all(w in _HOUR_WORDS or w[:1].isdigit() for w in lows) or any(map(_nth, lows)):
        return ()  # more than an hour: "make Zuri do am", "the 5th", "Friday", "in two hours"
    cued = lows[0] in ("at", "by", "around", "about", "in")
    clocked = any(
        w in _CLOCK_WORDS or ":" in w or (w[:1].isdigit() and w[-2:] in ("am", "pm")) for w in lows
    )
    bare = all(w.isdigit() or w in _NUMBERS or w in ("at", "about", "around") for w in lows)
    if bare and not cued and not (read_back and _CLOCK_READ.search(read_back)):
        return ()  # "make it 8" to a draft read back with no hour: how many?
    if bare and not cued and not any(w.isdigit() for w in lows):
        return ()  # "make that two": how many, even to "…at 6 pm" ("at two", "make it 2": hours)
    if bare and not cued and _counts(said) > _counts(read_back or ""):
        return ()  # "make it 3" to "fix 2 shelves tomorrow at 6pm": how many?
    if not (clocked or bare or cued):
        return ()
    # "make it 6", "half six" to "…at 5 pm": 6 pm, 6:30 pm (said with no half of the day)
    if not any(w in _CLOCK_WORDS - {"half", "quarter"} for w in lows):
        half = _half_near(lows, read_back or "")
        rest = f"{rest} {half}" if half else rest
    if cued:
        return (rest,)
    if lows[-1] in _PARTS_OF_DAY and len(lows) == 1:
        return (f"in the {rest}",)
    return (f"at {rest}", rest)


def _counts(words_said: str) -> int:
    """How many numbers `words_said` holds ("2 shelves at 6 pm": two)."""
    return sum(t.low[:1].isdigit() or t.low in _NUMBERS for t in tokenize(words_said))


_READ_HOUR: Final = re.compile(r"\b(\d{1,2})(?::\d\d)?\s*([ap]m)\b", re.I)


def _half_near(lows: list[str], read_back: str) -> str | None:
    """ "am" or "pm" for an hour said without either, the one nearer the
    draft's hour ("make it 1" to "…at 11 am" is 1 pm, "make it 12" noon: a
    review found "1 am", "12 am"); None when the draft was read back with
    no hour of either half, or none is said."""
    was = _READ_HOUR.search(read_back)
    said = next((w for w in lows if w.isdigit() or w in _NUMBERS), None)
    if was is None or said is None:
        return None
    n = int(said) if said.isdigit() else CARDINALS[said]
    if not 1 <= n <= 12:
        return None
    old = int(was.group(1)) % 12 + (12 if was.group(2).lower() == "pm" else 0)

    def apart(half: str) -> tuple[int, bool]:
        new = n % 12 + (12 if half == "pm" else 0)  # a tie: the draft's own half ("12" to 6 pm)
        return min((new - old) % 24, (old - new) % 24), half != was.group(2).lower()

    return min(("am", "pm"), key=apart)


def _nth(word: str) -> bool:
    return word[:1].isdigit() and word[-2:] in _NTH


def with_the_day(
    plain: str, hour: str, due: dt.date | None, today: dt.date, cue: str = "on"
) -> str:
    """`plain` (the draft said plainly) with `hour` on the draft's day `due`:
    "Tariq, protect the gate tomorrow at 7pm" (today's or undated: the hour
    alone); `cue` before a weekday or a date, as the draft said it ("by Friday")."""
    if due is None or due <= today:
        return f"{plain} {hour}"
    ahead = (due - today).days
    if ahead == 1:
        day = "tomorrow"
    elif ahead < 7:
        day = f"{cue} {cw.WEEKDAY_NAMES[due.weekday()]}"
    else:
        day = f"{cue} {cw.MONTH_NAMES[due.month - 1]} {due.day}"
    hour = re.sub(r"^by\s+", "at ", hour)  # "by Friday at 6", not "by Friday by 6"
    part = hour.removeprefix("in the ")
    if part in _PARTS_OF_DAY:  # "tomorrow evening": "tomorrow in the evening" loses it
        return f"{plain} {day} {part}"
    return f"{plain} {day} {hour}"


Understood = Callable[[str, float], "intent.Draft | intent.Clarify"]


def at_hour(
    ways: tuple[str, ...],
    pending: Objective,
    due: dt.date | None,
    now: dt.datetime,
    understood: Understood,
    read_back: str | None = None,
) -> intent.Draft | str | None:
    """The draft said plainly on its own day (`due`) at the hour said, in
    `ways` (`hour_only`): the order read; a str, why it cannot be (asked);
    None when no way reads as that order at an hour. `read_back`: the draft's
    words for when ("by Friday" stays "by Friday at 3 pm", not "on Friday")."""
    if not ways:
        return None
    cue = "by" if (read_back or "").startswith("by ") else "on"
    plain = said_plainly(pending)
    base = understood(plain, 1.0)
    if not isinstance(base, intent.Draft) or what(base.objective) != what(pending):
        return None  # the draft cannot be said plainly
    for hour in ways:
        heard = understood(with_the_day(plain, hour, due, now.date(), cue), 1.0)
        if not isinstance(heard, intent.Draft) or heard.objective.deadline is None:
            continue
        if but_when(heard.objective) != but_when(base.objective):
            continue  # "at the shed": a place, not an hour
        if not (heard.wording and heard.wording.when and _CLOCK_READ.search(heard.wording.when)):
            continue  # the hour lost from the words read back ("on March 20 in the evening")
        # Today's draft at an hour past today is tomorrow's, as when said first
        # ("at eight in the morning" at 9:30: a tenth typed probe); read back so.
        if (
            due is not None
            and due != now.date()
            and heard.objective.deadline[:10] != due.isoformat()
        ):
            return md.WHICH_DAY
        return heard
    return None


def timed(pending: Objective, heard: Objective, source: str) -> Objective:
    """`pending` with `heard`'s deadline and time constraint."""
    times = [c for c in heard.constraints if c.kind == "time"]
    kept = [c for c in pending.constraints if c.kind != "time"]
    return msgspec.structs.replace(
        pending, deadline=heard.deadline, constraints=[*kept, *times], source_text=source
    )


# A time said alone after a correction, read as one after "by": "make that
# the 20th", "make it Christmas Eve", "push it to the weekend" (the draft said
# plainly has no time for "…, no, the 20th" to replace: they were asked again).
_CUED: Final = re.compile(r"^(?:by|on|before|until|till|at|in|within|for)\b", re.IGNORECASE)
_AROUND_A_TIME: Final = frozenset({".", ",", "!", "?", "please", "instead", "then", "thanks"})
_WHICH_ONE: Final = [["first"], ["second"], ["third"], ["fourth"], ["last"], ["other"]]
_COUNTS: Final = frozenset(
    ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "dozen")
)


def dated(plain: str, rest: str, now: dt.datetime) -> tuple[str, ...]:
    """`plain` with `rest` said as a time after "by", when `rest` is one and
    nothing else ("the 20th", "Christmas Eve"; not "the weather's awful this week")."""
    if _CUED.match(rest):
        return ()
    toks = [t for t in tokenize(rest) if t.low not in _AROUND_A_TIME]
    if [t.low for t in toks if t.low != "the"] in _WHICH_ONE:
        return ()  # "no, the second": which one, not a day
    if len(toks) == 1 and (toks[0].low.isdigit() or toks[0].low in _COUNTS):
        return ()  # "make that two": how many, not 2 o'clock (a typed probe)
    said = said_alone(toks, 0, now)
    return (f"{plain}, no, by {rest}",) if said is not None and said.end == len(toks) else ()


__all__ = ["at_hour", "dated", "hour_only", "timed", "with_the_day"]
