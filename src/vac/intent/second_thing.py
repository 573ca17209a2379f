"""A second thing said after the target with "and": named, never dropped.

    fix the gate and the fence            → Gate; "the fence" named in the summary
    help Zuri and Imani                   → Zuri; "Imani" named in the summary
    babysit Tobi and Tayo                 → Tobi; "Tayo" named in the summary

One objective acts on one thing, so the summary names the second instead of
dropping it unseen. Pure: tokens in, words out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from vac.intent import lexicon as lx
from vac.intent.address import resolve_span
from vac.intent.instead import PAST_FORMS, says_of
from vac.intent.lexicon import Tok
from vac.intent.roster import Roster
from vac.intent.when_match import word_at


def another_thing(
    source: str, clause: Sequence[Tok], start: int, end: int, skip: frozenset[int], roster: Roster
) -> str | None:
    """The words of a second thing joined by "and" right after the target
    (`clause[start:end]`): "the gate and the fence", "Zuri and Imani". One
    objective acts on one thing, so the summary names it instead of dropping
    it unseen. Only a short thing (a determiner and at most three words, or a
    name) that ends the clause or comes before a comma, a time or a place
    (`_AFTER_THING`); never in a
    target that joins two things itself ("between the farm and the
    village", "both…", "from the fox and the badger", "with Zuri and…")."""
    # "…, and also the oil", "…, also the oil", "Fix the gate. And the fence."
    j = end + (word_at(clause, end) in (",", "."))
    j += word_at(clause, j) in ("and", "plus")
    j += word_at(clause, j) == "then"  # "…, then the garage", "… and then the garage"
    j += word_at(clause, j) == "also"
    listed = j == end + 1 and clause[end].low == "," and _listed(clause, j, roster, skip)
    if j == end or (j == end + 1 and clause[end].low in (",", ".") and not listed) or j in skip:
        return None
    if any(t.low in _JOINING for t in clause[start:end]):
        k = _parallel(clause, start, end, j, roster, skip)
    else:
        k = _thing_end(clause, j, roster, skip)
    if k is None:
        return None
    # "… and the fence and the roof", "…, the tyres, and the lights": all named
    while (step := _and_at(clause, k)) and (more := _thing_end(clause, k + step, roster, skip)):
        k = more
    ends = k >= len(clause) or clause[k].low in lx.PUNCT or k in skip
    if not ends and clause[k].low not in _AFTER_THING:
        return None  # "… and the fox got in": a sentence, not a thing
    return source[clause[j].start : clause[k - 1].end]


# "a shelf for the books and a rack for the shoes": a second thing shaped as
# the first (a typed probe: it was dropped unseen); "for" or "of" only.
_PARALLEL: Final = frozenset(lx.words("for of"))


def _parallel(
    clause: Sequence[Tok], start: int, end: int, at: int, roster: Roster, skip: frozenset[int]
) -> int | None:
    """Where a thing at `at` ends that joins its words as the target does."""
    joins = {t.low for t in clause[start:end]} & _PARALLEL
    if not joins or word_at(clause, at) not in lx.DETERMINERS:
        return None
    k = next((k for k in range(at + 2, at + 4) if word_at(clause, k) in joins), None)
    return None if k is None or k in skip else _thing_end(clause, k + 1, roster, skip)


def _and_at(clause: Sequence[Tok], k: int) -> int:
    """How many words of "and" or ", and" ("then", ", then") start at `k` (0 for none)."""
    if word_at(clause, k) in ("and", "then"):
        return 1
    return 2 if word_at(clause, k) == "," and word_at(clause, k + 1) in ("and", "then") else 0


def _listed(clause: Sequence[Tok], at: int, roster: Roster, skip: frozenset[int]) -> bool:
    """A thing at `at`, after a comma, with another after "and": the list
    "the fence, the gate and the shed door" (an eleventh typed probe: the
    two after the first were dropped unseen); not "the gate, the one by the
    barn" nor a correction ("the fence, the gate": `instead`)."""
    k = _thing_end(clause, at, roster, skip)
    step = 0 if k is None else _and_at(clause, k)
    return k is not None and step > 0 and _thing_end(clause, k + step, roster, skip) is not None


def _thing_end(clause: Sequence[Tok], at: int, roster: Roster, skip: frozenset[int]) -> int | None:
    """Where a short thing starting at `at` ends: a name, or a determiner and
    at most `_THING_WORDS` words; None when no such thing starts there."""
    first = word_at(clause, at)
    if not first or lx.phrase_at(clause, at, lx.TARGET_STOPS) is not None:
        return None  # "… and this weekend": a time
    if resolve_span(clause[at : at + 1], roster) is not None:
        return at + 1
    if first in _KIN or (clause[at].text[:1].isupper() and first.isalpha() and first != "i"):
        # "babysit Tobi and Tayo", "visit Grandma and Grandpa" (a typed probe:
        # the second dropped unseen); "Mr Lee": a title and a name
        return at + 1 + (first in _TITLES and word_at(clause, at + 1).isalpha())
    if first not in lx.DETERMINERS:
        return None
    k = at + 1
    while (
        k < len(clause)
        and k <= at + _THING_WORDS
        and clause[k].low.isalpha()
        and k not in skip
        and lx.phrase_at(clause, k, lx.TARGET_STOPS) is None
    ):
        k += 1
    if any(says_of(t.low) or t.low in PAST_FORMS for t in clause[at + 1 : k]):
        return None  # "…, the latch and the hinge are broken", "…then the kids can play"
    return k if k > at + 1 else None


_KIN: Final = frozenset(
    lx.words("grandma grandpa gran granny grandad grandmother grandfather nan nana mum mom dad")
)
_TITLES: Final = frozenset(lx.words("mr mrs ms miss dr auntie aunt uncle"))
# Words inside a target that join two things themselves.
_JOINING: Final = frozenset(lx.words("between both from with for of"))
# Words a second thing may have after its determiner: "the fence", "the old red shed".
_THING_WORDS: Final = 3
# What may follow a second thing: another part of the order, not its own verb.
_AFTER_THING: Final = frozenset(
    lx.words(
        "and but by before until urgently asap today tonight tomorrow please near behind "
        "beside around inside outside next right first as"
    )
)


__all__ = ["another_thing"]
