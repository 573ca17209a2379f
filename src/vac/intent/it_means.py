"""What a bare "it" / "them" after the verb stands for, when a statement
before it brought the thing in: "the gate is broken, fix it" → "…, fix the
gate"; "the back gate won't close, can you mend it?" → "…, mend the back
gate". `evidence` reads the command again with it (a command left with no
target). Pure: text in, text out. Kept apart from `passive` (one concern,
a readable size).
"""

from __future__ import annotations

from typing import Final

from vac.intent import lexicon as lx
from vac.intent.antecedent import introduced
from vac.intent.calendar_words import TEMPORAL_WORDS, WEEKDAYS
from vac.intent.inflect import VERB_PARTICLES
from vac.intent.instead import NOT_A_THING
from vac.intent.particles import KIN
from vac.intent.passive import THING_STARTS as _THING_STARTS
from vac.intent.passive import apart as _apart
from vac.intent.passive import as_object as _as_object
from vac.intent.passive import asked_plainly, spans_of
from vac.intent.when_match import past_form

_Span = tuple[int, int, str]

# "The gate is broken, fix it": what "it" means, said just before.
_IS: Final = frozenset(
    (
        *lx.words("is are was were has have keeps keep looks look seems seem needs need"),
        # A probe (2026-12-06): "the back gate won't close, can you mend it?"
        # was asked what to mend; "is blocked" was read.
        *lx.words("won't wont isn't isnt doesn't doesnt can't cant aren't don't hasn't wasn't"),
    )
)
_IT: Final = frozenset(lx.words("it them"))
# After "the dog is…" / "the baby looks…": "him" or "her" may be it too.
_IT_OR_THEM: Final = _IT | frozenset(lx.words("him her"))


def with_antecedent(text: str) -> str | None:
    """`text` with a bare "it" / "them" after the verb replaced by the thing a
    statement before it was about ("the gate is broken, fix it" → "…, fix
    the gate"); None when there is no such statement."""
    spans = spans_of(text)
    if not asked_plainly(text, spans, speaker_may_ask=False) and not _told_trouble(text, spans):
        return None  # "…, Kofi can't fix it", "…, who will fix it?", "…, I will fix it"
    thing: str | None = None
    it, said_to, told_to = _IT, 0, 0
    for i, (start, end, word) in enumerate(spans):
        if start < said_to:
            continue
        if thing is None and (found := introduced(text, spans, i)) is not None:
            first = i == 1 and spans[0][2] in _IF  # "If Grandma calls, Kofi, visit her" (T26)
            if not _ordered_next(text, spans, found.end, named_before=i > 0 and not first):
                return None  # "there's a leak, Zuri will fix it"
            thing, it, said_to = found  # "there's a leak…, fix it", "Grandma's ill, help her"
            continue
        if thing is not None and word in it:
            nxt = spans[i + 1] if i + 1 < len(spans) else None
            if nxt is not None and nxt[2] in VERB_PARTICLES and not _apart(text, spans[i], nxt):
                return text[:start] + f"{nxt[2]} {thing}" + text[nxt[1] :]  # "check the gate out"
            return text[:start] + thing + _vocative_comma(text, spans, i) + text[end:]
        timed = i + 1 < len(spans) and spans[i + 1][2] in TEMPORAL_WORDS
        if word in _THING_STARTS and timed:
            continue  # "…, spend the afternoon with him": a time, no second thing (a probe)
        if word in _THING_STARTS and word not in ("a", "an") and thing is not None:
            if start < told_to:
                continue  # "the boiler's been making that noise, …": told of the boiler
            return None  # "the wolves are near the kids, protect them": which?
        if word in _THING_STARTS and (alone := _said_alone(text, spans, i)) is not None:
            if not _ordered_next(text, spans, alone, named_before=i > 0):
                return None  # "Kofi, the gate, did Zuri fix it?", "…, Zuri, fix it"
            thing = _as_object(text[start:alone])  # "Kofi, the gate, fix it"
            continue
        if word in _THING_STARTS and thing is None and _listed(spans, i):
            return None  # "the fence … and the gate are broken, fix them": which? (a review)
        if word in _THING_STARTS:
            for k in range(i + 2, min(_subject_end(spans, i), len(spans))):
                state = spans[k][2]  # "the gate's broken / dripping / still broken"
                said_is = state in _STATES | _BEFALLING or past_form(state) or state.endswith("ing")
                # "the boiler's been making that noise" (a probe); not "the cat's been…" (a review)
                making = k + 1 < len(spans) and spans[k + 1][2] == "making"
                subject = spans[k - 1][2].removesuffix("'s")
                said_is = said_is or (state == "been" and making and subject not in _ALIVE)
                if _feels(spans, k, subject) and not _apart(text, spans[k - 1], spans[k]):
                    # "the dog's hurt, help him", "grandma's feeling low, cheer her up"
                    thing, it = _as_object(text[start : spans[k - 1][1] - 2]), _SOMEONE
                    said_to = spans[k][0]
                    break
                if (
                    spans[k - 1][2].endswith("'s")
                    and said_is
                    and subject not in _ALIVE  # "the cat's been making a mess": no thing
                    and not _apart(text, spans[k - 1], spans[k])
                ):
                    thing = _as_object(text[start : spans[k - 1][1] - 2])  # "the gate's broken"
                    doing = state in _STATES or (state.endswith("ing") and state != "being")
                    if (
                        state == "been" and making
                    ) or doing:  # what it does is told of it, to "and"
                        last = next(
                            (
                                j
                                for j in range(k, _part_last(text, spans, k) + 1)
                                if spans[j][2] in ("and", "but")
                            ),
                            _part_last(text, spans, k) + 1,
                        )
                        told_to = spans[last - 1][1]
                    break
                if _apart(text, spans[k - 1], spans[k]):
                    break  # punctuation ends the thing
                if spans[k][2] in _IS or _befell(text, spans, k):  # not "the kitchen" in it
                    # what befell it is told to the part's end ("…blew off in the storm.")
                    told = (
                        spans[k][0] if spans[k][2] in _IS else spans[_part_last(text, spans, k)][1]
                    )
                    thing, it, said_to = (
                        _as_object(text[start : spans[k - 1][1]]),
                        _IT_OR_THEM,
                        told,
                    )
                    break
    return None


