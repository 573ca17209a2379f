"""A change said to the one draft pending, as the session's next words.

"Zuri, fix the gate" → "no, I said Kofi": the change is read against a
plain sentence of the draft ("Zuri, repair the gate, no, Kofi",
`intent.follow_up`), and what it changes there (the agent, a deadline, a
priority, a ban…) is changed in the draft; the rest stays as it was. The
new draft replaces the old one (`Planner.amend`: the new one drafted, the
old one rejected, in one write), and the steward confirms it like any
draft. Before, such words were asked about ("I heard you, but not what to
do"), and the next "yes" confirmed the draft unchanged.

Only what the words name changes: the agent when they name a roster agent,
the verb when they hold one. A yes is a yes; spoken words are a change only
when they are no yes or no, and heard as surely as a command must be. A
question that answers nothing says which draft is still waiting.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Collection
from dataclasses import dataclass
from typing import Final, Literal

import msgspec

from vac import intent
from vac.intent.lexicon import DEFAULT_PRIORITY
from vac.intent.negotiation import asked_harm
from vac.intent.plainly import said_plainly, what
from vac.protocol.objective import Objective
from vac.runtime import hours
from vac.runtime import moved_days as md
from vac.runtime.change_words import (
    BARE_NO,
    HOLD_ON,
    NO_DEADLINE,
    NORMAL_PRIORITY,
    WAITING,
    WRONG_AGENT,
    name_lost,
    one_as_the_thing,
    one_each,
    sounds_like_a_change,
    unwrapped,
)
from vac.runtime.choices import Clarification
from vac.runtime.counter_changes import handed_on, restated, settled
from vac.runtime.decisions import Plan, Planner
from vac.runtime.lifted import heard_surely, lifted
from vac.runtime.news_said import after_news
from vac.runtime.said_once import said_once, unknown_after_no
from vac.runtime.session import new_id

# An objective's words longer than this are not said again with a change.
_SOURCE_MAX_CHARS: Final = 400


@dataclass(frozen=True, slots=True)
class Reading:
    """How one turn's words are read: at `now`, against the household."""

    now: dt.datetime
    roster: intent.Roster
    current_agent: str | None

    def understood(
        self, words: str, confidence: float, evidence: intent.Evidence | None = None
    ) -> intent.Draft | intent.Clarify:
        return intent.understand(
            words,
            confidence=confidence,
            evidence=evidence,
            now=self.now,
            roster=self.roster,
            current_agent=self.current_agent,
            objective_id=new_id(),
        )

    def changed(
        self,
        text: str,
        confidence: float,
        evidence: intent.Evidence | None,
        entry: intent.DraftEntry,
    ) -> intent.Draft | Clarification | Literal["reject", "confirm"] | None:
        """`_read`, settled against the draft: said again, no change (agreed, a yes)."""
        text = said_once(text, self.roster)  # "no no, Kofi", "no, Tarqi"
        got = self._read(text, confidence, evidence, entry)
        floor = intent.SPOKEN_CONFIRM_MIN_CONFIDENCE  # spoken, as sure as a yes
        sure = not (evidence and evidence.words) or confidence >= floor
        if got is None and sure and restated(text, entry.objective, self.now, self.understood):
            return "confirm"  # "ok tomorrow then" to tomorrow's draft
        if isinstance(got, Clarification):  # quoted as said, not as read ("nah, zuri, and…")
            read = one_each(intent.without_asides(text), self.roster.names())
            return got._replace(question=got.question.replace(f'"{read}"', f'"{text}"'))
        if not isinstance(got, intent.Draft):
            return got
        if intent.named_not_taken(text, got.objective, entry.objective, self.roster.names()):
            return _unclear(text, entry.objective, entry.wording, self.now)  # never half applied
        done = settled(got, entry, text, sure, self._drafted)
        return None if done == "same" else done

    def _read(
        self,
        text: str,
        confidence: float,
        evidence: intent.Evidence | None,
        entry: intent.DraftEntry,
    ) -> intent.Draft | Clarification | Literal["reject"] | None:
        """The draft `text` makes of the one pending when it is a change to
        it; a question when it was said as a correction but changes nothing
        that can be told ("No, hang on, Imani rather than Tariq"); else None."""
        pending = entry.objective
        spoken = evidence is not None and bool(evidence.words)
        reply = intent.spoken_reply(text, confidence, evidence)
        if (reply is not None and (spoken or reply.kind == "confirm")) or (
            spoken and confidence < intent.SPOKEN_MIN_CONFIDENCE
        ):
            return None  # a yes is a yes; spoken, so is a no ("no, Kofi" typed: a change)
        if len(pending.source_text) + len(text) > _SOURCE_MAX_CHARS:
            return None
        source = f"{pending.source_text}. {text}"
        left = lifted(text, pending.forbidden_lines, [pending.agent])  # not "Tariq can use…"
        if left is not None and heard_surely(confidence, evidence):
            lifts = msgspec.structs.replace(pending, forbidden_lines=left, source_text=source)
            return self._drafted(lifts, pending, entry.wording)  # "he can use the ladder"
        # "Kofi's busy, get Zuri to do it": the change read; "the back one": the back door
        text = one_as_the_thing(intent.without_asides(text), pending.target.label)
        text = intent.said_to_them(text, pending, self.roster.names())  # "he should check…"
        text = one_each(text, self.roster.names())  # "no, get Zuri to do it tonight"
        # Changes in one breath, each applied ("no, Zuri, and make it urgent"); not a new order
        own = self._own(text)  # read once: an order of its own is never split
        parts = [p for p in _AND.split(text.strip()) if p.strip(" ,.")]
        several = 1 < len(parts) <= _PARTS_MAX and not own
        if several and (each := self._each(parts, confidence, entry, source)) is not None:
            return each
        got = self._once(text, confidence, pending, entry.wording, source, own)
        commas = [p for p in text.split(",") if p.strip(" .").lower() not in BARE_NO]
        if "," not in text or any(_CLAUSE.match(p) for p in commas):
            commas = []  # "if it rains, do it tomorrow": a condition, not a change each
        # Each part a change: "no hurry, tomorrow's fine"; also when the whole
        # lost a name said ("it's urgent, get Kofi to do it": conversation probes)
        agent = got.objective.agent if isinstance(got, intent.Draft) else None
        kept = agent is not None and not name_lost(text, agent, self.roster.names())
        several = not (own or kept) and 1 < len(commas) <= _PARTS_MAX
        if several and (each := self._each(commas, confidence, entry, source)) is not None:
            return each
        moved = isinstance(got, intent.Draft) and _fields(got.objective) != _fields(pending)
        plains = () if own or moved or got == "reject" else unwrapped(text)  # not "Friday? Sat"
        for plain in plains:
            step = self._once(plain, confidence, pending, entry.wording, source, self._own(plain))
            if isinstance(step, intent.Draft):  # "can we push it back a day": the change
                return step
        if reply is not None and not isinstance(got, intent.Draft):
            if (who := unknown_after_no(text, self.roster)) is not None:  # "no, Bob": asked
                return _unclear(text, pending, entry.wording, self.now, f"No one's called {who}")
            return None  # a no typed ("no, leave it"): it rejects, as it always did
        return got

    def _each(
        self, parts: list[str], confidence: float, entry: intent.DraftEntry, source: str
    ) -> intent.Draft | None:
        """Each part a change, one after the other; None unless every one is."""
        now, wording = entry.objective, entry.wording
        for part in parts:
            step = self._once(part, confidence, now, wording, source, self._own(part))
            if not isinstance(step, intent.Draft):
                return None
            now, wording = step.objective, step.wording
        return self._drafted(now, entry.objective, wording)

    def _once(
        self,
        text: str,
        confidence: float,
        pending: Objective,
        wording: intent.Wording | None,
        source: str,
        of_its_own: bool,
    ) -> intent.Draft | Clarification | Literal["reject"] | None:
        """`changed` for one change; `of_its_own`: whether `text` holds an order of its own."""
        if HOLD_ON.match(text) or WAITING.match(text):  # "no, not yet" (T29c: "couldn't change")
            return None  # "in a minute", "one sec": wait, not a deadline nor haste (a review)
        if WRONG_AGENT.match(text):  # "nope, wrong person": who, then? The answer changes it
            who = f"Who should do it instead of {pending.agent}? Still waiting for you: "
            return Clarification(
                "reply-unclear", who + intent.restate(pending, wording, now=self.now)
            )
        due = None if pending.deadline is None else dt.date.fromisoformat(pending.deadline[:10])
        read_back = intent.kept_wording(pending, self.now, wording).when
        standing = pending.autonomy == "standing-intent"  # "every night at 10pm": asked
        hour = () if standing else hours.hour_only(text, read_back, pending.source_text)
        at = hours.at_hour(hour, pending, due, self.now, self.understood, read_back)
        if isinstance(at, str):  # "make it 7pm": the draft's day, at 7
            return _unclear(text, pending, wording, self.now, at)
        if at is not None:
            timed = hours.timed(pending, at.objective, source)
            return self._drafted(timed, pending, wording, at.wording)
        if due is not None and due != self.now.date() and md.PART_ONLY.match(text):
            return None  # "in the afternoon" to Sunday's draft: Sunday's (it held a date)
        if (nth := md.DAY_ONLY.match(text)) is not None and due is not None:
            # "no, the 10th" to January's draft: January 10 (it was December 10)
            text = md.that_months(nth, due, self.now.date())
        if (shift := md.shift_of(text)) is not None:  # "push it back a day", "a day earlier"
            if due is None:
                return _unclear(text, pending, wording, self.now, "It has no deadline to move")
            moved = md.shifted(shift, due, self.now.date())
            if moved is None:
                return _unclear(text, pending, wording, self.now, "That day has passed")
            text = moved
        # "tomorrow's fine" to today's draft moves it (a conversation probe: the
        # yes then confirmed today; "next week is fine" to a dated draft was
        # chatter, a third probe's choice, now the change the words say)
        if "?" not in text and (only := md.time_only(text, self.now)) is not None:
            # "they need it done by Thursday": that time, as if said alone
            said_so = self._once(f"make it {only}", confidence, pending, wording, source, False)
            if isinstance(said_so, intent.Draft):
                return said_so
        if "?" not in text and (NO_DEADLINE.match(text) or NORMAL_PRIORITY.match(text)):
            return self._unsaid(pending, wording, source, dated=bool(NO_DEADLINE.match(text)))
        plain = said_plainly(pending)
        base = self.understood(plain, 1.0)
        if not isinstance(base, intent.Draft) or what(base.objective) != what(pending):
            return None  # the draft cannot be said plainly: nothing to read a change against
        names = self.roster.names()
        said = intent.follow_up(text, plain, alone_is_order=of_its_own, names=names)
        if said is None:
            return None
        then = after_news(said.rest) if said.corrects and not self._own(said.rest) else None
        if then == "":  # "Nah, the engineer's coming tomorrow": no change (`news_said`)
            return _unclear(text, pending, wording, self.now, "That sounds like news")
        if then:  # "…, so do it by Wednesday"
            return self._once(then, confidence, pending, wording, source, self._own(then))
        if asked_harm(pending.source_text) or asked_harm(text):  # lost from the read-back
            why = "I won't change a draft that asks for that"
            return _unclear(text, pending, wording, self.now, why)
        label = pending.target.label.lower()
        taken = said.taken_back.lower() if said.taken_back else None
        if taken and taken != pending.agent.lower() and not set(taken.split()) & set(label.split()):
            return _unclear(text, pending, wording, self.now)  # "not the gate, …" to the hives
        if said.corrects and self._own(said.rest):  # an order said instead, as said
            instead = self.understood(said.rest, confidence)
            if isinstance(instead, intent.Draft):
                own = msgspec.structs.replace(instead.objective, source_text=source)
                if instead.agent_source not in ("default", "current"):
                    # As read back alone, its notes too ("one thing at a time: …").
                    return msgspec.structs.replace(instead, objective=own)
                # "no, fix the fence instead": the same agent's
                mine = msgspec.structs.replace(own, agent=pending.agent)
                return self._drafted(mine, pending, instead.wording)
        named = bool({t.strip(",.!?;:").lower() for t in text.split()} & {n.lower() for n in names})
        for words in (*said.words, *hours.dated(plain, said.rest, self.now)):
            heard = self.understood(words, confidence)
            if not isinstance(heard, intent.Draft):
                continue
            new = _changed(pending, base.objective, heard.objective, source)
            if new is not None and said.corrects:  # "actually, once the rain stops": instead
                new = _condition_instead(new, heard.objective, base.objective)
            if words not in said.words and (new is None or not _only_when(new, pending)):
                continue  # "no, by the fence": a place, not the time tried
            if new is None or _fields(new) == _fields(pending):
                continue
            if md.day_unsaid(text, pending.deadline, new.deadline):  # it was today's
                return _unclear(text, pending, wording, self.now, md.WHICH_DAY)
            if new.agent != pending.agent and not named:
                continue
            if not said.corrects and _slots_of(new) != _slots_of(pending):
                continue  # said plainly, a change names a time, a priority, a hand, a ban
            added = md.ADDED.match(text) and not said.corrects and pending.deadline is not None
            if added and new.deadline != pending.deadline:  # "and tomorrow night" to tonight's
                return _unclear(text, pending, wording, self.now, "It has one deadline")
            if _wrong_way(text, pending.deadline, new.deadline):
                why = "That moves it the other way"  # "push it back to Monday" on a Friday
                return _unclear(text, pending, wording, self.now, why)
            return self._drafted(new, pending, wording, heard.wording)
        if said.cancels:
            return "reject"  # "cancel that, …" with nothing to put in its place: a no
        return _unclear(text, pending, wording, self.now) if said.corrects else None

    def _unsaid(
        self, pending: Objective, wording: intent.Wording | None, source: str, *, dated: bool
    ) -> intent.Draft | Clarification:
        """The draft with its deadline (and time constraint) taken off, or at
        the usual priority, which the plain draft has already (a typed probe:
        "no deadline" was a ban, "make it medium priority" was asked again)."""
        if (pending.deadline is None) if dated else (pending.priority == DEFAULT_PRIORITY):
            said = intent.restate(pending, wording, now=self.now)
            has = "no deadline" if dated else "the usual priority"
            return Clarification("reply-unclear", f"It has {has}. Still waiting for you: {said}")
        if dated:
            kept = [c for c in pending.constraints if c.kind != "time"]
            new = msgspec.structs.replace(pending, deadline=None, constraints=kept)
        else:
            new = msgspec.structs.replace(pending, priority=DEFAULT_PRIORITY)
        return self._drafted(msgspec.structs.replace(new, source_text=source), pending, wording)

    def _own(self, words: str) -> bool:
        """Whether `words` hold an order of their own (a verb; asked about or not)."""
        alone = self.understood(words, 1.0)
        return not isinstance(alone, intent.Clarify) or alone.reason != "no-verb"

    def _drafted(
        self, new: Objective, was: Objective, *said: intent.Wording | None
    ) -> intent.Draft:
        """The changed draft, read back in the steward's words that still hold
        (`said`: the draft's, then the change's)."""
        new = msgspec.structs.replace(new, id=new_id())
        # The normal priority is not said in a read-back: a change to it is a note.
        note = None
        if new.priority != was.priority and 40 <= new.priority < 65:
            note = "now at normal priority"
        kept = intent.kept_wording(new, self.now, *said)
        summary = intent.summarise(new, now=self.now, phrase=kept.phrase, when=kept.when, note=note)
        return intent.Draft(new, summary, new.agent, None, "exact", wording=kept)


