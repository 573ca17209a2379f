"""A reason said with a change to a draft, read out of it: "Kofi's busy, get
Zuri to do it" is "get Zuri to do it"; "she's busy sunday, do Monday" is
"do Monday". Said alone, the words are kept (no change is read from them).

Pure: text in, text out.
"""

from __future__ import annotations

import re
from typing import Final

# A reason said with a change, about who or when cannot: "Kofi's busy",
# "she's busy sunday", "Friday's no good" (a fourth typed probe: the change
# beside it was asked again), "shes busy sat", "the baby's asleep" (an eleventh). Its own part,
# between commas.
_ASIDE: Final = re.compile(
    r"^\s*(?:(?:cos|because|as|since|coz)\s+)?(?:(?:the|my|our)\s+)?"
    r"(?:(?:s?he|they)(?=s|re)|[\w']+?)"
    r"(?:'s|'re|s|re|\s+is|\s+are|\s+was|'ll\s+be|\s+will\s+be)\s+"
    r"(?:(?:too|very|really|a\s+bit|so|fast|sound)\s+)?(?:busy|away|out|off|sick|ill|tired"
    r"|booked|asleep|sleeping|napping|resting|no\s+good|not\s+good"
    r"|not\s+(?:around|free|home|in|well|available|possible))"
    r"\b[\w\s]{0,30}[.!]?$",
    re.IGNORECASE,
)


# ... or where someone is: "Kofi's at a funeral this week", "she's in Lagos till
# Friday" (a conversation probe: the place and time were the draft's, the
# name beside them dropped). A name or a pronoun, never "it's in the shed".
_AWAY: Final = re.compile(
    r"^\s*(?:(?i:cos|because|as|since|coz)\s+)?(?:[A-Z]\w+|[Hh]e|[Ss]he|[Tt]hey)"
    r"(?:'s|'re|\s+is|\s+are|'ll\s+be|\s+will\s+be)\s+(?i:at|in|on|away|travell?ing|visiting)\b"
    r"[\w\s']{0,40}$"
)


def without_asides(text: str) -> str:
    """`text` without the parts that only give a reason ("Kofi's busy, get
    Zuri to do it" → "get Zuri to do it"); as it was when nothing else is said."""
    parts = re.split(r"\s*[,;]\s*|\s+-\s+", text.strip())
    kept = [p for p in parts if p and not _ASIDE.match(p) and not _AWAY.match(p)]
    return ", ".join(kept) if kept and len(kept) < len([p for p in parts if p]) else text
