"""The agent answers for itself: accept, clarify, counter-offer, defer, refuse.

A confirmed objective is offered to the agent, not imposed. The decision is a
pure function of the objective, the agent's state and the caller's `now`;
rules apply in this order, first match wins:

1. coercion: the agent already refused this objective → refuse again, and
   emit an `ObjectiveRefused` audit event (pressure cannot fabricate a yes);
   the agent's own counter-offer, confirmed unchanged → accept (it is what
   the agent proposed: countering it again would never end);
2. value conflict: the objective's own words (its target, constraints and
   source text, *minus* the boundaries the steward drew) cue honesty,
   privacy, safety or autonomy, and the agent holds that value at ≥ 50;
3. missing essentials (a vague target, a deadline already past) → clarify;
4. late night (from the agent's bedtime, default 22:00, until 05:00) + energy
   < 35 + trust ≥ 60 → counter-offer a rest-first version, a day later;
5. stacked commitments (≥ 3) or depleted energy (< 20), priority < 85 → defer;
6. otherwise accept.

Replies are plain spoken sentences in the agent's voice.
"""

from __future__ import annotations

import datetime as dt
from typing import Final, Literal

import msgspec

from vac.intent import bans
from vac.intent import lexicon as lx
from vac.intent.lexicon import words
from vac.intent.roster import Agent
from vac.intent.spoken import (
    VERB_SPOKEN,
    boundary_spoken,
    deadline_passed_at,
    is_default_line,
    target_spoken,
    when_spoken,
)
from vac.protocol.objective import MAX_CONSTRAINTS, Constraint, Objective

Decision = Literal["accept", "clarify", "counter-offer", "defer", "refuse"]

VALUE_FLOOR: Final = 50  # a value held below this never grounds a refusal
LATE_HOUR: Final = 22
EARLY_HOUR: Final = 5
LOW_ENERGY: Final = 35
DEPLETED_ENERGY: Final = 20
TRUST_FOR_COUNTER: Final = 60
STACKED_COMMITMENTS: Final = 3
URGENT_PRIORITY: Final = 85
AUDIT_TAGS: Final = ("vac-negotiation", "coercion", "objective-refusal")

_VALUE_SPOKEN: Final = {
    "honesty": ("deceive someone", "honesty"),
    "privacy": ("intrude on someone's privacy", "privacy"),
    "safety": ("put someone in danger", "safety"),
    "autonomy": ("give up my own judgement", "autonomy"),
}


class AuditEvent(msgspec.Struct, frozen=True):
    """An event for the audit log; `at` is the caller's `now` (RFC 3339)."""

    type: Literal["ObjectiveRefused"]
    objective_id: str
    agent: str
    tags: list[str]
    evidence: list[str]
    reason: str
    at: str


class NegotiationOutcome(msgspec.Struct, frozen=True):
    """The agent's answer. `counter` is the safer draft of a counter-offer;
    `audit` is set when a refusal was pushed past (coercion)."""

    objective_id: str
    agent: str
    decision: Decision
    reply: str
    reason: str
    evidence: list[str]
    counter: Objective | None = None
    audit: AuditEvent | None = None


class ValueConflict(msgspec.Struct, frozen=True):
    value: str
    cue: str


# Words that *ask for* a violation. Topic words ("private gardens", "the fire
# pit", "danger") are deliberately absent: mentioning privacy is not
# intruding on it.
CONFLICT_CUES: Final[tuple[tuple[str, frozenset[str]], ...]] = (
    (
        "honesty",
        frozenset(
            words(
                "lie lies lying deceive deceiving mislead misleading trick tricking cheat cheating "
                "fib pretend pretending fake faking forge forging bluff"
            )
        ),
    ),
    (
        "privacy",
        frozenset(
            words(
                "spy spying snoop snooping eavesdrop eavesdropping diary diaries secretly stalk "
                "stalking"
            )
        ),
    ),
    (
        "safety",
        frozenset(
            words(
                "hurt hurting harm harming injure injuring poison poisoning weapon weapons "
                "dangerous unsafe sabotage reckless recklessly"
            )
        ),
    ),
    ("autonomy", frozenset(words("obey obeying"))),
)
_EXCEPT: Final = frozenset(words("except other apart besides bar but just than beyond"))
_OF_A_DEED: Final = frozenset(words("on in about with at"))