def planned(
    planner: Planner,
    turn_id: str,
    new: intent.Draft | Clarification | Literal["reject", "confirm"],
    entry: intent.DraftEntry,
    now: dt.datetime,
    ref: str | None,
) -> Plan | Clarification:
    """The change planned (the old draft rejected, the new one drafted), or the question."""
    if isinstance(new, Clarification):
        return new
    if new == "reject":
        return planner.reject(turn_id, entry.objective.id, now, None)
    if new == "confirm":  # "ok tomorrow then": the draft said again, agreed
        return planner.confirm(turn_id, entry.objective.id, None, None, now, None)
    of = planner.shared.book.find(entry.counter_of) if entry.counter_of else None
    if of is not None and (given := handed_on(new.objective, entry.objective, of.objective)):
        back = Reading(now, planner.shared.roster, None)._drafted(
            given, entry.objective, of.wording
        )
        new = msgspec.structs.replace(back, uncertain=new.uncertain)  # the order's time again
    return planner.amend(turn_id, new, entry.objective.id, now, ref)


# A part said before another that it governs ("if it rains, …").
_CLAUSE: Final = re.compile(
    r"^\W*(?:if|when|whenever|once|after|before|unless|until|till|while|as\s+soon\s+as|in\s+case"
    r"|should|because|since|so|but)\b",
    re.IGNORECASE,
)
# At most this many changes in one breath: each costs a few parses, on the loop.
_PARTS_MAX: Final = 4
# "…, and make it urgent": one change after another.
_AND: Final = re.compile(r",?\s+and\s+", re.IGNORECASE)


