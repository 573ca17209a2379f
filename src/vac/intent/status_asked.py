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


_ASKS: Final = re.compile(
    r"^\W*(?:(?:so|ok|okay|and|um|hey)\W+)*(?:"
    r"what(?:'s|\s+is|\s+are)\s+(?:(?:still\s+)?(?:pending|waiting|open|outstanding|left|on\s+the\s+list)"
    r"|(?P<who>\w+)\s+(?:doing|up\s+to|working\s+on|busy\s+with))"
    r"|what\s+(?:have|did)\s+i\s+ask(?:ed)?(?:\s+for)?"
    r"|(?:list|show(?:\s+me)?)\s+(?:the\s+|my\s+|all\s+)?(?:drafts|jobs|objectives|tasks|orders)"
    r"|(?:is\s+)?any(?:thing)?\s+(?:pending|waiting)"
    r"|what\s+(?:jobs|drafts|tasks)\s+(?:are|is)\s+(?:there|open|waiting|pending)"
    r"|status(?:\s+update)?"
    r")\W*$",
    re.IGNORECASE,
)


def status_asked(text: str, names: Sequence[str]) -> StatusAsked | None:
    """What `text` asks of the work waiting, or None."""
    found = _ASKS.match(text)
    if found is None:
        return None
    who = found.group("who")
    if who is None:
        return StatusAsked(None)
    agent = next((n for n in names if n.lower() == who.lower()), None)
    return StatusAsked(agent) if agent is not None else None  # "what's everyone doing": no


__all__ = ["StatusAsked", "status_asked"]
