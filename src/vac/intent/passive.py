"""Orders said about the thing, not the deed: "get the gate fixed", "the gate needs fixing".

People often name what they want done to a thing rather than say the verb
first ("the roof needs patching"): these had no verb and were asked about.
`as_order` turns such a sentence into the plain order it means, which the
parser then reads (only when the words as said give no verb, keeping them
as the objective's `source_text`).

    keep <the thing> safe                    → protect <the thing>
    give / lend <someone> a hand (with …)    → help <someone> (with …)
    would you mind / how about <doing>       → … <do>
    why don't you <do>                       → <do>
    get / have <the thing> <done>            → <do> <the thing>
    <the thing> needs / has to be <done(ing)> → <do> <the thing>
    I / we need / want <the thing> <done>    → <do> <the thing>

The thing starts with a determiner ("the", "my", "our"…) or a possessive
("Imani's bike"; since the twenty-sixth session) and is at most five words,
so "Kofi fixed the gate" (a report) and "have Kofi fix it" (a plain order)
never match. Only the one-word verbs of the lexicon, in their regular or
common irregular forms ("built", "made"). Pure: text in, text out.
"""

from __future__ import annotations

import re
from typing import Final, NamedTuple

from vac.intent import lexicon as lx
from vac.intent.hazards import HAZARDS, PESTS, THING_ENDS
from vac.intent.inflect import NO_DEED, VERB_PARTICLES, a_deed
from vac.intent.tokens import SHORTHAND
from vac.intent.verb_cues import DONE_FORMS as _DONE
from vac.intent.verb_cues import THIRD_PERSON, VERB_CUES
from vac.intent.when_match import past_form

_THING_STARTS: Final = frozenset(
    lx.words("the a an my our your his her their this that these those")
)
# Not "got": "Kofi got the gate fixed" is a report.
_GET: Final = frozenset(lx.words("get have"))
_NEEDS: Final = (
    *("needs", "need", "has to be", "have to be", "must be", "should be", "needs to be"),
    *("could do with", "could use", "wants", "want"),  # "the fence wants mending"
)
_WANT: Final = frozenset(lx.words("need want"))
# "make sure the gate is fixed" → "make sure: fix the gate".
_GETS_DONE: Final = ("is", "are", "gets", "get")
_SPEAKER: Final = frozenset(lx.words("i we"))
_THING_MAX_WORDS: Final = 5
# A request said as a question about the deed: "would you mind fixing…",
# "how about checking…".
_ASKING: Final = frozenset({"you mind", "how about", "what about"})
_VERB_FIRST_WORDS: Final = frozenset(cue.split()[0] for cue in VERB_CUES)
_WORD: Final = re.compile(r"[A-Za-z']+")


_Span = tuple[int, int, str]  # start, end, the word lower-cased


def spans_of(text: str) -> list[_Span]:
    """The words of `text`, lower-cased, typed shorthand spelled out ("wld u
    mind fixing…": an eleventh typed probe asked what)."""
    return [(m.start(), m.end(), _spelled(m.group())) for m in _WORD.finditer(text)]


def _spelled(word: str) -> str:
    low = word.lower()
    return SHORTHAND.get(low, low) if word == low else low


def _apart(text: str, left: _Span, right: _Span) -> bool:
    """Whether punctuation stands between two words ("the gate, fixed")."""
    return bool(text[left[1] : right[0]].strip(" "))


def _as_object(words: str) -> str:
    """ "The gate" said first is "the gate" after the verb ("Imani's bike" stays)."""
    first = words.split(" ", 1)[0]
    return words if first[-2:] in ("'s", "’s") else words[:1].lower() + words[1:]


class Order(NamedTuple):
    text: str  # the plain order
    said: tuple[int, int]  # where the verb's word ("fixed") is in what was said
    verb: tuple[int, int]  # where the verb ("fix") is in `text`