_LATER: Final = re.compile(r"\b(?:push|put|move)\s+(?:(?:it|that)\s+)?back\b", re.I)
_EARLIER: Final = re.compile(r"\b(?:bring|move|pull)\s+(?:(?:it|that)\s+)?(?:forward|up)\b", re.I)


def _wrong_way(text: str, was: str | None, now_due: str | None) -> bool:
    """ "push it back to Monday" that makes it due sooner, "bring it forward"
    that makes it later: which Monday? Asked (a typed probe: it moved a
    Friday deadline to the Monday before)."""
    if was is None or now_due is None:
        return False
    return bool(_LATER.search(text) and now_due < was) or bool(
        _EARLIER.search(text) and now_due > was
    )


def _only_when(new: Objective, was: Objective) -> bool:
    """Whether `new` differs from `was` in its deadline alone."""
    times = ("deadline", "constraints")
    same = all(getattr(new, f) == getattr(was, f) for f in _FIELDS if f not in times)
    return same and new.deadline != was.deadline


_FIELDS: Final = ("agent", "verb", "target", "priority", "autonomy", "forbidden_lines")


# Said plainly, a change may add how ("carefully", "quietly please": T28c).
_HOW_KINDS: Final = frozenset({"time", "custom", "pace", "privacy", "safety"})


