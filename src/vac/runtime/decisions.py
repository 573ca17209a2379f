"""Planning a decision: what a draft, a confirm or a reject changes and says.

Planning is synchronous and in input order. It applies the decision to the
draft book under a checkpoint and returns a `Plan`: the rows to write, then
the messages to send. Nothing is written or sent here (`durable.py` writes,
the coordinator announces). A refusal is the book's own `VacError`
(`ObjectiveUnknown`, `RevisionStale`, `ObjectiveInvalid`), raised unchanged
with nothing applied.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import msgspec

from vac import intent
from vac.clock import now_ms
from vac.logs import get_logger
from vac.protocol.errors import ProtocolError
from vac.protocol.messages import (
    AnsweredBy,
    Negotiation,
    ObjectiveAnswer,
    ObjectiveConfirmed,
    ObjectiveDraft,
    ObjectiveRejected,
    ObjectiveUpdated,
    Outbound,
    Preview,
    TurnStatus,
)
from vac.protocol.objective import Objective
from vac.runtime.offers import AgentAnswer, OpenOffer
from vac.runtime.session import Session, new_id
from vac.runtime.shared import SharedState
from vac.runtime.store import AuditRow, ObjectiveRow

log = get_logger("vac.turns")


@dataclass
class Plan:
    """A decision applied to the draft book, not yet written or announced.

    `checkpoint` undoes it; `rows` and `audits` are written with the message
    id's outcome in one transaction; then `messages` are sent, `applied`
    runs, the conversation turns to `agent` (if set), and the turn says
    `spoken` and ends with `status`.
    """

    checkpoint: intent.Checkpoint
    rows: list[ObjectiveRow]
    messages: list[Outbound]
    spoken: str | None
    status: TurnStatus
    audits: list[AuditRow] = field(default_factory=list)
    ack: bool = False  # the `ack` stage ends when these messages are sent
    agent: str | None = None
    applied: Callable[[], None] = lambda: None
    # §9: the confirm was written as `offered`; the answer comes later.
    offer: OpenOffer | None = None
    # §9: the change as pushed to the steward's other sessions and the agent's.
    updated: ObjectiveUpdated | None = None
    # What undoes the plan outside the book when its write fails.
    undo: Callable[[], None] = lambda: None


class Planner:
    """One session's decisions, planned against the daemon-wide book."""

    def __init__(self, shared: SharedState, session: Session) -> None:
        self.shared = shared
        self.session = session

    def quota_ok(self, now: dt.datetime) -> bool:
        """Whether one more pending draft is allowed for this principal (an
        agent's counter-offer: it replaces an objective already open)."""
        pending = self.shared.book.pending(self.session.principal, now=now)
        return len(pending) < self.shared.max_pending_drafts

    def over_quota(self, now: dt.datetime) -> str | None:
        """Why one more draft is not allowed for this principal, if it is not:
        too many drafts pending, or too many objectives open (each stays in
        memory until settled)."""
        if not self.quota_ok(now):
            return "too many pending drafts; confirm or reject some"
        if self.shared.book.open_count(self.session.principal) >= self.shared.max_open_objectives:
            return "too many objectives open; withdraw some or let their agents finish"
        return None

    @contextlib.contextmanager
    def _planning(self, objective_ids: list[str]) -> Iterator[intent.Checkpoint]:
        """Record a decision's changes to the book; any failure while planning
        it undoes them (planning is pure, but not infallible)."""
        book = self.shared.book
        checkpoint = book.checkpoint(objective_ids)
        try:
            yield checkpoint
        except BaseException:
            book.rollback(checkpoint)
            raise

    def draft(self, turn_id: str, draft: intent.Draft, now: dt.datetime, ref: str | None) -> Plan:
        objective = draft.objective
        with self._planning([objective.id]) as checkpoint:
            entry = self.shared.book.add(
                self.session.principal,
                objective,
                now=now,
                session=self.session.id,
                wording=draft.wording,
            )
            row = self.shared.row(entry, origin=ref)
        return Plan(
            checkpoint=checkpoint,
            rows=[row],
            messages=[
                ObjectiveDraft(
                    turn=turn_id,
                    objective=objective,
                    preview=Preview(summary=draft.summary, uncertain=list(draft.uncertain)),
                )
            ],
            spoken=draft.summary,
            status="parsed",
            ack=True,
            agent=objective.agent,
        )

    def amend(
        self, turn_id: str, draft: intent.Draft, old_oid: str, now: dt.datetime, ref: str | None
    ) -> Plan:
        """A change said to the draft pending (`runtime.amend`): the old draft
        rejected and the new one drafted, in one write, announced in that
        turn (`objective.draft`, then `objective.rejected`)."""
        objective = draft.objective
        with self._planning([old_oid, objective.id]) as checkpoint:
            book, principal = self.shared.book, self.session.principal
            old = book.reject(principal, old_oid, now=now)
            entry = book.add(
                principal, objective, now=now, session=self.session.id, wording=draft.wording
            )
            rows = [self.shared.row(old), self.shared.row(entry, origin=ref)]
        preview = Preview(summary=draft.summary, uncertain=list(draft.uncertain))
        return Plan(
            checkpoint=checkpoint,
            rows=rows,
            messages=[
                ObjectiveDraft(turn=turn_id, objective=objective, preview=preview),
                ObjectiveRejected(turn=turn_id, objective_id=old_oid, objective=old.objective),
            ],
            spoken=draft.summary,
            status="parsed",
            ack=True,
            agent=objective.agent,
            updated=ObjectiveUpdated(objective=old.objective, by="steward"),
        )

    def reject(self, turn_id: str, oid: str, now: dt.datetime, ref: str | None) -> Plan:
        with self._planning([oid]) as checkpoint:
            entry = self.shared.book.reject(self.session.principal, oid, now=now)
            row = self.shared.row(entry)
        return Plan(
            checkpoint=checkpoint,
            rows=[row],
            messages=[
                ObjectiveRejected(
                    ref=ref, turn=turn_id, objective_id=oid, objective=entry.objective
                )
            ],
            spoken=None,
            status="completed",
            # §9: the steward's other sessions see the draft go.
            updated=ObjectiveUpdated(objective=entry.objective, by="steward"),
        )

    def withdraw(self, oid: str, ref: str | None) -> Plan:
        """The steward takes an objective back: no turn, one `objective.updated`."""
        with self._planning([oid]) as checkpoint:
            entry = self.shared.book.retract(self.session.principal, oid)
            row = self.shared.row(entry)
        updated = ObjectiveUpdated(ref=ref, objective=entry.objective, by="steward")
        return Plan(checkpoint, [row], [updated], spoken=None, status="completed")

    def confirm(
        self,
        turn_id: str,
        oid: str,
        revision: int | None,
        edits: object,
        now: dt.datetime,
        ref: str | None,
    ) -> Plan:
        """The steward's confirm, and the agent's answer when the daemon gives it.

        With the agent's session attached (§9) the confirm is written as
        `offered` and the plan carries the open offer: the answer is planned
        later (`answered`). Otherwise the built-in negotiator answers here,
        written in the same transaction as the confirm: a crash never leaves
        a confirmed objective whose answer was announced but not kept. The
        coercion rule and the agent's own counter-offer are the daemon's:
        they are answered here without asking the agent.
        """
        counter_id = new_id()
        with self._planning([oid, counter_id]) as checkpoint:
            book = self.shared.book
            principal = self.session.principal
            confirmed = book.confirm(
                principal,
                oid,
                now=now,
                revision=revision,
                edits=edits,
                agents=self.shared.roster.names(),
            )
            agent = self._agent_of(confirmed.objective)
            offer = None
            if not confirmed.prior_refusal and not confirmed.own_proposal:
                offer = self.shared.offers.open(oid, agent.name, principal)
            if offer is not None:
                try:
                    entry = book.advance(oid, "offer", principal=principal)
                    confirmed_msg = ObjectiveConfirmed(
                        ref=ref, turn=turn_id, objective_id=oid, objective=entry.objective
                    )
                    return Plan(
                        checkpoint=checkpoint,
                        rows=[self.shared.row(entry)],
                        messages=[confirmed_msg],
                        spoken=None,
                        status="completed",
                        offer=offer,
                        updated=ObjectiveUpdated(objective=entry.objective, by="steward"),
                    )
                except BaseException:
                    self.shared.offers.close(offer)
                    raise
            result = policy_answer(
                book,
                confirmed.objective,
                agent,
                now,
                counter_id,
                prior_refusal=confirmed.prior_refusal,
                own_proposal=confirmed.own_proposal,
            )
            book.advance(oid, "offer", principal=principal)
            # §9: confirming an agent's own counter-offer is that agent's
            # acceptance (it proposed it); everything else here is the policy's.
            own = confirmed.own_proposal and result.decision == "accept"
            by: AnsweredBy = "agent" if own else "policy"
            return self._negotiated(checkpoint, turn_id, oid, result, by, now, ref, confirmed=True)

    def answered(
        self, turn_id: str, oid: str, answer: AgentAnswer | None, now: dt.datetime
    ) -> Plan:
        """The answer to an offer: the agent's, or (None: no answer in time,
        the agent gone) the built-in negotiator's. `TransitionInvalid` if the
        objective moved on meanwhile (withdrawn, expired)."""
        counter_id = new_id()
        with self._planning([oid, counter_id]) as checkpoint:
            entry = self.shared.book.get(self.session.principal, oid)
            agent = self._agent_of(entry.objective)
            if answer is None:
                result = policy_answer(self.shared.book, entry.objective, agent, now, counter_id)
                return self._negotiated(checkpoint, turn_id, oid, result, "policy", now, None)
            msg = answer.msg
            counter = answer_counter(entry.objective, msg, counter_id, self.shared.roster, now)
            result = intent.NegotiationOutcome(
                objective_id=oid,
                agent=agent.name,
                decision=msg.decision,
                reply=msg.reply,
                reason=msg.reason,
                evidence=list(msg.evidence),
                counter=counter,
            )
            return self._negotiated(checkpoint, turn_id, oid, result, "agent", now, None)

    def _agent_of(self, objective: Objective) -> intent.Agent:
        agent = self.shared.roster.get(objective.agent)
        if agent is None:
            raise ProtocolError(
                "objective_invalid",
                f"agent: {objective.agent!r} is not in the roster",
                details={"fields": ["agent"]},
            )
        return agent

    def _negotiated(
        self,
        checkpoint: intent.Checkpoint,
        turn_id: str,
        oid: str,
        result: intent.NegotiationOutcome,
        answered_by: AnsweredBy,
        now: dt.datetime,
        ref: str | None,
        *,
        confirmed: bool = False,
    ) -> Plan:
        """Apply an answer to an offered objective: the stored status is the
        answer's (lifecycle, §9); a counter-offer adds the agent's draft."""
        book = self.shared.book
        principal = self.session.principal
        entry = book.advance(oid, result.decision, principal=principal)
        objective = entry.objective  # e.g. accepted, accepted_by_agent: true
        rows = [self.shared.row(entry)]
        audits = []
        if result.audit is not None:
            detail = msgspec.to_builtins(result.audit)
            audits.append(
                AuditRow(at_ms=now_ms(), kind=result.audit.type, principal=principal, detail=detail)
            )
        messages: list[Outbound] = []
        if confirmed:
            messages.append(
                ObjectiveConfirmed(ref=ref, turn=turn_id, objective_id=oid, objective=objective)
            )
        messages.append(
            Negotiation(
                turn=turn_id,
                objective_id=oid,
                decision=result.decision,
                reply=result.reply,
                reason=result.reason,
                evidence=list(result.evidence),
                answered_by=answered_by,
            )
        )
        spoken = result.reply
        if result.counter is not None and self.quota_ok(now):
            counter = book.add(
                principal, result.counter, now=now, session=self.session.id, counter_of=oid
            )
            rows.append(self.shared.row(counter, origin=ref))
            summary = intent.summarise(result.counter, now=now)
            messages.append(
                ObjectiveDraft(
                    turn=turn_id,
                    objective=result.counter,
                    preview=Preview(summary=summary),
                    counter_of=oid,
                )
            )
            spoken = f"{result.reply} {summary}"

        def applied() -> None:
            if result.decision == "refuse":
                # Pushed past an earlier refusal it is coercion, and audited: warn.
                coercion = result.audit is not None
                (log.warning if coercion else log.info)(
                    "objective_refused",
                    principal=principal,
                    session=self.session.id,
                    turn=turn_id,
                    objective_id=oid,
                    agent=objective.agent,
                    answered_by=answered_by,
                    coercion=coercion,
                    # The agent's value names; never the cue words that were said.
                    values=[e[6:] for e in result.evidence if e.startswith("value:")],
                )

        return Plan(
            checkpoint=checkpoint,
            rows=rows,
            audits=audits,
            messages=messages,
            spoken=spoken,
            status="completed",
            applied=applied,
            updated=ObjectiveUpdated(objective=objective, by=answered_by, note=result.reply),
        )


