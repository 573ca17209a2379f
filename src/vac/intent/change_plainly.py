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
# Said of the job ("…better for that", "…would be better"); not "Kofi's much
# better" (well again) nor "Tariq could be better" (a criticism): a review.
_BETTER: Final = re.compile(
    _LEAD + r"(?P<name>[a-z]+)(?:(?:\s+would|\s+might|'d|\s+may)\s+be\s+(?:better|best)"
    r"(?:\s+(?:at|for|with)\s+(?:that|this|it|the\s+job))?"
    r"|(?:'s|\s+is|\s+will\s+be|\s+could\s+be)\s+(?:better|best)"
    r"\s+(?:at|for|with)\s+(?:that|this|it|the\s+job))\W*$",
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
    _LEAD + r"i\s+(?:want|need|meant\s+for)\s+(?P<who>him|her|them|[a-z]+)\s+to\s+"
    rf"(?P<verb>{_CUE})\s+it(?:\W+(?:and\s+)?(?:not|rather\s+than)\s+(?:just\s+)?[a-z]+"
    r"(?:\s+(?:at|into))?(?:\s+it)?)?\W*$",
    re.IGNORECASE,
)
# "…, mind you", "…, mind", "…, like", "…, though" after a haste: no part of the
# change (not "…, if you don't mind": a review).
_SAID_AFTER: Final = re.compile(
    r"\b(urgent|rush|priority|important)\W*\s+(?:mind(?:\s+you)?|like|though)\W*$", re.I
)
# Words of a state after "make it", no deed: "make it secure" (a review: Protect).
_STATES: Final = frozenset({"secure", "safe", "sure", "certain", "welcome"})


def plainly(said: str, pending: Objective, names: Collection[str]) -> str:
    """`said` as a plain change of the draft `pending`, or as is."""
    agents = {n.lower(): n for n in names}
    told = pending.source_text.lower()
    for form in (_BETTER, _LEFT_WITH):
        found = form.match(said)
        name = None if found is None else agents.get(found["name"].lower())
        if name is not None and name != pending.agent and name.lower() not in told:
            return f"no, {name}"  # not "give it to Zuri" when the draft is Zuri's bike (a review)
    for form in (_MADE, _NOT_THIS, _WANTED):
        found = form.match(said)
        verb = None if found is None else found["verb"].lower()
        who = (found.groupdict().get("who") or "her") if found is not None else "her"
        if who.lower() not in ("him", "her", "them", pending.agent.lower()):
            continue  # "I want Kofi to check it", Tariq's draft: whose? (a review)
        if (
            verb is not None
            and verb not in _STATES
            and VERB_CUES.get(verb) not in (None, pending.verb)
        ):
            return f"no, {verb} it"
    return _SAID_AFTER.sub(r"\1", said)


__all__ = ["plainly"]