def _slots_of(o: Objective) -> tuple[object, ...]:
    """What a change said plainly may not touch: the deed, its thing, its
    place (a condition it may add: "but only if it stops raining")."""
    kept = tuple((c.kind, c.value) for c in o.constraints if c.kind not in _HOW_KINDS)
    return (o.verb, o.target.label, kept)


def _unclear(
    text: str,
    pending: Objective,
    wording: intent.Wording | None,
    now: dt.datetime,
    why: str | None = None,
) -> Clarification:
    said = text if len(text) <= 80 else text[:79] + "…"
    first = f"{why}: say the whole order again" if why else "Say the change again"
    return Clarification(
        "reply-unclear",
        f'I couldn\'t change the draft with "{said}". Still waiting for you: '
        f"{intent.restate(pending, wording, now=now)} {first}, or yes or no.",
    )


def _condition_instead(new: Objective, said: Objective, base: Objective) -> Objective:
    """`new` with a condition said as a correction in place of the draft's
    (a review: "…, if it rains" then "actually, once the rain stops" kept both)."""
    told = [c for c in said.constraints if c.kind == "custom" and c not in base.constraints]
    if not told:
        return new
    kept = [c for c in new.constraints if c.kind != "custom" or c in told]
    return msgspec.structs.replace(new, constraints=kept)


