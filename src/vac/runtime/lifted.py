"""A boundary the steward drew, lifted by the next words.

"Kofi, fix the roof, don't use the ladder" → "oh, he can use the ladder
after all", "forget the ladder bit", "the ladder is fine": the line about
the ladder goes, the rest of the draft stays (two conversation probes: each
changed nothing, and a yes then confirmed the boundary the steward had just
lifted). The words must name one line the steward drew, by the words of
what it forbids; a line no words name, or two, is no lift. The last line
lifted leaves the default one (an objective always has one). Pure: words
and lines in, lines out.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from typing import Final

from vac import intent
from vac.intent.forbidden import DEFAULT_FORBIDDEN_LINE
from vac.intent.spoken import is_default_line
from vac.protocol.objective import ForbiddenLine

_LEAD: Final = r"^\W*(?:(?:oh|ok|okay|actually|wait|well|hmm|yeah|and|but|so|sorry)\W+)*"
_TAIL: Final = (
    r"(?:\W+(?:after\s+all|actually|now|then|too|if\s+(?:he|she|they)\s+needs?\s+to"
    r"|if\s+(?:he|she|they)\s+(?:has|have|wants?)\s+to|that'?s\s+fine|please))*\W*$"
)
# "he can use the ladder", "she's allowed to take the car", "it's fine to use
# the ladder": a permission, its verb one of `_MAY_VERBS` (not "he could fall
# off the ladder", a worry; not "he can stay off the ladder", the line's own)
_MAY: Final = re.compile(
    _LEAD + r"(?:(?P<who>\w+)\s+(?:can|may|is\s+allowed\s+to|are\s+allowed\s+to"
    r"|'s\s+allowed\s+to)|(?:it'?s|that'?s|it\s+is)\s+(?:fine|ok|okay|alright)\s+"
    r"(?:for\s+(?:him|her|them)\s+)?to)\s+(?:use|take|have|climb|go\s+(?:on|in|into|up)|drive"
    r"|bring|borrow|touch|open|enter|spend|buy|ride)\s+(?P<what>.+?)" + _TAIL,
    re.IGNORECASE,
)
# "forget the ladder bit", "never mind about the car", "drop the rule about
# the ladder": the line named as a line ("skip the ladder" agrees with it)
_DROP: Final = re.compile(
    _LEAD + r"(?:(?:forget|never\s+mind)\s+about\s+(?P<about>.+?)"
    r"|(?:forget|never\s+mind|drop|scrap|ignore|lift)\s+(?:the\s+(?:rule|bit|part|ban|limit)\s+"
    r"about\s+(?P<rule>.+?)|(?P<what>.+?)\s+(?:bit|part|rule|ban|limit)))" + _TAIL,
    re.IGNORECASE,
)
# "the ladder is fine after all", "weapons are allowed": "after all" or
# "allowed" said ("the gate is fine" may be news about the gate)
_FINE: Final = re.compile(
    _LEAD + r"(?P<what>.+?)(?:\s+is|\s+are|'s)\s+(?:(?:fine|ok|okay|alright)\s+after\s+all"
    r"|allowed)" + _TAIL,
    re.IGNORECASE,
)
_SUBJECTS: Final = frozenset(("he", "she", "they", "you"))
_NEGATED: Final = re.compile(
    r"\b(?:no|not|nobody|never|nothing|none|neither|nor|mustn'?t|shouldn'?t|can'?t|cannot"
    r"|won'?t|don'?t|no\s+one)\b|n't\b",
    re.IGNORECASE,
)
_NAMELESS: Final = frozenset(
    [
        "the",
        "a",
        "an",
        "his",
        "her",
        "their",
        "my",
        "our",
        "any",
        "some",
        "of",
        "it",
        "that",
        "this",
        "do",
        "not",
        "no",
        "don't",
        "never",
    ]
)
# Words of a line that say it is a line, not what it forbids.
_OF_A_LINE: Final = frozenset(
    ["do", "not", "no", "don't", "never", "avoid", "stay", "off", "away", "from", "use", "take"]
)


def _words(text: str) -> set[str]:
    """Its words that name something, plurals as one ("ladders", "ladder")."""
    said = re.findall(r"[a-z0-9']+", text.lower())
    return {_one(w) for w in said if w not in _NAMELESS}


def _one(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def lifted(
    text: str, lines: Sequence[ForbiddenLine], names: Collection[str] = ()
) -> list[ForbiddenLine] | None:
    """The lines left when `text` lifts one of `lines` the steward drew, or None."""
    drawn = [f for f in lines if not is_default_line(f)]
    if not drawn or "?" in text or _NEGATED.search(text.lower().replace("never mind", "")):
        return None  # "can he use the ladder?" asks; "no one can use the ladder" agrees
    for pattern in (_MAY, _DROP, _FINE):
        said = pattern.match(text.strip())
        if said is None:
            continue
        who = said.groupdict().get("who")
        if who and who.lower() not in _SUBJECTS | {n.lower() for n in names}:
            continue  # "no one can…" (negated), "the kids can use the ladder": not the agent
        named = next(v for k, v in said.groupdict().items() if v is not None and k != "who")
        what = _words(named) - {n.lower() for n in names}
        if not what - _OF_A_LINE or len(what) > 4:
            continue  # "he can use it": which line?
        hits = [f for f in drawn if what <= _words(f.text)]
        if len(hits) != 1:
            continue
        left = [f for f in lines if f is not hits[0]]
        return left if any(not is_default_line(f) for f in left) else [DEFAULT_FORBIDDEN_LINE]
    return None


def heard_surely(confidence: float, evidence: intent.Evidence | None) -> bool:
    """Typed, or spoken as surely as a yes with every word at 0.5 or more: a
    lift takes a boundary away, and a misheard one must not."""
    if evidence is None or not evidence.words:
        return True
    sure = confidence >= intent.SPOKEN_CONFIRM_MIN_CONFIDENCE
    return sure and min(w.prob for w in evidence.words) >= _WORD_FLOOR


# A spoken lift or pick's yes: every word at least this sure (the verb slot's is 0.3).
_WORD_FLOOR: Final = 0.5

__all__ = ["heard_surely", "lifted"]
