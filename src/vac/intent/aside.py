"""A statement about someone else said aside, before the order.

"Kofi, sorry, Zuri has to visit Grandma, so fix the gate yourself": the
order is Kofi's and it is "fix the gate"; "Zuri has to visit Grandma" says
why. Before, the statement's verb, time or name was read as the order's
(Zuri was to befriend Grandma; "Zuri is off today, fix the gate tomorrow"
was due today; "Kofi, Zuri will check the hives, so you fix the gate" asked
which one agent).

A part of the sentence (between breaks) is such a statement when, after a
word like "sorry", "so" or "since", it starts with a roster name and a word
that says something of that name ("is", "has", "will", "can't", "'s", a
verb in "-ed" or "-s", a past such as "broke"), an earlier part is another
roster name alone (the one spoken to: "Kofi, …"), and a later part is an
order (its first word, after "so", "and", "then", "please", "you", is a
verb of ours). The statement runs on to that order: "…, she has to visit
Grandma, …", "Zuri has to, um, visit Grandma", "Zuri is off, all day
today, …" are all aside.

Kept as said (the parser asks, as before) when the statement may be the
order or what it needs:
- a correction before it or in it ("Kofi, no, Zuri is free, fix the
  fence"; "actually Zuri can…"), it hands the order over ("Zuri will do it
  / go"), or it relays one ("Zuri needs you to fix the gate", "Zuri said
  tomorrow", "Zuri says stay away from the road", "Zuri should check the
  hives");
- the order points back into it ("fix it", "help her", "by then").
When the order is said to someone else ("Kofi, Imani is off, so Zuri, fix
the gate", "…, have Zuri fix the gate"), the command starts at the order.
With orders both with and without "so" / "you" after the statement ("…,
she'll check the hives, visit Grandma, so fix the gate"), it is kept.

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
    lx.words("so and but since because cause as well oh sorry wait anyway also okay ok um uh like")
)
# Before the statement or in its lead: a correction, the statement may reassign.
_CORRECTING: Final = frozenset(lx.words("no actually rather mean meant instead"))
# In the statement, these hand the order over ("Zuri will do it / go / handle it").
_TAKING_OVER: Final = frozenset(lx.words("do go handle take doing handling taking"))
# What says something of the name right after it.
_SAYS: Final = frozenset(
    lx.words(
        "is was isn't wasn't has had hasn't hadn't have will won't would wouldn't can can't "
        "cannot could couldn't shouldn't might may does did doesn't didn't "
        "thinks already just also got gets went usually often never really only probably "
        "still always"
    )
) | frozenset(  # the past of verbs that do not end in "-ed"
    lx.words(
        "broke left took made came saw gave found lost fell ran ate wrote hurt forgot "
        "kept brought bought caught sent spent thought knew grew drove rode sold sat stood won "
        "built dug met put set shut cut read paid heard hid swept slept woke spoke drew threw "
        "tore wore froze began stole bent lent hit"
    )
)
# Said of the name, these relay what the order is or needs: kept.
_RELAYS: Final = frozenset(
    lx.words("says said wants wanted needs needed told asks asked should must thinks")
)
# In the order, these point back into the statement: kept.
_POINTING: Final = frozenset(lx.words("it them her him she he they his their then there that"))
# A part that ends so goes on after the break ("Zuri has to, um, visit…").
_GOES_ON: Final = frozenset(
    lx.words(
        "to will can could would should must has have is was are the a an and of gonna wanna gotta"
    )
)
# A piece between breaks of only these fills; the part runs on past it.
_FILLING: Final = frozenset(lx.words("um uh er erm hmm like well sorry i mean you know so"))
# Words an order's part may start with before its verb.
_ORDER_LEADS: Final = frozenset(lx.words("so and then please just you now instead but can could"))
_BREAKS: Final = frozenset(".,;!?:")


def without_asides(toks: Sequence[Tok], roster: Roster) -> list[Tok]:
    """`toks` with each statement about another name taken out, when an
    order follows it (a comma left in its place)."""
    parts = _parts(toks)
    spoken_to: str | None = None
    for n, (s, e) in enumerate(parts):
        about = _about(toks, s, e, roster)
        if spoken_to is not None and about not in (None, spoken_to):
            return _set_aside(toks, parts, n, roster)
        if spoken_to is None:
            spoken_to = _alone(toks, s, e, roster)
    return list(toks)


def _set_aside(
    toks: Sequence[Tok], parts: list[tuple[int, int]], n: int, roster: Roster
) -> list[Tok]:
    """`toks` without parts[n] and the parts after it up to the order."""
    start = parts[n][0]
    if any(t.low in _CORRECTING for t in toks[parts[n - 1][0] : _name_at(toks, *parts[n]) + 1]):
        return list(toks)  # "Kofi, no, Zuri will do it, …", "actually Zuri can…"
    orders = [m for m in range(n + 1, len(parts)) if _an_order(toks, *parts[m], roster)]
    if not orders:
        return list(toks)
    order = orders[0]
    if not _strongly_led(toks, *parts[order]) and any(
        _strongly_led(toks, *parts[m]) for m in orders[1:]
    ):
        return list(toks)  # "…, she'll check the hives, visit Grandma, so fix the gate": which?
    aside = toks[start : parts[order][0]]
    said = toks[parts[order][0] : parts[order][1]]
    if any(t.low in _RELAYS | _TAKING_OVER or t.low == "you" for t in aside):
        return list(toks)  # "Zuri needs you to…", "Zuri said tomorrow", "Zuri should…"
    if any(t.low.split("'")[0] in _POINTING for t in said):
        return list(toks)  # "…, fix it", "…, help her", "…, fix the gate by then"
    if _framed(toks, *parts[order], roster):
        return list(toks[parts[order][0] :])  # "…, Imani is off, have Zuri fix the gate"
    if order - 1 > n and _alone(toks, *parts[order - 1], roster) is not None:
        return list(toks[parts[order - 1][0] :])  # "Kofi, Imani is off, so Zuri, fix the gate"
    before = list(toks[:start])
    if before and before[-1].low not in _BREAKS:
        before.append(Tok(",", ",", toks[start].start, toks[start].start))
    return [*before, *toks[parts[order][0] :]]


def _parts(toks: Sequence[Tok]) -> list[tuple[int, int]]:
    """The (start, end) of each run of words between breaks; a part ending
    in a word that needs more ("to", "will", "is") runs on past its break,
    and so past words that only fill ("…has to, like, visit…")."""
    parts: list[tuple[int, int]] = []
    start = piece = 0
    running = False  # the part runs on past the last break
    for k, t in enumerate([*toks, Tok(".", ".", -1, -1)]):
        if t.low not in _BREAKS:
            continue
        filling = running and all(w.low in _FILLING for w in toks[piece:k])
        piece = k + 1
        running = k > start and k < len(toks) and (toks[k - 1].low in _GOES_ON or filling)
        if running:
            continue
        if k > start:
            parts.append((start, k))
        start = k + 1
    return parts


def _strongly_led(toks: Sequence[Tok], s: int, e: int) -> bool:
    """An order part that starts with "so" or "you" ("so fix the gate")."""
    return s < e and toks[s].low in ("so", "you")


def _framed(toks: Sequence[Tok], s: int, e: int, roster: Roster) -> bool:
    """A part that starts with a frame and a roster name ("have Zuri fix…")."""
    k = s
    while k < e and toks[k].low in _ORDER_LEADS:
        k += 1
    return k + 1 < e and toks[k].low in lx.FRAME_WORDS and _named(toks[k + 1], roster) is not None


def _name_at(toks: Sequence[Tok], s: int, e: int) -> int:
    k = s
    while k < e and toks[k].low in _LEADS | _CORRECTING:
        k += 1
    return k


def _about(toks: Sequence[Tok], s: int, e: int, roster: Roster) -> str | None:
    """The roster name a statement part is about, if it is one."""
    k = _name_at(toks, s, e)
    if k + 1 >= e:
        return None
    if toks[k].low.endswith("'s") and k + 2 < e and toks[k + 2].low in ("is", "was", "are"):
        return None  # "Zuri's birthday is Friday": about the birthday
    if toks[k].low.endswith(("'s", "'ll")):  # "Zuri's busy", "Zuri'll check…"
        bare = toks[k].low.rsplit("'", 1)[0]
        return _named(Tok(bare, bare, 0, 0), roster)
    name = _named(toks[k], roster)
    says = toks[k + 1].low
    if name is None or lx.phrase_at(toks, k + 1, lx.VERB_PHRASES) is not None:
        return None  # "Zuri fix the gate", "Zuri check…": an order to Zuri
    if says in _SAYS or says in _RELAYS or says.endswith("ed") or says.endswith("'ll"):
        return name
    return name if says.endswith("s") and len(says) > 3 else None


def _alone(toks: Sequence[Tok], s: int, e: int, roster: Roster) -> str | None:
    """The roster name a part is, said alone (after "hey", "okay", "so")."""
    k = s
    while k < e and toks[k].low in _LEADS | lx.FILLERS:
        k += 1
    return _named(toks[k], roster) if k == e - 1 else None


def _an_order(toks: Sequence[Tok], s: int, e: int, roster: Roster) -> bool:
    """Whether toks[s:e] is an order: a verb of ours first, after "so",
    "you", "please"; or a frame, a roster name and one ("have Zuri fix…")."""
    k = s
    while k < e and toks[k].low in _ORDER_LEADS:
        k += 1
    if _framed(toks, s, e, roster):
        return lx.find_first(toks[k + 2 : e], lx.VERB_PHRASES) is not None
    return k < e and lx.phrase_at(toks, k, lx.VERB_PHRASES) is not None


def _named(tok: Tok, roster: Roster) -> str | None:
    res = resolve_agent(tok.text, roster)
    return res.agent if res is not None and res.method == "exact" else None
