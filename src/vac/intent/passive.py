"""Orders said about the thing, not the deed: "get the gate fixed", "the gate needs fixing".

People often name what they want done to a thing rather than say the verb
first: "Kofi, can you get the gate fixed by Friday?", "the roof needs
patching", "we need the fence mended". The parser reads verbs in their
plain form, so these had no verb and were asked about. `as_order` turns
such a sentence into the plain order it means ("Kofi, can you fix the gate
by Friday?"), which the parser then reads; `intent.understand` tries it only
when the words as said give no verb, and keeps what was said as the
objective's `source_text`.

    keep <the thing> safe                    → protect <the thing>
    give <someone> a hand (with …)           → help <someone> (with …)
    would you mind / how about <doing>       → … <do>
    why don't you <do>                       → <do>
    get / have <the thing> <done>            → <do> <the thing>
    <the thing> needs / has to be <done(ing)> → <do> <the thing>
    I / we need / want <the thing> <done>    → <do> <the thing>

The thing starts with a determiner ("the", "my", "our"…) and is at most
five words, so "Kofi fixed the gate" (a report) and "have Kofi fix it" (a
plain order) never match. Only the one-word verbs of the lexicon, in their
regular or common irregular forms ("built", "made").

Pure: text in, text out.
"""

from __future__ import annotations

import re
from typing import Final, NamedTuple

from vac.intent import lexicon as lx
from vac.intent.verb_cues import DONE_FORMS as _DONE

_THING_STARTS: Final = frozenset(
    lx.words("the a an my our your his her their this that these those")
)
# Not "got": "Kofi got the gate fixed" is a report.
_GET: Final = frozenset(lx.words("get have"))
# "We have the gate fixed" says it is done.
_NOT_BEFORE_HAVE: Final = frozenset(lx.words("i we they he she it"))
_NEEDS: Final = ("needs", "need", "has to be", "have to be", "must be", "should be", "needs to be")
_WANT: Final = frozenset(lx.words("need want"))
_SPEAKER: Final = frozenset(lx.words("i we"))
_THING_MAX_WORDS: Final = 5
# A request said as a question about the deed: "would you mind fixing…",
# "how about checking…".
_ASKING: Final = frozenset(lx.words("mind about"))
_WORD: Final = re.compile(r"[A-Za-z']+")


class Order(NamedTuple):
    text: str  # the plain order
    said: tuple[int, int]  # where the verb's word ("fixed") is in what was said
    verb: tuple[int, int]  # where the verb ("fix") is in `text`


def as_order(text: str) -> Order | None:
    """`text` with "get <thing> <done>" / "<thing> needs <doing>" said as the
    plain order ("fix <thing>"); None when it holds neither."""
    spans = [(m.start(), m.end(), m.group().lower()) for m in _WORD.finditer(text)]
    for i, (start, end, word) in enumerate(spans):
        before = spans[i - 1][2] if i > 0 else ""
        if word.endswith("ing") and word in _DONE and before in _ASKING:
            verb = _DONE[word]  # "would you mind fixing the gate" → "… fix the gate"
            return Order(text[:start] + verb + text[end:], (start, end), (start, start + len(verb)))
        kept = _kept(text, spans, i)
        if kept is not None:
            return kept
        lead = " ".join(s[2] for s in spans[i : i + 3])
        if lead == "why don't you" and i + 3 < len(spans):
            at = spans[i + 3]  # "why don't you fix the gate" → "fix the gate"
            order = text[:start] + text[at[0] :]
            return Order(order, (at[0], at[1]), (start, start + at[1] - at[0]))
        if word in _THING_STARTS:
            found = _around(text, spans, i)
            if found is not None:
                cut_from, cut_to, done, thing = found
                verb = _DONE[spans[done][2]]
                order = text[:cut_from] + f"{verb} {thing}" + text[cut_to:]
                said = (spans[done][0], spans[done][1])
                return Order(order, said, (cut_from, cut_from + len(verb)))
    return None


