"""Which of several pending drafts a yes or no names.

With two drafts waiting, a bare "yes" cannot say which (VAC/1 §5.1 acts on
it only with one pending), so the steward names one: "yes to the gate one",
"confirm Kofi's", "the fence one, no", "cancel the second one". A pick is a
confirm or reject phrase and words that name exactly one draft: its agent,
words of its thing, or its place in the list read back (oldest first);
nothing else ("yes to the gate, but by Friday" is its own words). With one
draft waiting, words that name it act on it too ("cancel the hives one").
Anything
that names none, or more than one, is no pick and is read as before. "Both"
or "all of them" names every draft: one at a time, the runtime answers.
Pure: words and the drafts' agents and things in, a pick out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Literal, NamedTuple

from vac.intent import lexicon as lx

PickKind = Literal["confirm", "reject"]


class Pick(NamedTuple):
    """The confirm or reject of the draft at `at`; `at` None: all of them."""

    kind: PickKind
    at: int | None


class Named(NamedTuple):
    """What a pick may name of one pending draft."""

    agent: str
    thing: str


_YES: Final = (
    "yes,yeah,yep,yup,confirm,approve,okay,ok,sure,go ahead,go ahead with,go with,please do,do"
)
# A yes this short names a draft only with "to", "one", "job", an ordinal
# or a possessive: "yes, Kofi" to "Zuri will protect Kofi" may be a change,
# "do the gate" an order (a review: each confirmed the draft)
_WEAK_YES: Final = frozenset(("yes", "yeah", "yep", "yup", "okay", "ok", "sure", "do"))
# Not a bare "no": "no, Zuri" with two drafts waiting is a change of agent
# to one of them, not a cancel of Zuri's (a review); "no to the fence" is.
_NO: Final = "no to,cancel,scrap,forget,forget about,never mind,reject,delete,ditch,drop"
# Phrases longest first, so "go ahead with" is one phrase, not "go ahead".
_KINDS: Final[tuple[tuple[tuple[str, ...], PickKind], ...]] = tuple(
    sorted(
        [
            *((tuple(p.split()), "confirm") for p in _YES.split(",")),
            *((tuple(p.split()), "reject") for p in _NO.split(",")),
        ],
        key=lambda pk: -len(pk[0]),
    )
)
# Words around the choice that name nothing: "yes to the gate one, please".
_BARE_NO: Final = frozenset(("no", "nope", "nah"))
_FILLER: Final = frozenset(
    lx.words("to the a that this one for with on about of just only please draft job order it and")
    + lx.words("actually oh um sorry")
)
_ORDINALS: Final = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "last": -1}
_ALL: Final = frozenset(lx.words("both all them everything each"))


def _plain(word: str) -> str:
    """A word as a thing's word is compared: no possessive, no plural "s"."""
    word = word.removesuffix("'s").removesuffix("’s")
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def picked(text: str, drafts: Sequence[Named]) -> Pick | None:
    """The pick `text` makes among `drafts` (oldest first), or None."""
    tokens = lx.tokenize(text)
    if lx.find_first(tokens, lx.VERB_PHRASES) is not None or "?" in text:
        return None  # a verb of ours: an order ("no, fix the gate first"); a question
    toks = [t.low for t in tokens if t.low not in lx.PUNCT]
    kinds: set[PickKind] = set()
    naming: list[str] = []
    bare_no = weak = False
    k = 0
    while k < len(toks):
        hit = next((pk for pk in _KINDS if tuple(toks[k : k + len(pk[0])]) == pk[0]), None)
        if hit is not None:
            kinds.add(hit[1])
            weak = weak or (hit[0][0] in _WEAK_YES and _word_at(toks, k + len(hit[0])) != "to")
            weak = weak or hit[0][0] in ("forget", "never")  # "forget Kofi": not Kofi, maybe
            k += len(hit[0])
            continue
        if toks[k] in _BARE_NO:
            bare_no = True  # a pick only with "one" / "job" said (below)
        elif toks[k] not in _FILLER:
            naming.append(toks[k])
        k += 1
    if bare_no and "reject" not in kinds and {"one", "job"} & set(toks):
        kinds.add("reject")  # "the fence one, no", "no, the fence one"
    if len(kinds) != 1 or not naming or not drafts:
        return None
    kind = kinds.pop()
    marked = {"one", "job"} & set(toks) or any(w in _ORDINALS or w.endswith("'s") for w in naming)
    if all(w in _ALL for w in naming):  # "confirm both", "both of them, yes"
        return Pick(kind, None) if len(drafts) > 1 else None
    if kind == "confirm" and weak and not marked:
        return None  # "yes, Kofi", "do the gate": no draft named as one
    if len(naming) == 1 and naming[0] in _ORDINALS:
        at = _ORDINALS[naming[0]]
        return Pick(kind, at % len(drafts)) if at < len(drafts) else None
    said = {_plain(w) for w in naming}
    agents = {d.agent.lower() for d in drafts}
    if said <= agents and weak and not any(w.endswith(("'s", "’s")) for w in naming):
        return None  # "yes, Zuri" may change the agent; "yes to Zuri", "cancel Zuri" name one
    hits = [i for i, d in enumerate(drafts) if said <= _words_of(d)]
    return Pick(kind, hits[0]) if len(hits) == 1 else None


def _word_at(toks: Sequence[str], k: int) -> str:
    return toks[k] if k < len(toks) else ""


def _words_of(draft: Named) -> set[str]:
    return {draft.agent.lower()} | {_plain(t.low) for t in lx.tokenize(draft.thing)}


__all__ = ["Named", "Pick", "PickKind", "picked"]
