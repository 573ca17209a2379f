"""A change to the draft just read back, said as the next words: "no, I
said Kofi", "actually Friday", "make it urgent", "not the gate, the fence",
"and don't use the ladder", "yes please, but make it tomorrow".

Two kinds. A *correction* is said with a word that takes something back
("no,", "actually", "I meant", "make it / make that", "change it to", "…
instead", "… rather", "let Zuri do it", "not the gate, the fence"): what
follows may change anything, and an order of its own said so replaces the
draft ("no, ask Zuri to map the river instead"). A *bare change* has no such
word, and is one slot said alone: a roster name ("Zuri"), a time ("by
Friday", "tomorrow please"), a priority ("urgent", "no rush"), a hand
("use your judgment"), a boundary ("and don't use the ladder"). Anything
else said plainly is no change: chatter with a day in it ("Kofi is busy
today", "school starts again Monday"), a new order ("also, Tariq, guard the
barn tonight"), a question, a reply.

The draft's words are said again with the change after them, as the parser
reads a change said in one breath: a correction after ", no," ("Kofi, fix
the gate, no, the fence", "…, no, by Friday"), an addition after a full stop
("…. Urgent."). The runtime keeps only what the change names
(`runtime.amend`). Pure: strings in, a `FollowUp` out.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Final, NamedTuple

from vac.intent import calendar_words as cw
from vac.intent import lexicon as lx
from vac.intent.hand_said import hand_or_haste
from vac.intent.lexicon import asks, words
from vac.intent.numbers import ORDINALS
from vac.intent.tokens import raw_tokens

# Before a correction or a change: a reply, a filler ("yes please, but make
# it tomorrow", "perfect, make it urgent", "hold on, make it Saturday").
_LEAD: Final = re.compile(
    # Each word read once (an atomic group): words that overlap ("oh dear",
    # "so sorry") made a failing match try every split, 2^n on the event loop.
    r"^\s*(?>(?:yes|yeah|yep|yup|ye|yh|ok|okay|sure|fine|right|perfect|great|cool|lovely|um+|uh+"
    r"|er+|hmm+|hold\s+on|hang\s+on|oh\s+my|oh|so|well|ugh|gah|argh|better|please|dear|actually"
    r"|abeg|pls|plz|kindly"
    r"|good\s+heavens|goodness|wait(?:\s+a\s+(?:moment|sec|second|minute|mo))?"
    # An apology or a polite ask around the change ("Oh, I do apologise, I
    # meant Saturday", "Could you make it Imani instead, please?"): a probe.
    r"|i\s+(?:do\s+)?apologi[sz]e|apologies|my\s+(?:bad|mistake)|i'?m|sorry"
    r"|(?:could|can|would|will)\s+you)\b(?:\s*[,.!])?\s*)+"
    r"(?=(?:and|but|just|only|if|unless|once|make|change|no|nope|nah|naw|actually|i\s+meant?|not|swap|switch"
    r"|move|push|give|let'?s|ask|it\s+should|i'?d\s+(?:rather|prefer)|go\s+back|do\s+it)\b)",
    re.IGNORECASE,
)
# A time said next (a lookahead): "…by Friday", "…the day after tomorrow"; not "do it for Zuri".
_A_TIME_NEXT: Final = (
    r"(?=(?:by|on|before|until|till|within|in|tomorrow|today|tonight|next|this|mon|tue"
    r"|wed|thu|fri|sat|sun|the\s+(?:day|weekend|week|end|middle|start|\d))\w*\b)"
)
# Said first, these correct what was said: what follows replaces it.
_CORRECTING: Final = re.compile(
    r"^\s*(?>(?:(?:no|nope|nah|naw)\s*[,.!]|(?:no|nope|nah|naw)\s+(?=wait\b|make\b|change\b"
    r"|i\s+(?:meant|mean|said)\b|swap\b|switch\b|move\b|push\b|give\b|let\b|actually\b)"
    r"|(?:sorry|oops|actually|wait|jk|just\s+kidding"
    r"|rather|or\s+rather|oh|(?:i'?m|i\s+am)\s+(?:so\s+|very\s+|terribly\s+)?sorry|so)\b"
    r"(?:\s*[,.!])?)\s*)*"
    r"(?:(?:i|i've)\s+(?:meant|mean|said|say)\b\s*[,:]?\s*"
    r"|(?:(?:but|and)\s+)?(?:(?:could|can|would|will)\s+you\s+(?:please\s+)?)?"
    # "make am Saturday": West African English for "make it" (a typed probe)
    r"(?:make|change)\s+(?:it|that|am|the\s+\w+)\s+(?:to\s+|into\s+)?"
    r"|(?:swap|switch|change|move|push)\s+(?:it\s+|that\s+)?(?:back\s+|forward\s+|up\s+)?"
    r"(?:to|till|until)\s+|bring\s+(?:it\s+|that\s+)?forward\s+(?:to\s+)?"
    # "can u do it by wed instead", "can we do tomorrow instead" (a typed
    # probe); only before a time: "can you do it for Zuri" is for whom
    r"|(?:could|can|would|will|cud)\s+(?:you|u|we|he|she|they)\s+(?:please\s+)?do\s+(?:it\s+|that\s+)?"
    + _A_TIME_NEXT
    # "yeah sure, do it tomorrow", "do it in January" (a typed probe: no change)
    + r"|do\s+(?:it|that)\s+"
    + _A_TIME_NEXT
    + r"|give\s+it\s+to\s+|on\s+second\s+thoughts?\s*,?\s*|let'?s\s+(?:say|do|make\s+it)\s+"
    # "I'd rather Tariq did it", "it should be Tariq", "go back to Kofi",
    # "I want change to tomorrow" (a re-probe's elder and learner)
    r"|i'?d\s+(?:rather|prefer)\s+|it\s+should\s+be\s+|(?:go\s+)?back\s+to\s+"
    r"|i\s+want\s+(?:to\s+)?change\s+(?:it\s+)?to\s+"
    r"|(?:cancel|scrap|scratch|forget)\s+(?:that|it)(?:\s+please)?\s*(?:[,.;!]\s*|$)"
    r"|never\s*mind\s*[,.;!]\s*"
    r"|(?:let|have|get|make)\s+(?=[A-Z]\w*\s+(?:to\s+)?do\s+it\b))?",  # "have Imani do it"
    re.IGNORECASE,
)
# "do am": "do it" in West African English (not "leave am": "no o, leave am"
# then read "no o" as a ban).
_AM: Final = re.compile(r"\b(do)\s+am\b", re.IGNORECASE)
# "don't send it yet", "don't do it yet", "no, not right now": about the draft itself, no
# change (probes: "Do not send it yet" became a boundary; "no, not now", urgent).
_HOLD: Final = re.compile(
    r"^\W*(?:(?:no|wait|hold\s+on)\W+)?(?:(?:don'?t|do\s+not)\s+(?:confirm|send|cancel|submit"
    r"|approve|do\s+it\s+yet|do\s+anything\s+yet)\b(?:\s+(?:it|that|this|yet|just|for\s+now))*"
    r"|not\s+(?:right\s+|just\s+)?now)\W*$",
    re.IGNORECASE,
)
# "make Tariq run am", "let Zuri handle it": a name's "do it" (a conversation probe:
# "Kofi will build Tariq run am").
_DOES_IT: Final = re.compile(
    r"\b(\w+\s+(?i:(?:to|can|could|will|should)\s+)?)"
    r"(?i:handle|run|sort|manage|take\s+care\s+of|deal\s+with)\s+(?i:am|it|this|that)\b"
)
# A ban said of the agent: "tell him not to…", "and she mustn't…": "don't…".
_TOLD_NOT: Final = re.compile(
    r"^\s*(?:(?:and|but|oh|also)\s+)?(?:(?:please\s+)?tell\s+(?:him|her|them)\s+not\s+to"
    r"|(?:(?:make\s+sure|ensure|see\s+that)\s+(?:that\s+)?)?(?:he|she|they)\s+(?:mustn'?t|shouldn'?t"
    r"|must\s+not|should\s+not|doesn'?t|does\s+not|don'?t|won'?t|never"  # "make sure he doesn't…"
    r"|is\s+not\s+to|isn'?t\s+to|are\s+not\s+to))\s+",
    re.IGNORECASE,
)
# A question that offers another slot: "can it be Saturday instead?", "how
# about Zuri?", "could it wait till Monday?", "would Thursday work?".
_OFFERED: Final = re.compile(
    r"^\s*(?:(?:ok(?:ay)?|so|hmm+|um+|well|actually)\s*,?\s+)?"
    # Not "will it be done by Monday?": that asks whether it will be.
    r"(?:(?:how|what)\s+about\s+|(?:can|could|would|cud|can'?t)\s+(?:it|that|this|we|you|u)\s+"
    r"(?:(?:please|maybe)\s+)?(?:(?:be\s+)?(?:moved|pushed|changed)(?:\s+to)?|be(?:\s+done)?"
    r"|wait|do\s+(?:it|that))\s+|(?=.{1,40}?\b(?:ok|okay|alright|fine|work|do|better)\s*\??\s*$)"
    r"(?P<asks>(?:would|is|does|will|could)\s+))",
    re.IGNORECASE,
)
# Said after the slot offered: "…instead?", "…then please", "…be better".
_OFFERED_END: Final = frozenset(
    words("instead rather then please pls maybe perhaps ok okay alright fine work do for you be")
    + words("better possible does it")  # "how about Kofi does it instead" (a probe: asked)
)


def _offered_slot(rest: str) -> str:
    """`rest` without the words said after the slot, in one pass from the end
    (a regex for it backtracked 2^n on a long failing input: a review)."""
    spans = [(m.group(0).lower(), m.start()) for m in re.finditer(r"[\w']+|[^\w\s]", rest)]
    while spans and (spans[-1][0] in _OFFERED_END or not spans[-1][0][0].isalnum()):
        spans.pop()
    if not spans:
        return ""
    last = spans[-1]
    return rest[: last[1] + len(last[0])].strip(" ,.")


# Said last: "ask Zuri instead", "Friday then please", "Zuri, you do it".
_TRAILING: Final = re.compile(
    r"(?:(?>(?:\s*[,.])?\s*(?:instead|rather|then|please|pls|thanks|thank\s+you|tho|though|lol|haha"
    r"|btw|by\s+the\s+way|(?:is|'s|works?)\s+(?:better|best)"  # not "next week is fine"
    r"|actually|tbh|dear|at\s+all|if\s+you\s+don'?t\s+mind|would\s+be\s+(?:better|best|good|fine)"
    r"|i\s+meant?|"  # "The front garden, I mean." (a tenth typed probe: no change)
    r"(?:would|could|will)\s+you|not\s+(?:the\s+)?\w+|"
    r"(?:(?:you|they|he|she)\s+)?(?:(?:can|should|could|will|to)\s+)?do\s+it)\b))+\s*[.!?]?\s*$",
    re.IGNORECASE,
)
# A "not" inside a condition is the condition's, not a thing taken back.
_IN_CONDITION: Final = re.compile(
    r"\b(?:if|unless|once|when|whenever|provided|in\s+case|as\s+long\s+as)\b[^,.;]*$",
    re.IGNORECASE,
)
# What takes back for sure ("actually", "sorry", "oops", "oh", "wait" only lead in).
_STRONG: Final = re.compile(
    r"\b(?:no|nope|nah|naw|rather|meant|mean|said|say|make|change|let|swap|switch|move|push|give"
    r"|second|let's|lets|cancel|scrap|scratch|forget|mind|jk|kidding|prefer|should|back|want)\b",
    re.IGNORECASE,
)
# Said first, these drop the draft: with no order after them, the change is a no.
_CANCELS: Final = re.compile(r"\b(?:cancel|scrap|scratch|forget|never\s*mind)\b", re.IGNORECASE)
# A statement, not a slot: "no, Tariq is away Friday", "tomorrow I am not at home".
_STATEMENT: Final = frozenset(
    words("""i i'm im we we're he he's she she's they they're you you're is are am was were be
    been will won't can can't have has had i'll we'll away out home busy free off""")
)
# A clock time with no day: it cannot say which day (the draft's "by Friday" stays).
_CLOCK_ONLY: Final = re.compile(
    r"^(?:at|by|before|around|about)?\s*\d{1,2}(?::\d\d)?\s*(?:am|pm|o'?clock)?$|^(?:at|by)?\s*(?:noon|midnight)$",
    re.IGNORECASE,
)
_TAKES_BACK: Final = re.compile(r"instead|rather|do\s+it|not\s|\bi\s+meant?\b", re.IGNORECASE)
# "no monday", "no by thursday", "nah zuri": a correction before a time or a
# roster name in small letters (a probe: "no monday" banned "monday").
_NO_THEN: Final = re.compile(r"^(?:no|nope|nah|naw)\s+(?=(\w+))", re.IGNORECASE)
# "not the gate, the fence": a thing taken back for another.
_NOT_THAT: Final = re.compile(r"^\s*not\s+(?:the\s+|my\s+|our\s+|a\s+)?([\w ]+?)\s*[,.]", re.I)
# A weekday written short, said alone in a change ("actually thurs", "make it sat"): spelled out.
_DAY_SHORT: Final = {w: cw.WEEKDAY_NAMES[n] for w, n in cw.WEEKDAY_ABBREVIATIONS.items()}
_DAY_SHORT_RE: Final = re.compile(r"\b(" + "|".join(_DAY_SHORT) + r")\b\.?", re.IGNORECASE)
# The words of a time said alone, and nothing else ("by next Friday", "not
# tmrw, sat"): only then is a day written short spelled out, or a time after
# "no" read as a change.
_WEEKDAYS: Final = frozenset(cw.WEEKDAYS)
# Weekdays written short that are no other word ("nah thurs"; not "sun", "sat", "wed").
_CLEAR_SHORT: Final = frozenset(words("tue tues weds thu thur thurs fri"))
_ONLY_WHEN: Final = (
    frozenset(
        words("""by on before until till this next not the of week weekend morning afternoon
    evening night today tonight tomorrow tmrw 2moro 2day 2nite , .""")
    )
    | _WEEKDAYS
    | _CLEAR_SHORT
)
# Days said relative to now: after "no" they may mean "not then".
_RELATIVE_DAYS: Final = frozenset(words("today tonight tomorrow tmrw 2moro 2day 2nite now"))
# "for Abeni": who it is for, said in a change ("I meant for Abeni to do it").
_FOR_NAME: Final = re.compile(r"^for\s+(?=\w)", re.IGNORECASE)
# An addition: more said about the same order.
_ADDING: Final = frozenset(words("and but also plus oh"))
# Words around a bare slot that say nothing more: "it's urgent", "by Friday please".
_AROUND: Final = frozenset(
    words("""it's its it is very really quite so please pls then thanks just tho though lol actually
    kinda lowkey rather there's perhaps maybe tbh""")
)
# A time said alone starts with one of these ("by Friday", "tomorrow please").
_TIME_FIRST: Final = frozenset(
    words("""by before on at in this next tomorrow tonight today until till within end first
    monday tuesday wednesday thursday friday saturday sunday morning afternoon evening
    tmrw 2moro 2day 2nite asap""")
)
# "the 20th", "the fifth": a day; not "the first" / "the second" (which one).
_THE_DAY: Final = re.compile(
    r"^(?:\d{1,2}(?:st|nd|rd|th)?|weekend|"
    + "|".join(w for w, n in ORDINALS.items() if n >= 5)
    + r")$",
    re.IGNORECASE,
)
# What "the day…" / "the end…" must be of to be a time said alone.
_SPAN_WORDS: Final = _WEEKDAYS | frozenset(words("tomorrow today week month year next"))
# Said after "don't", these are chatter, not a boundary ("don't forget", "don't be silly").
_NOT_BANS: Final = frozenset(
    words("forget be worry know care mind bother panic fuss get judge laugh tell ask")
)
# Said after a ban's thing: when it is banned ("no power tools after 8pm"),
# an hour of the day: "no power on Sunday", "no water in the kitchen" are news.
_BANNED_WHEN: Final = frozenset(words("after before during past"))
_HOURS: Final = frozenset(words("dark dusk midnight noon bedtime dinner lunch tea night"))


