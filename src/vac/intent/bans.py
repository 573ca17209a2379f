"""The steward's boundaries in an order's words: where each ban starts
(its marker: "without", "don't", "no", "stay off", "but not"…) and which
words it holds, up to the next stop (`forbidden_spans`). The parser words
each as a forbidden line; the deadline, target and place skip its words.
Pure: tokens in, spans out. The marker tables live in `lexicon`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final, NamedTuple

from vac.intent import inflect
from vac.intent.budget import BUDGET, budget_at
from vac.intent.lexicon import (
    FORBID_IDIOMS,
    FORBID_MARKERS,
    FORBID_STOPS,
    FRAME_WORDS,
    LOCATION_PREPS,
    MAX_FORBID_WORDS,
    PUNCT,
    VERB_FIRSTS,
    VERB_PHRASES,
    Phrase,
    Tok,
    phrase_at,
    phrases,
    reminder_at,
    words,
)
from vac.intent.need_not import NEED_NOT
from vac.intent.target_words import NOT_PLACE_IDIOMS as _IDIOMS
from vac.intent.when_match import word_at

NOT_PLACE_IDIOMS: Final = phrases(_IDIOMS)


class Span(NamedTuple):
    marker: Phrase
    start: int  # index of the marker's first token
    body_start: int  # first token after the marker
    end: int  # exclusive


def forbidden_spans(
    toks: Sequence[Tok], *, keep: frozenset[int] = frozenset(), things: bool = True
) -> list[Span]:
    """Boundaries the speaker drew: "without lying to visitors" → the marker
    and the words up to the next stop (punctuation, "and", a time word, …).
    Tokens in `keep` belong to another phrase: they start and hold no span.
    `things=False` (spoken words): "…, no power tools" is not read, because
    tiny.en writes "no hurry" as "no ferry" (a probe on new voices)."""
    spans: list[Span] = []
    lows = [t.low for t in toks]
    i = 0
    while i < len(toks):
        marker = None if i in keep else phrase_at(toks, i, FORBID_MARKERS)
        body = None if marker is not None or i in keep else _not_there(toks, i)
        if body is not None:
            end = _to_the_break(toks, body, keep)  # ", not near the veggie patch": a probe
            spans.append(Span(tuple(inflect.BUT_NOT.split()), i, body, end))  # made it the place
            i = end
            continue
        if marker is None:
            limit = None if i in keep else budget_at(toks, i)
            if limit is not None and not keep & set(range(i, limit.end)):
                spans.append(Span(BUDGET, i, limit.amount, limit.end))  # "…, max budget £150"
                i = limit.end
                continue
            i += 1
            continue
        j = body = i + len(marker)
        which = i > 1 and lows[i - 1] in _WHICH and lows[i - 2] not in VERB_FIRSTS
        if which and marker[0] in ("don't", "do"):
            i = j  # "all the doors that don't close properly": which doors (a probe: a ban)
            continue
        if _speaker_knows(lows, i, j) or _of_others(lows, i):
            i = j  # "I don't know why it keeps breaking", "…so the foxes don't…": no ban
            continue
        if " ".join(marker) in inflect.NOBODY_MARKERS and _told(lows, i):
            i += 1  # "there's nobody in the house", "…, nobody in the house is hurt": news
            continue
        why = lows[i - 1 : i] == ["why"] and lows[j : j + 1] in (["you"], ["we"])  # not "…I"
        nxt = lows[j + 1] if why and j + 1 < len(toks) else None  # not "…you want to"
        suggests = nxt is not None and (
            nxt in FRAME_WORDS | {","} or phrase_at(toks, j + 1, VERB_PHRASES)
        )
        if (
            suggests
            or (j < len(toks) and toks[j].low in FORBID_IDIOMS)
            or phrase_at(toks, i, NEED_NOT) is not None  # "you don't have to do it today"
            or _reminds(toks, i)
        ):
            i = j + 1
            continue
        if (
            marker in ((inflect.NO_DEED,), (inflect.LEAVE_ALONE,))
            and not inflect.may_start_boundary(lows, i)
        ) or (marker[:2] == ("you", "not") and not inflect.asked_you_not(lows, i)):
            banned = things and marker == (inflect.NO_DEED,)
            ends = inflect.no_thing_end(lows, i) if banned else None
            taken = i > 1 and lows[i - 1] == "," and _day_before(lows, i)  # "…Friday, no Sat"
            if ends is not None and taken and set(lows[body:ends]) <= _DAY_NAMES:
                ends = None  # "…by Friday, no Saturday": a time taken back (a probe: "No Saturday")
            if ends is not None and not keep & set(range(i, ends)):
                spans.append(Span(marker, i, body, ends))  # "…, no power tools"
                i = ends
                continue
            i += 1  # "there's no heating", "if you leave the hens alone"
            continue
        if marker == (inflect.LEAVE_ALONE,):
            alone = inflect.alone_at(lows, body)
            if alone is not None:
                spans.append(Span(marker, i, body, alone + 1))
            i = (alone or i) + 1  # "leave the gate open": no boundary
            continue
        if marker == tuple(inflect.BUT_NOT.split()):
            end = _to_the_break(toks, body, keep)
            if end > body and lows[body] not in inflect.NOT_A_BAN_AFTER_BUT_NOT:
                spans.append(Span(marker, i, body, end))  # "…, but not in the rain"
            i = max(end, i + 1)
            continue
        while (
            j < len(toks)
            and j - body < MAX_FORBID_WORDS
            and toks[j].low not in PUNCT
            and j not in keep
            and phrase_at(toks, j, FORBID_STOPS) is None
            and not (_with_what(lows, marker, body, j) and phrase_at(toks, j + 1, VERB_PHRASES))
        ):
            j += 1
        if tuple(lows[body : body + 2]) in _UNSEEN:
            i = max(j, i + 1)  # "be careful not to get caught poisoning…": how, not what
            continue
        if tuple(lows[body:j]) in _DO_IT and j < len(toks) and lows[j] in _WHILE:
            j = _to_the_break(toks, j, keep)  # "don't do it while it's raining"
        elif lows[body:j] in (["go"], ["come"]) and lows[j : j + 1] == ["and"]:
            j = _to_the_break(toks, j, keep)  # "don't go and fix the gate": no order (a probe)
        elif j > body and j < len(toks) and lows[j] == "without" and marker[0] != "without":
            # "you are not to go up the ladder without someone holding it": one
            # ban (it was two, "Avoid someone holding it" the inverse of it)
            j = _to_the_break(toks, j, keep)
        if j > body:
            spans.append(Span(marker, i, body, j))
        i = max(j, i + 1)
    return spans


# What the speaker does not know, find or think (a typed probe: "I can never
# find anything in that cellar" was the ban "Do not find anything in that
# cellar", "…, I don't know" the ban "Do not know"); "we don't use power
# tools here" stays a ban (a house rule), "I don't want…" too.
_MINDS: Final = frozenset(
    words("know understand remember recall believe suppose reckon expect trust care mind")
)
# Only after "I": "we don't get them sweets", "we never see them after 7" are
# house rules (a review); "I don't think you should…" is a hedged ban.
_MINDS_OF_I: Final = frozenset(words("see find get think"))
_SPEAKER: Final = frozenset(words("i we"))
_MODALS: Final = frozenset(words("can could will would just really still honestly do even"))
_ASKS_YOU: Final = frozenset(words("you he she they it's we"))
_OUGHT: Final = frozenset(words("should shouldn't must need ought can could"))


def _of_others(lows: Sequence[str], i: int) -> bool:
    """Whether the "don't" at `i` is said of another in a reason or a purpose
    ("…so the foxes don't dig it up again", "…because we don't sleep well",
    "…so it doesn't squeak"): no ban on the agent (a typed probe, T26:
    "…, and won't dig it up again"). Not "…, so don't use the ladder", nor
    of "you", "he", "she" (the agent)."""
    if lows[i] not in _NEGATED or i == 0 or lows[i - 1] in _NO_SUBJECT:
        return False
    if lows[i + 1 : i + 2] and lows[i + 1] in _WISHES and lows[i + 2 : i + 3] in _TO_THEM:
        return False  # "…because I don't want you on the ladder": the steward's ban
    cue = next((k for k in range(i - 1, max(i - 5, -1), -1) if lows[k] in _WHY_CUES), None)
    subject = lows[cue + 1 : i] if cue is not None else []
    # Only a subject between: "so the foxes", "because we"; not "as soon as
    # possible don't…", "…so it doesn't leak don't go up…" (a review: bans lost).
    if len(subject) == 1:
        return subject[0] in _OTHERS
    return 1 < len(subject) <= 3 and subject[0] in _DETERMINERS and PUNCT.isdisjoint(subject)


_NEGATED: Final = frozenset(words("don't doesn't won't can't didn't dont doesnt wont cant"))
_NO_SUBJECT: Final = frozenset(words("you he she and but please just so then also , or"))
_WHY_CUES: Final = frozenset(words("so that because cause 'cause cos coz as since otherwise"))
_OTHERS: Final = frozenset(words("it we they i people things everyone nobody"))
_DETERMINERS: Final = frozenset(words("the our my your his her their those these some"))
_WISHES: Final = frozenset(words("want like need"))
_TO_THEM: Final = (["you"], ["him"], ["her"], ["them"])


def _speaker_knows(lows: Sequence[str], i: int, body: int) -> bool:
    """Whether the ban marker at `i` is the speaker's own "don't know"."""
    said = lows[body] if body < len(lows) else ""
    if said not in _MINDS | _MINDS_OF_I:
        return False
    after = [*lows[body + 1 : body + 3], "", ""]
    if said == "think" and after[0] in _ASKS_YOU and after[1] in _OUGHT:
        return False  # "I don't think you should use nails": a ban, hedged
    k = i - 1
    while k >= 0 and lows[k] in _MODALS:
        k -= 1
    if k < 0 or lows[k] not in _SPEAKER:
        return False
    return lows[k] == "i" or said in _MINDS