_MAX_SUBJECT_WORDS: Final = 4
# A place said inside the subject: "the window in the kitchen is stuck, can
# you fix it?" (a typed probe: "Kofi will repair the kitchen").
_PLACE_PREPS: Final = frozenset(
    lx.words(
        "in on at of near behind under by beside outside inside above across through over to "
        "with along from"
    )
)


def _subject_end(spans: list[_Span], i: int) -> int:
    """How far (exclusive) the state's verb may be from a subject starting at
    `i`: four words, and four more after each place word inside it ("the
    old bike in the shed has…", "the radio on the shelf in the kitchen
    is…"); no further than a second thing said without one ("in the kitchen
    the window is…": a review)."""
    end, k = i + 1 + _MAX_SUBJECT_WORDS, i + 1
    while k < min(end, len(spans)):
        if spans[k][2] in _PLACE_PREPS:
            end = k + 1 + _MAX_SUBJECT_WORDS  # "in", "the", two words, the verb
        elif spans[k][2] in _THING_STARTS and spans[k - 1][2] not in _PLACE_PREPS:
            return k + 1  # a second thing, with no place word before it: no verb for it
        k += 1
    return end


def _listed(spans: list[_Span], i: int) -> bool:
    """Whether the thing at `i` follows "and" and another thing with no verb
    between ("the fence near the pond and the gate are…"; not "the wind blew
    and the gate is…")."""
    if not i or spans[i - 1][2] != "and":
        return False
    for k in range(i - 2, -1, -1):
        said = spans[k][2]
        if said in _IS or past_form(said) or said.endswith("ing") or said.endswith("'s"):
            return False
        if said in _THING_STARTS:
            return True
    return False