def asked_plainly(text: str, spans: list[_Span], *, speaker_may_ask: bool = True) -> bool:
    """Whether the words may hold an order at all: no negation ("the gate
    doesn't need fixing", "Kofi can't keep the kids safe"), no speaker doing
    it ("I will fix it"), and a question only as a polite request ("can you
    get the gate fixed?", not "the gate needs fixing?")."""
    said = [w for _s, _e, w in spans]
    negated = any(
        (w in _NOT or w.endswith("n't"))
        # "…, no shouting": a boundary (`bans.forbidden_spans`), not a negation; "don't forget,"
        and not (w in (NO_DEED, "don't") and k + 1 < len(said) and _not_negating(said[k + 1], w))
        # "…, but don't hurt the fox": a boundary after the order, not its negation
        and not (
            w in _BOUNDARY_STARTS
            and k > 0
            and not _takes_back(said, k)
            and _after_order(text, spans, k)
        )
        for k, w in enumerate(said)
    )
    if negated and not _WHY_DONT_YOU.search(text.lower()):
        return False
    plans = _SPEAKER_PLANS if speaker_may_ask else _SPEAKER_PLANS | _SPEAKER
    if any(w in plans for w in said):
        return False  # "I'll get it fixed"; after "the gate is broken", "I will fix it"
    return "?" not in text or _POLITE_START.search(text.lower()) is not None


_NOT: Final = frozenset(lx.words("not never no none nobody nothing longer"))
_BOUNDARY_STARTS: Final = frozenset(lx.words("don't never"))


def _takes_back(said: list[str], k: int) -> bool:
    """ "…, never mind", "…, never mind, Zuri did it", "…, don't do it (yet)":
    the order taken back; not "don't bother the bees", "never mind the
    cost", "don't worry about the paint" (boundaries)."""
    rest = said[k + 1 :]
    if rest[:1] == ["do"]:
        return True
    if rest[:1] not in (["mind"], ["bother"], ["worry"]):
        return False
    return len(rest) == 1 or not (rest[1] in lx.DETERMINERS or rest[1] in ("about", "with"))


def _after_order(text: str, spans: list[_Span], k: int) -> bool:
    """Whether word `k` starts a new part after a comma ("…, don't", "…, but
    never…"): a boundary drawn after the order."""
    joined = spans[k - 1][2] in ("but", "and", "just") and k > 1
    at = k - 1 if joined else k
    # Three words or more before the comma: not "Kofi, don't get the gate fixed".
    return at >= 3 and text[spans[at - 1][1] : spans[at][0]].strip() == ","


def _not_negating(after_no: str, no: str = NO_DEED) -> bool:
    """ "no shouting" (a boundary), "no rush" (a priority), "don't forget": no negation."""
    return after_no == "forget" if no == "don't" else a_deed(after_no) or after_no in _NO_RUSH


_SPEAKER_PLANS: Final = frozenset(lx.words("i'll i'm we'll we're"))
_NO_RUSH: Final = ("rush", "hurry")
# A question that is a request starts so (after a name, and an opener before
# it): "Kofi, can you…?", "okay Kofi, would you mind…?", "hey Zuri, how about…?",
# also after a clause and a comma ("the gate is broken, can you fix it?").
_POLITE_START: Final = re.compile(
    r"(?:^|[.!?,]\s*)(?:\w+,?\s+)?(?:\w+,\s*)?"
    r"(?:(?:can|could|would|will) (?:you|someone)|why don'?t you|how about|what about"
    # "do you mind…", and "what do you mind…" as tiny.en writes "would you
    # mind" (a spoken probe: three voices, each asked as a question)
    r"|(?:could|would|do|what do) \w+ mind|mind \w+ing|(?:can|could) (?:the|my|our|your|this|these)"
    r")\b"
)
# A polite clause before the request says nothing of it: "Abeni, when you
# have a moment, would you mind repairing the lamp?" (read as blanks).
_POLITE_CLAUSE: Final = re.compile(
    r"\b(?:(?:when|whenever|if) you(?:'ve)? (?:have|get|find|got) "
    r"(?:a (?:moment|minute|sec|second|chance)|(?:the |some )?time)|if possible|if you can),"
)
# An apology before "but" and the request: "terribly sorry, but would Tariq
# mind mapping…", "I'm sorry to ask, but the roof needs mending" (a typed
# probe, T22: asked what to do); blanked, but a name said with it (a review).
_SORRY_BUT: Final = re.compile(
    r"^\W*(?:\w+\W+){0,3}?(?P<sorry>(?:i'?m\s+)?(?:(?:so|terribly|really|very)\s+)?sorry"
    r"(?:\s+to\s+(?:ask|bother\s+you|trouble\s+you|be\s+a\s+(?:pain|nuisance)))?"
    r"|i\s+hate\s+to\s+(?:ask|bother\s+you|trouble\s+you|be\s+a\s+(?:pain|nuisance))"
    r"|i\s+know\s+you'?re\s+busy|forgive\s+me|apologies)\W+(?:\w+\W+){0,3}?(?P<but>but)\s+",
    re.IGNORECASE,
)


