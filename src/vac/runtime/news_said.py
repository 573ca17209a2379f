"""Someone's news said as a change to the pending draft: "Nah, the
engineer's coming tomorrow" (a ninth typed probe: the draft became due
tomorrow). Its time is no change; with a "no" it is a no. What is said
after it is the change: "no, the plumber's coming Thursday, so do it by
Wednesday" (a review: it was answered "That sounds like news").

Pure: words in, words out.
"""

from __future__ import annotations

import re
from typing import Final

# A subject of its own and what they are doing ("the engineer's coming", "my
# brother is sorting it"); not "the fence is better".
_NEWS: Final = re.compile(
    r"^(?:the|our|my|his|her|their|your|a|an)\s+(?:[\w-]+\s+){0,2}?[\w-]+"
    r"(?:['’]s|\s+(?:is|are|was|were|will\s+be|'ll\s+be|['’]re))\s+"
    r"(?:\w+ing|back|home|here|due|away|off)\b",
    re.IGNORECASE,
)
_MORE: Final = re.compile(r"(?:[,;]\s*|\b)(?:(?:so|and|but|then)\b)?", re.IGNORECASE)


def after_news(rest: str) -> str | None:
    """None: `rest` (the words after "no," / "actually,") is no one's news;
    "": the news alone; else the words said after it."""
    if not _NEWS.match(rest.strip()):
        return None
    more = next((m for m in _MORE.finditer(rest) if m.group().strip()), None)
    return "" if more is None else rest[more.end() :].strip(" ,;")


__all__ = ["after_news"]
