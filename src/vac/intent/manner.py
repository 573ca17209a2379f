"""How the steward wants it done: priority and autonomy from cue tables.

The tables are `lexicon.PRIORITY_TIERS` and `lexicon.AUTONOMY_CUES`. Cues
are read left to right, the longest cue at a position winning across every
tier, and a matched cue's words are not read again: so "not urgent" is not
"urgent", and "no need to check with me" is not "check with me". Among the
tiers found, the table's order decides.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, TypeVar

from vac.intent import lexicon as lx
from vac.intent.lexicon import Phrase, Tok
from vac.protocol.objective import Autonomy

T = TypeVar("T")


def cue_hits(
    toks: Sequence[Tok],
    tiers: Sequence[tuple[T, tuple[Phrase, ...]]],
    *,
    skip: frozenset[int] = frozenset(),
) -> list[tuple[T, int, int]]:
    """(tier, start, end) of every cue, leftmost-longest, none overlapping."""
    table = sorted(
        ((phrase, tier) for tier, phrases in tiers for phrase in phrases),
        key=lambda item: len(item[0]),
        reverse=True,
    )
    hits: list[tuple[T, int, int]] = []
    i = 0
    while i < len(toks):
        found = None if i in skip else next((c for c in table if lx.match_at(toks, i, c[0])), None)
        if found is None:
            i += 1
            continue
        hits.append((found[1], i, i + len(found[0])))
        i += len(found[0])
    return hits


def _first_tier(hits: Sequence[tuple[T, int, int]], order: Sequence[T], default: T) -> T:
    found = {tier for tier, _, _ in hits}
    return next((tier for tier in order if tier in found), default)


def priority_of(clause: Sequence[Tok], skip: frozenset[int]) -> int:
    hits = cue_hits(clause, lx.PRIORITY_TIERS, skip=skip)
    return _first_tier(hits, [tier for tier, _ in lx.PRIORITY_TIERS], lx.DEFAULT_PRIORITY)


class AutonomyCues(NamedTuple):
    autonomy: Autonomy
    # Words of autonomy phrases: not a verb ("check with me"), not a time
    # cue ("ask me before"), not a boundary ("don't do anything without asking").
    indices: frozenset[int]


# When to ask, after an ask-first phrase: "run it by me before you start" is
# no deadline (the phrases ending in "before" hold it already).
_BEFORE_STARTING = lx.phrases(
    [
        "before you start", "before you begin", "before starting", "before beginning",
        "before you do anything", "before doing anything", "before you do it",
        "before you go ahead", "before you get started", "before you start work",
    ]
)  # fmt: skip


def autonomy_of(clause: Sequence[Tok], skip: frozenset[int]) -> AutonomyCues:
    hits = cue_hits(clause, lx.AUTONOMY_CUES, skip=skip)
    autonomy: Autonomy = _first_tier(hits, [mode for mode, _ in lx.AUTONOMY_CUES], "brief")
    indices = {k for _, a, b in hits for k in range(a, b)}
    for mode, _, end in hits:
        tail = lx.phrase_at(clause, end, _BEFORE_STARTING) if mode == "direct-tether" else None
        indices.update(range(end, end + len(tail or ())))
    return AutonomyCues(autonomy, frozenset(indices))


def boundary_like_autonomy(clause: Sequence[Tok]) -> frozenset[int]:
    """Autonomy phrases that hold a boundary marker ("don't do anything
    without asking", "don't need to check with me"): they must not become
    forbidden lines ("Avoid asking" would forbid what was asked for)."""
    keep: set[int] = set()
    for _, start, end in cue_hits(clause, lx.AUTONOMY_CUES):
        if any(lx.phrase_at(clause, k, lx.FORBID_MARKERS) for k in range(start, end)):
            keep.update(range(start, end))
    return frozenset(keep)
