"""Whether words ask what is waiting or what an agent is doing: "what's
pending?", "what's Kofi doing?", "list the drafts", "what have I asked
for?". A conversation probe (T22c) found each answered "I only pass on
requests", with nothing said of what was waiting; the runtime now answers
with the session's drafts and the steward's open objectives. Pure: words
and the roster's names in, what was asked out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final, NamedTuple


class StatusAsked(NamedTuple):
    """A question about what waits; `agent`: about that agent's only."""

    agent: str | None
    again: bool = False  # "say that again", "read that back": what was said last, again


_ASKS: Final = re.compile(
    r"^\W*(?:(?:so|ok|okay|and|um|hey)\W+)*(?:"
    r"what(?:'s|\s+is|\s+are)\s+(?:(?:still\s+)?(?:pending|waiting|open|outstanding|left|on\s+the\s+list)"
    r"|(?P<who>\w+)\s+(?:doing|up\s+to|working\s+on|busy\s+with))"
    r"|what\s+(?:have|did)\s+i\s+ask(?:ed)?(?:\s+for)?"
    r"|(?:list|show(?:\s+me)?)\s+(?:the\s+|my\s+|all\s+)?(?:drafts|jobs|objectives|tasks|orders)"
    r"|(?:is\s+)?any(?:thing)?\s+(?:pending|waiting)"
    r"|what\s+(?:jobs|drafts|tasks)\s+(?:are|is)\s+(?:there|open|waiting|pending)"
    r"|status(?:\s+update)?"
    # A conversation probe (T23c): each got "I only pass on requests" or the verbs.
    r"|what(?:'s|\s+is|\s+has)\s+(?P<has>\w+)\s+got(?:\s+going)?\s+on"
    r"|what(?:'s|\s+is)\s+on\s+(?P<plate>\w+)'s\s+plate"
    r"|how(?:'s|\s+is|\s+are)\s+(?:everyone|everybody|everything|things|the\s+team)"
    r"\s+(?:doing|getting\s+on|going)"
    r"|who(?:'s|\s+is)\s+(?:busy|working)(?:\s+(?:today|now|at\s+the\s+moment|right\s+now))?"
    r"|(?:is\s+)?there\s+any(?:thing)?\s+(?:pending|waiting)(?:\s+for\s+me)?"
    r"|(?:is\s+)?any(?:thing)?\s+(?:pending|waiting)\s+for\s+me"
    r"|(?P<again>(?:sorry\W+)?(?:can\s+you\s+|could\s+you\s+|please\s+)?(?:read|say)\s+(?:that|it)"
    r"\s+(?:back|again)(?:\s+please)?|repeat\s+(?:that|it)(?:\s+please)?"
    r"|what\s+did\s+(?:i|you)\s+(?:just\s+)?say"
    # A conversation probe (T28c): each got "I heard you, but not what to do".
    r"|(?:sorry\W+)?(?:say\s+again|pardon(?:\s+me)?|come\s+again|what\s+was\s+that(?:\s+again)?"
    r"|sorry\s*\?|excuse\s+me\s*\?|repeat(?:\s+please)?|one\s+more\s+time)(?:\s+please)?)"
    r")\W*$",
    re.IGNORECASE,
)


def status_asked(text: str, names: Sequence[str]) -> StatusAsked | None:
    """What `text` asks of the work waiting, or None."""
    found = _ASKS.match(text)
    if found is None:
        return None
    who = found.group("who") or found.group("has") or found.group("plate")
    if who is None or who.lower() in _ALL:
        return StatusAsked(None, again=found.group("again") is not None)  # "…everyone doing?"
    agent = next((n for n in names if n.lower() == who.lower()), None)
    return StatusAsked(agent) if agent is not None else None  # "what's everyone doing": no


_ALL: Final = frozenset({"everyone", "everybody", "everything", "they", "all"})


__all__ = ["StatusAsked", "status_asked"]
