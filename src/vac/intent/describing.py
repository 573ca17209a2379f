"""Words of a standing order said of the thing, not of the order: "fix the
bus, it's always late", "the tap that always drips", "the pump's been
running day and night", "the shop is closed until further notice". A typed
probe and a review (2026-12-06) found each read as a standing order ("Kofi
will always repair the bus"). After "make sure" or "keep" they are the
order's: "make sure the gate is always locked", "…locked at all times".
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Final

from vac.intent.lexicon import PUNCT, Tok, phrase_at, phrases, words

# Before "always": what the thing is like.
_DESCRIBED_BY: Final = frozenset(
    words("it it's that that's which who is are was were they they're he he's she she's as")
)
_KEPT: Final = frozenset(words("sure ensure keep keeps"))
# Repeats said of a state: a copula or an "-ing" within the three words before.
_STATE_CUES: Final = phrases(
    [
        "day and night", "night and day", "until further notice", "at all times",
        "24/7", "round the clock", "around the clock", "indefinitely",
    ]
)  # fmt: skip
_STATE_WORDS: Final = frozenset(words("is are was were been be it's that's they're isn't aren't"))


def always_describes(clause: Sequence[Tok], k: int, kept_at: int | None = None) -> bool:
    """Whether "always" at `k` describes the thing rather than orders a
    repeat (`kept_at`: where "make sure" / "keep" is first said, if known)."""
    if clause[k].low != "always" or k == 0 or clause[k - 1].low not in _DESCRIBED_BY:
        return False  # first: the thing's scan asks this of every word
    return (_first_kept(clause) if kept_at is None else kept_at) >= k


def _first_kept(clause: Sequence[Tok]) -> int:
    return next(
        (k for k, t in enumerate(clause) if t.low in _KEPT and not _keeps_doing(clause, k)),
        len(clause),
    )


def _keeps_doing(clause: Sequence[Tok], k: int) -> bool:
    """ "the kids keep leaving it open": a habit, not "keep it locked" (a probe)."""
    nxt = clause[k + 1].low if k + 1 < len(clause) else ""
    return clause[k].low in ("keep", "keeps") and len(nxt) > 4 and nxt.endswith("ing")


def _state_before(clause: Sequence[Tok], k: int) -> bool:
    for j in range(k - 1, max(k - 4, -1), -1):
        low = clause[j].low
        if low in PUNCT:
            return False
        if low in _STATE_WORDS or (len(low) > 4 and low.endswith("ing")):
            return True
    return False


# A repeat said in a clause of its own about the thing: "…, the kids use it
# every day", "the gate we use every morning", "the clock that chimes every
# hour" (a typed probe: "Kofi will always repair the gate").
_REPEATS: Final = frozenset(words("every each daily nightly weekly"))
_THEY: Final = frozenset(words("we they he she"))
_WHICH: Final = frozenset(words("that which who"))
_OWNED: Final = frozenset(words("the my our his her their a an"))
_ASKED: Final = frozenset(words("need needs must should has have you your please"))


def _habit(clause: Sequence[Tok], k: int) -> bool:
    start = k
    while start > 0 and k - start < 8 and clause[start - 1].low not in PUNCT:
        start -= 1
    said = [t.low for t in clause[start:k]]
    if any(w in _WHICH and nxt in ("need", "needs") for w, nxt in itertools.pairwise(said)):
        return True  # "the boiler, which needs servicing every year": what it is like
    if set(said) & _ASKED:
        return False  # "the hens need checking every day": the order, said of the thing
    if set(said) & _THEY:
        return True  # "the gate we use every morning"
    verbed = any(w in _WHICH and nxt.endswith("s") for w, nxt in itertools.pairwise(said))
    verbed = verbed or any(_keeps_doing(clause, j) for j in range(start, k))  # "…keep leaving…"
    after_comma = start > 0 and clause[start - 1].low == ","
    return verbed or (after_comma and said[:1] != [] and said[0] in _OWNED and len(said) > 2)


def describing(clause: Sequence[Tok]) -> frozenset[int]:
    """Where a standing order's words that describe the thing start."""
    kept_at = _first_kept(clause)
    return frozenset(
        k
        for k in range(len(clause))
        if always_describes(clause, k, kept_at)
        or (
            kept_at > k
            and phrase_at(clause, k, _STATE_CUES) is not None
            and _state_before(clause, k)
        )
        or (kept_at > k and clause[k].low in _REPEATS and _habit(clause, k))
    )


__all__ = ["always_describes", "describing"]
