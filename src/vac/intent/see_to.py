"""What "see to", "attend to" and "tend to" ask: a repair of a thing said
to be broken ("attend to the dripping tap", "see to the broken gate"; a
fourteenth typed probe drafted Support), else Support ("see to the goats",
"attend to Gran's broken arm"). Pure: tokens in, a verb out.
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
    stuck faulty damaged burst flickering rotten rotting bust busted""")
)


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
    k += word_at(clause, k) in ("the", "a", "an", "that", "this", "our", "my")
    if word_at(clause, k) in _BROKEN and word_at(clause, k + 1) not in _BODY:
        return "Repair"  # not "Gran's broken arm", "the broken heart of…" (a review: Repair)
    return verb
