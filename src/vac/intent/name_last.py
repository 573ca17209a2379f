"""A roster name said last with no comma: is what comes before it only the
order's thing? ("fix the fence Kofi", "check the well tomorrow Zuri",
"guard the barn tonight please Tariq"). Pure: tokens in, the name's
resolution or None out; `address` makes it the agent.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from vac.intent import lexicon as lx
from vac.intent.lexicon import Tok, words
from vac.intent.roster import STOPWORDS, Resolution, Roster


def said_last(
    toks: Sequence[Tok], i: int, last: int, named: Callable[[Sequence[Tok]], Resolution | None]
) -> Resolution | None:
    """A roster name spelled exactly, last (at `last` - 1), right after the
    order's thing with no comma ("fix the fence Kofi", "check the well
    tomorrow Zuri"): the agent, in the narrow shape `plain_thing` allows."""
    res = named(toks[last - 1 : last])
    if res is None or res.method != "exact":
        return None
    for j in order_starts(toks, i, last):
        j += lx.reminder_at([t.low for t in toks], j)  # "don't forget to check the oven Zuri"
        j += len(lx.phrase_at(toks, j, _ASKED) or ())  # "would you check on the baby Zuri"
        while j < last and toks[j].low in _BEFORE_VERB:
            j += 1  # "go fix the gate Kofi", "just check the well Zuri" (was the default agent's)
        cue = lx.phrase_at(toks, j, lx.VERB_PHRASES)
        if cue is not None and (
            plain_thing(toks, j + len(cue), last - 1) or _longer_thing(toks, j + len(cue), last - 1)
        ):
            return res
    return None


def _longer_thing(toks: Sequence[Tok], k: int, name_at: int) -> bool:
    """Whether toks[k:name_at] is the order's thing and where or when, in
    more words than `plain_thing` allows ("protect the seedlings from the
    frost tonight Tariq", "build a rabbit hutch this weekend Kofi", "visit
    grandma on sunday imani"): no clause, second order, boundary or other
    name in it, and the word before the name one no name follows ("…for
    Kofi", "…the new boy Kofi", "…uncle Kofi")."""
    end = name_at
    while end > k and name_at - end < _TIME_TAIL_MAX and toks[end - 1].low in _TIME_TAIL | _HOURS:
        end -= 1  # "…this weekend Kofi", "…till six Tariq"
    if not {t.low for t in toks[end:name_at]} & _TIME_WORDS:
        end = name_at  # "…the house of kofi": no time, the name's own words
    thing = toks[k:end]
    if not 1 <= len(thing) <= _THING_MAX or toks[name_at - 1].text[:1].isupper():
        return False
    if thing[-1].low in (_NOT_THING_WORDS - _ME) | _TITLES | _APPOSED and end == name_at:
        return False  # not "…for me kofi yeah"
    return not any(
        t.low in _CLAUSE_WORDS
        or not t.text.replace("'", "").isalnum()
        or lx.phrase_at(thing, j, lx.VERB_PHRASES) is not None
        for j, t in enumerate(thing)
    )


def said_before_time(
    toks: Sequence[Tok], i: int, last: int, named: Callable[[Sequence[Tok]], Resolution | None]
) -> tuple[int, Resolution, tuple[int, int] | None] | None:
    """A roster name said last, or last but a short time ("repair the gate
    Tariq by friday" was the default agent's, for "the gate Tariq"): where
    the order ends, the agent, and the name to cut out of it."""
    if (res := said_last(toks, i, last, named)) is not None:
        return last - 1, res, None
    if (apart := _time_said_apart(toks, i, last, named)) is not None:
        return apart
    at = last - 1
    while at > i and last - at <= _TIME_TAIL_MAX and toks[at].low in _TIME_TAIL:
        at -= 1
    if at == last - 1 or at <= i or not lx.phrase_at(toks, at + 1, _TIME_STARTS):
        return None
    res = said_last(toks, i, at + 1, named)
    return None if res is None else (last, res, (at, at + 1))


