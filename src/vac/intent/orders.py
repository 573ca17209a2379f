"""Where the order in a clause is, and whether there is more than one.

`named_before`: the roster agents named before the verb (the parser asks
about them rather than send the draft to the default agent). `meant_verb`:
the verb a weak cue ("find time to fix…") leads to. `another_order`: the
words of a second order after the first ("…, and Zuri, map the river"),
which the draft's summary names. `unknown_deed`: the words an agent was
asked to do when none is a verb of ours ("Kofi, water the plants"), which
the question quotes. Pure: tokens in, indices and words out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from vac.intent import lexicon as lx
from vac.intent import passive
from vac.intent.address import resolve_span
from vac.intent.lexicon import Tok, words
from vac.intent.roster import STOPWORDS, Roster
from vac.intent.verb_cues import DONE_FORMS, WEAK_VERB_CUES
from vac.intent.when_match import word_at


def named_before(clause: Sequence[Tok], verb_at: int, roster: Roster) -> list[str]:
    """The roster agents named (closely spelled) before the verb."""
    found = (resolve_span([t], roster) for t in clause[:verb_at] if t.low not in lx.PUNCT)
    names = [r.agent for r in found if r is not None and r.method in ("exact", "fuzzy")]
    return list(dict.fromkeys(names))


def meant_verb(
    clause: Sequence[Tok], hit: tuple[int, lx.Phrase], skip: frozenset[int], roster: Roster
) -> tuple[int, lx.Phrase] | None:
    """After a weak cue ("find time to fix…"), the verb of another cue within
    `_WEAK_REACH` words; None when a deed's form stands there instead ("make
    sure the gate is fixed": `intent.passive` reads that); else the weak cue.
    A weak cue before an agent's name ("find Kofi and tell him to fix…",
    "make sure Kofi fixes…") is never the verb: the later one, or none."""
    end = hit[0] + len(hit[1])
    agent_next = end < len(clause) and resolve_span([clause[end]], roster) is not None
    reach = len(clause) if agent_next else min(end + _WEAK_REACH, len(clause))
    for j in range(end, reach):
        if clause[j].low in ("and", "then") and not agent_next:
            break  # "meet the teacher and help her…": a second order
        if j in skip:  # a boundary, or the word after "the" ("make sure the gate…")
            continue
        later = lx.phrase_at(clause, j, lx.VERB_PHRASES)
        if later is not None and " ".join(later) not in WEAK_VERB_CUES:
            return j, later
    if agent_next or any(clause[j].low in DONE_FORMS for j in range(end, reach)):
        return None
    return hit


_WEAK_REACH: Final = 5


def another_order(
    source: str, clause: Sequence[Tok], start: int, skip: frozenset[int]
) -> str | None:
    """The words of a second order after the first ("…, and Zuri, map the
    river", "…, then check the well"): a verb within four words of "and",
    "then", "also" or a comma, outside boundaries and autonomy phrases."""
    for k in range(start, len(clause)):
        if clause[k].low not in _THEN:
            continue
        ahead = range(k + 1, min(k + 5, len(clause)))
        said_after = source[clause[k + 1].start : clause[-1].end] if k + 1 < len(clause) else ""
        if any(_second_verb(clause, j) for j in ahead if j not in skip) or (
            # "…and the roof needs patching": an order said about the thing
            said_after and passive.as_order(said_after) is not None
        ):
            first = k + 1 + (k + 1 < len(clause) and clause[k + 1].low in _THEN)
            if first < len(clause):
                return source[clause[first].start : clause[-1].end]
    return None


_THEN: Final = frozenset(words("and then also ,"))
# After these the verb's words are how to do the first ("make it quick",
# "take care of yourself", "watch your step", "check with Kofi first").
_HOW_NOT_WHAT: Final = frozenset(words("it it's yourself yourselves your sure with out"))


def _second_verb(clause: Sequence[Tok], j: int) -> bool:
    """Whether a verb at `j` starts another order: not reporting back on the
    first ("and report back", "and let me know"), not a manner ("make it
    quick", "watch your step"), not a boundary's ("no help from the kids")."""
    cue = lx.phrase_at(clause, j, lx.VERB_PHRASES)
    if cue is None or lx.verb_of(cue) == "Report" or word_at(clause, j - 1) in ("no", "not"):
        return False
    return word_at(clause, j + len(cue)) not in _HOW_NOT_WHAT


# Said between the agent's name and the deed: "Kofi, please go and water…".
_BEFORE_DEED: Final = frozenset(words("to please go and just kindly"))
# Words quoted at most: the deed and its thing, not the whole sentence; a
# second order or a reason after these is not quoted.
_DEED_WORDS: Final = 5
_DEED_ENDS: Final = lx.PUNCT | frozenset(words("and then but so because"))


def unknown_deed(source: str, clause: Sequence[Tok]) -> str | None:
    """The words of an order with no verb of ours, as said, when the clause
    starts with one ("water the plants", "sweep the porch"; "God the
    orchard" when the recogniser wrote it; "good morning"): up to the first
    punctuation or "and", five words at most. None when the clause does not
    start with a word of its own ("Kofi, the gate…", "Kofi, I think…")."""
    k = 0
    while k < len(clause) and clause[k].low in _BEFORE_DEED:
        k += 1
    if k >= len(clause) or not clause[k].low.isalpha() or clause[k].low in STOPWORDS:
        return None
    end = k
    while end < len(clause) and end - k < _DEED_WORDS and clause[end].low not in _DEED_ENDS:
        end += 1
    more = end < len(clause) and clause[end].low not in _DEED_ENDS
    return source[clause[k].start : clause[end - 1].end] + ("…" if more else "")
