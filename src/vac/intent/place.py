"""Where an order is to be done: a place said after its thing ("fix the gate
near the barn") becomes the draft's `location` constraint.

"near", "beside", "behind", "around", "next to", "inside" and "outside"
always start a place; "at", "in" and "by" only before an article ("in the
barn", not "in the morning" or "by hand"). A time is never a place: the
deadline's words (`skip`) end one ("behind the school | this weekend").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from vac.intent import lexicon as lx
from vac.intent import target_words as tw
from vac.intent.lexicon import Tok, words

_TEXT_MAX: Final = 200
# A place's last word that makes it a time ("in the morning", "at the end").
NOT_PLACES: Final = frozenset(
    words(
        "morning evening afternoon night day week hour hours minute minutes moment meantime "
        "future end time weekend sec second mo jiffy bit while little"
    )
)
# Idioms shaped like a place: "at some point", "keep me in the loop".
_NOT_PLACE_IDIOMS: Final = lx.phrases(tw.NOT_PLACE_IDIOMS)


def truncate(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    cut = text[:limit]
    return cut.rsplit(" ", 1)[0] if " " in cut else cut


# A clause of its own starts here: a place said in it is where someone else
# is ("keep an eye on the baby while I'm in the shower"), not where to act.
_CLAUSE_STARTS: Final = frozenset(
    lx.words("while whilst when whenever if unless until because since as once till")
)


def location_of(source: str, clause: Sequence[Tok], start: int, skip: frozenset[int]) -> str | None:
    for i in range(start, len(clause)):
        if clause[i].low in _CLAUSE_STARTS:
            return None  # the rest is that clause's (it was read back as the order's place)
        if i in skip:
            continue
        prep = lx.phrase_at(clause, i, lx.LOCATION_PREPS)
        if prep is None or lx.phrase_at(clause, i, _NOT_PLACE_IDIOMS) is not None:
            continue
        j = i + len(prep)
        if prep[0] in ("at", "in", "inside", "by") and (
            j >= len(clause) or clause[j].low not in lx.DETERMINERS
        ):
            continue
        k = j
        while (
            k < len(clause)
            and k - j < 5
            and clause[k].low not in lx.PUNCT
            and k not in skip  # "…the school | this weekend"
            and (k == j or lx.phrase_at(clause, k, lx.TARGET_STOPS) is None)
        ):
            k += 1
        words = [t.low for t in clause[j:k] if t.low not in lx.DETERMINERS]
        if not words or words[-1] in NOT_PLACES:
            continue
        return truncate(source[clause[i].start : clause[k - 1].end], _TEXT_MAX)
    return None
