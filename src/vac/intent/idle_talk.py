"""Words that sound like an order but are talk: irony and the world's ills.

A blind typed probe (T24) found these drafted:

    "yeah right, like Imani's going to build a swimming pool"   (irony)
    "oh sure, Kofi will fix the gate, when pigs fly"            (irony)
    "honestly, someone should fix this country"                 (the world's ills)

Irony is told by its marks: "yeah right" / "oh sure" / "as if" before the
deed, "like <someone>'s going to…", "when pigs fly". The world's ills are a
deed of ours on a thing no household agent can touch (the country, the
world, the economy, the government). Either is no order: the parser's
"I heard you, but not what to do" follows. Pure: text in, a yes or no out.
"""

from __future__ import annotations

import re
from typing import Final

_IRONY: Final = re.compile(
    # "oh sure, Kofi will fix it": said of the future; not "yeah sure, Kofi, fix the gate"
    r"^\W*(?:yeah|oh|ah)[,\s]+(?:right|sure)\b.*\b(?:will|'ll|going\s+to|gonna)\b"
    r"|\blike\s+[a-z]+(?:'s|\s+is|\s+are|'re)\s+(?:going\s+to|gonna|ever\s+going\s+to)\b"
    r"|\bwhen\s+pigs\s+fly\b|^\W*as\s+if\b|\bin\s+your\s+dreams\b",
    re.IGNORECASE,
)
_ILLS: Final = re.compile(
    r"\b(?:fix|fixes|repair|sort\s+out|save|change|mend)\s+(?:this|the|our|their)\s+"
    r"(?:country|world|economy|government|planet|system|society|politics|nation|universe)\b",
    re.IGNORECASE,
)


def idle(text: str) -> bool:
    """Whether `text` is irony or talk of the world's ills, no order."""
    return _IRONY.search(text) is not None or _ILLS.search(text) is not None


__all__ = ["idle"]
