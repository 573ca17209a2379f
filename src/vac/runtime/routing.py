"""Negotiation routing for one session (PROTOCOL §9): the steward's side of an
offer, and an agent's answers and progress reports.

A steward's confirm that went out as an offer is resolved here: wait for the
agent's answer (or the built-in negotiator's, after `answer_by_ms` or when
the agent's session goes), plan it, write it, and only then announce it to
the steward, the steward's other sessions and the agent. The resolution
belongs to the daemon-wide desk, not to the turn: a barge-in or a detach
stops the spoken reply, never the decision.

An agent's session is checked here too: it answers and reports, and never
starts, confirms, rejects, edits or withdraws work (`unauthorized`).
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Callable

import msgspec

from vac import intent
from vac.clock import wall_now
from vac.errors import VacError
from vac.logs import get_logger
from vac.protocol.errors import ProtocolError
from vac.protocol.messages import (
    AudioInputCancel,
    AudioInputChunk,
    AudioInputCommit,
    AudioInputStart,
    InboundMessage,
    ObjectiveAnswer,
    ObjectiveConfirm,
    ObjectiveDraft,
    ObjectiveProgress,
    ObjectiveReject,
    ObjectiveUpdated,
    ObjectiveWithdraw,
    Outbound,
    SquadSend,
    SquadWithdraw,
    TextInput,
    tag_of,
)
from vac.protocol.objective_lifecycle import Event
from vac.runtime import gone
from vac.runtime.decisions import Plan, Planner, answer_counter, policy_answer
from vac.runtime.durable import DecisionSteps, outcome_of
from vac.runtime.gone import moved_on
from vac.runtime.offers import AgentAnswer, OfferMovedOn, OfferUnknown, OpenOffer
from vac.runtime.permissions import withdrawn_plan
from vac.runtime.session import Session, new_id
from vac.runtime.session import ended as ended_turns
from vac.runtime.shared import SharedState
from vac.runtime.store import Outcome, Step, StorageUnavailable

log = get_logger("vac.agents")

# What only a steward's session may send: work starts and is decided by people.
_STEWARD_ONLY = (
    TextInput,
    AudioInputStart,
    AudioInputChunk,
    AudioInputCommit,
    AudioInputCancel,
    ObjectiveConfirm,
    ObjectiveReject,
    ObjectiveWithdraw,
)
_AGENT_ONLY = (ObjectiveAnswer, ObjectiveProgress, SquadWithdraw)
# An agent's message the routing handles, without a turn.
FromAgent = ObjectiveAnswer | ObjectiveProgress | SquadWithdraw
# A progress report's lifecycle event; `blocked` keeps the work in progress.
_PROGRESS: dict[str, Event] = {
    "in-progress": "in-progress",
    "blocked": "in-progress",
    "done": "done",
    "failed": "failed",
}


def check_role(session: Session, msg: InboundMessage) -> None:
    """`unauthorized` for a message this session's role may not send (§9)."""
    if session.agent is not None and isinstance(msg, _STEWARD_ONLY):
        raise ProtocolError(
            "unauthorized",
            f"an agent's session cannot send {tag_of(type(msg))}: agents answer offers"
            " and report progress; stewards start and decide work",
        )
    if session.agent is None and isinstance(msg, _AGENT_ONLY):
        raise ProtocolError(
            "unauthorized",
            f"a steward's session cannot send {tag_of(type(msg))}: only an agent's session"
            " answers offers, reports progress and withdraws its own permission-requests",
        )


def as_sender(session: Session, msg: SquadSend) -> SquadSend:
    """A squad message is sent as the session's own principal, never as
    anyone else (§1): an agent's as its agent; a steward's as the steward,
    whose `sender` may only be absent, "steward" or its own name."""
    claimed = None if msg.sender is None else msg.sender.strip().lower()
    if session.agent is not None:
        if claimed is not None and claimed != session.agent.lower():
            raise ProtocolError(
                "unauthorized", f"sender: an agent's session sends as {session.agent} only"
            )
        return msgspec.structs.replace(msg, sender=session.agent)
    if claimed not in (None, "steward", session.principal):
        raise ProtocolError(
            "unauthorized",
            "sender: a steward's session sends as the steward only; an agent's"
            " messages come from that agent's own session",
        )
    return msgspec.structs.replace(msg, sender=None)


