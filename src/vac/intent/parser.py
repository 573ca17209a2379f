"""Words → a draft objective (or a clarifying question), as a cascade.

    confidence floor → addressing frame and agent (`address`) → verb → deadline →
    target → target kind → constraints → priority → autonomy → forbidden lines

Each stage is a small extractor over lower-cased word tokens (`lexicon`).
Anything the cascade cannot stand behind (low confidence, no verb, no target,
an unknown name, a deadline it cannot place) becomes a `Clarify` with a
question, never a guessed objective. A `Draft` is always `status: draft`,
unconfirmed and unaccepted: only the steward gate confirms it. Time is the
caller's `now`; deadline phrases are `when`'s.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from typing import Final, Literal, NamedTuple

import msgspec

from vac.intent import bans, orders, see_to
from vac.intent import lexicon as lx
from vac.intent import target_words as tw
from vac.intent.ability import able_asked
from vac.intent.address import resolve_span
from vac.intent.aside import without_asides
from vac.intent.attempts import attempts_joined
from vac.intent.conditions import as_said, condition_at, within
from vac.intent.correction import made_how, names_taken_back
from vac.intent.done_said import done_asked
from vac.intent.forbidden import forbidden_lines
from vac.intent.group import several_named
from vac.intent.handover import doubted, handed_over, readdress
from vac.intent.instead import thing_instead
from vac.intent.lexicon import Tok, words
from vac.intent.manner import (
    EVERY_SO_OFTEN,
    autonomy_of,
    boundary_like_autonomy,
    how_often,
    priority_of,
    standing_in_order,
)
from vac.intent.naming import addressed, unknown_question
from vac.intent.negotiation import asked_harm
from vac.intent.others import after_news, news_then_asked, past_news, who_else
from vac.intent.particles import particles_joined
from vac.intent.place import NOT_PLACES, location_of, place_is_thing, place_said, truncate
from vac.intent.relay import relayed
from vac.intent.roster import Roster
from vac.intent.second_thing import another_thing
from vac.intent.sign_offs import remark_at, without_sign_off
from vac.intent.spoken import VERB_SPOKEN, Wording, summarise, wording_of
from vac.intent.unsaid import order_said, unsaid_verbs
from vac.intent.verb_instead import verb_instead
from vac.intent.verb_meant import verb_said
from vac.intent.vocative import asked_apart, name_set_apart
from vac.intent.when import Unresolved, When, resolve
from vac.intent.when_instead import then_unsaid, time_instead
from vac.intent.when_match import past_form, word_at
from vac.intent.when_said import repeats_at
from vac.protocol.objective import (
    Constraint,
    Objective,
    Target,
    TargetKind,
    UncertainField,
)

MIN_CONFIDENCE: Final = 0.7
MAX_SOURCE_CHARS: Final = 2000
_LABEL_MAX: Final = 120
_PARTICLES: Final = frozenset({"with", "on", "about", "out"})
_CORRECTIONS_MAX: Final = 3
# "Some time, not now", said after the target: no part of it, no deadline.
_NOT_NOW: Final = frozenset(words("later sometime eventually someday")) | EVERY_SO_OFTEN
_REST_MAX: Final = 60  # how much of a second order the summary quotes

ClarifyReason = Literal[
    "empty",
    "low-confidence",
    "too-long",
    "unknown-agent",
    "no-verb",
    "no-target",
    "uncertain-agent",
    "unclear-deadline",
    "question",
    "first-person",
]
AgentSource = Literal["exact", "fuzzy", "phonetic", "rescored", "current", "default"]


class Draft(msgspec.Struct, frozen=True, tag="draft", tag_field="type"):
    """A parsed objective awaiting the steward, with what was resolved.

    `heard_as` is the words the agent name was grounded from (None when no
    agent was named); `agent_source` says how the agent was chosen."""

    objective: Objective
    summary: str
    resolved_agent: str
    heard_as: str | None
    agent_source: AgentSource
    grounding_score: float | None = None
    # Fields the recogniser's evidence did not stand behind (`intent.evidence`):
    # the summary says so and the steward confirms or edits them.
    uncertain: tuple[UncertainField, ...] = ()
    wording: Wording | None = None  # the steward's words the summary kept


class Clarify(msgspec.Struct, frozen=True, tag="clarify", tag_field="type"):
    """The parser will not guess: `question` is spoken back to the steward."""

    reason: ClarifyReason
    question: str
    source_text: str
    confidence: float
    candidates: tuple[str, ...] = ()  # the choices the question names
    heard_as: str | None = None  # the words the choice would replace in `source_text`
    fill_at: int | None = None  # where in `source_text` an answer goes ("What should Kofi repair?")


ParseResult = Draft | Clarify


class _Target(NamedTuple):
    target: Target
    phrase: str  # as spoken, with its article: "the garden gate"
    end: int


def _kind(core: Sequence[Tok]) -> TargetKind:
    low = [t.low for t in core]
    for word in [low[-1], *reversed(low[:-1])]:  # the head noun first
        for form in (word, word[:-1] if word.endswith("s") else word):
            kind = lx.kind_of(form)
            if kind is not None:
                return kind
    return "custom"


# A priority or autonomy phrase of several words ends a target too ("the radiator |
# when you're free"); one word may be the thing's ("the urgent repair", "the papers").
_MANNER_STOPS: Final = tuple(p for p in lx.MANNER_CUES if len(p) > 1)
# Said before the deadline, part of it: "first thing | Monday", "any day | this week".
_SAID_WITH_ITS_DAY: Final = (["first", "thing"], ["last", "thing"], ["any", "day"])


def _target(
    source: str, clause: Sequence[Tok], start: int, roster: Roster, stop: int
) -> _Target | None:
    """The words from `start` to the first modifier, or to `stop` (where a
    deadline phrase starts: "build a bench | Friday")."""
    start = tw.thing_starts(clause, start, stop)  # "fix please the light"
    if start + 1 < min(len(clause), stop) and clause[start].low == ".":
        # "Ask Kofi to fix. The gate.": a pause after the verb, then its thing
        # (not a sentence of its own: "fix. The gate is broken.")
        start += clause[start + 1].low in lx.DETERMINERS and tw.said_alone(clause, start + 1)
    j = start
    while j < min(len(clause), stop) and (
        (clause[j].low not in lx.PUNCT or tw.colon_in_a_time(clause, j))
        and not lx.ISO_DATE_RE.match(clause[j].low)
        and not tw.stops(clause, j)
        and (j == start or lx.phrase_at(clause, j, _MANNER_STOPS) is None)
        and (j == start or not tw.next_order(clause, j, roster))
        and not remark_at(clause, start, j)  # "the dog | that'd be great"
    ):
        j += 1
    words = clause[start:j]
    while words and words[0].low in _PARTICLES:  # "help with the harvest"
        words = words[1:]
    words = tw.without_after(without_sign_off(words), _NOT_NOW)  # "…later", "…thx"
    # "…back on" ending its part; not "the seat back", "when you're back on Thursday"
    back_on = word_at(clause, j) in ("on", "together", "up", "onto", "in")
    back_on = back_on and word_at(clause, j + 1) in ("", *lx.PUNCT)
    if len(words) > 1 and words[-1].low == "back" and back_on:
        words = words[:-1]  # "glue the chair leg back on", "put the shelf back up"
    words = tw.without_recipient(words)  # "build me a bench", "make the kids a treehouse"
    said_with_day = [t.low for t in words[-2:]] in _SAID_WITH_ITS_DAY
    if said_with_day and j < len(clause) and words[-3:][0].low not in lx.DETERMINERS:
        words = words[:-2]  # "the gutters first thing | Monday", "…| every morning"
    words = tw.trimmed_end(source, words, clause[j].low if j < len(clause) else "")
    words = tw.without_state(words)  # "make sure the chickens are safe": the chickens
    k = 0
    while k < len(words) and words[k].low in lx.DETERMINERS:
        k += 1
    core = words[k:]
    if tw.names_nothing(core):  # "check it out", "glue it back", "it when you're next passing"
        return None
    phrase = truncate(tw.as_said(source, words), _LABEL_MAX)  # "the, uh, the gate": "the gate"
    label = truncate(source[core[0].start : core[-1].end], _LABEL_MAX)
    agent = resolve_span(core, roster) if len(core) <= 2 else None
    if agent is not None and agent.method in ("exact", "fuzzy"):
        # Only a close spelling makes a target an agent: "make coffee" is not Kofi.
        return _Target(
            Target(f"agent:{tw.slug(agent.agent)}", "agent", agent.agent), agent.agent, j
        )
    kind = _kind(core)
    label = label.lower() if source.isupper() else label  # "KOFI, FIX THE GATE": "Gate"
    label = label[:1].upper() + label[1:]
    return _Target(Target(f"{kind}:{tw.slug(label)}", kind, label[:_LABEL_MAX]), phrase, j)


def _heard_target(
    source: str, clause: Sequence[Tok], start: int, roster: Roster, stop: int
) -> _Target | None:
    """The target past what the recogniser put before it, when none was found
    where it should start. Only three shapes, each ending in an article, so a
    place or a time said on purpose ("report in the morning", "build near the
    well", "help, thanks") still gets the question:
    - a pause written as a comma: "help, the fisherman";
    - an article heard as "on": "repair on a bridge";
    - a noun heard as a place word: "check on the behind …" (beehives).
    """
    prep = None
    if word_at(clause, start) in lx.DETERMINERS:
        prep = lx.phrase_at(clause, start + 1, lx.LOCATION_PREPS)
    if word_at(clause, start) in (",", "on") and word_at(clause, start + 1) in lx.DETERMINERS:
        at = start + 1
    elif prep is not None:
        at = start + 1 + len(prep)
    else:
        return None
    target = _target(source, clause, at, roster, stop)
    if target is None or target.target.label.split()[-1].lower() in NOT_PLACES:
        return None  # "repair on the morning": a time, not a thing
    return target


def _first_cue(clause: Sequence[Tok], table: Mapping[str, str], skip: frozenset[int]) -> str | None:
    hit = lx.find_first(clause, lx.phrases(table), skip=skip)
    return None if hit is None else table[" ".join(hit[1])]


_ASKED: Final = "That sounds like a question, and I only pass on requests. What should be done?"


def _clarify(reason: ClarifyReason, question: str, source: str, confidence: float) -> Clarify:
    return Clarify(reason, question, source[:MAX_SOURCE_CHARS], confidence)


def parse(
    text: str,
    *,
    confidence: float,
    now: dt.datetime,
    roster: Roster,
    current_agent: str | None,
    objective_id: str,
    min_confidence: float = MIN_CONFIDENCE,
    near: tuple[str, str] | None = None,
    spoken: bool = False,
) -> Draft | Clarify:
    """Parse one final transcript (or typed text) into a draft or a question.

    `now` must be timezone-aware: relative deadlines resolve in its zone.
    `current_agent` is whom the session last addressed; with no agent named
    the draft goes there (else to the roster's first), and the summary says so.
    `min_confidence` is the utterance confidence below which nothing is
    guessed; a transcript with per-word evidence passes a lower floor and is
    weighed slot by slot afterwards (`intent.evidence.weigh`).
    `near` is (the words the recogniser heard in the name slot, the roster
    name it ranked first there), and `spoken` says the words were heard, not
    typed (`intent.understand`); `near` is ignored for typed text.
    """
    if now.utcoffset() is None:
        raise ValueError("now must be timezone-aware")
    confidence = min(max(float(confidence), 0.0), 1.0)
    source = " ".join(text.split())
    toks = lx.tokenize(source)
    if not any(t.low not in lx.PUNCT for t in toks):
        return _clarify(
            "empty", "I didn't catch anything. What would you like done?", "", confidence
        )
    if confidence < min_confidence:
        heard = truncate(source, 80)
        return _clarify(
            "low-confidence",
            f'I may have misheard: "{heard}". Could you say that again?',
            source,
            confidence,
        )
    if len(source) > MAX_SOURCE_CHARS:
        return _clarify(
            "too-long", "That was a lot at once. What is the one thing to do?", source, confidence
        )

    if lx.asks_in(toks) or able_asked(toks) or done_asked(toks):  # "can Kofi fix cars?"
        return _clarify("question", _ASKED, source, confidence)
    toks = without_asides(toks, roster)  # "Kofi, Zuri is off today, so fix…"
    toks = relayed(toks, roster)  # "ask Kofi if he can fix…": "ask Kofi to fix…"
    toks = asked_apart(name_set_apart(names_taken_back(toks, roster), roster), roster)  # "Kofi…"
    toks, handed = handed_over(toks, roster)  # "…. No, Kofi, you do it": Kofi's order
    if doubt := doubted(handed, source):  # "Kofi, fix it. Tariq, you do it": which?
        return Clarify("uncertain-agent", doubt[0], doubt[1], confidence, doubt[2], doubt[2][0])
    unsaid = unsaid_verbs(toks, roster, source)  # "don't ask Kofi to fix…", "…, never mind"
    toks = order_said(toks, unsaid, roster, source)  # "…, ask Zuri to fix it"
    several = several_named(source, toks, roster)  # "Kofi and Zuri, …", "both of you, …"
    ends_at = -1 if several is None else source.find(several[1]) + len(several[1])
    after = next((k for k, t in enumerate(toks) if t.start >= ends_at), len(toks))
    if several is not None and " and " in several[1] and past_form(word_at(toks, after)):
        several = None  # "Kofi and Zuri fixed the gate yesterday": news, not whom to ask
    if several is not None:  # "ask Kofi, Zuri and Imani to…": one agent per objective
        names, span = several
        listed = ", ".join(names[:-1]) + " or " + names[-1]
        question = f"One agent at a time, please: should {listed} do it?"
        return Clarify("uncertain-agent", question, source, confidence, names, span)
    address = readdress(addressed(toks, roster, near if spoken else None, spoken=spoken), handed)
    if (unknown := address.unknown) is not None:  # the answer ("Zuri") drafts these words
        names = tuple(roster.names())  # with that name (runtime.choices)
        question = unknown_question(unknown, names)
        return Clarify("unknown-agent", question, source, confidence, names, unknown)
    clause = verb_instead(attempts_joined(particles_joined(address.clause(toks))))  # "sort it out"
    if address.resolution is not None:
        clause = after_news(clause, roster)  # "Kofi, the vet will check…, so fix the gate"
    if address.resolution is not None and lx.asks_in(clause, plainly="?" not in source):
        return _clarify("question", _ASKED, source, confidence)  # "Zuri, did you fix the gate?"
    spans = bans.forbidden_spans(clause, keep=boundary_like_autonomy(clause), things=not spoken)
    skip = bans.span_indices(spans)
    autonomy = autonomy_of(clause, skip)  # "check with me first" holds no verb
    nouns = orders.noun_words(clause, roster) | orders.needless(clause)  # no verb there
    nouns |= made_how(clause, roster.names())  # "make it urgent": no thing to build
    unasked = {j for j, t in enumerate(clause) if t.start in unsaid and t.low != ","}
    nouns |= unasked
    hit = lx.find_first(clause, lx.VERB_PHRASES, skip=skip | autonomy.indices | nouns)
    hit = hit and verb_said(clause, hit, skip | autonomy.indices | nouns, roster)
    if hit is None:
        question, deed = orders.no_verb_question(source, clause, address, roster)
        if unasked:  # an order said not to be given, and no other: the
            # answer is a command of its own, never put into these words
            question, deed = "Okay, I won't pass that on. What should be done?", None
        return Clarify("no-verb", question, source, confidence, heard_as=deed)
    verb = see_to.verb_meant(hit, clause)  # "attend to the dripping tap": a repair
    autonomy = standing_in_order(clause, autonomy, hit[0])  # not "I go every Monday. Fix…"
    # "I'll fix the gate"; not "I'd like Kofi to…", whose clause is cut around the name.
    agent_named = address.resolution is not None
    relay_later = orders.asking_later(toks, address.cut)  # "I'll ask Kofi to fix it later"
    if relay_later or orders.said_as_mine(clause, hit[0], toks, address):
        question = "That sounds like something you will do yourself. Who should do it?"
        mine = source[clause[0].start : clause[hit[0]].start].strip(" ,") if hit[0] else ""
        # An agent's name answers it, in place of the speaker's words ("I'll", "I'll ask Kofi to").
        names = tuple(roster.names()) if mine and (relay_later or not agent_named) else ()
        said = mine if names else None
        return Clarify("first-person", question, source, confidence, names, heard_as=said)

    note: str | None = None
    if address.resolution is not None:
        res = address.resolution
        agent, heard_as, score = res.agent, res.heard_as, res.score
        source_kind: AgentSource = res.method
        if res.method != "exact":
            note = f'heard "{res.heard_as}" as {res.agent}'
        if address.pronoun is not None:  # "when Kofi gets home, tell him…"
            note = f'"{address.pronoun}" taken to mean {res.agent}'
        if address.others is not None:  # one agent per objective
            note = f"{res.agent} alone, not {address.others}" + (f"; {note}" if note else "")
    elif (other := who_else(clause, hit[0], roster)) is not None:
        # A name said before the order but not as its address ("Kofi. No,
        # Zuri. Fix the gate.", "Kofi is here. Zuri, fix…"), or news ("The
        # builders will fix the roof"): ask, never default. The answer (any
        # agent) takes the place of the words before the verb.
        question, anyone = other
        at, said = clause[0].start, source[clause[0].start : clause[hit[0]].start].rstrip()
        return Clarify("uncertain-agent", question, source, confidence, anyone, said, at)
    else:
        current = roster.get(current_agent) if current_agent else None
        chosen = current or roster.first
        agent, heard_as, score = chosen.name, None, None
        source_kind = "current" if current else "default"
        note = f"no agent named — sending to {agent}"

    verb_end = (
        hit[0] + len(hit[1]) - (hit[1][0] in ("mind", "lock") and hit[1][-1] != "up")
    )  # "mind the" kids
    # Boundaries, the verb ("report on"), autonomy ("ask me before") and a
    # condition's own time ("if we're not back by ten") are not deadline cues.
    cond_at = condition_at(toks, clause[hit[0]].start)  # "if it rains, have Zuri…"
    not_when = skip | autonomy.indices | set(range(hit[0], verb_end)) | within(clause, cond_at)
    told = news_then_asked(clause, hit[0])  # "…test is on Friday, so can you…tonight": tonight
    when = (resolve(clause, now, skip=not_when | told) if told else None) or resolve(
        clause, now, skip=not_when | past_news(clause, told, now, not_when)
    )
    when = when or then_unsaid(clause, not_when)  # "…before then", no time said: asked
    if isinstance(when, When):  # "…on Monday, sorry, Tuesday"
        when = time_instead(clause, when, now, skip | autonomy.indices)
    stop = when.start if when is not None and when.start >= verb_end else len(clause)
    # A boundary said without a comma ends the thing: "map the woods stay away from the road"
    # (not "the kids who stay away from school").
    starts = [sp.start for sp in spans if sp.start > verb_end]  # a condition's words too
    starts += [k for k in within(clause, cond_at) if k > verb_end]
    stop = min([stop, *(k for k in starts if clause[k - 1].low not in ("who", "which", "that"))])
    target = _target(source, clause, verb_end, roster, stop)
    if target is None and (place := place_is_thing(clause, verb_end, verb)) is not None:
        target = _target(source, clause, place, roster, stop)  # "help out at the fair"
        if target is not None and not place_said(word_at(clause, verb_end), verb, target.target):
            target = None  # "help in the end": a time, not a place
    if target is None and spoken:
        target = _heard_target(source, clause, verb_end, roster, stop)
    for _ in range(_CORRECTIONS_MAX):  # "fix the fence, no wait, the gate": the last one
        again = None if target is None else thing_instead(clause, target.end, stop)
        instead = None if again is None else _target(source, clause, again, roster, stop)
        if instead is None:
            break
        target = instead
    if target is not None and verb == "Protect":  # "watch out for the kids", "… for foxes"
        label = tw.guarded(hit[1], target.target.label)
        if label != target.target.label:
            threat = label.startswith("Against ")
            kind = "custom" if threat else target.target.kind
            plain = re.sub(r"^(out for|for) ", "", target.phrase, flags=re.IGNORECASE)
            said = label[:1].lower() + label[1:] if threat else plain
            guard = Target(f"{kind}:{tw.slug(label)}", kind, label[:_LABEL_MAX])
            target = _Target(guard, said, target.end)
    if target is None:  # the answer ("the gate") goes after the verb (runtime.choices)
        question, at = f"What should {agent} {VERB_SPOKEN[verb]}?", clause[verb_end - 1].end
        return Clarify("no-target", question, source, confidence, fill_at=at)
    if isinstance(when, Unresolved):  # a deadline was said: ask, never drop it
        said = source[clause[when.start].start : clause[when.end - 1].end]
        question = f'When should it be done? I didn\'t understand "{said}".'
        at = clause[when.start].start  # the answer ("by Saturday") goes in their place
        return Clarify("unclear-deadline", question, source, confidence, heard_as=said, fill_at=at)
    timed = frozenset() if when is None else frozenset(range(when.start, when.end))
    rest = orders.another_order(source, clause, target.end, skip | autonomy.indices | nouns | timed)
    order = rest  # a second order of its own: a time said in it is its own
    said_else = skip | autonomy.indices | timed
    # "fix the gate tomorrow and the fence on Friday": the second thing after the time too
    thing_end = when.end if isinstance(when, When) and when.start == target.end else target.end
    rest = rest or another_thing(source, clause, verb_end, thing_end, said_else, roster)
    if rest is None and target.end < len(clause) and tw.next_order(clause, target.end, roster):
        order = rest = source[clause[target.end].start : clause[-1].end]  # "… Zuri check the well"
    # Not a second thing: "fix the gate and the fence tomorrow" is due tomorrow
    second = next(
        (k for k, t in enumerate(clause) if order and source.startswith(order, t.start)), 0
    )
    if isinstance(when, When) and 0 < second <= when.start:
        # "fix the gate, then check the boiler on Monday": the boiler's Monday
        first = resolve(clause[:second], now, skip=not_when)
        when = first if isinstance(first, When) else None
    if rest is not None:  # one objective per turn: the rest is said, never dropped unseen
        extra = f'one thing at a time: "{truncate(rest, _REST_MAX)}" is not in this draft'
        note = extra if note is None else f"{note}; {extra}"
    elif target.end < len(clause) and (
        asked_harm(tail := source[clause[target.end].start :]) or tw.scope_said(tail)
    ):  # "visit the miller and lie to him": the agent weighs it; "…, just the front one"
        extra = f'also said: "{truncate(tail.strip(" ,.;"), _REST_MAX)}"'
        note = extra if note is None else f"{note}; {extra}"
    spoken_when = None if when is None else when.phrase
    if when is not None and autonomy.autonomy == "standing-intent" and repeats_at(clause, when):
        # "from now on guard the gate at night": when it repeats, not a deadline
        spoken_when = source[clause[when.start].start : clause[when.end - 1].end]
        later = resolve(clause, now, skip=not_when | frozenset(range(when.start, when.end)))
        when = later if isinstance(later, When) else None  # "…in the morning, by Friday"
        spoken_when += "" if when is None else f" {when.phrase}"
    if autonomy.autonomy == "standing-intent":  # "every Monday", "every Monday at 9"
        often = how_often(source, clause, autonomy.indices)
        if often and often.lower() not in (spoken_when or "").lower():
            spoken_when = often if spoken_when is None else f"{often} {spoken_when}"
    forbidden = forbidden_lines(clause, spans)
    constraints: list[Constraint] = []
    if when is not None:
        constraints.append(Constraint("time", when.iso_date))
    pace = _first_cue(clause, lx.PACE_CUES, skip)
    if pace is not None:
        constraints.append(Constraint("pace", pace))
    safety = _first_cue(clause, lx.SAFETY_CUES, skip)
    if safety is not None:
        constraints.append(Constraint("safety", safety))
    location = location_of(source, clause, target.end, skip | timed | autonomy.indices)
    if location is not None:
        constraints.append(Constraint("location", location))
    if lx.contains(clause, lx.PRIVACY_CUES, skip=skip):
        constraints.append(Constraint("privacy", "discreet"))
    condition = None if cond_at is None else as_said(source, cond_at)
    banned = " ".join(f.text.lower() for f in forbidden)
    if condition is not None and condition.lower() not in banned:  # not "don't work if it's icy"
        constraints.append(Constraint("custom", truncate(condition, _LABEL_MAX)))

    objective = Objective(
        id=objective_id,
        revision=1,
        agent=agent,
        verb=verb,
        target=target.target,
        constraints=constraints,
        priority=priority_of(clause, skip),
        deadline=None if when is None else when.iso_date,
        forbidden_lines=forbidden,
        autonomy=autonomy.autonomy,
        status="draft",
        confirmed_by_steward=False,
        accepted_by_agent=False,
        source_text=source,
        confidence=confidence,
    )
    summary = summarise(objective, now=now, phrase=target.phrase, when=spoken_when, note=note)
    wording = wording_of(objective, target.phrase, spoken_when, now)
    return Draft(objective, summary, agent, heard_as, source_kind, score, wording=wording)