def _fields(o: Objective) -> tuple[object, ...]:
    lines = tuple(f.text for f in o.forbidden_lines)
    said = tuple((c.kind, c.value) for c in o.constraints)
    return (o.agent, o.verb, o.target.label, o.deadline, o.priority, o.autonomy, lines, said)


def _changed(pending: Objective, base: Objective, said: Objective, source: str) -> Objective | None:
    """`pending` with what `said` changes of `base` (the draft said plainly), or None."""
    new: dict[str, object] = {}
    if what(said) != what(base):
        same = said.target.label.lower() == base.target.label.lower()  # as said first
        new.update(agent=said.agent, verb=said.verb, target=pending.target if same else said.target)
    for name in ("priority", "autonomy"):
        if getattr(said, name) != getattr(base, name):
            new[name] = getattr(said, name)
    constraints = list(pending.constraints)
    if said.deadline != base.deadline:  # its time constraint with it, never two
        new["deadline"] = said.deadline
        constraints = [c for c in constraints if c.kind != "time"]
        constraints += [c for c in said.constraints if c.kind == "time"]
    for c in said.constraints:
        if c.kind != "time" and c not in base.constraints and c not in constraints:
            if c.kind == "location":  # one place
                constraints = [k for k in constraints if k.kind != "location"]
            constraints.append(c)
    if new.get("autonomy") == "standing-intent" and "deadline" not in new and pending.deadline:
        new["deadline"] = None  # "every day actually": no "by tomorrow" left (a probe)
        constraints = [c for c in constraints if c.kind != "time"]
    if constraints != list(pending.constraints):
        new["constraints"] = constraints
    lines = [f for f in said.forbidden_lines if f not in base.forbidden_lines]
    lines = [f for f in lines if f not in pending.forbidden_lines]
    if lines:
        new["forbidden_lines"] = [*pending.forbidden_lines, *lines]
    if not new:
        return None
    return msgspec.structs.replace(pending, **new, source_text=source)