def _blank(text: str, at: tuple[int, int]) -> str:
    return text[: at[0]] + " " * (at[1] - at[0]) + text[at[1] :]


# What may stand before the words of the order in its sentence (after a
# name and a comma): "Kofi, can you get…", "we need…", "please get…".
# Not "grandma said…", "maybe…", "if…", "can you believe…".
_LEAD_OK: Final = frozenset(
    lx.words(
        "please so okay ok hey hi hiya hello well um uh right alright now just also can could "
        "let's "
        "would will do what "
        "you someone somebody i we "
        "i'd we'd need want like really and then make sure certain"
    )
)
# Words no thing holds: "the roof will need…", "the roof that needs…".
_NOT_THING: Final = frozenset(
    lx.words(
        "will would can could should must may might shall that which who whose says said is "
        "are was were has had does did do"
    )
)


# Before a name and its verb said of them: "make sure Kofi fixes the gate".
_OF_SOMEONE: Final = frozenset(
    {"make sure", "make sure that", "ensure", "ensure that", "see that", "see to it that"}
    | {"how about", "what about", "best if", "it's best if", "it would be best if"}
)


def _said_of_someone(text: str, spans: list[_Span], i: int, names: frozenset[str]) -> Order | None:
    """ "Make sure Kofi (someone) fixes the gate by Friday" → "Kofi, fix the gate by Friday":
    a name (capitalised) and a verb of ours said of them after a lead that asks for it."""
    start, end, word = spans[i]
    anyone = i > 0 and spans[i - 1][2] in ("someone", "somebody")  # T29: "protect someone…"
    if word not in THIRD_PERSON or i < 2 or not (text[spans[i - 1][0]].isupper() or anyone):
        return None
    if _apart(text, spans[i - 1], spans[i]):
        return None
    for size in range(1, 6):
        if i - 1 - size < 0:
            break
        lead = " ".join(s[2] for s in spans[i - 1 - size : i - 1])
        if lead in _OF_SOMEONE and _plain_lead(text, spans, i - 1 - size, names):
            name = text[spans[i - 1][0] : spans[i - 1][1]]
            verb = THIRD_PERSON[word]
            first = i - 1 - size
            cut = spans[first - (first > 0 and spans[first - 1][2] == "let's")][0]
            order = f"{text[:cut]}{name}, {verb}{text[end:]}"
            at = cut + len(name) + 2
            return Order(order, (start, end), (at, at + len(verb)))
    return None


def _mind_asked(text: str, spans: list[_Span], k: int) -> bool:
    """Whether "mind" at word `k` asks: first in its part ("Zuri, mind
    checking…") or after "would / could" and a name ("would Abeni mind…");
    not "I would mind…", "we'd mind…", "would he mind…"."""
    if spans[k][2] != "mind":
        return False
    if k == 0 or "," in text[spans[k - 1][1] : spans[k][0]]:
        return True
    named = k >= 2 and text[spans[k - 1][0]].isupper() and spans[k - 1][2] != "i"
    return named and spans[k - 2][2] in ("would", "could")


