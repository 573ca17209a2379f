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
from vac.intent.lexicon import Tok, words
from vac.intent.parts import ASKED_ON, apart_at
from vac.intent.when_match import past_form

# Before the news's verb: someone else's deed, to come or told ("came to
# fix", "will check", "is going to inspect"); never an order's first word.
TOLD_BEFORE: Final = frozenset(words("to will would 'll is are was were might must"))


def to_is_told(toks: Sequence[Tok], i: int, verb_at: int) -> bool:
    """Whether "to" before the verb at `verb_at` tells someone's deed ("the
    plumber's coming to fix", "the man needs to fix"), not an order said
    with a lead ("Don't forget to fix…", "Try to fix…", "Remember to fix…",
    "I need you to fix…"): the words from `i` start with no such lead."""
    lead = [t.low for t in toks[i : verb_at - 1]]
    if not lead or "you" in lead or lead[0] in _ORDER_LEADS:
        return False  # "You need to fix…", "Need you to…", "Time to…", "Someone needs to…"
    first = lead[0].removesuffix("'s")
    return first in _THIRD_PARTY or (lead[0].endswith("'s") and first not in _ORDER_LEADS)


# A third party said first: "the plumber…", "my brother…", "Mum's coming to…".
_THIRD_PARTY: Final = frozenset(
    words("""the a an my our his her their some mum mom dad gran grandma grandpa nan he she
    they""")
)
_ORDER_LEADS: Final = frozenset(
    words("""don't do try remember please never forget make be just kindly manage need want
    time got going it someone somebody anyone i we let's""")
)


def news_of(toks: Sequence[Tok], k: int) -> bool:
    """Whether the name at `k` is the subject of news: a past form, "said",
    a negation, or a state after it ("Kofi fixed…", "Imani said…", "Kofi
    can't come…", "Imani is busy with the baby", "Tariq doesn't need to…")."""
    nxt = toks[k + 1].low if k + 1 < len(toks) else ""
    then = toks[k + 2].low if k + 2 < len(toks) else ""
    if nxt in _NEWS_WORDS or past_form(nxt):
        return True
    return nxt in ("is", "was", "'s", "has", "had") and (then in _STATES or past_form(then))


_NEWS_WORDS: Final = frozenset(
    words("""said says told did can't cannot couldn't doesn't didn't won't isn't wasn't
    hasn't never already loved liked""")
)
_STATES: Final = frozenset(
    words("busy away off out sick ill poorly tired late back home working asleep been got gone")
)


def named_after_news(
    toks: Sequence[Tok], i: int, verb_at: int, is_name: Callable[[Tok], bool]
) -> tuple[int, int] | None:
    """Where the name set apart after the news is, and where its order
    starts; None unless the first verb at `verb_at` is told of and no name
    is said before it."""
    if not i < verb_at < len(toks) or toks[verb_at - 1].low not in TOLD_BEFORE:
        return None
    if toks[verb_at - 1].low == "to" and not to_is_told(toks, i, verb_at):
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
