"""A phrasal verb said around its thing: "sort the shed out", "set the tent
up", "put the shelves up", "sort it out", "cheer him up".

The verb's particle is moved back next to it ("sort out the shed"), so the
verb is the phrasal one and its thing the target. Tokens keep their offsets
into what was said, so a label read from them is still the source's own
words ("the shed"). Only a short thing moves: a pronoun, or a determiner
or a name and at most three words, with no break, and a particle not starting a place
of its own ("put the box up the stairs", "check the dog out there").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from vac.intent import lexicon as lx
from vac.intent.lexicon import Tok, words
from vac.intent.verb_cues import VERB_CUES

_PARTICLES: Final = frozenset(words("up out over together company"))  # "keep Grandpa company"
# The phrasal cues that may be split ("sort … out"), by their first word.
_SPLIT: Final[dict[str, frozenset[str]]] = {}
for _cue in VERB_CUES:
    _first, _, _last = _cue.partition(" ")
    if _last in _PARTICLES:
        _SPLIT[_first] = _SPLIT.get(_first, frozenset()) | {_last}
_OBJECTS: Final = frozenset(words("it them him her this that these those everything things"))
# Said like a name, in small letters too: "keep grandma company" (a typed probe).
KIN: Final = frozenset(
    words("grandma grandpa gran granny grandad granddad nan nana mum mom dad auntie aunty uncle")
    + words("mummy daddy")
)
_THING_MAX: Final = 3
# After the particle, these make it a place word: "up the stairs", "out there".
_PLACE_AFTER: Final = frozenset(words("there here of the a an my your our his her their"))


def _low(clause: Sequence[Tok], k: int) -> str:
    return clause[k].low if 0 <= k < len(clause) else ""


def _thing_end(clause: Sequence[Tok], k: int) -> int | None:
    """Where a short thing said from `k` ends, or None."""
    if _low(clause, k) in _OBJECTS:
        return k + 1
    named = k < len(clause) and (clause[k].text[:1].isupper() or clause[k].low in KIN)
    if _low(clause, k) not in lx.DETERMINERS and not named:
        return None
    end = k + 1
    while end < len(clause) and end - k <= _THING_MAX:
        low = clause[end].low
        if low in _PARTICLES:
            return end if end > k + 1 or named else None  # not "keep the company accounts"
        if low in lx.PUNCT or low in lx.VERB_FIRSTS or low in lx.DETERMINERS:
            return None
        end += 1
    return None


def particles_joined(clause: Sequence[Tok]) -> list[Tok]:
    """The clause with each split phrasal verb's particle back after its verb."""
    out = list(clause)
    for i, tok in enumerate(clause):
        particles = _SPLIT.get(tok.low)
        if particles is None or _low(clause, i + 1) in _PARTICLES:
            continue
        end = _thing_end(clause, i + 1)
        if end is None or _low(clause, end) not in particles:
            continue
        after = _low(clause, end + 1)
        if after in _PLACE_AFTER:
            continue  # "put the box up the stairs"
        out[i + 1 : end + 1] = [clause[end], *clause[i + 1 : end]]
    return out
