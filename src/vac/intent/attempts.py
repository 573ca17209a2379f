"""An order said as a try or a look: "have a crack at fixing the gate",
"have a go at mending the fence", "have a squiz at the hens", "give the
gate a once-over", "give the hives a check".

Read as the plain order ("fix the gate", "check the hens", "check the
gate"). Before, a fourth typed probe found "have a crack at fixing the
gate" drafted as a repair of "a crack" at the gate, and "give the gate a
fix" asked what to repair. The tokens keep their offsets into what was
said; the verb's token carries the verb as its lower-case word, as
`when_said.said_as_fine` does. Pure: tokens in, tokens out.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Final

from vac.intent import calendar_words as cw
from vac.intent import lexicon as lx
from vac.intent.deed_nouns import deed_nouns_said
from vac.intent.lexicon import Tok, words
from vac.intent.when import resolve

_FRAMES: Final = frozenset(words("have take give"))
# "have a crack at fixing…": a try, then the deed said as "-ing".
_TRIES: Final = frozenset(words("go crack bash stab shot try"))
# "have a squiz at the hens": a look at the thing.
_LOOKS: Final = frozenset(words("look squiz gander peek peep butchers butcher's quick swatch"))
# "give the gate a fix": the deed said as a noun after the thing.
_GIVEN: Final[dict[str, str]] = {
    "fix": "fix",
    "mend": "mend",
    "check": "check",
    "look": "check",
    "once": "check",  # "a once-over" (two tokens)
    "going": "check",  # "a going-over"
    "inspection": "inspect",
    "patch": "patch",
    "service": "service",  # "give the lawnmower a service" (a thirteenth typed probe: asked what)
    "checkup": "check",
}
_THING_MAX: Final = 4
_HOW: Final = frozenset(words("good quick proper thorough decent little careful"))


# "check if the well is dry", "find out if…": what to look into, read as
# "whether" (a fourth typed probe: each asked what to look into). Only when
# the question says no time, repeat or haste of its own ("find out if the
# market is open on Monday" is still asked: a review found such a day, and
# "24/7", taken for the order's).
_ASKS_IF: Final = frozenset(words("check see out know ask"))
_INNER_TIME: Final = frozenset(
    words("""today tonight tomorrow yesterday week weekend month morning afternoon evening
    night every always now soon urgent asap daily""")
)


_STOP_WORDS: Final = frozenset(p[0] for p in lx.TARGET_STOPS if len(p) == 1)
# Any day will do to tell whether a time is said at all.
_ANY_DAY: Final = dt.datetime(2026, 1, 5, 12, 0, tzinfo=dt.UTC)


def _asked_whether(clause: list[Tok]) -> list[Tok]:
    for k, tok in enumerate(clause):
        # "check with Abeni if…", "find out from Mum if…": what to ask them
        asked = k > 2 and clause[k - 3].low in _ASKS_IF and clause[k - 2].low in ("with", "from")
        if tok.low != "if" or k == 0 or (clause[k - 1].low not in _ASKS_IF and not asked):
            continue
        toks: list[Tok] = []
        for t in clause[k + 1 :]:
            if t.low in lx.PUNCT:
                break
            toks.append(t)
        inner = [t.low for t in toks]
        if resolve(toks, _ANY_DAY) is not None:
            return clause  # a time of its own ("…coming for Christmas"): asked
        if inner[:1] in (["you"], ["u"], ["it's"]) or not inner:
            return clause  # "check if you can", a courtesy
        if any(w in _INNER_TIME or w in cw.DAY_NAMES or w[:1].isdigit() for w in inner):
            return clause
        if any(w in _STOP_WORDS for w in inner):
            return clause  # "…if the shop on the corner is open": the thing would be cut
        return [*clause[:k], tok._replace(low="whether"), *clause[k + 1 :]]
    return clause


def attempts_joined(clause: Sequence[Tok]) -> list[Tok]:
    """The clause with the first try, look or given deed read as its plain
    order, and "check if …" as "check whether …"."""
    clause = deed_nouns_said(_made_time(_asked_whether(list(clause))))  # "see to the repair of"
    lows = [t.low for t in clause] + ["", "", "", ""]
    for i, low in enumerate(lows[: len(clause)]):
        if low not in _FRAMES:
            continue
        if lows[i + 1] == "a" and lows[i + 3] == "at":
            kind = lows[i + 2]
            deed = clause[i + 4] if i + 4 < len(clause) else None
            if kind in _TRIES and deed is not None and deed.low.endswith("ing"):
                verb = deed._replace(low=lx.base_form(deed.low))
                return [*clause[:i], verb, *clause[i + 5 :]]
            if kind in _LOOKS and deed is not None:  # "have a look at the hens"
                verb = clause[i + 2]._replace(low="check")
                return [*clause[:i], verb, *clause[i + 4 :]]
        if low == "give":
            given = _given(clause, lows, i)
            if given is not None:
                return given
    return list(clause)


def _made_time(clause: list[Tok]) -> list[Tok]:
    """ "make time to fix the gate", "make a start on fixing the gate", "make
    you fix the gate" (Nigerian English) → "fix the gate" (a seventh typed
    probe: each built "Time", "Start", "You fix the gate"); only where a
    verb of ours follows the frame."""
    for i, tok in enumerate(clause):
        frame = lx.phrase_at(clause, i, _MAKE_FRAMES) if tok.low in _FRAME_FIRSTS else None
        if frame is None or i + len(frame) >= len(clause):
            continue
        go = i + len(frame) + 1 < len(clause) and clause[i + len(frame)].low in ("go", "come")
        frame = (*frame, "go") if go else frame  # "make you go check the borehole" (a probe)
        deed = clause[i + len(frame)]
        if deed.low.endswith("ing"):
            deed = deed._replace(low=lx.base_form(deed.low))
        rest = [deed, *clause[i + len(frame) + 1 :]]
        if lx.phrase_at(rest, 0, lx.VERB_PHRASES) is not None:
            return [*clause[:i], *rest]
    return clause


_MAKE_FRAMES: Final = lx.phrases(
    [
        *("make time to", "make the time to", "make an effort to", "make a start on"),
        *("make a point of", "make a start at", "make sure to", "make una", "make you"),
        # "start by checking the fuse box" (a blind probe, T29: asked what to do)
        *("start by", "begin by", "start off by", "begin with", "start with"),
    ]
)
_FRAME_FIRSTS: Final = frozenset(p[0] for p in _MAKE_FRAMES)


def _given(clause: Sequence[Tok], lows: Sequence[str], i: int) -> list[Tok] | None:
    """ "give the gate a fix" → "fix the gate" (a thing of a few words first)."""
    if lows[i + 1] not in lx.DETERMINERS:
        return None
    for k in range(i + 2, min(i + 2 + _THING_MAX, len(clause))):
        if lows[k] in lx.PUNCT:
            return None
        if lows[k] not in ("a", "an"):
            continue
        at = k + 1 + (lows[k + 1] in _HOW)  # "a good fix", "a quick check"
        if lows[at] in _GIVEN:
            extra = 1 if lows[at] in ("once", "going") and lows[at + 1] == "over" else 0
            verb = clause[at]._replace(low=_GIVEN[lows[at]])
            return [*clause[:i], verb, *clause[i + 1 : k], *clause[at + 1 + extra :]]
    return None