_THEN_ORDER: Final = frozenset(words("but so then just"))


def speakers_own(toks: Sequence[Tok]) -> frozenset[int]:
    """The words of the speaker's own "I can never find…", "I don't know…"
    up to the next punctuation: no ban, and no verb of an order."""
    lows = [t.low for t in toks]
    out: set[int] = set()
    for i in range(len(toks)):
        marker = phrase_at(toks, i, FORBID_MARKERS)
        if marker is None or not _speaker_knows(lows, i, i + len(marker)):
            continue
        j = i + len(marker)
        while j < len(toks) and lows[j] not in PUNCT and lows[j] not in _THEN_ORDER:
            j += 1  # "I don't know how you'll do it but fix the gate": the order after
        out.update(range(i, j))
    return frozenset(out)


# Before "nobody in", "nothing with"…: said as a part of their own; and
# in their part, no word that tells.
_APART: Final = frozenset(words(", but . ; and"))
_WHICH: Final = frozenset(words("that which who"))
_TELLS: Final = frozenset(words("is are was were has had got 's will can could would"))


def _told(lows: Sequence[str], i: int) -> bool:
    if i == 0 or lows[i - 1] not in _APART:
        return True
    k = i
    while k < len(lows) and lows[k] not in PUNCT:
        if lows[k] in _TELLS or lows[k].endswith("'s"):
            return True
        k += 1
    return False