def _an_hour(said: list[str]) -> bool:
    return bool(said) and all(w in _HOURS or w[:1].isdigit() or w in ("am", "pm") for w in said)


# "no ladder" typed: a thing banned ("no rush", "no thanks" are not).
_NOT_BANNED: Final = frozenset(
    words("""rush hurry hurries thanks thank problem problems worries worry idea way need
    chance time cap joke kidding lie doubt excuses excuse stress yeah yes hold wait worries
    luck money left possible one body thing matter sweat biggie prob probs deadline due limit""")
)


class FollowUp(NamedTuple):
    """What a change said next is: the words to read, the part said after
    the correction word (`rest`), and whether it was said as a correction."""

    words: tuple[str, ...]
    rest: str
    corrects: bool
    # "not the gate, …": the thing taken back, which must be the draft's.
    taken_back: str | None = None
    # "cancel that, …": with no order of its own after it, a no to the draft.
    cancels: bool = False


def follow_up(
    text: str, draft_source: str, *, alone_is_order: bool, names: Collection[str] = ()
) -> FollowUp | None:
    """The draft's words with `text` said after them as a change (in the
    ways to try, first first), or None when `text` is no change.

    `alone_is_order`: whether `text` parses as an order by itself (with a
    verb of its own): then only a correction replaces the draft; an order
    said plainly, or after "and" / "also", is its own. `names`: the roster.
    """
    said = text.strip()
    if not re.search(r"\w", said) or not draft_source.strip() or _HOLD.match(said):
        return None
    said = _TOLD_NOT.sub("and don't ", said)  # "tell him not to touch the wiring" (a probe)
    said = _AM.sub(r"\1 it", said)  # "make Zuri do am": West African English (a typed probe)
    agents = {n.lower() for n in names}
    said = _DOES_IT.sub(
        lambda m: f"{m[1]}do it" if m[1].split()[0].lower() in agents else m[0], said
    )
    if (offered := _OFFERED.match(said)) is not None:
        # "can it be Saturday instead?", "how about Zuri?": a question that
        # offers one slot is that change (a typed probe: asked again).
        slot = _offered_slot(said[offered.end() :])
        # "is Zuri ok?", "would Kofi do?": about them, not a change (unless "better")
        a_name = slot.lower() in {n.lower() for n in names}
        about = a_name and offered.group("asks") is not None and "better" not in said.lower()
        if slot and _bare(slot, names) and not about:
            said = f"make it {slot}"
    lows = [t.low for t in raw_tokens(said)]
    if not lows or asks(lows):  # "what did you hear?": no change
        return None
    said = _LEAD.sub("", said)
    base = draft_source.strip().rstrip(".!?;, ")
    if hand_or_haste(lows, agents):  # "it can wait", "just do it", "up to you": said whole
        rest = said.strip(" ,.;:!?")
        return FollowUp(
            (f"{base}, no, {rest}", f"{base}. {rest[:1].upper()}{rest[1:]}."), rest, False
        )
    corrected, no_name = _CORRECTING.match(said), None
    if (then := _NO_THEN.match(said)) is not None:
        # "no" without a comma: only a day or a name said alone ("no monday",
        # "no by thursday", "no Tariq instead"). Not "no tariq today", "No
        # Zuri Monday" (who is away when: a probe moved the deadline to that
        # day), nor "no today" / "no tomorrow" ("not today"?): no change.
        plain = said[then.end() :]
        plain = plain[: m.start()] if (m := _TRAILING.search(plain)) else plain
        after_no = [t.low for t in raw_tokens(plain) if t.low not in lx.PUNCT]
        days = {*after_no} & (_WEEKDAYS | _RELATIVE_DAYS | _CLEAR_SHORT)  # not "no sun", "no sat"
        if (len(after_no) == 1 and after_no[0] in agents) or (
            {*after_no} <= _ONLY_WHEN  # "no in that case…": not a time
            and days
            and after_no[0] not in _RELATIVE_DAYS  # "no today": "not today"?
        ):
            no_name = then
    cut = max(corrected.end() if corrected else 0, no_name.end() if no_name else 0)
    after = said[cut:]
    trailing = _TRAILING.search(after)
    if trailing is not None and not after[: trailing.start()].strip(" ,.;:!"):
        trailing = None  # it is all that was said: "not urgent"
    if (
        trailing is not None
        and re.match(r"\s*not\b", trailing.group(0), re.IGNORECASE)
        and _IN_CONDITION.search(after[: trailing.start()])
    ):
        trailing = None  # "only if it's not raining" (a typed probe: "only if it's")
    rest = (after[: trailing.start()] if trailing else after).strip(" ,.;:!")
    if {t.low for t in raw_tokens(rest)} <= _ONLY_WHEN | _DAY_SHORT.keys():  # "not tmrw, sat"
        rest = _DAY_SHORT_RE.sub(lambda m: _DAY_SHORT[m.group(1).lower()], rest)
    if (named := _FOR_NAME.match(rest)) and rest[named.end() :].split()[0].strip(",.").lower() in {
        n.lower() for n in names
    }:
        rest = rest[named.end() :]  # "make it for Tariq": Tariq
    rather = re.match(r"i'?d\s+(?:rather|prefer)\s+", rest, re.I)
    if rather or re.search(r"i'?d\s+(?:rather|prefer)\s*$", said[:cut], re.I):
        rest = rest[rather.end() :] if rather else rest  # "On second thought, I'd rather…"
        rest = re.sub(r"\s+(?:did|to\s+do|do)\s+it$", "", rest, flags=re.I)  # "…Tariq did it"
    elif re.search(r"(?:back\s+to|should\s+be)\s*$", said[:cut], re.I) and not _bare(rest, names):
        return None  # "back to school monday", "it should be sunny tomorrow": chatter
    if not rest:
        return None
    not_that = _NOT_THAT.match(rest)
    if not_that is not None and rest[not_that.end() - 1] == ".":  # "not fence. Gate."
        rest = rest[: not_that.end() - 1] + "," + rest[not_that.end() :]
    # "sorry", "oops", "oh", "wait", "actually" alone only lead in: "sorry I'm
    # in a rush", "actually it's my birthday tomorrow" are no correction.
    strong = bool(_STRONG.search(said[:cut])) or (no_name is not None)
    corrects = strong or not_that is not None
    cancels = bool(_CANCELS.search(said[:cut])) and not _MIND_GO.match(said)
    corrects = corrects or bool(trailing and _TAKES_BACK.search(trailing.group(0)))
    added = f"{base}. {rest[:1].upper()}{rest[1:]}."
    first = [t.low for t in raw_tokens(said)][:1]
    rest_lows = [t.low for t in raw_tokens(rest)]
    adds = bool(first) and first[0] in _ADDING and _bare(rest, names)  # "and be careful not to…"
    # "only if I'm late"; not "if Zuri is busy" (who is free: chatter)
    conditioned = lx.phrase_at(raw_tokens(rest), 0, _CONDITIONS) is not None
    conditioned = conditioned and not {*rest_lows} & agents
    stays = _stays(rest_lows, agents)  # "Stay off the flower beds." (not "…is off Friday")
    if _CLOCK_ONLY.match(re.sub(r"^(?:and|but|also|plus)\s+", "", rest.strip(), flags=re.I)) or (
        ({*rest_lows} & _STATEMENT and not alone_is_order and not cancels and not adds)
        and not conditioned
        and not stays
    ):
        return None  # "at 3pm" (which day?), "no, Tariq is away Friday": no slot said
    deed = _DEED_ON_IT.fullmatch(rest)  # "just look at it for now" (T28c: a new draft)
    said_so = deed and (deed["just"] or deed["while"]) and deed["it"].lower() in ("it", "that")
    if (corrects or said_so) and ", " in base:  # not "just support him" (a review)
        thing = base.split(", ", 1)[1].partition(" the ")[2]  # "no, visit her": Grandma
        verb = deed and lx.phrase_at(raw_tokens(deed["deed"]), 0, lx.VERB_PHRASES)
        if deed and thing and verb and len(verb) == len(deed["deed"].split()):
            thing = thing.capitalize() if thing.split()[0] in _KIN else f"the {thing}"
            rest, corrects = f"{deed['deed']} {thing}{deed['tail'] or ''}", True
    if not corrects and _same_kind(rest, base):
        rest, corrects = _thing_of(rest), True  # "the garage door" to the shed door's draft
    if not corrects:
        if alone_is_order:
            return None  # a new order, said plainly or after "and": its own draft
        if first and first[0] in _ADDING:  # "and don't use the ladder"
            return FollowUp((added,), rest, False) if adds else None
        if not _bare(rest, names):
            return None  # chatter: "Kofi is busy today"
    taken = not_that.group(1).strip() if not_that else None
    if taken and taken.split()[0].lower() in _TIME_FIRST:
        taken = None  # "not today, tomorrow": a time taken back, not a thing
    # Said again after ", no,": what it names replaces the draft's ("by
    # Friday" the deadline said before it, "Zuri" the agent); else said
    # after it ("check with me first").
    return FollowUp((f"{base}, no, {rest}", added), rest, corrects, taken, cancels)