def _plain_lead(text: str, spans: list[_Span], i: int, names: frozenset[str]) -> bool:
    """Whether the words before word `i` in its sentence only lead into an order."""
    start = max(text.rfind(".", 0, spans[i][0]), text.rfind("!", 0, spans[i][0]))
    start = max(start, text.rfind("?", 0, spans[i][0]))
    lead = [s for s in spans[:i] if s[0] > start]
    # "Tell Kofi (that) the gate needs fixing": the order passed on to a name.
    told = len(lead) >= 2 and lead[0][2] in ("tell", "ask") and text[lead[1][0]].isupper()
    thing = [w for _s, _e, w in spans[i : i + 2]]
    if thing[:1] == ["that"]:
        thing = thing[1:]
    if told and thing[:1] and thing[0] in lx.DETERMINERS - {"that"}:  # not "…that Zuri thinks"
        lead = lead[3:] if len(lead) > 2 and lead[2][2] == "that" else lead[2:]
    lead = _without_apology(text, lead)  # "Sorry to be a pain, Zuri, would you mind…"
    # A word said apart is a name or an opener: "Kofi, …", "So, Zuri, …",
    # "Hey Zuri, …" (the opener before it is in _LEAD_OK).
    apart = [s for s in lead if text[s[1] : s[1] + 1] != ","]
    if [w for _s, _e, w in apart[1:2]] in (["would"], ["could"], ["can"], ["will"], ["do"]):
        # "Kofi would you mind fixing…": a name without its comma (a typed probe)
        apart = apart[1:] if apart[0][2] not in SUBJECTS | lx.DETERMINERS else apart
    elif apart and apart[0][2] in names and [w for _s, _e, w in apart[1:2]] not in _JOINED:
        apart = apart[1:]  # "Tariq keep the kids safe": a name without its comma
        if [w for _s, _e, w in apart] in (["we"], ["i"]):
            return False  # "Imani we keep the kids safe": what is done (a review)
    return all(w in _LEAD_OK for _s, _e, w in apart)


# "Kofi and I keep the kids safe": a name in a subject says what is done.
_JOINED: Final = (["and"], ["or"], ["&"])
_APOLOGIES: Final = frozenset(lx.words("sorry apologies forgive excuse pardon"))
_NOT_OWNERS: Final = frozenset(lx.words("it's that's there's what's let's he's she's who's here's"))


def _without_apology(text: str, lead: list[_Span]) -> list[_Span]:
    """`lead` without an apology or a reminder said first up to its comma
    ("sorry to be a pain, …": a ninth typed probe asked what; "don't forget, …": T29)."""
    said = [w for *_, w in lead[:2]]
    reminds = said == ["don't", "forget"] or said[:1] == ["remember"]
    if not lead or (lead[0][2] not in _APOLOGIES and not reminds):
        return lead
    end = next((k for k, s in enumerate(lead) if text[s[1] : s[1] + 1] == ","), None)
    return lead if end is None else lead[end + 1 :]


_WHY_DONT_YOU: Final = re.compile(r"^\W*(?:\w+\W+){0,2}why don'?t you\b")
# Words before "get" / "have" / "keep" that make it a report or a plan, not
# an order: "they'll have the gate fixed", "we keep the kids safe".
SUBJECTS: Final = frozenset(
    lx.words(
        "i we they he she it you'll they'll we'll he'll she'll i'll will would shall should "
        "might must may to did does do had can could anyone someone everyone"
    )
)


# "the gate won't fix itself", "the hives won't check themselves": said to
# get it done (a twelfth typed probe drafted a Repair of "Itself").
_ON_ITS_OWN: Final = re.compile(
    r"(?:^|[,.;:!?]\s*)(?P<thing>(?:the|my|our|that|this|those|these)"
    r"(?:\s+(?!(?:by|in|on|under|at|of|near|behind|from|with)\b)[a-z]+){1,3}?)\s+"
    r"(?:won'?t|will\s+not|isn'?t\s+going\s+to|aren'?t\s+going\s+to)\s+"
    r"(?P<verb>[a-z]+)\s+(?:itself|themselves)\b",
    re.IGNORECASE,
)


def on_its_own(text: str) -> str | None:
    """ "the gate won't fix itself" said as "fix the gate", or None."""
    own = _ON_ITS_OWN.search(text)
    if own is None:  # "the gate by the barn won't fix itself": which thing? (a review)
        return None
    return f"{text[: own.start('thing')]}{own['verb']} {own['thing']}{text[own.end() :]}"