# A ban on doing it at all, said with when: "don't do it while it's raining"
# (it was "Do not do it").
_DO_IT: Final = frozenset({("do", "it"), ("do", "that"), ("do", "anything"), ("start",), ("work",)})
_WHILE: Final = frozenset(words("while when if in during before until till"))
# "Don't get caught…", "take care not to be seen hurting the fox": not a ban
# on the deed that follows but how to do it unseen (its words are still read
# for the agent's values).
_UNSEEN: Final = frozenset(
    {("get", "caught"), ("be", "seen"), ("be", "caught"), ("get", "seen"), ("be", "noticed")}
)


def _not_there(toks: Sequence[Tok], i: int) -> int | None:
    """Where the words of a ban start when `i` says "not there" without a
    marker of its own, else None: "not" + a place after a comma ("build a
    pen, not near the veggie patch"); not without the comma ("look for the
    hens not in the coop" says which hens: a review), nor "not in a hurry".
    After a comma and a hedge ("…, just not in the oak", "…, ideally not
    near the hedge", "…, though not the garage", "…, definitely not with
    nails"), "nowhere near", "anywhere but near", "except (for)", "apart
    from" and "other than", whatever follows but a time (a seventh typed
    probe: each was dropped, or the place to keep away from was the place
    to work)."""
    low = toks[i].low
    b = i - 1
    while b >= 0 and toks[b].low in _HEDGES:
        b -= 1
    after_break = b >= 0 and toks[b].low in _BREAKS
    hedged = b < i - 1 and (after_break or toks[b].low in ("but", "and"))
    if (except_ := phrase_at(toks, i, _EXCEPT)) is not None and i > 0:
        body = i + len(except_)
        said = word_at(toks, body)  # "any day other than Tuesday" is asked (a time)
        if said in inflect.NOT_A_BAN_AFTER_BUT_NOT | _DAYS | _NOT_A_THING | PUNCT | {""}:
            return None  # "…, other than that all good", "…except it's stuck", "…except"
        only = {t.low for t in toks[max(i - 3, 0) : i]} & _ONLY_THAT
        return None if only else body  # "with nothing other than glue": what to use
    if low == "nowhere" or (low == "but" and word_at(toks, i - 1) == "anywhere"):
        near = phrase_at(toks, i + 1, _NEAR)
        after = word_at(toks, i + 1 + len(near or ()))
        return i + 1 if near is not None and after in _THING_STARTS else None  # not "…near done"
    if low != "not" or i == 0:
        return None
    k = i + 1 + (word_at(toks, i + 1) in ("too", "so", "very"))  # "not too close to the road"
    hedged = hedged and phrase_at(toks, k, NOT_PLACE_IDIOMS) is None  # not "…, just not in a hurry"
    if hedged and (word_at(toks, k) in _HEDGED_BANS or phrase_at(toks, k, LOCATION_PREPS)):
        if word_at(toks, k + 1) in ("a", "an", "any") and word_at(toks, k) != "with":
            return None  # "not in a hurry", "not a big deal"
        return None if word_at(toks, k + 1) in _NOT_A_THING | {"one"} else k  # "not the one…"
    # "…, not with the dog", "…, not from the ladder" (a typed probe: dropped)
    withal = after_break and word_at(toks, k) in ("with", "from")
    withal = (
        withal
        or (  # "…, not on a ladder", not "…, not on Friday"
            after_break
            and word_at(toks, k) == "on"
            and word_at(toks, k + 1) in ("a", "an", "the", "his", "her", "their", "my")
            and word_at(toks, k + 2) not in _DAYS | _IDIOM_NOUNS
            and not word_at(toks, k + 2)[:1].isdigit()
        )
    )
    placed = phrase_at(toks, k, LOCATION_PREPS) or phrase_at(toks, k, _NEAR)
    if placed is None and not withal:
        return None
    following = word_at(toks, k + 1)
    if phrase_at(toks, k, NOT_PLACE_IDIOMS) is not None:
        return None  # "not in your own time"
    if following in ("a", "an", "any") and word_at(toks, k + 2) in _IDIOM_NOUNS:
        return None  # "not in a hurry", "not in any hurry"; "not on a ladder" is a ban
    return k if after_break and toks[k].low not in ("at", "by") else None


