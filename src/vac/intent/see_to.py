"""What "see to", "attend to" and "tend to" ask: a repair of a thing said
to be broken ("attend to the dripping tap", "see to the broken gate"; a
fourteenth typed probe drafted Support) or of a fixture of the house ("see
to the gutter", "tend to the boiler"; a fifteenth), else Support ("see to
the goats", "attend to Gran's broken arm"). Pure: tokens in, a verb out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from vac.intent import lexicon as lx
from vac.intent.lexicon import Tok, words
from vac.intent.when_match import word_at
from vac.protocol.objective import Verb

# Cues that say to take care of something, whatever it needs: before a thing
# said to be broken, that is a repair ("attend to the dripping tap", "see to
# the broken gate"; a fourteenth typed probe: Support); else Support.
_SEE_TO: Final = frozenset({("see", "to"), ("attend", "to"), ("tend", "to")})
_BROKEN: Final = frozenset(
    words("""broken dripping leaking leaky cracked loose wobbly squeaky squeaking blocked jammed
    faulty damaged burst flickering rotten rotting bust busted""")
)


# A part of the house that only ever needs repairing, said last in its thing.
_FIXTURES: Final = frozenset(
    words("""gutter gutters tap taps boiler drain drains pipe pipes leak leaks radiator
    radiators heater toilet sink fuse fuses hinge hinges lock locks roof""")
)
_THEN: Final = frozenset(words("today tonight tomorrow by before please asap and then"))


_BODY: Final = frozenset(
    words("""heart hearted arm arms leg legs hip wrist ankle bone bones rib ribs nose lip lips
    finger fingers toe toes back neck shoulder knee tooth teeth skin wing paw""")
)


def verb_meant(hit: tuple[int, tuple[str, ...]], clause: Sequence[Tok]) -> Verb:
    """The verb of the cue at `hit`: a repair for "see to" a broken thing."""
    verb = lx.verb_of(hit[1])
    if hit[1] not in _SEE_TO:
        return verb
    k = hit[0] + len(hit[1])
    for j in range(k, min(k + 4, len(clause))):  # "the old broken gate", "Zuri's broken bike"
        if clause[j].low in lx.PUNCT or clause[j].low in _WHO:
            break  # "Gran who is…", "the dog that's…": someone described
        if clause[j].low in _BROKEN:
            hurt = word_at(clause, j + 1) in _BODY and word_at(clause, j + 2) not in _OF_A_THING
            return verb if hurt or word_at(clause, j + 1) == "heart" else "Repair"
        last = (
            j + 1 >= len(clause) or clause[j + 1].low in lx.PUNCT or word_at(clause, j + 1) in _THEN
        )
        if clause[j].low in _FIXTURES and last:
            return "Repair"  # "see to the gutter", "tend to the boiler" (a typed probe, T22)
    return verb


# After a body part's word, these make it a thing's part: "the broken arm of
# the sofa", "the broken back door", "the broken wing mirror" (a review).
_OF_A_THING: Final = frozenset(words("of door gate step window mirror wall fence seat"))
_WHO: Final = frozenset(words("who who's that that's which"))
