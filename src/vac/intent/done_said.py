"""A part after an order that says the deed is already done: "I was going
to ask Kofi to fix the shelf, but I did it myself", "…, but it's done now",
"…, oh, it's sorted". The order is taken back, as after "never
mind" (the seventeenth session's note: each was drafted, and "…but it's
done now" was even urgent, from its "now"). Pure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from vac.intent import lexicon as lx
from vac.intent.lexicon import Tok
from vac.intent.parts import only, part_end

_DONE_SAID: Final = lx.phrases(
    [
        *("i did it", "i've done it", "i have done it", "i already did it", "i did it already"),
        *("i've already done it", "i've sorted it", "i sorted it", "i fixed it", "i've fixed it"),
        *("i took care of it", "i've taken care of it", "i dealt with it", "i've dealt with it"),
        *("i've already sorted it", "i already sorted it", "i already fixed it"),
        *("we did it", "we've done it", "we sorted it", "we've sorted it", "we fixed it"),
        *("it's done", "it is done", "it's been done", "it's already done"),
        *("it's already been done", "it's sorted", "it's already sorted", "it's been sorted"),
        *("it's fixed", "it's been fixed"),
        *("it's already fixed", "it's taken care of", "it's been taken care of", "it's handled"),
        *("that's done", "that's sorted", "that's been done", "that's already done"),
        *("someone did it", "someone's done it", "someone already did it"),
    ]
)  # fmt: skip
# After the words, in their part: "…, I did it myself", "…, it's done now, thanks".
_AFTER: Final = frozenset(lx.words("now already myself ourselves anyway actually thanks though"))
# After them, these say it is not done after all.
_BUT: Final = frozenset(lx.words("but though although except however yet and still"))
# Before them in their part: "…, but I did it", "…, oh, it's done".
_LEAD: Final = frozenset(lx.words("but oh actually well wait though ah sorry"))


def done_at(toks: Sequence[Tok], i: int, source: str) -> int | None:
    """Where the part starts that says, from `i`, the deed is done; None if
    it does not. Someone else having done it ("…, but Zuri did it") is a
    report the order stays with, as after a bare "no" ("No, Zuri fixed it
    already"): the steward rejects it if it was meant."""
    said = lx.phrase_at(toks, i, _DONE_SAID)
    if said is None:
        return None
    end = part_end(toks, i + len(said) - 1, source)
    if not only(toks, i + len(said), end, _AFTER) or (end < len(toks) and toks[end].low == "?"):
        return None  # "…, I did it wrong", "…. It's done?"
    nxt = next((t.low for t in toks[end:] if t.low not in lx.PUNCT), None)
    if nxt in _BUT:
        return None  # "…. I fixed it myself, but it fell down again" (a review)
    k = i
    while k > 0 and toks[k - 1].low in _LEAD:
        k -= 1
    but = any(toks[j].low == "but" for j in range(k, i))
    if k == 0 or not (but or toks[k - 1].low in lx.PUNCT):
        return None  # "tell me when it's done"
    return k


# "You remembered to check the alarm, didn't you?", "You did check it?": a
# deed asked about as done (a blind probe, T29: each drafted; "you checked
# it, didn't you?" was asked).
_DONE_ASKED: Final = lx.phrases(
    [
        *("you remembered to", "you did remember to", "you didn't forget to", "you did"),
        *("you managed to", "you got round to", "you got around to", "you've remembered to"),
        *("you already", "you have already", "you've already"),
    ]
)
_TAGS: Final = lx.phrases(["didn't you", "did you", "right", "yeah", "haven't you", "no"])


def done_asked(toks: Sequence[Tok]) -> bool:
    """The words ask whether a deed was done, with "?" or a tag at the end."""
    said = [t for t in toks if t.low not in lx.PUNCT]
    at = next((k for k in range(min(3, len(said))) if said[k].low == "you"), None)
    done = None if at is None else lx.phrase_at(said, at, _DONE_ASKED)
    if done is None or at is None:
        return False
    deed = said[at + len(done) :]  # a deed of ours next: not "you did the gate, fix…" (a review)
    if not deed or (
        lx.phrase_at(deed, 0, lx.VERB_PHRASES) is None and not deed[0].low.endswith("ed")
    ):
        return False
    first = next((k for k, t in enumerate(toks) if t is said[at]), 0)
    parts = [t.low for t in toks[first:]]
    if any(
        p in (",", ".", ";") and lx.phrase_at(toks, k + 1 + first, lx.VERB_PHRASES)
        for k, p in enumerate(parts)
    ):
        return False  # "…, so check the fence, yeah": an order of its own after it
    lows = tuple(t.low for t in said)
    tagged = any(lows[-len(tag) :] == tag for tag in _TAGS)
    return toks[-1].low == "?" or tagged


__all__ = ["done_asked", "done_at"]