class Routing:
    """One session's part in negotiation routing."""

    def __init__(
        self,
        shared: SharedState,
        session: Session,
        planner: Planner,
        steps: DecisionSteps,
    ) -> None:
        self.shared = shared
        self.session = session
        self.planner = planner
        self.steps = steps
        # Confirm turns waiting on their offer's resolution, by turn id.
        self._resolving: dict[str, asyncio.Task[Plan | None]] = {}
        # Those of them whose turn ended first (cancelled, or a new turn):
        # their answer comes as `objective.updated`, never in the ended turn.
        self._ended: set[str] = set()

    # --------------------------------------------------- the steward's side

    def announced(self, turn_id: str, plan: Plan) -> None:
        """A decision is durable and its messages sent: push the change (§9)
        and, for a confirm that went out as an offer, send it and resolve it.
        Typed or spoken, and also when the turn ended meanwhile."""
        if plan.updated is not None:
            self.push(plan.updated)
            if plan.updated.by != "steward":  # answered in the confirm: as any answer,
                self._quietly(plan.updated)  # this session too (§9), its reply said already
            for msg in plan.messages:  # §9: the negotiator's safer version, as a change
                if isinstance(msg, ObjectiveDraft) and msg.counter_of is not None:
                    counter = ObjectiveUpdated(
                        objective=msg.objective, by=plan.updated.by, counter_of=msg.counter_of
                    )
                    self.push(counter)
        if plan.offer is not None:
            self.offered(turn_id, plan)

    def not_written(self, plan: Plan) -> None:
        """A decision's write failed: undo what lives outside the book."""
        plan.undo()
        if plan.offer is not None:
            self.shared.offers.close(plan.offer)

    def offered(self, turn_id: str, plan: Plan) -> None:
        """The confirm is durable: send the offer and start resolving it."""
        offer = plan.offer
        assert offer is not None
        entry = self.shared.book.find(offer.objective_id)
        if entry is not None:
            self.shared.offers.send(offer, entry.objective)
        task = self.shared.offers.tasks.spawn(self._resolve(turn_id, offer))
        self._resolving[turn_id] = task
        task.add_done_callback(lambda _t: self._resolving.pop(turn_id, None))

    async def resolution(self, turn_id: str) -> Plan | None:
        """The answer's plan once written (None: moved on, or not written).
        A cancelled turn stops waiting here; the resolution goes on."""
        task = self._resolving.get(turn_id)
        if task is None:
            return None
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            if not task.done():
                self._ended.add(turn_id)  # PROTOCOL §5: nothing after its turn.done
            raise
        except Exception:  # not written: the turn says nothing more
            return None

    async def _resolve(self, turn_id: str, offer: OpenOffer) -> Plan | None:
        try:
            while True:
                answer = await self.shared.offers.wait(offer)
                try:
                    plan = self.planner.answered(turn_id, offer.objective_id, answer, wall_now())
                except VacError as exc:
                    # Withdrawn or expired while it was offered: nothing to answer.
                    if answer is not None:
                        self.shared.transport.error(answer.session, exc.with_ref(answer.msg.id))
                    log.info("offer_moved_on", objective_id=offer.objective_id, error=str(exc))
                    return None
                try:
                    await self._write_answer(plan, answer, turn_id, offer)
                except StorageUnavailable:
                    if answer is None:
                        raise
                    continue  # reopened for the agent's retry (`failed` below)
                log.info(
                    "offer_answered",
                    objective_id=offer.objective_id,
                    agent=offer.agent,
                    answered_by="agent" if answer is not None else "policy",
                )
                return plan
        finally:
            self.shared.offers.close(offer)
            self._ended.discard(turn_id)

    async def _write_answer(
        self, plan: Plan, answer: AgentAnswer | None, turn_id: str, offer: OpenOffer
    ) -> None:
        updated = plan.updated
        assert updated is not None
        outcome = None
        ack: list[Outbound] = []
        if answer is not None:
            ack = [ObjectiveUpdated(ref=answer.msg.id, objective=updated.objective, by="agent")]
            outcome = outcome_of(answer.session, answer.msg.id, ack)
        continued = self._confirm_outcome(turn_id, plan)
        step = Step(
            objectives=plan.rows, audits=plan.audits, outcome=outcome, continued=continued[1]
        )

        def announce() -> None:
            plan.applied()
            ended = turn_id in self._ended
            if ended and continued[0] is not None:
                # The turn ended while the answer was written: the stored
                # outcome has the answer, so memory must say the same (§2).
                ref, msgs = continued[0]
                self.session.replies.settle(ref, ended_turns(msgs))
            for msg in plan.messages:
                if isinstance(msg, ObjectiveDraft) and msg.counter_of is not None:
                    # §9: the safer version reaches the steward's other
                    # sessions as a change; the confirming one gets the draft
                    # in its turn, or the change too once its turn ended.
                    counter = ObjectiveUpdated(
                        objective=msg.objective, by="agent", counter_of=msg.counter_of
                    )
                    here = () if ended else (self.session,)
                    self.shared.push_update(self.session.principal, counter, skip=here)
                    if ended:
                        continue
                elif ended and getattr(msg, "turn", None) == turn_id:
                    continue  # its turn ended: the update below carries the reply
                self.shared.transport.send(self.session, msg)
            # §9: every attached session of the steward, this one too (its
            # `negotiation` belongs to the turn, the update to the objective);
            # not said aloud here when the turn said the reply already.
            here = () if ended else (self.session,)
            skip = (answer.session, *here) if answer is not None else here
            self.shared.push_update(self.session.principal, updated, skip=skip)
            if here:
                self._quietly(updated)
            if answer is not None:
                self.shared.transport.send(answer.session, ack[0])
                answer.session.replies.settle(answer.msg.id, ack)

        def failed(exc: BaseException) -> None:
            log.warning("answer_write_failed", error=str(exc))
            if answer is not None and isinstance(exc, StorageUnavailable):
                # Told "retryable" (§2): its answer sent again must land, not
                # the policy's. Open before the error leaves, for a quick retry.
                self.shared.offers.reopen(offer)
                self.shared.transport.error(answer.session, exc.with_ref(answer.msg.id))

        await asyncio.shield(self.steps.run(step, plan.checkpoint, announce, failed))

    def _confirm_outcome(
        self, turn_id: str, plan: Plan
    ) -> tuple[tuple[str, list[Outbound]] | None, Outcome | None]:
        """The confirm's stored outcome with the answer's messages of its turn
        (`negotiation`, a counter's draft), so a confirm id sent again after a
        restart is answered as it was the first time, not with the confirm
        alone; nothing when its turn ended first (they were never sent in it).
        Also (id, messages), for memory to match if the turn ends meanwhile."""
        ref = self.session.replies.turns.get(turn_id)
        prior = self.session.replies.seen(ref) if ref is not None else None
        if ref is None or prior is None or turn_id in self._ended:
            return None, None
        said = [m for m in plan.messages if getattr(m, "turn", None) == turn_id]
        whole = [*prior, *said]
        return (ref, whole), outcome_of(self.session, ref, whole)

    def _quietly(self, updated: ObjectiveUpdated) -> None:
        """The change to this session as text only: its turn said the reply
        ("Kofi took on: …" was spoken after "I'll build the bench")."""
        if self.session.attached:
            self.shared.transport.send(self.session, msgspec.structs.replace(updated, ref=None))

    def push(self, updated: ObjectiveUpdated, *, skip: Session | None = None) -> None:
        """§9: the change reaches the steward's other sessions (this one has
        its own messages) and the agent's (but `skip`, answered with `ref`)."""
        skipped = (self.session,) if skip is None else (self.session, skip)
        self.shared.push_update(self.session.principal, updated, skip=skipped)

    def withdraw(
        self, ref: str, oid: str, failed: Callable[[BaseException, str | None, None], None]
    ) -> None:
        """The steward takes an objective back: durable first, then
        `objective.updated` here (with `ref`), to the steward's other sessions
        and to the agent's; an open offer for it stops waiting."""
        plan = self.planner.withdraw(oid, ref)
        step = self.steps.step_of(plan, self.session, ref, plan.messages)

        def announce() -> None:
            for msg in plan.messages:
                self.shared.transport.send(self.session, msg)
                if isinstance(msg, ObjectiveUpdated):
                    self.push(msg)
            self.session.replies.settle(ref, plan.messages)
            self.shared.offers.withdrawn(oid)

        self.steps.run(step, plan.checkpoint, announce, lambda e: failed(e, ref, None))

    # ------------------------------------------------------ the agent's side

    def from_agent(self, msg: FromAgent, failed: Callable[[BaseException], None]) -> None:
        match msg:
            case ObjectiveAnswer():
                self.answer(msg)
            case ObjectiveProgress():
                self.progress(msg, failed)
            case SquadWithdraw():
                self.withdraw_request(msg, failed)

    def withdraw_request(self, msg: SquadWithdraw, failed: Callable[[BaseException], None]) -> None:
        """The agent takes back its permission-request: durable first, then
        `squad.withdrawn` here (with `ref`) and wherever the request went."""
        plan = withdrawn_plan(self.shared, self.session, msg)
        step = self.steps.step_of(plan, self.session, msg.id, plan.messages)

        def announce() -> None:
            for sent in plan.messages:
                self.shared.transport.send(self.session, sent)
            self.session.replies.settle(msg.id, plan.messages)
            plan.applied()

        def not_written(exc: BaseException) -> None:
            plan.undo()  # the request is open again: nobody heard it go
            failed(exc)

        self.steps.run(step, plan.checkpoint, announce, not_written)

    def answer(self, msg: ObjectiveAnswer) -> None:
        """An agent answers an offer. A counter that does not validate is
        `objective_invalid` naming its fields, and the offer stays open."""
        try:
            offer = self.shared.offers.offer_of(self.session, msg.offer)
        except OfferUnknown as e:
            # Closed before a restart (not remembered): its id names the
            # objective; this agent's own is told where it went, as below.
            mine = self.shared.book.find(e.objective_id) if e.objective_id else None
            if mine is None and e.objective_id is not None:  # settled: in the store
                self.shared.offers.tasks.spawn(
                    gone.told(self.shared, self.session, msg.id, e.objective_id)
                )
                return
            agent = (self.session.agent or "").lower()
            if mine is None:
                raise
            if mine.objective.agent.strip().lower() != agent or not _shown(mine):
                # Another agent's objective, or a draft never shown to one: as
                # an unknown id's (a client probe told them apart by the message).
                raise intent.ObjectiveUnknown(mine.objective.id) from None
            raise _moved_on(mine) from None
        except OfferMovedOn as e:  # PROTOCOL §9: the current status in details
            moved = self.shared.book.find(e.objective_id)
            if moved is None:
                raise ProtocolError("objective_unknown", "the offered objective is gone") from None
            raise _moved_on(moved) from None
        entry = self.shared.book.find(offer.objective_id)
        if entry is None:
            raise ProtocolError("objective_unknown", "the offered objective is gone")
        answer_counter(entry.objective, msg, new_id(), self.shared.roster, wall_now())  # validates
        self.shared.offers.answer(offer, AgentAnswer(msg, self.session))

    def progress(
        self, msg: ObjectiveProgress, failed: Callable[[BaseException], None], waited: bool = False
    ) -> None:
        """An agent reports on an objective addressed to it: durable, then
        acknowledged (`objective.updated` with `ref`) and pushed to the steward.
        `waited`: once already for its answer (then `busy`, never again)."""
        book = self.shared.book
        entry = book.find(msg.objective_id)
        agent = self.session.agent or ""
        if entry is None:  # settled a while ago, or before a restart: in the store
            self.shared.offers.tasks.spawn(
                gone.told(self.shared, self.session, msg.id, msg.objective_id)
            )
            return
        if entry.objective.agent.strip().lower() != agent.lower() or not _shown(entry):
            # Another agent's objective, a steward's unconfirmed draft (never
            # shown to the agent; a probe read its status) and an unknown one
            # get the same answer, as after a restart (`gone`).
            raise intent.ObjectiveUnknown(msg.objective_id)
        landing = None if waited else self.shared.offers.landing(msg.objective_id)
        if landing is not None:
            # Its answer is still being written: the report lands after it, in
            # the order sent (it was `busy`: a probe's agent sent both at once).
            def again() -> None:
                try:
                    self.progress(msg, failed, waited=True)
                except VacError as exc:
                    self.shared.transport.error(self.session, exc.with_ref(msg.id))

            self.shared.offers.after_landing(landing, again)
            return
        if self.shared.offers.answering(msg.objective_id):  # the policy's, being written
            raise ProtocolError(
                "busy",
                "the answer to this objective's offer is still being written",
                details={"retry_after_ms": 200},
            )
        checkpoint = book.checkpoint([msg.objective_id])
        try:
            entry = book.advance(msg.objective_id, _PROGRESS[msg.state], said=msg.state)
            row = self.shared.row(entry)
        except BaseException:
            book.rollback(checkpoint)
            raise
        note = msg.note or None
        if msg.state == "blocked":
            note = f"blocked: {msg.note}" if msg.note else "blocked"
        updated = ObjectiveUpdated(ref=msg.id, objective=entry.objective, by="agent", note=note)
        step = Step(objectives=[row], outcome=outcome_of(self.session, msg.id, [updated]))

        def announce() -> None:
            self.shared.transport.send(self.session, updated)
            self.session.replies.settle(msg.id, [updated])
            self.shared.push_update(entry.principal, updated, skip=(self.session,))

        self.steps.run(step, checkpoint, announce, failed)


