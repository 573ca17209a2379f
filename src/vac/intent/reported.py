"""An order someone else gave, told to vac: "My neighbour keeps saying
someone should check the drains", "Dad used to say fix the roof before it
rains", "He said, and I quote, 'Tariq, map the caves.'": said often,
quoted, or of "someone".

A typed probe (T27) found each drafted, mostly for the default agent: the
words inside the report were read as the steward's own order. They are
what someone said, told: vac asks who should do it, and the name answered
takes the place of the report's words ("Kofi" → "Kofi fix the roof
before it rains"). The speaker's own "I said …" is theirs (an order said again), an
order passed on ("the landlord said to fix the roof") is an order, and
"Kofi said he'd fix the gate" is asked elsewhere. An agent named for the
order, unquoted, is its own ("The plumber thinks the pipe is cracked. Kofi,
fix the pipe": a review found it asked, and the answer asked again). Pure:
text in.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final, NamedTuple

from vac.intent import lexicon as lx

_FRAME: Final = re.compile(
    r"^\W*(?P<who>(?:[A-Za-z']+\s+){0,5}?[A-Za-z']+)\s+"
    r"(?:(?P<habit>keeps\s+saying|kept\s+saying|was\s+saying|were\s+saying|used\s+to\s+say"
    r"|has\s+been\s+saying|always\s+says|reckons|thinks)|said|says|told\s+(?:me|us))"
    r"(?P<quote>\s*,?\s*and\s+i\s+quote)?\s*[,:]?\s*(?:that\s+)?"
    r"(?P<someone>(?:someone|somebody|we|you)\s+(?:should|needs?\s+to|ought\s+to|must|has\s+to)"
    r"\s+)?(?:to\s+)?(?P<quoted>[\"“‘]|'(?=[A-Z]))?",
    re.IGNORECASE,
)
# The steward asking for it after the report.
_ASKED: Final = re.compile(
    r"\b(?:can|could|would|will)\s+(?:someone|somebody|anyone|you)\b|\bplease\b", re.I
)
# The speaker, or the one addressed: "I said fix the gate", "like I told you".
_OWN: Final = frozenset({"i", "i've", "i'd", "we", "you", "like i", "as i"})
QUESTION: Final = "That sounds like something someone else said. Who should do it?"


class Reported(NamedTuple):
    said: str  # the report's words before the order ("Dad used to say")
    quoted: bool  # the order in quotes ("He said, and I quote, 'Tariq, …'"): even one named


def reported(text: str, names: Iterable[str]) -> Reported | None:
    """The report before an order someone else gave, or None. Whoever said
    it is no roster agent and says no order ("Kofi build a sign that says
    bye": Kofi's)."""
    found = _FRAME.match(text)
    if found is None or found.group("who").lower() in _OWN:
        return None
    if not (found["habit"] or found["quote"] or found["someone"] or found["quoted"]):
        return None  # "the landlord said to fix the roof": an order passed on, as before
    who = found.group("who").lower().split()
    if who[-1] in ("i", "we", "you"):
        return None  # "like I said", "as we said"
    if set(who) & ({n.lower() for n in names} | lx.VERB_FIRSTS):
        return None
    if _ASKED.search(text, found.end()):
        return None  # "the plumber told me to check the boiler, can someone do it": asked
    return Reported(text[: found.end()].rstrip(), bool(found["quote"] or found["quoted"]))


__all__ = ["QUESTION", "Reported", "reported"]
