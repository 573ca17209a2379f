"""Words that sound like an order but are talk: irony and the world's ills.

A blind typed probe (T24) found these drafted:

    "yeah right, like Imani's going to build a swimming pool"   (irony)
    "oh sure, Kofi will fix the gate, when pigs fly"            (irony)
    "honestly, someone should fix this country"                 (the world's ills)

Irony is told by its marks, said of someone of the household: "like
<NAME>'s going to…", "yeah right / oh sure, <NAME> will…", "as if <NAME>
would…", or "when pigs fly". Not "looks like it's going to freeze", nor
"oh right, Tariq, check the boiler, we'll need hot water" (a review). The
world's ills are a deed of ours on the country, the world, the economy or
the government, said last ("fix the country kitchen table" is a table).
Either is no order: the parser's "I heard you, but not what to do"
follows. Pure: text and the roster's names in, a yes or no out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

_PIGS: Final = re.compile(r"\bwhen\s+pigs\s+fly\b|\bin\s+your\s+dreams\b", re.IGNORECASE)
_WILL: Final = (
    r"(?:'ll|\s+will|\s+would|'d|'s\s+going\s+to|'s\s+gonna|\s+is\s+going\s+to|\s+is\s+gonna)"
)
_ILLS: Final = re.compile(
    r"\b(?:fix|fixes|repair|sort\s+out|save|change|mend)\s+(?:this|the|our|their)\s+"
    r"(?:country|world|economy|government|planet|society|politics|nation|universe)"
    r"(?:\s+(?:for\s+good|once\s+and\s+for\s+all))?\W*$",
    re.IGNORECASE,
)


def _irony(names: Iterable[str]) -> re.Pattern[str]:
    who = "|".join(re.escape(n) for n in names) or "(?!)"
    return re.compile(
        rf"\blike\s+(?:{who}){_WILL}\b"
        rf"|^\W*(?:yeah|oh|ah)[,\s]+(?:right|sure)[,\s]+(?:like\s+)?(?:{who}){_WILL}\b"
        rf"|^\W*as\s+if\s+(?:{who}){_WILL}\b",
        re.IGNORECASE,
    )


def idle(text: str, names: Iterable[str]) -> bool:
    """Whether `text` is irony or talk of the world's ills, no order."""
    return bool(_PIGS.search(text) or _irony(names).search(text) or _ILLS.search(text))


__all__ = ["idle"]