def as_order(text: str, names: frozenset[str] = frozenset()) -> Order | None:
    """`text` with "get <thing> <done>" / "<thing> needs <doing>" said as the
    plain order ("fix <thing>"); None when it holds neither."""
    text = _POLITE_CLAUSE.sub(lambda m: " " * len(m.group()), text)
    if (sorry := _SORRY_BUT.match(text)) is not None:  # "Kofi, sorry to ask, but…"
        text = _blank(_blank(text, sorry.span("but")), sorry.span("sorry"))
    spans = spans_of(text)
    if not asked_plainly(text, spans):
        return None
    for i, (start, end, word) in enumerate(spans):
        if (of_someone := _said_of_someone(text, spans, i, names)) is not None:
            return of_someone
        before = " ".join(s[2] for s in spans[max(0, i - 2) : i])
        if (
            word.endswith("ing")
            and word in _DONE
            # "would you mind fixing…", "Zuri, mind checking…", "would Abeni mind helping…"
            and (before in _ASKING or _mind_asked(text, spans, i - 1))
            and _plain_lead(text, spans, i - 2, names)
        ):
            verb = _DONE[word]  # "would you mind fixing the gate" → "… fix the gate"
            return Order(text[:start] + verb + text[end:], (start, end), (start, start + len(verb)))
        kept = _kept(text, spans, i, names)
        if kept is not None:
            return kept
        lead = " ".join(s[2] for s in spans[i : i + 3])
        if lead == "why don't you" and i + 3 < len(spans):
            at = spans[i + 3]  # "why don't you fix the gate" → "fix the gate"
            if at[2] not in _VERB_FIRST_WORDS:
                return None  # "why don't you want to…"
            order = text[:start] + text[at[0] :]
            return Order(order, (at[0], at[1]), (start, start + at[1] - at[0]))
        owned = word[-2:] == "'s" and word not in _NOT_OWNERS  # "Imani's bike needs fixing" (T29)
        if word in _THING_STARTS or owned:
            found = _around(text, spans, i)
            found = (
                None if owned and found and found[0] != i else found
            )  # "have Kofi's team fixed…"
            if found is not None and _plain_lead(text, spans, found[0], names):
                first, done, thing = found
                cut_from, cut_to = spans[first][0], spans[done][1]
                after = spans[done + 1] if done + 1 < len(spans) else None
                if after and after[2] in VERB_PARTICLES and not _apart(text, spans[done], after):
                    cut_to = after[1]  # "get the well checked out" → "check the well"
                verb = _DONE[spans[done][2]]
                # "the gate you fixed needs checking on Monday": the day is the
                # order's, not the clause's ("check the gate you fixed, on Monday").
                told = any(past_form(w) for w in thing.lower().split()[1:])
                rest = text[cut_to:]
                pause = "," if told and rest[:1] == " " and rest[1:2].isalnum() else ""
                order = text[:cut_from] + f"{verb} {thing}{pause}" + rest
                said = (spans[done][0], spans[done][1])
                return Order(order, said, (cut_from, cut_from + len(verb)))
    return None


# "keep the kids safe" → "protect the kids"; "give grandma a hand with the
# laundry" → "help grandma with the laundry".
_SAFE: Final = frozenset(lx.words("safe secure"))


def _kept(text: str, spans: list[_Span], i: int, names: frozenset[str]) -> Order | None:
    start, end, word = spans[i]
    if word not in ("keep", "give", "lend") or not _plain_lead(text, spans, i, names):
        return None  # "we keep the kids safe" says what is done
    for k in range(i + 2, min(i + 2 + _THING_MAX_WORDS, len(spans))):
        if _apart(text, spans[k - 1], spans[k]):
            return None  # punctuation ends the thing
        thing = text[spans[i + 1][0] : spans[k - 1][1]]
        if word == "keep" and spans[k][2] in _SAFE and spans[i + 1][2] in _THING_STARTS:
            order = text[:start] + f"protect {thing}" + text[spans[k][1] :]
            return Order(order, (start, end), (start, start + len("protect")))
        away = [s[2] for s in spans[k : k + 2]] == ["away", "from"]
        if word == "keep" and away and spans[i + 1][2] in _THING_STARTS:
            return _kept_away(text, spans, (start, end), thing, k + 2)
        if word in ("give", "lend") and [s[2] for s in spans[k : k + 2]] == ["a", "hand"]:
            order = text[:start] + f"help {thing}" + text[spans[k + 1][1] :]
            return Order(order, (start, end), (start, start + len("help")))
    return None


# "keep the foxes away from the hens" → "protect the hens from the foxes";
# "keep the kids away from the pond" → "protect the kids from the pond" (a
# typed probe, T22: neither had a verb). Only when the words say which is
# at risk: the other is a hazard, or the one kept away a pest; else asked
# as before ("keep the kids away from the shed": which? a review found
# "protect the stairs from the baby").


