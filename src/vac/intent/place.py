"""Where an order is to be done: a place said after its thing ("fix the gate
near the barn") becomes the draft's `location` constraint.

"near", "beside", "behind", "around", "next to", "inside" and "outside"
always start a place; "at", "in" and "by" only before an article ("in the
barn", not "in the morning" or "by hand"). A time is never a place: the
deadline's words (`skip`) end one ("behind the school | this weekend").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from vac.intent import lexicon as lx
from vac.intent import target_words as tw
from vac.intent.instead import thing_instead, thing_said
from vac.intent.lexicon import Phrase, Tok, words
from vac.intent.when_match import word_at
from vac.protocol.objective import Target

_TEXT_MAX: Final = 200
# A place's last word that makes it a time ("in the morning", "at the end").
NOT_PLACES: Final = frozenset(
    words(
        "morning evening afternoon night day week hour hours minute minutes moment meantime "
        "future end time weekend sec second mo jiffy bit while little"
    )
)
# Idioms shaped like a place: "at some point", "keep me in the loop".
_NOT_PLACE_IDIOMS: Final = lx.phrases(tw.NOT_PLACE_IDIOMS)


def truncate(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    cut = text[:limit]
    return cut.rsplit(" ", 1)[0] if " " in cut else cut


# A clause of its own starts here: a place said in it is where someone else
# is ("keep an eye on the baby while I'm in the shower"), not where to act.
_CLAUSE_STARTS: Final = frozenset(
    lx.words("while whilst when whenever if unless until because since as once till")
)


# "on the kitchen floor", "on the landing wall": a surface of the house is
# a place; "on" before anything else is not ("work on the shed", "spend £50
# on the parts", "go easy on the paint"; an eleventh typed probe dropped it).
_SURFACES: Final = frozenset(
    words("floor floors wall walls roof ceiling landing stairs staircase porch patio deck")
    + words("balcony driveway terrace veranda")
    # What a part is on (a twelfth typed probe dropped it): "the slats on the garden bench"
    + words("bench benches table tables van vans car cars truck bike bikes trailer tractor")
    + words("boat shed sheds fence gate door doors window windows wheel wheels cooker")
)


def location_of(source: str, clause: Sequence[Tok], start: int, skip: frozenset[int]) -> str | None:
    for i in range(start, len(clause)):
        if clause[i].low in _CLAUSE_STARTS:
            return None  # the rest is that clause's (it was read back as the order's place)
        if (
            clause[i].low == "not"
            and word_at(clause, i - 1) == ","
            and word_at(clause, i + 1) in _NOT_WHICH
        ):
            return None  # "…, not just the one in the kitchen" (an eleventh typed probe: there)
        if i in skip:
            continue
        # "on" right after the thing only: not "…, the books are on the floor" (a review)
        on = clause[i].low == "on" and i == start
        prep = lx.phrase_at(clause, i, lx.LOCATION_PREPS) or (("on",) if on else None)
        if not prep or lx.phrase_at(clause, i, _NOT_PLACE_IDIOMS) is not None:
            continue
        if i and clause[i - 1].low in lx.DETERMINERS:
            continue  # "the outside tap": which tap, no place
        j = i + len(prep)
        numbered = prep == ("at",) and word_at(clause, j) == "number"  # "at number twelve"
        if (
            prep[0] in ("at", "in", "inside", "by", "on")
            and not numbered
            and (j >= len(clause) or clause[j].low not in lx.DETERMINERS)
            and not (prep == ("on",) and word_at(clause, j) in _ALL)
        ):
            continue
        k = j
        while (
            k < len(clause)
            and k - j < 5
            and clause[k].low not in lx.PUNCT
            and k not in skip  # "…the school | this weekend"
            and (k == j or lx.phrase_at(clause, k, lx.TARGET_STOPS) is None)
        ):
            k += 1
        words = [t.low for t in clause[j:k] if t.low not in lx.DETERMINERS]
        if not words or words[-1] in NOT_PLACES or (prep == ("on",) and words[-1] not in _SURFACES):
            continue
        said = truncate(source[clause[i].start : clause[k - 1].end], _TEXT_MAX)
        if prep == ("on",) and lx.phrase_at(clause, k, lx.LOCATION_PREPS) is not None:
            more = location_of(source, clause, k, skip)  # "on the wall in the study": both
            if more is not None and more.lower().startswith(clause[k].low):
                return truncate(f"{said} {more}", _TEXT_MAX)
        return _place_instead(source, clause, k, prep) or said
    return place_first(source, clause, start, skip)


# "on all four wheels", "on both cars" (not "at all": no place)
_ALL: Final = frozenset(words("all both each every"))


def place_first(
    source: str, clause: Sequence[Tok], before: int, skip: frozenset[int] = frozenset()
) -> str | None:
    """A place said first, set apart before the order's thing (which ends at
    `before`): "in the kitchen, fix the tap", "Zuri, in the cellar, check
    the damp" (a twelfth typed probe dropped it)."""
    prep = lx.phrase_at(clause, 0, lx.LOCATION_PREPS)
    if prep is None or prep[0] not in ("in", "inside", "outside", "at", "up", "down", "out"):
        return None
    comma = next((k for k in range(len(prep), before) if clause[k].low in lx.PUNCT), None)
    words = [t.low for t in clause[len(prep) : comma or 0] if t.low not in lx.DETERMINERS]
    if comma is None or not 1 <= len(words) <= 3 or clause[len(prep)].low not in lx.DETERMINERS:
        return None
    if words[-1] not in _ROOMS or skip & set(range(comma)):
        return None  # a room only: not "in the long run, …", "in that case, …" (a review)
    said = source[clause[0].start : clause[comma - 1].end]
    return truncate(said[:1].lower() + said[1:], _TEXT_MAX)  # "In the kitchen, …" said first


