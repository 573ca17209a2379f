"""Someone addressed by a name the roster does not have, where the address
rules find no one (`address.address_of`): "Bola, fix the kitchen blind",
"Hey Siri, check the oven", "Get Esi to visit Grandma", "Remind Yaw to
check the hens", "Ask Kojo, not Kofi, to fix the shelf". A tenth typed
probe (2026-12-07) found each drafted for the default agent, or, the last,
for the one name said not to do it. They are asked about ("I don't know
anyone called Bola…"), and the answer drafts the same words with the name
given. Pure.

Only typed words are read so: the recogniser writes any first word with a
capital ("Friday, …") and mishears roster names as others ("Get Yuri
to…"), so spoken ones are the evidence's to weigh (`intent.evidence`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from vac.intent import lexicon as lx
from vac.intent.address import Address, address_of, resolve_span
from vac.intent.calendar_words import MONTHS, WEEKDAYS
from vac.intent.lexicon import Tok
from vac.intent.name_last import named_no_one
from vac.intent.roster import Roster
from vac.intent.when_match import word_at

# Frames that name someone before "to" and one of our verbs ("ask" and
# "tell" name anyone before "to": `address`).
_NAMING_BEFORE_VERB: Final = frozenset(lx.words("get remind"))
_TO: Final = frozenset(lx.words("to too"))
_TITLES: Final = frozenset(lx.words("mr mrs ms miss dr prof"))  # "Dr." is "Dr" and "."
# Said right after a name, before its comma: "Chidi mate, build…".
_FONDLY: Final = frozenset(lx.words("mate love dear darling buddy pal"))
# Capitalised words that open a sentence before a comma and are no name.
_OPENERS: Final = (
    frozenset(
        lx.words(
            """honestly guys folks everyone everybody all team mate love dear darling sweetheart
            honey sweetie hun babe listen look right okay ok please sorry actually also anyway
            first next then now today tomorrow tonight quick urgent reminder note update
            request task job chores help morning evening afternoon hello hi hey thanks cheers
            yes no yeah nope sure fine great good seriously again alright so well oh ah um uh
            boys girls kids children lads ladies people friends agents helpers somebody
            someone anyone anybody computer assistant system vac meanwhile besides finally
            lastly second third later soon weekend mum mom dad daddy mummy mommy grandma
            granny grandpa grandad nana nan papa mama boss dude bro sis hon son sir madam
            dearest gents otherwise instead afterwards remember wait see however therefore
            still regardless nevermind correction yep yup nah btw gosh ugh argh oops damn
            blimey crikey jeez wow aha greetings goodnight goodbye bye breakfast lunch dinner
            homework idea suggestion question favour favor chore mission plan optional
            critical whoever nobody important priority asap emergency whenever noon midday
            midnight tip fyi ps pps attention warning"""
        )
    )
    | frozenset(WEEKDAYS)
    | frozenset(MONTHS)
)


# Whom a household hires, after "have / get / ask / tell the…": no agent of ours
# ("Have the plumber look at the boiler": a tenth typed probe, the default agent's).
_THE: Final = frozenset(lx.words("the a an our my your"))
_HIRING: Final = frozenset(lx.words("have get ask tell"))  # not "let the plumber check…"
_TRADES: Final = frozenset(
    lx.words("""plumber electrician builder builders gardener cleaner handyman mechanic vet
    decorator painter roofer locksmith carpenter joiner engineer landlord babysitter nanny
    childminder neighbour neighbor neighbours neighbors""")
)
# Family and friends after "my" / "our" (and a name): "get my cousin Dele to
# fix the tap" (an eleventh typed probe: the default agent's).
_KIN: Final = frozenset(
    lx.words("""cousin brother sister mum mom dad mother father uncle aunt auntie son daughter
    husband wife friend mate partner boyfriend girlfriend nephew niece grandson granddaughter""")
)
_MINE: Final = frozenset(lx.words("my our your his her their"))
_TOLD: Final = frozenset(lx.words("tell ask get let have remind"))
_THEM: Final = frozenset(lx.words("him her them"))
# A priority or hand said in one word ("Asap, …", "Whenever, …").
_CUE_WORDS: Final = frozenset(p[0] for p in lx.MANNER_CUES if len(p) == 1)
# Words with these endings are no names: "Honestly", "Morning", "Attention".
_NOT_A_NAME_ENDING: Final = ("ly", "ing", "tion", "ment", "ness", "ity")


def addressed(
    toks: Sequence[Tok], roster: Roster, near: tuple[str, str] | None, *, spoken: bool
) -> Address:
    """`address_of`, and a name no one has where it found none."""
    found = address_of(toks, roster, near)
    if spoken or found.unknown is not None:
        return found
    n = len(toks)
    if found.resolution is not None and not _not_instead(toks):
        # "Zuri, tell your brother to fix the tap": his deed, not Zuri's (T30: Zuri's repair)
        at = found.start
        framed = _framed(toks, at, roster) if at + 1 < n and word_at(toks, at) in _HIRING else None
        told = word_at(toks, at) in ("tell", "ask") and word_at(toks, at + 2) in _TO
        if framed is None and told and lx.phrase_at(toks, at + 3, lx.VERB_PHRASES):
            framed = _no_one(toks[at + 1], roster)  # "Zuri, tell Bob to fix the tap"
        return found if framed is None else Address(found.start, found.end, unknown=framed)
    i = 0
    while i < n and toks[i].low in lx.FILLERS | lx.PUNCT | {"and"}:
        i += 1  # "hey Siri, …", "okay, Bola, …", "And Manny, …" (a spoken probe)
    if i + 1 >= n:
        return found
    named = _framed(toks, i, roster) if toks[i].low in lx.FRAME_WORDS else None
    to = word_at(toks, i + 2) in _TO  # "tell him to fix…", "let him check…"; not "tell him to go"
    deed = lx.phrase_at(toks, i + 2 + to, lx.VERB_PHRASES) is not None
    if found.resolution is None and toks[i].low in _TOLD and toks[i + 1].low in _THEM and deed:
        named = toks[i + 1].text  # "Tell him to fix the gate": who? (T30: the default agent's)
    if named is None and found.resolution is None:
        named = _vocative(toks, i, roster)
    return found if named is None else Address(found.start, found.end, unknown=named)


def _framed(toks: Sequence[Tok], i: int, roster: Roster) -> str | None:
    """ "Get Esi to visit…", "Remind Yaw to check…", "Ask Kojo, not Kofi, to…",
    "Have the plumber look at…"."""
    who = toks[i + 1]
    kin = who.low in _MINE and word_at(toks, i + 2) in _KIN
    if kin and toks[i].low in _HIRING:  # "get my cousin (Dele) to fix…", "have my son fix…"
        after = i + 3  # after the kin, and after a name said with it
        after += word_at(toks, after) not in _TO and not lx.phrase_at(toks, after, lx.VERB_PHRASES)
        to = toks[i].low != "have" and word_at(toks, after) in _TO
        if (to or toks[i].low == "have") and lx.phrase_at(toks, after + to, lx.VERB_PHRASES):
            return " ".join(t.text for t in toks[i + 1 : after])
    hires = toks[i].low in _HIRING and who.low in _THE and word_at(toks, i + 2) in _TRADES
    if hires and (toks[i].low == "have" or word_at(toks, i + 3) in _TO):
        verb_at = i + 3 + (toks[i].low != "have")  # "have the plumber look", "get … to look"
        if lx.phrase_at(toks, verb_at, lx.VERB_PHRASES) is not None:
            return f"{who.text} {toks[i + 2].text}"  # someone the household hires, not ours
    if word_at(toks, i + 2) == "," and _not_instead(toks):
        return None if resolve_span([who], roster) is not None else _no_one(who, roster)
    if toks[i].low not in _NAMING_BEFORE_VERB or word_at(toks, i + 2) not in _TO:
        return None
    if lx.phrase_at(toks, i + 3, lx.VERB_PHRASES) is None:
        return None  # "get Dinner to the table"
    return _no_one(who, roster)


def unknown_question(unknown: str, names: Sequence[str]) -> str:
    """The question for a name no one on the roster has, or a trade ("the plumber")."""
    listed = ", ".join(names)
    first, _, rest = unknown.partition(" ")
    if first.lower() in _THE:
        if first.lower() == "my":  # "my cousin": yours, to vac ("our neighbour" is ours)
            unknown = f"your {rest}"
        return (
            f"I only pass orders to the household's agents, not {unknown}. "
            f"Who should do it: {listed}?"
        )
    if unknown.lower() in _THEM:
        return f'Who is "{unknown}"? Who should do it: {listed}?'
    return f"I don't know anyone called {unknown}. Who should do it: {listed}?"


def _not_instead(toks: Sequence[Tok]) -> bool:
    """ "<frame> X, not Y, to …": X is the one asked."""
    lows = [t.low for t in toks[:8]]
    for i in range(len(lows) - 5):
        if (
            lows[i] in lx.NAMING_FRAMES
            and lows[i + 2 : i + 4] == [",", "not"]
            and lows[i + 5 : i + 6] == [","]
        ):
            return True
    return False


def _vocative(toks: Sequence[Tok], i: int, roster: Roster) -> str | None:
    """ "Bola, fix the kitchen blind", "Chidi mate, build…": a capitalised
    word no one on the roster has, before a comma and the order; "Mrs
    Owusu, could you…", someone called by a title and a name (a twelfth
    typed probe: the default agent's)."""
    titled = toks[i].low in _TITLES and i + 1 < len(toks) and toks[i + 1].text[:1].isupper()
    if titled and word_at(toks, i + 2) == "," and roster.get(toks[i + 1].text) is None:
        k = i + 3
        while k < len(toks) and toks[k].low in lx.ASKING_WORDS:
            k += 1
        found = lx.phrase_at(toks, k, lx.VERB_PHRASES) is not None
        return f"{toks[i].text} {toks[i + 1].text}" if found else None
    k = i + 1 + (word_at(toks, i + 1) in _FONDLY)
    if word_at(toks, k) != ",":
        return None
    k += 1
    while k < len(toks) and toks[k].low in lx.ASKING_WORDS:
        k += 1  # "Bola, could you fix…"
    if lx.phrase_at(toks, k, lx.VERB_PHRASES) is None:
        return None
    return _no_one(toks[i], roster)


def _no_one(tok: Tok, roster: Roster) -> str | None:
    if tok.low in _OPENERS or tok.low.endswith(_NOT_A_NAME_ENDING) or tok.low in _CUE_WORDS:
        return None  # "Honestly, fix…", "Morning, …", "Urgent, …" (a review: each was asked)
    return named_no_one(tok, [tok], roster)


__all__ = ["addressed", "unknown_question"]