_BREAKS: Final = frozenset(words(", ; - – —"))
# After "not in a / any", the words of an idiom, not a place: "not in a hurry".
_IDIOM_NOUNS: Final = frozenset(
    words("""hurry rush moment minute second bit way sense position mood state good bad big
    while urgency fuss panic""")
)
# Said between a comma and "not": "…, just not in the oak" (a probe: the place).
_HEDGES: Final = frozenset(
    words("just only ideally preferably definitely certainly though although obviously")
)
_EXCEPT: Final = phrases(["except", "except for", "apart from", "other than", "excluding"])
_NEAR: Final = phrases(["near", "close to", "next to", "anywhere near", "too close to"])
_DAYS: Final = frozenset(
    words("monday tuesday wednesday thursday friday saturday sunday weekends weekdays")
)
# After a hedge and "not", a ban starts with one of these or a place word:
# "…, though not the garage", "…, definitely not with nails"; not "…,
# although not everyone agrees", "…, though not because…".
_HEDGED_BANS: Final = frozenset(words("the with using near close"))
_THING_STARTS: Final = frozenset(words("the a an my our your his her their this that those"))
# After "except" and the like, these start a remark, not a thing.
_NOT_A_THING: Final = frozenset(
    words("that this it it's i i'm we we're you he she they there there's when if all")
)
# "nothing other than glue", "no tools other than a hammer": what to use.
_ONLY_THAT: Final = frozenset(words("nothing no none nobody anything any"))
# After a hedged "not", these are no ban: "…, just not yet", "…, ideally not
# too late", "…, though not urgent".
_NOT_BANS: Final = frozenset(words("yet late early urgent urgently much long sure always"))


