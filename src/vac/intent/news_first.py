"""A name set apart after news whose own verb is no order: "the plumber
came to fix the boiler, so Kofi, check the tap", "the landlord's coming on
Monday to inspect, so Kofi, repair the tiles" (a thirteenth typed probe:
the news's verb was drafted for the default agent, or asked what to look
into). The news tells someone else's deed ("came to fix", "will check");
the order is the one said after the name. Pure: tokens in, where the name
and the order are out.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from vac.intent import lexicon as lx
from vac.intent.calendar_words import WEEKDAYS
from vac.intent.lexicon import Tok, words
from vac.intent.parts import ASKED_ON, apart_at

# Before the news's verb: someone else's deed, to come or told ("came to
# fix", "will check", "is going to inspect"); never an order's first word.
TOLD_BEFORE: Final = frozenset(words("to will would 'll is are was were might must"))


def visit_before(word: str) -> bool:
    """Said before "to" of someone else's coming deed: "coming (Friday) to fix"."""
    return word in _VISITS or word in WEEKDAYS or word in ("tomorrow", "today", "tonight")


_VISITS: Final = frozenset(
    words("coming come comes came went going round over here in by back sending sent booked due")
)


def named_after_news(
    toks: Sequence[Tok], i: int, verb_at: int, is_name: Callable[[Tok], bool]
) -> tuple[int, int] | None:
    """Where the name set apart after the news is, and where its order
    starts; None unless the first verb at `verb_at` is told of and no name
    is said before it."""
    if not i < verb_at < len(toks) or toks[verb_at - 1].low not in TOLD_BEFORE:
        return None
    if toks[verb_at - 1].low == "to" and not visit_before(toks[verb_at - 2].low):
        return None  # "Remember to fix the boiler, Abeni, …": an order, not news (a review)
    if any(is_name(t) for t in toks[i:verb_at]):
        return None  # "Kofi will fix the gate, so Zuri, …": asked, as before
    for left in range(verb_at + 1, len(toks) - 3):
        if not apart_at(toks, left) or toks[left + 2].low != "," or not is_name(toks[left + 1]):
            continue
        k = left + 3
        while k < len(toks) and toks[k].low in ASKED_ON:
            k += 1
        # With no verb of ours after the name, the order is still the one said
        # after it ("…to fix the boiler, Abeni, let him in": a typed probe,
        # the news's repair was drafted for Abeni); its words are asked about.
        return (left + 1, k) if k < len(toks) and toks[k].low not in lx.PUNCT else None
    return None
