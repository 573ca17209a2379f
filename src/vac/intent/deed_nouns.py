"""An order said with its deed as a noun: "see to the repair of the shed
roof", "undertake the repair of…", "carry out an inspection of the
boiler", "handle the mapping of the field".

Read as the plain order ("repair the shed roof"). A blind probe (T29, very
formal English): "see to the repair of the shed roof" was a Support of
"Repair of the shed roof", "undertake / carry out the repair of…" asked
what to do. Only a frame that does nothing of its own, then an article, at
most one word of how, the deed's noun and "of" / "on" / "to" with a thing
after it; "do a repair of" and the like, read as cues already, stay as
they are. The tokens keep their offsets into what was said. Pure: tokens
in, tokens out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from vac.intent import lexicon as lx
from vac.intent.lexicon import Tok

_FRAMES: Final = lx.phrases(
    [
        *("see to", "undertake", "carry out", "do", "handle", "arrange", "organise"),
        *("organize", "take care of", "oversee", "perform", "conduct", "complete"),
        *("get on with", "start on", "sort out", "see about", "deal with", "proceed with"),
    ]
)
_DEEDS: Final = {
    **dict.fromkeys(("repair", "repairs", "fixing", "mending", "maintenance"), "repair"),
    **dict.fromkeys(("inspection", "investigation", "check", "checkup", "examination"), "check"),
    **dict.fromkeys(("survey", "mapping"), "map"),
    **dict.fromkeys(("construction", "building"), "build"),
    "protection": "protect",
    "guarding": "guard",
}
_HOW: Final = frozenset(lx.words("full quick proper thorough careful urgent necessary needed"))
_OF: Final = frozenset(lx.words("of on to"))


def deed_nouns_said(clause: Sequence[Tok]) -> list[Tok]:
    """The clause with the first deed said as a noun read as its verb."""
    for i, tok in enumerate(clause):
        frame = lx.phrase_at(clause, i, _FRAMES) if tok.low in _FIRSTS else None
        if frame is None:
            continue
        k = i + len(frame)
        if _low(clause, k) not in ("the", "a", "an", "some", "any"):
            continue
        k += 1 + (_low(clause, k + 1) in _HOW)  # "carry out a thorough inspection of"
        verb = _DEEDS.get(_low(clause, k))
        thing = _low(clause, k + 2)
        if verb is None or _low(clause, k + 1) not in _OF or not thing or thing in lx.PUNCT:
            continue
        return [*clause[:i], clause[k]._replace(low=verb), *clause[k + 2 :]]
    return list(clause)


_FIRSTS: Final = frozenset(p[0] for p in _FRAMES)


def _low(clause: Sequence[Tok], k: int) -> str:
    return clause[k].low if 0 <= k < len(clause) else ""


__all__ = ["deed_nouns_said"]