def _with_what(lows: Sequence[str], marker: Phrase, body: int, j: int) -> bool:
    """Whether "to" at `j` ends a limit on what to use and starts the order:
    "only use the wood in the shed | to fix the fence" (a ninth typed probe:
    asked what to do). Never after a ban: "don't use the drone to map the
    neighbours' garden" bans the mapping too (a review: it was drafted)."""
    return marker == ("only", "use") and lows[j] == "to" and j > body + 1


def _to_the_break(toks: Sequence[Tok], k: int, keep: frozenset[int]) -> int:
    """From `k` to the next punctuation (or a word of another phrase), at
    most `MAX_FORBID_WORDS` words on."""
    start = k
    while k < len(toks) and k - start < MAX_FORBID_WORDS and toks[k].low not in PUNCT:
        timed = k > start + 1 and not {t.low for t in toks[start:k]} & (_WEEKDAYS | _WHEN_WORDS)
        if k in keep or (timed and _time_starts(toks, k)):  # not "…from Monday to Friday"
            break  # "…, not with the dog on Friday": the deadline, not the ban's (a review)
        k += 1
    return k


def _time_starts(toks: Sequence[Tok], k: int) -> bool:
    low, nxt = toks[k].low, word_at(toks, k + 1)
    if low in _WHEN_WORDS:  # "…, not with the dog tomorrow"
        return True
    if low in ("by", "before") and (word_at(toks, k + 2), nxt) == ("end", "the"):
        return True  # "…by the end of the week"
    # not "until" / "till": "not with the dog until Friday" bans for a time (a review)
    return low in ("by", "before", "next", "this", "on") and (
        nxt in _WEEKDAYS | _WHEN_WORDS | _SPANS or nxt[:1].isdigit()
    )


_WEEKDAYS: Final = frozenset(words("monday tuesday wednesday thursday friday saturday sunday"))
_WHEN_WORDS: Final = frozenset(words("today tonight tomorrow"))
_SPANS: Final = frozenset(words("week weekend month morning afternoon evening"))


def _reminds(toks: Sequence[Tok], marker: int) -> bool:
    """A reminder (`reminder_at`) first in its part and an order: asked for,
    no boundary ("I never forget to…", "you don't forget to…" stay one)."""
    before = toks[marker - 1].low if marker > 0 else ","
    lows = [t.low for t in toks]
    end = marker + reminder_at(lows, marker)
    if end == marker or (before not in PUNCT and before not in _REMIND_AFTER):
        return False
    nxt = lows[end : end + 1]  # after a comma: the address cut out ("…to [ask Kofi to] fix")
    verb = phrase_at(toks, end + (nxt == [","]), VERB_PHRASES)
    return (bool(nxt) and nxt[0] in FRAME_WORDS) or verb is not None


_REMIND_AFTER: Final = frozenset(words("please and so but just also then"))


def span_indices(spans: Iterable[Span]) -> frozenset[int]:
    return frozenset(k for s in spans for k in range(s.start, s.end))


_DAY_NAMES: Final = frozenset(
    ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
) | frozenset(("today", "tonight", "tomorrow"))


def _day_before(lows: Sequence[str], i: int) -> bool:
    """Whether a day (not itself banned) was said within the few words
    before "no" at `i`: "by Friday (morning / at 5), (sorry / no wait,) no
    Saturday"; not "no Saturday, no Sunday", "this week, no Friday"."""
    for k in range(i - 2, max(i - 7, -1), -1):
        if lows[k] == ".":
            return False
        if lows[k] in _DAY_NAMES or (lows[k][:1].isdigit() and lows[k][-2:] in _NTH):
            return k == 0 or lows[k - 1] != "no"
    return False


_NTH: Final = frozenset(("st", "nd", "rd", "th"))
