"""An order said to several agents at once: "both of you, check the garden",
"all of you", "you two", "everyone". An objective has one agent, so vac
asks which, naming the roster, as it does for a list of names ("Kofi and
Zuri, build…", `several_names`). Before an eleventh typed probe
(2026-12-07) these went to the default agent. Whoever is free ("anyone",
"someone", "you guys", "one of you") is still the default agent's.

Pure: tokens in, the names and the words they replace out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from vac.intent import lexicon as lx
from vac.intent.address import resolve_span
from vac.intent.lexicon import Tok
from vac.intent.relay import told_from
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


def several_names(
    source: str, toks: Sequence[Tok], roster: Roster
) -> tuple[tuple[str, ...], str] | None:
    """The roster names of a list in the address ("ask Kofi, Zuri and Imani
    to…", "Kofi and Zuri, build…"), and the words they span, when it names
    two or more. An objective has one agent: the parser asks which, rather
    than give it to the first and drop the rest."""
    i = 0
    while i < len(toks) and toks[i].low in lx.FILLERS:
        i += 1
    if i < len(toks) and toks[i].low in lx.FRAME_WORDS:
        i += 1
    listed = _names_from(source, toks[i:], roster)
    if listed is None and (k := told_from(toks, i, lambda t: _exact_name(t, roster))) is not None:
        listed = _names_from(source, toks[k:], roster)  # "Abeni, get Kofi or Zuri to…"
    if listed is None:  # "fix the gate, Kofi or Zuri"
        ends = [k for k, t in enumerate(toks) if t.low == "," or t.low in _BREAKS]
        while ends and ends[-1] == len(toks) - 1:  # the closing full stop
            ends.pop()
        tail = toks[ends[-1] + 1 :] if ends else []
        while tail and tail[-1].low in lx.PUNCT:
            tail = tail[:-1]
        listed = _names_from(source, tail, roster, to_the_end=True)
    return listed


_SAYS: Final = tuple([w] for w in lx.words("says said told tells thinks reckons mentioned"))
# What comes after "says" in news: "Zuri says the door is stuck"; not "Zuri said tomorrow".
_NEWS: Final = tuple(
    [w] for w in lx.words("the that me us it it's there there's he she they we i his her our my")
)
_BREAKS: Final = frozenset(".:;!?")  # "Kofi? Zuri?" (as `address` reads a name apart)
_LIST_WORDS: Final = frozenset({",", "and", "or", "either"}) | _BREAKS


def _names_from(
    source: str, toks: Sequence[Tok], roster: Roster, *, to_the_end: bool = False
) -> tuple[tuple[str, ...], str] | None:
    names: list[str] = []
    first = last = None
    for n, tok in enumerate(toks):  # "Tariq, you and Kofi guard…" names both (a probe)
        then = [t.low for t in toks[n + 1 : n + 2]]
        if tok.low in _LIST_WORDS or (tok.low == "you" and names and then == ["and"]):
            continue
        told = then[:1] in _SAYS and [t.low for t in toks[n + 2 : n + 3]] in _NEWS
        res = resolve_span([tok], roster)
        if res is None or res.method not in ("exact", "fuzzy") or told:
            if to_the_end:  # "Imani, Zuri says the shed door is stuck…": news (T26)
                return None
            break
        if res.agent not in names:
            names.append(res.agent)
        first = tok if first is None else first
        last = tok
    if len(names) < 2 or first is None or last is None:
        return None
    return tuple(names), source[first.start : last.end]


def _exact_name(span: Sequence[Tok], roster: Roster) -> bool:
    res = resolve_span(span, roster)
    return res is not None and res.method in ("exact", "fuzzy")
