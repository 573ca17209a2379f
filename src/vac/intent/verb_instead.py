"""A verb taken back for another in the same breath: "fix, I mean check
the boiler", "survey, sorry, inspect the boiler" (the verb said first had no
thing: it was asked what to repair), "inspect the boiler, sorry, survey
it", "fix the gate, no, check it" (the first verb was drafted: a twelfth
typed probe's confident-wrong). The clause is read as if said with the
second verb only ("check the boiler", "survey the boiler"); tokens keep
their offsets, so every label is still the source's words. Only with a
word that takes back ("no", "sorry", "I mean", "actually", "rather", "or
rather"), a verb of ours after it, and, after a thing, "it" or "them"
ending the part. Pure: tokens in, tokens out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from vac.intent import lexicon as lx
from vac.intent.calendar_words import TEMPORAL_WORDS
from vac.intent.lexicon import Tok

_TAKE_BACK: Final = lx.phrases(
    [
        *("no", "sorry", "i mean", "i meant", "actually", "rather", "or rather", "no wait"),
        *("correction", "scratch that"),  # a sixteenth typed probe (T23): the first verb drafted
    ]
)
_IT: Final = frozenset(lx.words("it them"))
_JUST: Final = frozenset(lx.words("just only simply please"))
_NOT: Final = frozenset(lx.words("don't dont not never"))
_NOT_YET: Final = frozenset(lx.words("yet now today tonight tomorrow"))
_AFTER_IT: Final = frozenset(lx.words("instead"))  # not "check it first": fix it after (a review)
_THING_MAX: Final = 5
# "…, actually make it tomorrow night": a time set, no deed (a regression text).
_SETTING: Final = frozenset(lx.words("make do have get let"))


def _taken_back(clause: Sequence[Tok], k: int) -> int | None:
    """Where the words after a correction at `k` start: ", sorry, " → after it."""
    k += clause[k].low == "," if k < len(clause) else 0
    said = lx.phrase_at(clause, k, _TAKE_BACK)
    if said is None:
        return None
    k += len(said)
    k += k < len(clause) and clause[k].low == ","
    while k < len(clause) and clause[k].low in _JUST:  # "…, no, just look at it" (a probe)
        k += 1
    return k


def verb_instead(clause: Sequence[Tok]) -> list[Tok]:
    """The clause with a verb taken back replaced by the one said instead."""
    hit = lx.find_first(clause, lx.VERB_PHRASES)
    if hit is None:
        return list(clause)
    at, end = hit[0], hit[0] + len(hit[1])
    again = _taken_back(clause, end)  # "fix, I mean check the boiler"
    if again is not None and lx.phrase_at(clause, again, lx.VERB_PHRASES) is not None:
        return [*clause[:at], *clause[again:]]
    cut = end
    while cut < len(clause) and cut - end <= _THING_MAX and clause[cut].low not in lx.PUNCT:
        cut += 1  # the thing: "inspect the boiler | , sorry, survey it"
    again = _taken_back(clause, cut) if cut > end + 1 else None
    negated = at and clause[at - 1].low in _NOT
    if again is None and negated and cut < len(clause) > cut + 1:
        # "don't fix the gate yet, just look at it" (a thirteenth typed probe: asked what)
        again = cut + 1 + (clause[cut + 1].low == "but") if clause[cut].low == "," else None
        while again is not None and again < len(clause) and clause[again].low in _JUST:
            again += 1
    thing = cut
    while negated and thing > end + 1 and clause[thing - 1].low in _NOT_YET:
        thing -= 1  # "…the gate yet, …", "…the cameras today, …": no part of the thing
    done = again is not None and [t.low for t in clause[again : again + 2]] in (["do", "it"],)
    # Only the thing before, and only a time after: not "don't check the cameras on
    # Friday, do it on Saturday", "don't fix it yourself, do it with Zuri" (a review)
    plain = not any(t.low in _NOT_THING for t in clause[end:thing])
    done = done and plain and again is not None and _no_deed(clause, again + 2)
    if negated and done and again is not None:  # "don't check the cameras today, do it tomorrow"
        kept = _untimed(clause, end, thing)  # "…the cameras on Friday, …": not Friday
        return [*clause[: at - 1], *clause[at:kept], *clause[again + 2 :]]  # (a probe: asked)
    said = lx.phrase_at(clause, again, lx.VERB_PHRASES) if again is not None else None
    if again is None or said is None or said[0] in _SETTING:
        return list(clause)
    it = again + len(said)
    said_again = thing > end and [t.low for t in clause[it : it + thing - end]] == [
        t.low for t in clause[end:thing]
    ]
    if said_again:  # "investigate the leak, sorry, repair the leak" (T23: investigated)
        return [*clause[: at - 1 if negated else at], *clause[again:]]
    afters = _AFTER_IT | ({"first"} if negated else set())  # "don't fix…, look at it first"
    after = it + 1 + (it + 1 < len(clause) and clause[it + 1].low in afters)  # "…it instead"
    ends = after >= len(clause) or clause[after].low in lx.PUNCT
    ends = ends or lx.phrase_at(clause, it + 1, lx.TARGET_STOPS) is not None  # "…it by Friday"
    if it >= len(clause) or clause[it].low not in _IT or not ends:
        return list(clause)
    first = at - 1 if negated and clause[again - 1].low != "no" else at  # "don't" no more
    return [*clause[:first], *clause[again:it], *clause[end:thing], *clause[after:]]


_NOT_THING: Final = frozenset(lx.words("with yourself himself herself themselves alone"))
_TIME_CUES: Final = frozenset(lx.words("on by until till this next before after at in over"))


def _no_deed(clause: Sequence[Tok], k: int) -> bool:
    """Whether the words from `k` to the sentence's end are a time alone
    ("…, do it next week", "…at the weekend"; not "…tomorrow with Zuri",
    "…for Gran", "…properly", "…when it's dry": a review)."""
    said = []
    while k < len(clause) and clause[k].low not in (".", "!", "?"):
        said.append(clause[k].low)
        k += 1
    timed = (w in _TIME_SAID or w[:1].isdigit() for w in said if w not in lx.PUNCT)
    return bool(said) and all(timed)


def _untimed(clause: Sequence[Tok], start: int, end: int) -> int:
    """Where the thing from `start` ends before a time said with it ("the
    cameras on Friday", "the gate today": the thing; "the night light": whole)."""
    for k in range(start + 1, end):
        cued = clause[k - 1].low in _TIME_CUES and clause[k].low in TEMPORAL_WORDS
        if cued or clause[k].low in _DAY_WORDS:
            return k - cued
    return end


_DAY_WORDS: Final = frozenset(lx.words("today tonight tomorrow yet now"))
_TIME_SAID: Final = (
    TEMPORAL_WORDS | _TIME_CUES | frozenset(lx.words("the a first thing please then"))
)
