"""A word searched for before the thing is found: "fix the, uh, what's it
called, the thermostat", "fix the thingy, the thermostat". The search is
said out of the words (the determiner said twice then goes as any repeat,
`lexicon.fluent`), so the thing is "the thermostat" (a twelfth typed probe
read "What's it called the thermostat" and "Thingy"). Only when a thing
follows the search: "fix the thingy" alone keeps its thingy. Pure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from vac.intent.tokens import Tok

_PLACEHOLDERS: Final = frozenset(
    {"thingy", "thingamajig", "thingamabob", "thingummy", "thingumabob", "whatsit"}
    | {"whatsitsname", "whatchamacallit", "watchamacallit", "doodah", "doohickey"}
)
_SEARCHES: Final = (
    ("what's", "it", "called"), ("whats", "it", "called"), ("what", "is", "it", "called"),
    ("what", "do", "you", "call", "it"), ("what's", "the", "word"), ("what's", "its", "name"),
)  # fmt: skip
_THINGS_FIRST: Final = frozenset({"the", "a", "an", "my", "our", "your", "his", "her", "their"})
_NOT_THINGS: Final = frozenset({"one", "ones", "other", "same"})  # "…, the one on the left"
_PAUSES: Final = frozenset({",", "-", "—", "–"})


def _search_at(toks: Sequence[Tok], k: int) -> int:
    """How many words of a search start at `k` (0 for none)."""
    if toks[k].low in _PLACEHOLDERS:
        return 1
    lows = tuple(t.low for t in toks[k : k + 5])
    return next((len(s) for s in _SEARCHES if lows[: len(s)] == s), 0)


def without_searching(toks: Sequence[Tok]) -> list[Tok]:
    """The tokens without a search that a thing follows: after a pause for a
    placeholder ("the thingy, the thermostat"; not "the thingy that keeps
    beeping", "the whatsit this afternoon": a review), nor "the one…"."""
    out: list[Tok] = []
    k = 0
    while k < len(toks):
        n = _search_at(toks, k)
        after = k + n
        while n and after < len(toks) and toks[after].low in _PAUSES:
            after += 1
        paused = after > k + n or toks[k].low not in _PLACEHOLDERS
        thing = after + 1 < len(toks) and toks[after].low in _THINGS_FIRST
        if n and paused and thing and toks[after + 1].low not in _NOT_THINGS:
            while out and out[-1].low in _PAUSES:
                out.pop()  # "the, what's it called, the…": no pause is left alone
            k = after
            continue
        out.append(toks[k])
        k += 1
    return out