# "never mind, go ahead": asked again, no no (a probe); "cancel it, yes" is one (a review).
_MIND_GO: Final = re.compile(r"\s*never\s*mind\W+(?:yes|yeah|go\s+ahead|do\s+it)\b", re.I)
_REPLY_AROUND: Final = frozenset(words("yeah yep yes sure ok okay"))
_SORRY: Final = frozenset(words("sorry oops actually oh i mean meant"))
# Which thing, not a new one: "a new door" may say the old one needs replacing (a review).
_DEFINITE: Final = frozenset(words("the my our your his her their that this"))
# Said as names, no "the": "no, visit her" to "…look into Grandma" (a review: "the grandma").
_KIN: Final = frozenset(words("grandma grandpa granny gran nan nana grandad mum mom dad"))
# Another deed on the draft's thing: "no, visit her", "(no,) just check it (for now)" (probes).
_DEED_ON_IT: Final = re.compile(
    r"(?i)(?P<just>just\s+)?(?P<deed>\w+(?:\s+\w+)?)\s+(?P<it>it|that|her|him|them)(?P<tail>\s+"
    r"(?:instead|first|(?P<while>for\s+(?:now|the\s+time\s+being|the\s+moment))))?"
)


def _thing_of(rest: str) -> str:
    """`rest` from its determiner on ("sorry, the garage door" → "the garage door")."""
    toks = raw_tokens(rest)
    first = next((t for t in toks if t.low in lx.DETERMINERS), None)
    return rest if first is None else rest[first.start :]


