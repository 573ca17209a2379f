"""Two plans in one breath, one if something happens and one if not.

"If Imani's back before five, she can visit Mr Lee; if not, Abeni, you go"
drafted Abeni's visit with "if Imani's back before five", the opposite of
what was said (a typed probe): one objective holds one plan, and which
half a name after "if not" belongs to is not the parser's to guess. Such
a sentence is asked about, each half to be said as its own order. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Final

from vac.intent import calendar_words as cw
from vac.intent import lexicon as lx

# A condition first, then its other side: "…; if not, …", "…, otherwise …".
_EITHER_OR: Final = re.compile(
    r"^\W*(?:if|when|once|should|in\s+case)\b.+?[,;.]\s*"
    r"(?:and\s+|but\s+)?(?:if\s+not|if\s+(?:she|he|they|it)\s+(?:isn'?t|aren'?t|can'?t|doesn'?t|"
    r"don'?t|won'?t)|otherwise|failing\s+that)\b",
    re.IGNORECASE | re.DOTALL,
)

# Another thing to do instead, on a condition: "…, or the pond if the hives are fine".
_OR_IF: Final = re.compile(
    r",\s*or\s+(?:the|a|an|my|our|your)\s+(?P<thing>\w+(?:\s+\w+)?)\s+if\b", re.IGNORECASE
)
# Not a thing: "…, or the ceiling will collapse if…", "…, or the weekend if you're busy",
# "…, or the kitchen floods if…" (a review: each asked, and the order lost).
_NOT_A_THING: Final = frozenset(
    lx.words("will would 'll can could might may is are gets get morning afternoon evening")
    + lx.words("night weekend week day today tomorrow tonight month")
)


def _a_thing(words: str) -> bool:
    said = words.lower().split()
    if set(said) & _NOT_A_THING or any(w in cw.WEEKDAYS for w in said):
        return False
    return len(said) == 1 or not said[-1].endswith("s")


_SPEAKER: Final = frozenset(("i", "i'll", "i'd", "i'm", "we", "we'll", "we'd", "we're", "me"))

QUESTION: Final = (
    "That sounds like two plans, one if it happens and one if not. "
    "Say each as its own order, with its own condition "
    '("Kofi, fix the roof if it rains"). Who should do it?'
)


def either_or(text: str, names: Collection[str]) -> bool:
    """Whether `text` says a plan for a condition and another for its other
    side, the other one someone's or an order: a roster name, "you", or a
    verb of ours after "if not" ("…, otherwise it'll blow off" and "…; if
    not, tomorrow is fine" are one plan)."""
    if (other := _OR_IF.search(text)) is not None and _a_thing(other.group("thing")):
        return True  # "check the hives, or the pond if the hives are fine" (T27: the pond lost)
    said = _EITHER_OR.match(text)
    if said is None:
        return False
    rest = text[said.end() :]
    said_after = [w.lower() for w in re.findall(r"[\w']+", rest)]
    if set(said_after[:4]) & _SPEAKER:
        return False  # "…, otherwise I'll have to repair the ceiling": the speaker's own
    after = {w.removesuffix("'s") for w in said_after}
    if after & ({n.lower() for n in names} | {"you", "boys", "girls", "kids", "other"}):
        return True  # "…; if not, Abeni, you go", "…; otherwise Zuri's to check…"
    return lx.find_first(lx.tokenize(rest), lx.VERB_PHRASES) is not None  # "…; if not, check…"


__all__ = ["QUESTION", "either_or"]
