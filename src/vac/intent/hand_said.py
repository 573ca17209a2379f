"""A priority or a hand said whole after a draft ("it can wait", "use your
judgment", "run it by me first"), or said of a part of the work ("check
with me before calling the police", "use your own judgement on the
design"): a change of that slot alone, the words said whole.

Pure: words in, a yes or no out.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Final

from vac.intent import calendar_words as cw
from vac.intent import lexicon as lx
from vac.intent.lexicon import words
from vac.intent.tokens import raw_tokens

# Said in a hand's tail, these say more than the hand: a time ("before Thursday").
_TIMES: Final = frozenset(
    words("today tonight tomorrow tmrw 2moro 2day 2nite now week weekend month year next")
) | frozenset(cw.WEEKDAYS)


def hand_or_haste(lows: list[str], agents: Collection[str] = ()) -> bool:
    """A priority or a hand said whole and nothing else ("it can wait", "use
    your judgment", "run it by me first": a typed probe, each no change)."""
    words_said = [w for w in lows if w not in lx.PUNCT]
    if words_said[:1] in (["and"], ["but"], ["oh"], ["also"], ["nah"], ["yeah"], ["yep"], ["sure"]):
        words_said = words_said[1:]  # "nah it can wait", "yeah it's urgent" (a probe: no change)
    if words_said[:1] in (["it's"], ["its"], ["that's"]) or words_said[:2] == ["it", "is"]:
        words_said = words_said[1 + (words_said[0] == "it") :]  # "it's not urgent (anymore)"
        words_said = words_said[words_said[:1] in (["a"], ["an"]) :]  # "it's an emergency"
    # How, said alone: "carefully", "quietly please" (a conversation probe,
    # T28c: each "I heard you, but not what to do", and the yes lost it).
    if (how := [w for w in words_said if w not in _AFTER_A_HAND]) and " ".join(how) in _HOW_ALONE:
        return True
    toks = raw_tokens(" ".join(words_said))
    cue = lx.phrase_at(toks, 0, lx.MANNER_CUES) if toks else None
    tail = words_said[len(cue or ()) :]
    about = bool(tail[:1] and tail[0] in _HAND_ABOUT) or bool(cue and cue[-1] in _HAND_ABOUT)
    # Not a time, a name or an amount in it: "check with me before Thursday",
    # "…about Zuri doing it", "ask me before you spend over £50" (a review).
    more = {*tail} & (_TIMES | {*agents} | _SPENDING)
    if (
        about
        and len(tail) <= _HAND_ABOUT_MAX
        and not more
        and not any(_AMOUNT.search(w) for w in tail)
    ):
        tail = []  # "check with me before calling the police", "use your judgement on the design"
    if cue is None or not {*tail} <= _AFTER_A_HAND:  # "…by me first"
        return False
    # A free hand said alone only when it says what is left to the agent: "as
    # you wish", "you decide", "i trust you" are as often a yes (a review).
    return cue not in _FREE_CUES or bool({*cue} & _SAYS_HOW_FREE)


_FREE_CUES: Final = frozenset(p for mode, ps in lx.AUTONOMY_CUES if mode == "free" for p in ps)
_SAYS_HOW_FREE: Final = frozenset(
    words("judgment judgement check ask asking run permission approval discretion ok okay consult")
)


# A hand said of one part of the work (an eleventh typed probe: no change).
_HAND_ABOUT: Final = frozenset(words("before on about with for over"))
_HAND_ABOUT_MAX: Final = 7
_SPENDING: Final = frozenset(words("spend spending over more than anything cost costs"))
_AMOUNT: Final = re.compile(r"\d|[£$€₦]")
_AFTER_A_HAND: Final = frozenset(
    words("first start starting please then thanks anything anymore now after all really btw")
)
_HOW_ALONE: Final = frozenset(
    {*lx.PACE_CUES, *(" ".join(p) for p in lx.PRIVACY_CUES), "be careful", "be gentle"}
)