def _same_kind(rest: str, base: str) -> bool:
    """Whether `rest` is only another thing of the draft's kind ("the garage
    door", "sorry, the garage door" to "Kofi, fix the shed door": a twelfth
    typed probe asked what to do): a determiner and up to three words, the
    last the draft thing's own last word, and not the draft's thing."""
    lows = [t.low for t in raw_tokens(rest) if t.low not in lx.PUNCT and t.low not in _SORRY]
    said = [t.low for t in raw_tokens(base)]
    if not 2 <= len(lows) <= 4 or lows[0] not in _DEFINITE or not said:
        return False
    return lows[-1] == said[-1] and lows[1:] != said[-len(lows) + 1 :]


_STAY_AWAY: Final = (
    ["stay", "off"],
    ["keep", "off"],
    ["stay", "away"],
    ["keep", "away"],
    ["stay", "out"],
    ["keep", "out"],
)


def _stays(lows: list[str], agents: Collection[str]) -> bool:
    """ "Stay off the flower beds." (not "…my back", "…until Friday", "…, Zuri is doing it")."""
    said = lows[2 + (lows[2:3] in (["from"], ["of"])) :]
    told = {*lows} & ({*agents} | _TIME_FIRST | {","})
    return lows[:2] in _STAY_AWAY and said[:1] in (["the"], ["our"]) and not told


