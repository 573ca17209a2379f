"""A name wished to do the order: "It would be great if Zuri could check
the hives", "I think Kofi should rebuild the run", "Need Kofi to sort out
the drain", "if it's windy tomorrow, Tariq should secure the greenhouse".

Where the name stands before the verb, when the words around it ask for the
deed; never when they report, doubt or suppose it ("Zuri said Kofi would…",
"I doubt Kofi could…", "I'd be surprised if…", "even if…", "…, said Zuri",
"…, but he didn't"), nor for one of two names ("Kofi or Zuri could…").
"will", "can" and "might" predict rather than ask ("I think Kofi will fix
it"): no wish. Pure: tokens in, an index out; `address` resolves the name.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from vac.intent.lexicon import Tok, words

# Between the name and the verb: "if Zuri could (please) check…".
_WISH_MODALS: Final = frozenset(words("could should would to must please kindly"))
_WISHING: Final = frozenset(
    words("""hoping hope reckon need want wanted counting great love appreciate wish ideally
    prefer rather nice good helpful lovely grateful""")
)
_CONDITIONS: Final = frozenset(words("if when once after before whenever tomorrow tonight later"))
_REPORTING: Final = frozenset(
    words("""said says say told tell tells heard hear doubt know knew wonder wondered wondering
    guess remember forgot noticed saw see mentioned claims claimed promised asked asks why
    whether not never no don't doesn't didn't won't isn't wasn't wouldn't couldn't shouldn't
    surprised hate hated even as unless""")
)


def wished_subject(toks: Sequence[Tok], i: int, verb_at: int, lead_max: int) -> int | None:
    """The index of the word before the modal(s) before `verb_at`, when the
    words from `i` wish the deed done (see the module's docstring)."""
    k = verb_at - 1
    while k > i and toks[k].low in _WISH_MODALS:
        k -= 1
    if k in (verb_at - 1, i) or k - i > lead_max or toks[k - 1].low in ("or", "and"):
        return None
    lows = [t.low for t in toks[i:k]]
    if {*lows, *(t.low for t in toks[k:])} & _REPORTING:
        return None
    wished = any(
        w in _WISHING or (w == "think" and j > 0 and lows[j - 1] in ("i", "we"))
        for j, w in enumerate(lows)
    )
    # "if" only as a condition said first ("if it's windy tomorrow, Tariq…",
    # "after the harvest, Kofi should…").
    condition = bool(lows) and lows[0] in _CONDITIONS and toks[k - 1].low == ","
    return k if wished or condition else None
