"""A deadline taken back for another right after it: "fix the fence on
Monday, sorry, Tuesday", "guard the garage tonight, no wait, tomorrow
night", "build the shed by the 12th, no, the 19th", "…by Friday, I mean
Saturday", "…tomorrow, or rather Sunday". Before, the first time was kept
and read back (the second was dropped or named as "one thing at a time").

Only when the words between the two are a break and correction words alone
(as for a thing, `instead`; here "sorry" and "actually" count too: a time
said alone after them can only replace the first), and the second time is
said alone: it ends the clause or a part ("…, sorry, Tuesday is busy" is
a remark; "…, no, Sunday is better" is not), and both are days or both
hours ("…tomorrow, sorry, at noon" stays tomorrow). The last of several
counts. Pure: tokens in, a deadline out.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Final

from vac.intent import lexicon as lx
from vac.intent.lexicon import Tok, words
from vac.intent.when import Unresolved, When, resolve, said_alone
from vac.intent.when_hours import clock
from vac.intent.when_match import Hit, word_at

_CORRECTING: Final = frozenset(
    lx.words("no sorry actually wait i mean meant rather make that correction scratch oops")
)
# "or" alone: an alternative; "it" in "make it Saturday"
_FILLERS: Final = frozenset(lx.words("oh um uh er well or it"))
_BREAKS: Final = lx.PUNCT | {"-", "—", "–"}
_CORRECTIONS_MAX: Final = 3


def _clock(clause: Sequence[Tok], when: When, now: dt.datetime) -> bool:
    """Whether the time is an hour of the day ("at noon", "by 6:30")."""
    return any(isinstance(clock(clause, k, now, True), Hit) for k in (when.start, when.start + 1))


def time_instead(clause: Sequence[Tok], when: When, now: dt.datetime, skip: frozenset[int]) -> When:
    """`when`, or the time said instead of it, spanning both (the words of
    the first stay out of the thing and of what else was said)."""
    first, n = when, len(clause)
    for _ in range(_CORRECTIONS_MAX):
        k = when.end
        while k < n and clause[k].low in _CORRECTING | _FILLERS | _BREAKS:
            k += 1
        lows = {t.low for t in clause[when.end : k]}
        # After a correction, a day within the one said instead narrows it:
        # "…next week, actually this week, by Friday" (an eleventh typed probe: the week's end).
        narrows = when is not first and lows <= _BREAKS
        # The correction said after the time instead: "on Monday — Tuesday,
        # sorry", "by tonight, well, tomorrow is fine actually" (a fourteenth
        # typed probe kept the first).
        peek = said_alone(clause, k, now) if k > when.end and not lows & _CORRECTING else None
        after = None if peek is None else _taken_after(clause, peek.end)
        # Spoken, the break is often not written: "by Friday no Saturday",
        # "tomorrow night actually tonight" (a twelfth typed probe kept the
        # first); then a strong correction word must say it.
        if k == when.end or not (lows & _CORRECTING or narrows or after):
            break
        if clause[when.end].low not in _BREAKS and not lows & _UNBROKEN:
            break
        later = resolve(clause, now, skip=skip | frozenset(range(k)))
        if not isinstance(later, When) or later.start != k:
            later = said_alone(clause, k, now)  # "…, make that Saturday", "…, no, the 19th"
        if later is None:
            break
        end = after or later.end + _better_at(clause, later.end, lows)
        if end < n and clause[end].low not in _BREAKS:
            break  # "…, sorry, Tuesday is busy": a remark
        if _clock(clause, later, now) != _clock(clause, when, now):
            break  # "…tomorrow, sorry, at noon": which day is that? As said first.
        if narrows and later.iso_date > when.iso_date:
            break  # "…, actually this week, next Tuesday too": no narrowing
        when = When(later.iso_date, later.phrase, later.start, end)
    return When(when.iso_date, when.phrase, _taken_back_before(clause, first, now), when.end)


def _taken_back_before(clause: Sequence[Tok], when: When, now: dt.datetime) -> int:
    """Where a time said alone and taken back for `when` starts: "fix the
    door Monday I mean Tuesday" (a twelfth typed probe kept "Door Monday")."""
    k = when.start
    while k > 0 and clause[k - 1].low in _CORRECTING | _FILLERS | _BREAKS:
        k -= 1
    if k == when.start or not {t.low for t in clause[k : when.start]} & _UNBROKEN:
        return when.start
    for j in range(max(0, k - 3), k):
        said = said_alone(clause, j, now)
        if (
            said is not None
            and said.end == k
            and _clock(clause, said, now) == _clock(clause, when, now)
        ):
            return j
    return when.start


# After the time said instead, with "no" or "I mean" before it: "…on
# Saturday, or no, Sunday is better", "…, no actually Thursday is fine" (an
# eighth typed probe: the first day was kept).
_BETTER: Final = (
    ("is", "better"), ("is", "fine"), ("is", "best"), ("would", "be", "better"),
    ("works", "better"), ("suits", "better"), ("is", "better", "for", "me"),
)  # fmt: skip
_STRONG: Final = frozenset(lx.words("no mean meant actually"))
_UNBROKEN: Final = _STRONG | frozenset(lx.words("sorry rather"))


def _taken_after(clause: Sequence[Tok], k: int) -> int | None:
    """Where "(is fine) (,) sorry / actually / I mean" after a time at `k`
    ends, when the part ends there."""
    better = lx.phrase_at(clause, k, _BETTER)
    k += len(better) if better else 0
    k += k < len(clause) and clause[k].low == ","
    said = lx.phrase_at(clause, k, _AFTER_WORDS)
    if said is None:
        return None
    k += len(said)
    return k if k >= len(clause) or clause[k].low in _BREAKS else None


_AFTER_WORDS: Final = lx.phrases(["sorry", "actually", "i mean", "i meant"])


def _better_at(clause: Sequence[Tok], k: int, said: set[str]) -> int:
    """How many words of "is better" follow the time said instead at `k`."""
    if not said & _STRONG:
        return 0
    found = lx.phrase_at(clause, k, _BETTER)
    return 0 if found is None else len(found)


def then_unsaid(clause: Sequence[Tok], skip: frozenset[int]) -> Unresolved | None:
    """ "…before then", "…by then" ending its part with no time said for it
    to point back to: asked, never dropped (a thirteenth typed probe: "the
    landlord's coming on Monday, so Kofi, repair the tiles before then" was
    due whenever)."""
    for k in range(len(clause) - 1):
        ends = word_at(clause, k + 2) in _THEN_ENDS
        if k not in skip and clause[k].low in _BY_THEN and clause[k + 1].low == "then" and ends:
            return Unresolved(k, k + 2)
    return None


_BY_THEN: Final = frozenset(words("by before until till"))
_THEN_ENDS: Final = frozenset(words(". , ! ? please thanks")) | {""}