def _bare(rest: str, names: Collection[str]) -> bool:
    """Whether `rest` is one slot said alone: a name, a time, a priority, a
    hand, or a boundary."""
    lows = [t.low for t in raw_tokens(rest) if t.low not in lx.PUNCT]
    if lows[:1] in (["and"], ["but"], ["also"], ["plus"]):
        lows = lows[1:]
    core = [w for w in lows if w not in _AROUND and w not in _REPLY_AROUND]
    if not core:
        return False
    if core[:1] in (["sooner"], ["earlier"]) and core[1:] and {*core[1:]} <= _RELATIVE_DAYS:
        return True  # "sooner pls tmrw" (an eleventh typed probe); not "earlier, wednesday"
    if core[:3] in (["no", "later", "than"], ["not", "later", "than"]):
        return True  # "no later than Thursday" (a probe: no change)
    if core[:2] in _STAY_AWAY:
        return True  # "and stay off the roof"
    roster = {n.lower() for n in names}
    if len(core) == 1 and core[0] in roster:
        return True
    if core[0] in _TIME_FIRST and len(core) <= 6 and not {*core} & roster:
        return True
    if core[:2] in (["a", "week"], ["a", "fortnight"]) and len(core) <= 4:
        return True  # "a fortnight on Monday", "a week today" (a ninth typed probe)
    if core[:1] == ["the"] and len(core) in (2, 3) and _THE_DAY.match(core[1]):
        return True  # "the 20th", "the weekend", "the twentieth" (a typed probe: no change)
    if core[:2] in (["the", "day"], ["the", "end"]) and (
        len(core) <= 6 and {*core[2:]} & _SPAN_WORDS and not {*core} & roster
    ):
        return True  # "the day after tomorrow", "the end of next week" (a probe: no change)
    if tuple(core) in lx.MANNER_CUES or tuple(lows) in lx.MANNER_CUES:
        return True  # a priority or a hand, said alone ("it can wait", "just do it")
    if lx.phrase_at(said := raw_tokens(" ".join(core)), 0, _CONDITIONS) and len(core) <= 9:
        # "but only if it stops raining", "once the rain stops" (a typed probe);
        # not "if it rains, do it tomorrow", "after you check the fence" (a deed)
        return "," not in rest and lx.find_first(said, lx.VERB_PHRASES) is None
    if core[:3] == ["be", "careful", "not"]:  # "and please be careful not to wake him"
        core = ["don't", *core[4:]] if core[3:4] == ["to"] else core
    if core[0] in ("don't", "dont", "never", "without") or core[:2] == ["do", "not"]:
        at = 2 if core[0] == "do" else 1  # "do not" alone has no verb (it raised)
        verb = core[at] if len(core) > at else ""
        return verb not in _NOT_BANS and not {*core} & (roster | {"me", "us"})
    at = next((k for k, w in enumerate(core) if w in _BANNED_WHEN), len(core))
    if core[0] == "no" and 1 < at <= 3 and len(core) - at <= 3 and _an_hour(core[at + 1 :]):
        core = core[:at]  # "no power tools after 8pm" (an eleventh typed probe: no change)
    if core[0] == "no" and 2 <= len(core) <= 3 and not {*core[1:]} & _NOT_BANNED:
        # "no ladder", "no power tools"; not a time or a name in it: "no school
        # monday", "no kofi tomorrow" tell who or what is off (a probe: "with
        # no school monday" was drafted, and the deadline moved)
        return not {*core} & (roster | _TIME_FIRST | _DAY_SHORT.keys())  # not "no sun"
    return False


_CONDITIONS: Final = lx.phrases(
    [
        *("if", "only if", "unless", "once", "as soon as", "provided", "in case"),
        *("as long as", "assuming", "when", "whenever", "the moment", "the minute"),
    ]
)


__all__ = ["FollowUp", "follow_up"]
