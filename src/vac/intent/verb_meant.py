"""The verb meant where the first cue of ours is said: the one a weak cue
leads to ("find time to fix the gate", `orders.meant_verb`), or the work
helped with ("help me fix the gate": Repair, done with the speaker)."""

from __future__ import annotations

from collections.abc import Sequence

from vac.intent import lexicon as lx
from vac.intent import orders
from vac.intent.roster import Roster
from vac.intent.tokens import Tok
from vac.intent.verb_cues import WEAK_VERB_CUES
from vac.intent.when_match import word_at


def verb_said(
    clause: Sequence[Tok], hit: tuple[int, lx.Phrase], skip: frozenset[int], roster: Roster
) -> tuple[int, lx.Phrase] | None:
    """The verb meant where the first cue `hit` is: the one a weak cue leads
    to (`meant_verb`), the work helped with (`helped_to`), else `hit`."""
    if " ".join(hit[1]) in WEAK_VERB_CUES:
        return orders.meant_verb(clause, hit, skip, roster)
    return helped_to(clause, hit, skip)


def helped_to(
    clause: Sequence[Tok], hit: tuple[int, lx.Phrase], skip: frozenset[int]
) -> tuple[int, lx.Phrase]:
    """ "help me fix the gate", "help us to build a shed": the verb of the
    work, done with the speaker (a typed probe: "Support: Me fix the gate");
    else `hit`."""
    at = hit[0] + len(hit[1])
    if hit[1] not in (("help",), ("assist",)) or word_at(clause, at) not in ("me", "us"):
        return hit
    j = at + 1 + (word_at(clause, at + 1) == "to")
    later = lx.phrase_at(clause, j, lx.VERB_PHRASES) if j not in skip else None
    if later is None or " ".join(later) in WEAK_VERB_CUES:
        return hit
    if word_at(clause, j + len(later)) in ("myself", "ourselves", "me", "us"):
        return hit  # "help me protect myself from the dog": the speaker supported (a review)
    return j, later


__all__ = ["helped_to", "verb_said"]
