"""A statement about someone else said aside, before the order.

"Kofi, sorry, Zuri has to visit Grandma, so fix the gate yourself": the
order is Kofi's and it is "fix the gate"; "Zuri has to visit Grandma" says
why. Before, the statement's verb, time or name was read as the order's
(Zuri was to befriend Grandma; "Zuri is off today, fix the gate tomorrow"
was due today; "Kofi, Zuri will check the hives, so you fix the gate" asked
which one agent). A part of the sentence (between commas or full stops) is
such a statement when, after a word like "sorry", "so" or "since", it starts
with a roster name and a word that says something of that name ("is",
"has", "will", "can't", "'s", a verb in "-ed" or "-s": "Zuri fixed the
gate", "Imani checks the hives on Mondays"), and a later part is an order:
its first word (after "so", "and", "then", "please", "you") is a verb of
ours; and an earlier part is another roster name alone, the one spoken to
("Kofi, …"). Taken out, with a comma in its place. Not "Kofi will fix the
gate, and Zuri, check the hives" (no one spoken to before it: an order
too), nor "Zuri is off today, fix the gate" (who? is still asked).

Pure: tokens in, tokens out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from vac.intent import lexicon as lx
from vac.intent.lexicon import Tok
from vac.intent.roster import Roster, resolve_agent

# Words a statement part may start with before the name.
_LEADS: Final = frozenset(
    lx.words(
        "so and but since because cause as well oh sorry wait actually anyway also okay ok "
        "um uh no like"
    )
)
# What says something of the name right after it.
_SAYS: Final = frozenset(
    lx.words(
        "is was isn't wasn't has had hasn't hadn't have will won't would wouldn't can can't "
        "cannot could couldn't should shouldn't might may must does did doesn't didn't needs "
        "wants said says thinks already just also got gets went"
    )
) | frozenset(  # the past of verbs that do not end in "-ed"
    lx.words(
        "broke left took made came saw told gave found lost fell ran ate wrote hurt forgot "
        "kept brought bought caught sent spent thought knew grew drove rode sold sat stood won"
    )
)
# Words an order's part may start with before its verb.
_ORDER_LEADS: Final = frozenset(lx.words("so and then please just you now instead but can could"))
_BREAKS: Final = frozenset(".,;!?:")


def without_asides(toks: Sequence[Tok], roster: Roster) -> list[Tok]:
    """`toks` with each statement about another name taken out (a comma in
    its place), when an order follows it and a roster name is left."""
    parts = _parts(toks)
    aside: list[tuple[int, int]] = []
    spoken_to: str | None = None
    for n, (s, e) in enumerate(parts):
        about = _about(toks, s, e, roster)
        if spoken_to is not None and about not in (None, spoken_to):
            if any(_an_order(toks, *p) for p in parts[n + 1 :]):
                aside.append((s, e))
        elif spoken_to is None and (name := _alone(toks, s, e, roster)) is not None:
            spoken_to = name
    if not aside:
        return list(toks)
    inside = {k for s, e in aside for k in range(s, e)}
    out: list[Tok] = []
    for k, t in enumerate(toks):
        if k not in inside:
            out.append(t)
        elif k - 1 not in inside and (not out or out[-1].low not in _BREAKS):
            out.append(Tok(",", ",", t.start, t.start))
    return out


def _parts(toks: Sequence[Tok]) -> list[tuple[int, int]]:
    """The (start, end) of each run of words between breaks."""
    parts: list[tuple[int, int]] = []
    start = 0
    for k, t in enumerate([*toks, Tok(".", ".", -1, -1)]):
        if t.low in _BREAKS:
            if k > start:
                parts.append((start, k))
            start = k + 1
    return parts


def _about(toks: Sequence[Tok], s: int, e: int, roster: Roster) -> str | None:
    """The roster name a statement part is about, if it is one."""
    k = s
    while k < e and toks[k].low in _LEADS:
        k += 1
    if k + 1 >= e:
        return None
    if toks[k].low.endswith("'s"):  # "Zuri's busy", "Zuri's going to…"
        return _named(Tok(toks[k].text[:-2], toks[k].low[:-2], 0, 0), roster)
    name = _named(toks[k], roster)
    says = toks[k + 1].low
    if name is None or lx.phrase_at(toks, k + 1, lx.VERB_PHRASES) is not None:
        return None  # "Zuri fix the gate", "Zuri check…": an order to Zuri
    if says in _SAYS or says.endswith("ed") or (says.endswith("s") and len(says) > 3):
        return name
    return None


def _alone(toks: Sequence[Tok], s: int, e: int, roster: Roster) -> str | None:
    """The roster name a part is, said alone (after "hey", "okay", "so")."""
    k = s
    while k < e and toks[k].low in _LEADS | lx.FILLERS:
        k += 1
    return _named(toks[k], roster) if k == e - 1 else None


def _an_order(toks: Sequence[Tok], s: int, e: int) -> bool:
    k = s
    while k < e and toks[k].low in _ORDER_LEADS:
        k += 1
    return k < e and lx.phrase_at(toks, k, lx.VERB_PHRASES) is not None


def _named(tok: Tok, roster: Roster) -> str | None:
    res = resolve_agent(tok.text, roster)
    return res.agent if res is not None and res.method == "exact" else None
