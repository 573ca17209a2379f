"""A note written thing first, the one to do it last: "gate fix pls kofi",
"fence repair please Tariq", "tap fix kofi asap".

The parser reads the verb, then its thing: here the name after the verb
was taken for the thing, and the order went to the default agent ("Abeni
will repair Kofi", a sixteenth typed probe, T23). Said as the plain order
("kofi, fix the gate pls") it reads as meant. Only when the words before
the verb are a short thing (no name, no determiner, no other word of ours)
and the words after it are one roster name and courtesies or a time word.

Pure: text in, text out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from vac.intent import lexicon as lx
from vac.intent.verb_cues import ONE_WORD_CUES as _VERBS

_WORD: Final = re.compile(r"[A-Za-z']+")
_THING_MAX_WORDS: Final = 3
# What may stand with the name after the verb.
_BESIDE_THE_NAME: Final = frozenset(
    lx.words("pls plz please asap now today tonight tomorrow thanks thx ta urgently quickly")
)
# Before the verb, no thing: "nice fix kofi", "great report today zuri", "sorry
# fix kofi" are praise or a remark (a review: "Kofi will repair great").
_NOT_A_THING: Final = frozenset(
    lx.words("i we you he she they it the a an my our your his her their this that pls please")
    + lx.words(
        """nice good great well done sorry no not thanks brilliant lovely excellent
        awesome amazing perfect bad terrible poor cool fine best worst quick what"""
    )
)


def as_order(text: str, names: Iterable[str]) -> str | None:
    """The plain order a thing-first note means, or None."""
    if re.search(r"[,;:?]", text):
        return None  # a sentence with parts: the parser's
    said = _WORD.findall(text)
    lows = [w.lower() for w in said]
    agents = {n.lower(): n for n in names}
    at = next((k for k, w in enumerate(lows) if w in _VERBS), None)
    if at is None or not 1 <= at <= _THING_MAX_WORDS + 1:
        return None
    start = int(lows[0] in ("the", "my", "our"))  # "the gate fix kofi"
    thing, after = lows[start:at], lows[at + 1 :]
    if not thing or {*thing} & (_NOT_A_THING | {*agents} | _VERBS):
        return None
    named = [w for w in after if w in agents]
    if len(named) != 1 or not {*after} - {*named} <= _BESIDE_THE_NAME:
        return None
    rest = " ".join(w for w in said[at + 1 :] if w.lower() not in agents)
    return f"{agents[named[0]]}, {lows[at]} the {' '.join(said[start:at])} {rest}".strip()


__all__ = ["as_order"]
