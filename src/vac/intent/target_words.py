"""Where a target ends: a second thing after "and", a state said after it.

    fix the gate and the fence            → Gate; "the fence" named in the summary
    help Zuri and Imani                   → Zuri; "Imani" named in the summary
    make sure the chickens are safe       → Chickens
    report whether the well is dry        → Whether the well is dry (kept)

Pure: tokens in, a decision out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from vac.intent import lexicon as lx
from vac.intent.address import resolve_span
from vac.intent.lexicon import Tok
from vac.intent.roster import Roster
from vac.intent.when_match import word_at

# "… the chickens are safe", "… the gate is locked": the thing, not its state.
# Not "fed" or "watered": that is the task ("make sure the hens are fed").
_IS: Final = frozenset(lx.words("is are stays stay"))
_STATES: Final = frozenset(lx.words("safe secure locked shut closed dry warm clean fine ok okay"))
# A state after these belongs to a question or a clause: "the gate that is
# locked", "whether the well is dry", "where the lambs are safe".
_CLAUSE_WORDS: Final = frozenset(lx.words("that which whether why if where so how when who"))


def another_thing(
    source: str, clause: Sequence[Tok], end: int, skip: frozenset[int], roster: Roster
) -> str | None:
    """The words of a second thing joined by "and" right after the target
    ("the gate and the fence", "Zuri and Imani"): one objective acts on one
    thing, so the summary names it instead of dropping it unseen. None when
    "and" is not there, or a time, a boundary or an autonomy phrase follows."""
    if word_at(clause, end) != "and" or end + 1 >= len(clause) or end + 1 in skip:
        return None
    first = clause[end + 1]
    if first.low not in lx.DETERMINERS and resolve_span([first], roster) is None:
        return None
    if lx.phrase_at(clause, end + 1, lx.TARGET_STOPS) is not None:
        return None  # "… and this weekend": a time
    k = end + 2
    while (
        k < len(clause)
        and k not in skip
        and clause[k].low not in lx.PUNCT
        and lx.phrase_at(clause, k, lx.TARGET_STOPS) is None
    ):
        k += 1
    return source[first.start : clause[k - 1].end]


def without_state(words: Sequence[Tok]) -> Sequence[Tok]:
    """The target's words without a state said at their end."""
    if len(words) < 3 or words[-2].low not in _IS or words[-1].low not in _STATES:
        return words
    if any(t.low in _CLAUSE_WORDS for t in words[:-2]):
        return words
    return words[:-2]


__all__ = ["another_thing", "without_state"]