def _shown(entry: intent.DraftEntry) -> bool:
    """Whether its agent has seen it: confirmed by the steward, or its own counter-offer."""
    return entry.objective.confirmed_by_steward or entry.counter_of is not None


def _moved_on(entry: intent.DraftEntry) -> ProtocolError:
    """§9: an answer for an objective that moved on, with its status now."""
    return moved_on(entry.objective.status)


def is_orphan(shared: SharedState, entry: intent.DraftEntry | None) -> bool:
    """Left `offered` with no open offer (a restart, a lost write)."""
    return (
        entry is not None
        and entry.state == "offered"
        and not shared.offers.is_open(entry.objective.id)
    )


def orphans(shared: SharedState) -> list[intent.DraftEntry]:
    return [e for e in shared.book.entries() if is_orphan(shared, e)]


def orphan_answer(
    shared: SharedState, entry: intent.DraftEntry, now: dt.datetime, counter_id: str
) -> tuple[list[intent.DraftEntry], ObjectiveUpdated] | None:
    """The built-in negotiator answers an orphaned offer: applied to the book
    (the caller checkpoints `entry`'s id and `counter_id`); returns the entries
    to write and the update to push, or None when its agent left the roster
    (the steward can still withdraw it)."""
    agent = shared.roster.get(entry.objective.agent)
    if agent is None:
        return None
    result = policy_answer(shared.book, entry.objective, agent, now, counter_id)
    answered = shared.book.advance(entry.objective.id, result.decision)
    written = [answered]
    pending = shared.book.pending(entry.principal, now=now)
    if result.counter is not None and len(pending) < shared.max_pending_drafts:
        counter = shared.book.add(
            entry.principal, result.counter, now=now, counter_of=entry.objective.id
        )
        written.append(counter)
    return written, ObjectiveUpdated(objective=answered.objective, by="policy")