def _time_said_apart(
    toks: Sequence[Tok], i: int, last: int, named: Callable[[Sequence[Tok]], Resolution | None]
) -> tuple[int, Resolution, tuple[int, int] | None] | None:
    """ "Fix the gate, Kofi. By Friday.": the name after a comma, then a full
    stop and a short time alone (a spoken-style probe: the default agent's,
    as the recogniser writes a pause)."""
    stop = next((k for k in range(last - 1, i, -1) if toks[k].low in _STOPS), None)
    if stop is None or stop < i + 3 or toks[stop - 2].low != ",":
        return None
    tail = [t.low for t in toks[stop + 1 : last] if t.low not in lx.PUNCT]
    if not 1 <= len(tail) <= _TIME_TAIL_MAX or not set(tail) <= _TIME_TAIL | _HOURS:
        return None
    res = named(toks[stop - 1 : stop])
    if res is None or any(named([t]) for t in toks[i : stop - 2] if t.text[:1].isupper()):
        return None  # "support Kofi, Tariq, Imani. Tomorrow.": a list, not the address
    return last, res, (stop - 2, stop)


def plain_thing(toks: Sequence[Tok], k: int, name_at: int) -> bool:
    """Whether toks[k:name_at] (after the verb) is only its thing: a
    determiner, one or two words of the thing in lower case, then a short
    time and "please" or none. Never after a title or a kin word ("visit
    Grandma Kofi", "greet Mr Kofi"), a place or time word ("fix the gate
    near Kofi"), a clause ("find out who hurt Kofi") or a second verb ("fix
    the gate and call Kofi")."""
    if k < name_at and toks[k].low in _IT and _before_when(toks, k + 1, name_at) == k + 1:
        return True  # "can you fix it Kofi?": it, asked of Kofi (was Kofi, fixed)
    if k >= name_at or toks[k].low not in lx.DETERMINERS:
        return False  # "help old man Kofi", "make sure nobody bothers Kofi"
    thing = toks[k + 1 : _before_when(toks, k + 1, name_at)]
    if not 1 <= len(thing) <= 2 or thing[-1].low in _TITLES:
        return False
    for j, tok in enumerate(thing):
        # "well" is a small word ("well, Kofi…") and a thing ("check the well Zuri").
        small = j == 0 and tok.low == "well"
        if (
            not tok.text.isalpha()
            or not tok.text.islower()
            or (tok.low in _NOT_THING_WORDS and not small)
        ):
            return False  # "…the gate Bob Kofi", "…the fence unless Kofi"
        if lx.phrase_at(thing, j, lx.TARGET_STOPS) or lx.phrase_at(thing, j, lx.VERB_PHRASES):
            return False
    return True


def order_starts(toks: Sequence[Tok], i: int, last: int) -> tuple[int, ...]:
    """Where the order before a name said last (at `last` - 1) may start: at
    `i`, or after the last comma or full stop, past "can you" or "please":
    what brought its thing in may come first ("There's a leak in the
    bathroom, can you fix it Kofi?" was Kofi, repaired, for the default agent)."""
    breaks = [
        k + 1
        for k in range(i, last - 1)
        if toks[k].low in _BREAKS or (toks[k].low == "so" and toks[k + 1].low in lx.ASKING_WORDS)
    ]
    if not breaks:
        return (i,)
    j = breaks[-1]
    while j < last and toks[j].low in lx.ASKING_WORDS:
        j += 1
    return (i, j)


_BREAKS: Final = frozenset(",.:;!")
_STOPS: Final = frozenset(".!")
# Said after a name said last: "fix the bathroom light for me kofi yeah".
AFTER_NAME: Final = lx.PUNCT | frozenset(words("please thanks yeah ok okay mate cheers pls ta"))
# Asking words the order may start with, before a name said last: "would
# you check on the baby Zuri", "I need you to check the hens Zuri" (a
# seventh typed probe: the default agent's, "Baby Zuri").
_ASKED: Final = lx.phrases(
    [
        *("would you", "could you", "can you", "will you", "can u", "could u", "would u"),
        *("please would you", "please could you", "please can you", "would you please"),
        *("i need you to", "i want you to", "i'd like you to", "would you be so kind as to"),
        *("it'd be great if you could", "it would be great if you could", "do you mind"),
    ]
)
_THING_MAX: Final = 7
_HOURS: Final = frozenset(
    words("till until at one two three four five six seven eight nine ten eleven twelve noon")
)
# Words that make a clause, a second order or a boundary of the words: the
# name may be theirs ("find out who hurt Kofi", "…and call Kofi").
_CLAUSE_WORDS: Final = frozenset(
    words("""who whom whose which where why what how that while when whenever if unless
    because since and or but then don't dont not never no nobody without instead""")
)
_ME: Final = frozenset(words("me us"))
# Before a name, these make it someone's name in the thing: "the new boy Kofi".
_APPOSED: Final = frozenset(
    words("boy girl man woman lady guy kid kids child children baby neighbours friends")
)
# A short time after a name said last, with no comma: "…the gate Tariq by
# friday", "…the well Zuri tomorrow morning". It must start with one of
# `_TIME_STARTS` (not "…the gate Kofi please").
_TIME_TAIL: Final = frozenset(
    words("""by before on this next today tonight tomorrow morning afternoon evening night
    monday tuesday wednesday thursday friday saturday sunday the end of week weekend month
    latest first thing please asap urgently soon""")
)
_TIME_TAIL_MAX: Final = 6  # "by the end of the week"
_TIME_STARTS: Final = lx.phrases(
    [
        *words("by before on this next today tonight tomorrow asap urgently soon"),
        "first thing",
    ]
)
_BEFORE_VERB: Final = frozenset(words("go come and just please quickly"))


