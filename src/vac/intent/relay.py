"""A request passed on with the agent as "he" or "she": "ask Kofi if he can
fix the gate", "tell Imani she needs to visit Grandma", "let Kofi know he
has to fix the gate", "see if Zuri can check the hives".

These read as "ask Kofi to fix the gate": the words between the name and
the verb give way to one "to" (a token of no width, so every span read from
the tokens is still the source's). Before, the pronoun made the parser ask
who should do it, or read "Imani she needs" as a name. Only a modal that
asks or allows ("can", "could", "would", "needs to", "has to", "should",
"must"…) counts: "ask Kofi if he fixed the gate" is a question, "tell Kofi
he can't…" no request, and they stay as said.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from vac.intent.lexicon import ASKING_WORDS, VERB_PHRASES, Tok, phrase_at, words
from vac.intent.roster import Roster

_PRONOUNS: Final = frozenset(words("he she they"))
# The asking part after the pronoun, longest first: "needs to", "could".
_ASKS: Final = tuple(
    tuple(p.split())
    for p in (
        "needs to", "need to", "has to", "have to", "ought to", "is able to", "are able to",
        "is to", "are to", "can", "could", "would", "will", "should", "must",
    )
)  # fmt: skip
_POLITE: Final = frozenset(words("please possibly kindly maybe perhaps also"))
# "ask Kofi if he…", "tell Imani (that) she…", "let Kofi know (that) he…".
_FRAMES: Final[dict[str, tuple[str, ...]]] = {
    "ask": ("if", "whether"),
    "tell": ("that", ""),
    "remind": ("that", ""),
    "let": ("that", ""),  # after "know"
}
# "see if Zuri can…", "check whether Kofi could…": the one asked, not a pronoun.
_SEE_IF: Final = frozenset({("see", "if"), ("see", "whether"), ("check", "if")})


def _low(toks: Sequence[Tok], k: int) -> str:
    return toks[k].low if 0 <= k < len(toks) else ""


def _asking_end(toks: Sequence[Tok], k: int) -> int | None:
    """Where the asking words from `k` end ("can", "needs to", "could
    possibly"), when a verb of ours follows them."""
    for ask in _ASKS:
        if tuple(_low(toks, k + n) for n in range(len(ask))) == ask:
            end = k + len(ask)
            while _low(toks, end) in _POLITE:
                end += 1
            return end if phrase_at(toks, end, VERB_PHRASES) is not None else None
    return None


def _to(at: Tok) -> Tok:
    return Tok("to", "to", at.start, at.start)


# "would Kofi be so kind as to mend…", "be good enough to": politeness
# between the modal and the verb, read past ("Who should do it: Kofi or
# someone else?" before: a typed probe's elder).
_KIND_AS_TO: Final = (
    ("be", "so", "kind", "as", "to"), ("be", "kind", "enough", "to"),
    ("be", "good", "enough", "to"), ("be", "so", "good", "as", "to"),
)  # fmt: skip


def _kindness_dropped(toks: Sequence[Tok]) -> list[Tok]:
    lows = [t.low for t in toks]
    for phrase in _KIND_AS_TO:
        for i in range(len(lows) - len(phrase) + 1):
            if tuple(lows[i : i + len(phrase)]) == phrase:
                return _kindness_dropped([*toks[:i], *toks[i + len(phrase) :]])
    return list(toks)


def relayed(toks: Sequence[Tok], roster: Roster) -> list[Tok]:
    """The tokens with a request passed on by pronoun read as "ask NAME to…",
    and politeness before the verb read past ("be so kind as to")."""
    toks = _kindness_dropped(toks)
    out = list(toks)
    for i, tok in enumerate(toks):
        named = i + 1 < len(toks) and roster.get(toks[i + 1].text) is not None
        if tok.low in _FRAMES and named:
            k = i + 2
            if tok.low == "let":
                if _low(toks, k) != "know":
                    continue
                k += 1
            if _low(toks, k) in _FRAMES[tok.low]:
                k += 1
            elif "" not in _FRAMES[tok.low]:
                continue
            if _low(toks, k) not in _PRONOUNS:
                continue
            end = _asking_end(toks, k + 1)
            if end is not None:
                verb = "ask" if tok.low == "let" else tok.low
                return [*out[:i], tok._replace(low=verb), toks[i + 1], _to(toks[i + 2]), *out[end:]]
        if (tok.low, _low(toks, i + 1)) in _SEE_IF and i + 2 < len(toks):
            if roster.get(toks[i + 2].text) is None:
                continue
            end = _asking_end(toks, i + 3)
            if end is not None:  # "see if Zuri can check…": ask Zuri to check…
                ask = Tok(tok.text, "ask", tok.start, toks[i + 1].end)
                return [*out[:i], ask, toks[i + 2], _to(toks[i + 3]), *out[end:]]
    return out


_RELAYS: Final = frozenset(words("tell ask have get remind send"))


def told_from(toks: Sequence[Tok], i: int, named: Callable[[Sequence[Tok]], bool]) -> int | None:
    """Where the ones told start when the words at `i` are "NAME(,) (can
    you) tell / get / ask …": "Abeni, can you get Kofi or Zuri to fix the
    gate" (a probe: Abeni's draft; the list is asked about, as said alone)."""
    if i >= len(toks) or not named(toks[i : i + 1]):
        return None
    j = passed_on(toks, i + 1 + (i + 1 < len(toks) and toks[i + 1].low == ","), named)
    return None if j is None or toks[j].low in ("if", "when") else j + 1


def passed_on(toks: Sequence[Tok], k: int, named: Callable[[Sequence[Tok]], bool]) -> int | None:
    """Where the order starts when what an agent is asked at `k` (after
    "Abeni,") is to pass it on: "tell Kofi to fix the gate", "could you
    remind Kofi to…", "if you see Kofi, tell him to…" (`named`: a roster
    name). The order is then Kofi's (it was Abeni's, Kofi left out)."""
    j = k
    while j < len(toks) and toks[j].low in ASKING_WORDS:
        j += 1
    if any(t.low in ("you", "your", "yourself") for t in toks[j + 2 :]):
        return None  # "Abeni, tell Kofi to help you…": "you" is Abeni, not the steward
    if j + 1 < len(toks) and toks[j].low in _RELAYS and named(toks[j + 1 : j + 2]):
        return j
    if toks[j : j + 1] and toks[j].low == "let" and named(toks[j + 1 : j + 2]):
        # "Abeni, let Kofi put up the net" (an eighth typed probe: Abeni's);
        # not "let Kofi know…", "let Kofi in, then fix…" (a review): a verb next
        deed = phrase_at(toks, j + 2, VERB_PHRASES)
        return j if deed is not None and _low(toks, j + 2) != "know" else None
    return j if j < len(toks) and toks[j].low in ("if", "when") else None
