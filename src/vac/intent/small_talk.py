"""A day said in small talk before the order is not its deadline: "I saw
your sister on Monday. Fix the gate", "The match is on Saturday. Fix the
gate".

A typed probe (T28) found each drafted with that day ("…by Monday"). The
order's own sentence says when; what came before it, with no verb of ours,
is read for the names it holds only ("Tariq, Please fix the garden gate").
A time said alone first ("By Friday. Kofi, fix the gate.") is the order's
and is kept, and so is today ("Kofi, I'm so tired today. Please fix the
bedroom door": a tenth typed probe's choice, `intent.reading`). Pure:
text in.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from vac.intent import lexicon as lx

_SENTENCES: Final = re.compile(r"(?<=[.?!])\s+")
# A sentence that says only when: "By Friday.", "Tomorrow, please."
_TIME_FIRST: Final = frozenset(
    lx.words("by before until till on at in tomorrow tonight today next this")
)
_SMALL_TALK_WORDS_MIN: Final = 3
# A greeting first: "Morning Kofi! Hope you slept well. Could you check…".
_GREETINGS: Final = frozenset(
    lx.words("hi hello hey morning evening afternoon hiya howdy alright good ok okay oh")
)


def order_said_after(text: str, names: Iterable[str]) -> str | None:
    """`text` with the small talk before the order's sentence reduced to the
    roster names it holds, or None when there is none."""
    parts = _SENTENCES.split(text.strip())
    if len(parts) < 2:
        return None
    order = next(
        (k for k, p in enumerate(parts) if lx.find_first(lx.tokenize(p), lx.VERB_PHRASES)), None
    )
    if not order:
        return None
    spelled = {n.lower(): n for n in names}
    kept: list[str] = []
    for part in parts[:order]:
        words = [t.low for t in lx.tokenize(part) if t.low not in lx.PUNCT]
        short = len(words) < _SMALL_TALK_WORDS_MIN and words[:1] and words[0] not in _GREETINGS
        if not words or words[0] in _TIME_FIRST or (short and not set(words) & set(spelled)):
            return None  # "By Friday. Kofi, fix the gate.", "Friday. …": the order's time
        kept += [spelled[w] for w in words if w in spelled]
    said = " ".join(parts[order:])
    return f"{', '.join(dict.fromkeys(kept))}, {said}" if kept else said


def greeted_first(text: str, names: Iterable[str]) -> str | None:
    """The order after a greeting or a question of small talk, said to the
    one greeted ("Morning Kofi! Hope you slept well. Could you check the
    boiler?" → "Kofi, Could you check the boiler?"; "How's your back,
    Kofi? Could you map the field?"), or None. A typed probe (T28) found
    them asked who, or taken for a question. Not "Kofi is busy. Could you…"
    (news of him: asked, `intent.others`)."""
    parts = _SENTENCES.split(text.strip())
    words = [t.low for t in lx.tokenize(parts[0])]
    if len(parts) < 2 or not words or not (words[0] in _GREETINGS or parts[0].endswith("?")):
        return None
    return order_said_after(text, names)


__all__ = ["greeted_first", "order_said_after"]
