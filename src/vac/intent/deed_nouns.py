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
# After "on" / "to" only a thing with its article ("repairs to the fence"): not "do
# the repair to fix the leak", "do the check on time", "on the weekend" (a review).
_ARTICLES: Final = frozenset(lx.words("the a an my our your his her their this that these those"))
_NOT_THINGS: Final = frozenset(
    lx.words("weekend weekends cheap quiet sly side fly double spot go own")
)


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
        if verb is None or not _a_thing_after(clause, k + 1):
            continue
        return [*clause[:i], clause[k]._replace(low=verb), *clause[k + 2 :]]
    return list(clause)


_FIRSTS: Final = frozenset(p[0] for p in _FRAMES)


def _a_thing_after(clause: Sequence[Tok], k: int) -> bool:
    """ "of" and a thing, or "on" / "to" and a thing with its article, at `k`."""
    nxt, then = _low(clause, k + 1), _low(clause, k + 2)
    if _low(clause, k) == "of":
        return bool(nxt) and nxt not in lx.PUNCT
    owned = nxt.endswith("'s") and len(nxt) > 3  # "repairs to Grandma's fence"
    owned = owned or (k + 1 < len(clause) and clause[k + 1].text[:1].isupper())  # "on Grandma"
    return _low(clause, k) in ("on", "to") and (
        owned or (nxt in _ARTICLES and then.isalpha() and then not in _NOT_THINGS)
    )


def _low(clause: Sequence[Tok], k: int) -> str:
    return clause[k].low if 0 <= k < len(clause) else ""


__all__ = ["deed_nouns_said"]