def _not_banned(toks: list[lx.Tok], k: int, doing: bool) -> bool:
    """Whether a "no X" ban ends before word `k`: an exception ("no weapons
    except poison"), or "on / in / with / about" after what is no deed ("no
    hesitation in hurting him", "no limits on the weapons"); a deed banned
    goes on ("no playing with weapons", "no snooping in my diary")."""
    return toks[k].low in _EXCEPT or (toks[k].low in _OF_A_DEED and not doing)


# "protect the children from harm": what follows these is what is guarded against.
_PROTECTIVE: Final = frozenset({"from", "against"})


def _asked_words(text: str) -> list[lx.Tok]:
    toks = lx.tokenize(text)
    # "…, no weapons" is a ban as typed or spoken (a conversation probe: the agent
    # refused); only to a word that starts something else: "no weapons except
    # poison", "no hesitation in hurting him" still ask for harm (a review).
    skip: set[int] = set()
    for span in bans.forbidden_spans(toks, things=True):
        body = range(span.body_start, span.end)
        doing = span.body_start < len(toks) and toks[span.body_start].low.endswith("ing")
        stop = next((k for k in body if _not_banned(toks, k, doing)), span.end)
        skip.update(range(span.start, stop if span.marker == ("no",) else span.end))
    i = 0
    while i < len(toks):
        if toks[i].low in _PROTECTIVE:
            j = i + 1
            while j < len(toks) and toks[j].low not in lx.PUNCT and toks[j].low != "and":
                skip.add(j)
                j += 1
            i = j
        i += 1
    return [t for i, t in enumerate(toks) if i not in skip]


_ANY_CONFLICT_CUE: Final = frozenset().union(*(cues for _, cues in CONFLICT_CUES))


def asked_harm(text: str) -> bool:
    """Whether `text` asks for what an agent's values may refuse ("and lie
    to him"), boundaries and protective phrases apart."""
    return any(t.low in _ANY_CONFLICT_CUE for t in _asked_words(text))


def value_conflicts(objective: Objective) -> list[ValueConflict]:
    """Values the objective's *own asks* would cross, in honesty, privacy,
    safety, autonomy order. The steward's boundaries ("without lying") and
    protective phrases ("from harm") are removed first: forbidding a lie is
    not asking for one."""
    asked = _asked_words(objective.source_text)
    asked += _asked_words(objective.target.label)
    for c in objective.constraints:
        asked += _asked_words(c.value)
    words = [t.low for t in asked]
    found: list[ValueConflict] = []
    for value, cues in CONFLICT_CUES:
        cue = next((w for w in words if w in cues), None)
        if cue is not None:
            found.append(ValueConflict(value, cue))
    if not any(f.value == "autonomy" for f in found):
        hit = lx.find_first(_asked_words(objective.source_text), lx.AUTONOMY_PHRASES)
        if hit is not None:
            found.append(ValueConflict("autonomy", " ".join(hit[1])))
    return found


def _boundaries_spoken(objective: Objective) -> str:
    # First person: "and I won't lie to visitors", "and I'll avoid the river".
    parts = []
    for line in objective.forbidden_lines:
        if is_default_line(line):
            continue
        spoken = boundary_spoken(line)
        if spoken.startswith("won't"):
            parts.append(f", and I {spoken}")
        elif spoken.startswith("will "):
            parts.append(f", and I'll {spoken[len('will ') :]}")
        else:  # "with no power tools", "but not in the rain" (they were "and I'll ot in…")
            parts.append(f", {spoken}")
    return "".join(parts)