def answer_counter(
    objective: Objective,
    msg: ObjectiveAnswer,
    counter_id: str,
    roster: intent.Roster,
    now: dt.datetime,
) -> Objective | None:
    """The draft an agent's counter-offer proposes (None for other answers);
    `objective_invalid` naming every bad field, like a steward's edit."""
    if msg.decision != "counter-offer":
        if msg.counter is not None:  # §9: "only with counter-offer"
            raise ProtocolError(
                "objective_invalid",
                f"counter: only a counter-offer proposes an objective, not {msg.decision}",
                details={"fields": ["counter"]},
            )
        return None
    if msg.counter is None:
        raise ProtocolError(
            "objective_invalid",
            "counter: a counter-offer proposes an objective",
            details={"fields": ["counter"]},
        )
    return intent.agent_counter(
        objective, msg.counter, counter_id=counter_id, agents=roster.names(), now=now
    )


def policy_answer(
    book: intent.DraftBook,
    objective: Objective,
    agent: intent.Agent,
    now: dt.datetime,
    counter_id: str,
    *,
    prior_refusal: bool = False,
    own_proposal: bool = False,
) -> intent.NegotiationOutcome:
    """The built-in negotiator's answer. What is on the agent's plate now:
    its standing commitments and its accepted objectives not yet ended
    (durable, in the book)."""
    return intent.negotiate(
        objective,
        intent.with_commitments(agent, book.entries(), now.date()),
        now=now,
        prior_refusal=prior_refusal,
        counter_id=counter_id,
        own_proposal=own_proposal,
    )