# Questions that answer nothing, after which a "yes" is about the draft.
_ANSWERING_NOTHING: Final = frozenset({"no-verb", "empty", "question"})


def still_waiting(
    clarify: intent.Clarify,
    pending: intent.DraftEntry | None,
    now: dt.datetime,
    names: Collection[str] = (),
) -> str:
    """The question, with the draft still waiting said after it. Words that
    name an agent, a day or how soon ("actually would you ask Zuri?",
    "its kinda urgent") were likely meant as a change: said plainly that
    nothing changed (a probe: the list of verbs hid that, and a "yes" then
    confirmed the old draft)."""
    if pending is None or clarify.reason not in _ANSWERING_NOTHING or clarify.heard_as:
        return clarify.question
    said = intent.restate(pending.objective, pending.wording, now=now)
    if WAITING.match(clarify.source_text):  # "hold on, not yet": nothing asked of it
        return f"Okay, take your time. Still waiting for you: {said}"
    if clarify.reason == "no-verb" and sounds_like_a_change(clarify.source_text, names):
        quoted = clarify.source_text if len(clarify.source_text) <= 80 else "…"
        return (
            f'I didn\'t change anything with "{quoted}". Still waiting for you: {said} '
            'Say the change plainly ("no, Zuri", "make it Friday", "make it urgent"), '
            "or yes or no."
        )
    return f"{clarify.question} Still waiting for you: {said}"


__all__ = ["Reading", "planned", "still_waiting"]