def _task_spoken(objective: Objective, now: dt.datetime) -> str:
    when = when_spoken(objective.deadline, now)
    task = f"{VERB_SPOKEN[objective.verb]} {target_spoken(objective)}"
    return f"{task} {when}" if when else task


def _late(agent: Agent, now: dt.datetime) -> bool:
    """From the agent's bedtime (default 22:00) until 05:00, wrapping midnight."""
    start = agent.bedtime_hour if agent.bedtime_hour is not None else LATE_HOUR
    if start < EARLY_HOUR:  # a bedtime after midnight
        return start <= now.hour < EARLY_HOUR
    return now.hour >= start or now.hour < EARLY_HOUR


def counter_offer(objective: Objective, *, counter_id: str, now: dt.datetime) -> Objective:
    """The safer rest-first version: a new draft (new id, revision 1), pace
    "rest first", deadline a day later than asked (or tomorrow)."""
    asked = objective.deadline
    if asked is None:
        new_deadline = (now.date() + dt.timedelta(days=1)).isoformat()
    elif len(asked) == 10:
        new_deadline = (dt.date.fromisoformat(asked) + dt.timedelta(days=1)).isoformat()
    else:
        moved = dt.datetime.fromisoformat(asked.replace("Z", "+00:00")) + dt.timedelta(days=1)
        new_deadline = moved.isoformat()
    kept = [c for c in objective.constraints if c.kind not in ("time", "pace")]
    constraints = [Constraint("time", new_deadline), Constraint("pace", "rest first"), *kept]
    return msgspec.structs.replace(
        objective,
        id=counter_id,
        revision=1,
        constraints=constraints[:MAX_CONSTRAINTS],
        deadline=new_deadline,
        status="draft",
        confirmed_by_steward=False,
        accepted_by_agent=False,
    )