# "keep the kids safe" → "protect the kids"; "give grandma a hand with the
# laundry" → "help grandma with the laundry".
_SAFE: Final = frozenset(lx.words("safe secure"))


def _kept(text: str, spans: list[tuple[int, int, str]], i: int) -> Order | None:
    start, end, word = spans[i]
    for k in range(i + 2, min(i + 2 + _THING_MAX_WORDS, len(spans))):
        if text[spans[k - 1][1] : spans[k][0]].strip(" "):
            return None  # punctuation ends the thing
        thing = text[spans[i + 1][0] : spans[k - 1][1]]
        if word == "keep" and spans[k][2] in _SAFE and spans[i + 1][2] in _THING_STARTS:
            order = text[:start] + f"protect {thing}" + text[spans[k][1] :]
            return Order(order, (start, end), (start, start + len("protect")))
        if word == "give" and [s[2] for s in spans[k : k + 2]] == ["a", "hand"]:
            order = text[:start] + f"help {thing}" + text[spans[k + 1][1] :]
            return Order(order, (start, end), (start, start + len("help")))
    return None


def _around(
    text: str, spans: list[tuple[int, int, str]], i: int
) -> tuple[int, int, int, str] | None:
    """(where the replaced words start and end, the index of the word of the
    deed, the thing) for the thing starting at word `i`, if a pattern holds."""
    for k in range(i + 1, min(i + 1 + _THING_MAX_WORDS, len(spans))):
        between = text[spans[k - 1][1] : spans[k][0]]
        if between.strip(" "):  # punctuation ends the thing
            return None
        thing = text[spans[i][0] : spans[k - 1][1]]
        thing = thing[:1].lower() + thing[1:]  # "The gate needs fixing" → "fix the gate"
        word = spans[k][2]
        before = spans[i - 1][2] if i > 0 else ""
        if word in _DONE and before in _GET | _WANT:  # "get the gate fixed"
            at = i - 1
            if before == "have" and at > 0 and spans[at - 1][2] in _NOT_BEFORE_HAVE:
                return None
            if before in _WANT and at > 0 and spans[at - 1][2] in _SPEAKER:
                at -= 1  # "we need the gate fixed": no one's own plan
            return spans[at][0], spans[k][1], k, thing
        rest = " ".join(s[2] for s in spans[k : k + 4])
        for needs in _NEEDS:
            if rest.startswith(needs + " "):
                done = k + len(needs.split())
                if spans[done][2] in _DONE:  # "the gate needs fixing"
                    return spans[i][0], spans[done][1], done, thing
    return None


# "The gate is broken, fix it": what "it" means, said just before.
_IS: Final = frozenset(
    lx.words("is are was were has have keeps keep looks look seems seem needs need")
)
_IT: Final = frozenset(lx.words("it them"))


def with_antecedent(text: str) -> str | None:
    """`text` with a bare "it" / "them" after the verb replaced by the thing a
    statement before it was about ("the gate is broken, fix it" → "…, fix
    the gate"); None when there is no such statement."""
    spans = [(m.start(), m.end(), m.group().lower()) for m in _WORD.finditer(text)]
    thing: str | None = None
    for i, (start, end, word) in enumerate(spans):
        if thing is not None and word in _IT:
            return text[:start] + thing + text[end:]
        if word in _THING_STARTS and thing is None:
            for k in range(i + 1, min(i + 1 + _MAX_SUBJECT_WORDS, len(spans))):
                if text[spans[k - 1][1] : spans[k][0]].strip(" "):
                    break  # punctuation ends the thing
                if spans[k][2] in _IS:
                    found = text[start : spans[k - 1][1]]
                    thing = found[:1].lower() + found[1:]
                    break
    return None


_MAX_SUBJECT_WORDS: Final = 4

__all__ = ["Order", "as_order", "with_antecedent"]
