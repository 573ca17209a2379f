"""A name taken back before the order: "Kofi, no, Zuri, fix the gate",
"Not Kofi, Zuri. Fix the gate.", "Ask Kofi to, uh, no, ask Zuri to check
the hives", "Ask Zuri, I mean Imani, to help with the cooking".

Where the command starts again after the correction, so that the name said
last is the address (before, the name taken back got the order). Only when
a roster name stands on each side of the correction word, close to it, and
the order's verb comes after the second, and the second is addressed (a
comma, a full stop, "to" or a modal after it, or the verb): "Fix the gate,
Kofi, no, Zuri" needs no restart, "Kofi, no shouting, fix the gate" is no
correction, and "Kofi, sorry, Zuri is away, so fix the gate" is Kofi's.
Pure: tokens in, an index out; `address` reads the address from there.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Collection, Sequence
from typing import Final

from vac.intent import lexicon as lx
from vac.intent.calendar_words import TEMPORAL_WORDS
from vac.intent.lexicon import Tok
from vac.intent.roster import Roster

_TAKE_BACK: Final = lx.phrases(
    # "make that" only before a name (`past_make_that`): "make" is a verb too.
    [
        *("no", "i mean", "i meant", "sorry", "actually", "or rather", "rather", "wait"),
        *("make that", "correction", "scratch that"),  # the last two: T23 and a review
    ]
)
# What may stand between a name and the correction word ("to": "Ask Kofi
# to, no, …"), and between it and the name said instead.
_BEFORE: Final = (
    lx.PUNCT
    | lx.FILLERS
    | lx.FRAME_WORDS
    | frozenset({"to", "no", "not", "wait", "sorry", "actually", "oh", "or"})  # "or actually no"
)
_AFTER: Final = lx.PUNCT | lx.FILLERS | lx.FRAME_WORDS | frozenset({"no", "not", "wait"})
# After the name said instead: it is addressed ("…, Zuri, fix", "…ask Zuri
# to…"), not the start of a statement ("sorry, Zuri is away, so…").
_ADDRESSED: Final = frozenset(
    {",", ".", ":", ";", "!", "to", "please"}
    | set(lx.words("should can could will would must needs need has have"))
)
_NEAR: Final = 4  # words
_APART_AFTER: Final = frozenset({",", ".", ":", ";", "!"})  # the name said instead, set apart


def past_make_that(
    toks: Sequence[Tok], hit: tuple[int, lx.Phrase] | None, is_name: Callable[[Tok], bool]
) -> tuple[int, lx.Phrase] | None:
    """The first verb, or the one after "make that Zuri," when "make" is
    that: a name taken back ("Kofi, make that Zuri, fix the gate"), not the
    verb (it was: Kofi builds Zuri)."""
    if hit is None or hit[1] != ("make",) or hit[0] + 3 >= len(toks):
        return hit
    that, name, after = toks[hit[0] + 1 : hit[0] + 4]
    addressed = after.low in _ADDRESSED or lx.phrase_at(toks, hit[0] + 3, lx.VERB_PHRASES)
    if that.low != "that" or not is_name(name) or not addressed:
        return hit
    later = lx.find_first(toks[hit[0] + 3 :], lx.VERB_PHRASES)
    return None if later is None else (hit[0] + 3 + later[0], later[1])


# After "make it / make that": how soon or how important, never a thing.
_HOW_OR_WHEN: Final = frozenset(
    lx.words("""urgent urgently asap priority quick quicker snappy sooner soon later tomorrow
    tonight today now next this monday tuesday wednesday thursday friday saturday sunday
    morning afternoon evening weekend""")
)

_CLOCK: Final = frozenset(
    lx.words("""half quarter noon midday midnight at by before around lunchtime teatime
    dinnertime""")
)


def made_how(clause: Sequence[Tok], names: Collection[str] = ()) -> frozenset[int]:
    """ "make it urgent", "make that Friday", "make it a priority to fix the
    gate", "make it Zuri": "make it" changes how, when or who, and builds
    nothing (it was "Abeni will build it urgent", and "Kofi will build
    Zuri": a probe). Its two words, to be read past as no verb."""
    agents = {n.lower() for n in names}
    out: set[int] = set()
    for k, tok in enumerate(clause[:-2]):
        said = [t.low for t in clause[k + 1 : k + 5]] + [""]
        how = next(w for w in said[1:] if w not in ("a", "top", "high", "low", "real"))
        made = tok.low == "make" and said[0] in ("it", "that")
        # "make it 7pm", "make it half six", "make it the 15th" (a conversation probe,
        # T25c: "What should Tariq build?")
        clock = how[:1].isdigit() or how in _CLOCK or (how == "the" and said[2][:1].isdigit())
        if made and (how in _HOW_OR_WHEN or clock or said[1] in agents):
            out.update((k, k + 1))
    return frozenset(out)


def restart_at(
    toks: Sequence[Tok], i: int, verb_at: int, is_name: Callable[[Tok], bool]
) -> int | None:
    """Where the order starts again after a name taken back (`_taken_back_at`)
    or after words said to someone else (`_called_again`)."""
    return _taken_back_at(toks, i, verb_at, is_name) or _called_again(toks, i, verb_at, is_name)


def _called_again(
    toks: Sequence[Tok], i: int, verb_at: int, is_name: Callable[[Tok], bool]
) -> int | None:
    """Where the name said right before the order is, after a break, when
    another name was said first with words of its own: "Tariq, sit down —
    Kofi, fix the tap" is Kofi's (a typed probe, T24: Tariq's)."""
    k = verb_at - 1 - (verb_at - 1 > i and toks[verb_at - 1].low == ",")
    if k <= i + 1 or not is_name(toks[k]) or toks[k - 1].low not in lx.PUNCT or _not_you(toks, k):
        return None
    first = next((m for m in range(i, k) if is_name(toks[m])), None)
    if first is None or toks[first].low == toks[k].low:
        return None
    if toks[first + 1].low in _BEING:
        return None  # "Kofi is here. Zuri, fix the gate.": no news, still asked
    said = [t for t in toks[first + 1 : k] if t.low not in lx.PUNCT and not is_name(t)]
    if not said or any(t.low in _OF_THE_ORDER or t.low[:1].isdigit() for t in said):
        # "Kofi, tomorrow morning, Zuri, fix…", "Kofi, it's urgent, Zuri…", "Kofi,
        # please, Zuri…": words of the order, or for both (a review); asked as before
        return None  # "Kofi, Zuri, fix the gate": both called
    return k


_BEING: Final = frozenset(lx.words("is 's was are has"))
_OF_THE_ORDER: Final = TEMPORAL_WORDS | frozenset(
    lx.words("""urgent urgently asap quick quickly please too also in at on by before after
    until till inside outside garden house yard and both""")
)


def _taken_back_at(
    toks: Sequence[Tok], i: int, verb_at: int, is_name: Callable[[Tok], bool]
) -> int | None:
    """The index after the correction in toks[i:verb_at], if a name is taken
    back there for another ("Kofi, no, Zuri, …"; "Not Kofi, Zuri. …")."""
    names = [k for k in range(i, verb_at) if is_name(toks[k])]
    if len(names) < 2:
        return None
    first, second = names[0], names[-1]
    if toks[first].low == toks[second].low or _not_you(toks, second):
        return None  # "Kofi, no, not you Tariq, …": Tariq is told he is not the one
    if first > i and toks[first - 1].low == "not":  # "Not Kofi, Zuri."
        addressed = second + 1 == verb_at or (
            second + 1 < len(toks) and toks[second + 1].low in _ADDRESSED
        )
        return first + 1 if second - first <= _NEAR and addressed else None
    after = toks[second + 1].low if second + 1 < len(toks) else ""
    if after not in _ADDRESSED and second + 1 != verb_at:
        return None
    for m in range(first + 1, second):
        said = lx.phrase_at(toks, m, _TAKE_BACK)
        if said is None:
            continue
        end = m + len(said)
        near = m - first <= _NEAR and second - end <= _NEAR
        # "Kofi, sorry, not Kofi, Tariq, …": the name taken back may be said again
        plain = all(t.low in _BEFORE for t in toks[first + 1 : m]) and all(
            t.low in _AFTER or t.low == toks[first].low for t in toks[end:second]
        )
        if near and plain:
            return end
    return None


def _not_you(toks: Sequence[Tok], k: int) -> bool:
    """Whether the name at `k` is told "not you" (a typed probe, T24: the order went to it)."""
    return k >= 2 and [toks[k - 2].low, toks[k - 1].low] == ["not", "you"]


def names_taken_back(toks: Sequence[Tok], roster: Roster) -> list[Tok]:
    """The tokens without a name taken back for another anywhere ("fix the
    porch light, Kofi, sorry I mean Zuri, it's flickering": a typed probe
    sent it to the default agent; `restart_at` reads one said first)."""
    names = [k for k, t in enumerate(toks) if roster.get(t.text) is not None]
    for first, second in itertools.pairwise(names):
        after = toks[second + 1].low if second + 1 < len(toks) else "."
        if (
            toks[first].low == toks[second].low
            or after not in _APART_AFTER
            or _not_you(toks, second)
        ):
            continue  # "…, help Imani, actually Zuri should do it": Zuri's deed (a review)
        if lx.phrase_at(toks, second + 2, lx.VERB_PHRASES) is not None:
            continue  # "…on Imani, or rather, Zuri, check on her": an order said to Zuri
        for m in range(first + 1, min(second, first + _NEAR + 1)):
            said = lx.phrase_at(toks, m, _TAKE_BACK)
            if said is None or said == ("make", "that"):
                continue
            end = m + len(said)
            before = all(t.low in _BEFORE for t in toks[first + 1 : m])
            if before and second - end <= _NEAR and all(t.low in _AFTER for t in toks[end:second]):
                return [*toks[:first], *toks[second:]]
    return list(toks)