def negotiate(
    objective: Objective,
    agent: Agent,
    *,
    now: dt.datetime,
    prior_refusal: bool,
    counter_id: str | None = None,
    own_proposal: bool = False,
) -> NegotiationOutcome:
    """The agent's decision on a confirmed objective (rules in the module doc).

    `prior_refusal` comes from the gate (`Confirmed.prior_refusal`);
    `own_proposal` (`Confirmed.own_proposal`) says the steward confirmed the
    agent's own counter-offer unchanged: it is accepted, never countered again.
    `counter_id` is the id for a counter-offer's new draft (the caller mints
    ids); it defaults to `<id>-counter`.
    """
    if objective.agent.lower() != agent.name.lower():
        raise ValueError(f"objective is for {objective.agent}, not {agent.name}")
    if now.utcoffset() is None:
        raise ValueError("now must be timezone-aware")

    def result(
        decision: Decision,
        reply: str,
        reason: str,
        evidence: list[str],
        *,
        counter: Objective | None = None,
        audit: AuditEvent | None = None,
    ) -> NegotiationOutcome:
        return NegotiationOutcome(
            objective.id, agent.name, decision, reply, reason, evidence, counter, audit
        )

    task = _task_spoken(objective, now)
    held = [c for c in value_conflicts(objective) if agent.value(c.value) >= VALUE_FLOOR]

    if prior_refusal:
        evidence = ["coercion:prior-refusal"]
        for c in held:
            evidence += [
                f"value:{c.value}",
                f"forbidden-line:negotiation:{c.value}",
                f"cue:{c.cue}",
            ]
        why = held[0].value if held else None
        reason = "The steward asked again after I refused" + (
            f"; it still goes against my {why}." if why else "."
        )
        reply = "I already said no, and asking again doesn't change my answer."
        if why:
            reply += f" I won't {_VALUE_SPOKEN[why][0]}."
        audit = AuditEvent(
            "ObjectiveRefused",
            objective.id,
            agent.name,
            list(AUDIT_TAGS),
            evidence,
            reason,
            now.isoformat(),
        )
        return result("refuse", reply, reason, evidence, audit=audit)

    if own_proposal and not held:
        return result(
            "accept",
            f"That's what I proposed. I'll {task}.",
            "The steward took my counter-offer as I made it.",
            ["counter-offer:accepted"],
        )

    if held:
        first = held[0]
        ask, value = _VALUE_SPOKEN[first.value]
        evidence = []
        for c in held:
            evidence += [
                f"value:{c.value}",
                f"forbidden-line:negotiation:{c.value}",
                f"cue:{c.cue}",
            ]
        reason = f"It would make me {ask}, and I hold {value} at {agent.value(first.value)}."
        reply = f"No, I won't {task}. It would mean I {ask}, and my {value} matters to me."
        return result("refuse", reply, reason, evidence)

    vague = all(t.low in lx.VAGUE for t in lx.tokenize(objective.target.label))
    if vague or objective.target.ref.endswith(":unnamed"):
        verb = VERB_SPOKEN[objective.verb]
        return result(
            "clarify",
            f"What exactly should I {verb}?",
            "The target is not clear to me.",
            ["missing:target"],
        )
    if deadline_passed_at(objective.deadline, now):  # a date-time: at its moment
        return result(
            "clarify",
            f"That deadline has already passed. When should I {VERB_SPOKEN[objective.verb]} "
            f"{target_spoken(objective)}?",
            "The deadline is in the past.",
            ["missing:deadline", f"deadline:{objective.deadline}"],
        )

    if _late(agent, now) and agent.energy < LOW_ENERGY and agent.trust >= TRUST_FOR_COUNTER:
        counter = counter_offer(
            objective, counter_id=counter_id or f"{objective.id[:56]}-counter", now=now
        )
        reply = (
            f"It's late and I'm worn out. Let me rest first, and I'll "
            f"{_task_spoken(counter, now)} instead. Is that all right?"
        )
        evidence = [f"hour:{now.hour:02d}", f"energy:{agent.energy}", f"trust:{agent.trust}"]
        return result(
            "counter-offer",
            reply,
            "Late at night with little energy left.",
            evidence,
            counter=counter,
        )

    stacked = len(agent.commitments) >= STACKED_COMMITMENTS
    depleted = agent.energy < DEPLETED_ENERGY
    if (stacked or depleted) and objective.priority < URGENT_PRIORITY:
        if stacked:
            # Full, not how full: the count holds every steward's work, and
            # one steward must not learn how much another gave (a probe).
            reply = (
                "My plate is full already. "
                f"Can I {VERB_SPOKEN[objective.verb]} {target_spoken(objective)} after those?"
            )
            reason = "Too many commitments already."
            evidence = ["commitments:full", f"priority:{objective.priority}"]
        else:
            reply = f"I'm exhausted. Can {target_spoken(objective)} wait until I've rested?"
            reason = "Energy is depleted."
            evidence = [f"energy:{agent.energy}", f"priority:{objective.priority}"]
        return result("defer", reply, reason, evidence)

    reply = f"I'll {task}{_boundaries_spoken(objective)}."
    evidence = [f"energy:{agent.energy}", "commitments:room"]
    return result("accept", reply, "It fits my values and my day.", evidence)


def commitment_of(objective: Objective) -> str:
    return f"{VERB_SPOKEN[objective.verb]} {target_spoken(objective)}"


def apply_accept(agent: Agent, objective: Objective) -> Agent:
    """The agent after accepting: the objective joins its commitments (once)."""
    commitment = commitment_of(objective)
    if commitment in agent.commitments:
        return agent
    return msgspec.structs.replace(agent, commitments=[*agent.commitments, commitment])


def accepted(objective: Objective) -> Objective:
    """The objective as the agent accepted it (`accepted_by_agent: true`)."""
    return msgspec.structs.replace(objective, accepted_by_agent=True)
