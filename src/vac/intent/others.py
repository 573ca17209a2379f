"""Whom to ask about when the words before the order name someone who is
not its agent: a roster name said but not as the address ("Kofi. No, Zuri.
Fix the gate."), or news of what someone outside the roster will do ("The
builders are going to fix the roof on Monday", "Our landlord promised to
fix the boiler by Friday", "Grandma wants to visit the market", "Nobody
needs to check the smoke alarm"). Before, the news was drafted for the
default agent ("Abeni will repair the roof"). The answer (any agent) takes
the place of the words before the verb (`runtime.choices`).

Only a plan or a promise makes it news: a determiner or a capitalised
name and up to two more words, then "will", "is going to", "wants to",
"promised to"…; not a need or a wish for help ("Grandma needs help with
the shopping", "the hens need checking"), which asks for the deed, and not
someone, anyone or the team, who may be the agents. A misheard name
whose deed is told, not asked ("coffee could not fix the gate"), is asked
about too. Pure: tokens in.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Final

from vac.intent import lexicon as lx
from vac.intent.address import resolve_span
from vac.intent.lexicon import Tok, words
from vac.intent.orders import named_before
from vac.intent.roster import STOPWORDS, Roster
from vac.intent.told import name_then
from vac.intent.when import When, resolve
from vac.intent.when_match import past_form

# A plan or a promise between the one named and the verb.
_PLANS: Final = frozenset(words("will 'll going gonna promised promises plan plans planning"))
_PLANS_TO: Final = frozenset(
    words("want wants offered offers agreed decided intend intends hope hopes")
    # A visit and a past habit are news too: "the plumber is coming (round)
    # to fix the boiler", "the council are sending someone to repair the
    # road", "my dad used to build boats" (a probe: each the default agent's).
    + words("coming sending used")
)
# Said between "coming" or "sending" and its "to": where and whom.
_VISIT_WORDS: Final = frozenset(words("round over someone somebody"))
_BETWEEN: Final = (
    _PLANS | _PLANS_TO | _VISIT_WORDS | frozenset(words("to is are was were be also probably"))
)
_NO_ONE: Final = frozenset({"nobody", "noone", "no one"})
_SUBJECT_OPENERS: Final = frozenset(
    words("the our my his her their your some those these a an")  # "a man is coming to…"
)
_ANYONE: Final = frozenset(
    words("someone somebody anyone anybody everyone everybody team all you guys crew agents")
)
_SUBJECT_WORDS_MAX: Final = 3
_FAMILY: Final = frozenset(
    words("grandma grandpa granny gran nan nana mum mom mummy mommy dad daddy auntie uncle")
)


def who_else(
    clause: Sequence[Tok], verb_at: int, roster: Roster
) -> tuple[str, tuple[str, ...]] | None:
    """The question and its candidates, or None when nothing before the
    verb names another."""
    if named := named_before(clause, verb_at, roster) or _told_of(clause, verb_at, roster):
        question = "Who should do it: " + ", ".join(named) + " or someone else?"
        return question, (*named, *(n for n in roster.names() if n not in named))
    subject = _news_of(clause, verb_at, roster)
    if subject is None:
        return None
    if subject == "no one":
        question = "That sounds like no one needs to do it. Who should, if anyone?"
    else:
        question = f"That sounds like news about {subject}, not a request. Who should do it?"
    return question, tuple(roster.names())


def _news_first(clause: Sequence[Tok], verb_at: int, roster: Roster) -> int | None:
    """Where the news ends when the words before the verb, after the
    agent's name, are news of someone else ("Kofi, the vet will check the
    goats on Tuesday, so stay in": the vet's deed, not Kofi's; a probe
    drafted it for Kofi): the next break after the verb, else None."""
    planned = any(t.low in _PLANS | _PLANS_TO for t in clause[:verb_at])
    if not planned or _news_of(clause, verb_at, roster) in (None, "no one"):
        return None  # "Kofi, the kids, protect them tonight": Kofi's
    k = verb_at + 1
    while k < len(clause) and clause[k].low not in lx.PUNCT and clause[k].low not in _NEXT:
        k += 1
    if any(t.low in ("you", "your") for t in clause[verb_at:k]):
        return None  # "Kofi, the kids will help you build the pen": Kofi's (a review)
    return k


def after_news(clause: Sequence[Tok], roster: Roster) -> list[Tok]:
    """The order's words when news of someone else comes first ("Kofi, the
    vet will check the goats on Tuesday, so fix the gate today"): its time,
    haste and repeat are the order's, not the news's (a review: due
    Tuesday); the clause as it was otherwise."""
    hit = lx.find_first(clause, lx.VERB_PHRASES)
    end = None if hit is None else _news_first(clause, hit[0], roster)
    if end is None:
        return list(clause)
    while end < len(clause) and (clause[end].low in lx.PUNCT or clause[end].low in _NEXT):
        end += 1
    return list(clause[end:])


_NEXT: Final = frozenset(words("so and but then"))
# After "so", the ask: "…, so can you…", "…, so please…", "so I need you to…".
_ASKS: Final = frozenset(words("can could would will please pls kindly i i'd you"))


def news_then_asked(clause: Sequence[Tok], verb_at: int) -> frozenset[int]:
    """The words of news told before "so" and the ask ("Tunde has his test on
    Friday and he's nervous, so can you help him practise tonight"): their
    time is the news's, not the order's (a typed probe: due Friday)."""
    for k in range(verb_at - 1, 0, -1):
        if clause[k].low == "so" and clause[k - 1].low in (",", ".", "and"):
            between = [t.low for t in clause[k + 1 : verb_at]]
            if between and len(between) <= 5 and between[0] in _ASKS:
                return frozenset(range(k))
            return frozenset()
        if clause[k].low == "but" and clause[k - 1].low in (",", "."):
            # "the gate can wait till Monday, but look at the boiler today" (a probe: Monday)
            asked = {t.low for t in clause[k + 1 : verb_at]}
            return frozenset(range(k)) if asked <= _ASKS | {"just", "first"} else frozenset()
        if clause[k].low in (",", ".") and _asked_after_news(clause, k, verb_at):
            return frozenset(range(k))
    return frozenset()


# A state told in the news: "it's keeping me awake at night, could you…".
_NEWS_STATES: Final = frozenset(words("is are was were 's 're has have had keeps kept"))


def past_news(
    clause: Sequence[Tok], told: frozenset[int], now: dt.datetime, skip: frozenset[int]
) -> frozenset[int]:
    """The news's words when it tells of the past or of a habit ("the washing
    line snapped this morning, …", "the monitor keeps cutting out at night,
    …"): its time is no deadline even when the order says none (a tenth
    typed probe: due "this morning", "tonight"). News of what is to come
    ("Tunde has his test on Friday, so…") keeps its time for the order, and
    so does any news the order points back to ("…, repair the banister before
    then", "…the twins that day": a review of this rule)."""
    said = [clause[k].low for k in sorted(told)]
    after = [t.low for k, t in enumerate(clause) if k not in told]
    if any(
        (w == "then" and k and after[k - 1] in _BY)
        or (w == "that" and k + 1 < len(after) and after[k + 1] in _A_DAY)
        for k, w in enumerate(after)
    ):
        return frozenset()  # "…, repair the banister before then", "…the twins that day"
    past = any(
        (past_form(w) and w not in _BE and (k == 0 or said[k - 1] not in _SO)) or w in _HABIT
        for k, w in enumerate(said)
    )
    if not past:
        return frozenset()
    # Only a time of the news's own day or before: "the inspection got moved to
    # Friday, Kofi, fix the fence" is due Friday (a review).
    its = resolve(clause, now, skip=skip | (frozenset(range(len(clause))) - told))
    gone = isinstance(its, When) and dt.date.fromisoformat(its.iso_date) <= now.date()
    return told if gone else frozenset()


_BY: Final = frozenset(words("before by until till for"))
_A_DAY: Final = frozenset(words("day night morning afternoon evening weekend"))


# Before a past form, these make it a state: "I'm so tired today".
_SO: Final = frozenset(words("so very really too i'm am is are be been feel feeling"))


_HABIT: Final = frozenset(words("keeps kept always"))
# "I was wondering if tomorrow Kofi could…", "we've got people coming Saturday".
_BE: Final = frozenset(words("was were got gotten"))
# News does not start so: "after you've fixed the gate, check the hens" is when.
_WHEN: Final = frozenset(words("after when once before if until till while whenever unless as"))


def _asked_after_news(clause: Sequence[Tok], k: int, verb_at: int) -> bool:
    """News, a break at `k`, then the ask ("the tap… is keeping me awake at
    night, could you possibly fix it tomorrow?": an eighth typed probe, due
    tonight). Only news with a state of its own, so that "Kofi, on Friday,
    can you fix…" keeps its day."""
    between = [t.low for t in clause[k + 1 : verb_at] if t.low != ","]
    if len(between) > 5 or (between and between[0] not in _ASKS - {"i", "i'd"}):
        return False  # none between: the agent's name was there ("…this month, Tariq, keep…")
    if clause[0].low in _WHEN:
        return False
    return any(
        t.low in _NEWS_STATES or t.low.endswith("'s") or past_form(t.low) for t in clause[:k]
    )


def _told_of(clause: Sequence[Tok], verb_at: int, roster: Roster) -> list[str]:
    """A name however heard, first, whose deed the words before the verb
    deny or report ("coffee could not fix the gate"): asked about, as a
    name spelled right is (the default agent would be a wrong guess)."""
    if not name_then(clause, 0, verb_at)[1]:
        return []
    if not clause or clause[0].low in lx.DETERMINERS:
        return []  # "the coffee was cold so check the kettle"
    first = clause[0]
    if first.low.endswith("'s"):  # "Kofi's gonna fix it anyway"
        first = Tok(first.text[:-2], first.low[:-2], first.start, first.end - 2)
    found = (resolve_span([first, *clause[1:k]], roster) for k in (1, 2) if k < verb_at)
    return next(([r.agent] for r in found if r is not None), [])


def _news_of(clause: Sequence[Tok], verb_at: int, roster: Roster) -> str | None:
    said = [t for t in clause[:verb_at] if t.low not in lx.PUNCT]
    k = len(said)
    while k > 0 and said[k - 1].low in _BETWEEN | {"need", "needs", "has", "have", "should"}:
        if k == 1 and said[0].low in _VISIT_WORDS:
            break  # "someone is coming to…": who, not where
        k -= 1
    subject, between = said[:k], [t.low for t in said[k:]]
    if (cut := _reported_at([t.low for t in said])) is not None:
        subject, between = said[:cut], ["will"]  # "the landlord said he'd…": their plan
    lows = [t.low for t in subject]
    if " ".join(lows) in _NO_ONE and between:
        return "no one"
    to_said = [w for w in between if w not in _VISIT_WORDS]
    planned = any(w in _PLANS for w in between) or any(
        w in _PLANS_TO and to_said[n + 1 : n + 2] == ["to"] for n, w in enumerate(to_said)
    )
    # What others do as a habit: "The kids help with the harvest", "the
    # builders fix the roof" (the default agent's draft before).
    planned = planned or (not between and _plural_people(lows))
    # Whose duty it is: "the landlord should fix the boiler", "the council
    # should repair the road" (a twelfth typed probe: the default agent's).
    planned = planned or between == ["should"]
    if not planned or not 1 <= len(subject) <= _SUBJECT_WORDS_MAX or "be" in between:
        return None  # "Your job will be to fix the gate": a request
    if between[-2:] in (["is", "to"], ["was", "to"]) or between[-1:] in (["need"], ["needs"]):
        return None  # "The best plan is to fix…"; "Grandma will need help…": asked for
    if lows in (["someone"], ["somebody"]) and "coming" in between:
        return lows[0]  # "someone is coming to fix the boiler": a visitor, not an agent
    if any(
        w in _ANYONE
        or w in lx.FILLERS
        or not w.removesuffix("'s").isalpha()  # "the neighbour's boy"
        for w in lows[-1:] + lows[1:]
    ):
        return None
    # "Zuri's mum will fix the gate": Zuri's, not Zuri (a twelfth typed probe).
    owner = len(subject) > 1 and lows[0].endswith("'s") and subject[0].text[:1].isupper()
    owner = owner and lows[1] not in _NOT_OWNED and not lows[1].endswith(("ly", "ing"))
    if resolve_span(subject, roster) is not None or any(
        resolve_span([t], roster) is not None for t in subject[owner:]
    ):
        return None
    opener = (lows[0] in _SUBJECT_OPENERS or owner) and len(subject) > 1
    named = all(t.text[:1].isupper() and t.low not in STOPWORDS for t in subject) or (
        len(lows) == 1 and lows[0] in _FAMILY  # as the recogniser writes it: "grandma wants to…"
    )
    text = " ".join(t.text for t in subject)
    lowered = opener and not owner  # "the landlord", but "Zuri's mum"
    return (lows[0] + text[len(lows[0]) :] if lowered else text) if opener or named else None


# Said or done by someone else: "the landlord said he'd repair the roof", "Mum
# said she would visit Grandma", "the kids helped us build the shed" (a typed
# probe: each was the default agent's draft). Not "…said to fix the roof".
_SAID: Final = frozenset(words("said says promised reckons thinks told"))
_WOULD: Final = frozenset(words("he'd she'd they'd he'll she'll they'll"))
_WILL: Final = (["would"], ["will"], ["'d"], ["'ll"])


def _reported_at(lows: Sequence[str]) -> int | None:
    """Where a report of someone's words or help starts, after its subject."""
    for n, w in enumerate(lows[1:], 1):
        after = lows[n + 1 : n + 3] if w != "told" else lows[n + 2 : n + 4]  # "told me he'd"
        first = after[0] if after else ""
        if w in _SAID and (
            first in _WOULD or (first in ("he", "she", "they") and after[1:] in _WILL)
        ):
            return n
        if w == "helped" and len(lows) > n + 1:
            return n  # "…helped us build", "Dad helped Tunde build a kite"
        if w in ("asked", "told") and lows[n + 1 : n + 3] in _ASKED_SOMEONE:
            return n  # "Imani's neighbour asked her to visit…" (a probe: the default agent's)
    return None


# After "Kofi's" as "Kofi is / has": "Kofi's definitely going to…" (a review).
_NOT_OWNED: Final = frozenset(words("going gonna got been not never just still also already"))
_ASKED_SOMEONE: Final = [[w, "to"] for w in ("her", "him", "them")]
_PLURALS: Final = frozenset(words("children people men women folk"))


def _plural_people(lows: Sequence[str]) -> bool:
    """ "the kids", "our neighbours", "the children": several others, said
    with their determiner (not "the gate's", "this")."""
    if len(lows) < 2 or lows[0] not in _SUBJECT_OPENERS:
        return False
    last = lows[-1]
    return last in _PLURALS or (last.endswith("s") and not last.endswith(("ss", "'s", "us")))