# After ", not": which of the thing is not meant ("…, not the one in the kitchen").
_NOT_WHICH: Final = frozenset(words("just only the that this those these one"))
# A place said instead names a room or a part of the house or garden.
_ROOMS: Final = frozenset(
    words("""room nursery kitchen bathroom bedroom study hall hallway landing garage shed loft
    attic cellar basement garden lounge pantry porch conservatory office playroom utility
    toilet loo yard patio driveway barn greenhouse annexe""")
)


def _place_instead(source: str, clause: Sequence[Tok], end: int, prep: Phrase) -> str | None:
    """The place said instead of the one ending at `end`: "in the spare room,
    I mean the nursery" is in the nursery (an eleventh typed probe: in the
    spare room), with the first place's preposition. Only a room or a part
    of the house said instead: not the thing said again ("the shelf in the
    kitchen, no, the pantry shelf", "the light in the kitchen, no, the lamp")."""
    again = thing_instead(clause, end, len(clause))
    if again is None and (at := _prep_instead(clause, end)) is not None:
        again, prep = at + 1, (clause[at].low,)  # "…in the loft, no, in the cellar" (T30: loft)
    said_end = None if again is None else thing_said(clause, again, len(clause))
    if again is None or said_end is None or clause[said_end - 1].low not in _ROOMS:
        return None  # "the light in the kitchen, no, the lamp": a thing (a review: "in the lamp")
    place = source[clause[again].start : clause[said_end - 1].end]
    return truncate(f"{' '.join(prep)} {place}", _TEXT_MAX)


def _prep_instead(clause: Sequence[Tok], end: int) -> int | None:
    """Where "in" / "at"… stands after a break and a correction ("…, no, in")."""
    k = end
    while k < len(clause) and (clause[k].low in lx.PUNCT or clause[k].low in _TAKING_BACK):
        k += 1
    said = {t.low for t in clause[end:k]}
    taken = bool(said & _TAKING_BACK - {"i", "sorry"}) and bool(said & lx.PUNCT)
    return k if taken and word_at(clause, k) in ("in", "at", "on", "inside", "behind") else None


_TAKING_BACK: Final = frozenset(words("no i mean meant sorry actually rather or"))


# "help at once", "help in any way": no place to help at.
_NO_PLACE: Final = frozenset(words("once all any time secret least first last most length random"))
# The verbs whose thing may be a place said after a preposition, and those
# prepositions: "survey in the valley" maps the valley, "scout around the
# hills", "search in the shed", "keep watch in the barn" (each asked what
# to map, look into or protect before; the understanding benchmark's
# "survey in the valley" for "survey the valley", 2026-12-06).
_PLACE_IS_THING: Final[Mapping[str, frozenset[str]]] = {
    "Map": frozenset(words("in around round across through along inside")),
    "Investigate": frozenset(words("in around round inside outside")),
    "Protect": frozenset(words("in around round at inside outside")),
}
_PLACES: Final = frozenset(("place", "ground"))
_NO_THING: Final = frozenset(words("same usual other rest whole"))


def place_is_thing(clause: Sequence[Tok], verb_end: int, verb: str) -> int | None:
    """Where the thing starts when the verb's object is a place said with a
    preposition ("help out at the fair", "survey in the valley"), else None.
    Support takes "at" or "in" before any word but an idiom's ("help at
    once"); the others only before an article or a possessive."""
    prep, then = word_at(clause, verb_end), word_at(clause, verb_end + 1)
    if lx.phrase_at(clause, verb_end, lx.MANNER_CUES) or lx.phrase_at(
        clause, verb_end, _NOT_PLACE_IDIOMS
    ):
        return None  # "guard around the clock": a standing order, no clock (a review)
    if verb == "Support":
        said = prep in ("at", "in") and then not in _NO_PLACE
    else:
        said = prep in _PLACE_IS_THING.get(verb, ()) and then in lx.DETERMINERS
    return verb_end + 1 if said else None


def place_said(prep: str, verb: str, thing: Target) -> bool:
    """Whether the thing `place_is_thing` found is a place: never a time
    ("help in the end"), and after "in" or "at" a place or ground the
    lexicon knows, unless the verb is Support: a recogniser's "map in the
    cracked wall" (for "examine the cracked wall") is no place to map."""
    said = thing.label.lower().split()
    if {*said} & NOT_PLACES or said[0] in _NO_THING or said in (["back"], ["front"]):
        return False  # "…around the time of the theft", "…the same time", "…the back"
    return verb == "Support" or prep not in ("in", "inside", "at") or thing.kind in _PLACES