def _told_trouble(text: str, spans: list[_Span]) -> bool:
    """A negation in the trouble told first, and the order after it plain:
    "the back gate won't close, can you mend it?", "the car won't start,
    Kofi, check it" (a probe: the whole was read as negated, and asked what
    to mend)."""
    for k in range(len(spans) - 1):
        if not _apart(text, spans[k], spans[k + 1]):
            continue
        if not any(w.endswith("n't") or w in _NEGATED_SHORT for _s, _e, w in spans[: k + 1]):
            continue  # "Kofi, …": the break before the trouble
        rest = text[spans[k][1] :].lstrip(" ,.;:!?")
        return asked_plainly(rest, spans_of(rest), speaker_may_ask=False) and _ordered_next(
            text, spans, spans[k][1], named_before=False
        )
    return False


# "is not working" too (a ninth typed probe: "the tube light is not working,
# kindly repair it" was asked what to repair; "isn't" was read).
_NEGATED_SHORT: Final = frozenset(lx.words("wont isnt doesnt cant arent dont hasnt wasnt not"))


def _vocative_comma(text: str, spans: list[_Span], i: int) -> str:
    """A comma after the thing put for the pronoun at `i` when a name said
    last follows it with none ("…, can you fix it Kofi?"): the name is who
    is asked, not part of the thing ("a leak in the bathroom Kofi")."""
    if i + 1 >= len(spans) or _apart(text, spans[i], spans[i + 1]):
        return ""
    name = spans[i + 1]
    last = i + 2 >= len(spans) or _apart(text, name, spans[i + 2])
    return "," if last and text[name[0]].isupper() else ""


def _ordered_next(text: str, spans: list[_Span], end: int, *, named_before: bool) -> bool:
    """Whether the words after a thing said alone (ending at offset `end`)
    are the order: its verb first, after "please", "so", "now", "just" or
    (with no one named before the thing) a name ("The gate, Kofi, fix it");
    not a question or someone else doing it ("…, Zuri will fix it")."""
    after = [w for s, _e, w in spans if s > end]
    k = 0
    while k < len(after) and after[k] in _ORDER_OPENERS:
        k += 1
    if (
        k < len(after)
        and not named_before
        and after[k] not in lx.VERB_FIRSTS
        and k + 1 < len(after)
    ):
        k += 1  # a name, then the verb; asked politely ("…, Imani, can you help them?")
        if after[k : k + 1] in (["please"], ["just"]):
            k += 1
        elif k + 1 < len(after) and after[k] in _ASKING and after[k + 1] == "you":
            k += 2  # not "…, Zuri will fix it"
    return k < len(after) and after[k] in lx.VERB_FIRSTS


_IF: Final = frozenset(lx.words("if when once unless until till after"))
_ORDER_OPENERS: Final = frozenset(lx.words("please so now just and then can could would will you"))
_ASKING: Final = frozenset(lx.words("can could would will"))


def _said_alone(text: str, spans: list[_Span], i: int) -> int | None:
    """Where a thing said alone between breaks ends ("Kofi, the gate, fix
    it", "about the gate, …"): a few words that are no verb or state, with
    a break before them (or "about") and after them; else None."""
    before = spans[i - 1] if i else None
    if before is not None and not _apart(text, before, spans[i]) and before[2] != "about":
        return None
    for k in range(i + 1, min(i + _MAX_SUBJECT_WORDS, len(spans) - 1)):
        said = spans[k][2]
        if said in _IS or said.endswith("'s") or said in lx.VERB_FIRSTS or past_form(said):
            return None
        last = _apart(text, spans[k], spans[k + 1])  # not "the back gate"
        a_well = said == "well" and spans[k - 1][2] != "as"  # "the old well, …" (T23c)
        if (said in NOT_A_THING and last and not a_well) or said in WEEKDAYS:
            return None  # "Kofi, this morning, fix it": a time, no thing
        if last:
            said_alone = text[spans[i][0] : spans[k][1]]
            return None if any(c.isdigit() for c in said_alone) else spans[k][1]  # "the 15th"
    return None


# After "X's" these say how X is ("the gate's broken"); a noun says whose ("the dog's kennel").
_STATES: Final = frozenset(
    lx.words("""broken leaking loose stuck jammed down out off flat dead dirty blocked cracked
    damaged rotten falling making acting missing gone open empty full wobbly noisy rusty
    squeaky still really so very completely totally gonna cold hot freezing warm wet damp leaky
    faulty bust busted dodgy clogged flooded icy slippery overgrown mouldy moldy smelly
    weird wonky bent torn""")  # "the radiator's cold, fix it" (a conversation re-probe, T24)
)


