"""A name said first and then asked, typed without the comma: "Kofi would
you be able to patch the roof", "Zuri I need you to check the hens", "Kofi
please could you fix the door", "Kofi would you mind fixing the gate".

With the comma these address the agent already; without it the name ran
into the request and the parser asked who should do it. A comma of no
width is put after the name when what follows asks "you" for something:
a modal and "you" ("would you", "could u"), "please" before one, "I need
/ want / 'd like you to", "do / would you mind". A statement about the
agent stays as said: "Kofi can fix anything", "Kofi could not fix it".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from vac.intent.lexicon import Tok, words
from vac.intent.roster import Roster
from vac.intent.when_match import past_form

_OPENERS: Final = frozenset(
    words("hey hi hello ok okay so right well alright oh yeah listen oi oy yo")
    + words("morning good evening afternoon hiya ahh ah ugh")
    + words("like basically um uh er erm bruh dude")  # spoken: "so like Zuri could you…"
)
_MODALS: Final = frozenset(words("would could can will"))
_YOU: Final = frozenset(words("you u ya yer"))
# Said right after the name, to the agent: "Kofi mate can ya fix…" (a typed
# probe: asked who should do it).
_ENDEARMENTS: Final = frozenset(words("mate love dear buddy pal darling bro son luv hun"))


def _low(toks: Sequence[Tok], k: int) -> str:
    return toks[k].low if 0 <= k < len(toks) else ""


def _asks_you(toks: Sequence[Tok], k: int) -> bool:
    """Whether the words from `k` ask "you" for something."""
    k += _low(toks, k) in ("please", "pls")  # "please could you…"
    first, second = _low(toks, k), _low(toks, k + 1)
    if first in _MODALS and second in _YOU:
        return True
    if first == "do" and second in _YOU and _low(toks, k + 2) == "mind":
        return True
    if first == "i" and second in ("need", "want") and _low(toks, k + 2) in _YOU:
        return True  # "I need you to…"
    if first == "i'd" and second in ("like", "love") and _low(toks, k + 2) in _YOU:
        return True
    return first == "i" and second == "would" and _low(toks, k + 2) == "like"


def name_set_apart(toks: Sequence[Tok], roster: Roster) -> list[Tok]:
    """The tokens with a comma of no width after a first name that asks."""
    toks = _message_for(toks, roster)  # "pass a message to Tariq: guard the shop tonight"
    i = 0
    while _low(toks, i) in _OPENERS:
        i += 1
    lead = i
    while lead < min(i + _LEAD_MAX, len(toks)) and _low(toks, lead) in _LEAD_WORDS:
        lead += 1  # "by the way Kofi…", "first thing tomorrow Kofi fix the gate"
    if lead > i and lead < len(toks) and roster.get(toks[lead].text) is not None:
        after = name_set_apart(toks[lead:], roster)
        typed_apart = _low(toks, lead + 1) in (",", ".", ":", "!")  # "anyway Kofi, fix…"
        if len(after) == len(toks) - lead and not typed_apart:
            return list(toks)  # not said to the name: "And Tariq can map the trail…" as said
        before = Tok(",", ",", toks[lead].start, toks[lead].start)  # the lead-in set apart
        return [*toks[:lead], before, *after]
    stop = next((k for k, t in enumerate(toks[:_TALK_MAX]) if t.low in _STOPS), None)
    if (i >= len(toks) or roster.get(toks[i].text) is None) and stop is not None and stop > i:
        # "ugh what a day. Abeni help me with the dishes": the next sentence's first name
        return [*toks[: stop + 1], *name_set_apart(toks[stop + 1 :], roster)]
    if i >= len(toks) or roster.get(toks[i].text) is None:
        return list(toks)
    if _low(toks, i + 1) == toks[i].low:  # "zuri zuri can you…": called twice (a typed probe)
        twice = Tok(",", ",", toks[i].end, toks[i].end)
        return [*toks[: i + 1], twice, *name_set_apart(toks[i + 1 :], roster)]
    named = i + 1 + (_low(toks, i + 1) in _ENDEARMENTS)  # "Kofi mate can ya…"
    comma = Tok(",", ",", toks[named - 1].end, toks[named - 1].end)
    if _asks_you(toks, named):
        return [*toks[:named], comma, *toks[named:]]
    j = _asked_after_news(toks, i + 1, roster)
    if j is None:
        # "morning Kofi hope you slept well can you fix…", "Kofi I'm so tired
        # today. please fix…", "Kofi be a dear and fix…" (a seventh typed
        # probe: 23 of 30 such were asked who should do it; with the comma
        # typed, each was drafted): read as if the comma were typed.
        return (
            [*toks[:named], comma, *toks[named:]] if _said_to(toks, named, roster) else list(toks)
        )
    # "Kofi the dishwasher's leaking again can you sort it out": the news
    # set apart too ("Kofi, the dishwasher's leaking again, can you…").
    before = Tok(",", ",", toks[j - 1].end, toks[j - 1].end)
    return [*toks[: i + 1], comma, *toks[i + 1 : j], before, *toks[j:]]


# What news told to the agent starts with, before it is asked: "Kofi the
# dishwasher's leaking, can you…", "Zuri there's a leak could you…".
_NEWS_FIRST: Final = frozenset(
    words("the a an my our your this that these those there's it's i i've i'm we we've")
    # Dictated, the news may start so (a sixth typed probe: 21 of 25 asked
    # who should do it): "Kofi so basically the fence…", "Tariq listen…".
    + words("so basically listen look well honestly when since because we're mum's dad's")
)
# Dictated news runs on: "Abeni the boiler's been making a clunking noise
# since Monday can you…" (it was 8 words at most).
_NEWS_MAX_WORDS: Final = 24
# "…, so please sort it out": a request, after news, with no "you".
_THEN_PLEASE: Final = frozenset(words("so and but then"))


def _asked_after_news(toks: Sequence[Tok], k: int, roster: Roster) -> int | None:
    """Where "you" is asked, after a few words of news that name no one else."""
    if _low(toks, k) not in _NEWS_FIRST:
        return None
    for j in range(k + 1, min(k + _NEWS_MAX_WORDS + 1, len(toks))):
        if roster.get(toks[j].text) is not None or _low(toks, j) in (",", ".", "?", "!"):
            return None  # another name, or a break the parser reads itself
        if _asks_you(toks, j):
            return j
        if _low(toks, j) in ("please", "pls", "kindly") and _low(toks, j - 1) in _THEN_PLEASE:
            return j
    return None


def _said_to(toks: Sequence[Tok], k: int, roster: Roster) -> bool:
    """Whether the words from `k`, after a first name, are said to it: they
    do not go on about the one named ("Kofi fixed it", "Kofi never
    checks…", "Kofi and Zuri…", "Kofi can fix anything") and name no one
    else ("Kofi water the plants" is then asked of Kofi: a follow-up with
    the verb was the default agent's)."""
    k += _low(toks, k) in _ADVERBS  # "Kofi just fixed it", "Kofi just check the well"
    first = _low(toks, k)
    if not first.isalpha() and first not in _SAID_TO_FIRST:
        return False  # "Kofi's…", "Kofi, …" (read as typed), "Kofi 2…"
    told = first.endswith("s") and not first.endswith(("ss", "us", "is"))  # "needs", not "dress"
    told = len(first) > 3 and (told or (first.endswith("ed") and not first.endswith("eed")))
    told = told or past_form(first) or first in _PAST_TOO  # "Kofi ate…", "Kofi rang…"
    if first in _GOES_ON or told:
        return first in _SAID_TO_FIRST  # "Kofi needs…", "Kofi fixed…"; not "Kofi thanks…"
    # Not when another is named: "Kofi is here. Zuri, fix…" is asked about.
    return all(roster.get(t.text) is None for t in toks[k:])


# Words after a name that go on about the one named, not to them.
_GOES_ON: Final = frozenset(
    words("""and or nor too also as with is was has had will won't can can't could couldn't
    should shouldn't would wouldn't might may must did didn't does doesn't isn't wasn't
    hasn't never always usually often sometimes already still even probably definitely
    certainly apparently actually said told went got took made broke came gave saw knew
    thought left brought bought built found felt kept lost meant met paid put ran sent sold
    spent stood taught won wrote fell forgot hurt heard spoke himself herself not to from
    who who's no alone only""")
)
# Said before a first name: "by the way Kofi…", "first thing tomorrow Kofi…".
_LEAD_WORDS: Final = frozenset(
    words("""by the way first thing tomorrow today tonight this morning afternoon evening
    anyway also and oh btw ps right so ok okay""")
)
_LEAD_MAX: Final = 4
# A short first sentence of small talk, then a name: "ugh what a day. Abeni…".
_STOPS: Final = frozenset(words(". ! ?"))
_TALK_MAX: Final = 8
_PAST_TOO: Final = frozenset(
    words("ate fed rang stole hid drove tore woke cut bit hit shut swept wore wound grew flew")
)
_ADVERBS: Final = frozenset(words("just really now then quickly"))
# …but for these, said to the one named: "Kofi thanks…", "Kofi please…".
_SAID_TO_FIRST: Final = frozenset(
    words("thanks this yes pls please i'm it's i've i'd i'll don't dont there's that's")
)


# Before a name asked in the middle of what is said: "…, Zuri can you find
# out…", "…so Abeni could you look after them…" (a thirteenth typed probe:
# asked who should do it).
_MID_LEADS: Final = frozenset(words(", so and anyway now but"))


def asked_apart(toks: Sequence[Tok], roster: Roster) -> list[Tok]:
    """The tokens with a comma of no width after a first name said further
    in, after a break or "so" / "and" / "anyway", when what follows asks
    "you" for something (`_asks_you`)."""
    out = list(toks)
    for k in range(len(toks) - 2, 0, -1):  # from the end: the indices before stay put
        named = toks[k - 1].low in _MID_LEADS and roster.get(toks[k].text) is not None
        if named and _asks_you(toks, k + 1):
            out.insert(k + 1, Tok(",", ",", toks[k].end, toks[k].end))
    return out


# A message passed to a name, then a colon and the order: "Can you pass a
# message to Tariq: guard the shop tonight", "Pass this on to Kofi: the
# boiler needs servicing" (a fourteenth typed probe: asked who). Read as
# "Tariq, guard the shop tonight".
_MESSAGE_WORDS: Final = frozenset(
    words("can could you please pass send give tell a message this it on word note to for")
)


def _message_for(toks: Sequence[Tok], roster: Roster) -> list[Tok]:
    colon = next((k for k, t in enumerate(toks[:12]) if t.low == ":"), None)
    if colon is None or colon < 3 or roster.get(toks[colon - 1].text) is None:
        return list(toks)
    if toks[colon - 2].low not in ("to", "for") or not all(
        t.low in _MESSAGE_WORDS for t in toks[: colon - 1]
    ):
        return list(toks)
    if not any(t.low in ("pass", "send", "message", "give", "note") for t in toks[: colon - 1]):
        return list(toks)
    comma = Tok(",", ",", toks[colon].start, toks[colon].end)
    return [toks[colon - 1], comma, *toks[colon + 1 :]]
