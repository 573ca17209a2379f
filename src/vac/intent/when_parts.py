"""A part of the day said after a cue, with or without a word that narrows
it: "by afternoon", "by the evening", "by late afternoon", "before
mid-morning", "by early evening". A typed probe (2026-12-06) found "by
afternoon" asked about and "by late afternoon" dropped without a word.

Today's, while that part has not ended; the next one once it has (a morning
said after noon is tomorrow's, as "in the morning" is read). Read back as
said: "by late afternoon", "by tomorrow morning". The objective holds a day;
the words say when in it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Final

from vac.intent.lexicon import Tok
from vac.intent.when_match import ONE_DAY, Found, Hit, ends_here, word_at

# The hour each part ends by: said at or after it, the part is tomorrow's.
_ENDS_H: Final = {"morning": 12, "afternoon": 18, "evening": 23}
_NARROWING: Final = frozenset({"early", "late", "mid"})


def part_of_day(toks: Sequence[Tok], i: int, now: dt.datetime, cued: bool) -> Found:
    """ "(the) (early | late | mid) morning / afternoon / evening", after a cue."""
    if not cued:
        return None  # "the afternoon shift", "a late morning walk"
    k = i + (word_at(toks, i) == "the")
    narrowed = word_at(toks, k) if word_at(toks, k) in _NARROWING else ""
    k += bool(narrowed)
    part = word_at(toks, k)
    if part not in _ENDS_H or not ends_here(toks, k + 1):
        return None  # "by the morning market", "by late night" (read elsewhere)
    said = f"{narrowed}{'-' if narrowed == 'mid' else ' '}{part}" if narrowed else part
    if now.hour >= _ENDS_H[part]:
        return Hit(now.date() + ONE_DAY, f"by tomorrow {said}", k + 1)
    return Hit(now.date(), f"by {said}", k + 1)


# After "first thing" / "last thing", these say its day: read by their own matchers.
_ITS_DAY: Final = frozenset(
    {"tomorrow", "today", "tonight", "in", "on", "next", "this", "monday", "tuesday"}
    | {"wednesday", "thursday", "friday", "saturday", "sunday", "of"}
)


# What may follow "first thing" said as a time: the end of its part.
_ENDS_IT: Final = frozenset({"", ",", ".", "!", ";", "?", "and", "but", "please", "pls", "so"})


def first_or_last_thing(toks: Sequence[Tok], i: int, now: dt.datetime, cued: bool) -> Found:
    """ "first thing" said alone: the next morning (tomorrow's; today's
    before 5 am); "last thing": tonight. A typed probe found "fix the car
    first thing" with no deadline and "first thing" in the thing. With its
    day ("first thing Monday", "last thing tonight") the day is read."""
    said = word_at(toks, i)
    if said not in ("first", "last") or word_at(toks, i + 1) != "thing":
        return None
    if word_at(toks, i - 1) in ("the", "a", "one", "every") or word_at(toks, i + 2) in _ITS_DAY:
        return None  # "the first thing you do", "first thing tomorrow"
    if word_at(toks, i + 2) not in _ENDS_IT:
        # "first thing you do is…", "last thing I want is…", "first thing
        # every morning" (a repeat: a review found each given a deadline)
        return None
    if said == "last":
        return Hit(now.date(), "last thing today", i + 2)
    if now.hour < 5:
        return Hit(now.date(), "first thing this morning", i + 2)
    return Hit(now.date() + ONE_DAY, "first thing tomorrow", i + 2)


__all__ = ["first_or_last_thing", "part_of_day"]
