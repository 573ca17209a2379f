"""How the steward wants it done: priority and autonomy from cue tables.

The tables are `lexicon.PRIORITY_TIERS` and `lexicon.AUTONOMY_CUES`. Cues
are read left to right, the longest cue at a position winning across every
tier, and a matched cue's words are not read again: so "not urgent" is not
"urgent", and "no need to check with me" is not "check with me". Among the
tiers found, the table's order decides.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Final, NamedTuple, TypeVar

from vac.intent import calendar_words as cw
from vac.intent import lexicon as lx
from vac.intent.conditions import whenever_event
from vac.intent.describing import describing
from vac.intent.lexicon import Phrase, Tok
from vac.intent.need_not import need_not_at
from vac.intent.when_match import word_at
from vac.protocol.objective import Autonomy

T = TypeVar("T")


def cue_hits(
    toks: Sequence[Tok],
    tiers: Sequence[tuple[T, tuple[Phrase, ...]]],
    *,
    skip: frozenset[int] = frozenset(),
) -> list[tuple[T, int, int]]:
    """(tier, start, end) of every cue, leftmost-longest, none overlapping."""
    table = sorted(
        ((phrase, tier) for tier, phrases in tiers for phrase in phrases),
        key=lambda item: len(item[0]),
        reverse=True,
    )
    # Grouped by first word (longest first within each): only the cues that
    # start with a word are tried there (each cue at each word was ~0.5 s
    # for a 2,000-character text, on the event loop).
    starting: dict[str, list[tuple[Phrase, T]]] = {}
    for phrase, tier in table:
        starting.setdefault(phrase[0], []).append((phrase, tier))
    hits: list[tuple[T, int, int]] = []
    i = 0
    while i < len(toks):
        cues = () if i in skip else starting.get(toks[i].low, ())
        found = next((c for c in cues if lx.match_at(toks, i, c[0])), None)
        if found is None:
            i += 1
            continue
        hits.append((found[1], i, i + len(found[0])))
        i += len(found[0])
    return hits


def _first_tier(hits: Sequence[tuple[T, int, int]], order: Sequence[T], default: T) -> T:
    found = {tier for tier, _, _ in hits}
    return next((tier for tier in order if tier in found), default)


# "as soon as you can" asks for speed; "as soon as the snow melts" says when.
_SOON_AS_SPEED: Final = frozenset(lx.words("possible convenient practicable ever"))
_SOON_AS_ABLE: Final = frozenset(lx.words("can could able"))


def _soon_as_when(clause: Sequence[Tok]) -> frozenset[int]:
    """ "soon" in "as soon as <an event>" ("…the snow melts", "…you get
    back"): a time, not a priority; not "…possible", "…you can"."""
    lows = [t.low for t in clause]
    return frozenset(
        k
        for k in range(1, len(lows) - 2)
        if lows[k - 1 : k + 2] == ["as", "soon", "as"]
        and not {*lows[k + 2 : k + 5]} & (_SOON_AS_SPEED | _SOON_AS_ABLE)
    )


def _whenever_when(clause: Sequence[Tok]) -> frozenset[int]:
    """ "whenever" before an event of its own ("…whenever it rains"): a
    time, not a priority (a probe: "no rush"); not "whenever it suits you"
    or "whenever you can"."""
    lows = [t.low for t in clause]
    return frozenset(k for k, w in enumerate(lows) if w == "whenever" and whenever_event(lows, k))


def priority_of(clause: Sequence[Tok], skip: frozenset[int]) -> int:
    when = _soon_as_when(clause) | _whenever_when(clause)
    hits = cue_hits(clause, lx.PRIORITY_TIERS, skip=skip | when)
    hits = [(_LOW if _denied(clause, at) else tier, at, end) for tier, at, end in hits]
    # "it isn't a priority right now", "not urgent at the moment": when it is
    # not urgent, not a haste of its own (a typed probe: each was 90).
    denied_ends = {
        end
        for tier, at, end in hits
        if tier == _LOW and (_denied(clause, at) or any(t.low in _DENY for t in clause[at:end]))
    }
    hits = [h for h in hits if h[1] not in denied_ends]  # right after it: "not urgent, asap" is 90
    # "urgent — well, not urgent, but soon": the haste said, then taken back (T23: 90)
    back = {(t.low, at) for tier, at, end in hits if tier == _LOW for t in clause[at:end]}
    hits = [h for h in hits if not any(w == clause[h[1]].low and at > h[1] for w, at in back)]
    # "fix them all at once": together, not now; "in a bit of a mess": a state, not soon
    hits = [
        h for h in hits if not (lx.match_at(clause, h[1], _AT_ONCE) and _all_before(clause, h[1]))
    ]
    hits = [h for h in hits if not _a_bit_of(clause, h) and not _modifies(clause, h)]
    hits = [h for h in hits if not _or_asked(clause, h[1])]
    if not hits and (now := _now_last(clause)) is not None and now not in skip:
        hits.append((max(tier for tier, _ in lx.PRIORITY_TIERS), now, now + 1))
    return _first_tier(hits, [tier for tier, _ in lx.PRIORITY_TIERS], lx.DEFAULT_PRIORITY)


# "fix the gate now", "KOFI FIX THE GATE NOW!": at once (a fourth typed probe:
# 55). Not "…for now", "…until now", "…by now", "…just now", "…even now",
# "no, not now" (a conversation probe: it made the draft urgent).
_NOT_NOW_AFTER: Final = frozenset(
    lx.words("for until till by from just even right than and up not")
)
_AFTER_NOW: Final = frozenset(lx.words("please pls thanks thank you"))


def _now_last(clause: Sequence[Tok]) -> int | None:
    """Where "now" ends the order's words (before "please" / punctuation), or None."""
    k = len(clause) - 1
    while k > 0 and (clause[k].low in lx.PUNCT or clause[k].low in _AFTER_NOW):
        k -= 1
    if k < 2 or clause[k].low != "now":
        return None
    why_not = clause[k - 2].low == "why" and clause[k - 1].low == "not"  # haste (a review)
    if clause[k - 1].low in _NOT_NOW_AFTER and not why_not:
        return None
    lows = [t.low for t in clause]
    if any(a == "you" and b in ("can", "may") for a, b in itertools.pairwise(lows)):
        return None  # "you can fix the gate now": leave given, not haste
    part = k
    while part > 0 and lows[part - 1] not in lx.PUNCT:
        part -= 1
    if _BECAUSE & set(lows[part:k]):
        return None  # "…, because Grandma's using a wheelchair now": the reason's (a probe)
    return k


_BECAUSE: Final = frozenset(lx.words("because cos coz cause 'cause since"))


# "not that urgent", "it isn't urgent", "nothing urgent", "not very
# important", "no massive hurry": a haste said not to be (they were 90 or
# 78: "not urgent" alone was the only one read so).
_DENY: Final = frozenset(lx.words("not isn't isnt aren't wasn't nothing no never hardly"))
_LOW: Final = min(tier for tier, _ in lx.PRIORITY_TIERS)


_AT_ONCE: Final = ("at", "once")


# Before a one-word haste cue, these make it part of a thing: "the priority
# lane sign", "the emergency exit light", "my important letter" (a typed
# probe: each set the priority). Not "a": "it's a priority", "as a priority".
_THING_OWNERS: Final = frozenset(lx.words("the my our your his her their this that these those"))


# After the cue, these say it is the order's ("my priority today", "the urgent one").
_NOT_A_THING_AFTER: Final = frozenset(
    lx.words("today tomorrow tonight this now next is was one please then too")
)


def _modifies(clause: Sequence[Tok], hit: tuple[int, int, int]) -> bool:
    """A one-word cue between an owner and the word it describes."""
    _tier, at, end = hit
    if end - at != 1 or at == 0 or end >= len(clause):
        return False
    after = clause[end].low
    return clause[at - 1].low in _THING_OWNERS and after not in lx.PUNCT | _NOT_A_THING_AFTER


# "…, or is the fence more urgent?", "…, or would something else be more
# important?": the haste of an alternative asked about, not the order's (a
# probe: "Kofi, can you fix the gate, or is the fence more urgent?" was 90).
_OR_ASKED: Final = frozenset(lx.words("is are was would should does do isn't aren't"))


def _or_asked(clause: Sequence[Tok], at: int) -> bool:
    """Whether the cue at `at` compares ("more urgent", "more of a priority")
    in a part that began "or is / or would…" or "whichever": not "fix
    whichever light is broken asap", "…, or are you busy? It's urgent" (a
    review: each was 90)."""
    k = at
    while k > 0 and clause[k - 1].low not in lx.PUNCT:
        k -= 1
    lows = [t.low for t in clause[k:at]]
    if "more" not in lows[-4:]:
        return False
    return "whichever" in lows or any(
        a == "or" and b in _OR_ASKED for a, b in itertools.pairwise(lows)
    )


def _next_is(clause: Sequence[Tok], k: int, word: str) -> bool:
    return k < len(clause) and clause[k].low == word


def _a_bit_of(clause: Sequence[Tok], hit: tuple[int, int, int]) -> bool:
    """ "in a bit" / "in a little bit" with "of" after it: "in a bit of a mess"."""
    _tier, at, end = hit
    after = clause[end].low if end < len(clause) else ""
    return clause[at].low == "in" and clause[end - 1].low == "bit" and after == "of"


def _all_before(clause: Sequence[Tok], at: int) -> bool:
    return at > 0 and clause[at - 1].low in ("all", "both")


def _denied(clause: Sequence[Tok], at: int) -> bool:
    """Whether a negation comes right before the cue at `at`, or with only
    words that soften it between ("not that / so / very / in any…"): not
    "nothing more urgent", "not later but right now", "not tomorrow urgently"."""
    if need_not_at(clause, at) is not None:  # "it doesn't need to be done right away"
        return True
    for k in range(at - 1, max(at - 6, -1), -1):  # "not a matter of life or death"
        if clause[k].low in _DENY:
            return True
        if clause[k].low not in _SOFTENERS:
            return False
    return False


_SOFTENERS: Final = frozenset(
    lx.words("""that so very too really super particularly terribly remotely all in any a
    big massive huge great real hugely desperately is it's was that's this matter of""")
)


class AutonomyCues(NamedTuple):
    autonomy: Autonomy
    # Words of autonomy phrases: not a verb ("check with me"), not a time
    # cue ("ask me before"), not a boundary ("don't do anything without asking").
    indices: frozenset[int]


# When to ask, after an ask-first phrase: "run it by me before you start" is
# no deadline (the phrases ending in "before" hold it already).
_BEFORE_STARTING = lx.phrases(
    [
        "before you start", "before you begin", "before starting", "before beginning",
        "before you do anything", "before doing anything", "before you do it",
        "before you go ahead", "before you get started", "before you start work",
    ]
)  # fmt: skip


# Standing-order words that are adjectives before a noun ("the daily report"):
# a standing order only when they end what is said.
EVERY_SO_OFTEN: Final = frozenset(
    lx.words("daily nightly weekly monthly hourly fortnightly regularly")
)


def _way_as_route(clause: Sequence[Tok]) -> frozenset[int]:
    """ "your way" as a route ("on your way back", "out of your way"): no licence."""
    return frozenset(
        k
        for k in range(1, len(clause) - 1)
        if clause[k].low == "your"
        and clause[k + 1].low == "way"
        and clause[k - 1].low in ("on", "of", "in", "by", "along", "across")
    )


# A free hand about asking, said of someone or something else ("don't bother
# asking Zuri", "…asking me for money"), or "don't just do it halfway": no
# hand (a review: each was one, the boundary dropped). Only these words may
# follow such a cue.
_OPEN_ENDS: Final = frozenset(lx.words("ask asking me think"))  # "whatever you think is broken"
_OF_THE_ORDER: Final = [["about", w] for w in ("it", "that", "this", "them")]
_MAY_FOLLOW: Final = lx.PUNCT | frozenset(
    lx.words("first just please and but then so before either anyway again now")
)


_DONE: Final = lx.phrases(
    [
        *("when you're done", "when you are done", "when you're finished", "when you've finished"),
        *("when it's done", "when it is done", "once you're done", "once it's done", "when done"),
        *("once you've finished", "when finished", "afterwards", "after you're done"),
    ]
)


def _said_of_more(clause: Sequence[Tok], hit: tuple[Autonomy, int, int]) -> bool:
    mode, at, end = hit
    if end >= len(clause) or clause[end].low in _MAY_FOLLOW:
        return False
    if [t.low for t in clause[end : end + 2]] in _OF_THE_ORDER:
        return False  # "don't bother asking me about it" (a probe: a boundary)
    last = clause[end - 1].low
    dont_just = [t.low for t in clause[at:end]] == ["don't", "just", "do", "it"]
    return (mode == "free" and last in _OPEN_ENDS) or dont_just


# Said bare, these repeat only when no day or time word comes right before:
# "check the hens morning and evening", not "tomorrow morning and night".
BARE_TWICE: Final = frozenset(
    ["morning and evening", "morning and night", "mornings and evenings", "night and morning"]
)
_ONE_DAY: Final = (
    frozenset(lx.words("tomorrow today yesterday this that on in the by until till from"))
    | frozenset(cw.WEEKDAYS)
    | frozenset(cw.WEEKDAY_ABBREVIATIONS)
)


def _of_one_day(clause: Sequence[Tok], hit: tuple[Autonomy, int, int]) -> bool:
    _, at, end = hit
    if " ".join(t.low for t in clause[at:end]) not in BARE_TWICE:
        return False
    before = clause[at - 1].low if at > 0 else ""
    after = clause[end].low if end < len(clause) else ""
    return before in _ONE_DAY or after in _ONE_DAY


def autonomy_of(clause: Sequence[Tok], skip: frozenset[int]) -> AutonomyCues:
    # "…tell me first thing tomorrow": when, not a hand; "check with me first
    # thing" keeps "check with me" (a review): that "first" ends no cue.
    read = [
        t._replace(low="first-thing")
        if t.low == "first" and _next_is(clause, k + 1, "thing")
        else t
        for k, t in enumerate(clause)
    ]
    hits = cue_hits(read, lx.AUTONOMY_CUES, skip=skip | _way_as_route(clause) | describing(clause))
    hits = [h for h in hits if not _said_of_more(clause, h) and not _of_one_day(clause, h)]
    hits = [h for h in hits if not _habit_told(clause, h) and not _trust_that(clause, h)]
    # "check in with me when you're done": a report afterwards, not leave
    # asked first (a fifth typed probe: it was a tether). Its words stay read.
    asked = [h for h in hits if h[0] != "direct-tether" or not lx.phrase_at(clause, h[2], _DONE)]
    autonomy: Autonomy = _first_tier(asked, [mode for mode, _ in lx.AUTONOMY_CUES], "brief")
    indices = {k for _, a, b in hits for k in range(a, b)}
    for k in range(len(clause)):  # "check the hives daily", not "the daily report"
        ends = k + 1 == len(clause) or clause[k + 1].low in lx.PUNCT | {"and", "but"}
        if clause[k].low in EVERY_SO_OFTEN and ends and k not in skip:
            indices.add(k)
            autonomy = "standing-intent" if autonomy == "brief" else autonomy  # table order
    for mode, _, end in hits:
        tail = lx.phrase_at(clause, end, _BEFORE_STARTING) if mode == "direct-tether" else None
        indices.update(range(end, end + (len(tail) if tail else _when_to_ask(clause, end, mode))))
        if mode == "standing-intent":
            indices.update(range(end, _more_days(clause, end)))
    return AutonomyCues(autonomy, frozenset(indices))


# "…, i always forget": the speaker's (or someone's) habit, no standing order
# (a probe); "you always check the hens at night" still is one (a review).
_HABIT_OF: Final = frozenset(lx.words("i we he she they"))
_HABITS: Final = frozenset(lx.words("forget forgets forgot do does leave leaves miss misses lose"))


def _trust_that(clause: Sequence[Tok], hit: tuple[Autonomy, int, int]) -> bool:
    """ "I trust you will make the acquaintance of…": formal "I expect", no
    free hand (a blind probe, T29: "as they see fit")."""
    said = [t.low for t in clause[hit[1] : hit[2]]]
    return said[-2:] == ["trust", "you"] and word_at(clause, hit[2]) in _TRUST_THAT


_TRUST_THAT: Final = frozenset(lx.words("will 'll can would shall have are"))


def _habit_told(clause: Sequence[Tok], hit: tuple[Autonomy, int, int]) -> bool:
    mode, at, end = hit
    told = word_at(clause, at - 1) in _HABIT_OF and word_at(clause, end) in _HABITS
    return mode == "standing-intent" and end - at == 1 and told


_REPEAT_DAYS: Final = frozenset(cw.WEEKDAYS) | {f"{day}s" for day in cw.WEEKDAYS}  # "Mondays"


def _more_days(clause: Sequence[Tok], end: int) -> int:
    """Where more weekdays a repeat names end ("every Tuesday | and Friday",
    "on Mondays, Wednesdays and Fridays"; a ninth typed probe: "every
    Tuesday by Friday", due that Friday)."""
    if word_at(clause, end - 1) not in _REPEAT_DAYS:
        return end
    k = end
    while word_at(clause, k) in ("and", ",", "&") and word_at(clause, k + 1) in _REPEAT_DAYS:
        k += 2
    return k


# After "before" / "until" following an ask-first phrase, these say when to
# ask, not when it is due: "run it by me before you buy parts", "…before
# buying wood", "…until I've seen a quote" (a typed probe: each was asked
# as a deadline no day places).
_ASKER: Final = frozenset(lx.words("you u he she they i i've we"))


def _when_to_ask(clause: Sequence[Tok], end: int, mode: str) -> int:
    """How many words after a tether cue at `end` say when to ask (0: none)."""
    if mode != "direct-tether" or word_at(clause, end) not in ("before", "until", "till"):
        return 0
    said = word_at(clause, end + 1)
    if said not in _ASKER and not (said.endswith("ing") and len(said) > 4):
        return 0  # "check with me before Friday": a day
    k = end + 1
    while k < len(clause) and clause[k].low not in lx.PUNCT | {"and", "but", "so"}:
        k += 1
    return k - end


def boundary_like_autonomy(clause: Sequence[Tok]) -> frozenset[int]:
    """Autonomy phrases that hold a boundary marker ("don't do anything
    without asking", "don't need to check with me"): they must not become
    forbidden lines ("Avoid asking" would forbid what was asked for)."""
    keep: set[int] = set()
    for mode, start, end in cue_hits(clause, lx.AUTONOMY_CUES):
        if _said_of_more(clause, (mode, start, end)):
            continue  # "don't bother asking Zuri": a boundary after all
        if any(lx.phrase_at(clause, k, lx.FORBID_MARKERS) for k in range(start, end)):
            keep.update(range(start, end))
    return frozenset(keep)


# Words that make a standing order's repeat more than "always".
_HOW_OFTEN: Final = EVERY_SO_OFTEN | frozenset(
    lx.words("""monday tuesday wednesday thursday friday saturday sunday week weekend month
    other morning afternoon evening night weekday weekdays weeknight days hour once twice
    times often regularly second mondays tuesdays wednesdays thursdays fridays saturdays sundays
    weekends single weeks months year quarter fortnight end start mornings evenings""")
)


def how_often(source: str, clause: Sequence[Tok], indices: frozenset[int]) -> str | None:
    """The words of a standing order's repeat, as said, when they say more
    than "always" ("every Monday", "every other day", "nightly"), for the
    read-back; None for "always", "from now on", "every day"."""
    for k in sorted(indices):
        if clause[k].low in _HOW_OFTEN:
            start, end = k, k
            while start - 1 in indices:
                start -= 1
            while end + 1 in indices:
                end += 1
            return source[clause[start].start : clause[end].end]
    return None


def standing_in_order(clause: Sequence[Tok], cues: AutonomyCues, verb_at: int) -> AutonomyCues:
    """A standing order's words count in the order's own sentence, or as a
    sentence of their own ("Zuri, check the hives. Every single day.",
    "From now on. Kofi, guard the gate."); in another sentence they say what
    someone does ("I go to the market every Monday. Fix the gate."): brief.
    The words stay autonomy's either way (never a target or a verb)."""
    if cues.autonomy != "standing-intent":
        return cues
    sentence, of = 0, []
    for tok in clause:
        of.append(sentence)
        sentence += tok.low in (".", "!", "?")
    # The sentences with words besides the cues (the order's among them).
    said_else = {
        of[j]
        for j, tok in enumerate(clause)
        if j not in cues.indices and tok.low not in lx.PUNCT | lx.FILLERS
    }
    if any(of[k] == of[verb_at] or of[k] not in said_else for k in cues.indices):
        return cues
    return AutonomyCues("brief", cues.indices)
