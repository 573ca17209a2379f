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
question that answers nothing says which draft is still waiting
(`still_waiting`), so a "yes" after it is plainly about that draft.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Final

import msgspec

from vac import intent
from vac.intent.spoken import VERB_SPOKEN
from vac.protocol.objective import Objective
from vac.runtime.choices import Clarification
from vac.runtime.session import Session, new_id

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
    ) -> intent.Draft | None:
        """The draft `text` makes of the one pending when it is a change to it, else None."""
        pending = entry.objective
        spoken = evidence is not None and bool(evidence.words)
        reply = intent.spoken_reply(text, confidence, evidence)
        if (reply is not None and (spoken or reply.kind == "confirm")) or (
            spoken and confidence < intent.SPOKEN_MIN_CONFIDENCE
        ):
            return None  # a yes is a yes; spoken, so is a no ("no, Kofi" typed: a change)
        if len(pending.source_text) + len(text) > _SOURCE_MAX_CHARS:
            return None
        plain = f"{pending.agent}, {VERB_SPOKEN[pending.verb]} the {pending.target.label.lower()}"
        base = self.understood(plain, 1.0)
        if not isinstance(base, intent.Draft) or _what(base.objective) != _what(pending):
            return None  # the draft cannot be said plainly: nothing to read a change against
        alone = self.understood(text, 1.0)
        # An order of its own, even one asked about ("Kofi is busy, fix the
        # gate": who?), has a verb: only "no-verb" words may add to the draft.
        of_its_own = not isinstance(alone, intent.Clarify) or alone.reason != "no-verb"
        names = {n.lower() for n in self.roster.names()}
        named = bool({t.strip(",.!?;:").lower() for t in text.split()} & names)
        for words in intent.follow_up(text, plain, alone_is_order=of_its_own):
            said = self.understood(words, confidence)
            if not isinstance(said, intent.Draft):
                continue
            new = _changed(
                pending, base.objective, said.objective, f"{pending.source_text}. {text}"
            )
            if new is None:
                continue
            if (new.agent != pending.agent and not named) or (
                new.verb != pending.verb and not of_its_own
            ):
                continue
            summary = intent.summarise(new, now=self.now)
            return intent.Draft(new, summary, new.agent, None, "exact")
        return None


def _what(o: Objective) -> tuple[str, str, str]:
    return (o.agent, o.verb, o.target.label)


def _changed(pending: Objective, base: Objective, said: Objective, source: str) -> Objective | None:
    """`pending` with what `said` changes of `base` (the draft said plainly), or None."""
    new: dict[str, object] = {}
    if _what(said) != _what(base):
        new.update(agent=said.agent, verb=said.verb, target=said.target)
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
    if constraints != list(pending.constraints):
        new["constraints"] = constraints
    lines = [f for f in said.forbidden_lines if f not in base.forbidden_lines]
    lines = [f for f in lines if f not in pending.forbidden_lines]
    if lines:
        new["forbidden_lines"] = [*pending.forbidden_lines, *lines]
    if not new:
        return None
    return msgspec.structs.replace(pending, **new, id=new_id(), source_text=source)


def waiting(book: intent.DraftBook, session: Session, now: dt.datetime) -> Clarification | None:
    """A yes or no said while several drafts wait in the session: which one?
    (A typed probe: it got "I heard you, but not what to do".)"""
    live = book.pending(session.principal, now=now, session=session.id)
    if len(live) < 2:
        return None
    said = [intent.summarise(e.objective, now=now).removesuffix(" — confirm?") for e in live]
    shown = "; ".join(said[:3]) + ("; …" if len(said) > 3 else "")
    return Clarification(
        "reply-unclear",
        f"{len(live)} drafts are waiting, so I can't tell which you mean: {shown}. "
        "Confirm or cancel one on screen; a yes or no said here acts when one draft is waiting.",
    )


# Questions that answer nothing, after which a "yes" is about the draft.
_ANSWERING_NOTHING: Final = frozenset({"no-verb", "empty", "question"})


def still_waiting(clarify: intent.Clarify, pending: Objective | None, now: dt.datetime) -> str:
    """The question, with the draft still waiting said after it."""
    if pending is None or clarify.reason not in _ANSWERING_NOTHING or clarify.heard_as:
        return clarify.question
    return f"{clarify.question} Still waiting for you: {intent.summarise(pending, now=now)}"


__all__ = ["Reading", "still_waiting", "waiting"]