__all__ = ["with_antecedent"]


# "The shed roof blew off in the storm. Kofi, rebuild it" (an eleventh typed
# probe: asked what to repair): what befell the thing, said alone. A review
# found most past verbs act on a second thing ("the cat knocked over the
# vase", "the ball went through the window"): only these, and a particle
# ending the part or before when it happened.
_BEFALLING: Final = frozenset(
    lx.words(
        "broke blew fell snapped cracked collapsed burst split tore caved gave came went moved"
    )
)
_DAMAGED: Final = frozenset(
    lx.words("knocked blown broken damaged smashed flooded stuck nicked stolen wrecked")
)
_WHEN: Final = frozenset(lx.words("last yesterday overnight this again"))
_PARTICLES: Final = VERB_PARTICLES | frozenset(lx.words("in away apart"))  # "moved in"
# "…in the storm", "…during the night": when, not where ("came in through the roof").
_WEATHER: Final = frozenset(lx.words("night storm wind winds rain snow gale frost cold heat"))


def _befell(text: str, spans: list[_Span], k: int) -> bool:
    """Whether the word at `k` says what befell the subject before it:
    "blew off.", "fell down in the night", "broke.", "got knocked over";
    not "the kids broke the window" nor "the branch fell through the roof"."""
    word = spans[k][2]
    if word == "got":  # "the bins got knocked over (by foxes)"
        return k + 1 < len(spans) and spans[k + 1][2] in _DAMAGED
    if word not in _BEFALLING:
        return False
    m = k + 1
    if m < len(spans) and not _apart(text, spans[k], spans[m]) and spans[m][2] in _PARTICLES:
        m += 1  # "blew off", "fell down", "moved in"
    said = [w for _s, _e, w in spans[m : _part_last(text, spans, k) + 1]]
    if not said or (said[0] == "its" and len(said) <= 3):
        return True  # "…blew off." / "…broke." / "…came off its hinges"
    if said[0] in ("in", "during"):  # "in the storm"; not "…came in through the roof"
        return said[1:2] == ["the"] and len(said) in (3, 4) and said[2] in _WEATHER
    return said[0] in _WHEN and len(said) <= 4  # "last week"; not "…again and hit the shed"


def _part_last(text: str, spans: list[_Span], k: int) -> int:
    """The last word of the part with word `k`: before the next break."""
    while k + 1 < len(spans) and not _apart(text, spans[k], spans[k + 1]):
        k += 1
    return k


# How someone is, after "X's": "the dog's hurt", "grandma's feeling low",
# "the baby's been acting strange" (a typed probe, T22: asked whom to help).
# Then "him", "her" or "them" means them; "it" does not ("the cat's been
# making a mess, clean it up").
_FEELING: Final = frozenset(
    lx.words("""hurt injured ill sick poorly unwell upset scared frightened lonely sad lost
    hungry limping crying feeling struggling stressed worried nervous bored down low""")
)
_SOMEONE: Final = frozenset(lx.words("him her them"))
_PERSONS: Final = KIN | frozenset(
    lx.words("puppy kitten horse goat goats hens chickens pony lamb calf")
)


def _feels(spans: list[_Span], k: int, subject: str) -> bool:
    """Whether "<subject>'s" and the word at `k` say how someone alive is."""
    if not spans[k - 1][2].endswith("'s") or subject not in _ALIVE | _PERSONS:
        return False
    state = spans[k][2]
    after = spans[k + 1][2] if k + 1 < len(spans) else ""
    return state in _FEELING or (state == "been" and after in ("acting", "feeling", "looking"))


# Who or what does something, not a thing to fix: "the cat's been making a mess".
_ALIVE: Final = frozenset(
    lx.words("""cat cats dog dogs fox foxes kids kid baby neighbour neighbours neighbor landlord
    wind rain storm rats mice birds squirrels builders boys girls children""")
)
