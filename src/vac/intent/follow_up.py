"""A change to the draft just read back, said as the next words: "no, I
said Kofi", "actually Friday", "make it urgent", "not the gate, the fence",
"and don't use the ladder", "yes please, but make it tomorrow".

The draft's own words are said again with the change after them, as the
parser already reads a change said in one breath: a correction after ", no,"
("Kofi, fix the gate, no, the fence", "…, no, by Friday", "Zuri, fix the
gate, no, Kofi"), an addition after a full stop ("Kofi, fix the gate.
Urgent.", "…. And don't use the ladder."). The runtime keeps the result only
when it is a draft that differs from the one pending, and the steward
confirms it like any other (`runtime.amend`). Before, such words got "I
heard you, but not what to do", and the next "yes" confirmed the draft
unchanged.

Not a change: a new order of its own ("Zuri, check the hives": its own
draft), a question, a reply alone ("yes please", "no thanks": the runtime
tests the change first and keeps it only when something changed). Pure:
strings in, a string out.
"""

from __future__ import annotations

import re
from typing import Final

from vac.intent.lexicon import asks, words
from vac.intent.tokens import raw_tokens

# A reply before the change: "yes please, but make it tomorrow".
_YES_THEN: Final = re.compile(
    r"^\s*(?:yes|yeah|yep|yup|ok|okay|sure|fine|right)(?:\s+please)?\s*[,.!]?\s*"
    r"(?=(?:and|but|just|only)\b)",
    re.IGNORECASE,
)
# Said first, these correct what was said: what follows replaces it.
_CORRECTING: Final = re.compile(
    r"^\s*(?:(?:(?:no|nope|nah)\s*[,.!]|(?:sorry|oops|actually|wait|rather|or rather|oh)\b"
    r"\s*[,.!]?)\s*)*"
    r"(?:(?:i|i've)\s+(?:meant|mean|said|say)\b\s*[,:]?\s*"
    r"|(?:(?:but|and)\s+)?(?:make|change)\s+(?:it|that|the\s+\w+)\s+(?:to\s+|into\s+)?"
    r"|let\s+(?=[A-Z]\w*\s+do\s+it\b))?",
    re.IGNORECASE,
)
# Said last: "ask Zuri instead", "Friday then please", "Zuri, you do it".
_TRAILING: Final = re.compile(
    r"(?:\s*[,.]?\s*(?:instead|rather|then|please|thanks|thank\s+you|not\s+(?:the\s+)?\w+|"
    r"(?:you|they|he|she)?\s*(?:can|should|could|will|to)?\s*do\s+it))+\s*[.!]?\s*$",
    re.IGNORECASE,
)
# "no Kofi" typed without a comma: a correction before a capital (a name).
_NO_NAME: Final = re.compile(r"^(?i:no|nope|nah)\s+(?=[A-Z])")
# An addition: more said about the same order.
_ADDING: Final = frozenset(words("and but also plus oh"))


def follow_up(text: str, draft_source: str, *, alone_is_order: bool) -> list[str]:
    """The draft's words with `text` said after them as a change, in the
    ways to try, first first; none when `text` is no change.

    `alone_is_order`: whether `text` parses as an order by itself (with a
    verb of its own): then only a correction replaces the draft ("no, ask
    Zuri to map the river instead"); an order said plainly is its own.
    """
    said = text.strip()
    if not re.search(r"\w", said) or not draft_source.strip():
        return []
    lows = [t.low for t in raw_tokens(said)]
    if asks(lows):  # "what did you hear?": no change
        return []
    said = _YES_THEN.sub("", said)
    corrected, no_name = _CORRECTING.match(said), _NO_NAME.match(said)
    cut = max(corrected.end() if corrected else 0, no_name.end() if no_name else 0)
    after = said[cut:]
    trailing = _TRAILING.search(after)
    rest = (after[: trailing.start()] if trailing else after).strip(" ,.;:!")
    if not rest:
        return []
    base = draft_source.strip().rstrip(".!?;, ")
    added = f"{base}. {rest[:1].upper()}{rest[1:]}."
    if lows[:1] and lows[0] in _ADDING and cut == 0:  # "and don't use the ladder"
        return [added]
    instead = trailing is not None and re.search(r"instead|rather|do\s+it", trailing.group(0), re.I)
    if alone_is_order and cut == 0 and not instead:
        return []  # a new order said plainly: its own draft
    # Said again after ", no,": what it names replaces the draft's ("by
    # Friday" the deadline said before it, "Zuri" the agent); else said
    # after it ("check with me first").
    return [f"{base}, no, {rest}", added]


__all__ = ["follow_up"]
