"""A change to the pending draft said in everyday words, said plainly.

A conversation probe (T23c) found these no change ("I didn't change
anything…"), and the yes after them confirmed the draft as it was:

    "Tariq would be better for that", "Kofi might be better",
    "Zuri's better at that", "leave it with Kofi"        → "no, Tariq"
    "make it repair", "not look into, repair",
    "I want her to fix it, not just look"                 → "no, fix it"
    "it's urgent, mind you", "it's urgent mind"           → "it's urgent"
    "not the 5th, the 15th" (T25c)                        → "make it the 15th"
    "no — Tariq, and it's urgent" (T25c)                  → "no, Tariq, and it's urgent"
    "make sure it's done by Friday"                       → "by Friday"

The plain words are then read as any change is (`intent.follow_up`). Only
a roster name other than the draft's agent, and only a verb of ours other
than the draft's. `named_not_taken`: a change that says another agent is
to do it but was read without them is asked again, never half applied.
Pure: words in, words out.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Final

from vac.intent.verb_cues import CUES_PATTERN as _CUE
from vac.intent.verb_cues import VERB_CUES
from vac.protocol.objective import Objective

_LEAD: Final = r"^\W*(?:(?:hmm+|um+|uh+|er+|actually|no|oh|well|wait|i\s+think)\W+)*"
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
# "not the 5th, the 15th", "not Monday, Tuesday": the day said instead (T25c: "I couldn't
# change the draft")
_DAY_INSTEAD: Final = re.compile(
    _LEAD + r"not\s+(?:the\s+|on\s+|by\s+)?(?:\d{1,2}(?:st|nd|rd|th)|\w+day|tomorrow|tonight|today)"
    r"\s*[,—–-]\s*(?:but\s+|it's\s+)?(?P<day>(?:the\s+)?"
    r"\d{1,2}(?:st|nd|rd|th)|monday|tuesday|wednesday|thursday|friday|saturday|sunday"
    r"|tomorrow|tonight|today)\W*$",
    re.IGNORECASE,
)
# "make sure it's done by Friday": the time (a review of T25c's fixes: no change)
_DONE_BY: Final = re.compile(
    r"^\W*(?:(?:and|oh|also)\W+)?(?:make\s+sure|see\s+that)\s+(?:it's|it\s+is|that's|it\s+gets)\s+"
    r"(?:done|finished|ready|sorted|fixed)\s+(?P<when>(?:by|before|for|on)\s+[^,.;!?]+?)\W*$",
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
    # "no — Tariq, and it's urgent": the dash a comma (T25c: "I didn't change anything")
    said = re.sub(
        r"^(\W*(?:no|nah|nope|actually|sorry|wait))\s*[—–]+\s*", r"\1, ", said, flags=re.I
    )
    agents = {n.lower(): n for n in names}
    told = pending.source_text.lower()
    for form in (_BETTER, _LEFT_WITH):
        found = form.match(said)
        name = None if found is None else agents.get(found["name"].lower())
        if name is not None and name != pending.agent and name.lower() not in told:
            return f"no, {name}"  # not "give it to Zuri" when the draft is Zuri's bike (a review)
    if (day := _DAY_INSTEAD.match(said)) is not None:
        return f"make it {day['day']}"
    if (done := _DONE_BY.match(said)) is not None:
        return re.sub(r"^for\b", "by", done["when"], flags=re.I)  # "ready for Monday"
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


# A name said as the one to do it, a part of its own: "no, Imani", "give it to Imani
# instead", "let Zuri"; not "make it Friday, Kofi needs the van" (a review).
_TAKER: Final = (
    r"(?:(?:no|nah|actually|or|sorry|ok|okay|right)\s+)*(?:(?:give|hand|pass|leave)\s+"
    r"(?:it|that|this|the\s+job)\s+(?:to|with|over\s+to)\s+|(?:let|ask|get|have)\s+)?"
)


def named_not_taken(said: str, new: Objective, was: Objective, names: Collection[str]) -> bool:
    """Whether a change that names another agent as the one to do it left the
    draft's agent as it was: "give it to Imani instead, and Monday's fine, no
    rush" drafted Zuri's, by Monday (a conversation probe, T25c; the yes then
    confirmed Zuri). Then the change is asked again, never half applied."""
    told = was.source_text.lower()
    parts = [p.strip(" .!?") for p in re.split(r",|—|–|\band\b", said)]
    for name in names:
        if name == was.agent or name.lower() in told:
            continue
        who = re.escape(name)
        if any(re.fullmatch(rf"(?:{_TAKER})?{who}(?:\s+instead)?", p, re.I) for p in parts):
            return new.agent == was.agent  # "no, Imani, and…", "give it to Imani instead, and…"
    return False


__all__ = ["named_not_taken", "plainly"]