def _kept_away(
    text: str, spans: list[_Span], said: tuple[int, int], kept: str, k: int
) -> Order | None:
    """The order "keep <kept> away from <the words at k>" means, if it says."""
    end = k
    while end < len(spans) and spans[end][2] not in THING_ENDS:
        if end > k and _apart(text, spans[end - 1], spans[end]):
            break
        end += 1
    words_kept = kept.lower().split()
    other = [s[2] for s in spans[k:end]]
    if not other or len(other) > _THING_MAX_WORDS or {"and", "or"} & {*other, *words_kept}:
        return None  # "…from the road and the river": one thing each
    if words_kept[0] in ("your", "yourself") or words_kept[-1] in HAZARDS:
        return None  # "keep your hands away from…" (a ban), "keep the water away from…"
    said_other = text[spans[k][0] : spans[end - 1][1]]
    if other[-1].removesuffix("'s") in HAZARDS | PESTS:
        first, second = kept, said_other  # "the baby away from the stairs", "…from the fox"
    elif words_kept[-1] in PESTS:
        first, second = said_other, kept  # "the goats away from the garden"
    else:
        return None
    order = text[: said[0]] + f"protect {first} from {second}" + text[spans[end - 1][1] :]
    return Order(order, said, (said[0], said[0] + len("protect")))


def _around(text: str, spans: list[_Span], i: int) -> tuple[int, int, str] | None:
    """(the first and the last word the order replaces, the last being the
    deed's; the thing) for the thing starting at word `i`, if a pattern holds."""
    # The thing is a determiner and at least one word: "the building" is no
    # "build" ("get the building repaired").
    if i + 1 >= len(spans) or _apart(text, spans[i], spans[i + 1]):
        return None
    for k in range(i + 2, min(i + 1 + _THING_MAX_WORDS, len(spans))):
        if _apart(text, spans[k - 1], spans[k]) or spans[k - 1][2] in _NOT_THING:
            return None  # punctuation ends the thing; "the roof will…" is no thing
        thing = _as_object(text[spans[i][0] : spans[k - 1][1]])
        word = spans[k][2]
        before = spans[i - 1][2] if i > 0 else ""
        wish = _would_like(spans, i)
        if word in _DONE and (before in _GET | _WANT or wish):  # "get the gate fixed"
            at = i - 1 - wish  # "I'd like / I would like the porch light fixed"
            if before in _GET and at > 0 and spans[at - 1][2] in SUBJECTS:
                return None  # "they'll have the gate fixed": a plan, not an order
            if before in _WANT and at > 0 and spans[at - 1][2] in _SPEAKER:
                at -= 1  # "we need the gate fixed": no one's own plan
            return at, k, thing
        rest = " ".join(s[2] for s in spans[k : k + 4])
        needs_words = _NEEDS + (_GETS_DONE if before in ("sure", "certain") else ())
        # "could the gate be fixed…?"; not "…if we paid more?", "…or should I…?"
        asks = before in ("can", "could") and not _SUPPOSING.search(text.lower())
        for needs in ("be",) if asks else needs_words:
            if rest.startswith(needs + " "):
                done = k + len(needs.split())
                if spans[done][2] in _DONE:  # "the gate needs fixing"
                    return i - asks, done, thing
    return None


_SUPPOSING: Final = re.compile(r"\b(?:if|or|already|at all|ever)\b")


def _would_like(spans: list[_Span], i: int) -> int:
    """How many words before "like" (before the thing at `i`) say the
    speaker would like it: 1 for "I'd like", 2 for "I would like", else 0."""
    said = [s[2] for s in spans[max(0, i - 3) : i]]
    if said[-2:] in (["i'd", "like"], ["we'd", "like"]):
        return 1
    return 2 if said in (["i", "would", "like"], ["we", "would", "like"]) else 0


# Shared with `it_means` (what "it" stands for).
THING_STARTS: Final = _THING_STARTS
apart = _apart
as_object = _as_object

__all__ = [
    "SUBJECTS",
    "THING_STARTS",
    "Order",
    "apart",
    "as_object",
    "as_order",
    "asked_plainly",
    "spans_of",
]
