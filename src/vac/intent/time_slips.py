"""Time words as the recogniser (or a hurried typist) writes their
sound-alikes: "next weak", "the weak end", "fry day", "two day", "for
o'clock", "buy the weekend", "by to". A blind probe (T29): each left the
deadline out without a word ("kofi repair the fence by next weak" drafted
no time at all), or put it in the thing ("Boiler two day", "Gate buy the
weekend").

Only where the sound-alike cannot be meant as written: "weak" after "next",
"this", "last", "every" or before "end" ("a weak spot" stays), "two day"
ending the clause after a thing ("a two day course" stays), "for" / "to"
right before "o'clock" or ending the clause after "by" ("by for", "by to":
an hour), "buy" after a thing and before "the weekend", "next week"…
("go buy the weekend papers" stays). Pure: tokens in, tokens out (their
offsets still point into the words said).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from vac.intent.contractions import is_said
from vac.intent.tokens import Tok

_ENDS: Final = frozenset({"", ".", ",", "!", "?", ";"})
_BEFORE_WEEK: Final = frozenset({"next", "this", "last", "every", "each", "per", "coming"})
_COUNTS: Final = frozenset({"a", "one", "two", "three", "four", "the"})
_AFTER_WEEK: Final = _ENDS | {"from", "or", "and", "time", "'s", "s", "end"}
# Split day names ("fry day" as the recogniser writes "Friday").
_DAY_HALVES: Final = {
    "fry": "friday",
    "fri": "friday",
    "mon": "monday",
    "tues": "tuesday",
    "wednes": "wednesday",
    "thurs": "thursday",
    "satur": "saturday",
    "sun": "sunday",
}
_NUMBERS: Final = {"for": "four", "to": "two", "too": "two"}
# After "buy" these make it "by": "fix the gate buy the weekend".
_BUY_TIMES: Final = frozenset({"weekend", "week", "end", "month", "tonight", "tomorrow"})
# Words before "buy" that make it a purchase ("go buy the weekend papers").
_PURCHASE: Final = frozenset(
    {"then", "go", "and", "to", "please", "can", "could", "you", "will", "i", "we", "also"}
    | {"or", "should", "must", "just", "not", "never", "don't", "didn't"}
)
_ARTICLES: Final = frozenset({"the", "my", "our", "your", "his", "her", "their"})
# In a thing's place these make it a clause: "the beer they buy…", "the gate we walk by".
_NOT_A_THING: Final = frozenset(
    {"they", "we", "i", "you", "he", "she", "it", "people", "kids", "who", "where", "which"}
    | {"that", "is", "was", "are", "be", "been", "close", "near", "next", "first", "last"}
    # "fix the gate within / in / for two day": a length (a review)
    | {"within", "in", "for", "about", "around", "over", "after", "before", "by", "at", "on"}
    | {"every", "each", "of", "from", "until", "till", "than", "or", "and", "but", "just", "only"}
)
# Before a split day name: a time is said ("on fry day"), not "a fish fry day" (a review).
_DAY_CUES: Final = frozenset({"on", "by", "this", "next", "before", "until", "till", "from"})
_DAY_CUES_MORE: Final = frozenset({"last", "every", "since", "for", ",", "."})


def time_slips(toks: Sequence[Tok]) -> list[Tok]:
    out = is_said(toks)  # "Tariq's back": the name, then "is" (`contractions`)
    k = 0
    while k < len(out):
        low = out[k].low
        before = out[k - 1].low if k else ""
        after = out[k + 1].low if k + 1 < len(out) else ""
        after2 = out[k + 2].low if k + 2 < len(out) else ""
        if (
            low in _DAY_HALVES
            and after == "day"
            and (before in _DAY_CUES | _DAY_CUES_MORE or k == 0)
        ):
            out[k : k + 2] = [_joined(out[k], out[k + 1], _DAY_HALVES[low])]  # "on fry day"
        elif low == "weak" and after == "end":
            out[k : k + 2] = [_joined(out[k], out[k + 1], "weekend")]  # "by the weak end"
        elif low == "half" and after == "term":
            out[k : k + 2] = [_joined(out[k], out[k + 1], "half-term")]  # "by half term": asked
        elif low == "now" and after == "now" and out[k + 1].start - out[k].end == 1:
            out[k : k + 2] = [_joined(out[k], out[k + 1], "soon")]  # South African "now-now"
        elif low == "weakend":
            out[k] = out[k]._replace(low="weekend")
        elif low == "weak" and (
            before in _BEFORE_WEEK | _COUNTS and after in _AFTER_WEEK - {"end"}
        ):
            out[k] = out[k]._replace(low="week")  # "by next weak", "within a weak"
        elif low == "two" and after == "day" and after2 in _ENDS and _after_a_thing(out, k):
            out[k : k + 2] = [_joined(out[k], out[k + 1], "today")]  # "check the boiler two day"
        elif low in _NUMBERS and after == "o'clock":
            out[k] = out[k]._replace(low=_NUMBERS[low])  # "by for o'clock"
        elif low in _NUMBERS and before == "by" and after in _ENDS - {","}:
            out[k] = out[k]._replace(low=_NUMBERS[low])  # "fix the gate by to"
        elif (
            low == "buy"
            and before not in _PURCHASE
            and _after_a_thing(out, k)
            and _buy_time(out, k)
        ):
            out[k] = out[k]._replace(low="by")  # "fix the gate buy the weekend"
        k += 1
    return out


def _after_a_thing(out: Sequence[Tok], k: int) -> bool:
    """The words right before `k` are a thing: its article and one or two
    more ("check the boiler | two day", "fix the back gate | buy the
    weekend"); not "in about two day", "we're away two day", "the beer
    they buy the weekend" (a review)."""
    lows = [t.low for t in out[max(0, k - 4) : k]]
    at = next((j for j in range(len(lows) - 2, -1, -1) if lows[j] in _ARTICLES), None)
    return at is not None and all(w.isalpha() and w not in _NOT_A_THING for w in lows[at + 1 :])


def _buy_time(out: Sequence[Tok], k: int) -> bool:
    """ "buy" before "the weekend", "next week", "the end of…" ending the clause."""
    rest = [t.low for t in out[k + 1 : k + 5]]
    j = 1 if rest[:1] in (["the"], ["next"], ["this"]) else 0
    if rest[j : j + 1] == ["end"]:
        return True  # "buy the end of the week"
    tail = rest[j + 1 : j + 2]
    return bool(rest[j : j + 1]) and rest[j] in _BUY_TIMES and (not tail or tail[0] in _ENDS)


def _joined(first: Tok, second: Tok, low: str) -> Tok:
    return Tok(f"{first.text} {second.text}", low, first.start, second.end)


# Before "by" these make it a visit or a wait, not a lost time ("drop by").
_COME_BY: Final = frozenset(
    {"stand", "drop", "pop", "come", "stop", "swing", "pass", "go", "get", "call", "stood"}
    | {"dropped", "popped", "came", "stopped", "passed", "went", "got", "called", "standing"}
    | {"comes", "goes", "close", "near", "nearby", "stands"}
)


def by_alone(toks: Sequence[Tok], at: int) -> bool:
    """ "by" at `at` ends what was said right after a thing, its time lost
    ("fix the gate by"); not "drop by", "the gate we walk by", "close by"."""
    if not 0 < at < len(toks) or toks[at].low != "by" or toks[at - 1].low in _COME_BY:
        return False
    ends = at + 1 == len(toks) or toks[at + 1].low in (".", "!")
    return ends and _after_a_thing(toks, at)
