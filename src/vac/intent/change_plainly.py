"""A change to the pending draft said in everyday words, said plainly.

A conversation probe (T23c) found these no change ("I didn't change
anything…"), and the yes after them confirmed the draft as it was:

    "Tariq would be better for that", "Kofi might be better",
    "Zuri's better at that", "leave it with Kofi"        → "no, Tariq"
    "make it repair", "not look into, repair",
    "I want her to fix it, not just look"                 → "no, fix it"
    "it's urgent, mind you", "it's urgent mind"           → "it's urgent"

The plain words are then read as any change is (`intent.follow_up`). Only
a roster name other than the draft's agent, and only a verb of ours other
than the draft's. Pure: words in, words out.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Final

from vac.intent.verb_cues import VERB_CUES
from vac.protocol.objective import Objective

_LEAD: Final = r"^\W*(?:(?:hmm+|um+|uh+|er+|actually|no|oh|well|wait|i\s+think)\W+)*"
_CUE: Final = "|".join(re.escape(c) for c in sorted(VERB_CUES, key=len, reverse=True))
_BETTER: Final = re.compile(
    _LEAD + r"(?P<name>[a-z]+)(?:'s|\s+is|\s+would\s+be|\s+might\s+be|'d\s+be|\s+will\s+be"
    r"|\s+may\s+be|\s+could\s+be)\s+(?:(?:much|a\s+lot|way)\s+)?(?:better|best)"
    r"(?:\s+(?:at|for|with)\s+(?:that|this|it|the\s+job))?\W*$",
    re.IGNORECASE,
)
_LEFT_WITH: Final = re.compile(
    _LEAD + r"(?:leave|give|hand|pass)\s+(?:it|that|this|the\s+job)\s+(?:with|to|over\s+to)\s+"
    r"(?P<name>[a-z]+)\W*$",
    re.IGNORECASE,
)
_MADE: Final = re.compile(
    _LEAD + rf"make\s+it\s+(?:a\s+)?(?P<verb>{_CUE})(?:\s+(?:job|instead))?\W*$", re.IGNORECASE
)
_NOT_THIS: Final = re.compile(
    _LEAD + rf"not\s+(?:just\s+)?(?:to\s+)?(?:{_CUE})(?:\s+it)?\W+(?:but\s+|just\s+)?"
    rf"(?P<verb>{_CUE})(?:\s+it)?\W*$",
    re.IGNORECASE,
)
_WANTED: Final = re.compile(
    _LEAD + r"i\s+(?:want|need|meant\s+for)\s+(?:him|her|them|[a-z]+)\s+to\s+"
    rf"(?P<verb>{_CUE})\s+it(?:\W+(?:and\s+)?(?:not|rather\s+than)\s+(?:just\s+)?[a-z]+"
    r"(?:\s+(?:at|into))?(?:\s+it)?)?\W*$",
    re.IGNORECASE,
)
# "…, mind you", "…, mind", "…, like", "…, though": said after, no part of the change.
_SAID_AFTER: Final = re.compile(r",?\s+(?:mind(?:\s+you)?|like|though)\W*$", re.IGNORECASE)


def plainly(said: str, pending: Objective, names: Collection[str]) -> str:
    """`said` as a plain change of the draft `pending`, or as is."""
    agents = {n.lower(): n for n in names}
    for form in (_BETTER, _LEFT_WITH):
        found = form.match(said)
        name = None if found is None else agents.get(found["name"].lower())
        if name is not None and name != pending.agent:
            return f"no, {name}"
    for form in (_MADE, _NOT_THIS, _WANTED):
        found = form.match(said)
        verb = None if found is None else found["verb"].lower()
        if verb is not None and VERB_CUES.get(verb) not in (None, pending.verb):
            return f"no, {verb} it"
    return _SAID_AFTER.sub("", said) if re.search(r"\burgent\b|\brush\b", said, re.I) else said


__all__ = ["plainly"]