def _before_when(toks: Sequence[Tok], start: int, end: int) -> int:
    """Where the thing ends before a name said last: before "please" and a
    short time said with no comma ("check the well tomorrow Zuri", "guard
    the barn tonight please Tariq", "patch the roof before Sunday Kofi")."""
    for _ in range(3):
        low = toks[end - 1].low if end - 1 >= start else ""
        if low == "please" or low in _SAID_WHEN:
            end -= 1
        elif low in _WEEKDAYS and end - 2 >= start and toks[end - 2].low in _DAY_CUES:
            end -= 2
        else:
            break
    return end


_IT: Final = frozenset(words("it them her him this that these those everything"))
_SAID_WHEN: Final = frozenset(words("today tonight tomorrow now asap urgently soon"))
_WEEKDAYS: Final = frozenset(words("monday tuesday wednesday thursday friday saturday sunday"))
_DAY_CUES: Final = frozenset(words("by before on this next"))
# Words that join the thing to what follows it: the name is then part of it.
_NOT_THING_WORDS: Final = STOPWORDS | frozenset(
    words("""like after before unless until till which where whom whose who as than against
    near behind beside between beyond past since toward towards except despite during inside
    outside around across along among below beneath under underneath above off onto through
    nobody everybody anybody somebody""")
)
# Words before a name that make it someone's name in the thing, not the address.
_TITLES: Final = frozenset(
    words("""mr mrs ms miss dr doctor uncle aunt auntie aunty grandma grandpa granny grandad
    nana papa mama baby little old young big brother sister cousin son daughter friend
    neighbour neighbor sir madam""")
    # A review: "check on my nephew kofi tonight" was Kofi's.
    + words("""nephew niece dad mum mom mother father nanny lodger tenant teacher bully dog
    cat puppy kitten pet horse boss guest visitor cleaner gardener driver builder plumber
    nurse colleague mate""")
)
# Of a time tail, the words that say a time ("…the house of kofi" has none).
_TIME_WORDS: Final = (_TIME_TAIL | _HOURS) - frozenset(
    words("by before on this next the end of first please till until at")
)


def named_no_one(tok: Tok, toks: Sequence[Tok], roster: Roster) -> str | None:
    """The word, when it can only be a name no one on the roster has: written
    with a capital, not first in the sentence's usual words ("have Yori
    comfort the sick child", "have Bob fix the gate": a spoken-style probe
    found each the default agent's)."""
    plain = tok.text.isalpha() and tok.text[:1].isupper() and tok.text[1:].islower()
    if any(roster.get(t.text) for t in toks):
        return None  # "have Dad fix the gate, Kofi": Kofi said; the rules after decide
    return tok.text if plain and tok.low not in STOPWORDS | _NOT_NAMES else None


_NOT_NAMES: Final = frozenset(words("it them him her everyone everybody someone somebody"))


def heard_apart(toks: Sequence[Tok], i: int) -> bool:
    """A name heard otherwise, set apart by a full stop or "!" after it (at
    `i` + 1): "Coffee. Fix the gate." (not "Coffee? Can you…", an offer, nor
    "Zero.", a number)."""
    return toks[i + 1].low in (".", "!") and toks[i].low != "zero"
