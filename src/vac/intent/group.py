"""An order said to several agents at once: "both of you, check the garden",
"all of you", "you two", "everyone". An objective has one agent, so vac
asks which, naming the roster, as it does for a list of names ("Kofi and
Zuri, build…", `address.several_names`). Before an eleventh typed probe
(2026-12-07) these went to the default agent. Whoever is free ("anyone",
"someone", "you guys", "one of you") is still the default agent's.

Pure: tokens in, the names and the words they replace out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from vac.intent import lexicon as lx
from vac.intent.address import resolve_span, several_names
from vac.intent.lexicon import Tok
from vac.intent.roster import Roster

_GROUPS: Final = lx.phrases(
    [
        "both of you",
        "all of you",
        "all of ya",
        "you two",
        "you both",
        "you all",
        "y'all",
        "everyone",
        "everybody",
        "the lot of you",
        "all five of you",
        # A thirteenth typed probe (2026-12-07): the default agent's.
        *("the two of you", "the three of you", "the pair of you", "the both of you"),
    ]
)


def several_named(
    source: str, toks: Sequence[Tok], roster: Roster
) -> tuple[tuple[str, ...], str] | None:
    """The agents an order names, when more than one, and the words naming
    them: a group said first and set apart ("Both of you, check…"), or a
    list of names (`several_names`)."""
    i = 0
    while (
        i < len(toks)
        and toks[i].low in lx.FILLERS | lx.PUNCT
        and not lx.phrase_at(toks, i, _GROUPS)
    ):
        i += 1  # "okay, both of you, …" (not the "you" of "you two")
    group = lx.phrase_at(toks, i, _GROUPS)
    end = i + (0 if group is None else len(group))
    if group is not None and end < len(toks) and toks[end].low in (",", ":"):
        # "Everyone, listen: Kofi, fix the gate": the one named after the greeting (a review)
        verb = lx.find_first(toks, lx.VERB_PHRASES)
        named = any(resolve_span([t], roster) for t in toks[end : verb[0] if verb else len(toks)])
        if not named:
            return tuple(roster.names()), source[toks[i].start : toks[end - 1].end]
    return several_names(source, toks, roster)
