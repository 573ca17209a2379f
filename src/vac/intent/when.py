"""Deadline phrases → a date, against the caller's `now` (pure, no clock).

    resolve(clause, now) → When | Unresolved | None

`When` is the objective's `deadline` (an ISO date: the objective holds a
date, not a time) and how to read it back ("by Friday", "in three days").
`Unresolved` is a phrase that is clearly a deadline but names no day the
resolver can place ("before the harvest", "by the thirty-second", "by
Fooday"): the parser asks about it instead of dropping it. None: nothing
was said about time.

The rules, in `now`'s own zone (docs/speaking.md lists them with examples):
- a weekday on its own ("Friday", "by Friday", "on Friday", "this coming
  Friday") is the next one after today, 1–7 days ahead: "by Friday" said on
  a Friday is next week's;
- "this Friday" is this week's, 0–6 days ahead (today, said on a Friday);
- "next Friday" is the Friday of next week, the week (Monday to Sunday)
  after this one, as "next week" is: said on Wednesday 2 December it is
  Friday 11 December. The read-back names the date, so it can be checked;
- a date without a year ("December 24", "the 3rd") is the next one on or
  after today: "December 1" said on December 2 is next year's;
- a clock time ("by 5 pm", "by noon") is today, or tomorrow once past;
- "in the morning" is the next morning not begun (tomorrow's, after 5 am);
  "in the afternoon" / "in the evening" are today's until 5 pm / 10 pm;
- "by the weekend" is the coming Saturday (its Sunday, said at the
  weekend), "over the weekend" its Sunday; the end of a week is its Sunday, of a month its
  last day;
- "before X", "until X", "no later than X" mean the same day as "by X";
- a span is due at its end: "from tonight until Sunday", "between now and
  Friday", "from Monday to Friday" are due Sunday, Friday, Friday;
- "after lunch" / "after dinner" / "after dark" (and the like) are today, or
  the day said with them ("after lunch tomorrow"), unless another phrase
  names the day ("after lunch, by Friday"); "after" anything else about
  time ("after Friday") says when to start: it is asked about.
The first phrase that resolves wins; an unresolvable one counts only when
nothing resolves. This module holds the cues and the scan; the matchers are
in `when_days` (named days) and `when_hours` (clock times and spans).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Sequence
from typing import Final, NamedTuple

from vac.intent import calendar_words as cw
from vac.intent.lexicon import (
    FORBID_MARKERS,
    ISO_DATE_RE,
    SLASH_DATE_RE,
    Tok,
    phrase_at,
    phrases,
    words,
)
from vac.intent.need_not import need_not_at
from vac.intent.numbers import number_at
from vac.intent.time_slips import by_alone
from vac.intent.when_around import day_around
from vac.intent.when_before import before_span, in_reason, more_days
from vac.intent.when_cues import AFTER_TODAY_WORDS as _AFTER_TODAY
from vac.intent.when_cues import CUE_KINDS as _CUE_KINDS
from vac.intent.when_cues import CUES as _CUES
from vac.intent.when_days import (
    calendar_date,
    holiday,
    part_of_month,
    past_day,
    period,
    relative_day,
    weekday,
)
from vac.intent.when_hours import clock, span
from vac.intent.when_match import (
    ONE_DAY,
    STOPS,
    Bad,
    Found,
    Hit,
    ends_here,
    has_lasted,
    month_day,
    of_the_past,
    word_at,
)
from vac.intent.when_month_days import day_of_month, first_or_last_day, iso, its_date, slash_date
from vac.intent.when_months import month_said
from vac.intent.when_parts import first_or_last_thing, part_of_day
from vac.intent.when_said import (
    after_what,
    day_is_the_hours,
    day_starts,
    it_happened,
    not_the_deadline,
    said_as_fine,
    with_its_day,
)
from vac.intent.when_weeks import middle, short_end, weeks_on

_MAX_UNRESOLVED_TOKENS: Final = 6
ONE_WEEK: Final = dt.timedelta(days=7)


class When(NamedTuple):
    iso_date: str  # YYYY-MM-DD: the objective's deadline
    phrase: str  # the read-back: "by Friday", "in three days", "tonight"
    start: int  # the phrase is clause[start:end], cue included
    end: int


class Unresolved(NamedTuple):
    """A deadline cue and the words after it that name no day we can place."""

    start: int
    end: int


_LEADS: Final = frozenset({"the", "this", "next", "coming", "end", "middle", "of", "very"})


_Matcher = Callable[[Sequence[Tok], int, dt.datetime, bool], Found]
# Longer shapes first where they share a start ("the 24th of December"
# before "the 24th"; "this morning" before "this Monday").
_MATCHERS: Final[tuple[_Matcher, ...]] = (
    iso,
    past_day,
    month_said,
    day_around,
    weeks_on,
    relative_day,
    part_of_day,
    first_or_last_thing,
    middle,
    short_end,
    period,
    weekday,
    span,
    holiday,
    part_of_month,
    first_or_last_day,
    slash_date,
    calendar_date,
    day_of_month,
    clock,
)


def _expression(toks: Sequence[Tok], i: int, now: dt.datetime, cued: bool) -> Found:
    for matcher in _MATCHERS:
        try:
            found = matcher(toks, i, now, cued)
        except (OverflowError, ValueError):  # past year 9999: no such day
            found = Bad(i + 1)
        if found is not None:
            return found
    return None


def said_alone(toks: Sequence[Tok], i: int, now: dt.datetime) -> When | None:
    """A day said on its own at `i`, read as if cued: a correction ("…,
    no, Saturday", "…, no, the 19th") names a time whatever its words."""
    found = _expression(toks, i, now, True)
    return (
        When(found.day.isoformat(), found.phrase, i, found.end) if isinstance(found, Hit) else None
    )


def _after(toks: Sequence[Tok], j: int, now: dt.datetime) -> Found:
    """ "after lunch" (today), "after lunch tomorrow" / "on Friday" (that day)."""
    at = j + (word_at(toks, j) == "the")
    word = word_at(toks, at)
    if word not in _AFTER_TODAY:
        return None
    k = at + 1 + (word_at(toks, at + 1) == "on")
    later = _expression(toks, k, now, True)
    if isinstance(later, Hit):
        return Hit(later.day, f"{later.phrase}, after {word}", later.end)
    return Hit(now.date(), f"after {word}", at + 1)


# A span's two ends: "from tonight until Sunday", "between now and Friday".
_SPAN_TO: Final = {"from": frozenset(words("until till til to through thru")), "between": {"and"}}
_SPAN_START_WORDS: Final = frozenset(words("now today tonight"))  # no matcher's alone
_NOT_SPAN: Final = frozenset(words("not except never"))  # "not between now and Friday"


def _from_to(toks: Sequence[Tok], i: int, now: dt.datetime) -> When | None:
    """A span at `i` ("(starting) from X until Y", "between X and Y"), due at Y."""
    lead = word_at(toks, i) in ("starting", "beginning") and word_at(toks, i + 1) == "from"
    said = _SPAN_TO.get(word_at(toks, i + lead))
    bare = said is None and word_at(toks, i)[:1].isdigit()  # "10pm til 6am" (a typed probe)
    if said is None and not bare:
        return None
    joins, j = (_SPAN_TO["from"], i) if said is None else (said, i + lead + 1)
    start = _expression(toks, j, now, True)
    if isinstance(start, Hit):
        j = start.end
    elif word_at(toks, j) in _SPAN_START_WORDS:
        j += 1
    else:
        return None
    if word_at(toks, j) not in joins:
        return None
    end = _expression(toks, j + 1, now, True)
    if not isinstance(end, Hit):
        return None
    # "…to Monday 7 December", "…to Friday the 11th": the matcher stopped at
    # the weekday; the date said with it is the day (not "…Friday 3 pm").
    for dated in (calendar_date, day_of_month):
        try:
            found = dated(toks, end.end, now, True)
        except (OverflowError, ValueError):  # past year 9999: no such day
            found = None
        if isinstance(found, Hit):
            end = found
            break
    alone = end.end == j + 2 and word_at(toks, j + 1) in cw.WEEKDAYS
    if not isinstance(start, Hit) or end.day >= start.day or not alone:
        # An end before the start is the one meant: "from 9 am to 5 pm" or
        # "from the 1st until the 10th" said on the 4th runs until today's 5 pm, the 10th.
        return When(end.day.isoformat(), end.phrase, i, end.end)
    # "from Friday to Monday", "from Christmas to Sunday": that weekday on or
    # after the start, and the read-back names its date.
    weeks = -(-(start.day - end.day).days // 7)
    try:
        due = end.day + weeks * ONE_WEEK
    except OverflowError:  # past year 9999
        return None
    return When(due.isoformat(), f"{end.phrase}, {due:%B} {due.day}", i, end.end)


# Before a time that names which one ("the 6 pm cycle", "her 10 o'clock
# pills", "the Monday rota"): a typed probe found each read as the deadline.
_WHICH_ONE: Final = frozenset(words("the a an her his my your our their its this that"))

_PART_OF: Final = phrases(
    f"{on} the {part} of"
    for on in ("in", "on")
    for part in ("morning", "afternoon", "evening", "night")  # "night": a ninth typed probe
)


def _looks_temporal(toks: Sequence[Tok], j: int, kind: str) -> bool:
    """Whether the words after a cue are about time, though unresolvable."""
    k = j
    # "by the end of a week": an article after "of" leads too.
    while word_at(toks, k) in _LEADS or (
        word_at(toks, k) in ("a", "an") and word_at(toks, k - 1) == "of"
    ):
        k += 1
    said = word_at(toks, k)
    low = said.removesuffix("'s")  # "by month's end"
    if kind == "by" and k == j and by_alone(toks, j - 1):
        return True  # "fix the gate by": the time was lost (a blind probe: dropped)
    if not low or low in STOPS or phrase_at(toks, k, FORBID_MARKERS) is not None:
        return False
    if SLASH_DATE_RE.match(low):
        return True  # "by 12/11": December 11 or 12 November? Asked.
    if kind == "strong":
        # "until further notice" is a standing order, not a deadline.
        return (low, word_at(toks, k + 1)) != ("further", "notice")
    if ISO_DATE_RE.match(low):
        return False  # see `iso`
    day_like = len(low) > 3 and low.endswith(("day", "days"))  # "by Fooday", "by the holiday"
    # "on Mother's Day" (a ninth typed probe: dropped without a word)
    day_like = day_like or (said in cw.TEMPORAL_WORDS and word_at(toks, k + 1) == "day")
    number = number_at(toks, k)
    if number is not None and not ends_here(toks, number.end):
        number = None  # "report on the third floor", "by 3 fences"
    if word_at(toks, k + 1) in cw.STREET_WORDS:
        return False  # "on Friday Street", "by Monday Road": a place
    if kind == "on":  # not "(put your shoes) on first": a day is "on the first"
        nth = number is not None and number.ordinal and (k > j or low != "first")
        return low in cw.ON_DAY_WORDS or day_like or nth
    if kind == "around" and low in ("end", "time"):
        return False  # "a fence around the end of the field"
    if kind in ("by", "around"):
        # "by the school fete"; not "clean up after the party"
        by_event = word_at(toks, j - 1) == "by" and _event(toks, k)
        return low in cw.TEMPORAL_WORDS or day_like or number is not None or by_event
    return False


def _event(toks: Sequence[Tok], k: int) -> bool:
    """ "the school fete", "the vicar's visit": the phrase's last word names an event."""
    ends, end = [], k
    while end + 1 < len(toks) and end - k < 4 and word_at(toks, end + 1) not in STOPS:
        if word_at(toks, end + 1) == "of":
            ends.append(end)  # "the Ides of March": the head before "of", and
        end += 1  # "the eve of the wedding": the last word
    return any(word_at(toks, e).removesuffix("'s") in cw.EVENT_WORDS for e in (*ends, end))


def _unresolved_end(toks: Sequence[Tok], j: int) -> int:
    k = j
    while (
        k < len(toks)
        and k - j < _MAX_UNRESOLVED_TOKENS
        and toks[k].low not in STOPS
        and phrase_at(toks, k, FORBID_MARKERS) is None
    ):
        k += 1
    return k


def _its_hour(clause: Sequence[Tok], k: int, now: dt.datetime) -> tuple[str, int] | None:
    """The clock time said right after a day ("tomorrow at 7 in the
    morning", "on Friday by noon"), as read back, and its end; None when the
    day is itself a time of day ("tonight") or no clock time follows."""
    cue = phrase_at(clause, k, _CUES)
    if word_at(clause, k - 1) in ("tonight", "morning", "afternoon", "evening", "night"):
        return None
    if cue is None:  # "by Friday 3 pm" (its hour was dropped from the read-back)
        bare = clock(clause, k, now, False)
        if not isinstance(bare, Hit):
            return None
        return bare.phrase.removesuffix(" tomorrow").replace("by ", "at ", 1), bare.end
    if _CUE_KINDS[" ".join(cue)] not in ("at", "by"):
        return None
    found = clock(clause, k + len(cue), now, True)
    if not isinstance(found, Hit):
        return None
    return _with_cue(found.phrase.removesuffix(" tomorrow"), cue[0]), found.end


# The words of a time of day: "5", "3am", "3:30", "am", "o'clock", "midnight", "night".
_CLOCK_WORD: Final = re.compile(
    r"^(?:\d{1,2}(?::\d\d)?(?:am|pm)?|[ap]\.?m\.?|o'?clock|midnight|noon|night)$"
)


def _with_cue(phrase: str, kind: str) -> str:
    # "on Friday", "at 5 pm"; "before/until Friday" read back as "by Friday" (what it means)
    if kind in ("on", "at") and phrase.startswith("by "):
        return f"{kind} {phrase[3:]}"
    return phrase


# What may end two days said with "and" (not "by Friday and Saturday is the party").
_SAID_LAST: Final = frozenset({"", ".", "!", "?", "please", "thanks", "cheers"})


def _or_later(clause: Sequence[Tok], found: Hit, now: dt.datetime) -> Hit:
    """A day and another said as its alternative ("on Monday or Tuesday",
    "today or tomorrow", "in January or February"): due by the later one,
    both read back (a typed probe: it was the earlier); not two hours ("at 3
    or 4", `when_said`). Two said with "and" ("on Monday and Tuesday") are
    due by the later too (the second was dropped), only when they end the
    sentence ("…today and tomorrow check the hens": tomorrow is that order's)."""
    at = found.end + (word_at(clause, found.end) == "," and word_at(clause, found.end + 1) == "or")
    join, k = word_at(clause, at), at + 1  # a probe: "by Monday, or, uh, Tuesday" was Monday
    while join == "or" and word_at(clause, k) in (",", "maybe", "perhaps"):
        k += 1
    if join not in ("or", "and") or isinstance(clock(clause, k, now, True), Hit):
        return found
    k += word_at(clause, k) == "on"
    other = _expression(clause, k, now, True)
    other = other if isinstance(other, Hit) else month_said(clause, found.end, now, True)
    if other is None and [word_at(clause, k + n) for n in range(3)] == ["the", "day", "after"]:
        other = Hit(found.day + ONE_DAY, "the day after", k + 3)  # "tomorrow or the day after"
    if not isinstance(other, Hit) or other.day <= found.day:
        return found
    last = other.end + (word_at(clause, other.end) == ",")  # "…tomorrow night, please"
    if (join == "and" or k > at + 1) and word_at(clause, last) not in _SAID_LAST:
        return found  # "…today and tomorrow Tariq will…", "…by Friday and Saturday is…"
    first, second = (h.phrase.split(",")[0] for h in (found, other))  # not "…, by January 31"
    said = f"{first} {join} {second.removeprefix('by ').removeprefix('in ')}"
    return Hit(other.day, f"{said}, by {month_day(other.day, now.date())}", other.end)


def _not_due(clause: Sequence[Tok], i: int, found: Found) -> tuple[int, int] | None:
    """Where the words that say the day found at `i` is not due start and end."""
    if not isinstance(found, Hit):
        return None
    denied = need_not_at(clause, i)
    start = denied if denied is not None else i - 1 if word_at(clause, i - 1) in _NOT_SPAN else None
    got = (start, found.end) if start is not None else not_the_deadline(clause, i, found.end)
    return None if got is None else (got[0], more_days(clause, got[1]))  # "not Sat or Sun"


def resolve(
    clause: Sequence[Tok], now: dt.datetime, *, skip: frozenset[int] = frozenset()
) -> When | Unresolved | None:
    """The first deadline phrase in `clause`, resolved against `now`.

    Tokens in `skip` (the steward's boundaries, the verb, autonomy phrases
    such as "ask me before") start nothing. An unresolvable phrase is
    returned only when no phrase resolves."""
    unresolved: Unresolved | None = None
    after: When | None = None
    clause = said_as_fine(clause)  # "tomorrow's fine"
    i = 0
    while i < len(clause):
        if i in skip:
            i += 1
            continue
        if (spanned := _from_to(clause, i, now)) is not None:
            if word_at(clause, i - 1) not in _NOT_SPAN:
                return spanned
            i = spanned.end  # "not between now and Friday": no time it is due
            continue
        if (part := phrase_at(clause, i, _PART_OF)) is not None:  # "in the morning of the 20th"
            day = _expression(clause, i + len(part), now, True)
            if isinstance(day, Hit):
                said = f"{' '.join(part[1:])} {day.phrase.removeprefix('by ')}"
                return When(day.day.isoformat(), f"by {said}", i, day.end)
            unresolved = unresolved or Unresolved(i, _unresolved_end(clause, i + len(part)))
            i += len(part)  # "…of the party": which day? Asked (not dropped)
            continue
        cue = phrase_at(clause, i, _CUES)
        if cue == ("due",) and (word_at(clause, i + 1) in ("to", "date", "dates")):
            cue = None  # "due to the rain"; "no due date"
        if cue == ("during",) and (
            _expression(clause, i, now, False) is not None or it_happened(clause, i)
        ):
            cue = None  # "during the night", "during January": their own matchers
        if cue is not None and (" ".join(cue), *(w.low for w in clause[i + len(cue) :][:2])) in (
            ("ahead of", "time"),
            ("ahead of", "schedule"),
            ("during", "the", "day"),
        ):
            cue = None  # early, or by day: no deadline (a review: asked when)
        kind = "" if cue is None else _CUE_KINDS[" ".join(cue)]
        j = i + (0 if cue is None else len(cue))
        if kind == "at" and (it_happened(clause, i) or of_the_past(clause, i, j)):
            i = j  # "went off at 5", "came at night", "went off at 3am / 3 am" (a probe): not due
            while _CLOCK_WORD.match(word_at(clause, i)):
                i += 1
            continue
        if kind == "after":
            found = _after(clause, j, now)
            if isinstance(found, Hit) and word_at(clause, i - 1) in _NOT_SPAN:  # "not after dark"
                unresolved, i = unresolved or Unresolved(i - 1, found.end), found.end  # asked
                continue
            if isinstance(found, Hit):  # a day said elsewhere wins: "after lunch, by Friday"
                after = after or When(found.day.isoformat(), found.phrase, i, found.end)
                i = found.end
                continue
            event = after_what(clause, j)  # "after the match", "after you get back"
            if event is not None or _looks_temporal(clause, j, "by"):  # "after Friday"
                end = _unresolved_end(clause, j) if event is None else event
                unresolved, i = unresolved or Unresolved(i, end), end
                continue
            i += 1
            continue
        found = _expression(clause, j, now, cue is not None and kind != "for")
        if (
            isinstance(found, Hit)
            and not kind
            and word_at(clause, i - 1) in _WHICH_ONE
            and not ends_here(clause, found.end)
        ):
            i = found.end  # "the 6 pm cycle", "her 10 o'clock pills": which one, not when
            continue
        not_it = _not_due(clause, i, found)
        if not_it is not None:
            # "…, but not today", "not before lunch", "it doesn't need to be
            # done today", "any day but Tuesday", "Friday at the earliest": a
            # time it is not due, never its deadline; asked unless another is said.
            unresolved, i = unresolved or Unresolved(*not_it), not_it[1]
            continue
        if isinstance(found, (Hit, Bad)) and (
            (kind in ("", "on") and (of_the_past(clause, i, j) or it_happened(clause, i)))
            or (not kind and word_at(clause, i) in ("all", "for") and has_lasted(clause, i))
        ):
            i = found.end  # "the fence that the storm knocked down on Tuesday"
            continue
        if cue == ("before",) or (isinstance(found, Hit) and not kind and in_reason(clause, i)):
            found = before_span(clause, j, found, now)  # "before the weekend", "before next week"
        if isinstance(found, Hit) and word_at(clause, found.end - 1) in cw.DAY_NAMES:
            found = its_date(clause, found, now)  # "on Wednesday the 10th": which?
        if isinstance(found, Hit):
            found = _or_later(clause, found, now)  # "on Monday or Tuesday": by Tuesday
        if isinstance(found, Hit):
            said = _with_cue(found.phrase, kind)
            day_at = day_starts(clause, found.end)
            if day_at is not None and isinstance(clock(clause, j, now, cue is not None), Hit):
                day = _expression(clause, day_at, now, True)  # "at 3 pm | on Friday"
                if (
                    isinstance(day, Hit)
                    and not isinstance(clock(clause, day_at, now, True), Hit)
                    and day_is_the_hours(clause, found.end, day_at, day.end)
                ):
                    found = with_its_day(said, day)
                    said = found.phrase
            elif (hours := _its_hour(clause, found.end, now)) is not None:
                said, end = f"{said} {hours[0]}", hours[1]  # "tomorrow at 7 am"
                return When(found.day.isoformat(), said, i, end)
            return When(found.day.isoformat(), said, i, found.end)
        if isinstance(found, Bad):
            end = min(max(found.end, i + 1), len(clause))  # never past the words
            unresolved = unresolved or Unresolved(i, end)
            i = end
            continue
        if cue is not None and _looks_temporal(clause, j, kind):
            unresolved = unresolved or Unresolved(i, _unresolved_end(clause, j))
        i += 1
    return after or unresolved
