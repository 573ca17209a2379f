"""Where a target ends: a second thing joined by "and", a state said after it.

    fix the gate and the fence            → Gate and the fence
    help Zuri and Imani                   → Zuri and Imani
    fix the gate and the roof needs …     → Gate (a second order: `intent.orders`)
    make sure the chickens are safe       → Chickens
    report whether the well is dry        → Whether the well is dry (asked, kept)

Pure: tokens in, a decision out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from vac.intent import lexicon as lx
from vac.intent.address import resolve_span
from vac.intent.lexicon import Tok
from vac.intent.roster import Roster
from vac.intent.verb_cues import DONE_FORMS
from vac.intent.when_match import word_at

# After "and", words that make what follows a sentence of its own.
_NOT_MORE: Final = frozenset(
    lx.words("is are was were needs need has have will can could should would must")
)
# "… the chickens are safe", "… the gate is locked": the thing, not its state.
# Not "fed" or "watered": that is the task ("make sure the hens are fed").
_IS: Final = frozenset(lx.words("is are stays stay"))
_STATES: Final = frozenset(lx.words("safe secure locked shut closed dry warm clean fine ok okay"))
# A state after these belongs to a question or a clause: "the gate that is
# locked", "whether the well is dry", "where the lambs are safe".
_CLAUSE_WORDS: Final = frozenset(lx.words("that which whether why if where so how when who"))


def and_more(clause: Sequence[Tok], j: int, roster: Roster) -> bool:
    """Whether the "and" at `j` joins a second thing to the target: a
    determiner or a name after it (not one addressed: "…and Zuri, map…"),
    and no verb before the next stop."""
    if clause[j].low != "and" or j + 1 >= len(clause):
        return False
    nxt = clause[j + 1]
    named = nxt.low not in lx.DETERMINERS
    if named and resolve_span([nxt], roster) is None:
        return False
    if named and word_at(clause, j + 2) in lx.PUNCT:
        return False  # "…and Zuri, map the river": Zuri is addressed
    for k in range(j + 1, len(clause)):
        if clause[k].low in lx.PUNCT or lx.phrase_at(clause, k, lx.TARGET_STOPS):
            return True
        if clause[k].low in _NOT_MORE or clause[k].low in DONE_FORMS:
            return False
        if lx.phrase_at(clause, k, lx.VERB_PHRASES) is not None:
            return False
    return True


def without_state(words: Sequence[Tok]) -> Sequence[Tok]:
    """The target's words without a state said at their end."""
    if len(words) < 3 or words[-2].low not in _IS or words[-1].low not in _STATES:
        return words
    if any(t.low in _CLAUSE_WORDS for t in words[:-2]):
        return words
    return words[:-2]


__all__ = ["and_more", "without_state"]
