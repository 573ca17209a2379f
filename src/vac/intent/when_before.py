""" "Before" a span that has not started: "before the weekend" is by its
Friday, "before next week" by this week's Sunday, "before next month" by
this month's last day, "before next year" by 31 December. Before an eleventh
typed probe (2026-12-07) "before next week" was read as "by the end of next
week", a week late. Any other "before" means the day said ("before Friday"
is Friday). A span said in a reason for guests coming is one to finish before: "fix
the bed because the in-laws are staying next week" is by Sunday (the same
probe: by the end of next week); not "because we're away next week". Pure: tokens in, a day out.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Final

from vac.intent import calendar_words as cw
from vac.intent.lexicon import VERB_PHRASES, Tok, phrase_at, phrases
from vac.intent.when_match import ONE_DAY, Found, Hit, month_end, word_at

_OVER: Final = phrases(["is over", "ends"])
_NEXT_SPANS: Final = frozenset({"week", "month", "year"})


def before_span(clause: Sequence[Tok], j: int, found: Found, now: dt.datetime) -> Found:
    """`found`, said after "before" ending at `j`, or the day before its span
    starts; or the last day of a span said to be out ("before the week is
    out"), whatever `found` was."""
    if (out := _span_out(clause, j, now)) is not None:
        return out
    if not isinstance(found, Hit):
        return found
    said = [t.low for t in clause[j : found.end]]
    today = now.date()
    if said in (["weekend"], ["the", "weekend"]):
        # By the Friday (next week's at the weekend; it was Saturday, today);
        # "before the weekend is over": by its Sunday.
        if (over := phrase_at(clause, found.end, _OVER)) is not None:
            sunday = today + (6 - today.weekday()) * ONE_DAY
            return Hit(sunday, "before the weekend is over", found.end + len(over))
        friday = today + (4 - today.weekday()) % 7 * ONE_DAY
        return Hit(friday, "before the weekend, by Friday", found.end)
    if len(said) != 2 or said[0] != "next" or said[1] not in _NEXT_SPANS:
        return found
    if word_at(clause, found.end) == "is" or word_at(clause, j - 2) in ("the", "a"):
        return found  # "before next week is out", "the week before next week"
    if _denied(clause, j - 1):
        return found  # "no work before next week": when to start, not a deadline (a review)
    if said[1] == "week":
        last, day = today + (6 - today.weekday()) * ONE_DAY, "Sunday"
    else:
        last = dt.date(today.year, 12, 31)
        if said[1] == "month":
            last = month_end(today.year, today.month)
        day = f"{last:%B} {last.day}"
    return Hit(last, f"before next {said[1]}, by {day}", found.end)


# "before the week is out", "before the weekend's over", "before the day is
# done": its last day (a typed probe, T26: "…weekend's out" was a condition
# and the deadline dropped; "…week is out" was asked).
_SPANS: Final = frozenset({"day", "week", "weekend", "month", "year"})
_OUT: Final = frozenset({"out", "over", "done", "up", "finished", "through"})
_DAY_AFTER: Final = frozenset(
    {"on", "by", "tomorrow", "next", "in", "this", "or", "today", "tonight", "before", "until"}
)


def _span_out(clause: Sequence[Tok], j: int, now: dt.datetime) -> Hit | None:
    k = j + (word_at(clause, j) == "the")
    span, end = word_at(clause, k), k + 1
    if span.endswith("'s"):
        span = span.removesuffix("'s")
    elif word_at(clause, end) in ("is", "'s"):
        end += 1
    else:
        return None
    if span not in _SPANS or word_at(clause, end) not in _OUT or k == j:
        return None
    if word_at(clause, end + 1) in _DAY_AFTER or word_at(clause, end + 2) in _DAY_AFTER:
        return None  # "…before the day is out on Friday", "…, by Thursday": that day (a review)
    today = now.date()
    last = {
        "day": today,
        "week": today + (6 - today.weekday()) * ONE_DAY,
        "weekend": today + (6 - today.weekday()) * ONE_DAY,
        "month": month_end(today.year, today.month),
        "year": dt.date(today.year, 12, 31),
    }[span]
    return Hit(last, f"before the {span} is {word_at(clause, end)}", end + 1)


def more_days(clause: Sequence[Tok], end: int) -> int:
    """Past the days said with one that is not due ("not on Monday | or
    Tuesday"): a typed probe (T28) found "by Tuesday" drafted."""
    while word_at(clause, end) in ("or", "nor"):  # not "…, sat", "…and Friday at the latest"
        on = word_at(clause, end + 1) == "on"
        if word_at(clause, end + 1 + on) not in cw.WEEKDAYS:
            break
        end += 2 + on
    return end


_REASONS: Final = frozenset({"because", "cause", "'cause", "cos", "coz", "since"})
_SENTENCE_ENDS: Final = frozenset({".", "!", "?", ";"})


def in_reason(clause: Sequence[Tok], i: int) -> bool:
    """Whether word `i` is said in a reason ("…because the in-laws are
    staying next week") in its sentence."""
    for k in range(i - 1, -1, -1):
        if clause[k].low in _SENTENCE_ENDS:
            return False
        if clause[k].low in _REASONS:  # not "because it's windy, fix the fence next week"
            said = {t.low for t in clause[k + 1 : i]}
            return (
                bool(said & _ARRIVING)
                and not said & _US  # "because we're away next week": the work is then
                and not any(phrase_at(clause, m, VERB_PHRASES) for m in range(k + 1, i))
            )
    return False


# Guests on their way: the work is to be ready before they come (a review:
# "since you're free next week", "because Imani's away next week" mean then).
_ARRIVING: Final = frozenset(
    [
        "coming",
        "come",
        "comes",
        "arriving",
        "arrive",
        "arrives",
        "staying",
        "stay",
        "stays",
        "visiting",
        "visit",
        "visits",
    ]
)
_US: Final = frozenset(
    ["we", "we're", "we'll", "i", "i'm", "i'll", "you", "you're", "you'll", "us"]
)


_DENIALS: Final = frozenset(["no", "not", "don't", "dont", "never", "nothing", "won't", "nobody"])


def _denied(clause: Sequence[Tok], k: int) -> bool:
    """Whether a denial comes before word `k` in its part."""
    while k > 0 and clause[k - 1].low not in {",", ".", ";", "!", "?"}:
        k -= 1
        if clause[k].low in _DENIALS:
            return True
    return False
