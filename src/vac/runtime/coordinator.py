"""The TurnCoordinator: one per session, owning its turns, input and output.

PROTOCOL §5: a turn begins with a final transcript, a `text.input`, a
`squad.send` or a confirm/reject, and ends with exactly one `turn.done`. One
turn is active per session; a new one first ends the old with
`turn.done {cancelled}`. A turn's first message carries `ref` and is sent
synchronously when the turn starts, so that its order is the order of input.

Write, then acknowledge: every decision a client is told about (a draft, a
confirm or reject, the agent's answer) is applied to the draft book, written
to the event log in one transaction with the message id's outcome, and only
then sent. While that write is in flight the session's later input is held
(bounded) and handled after it, in order: a decision is one atomic step that
no later message can cancel or overtake. A failed write rolls the book back
and answers `provider_unavailable` (retryable); nothing is half-applied.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
from collections import deque
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

import msgspec

from vac import intent
from vac.clock import monotonic_ns, now_ms, wall_now
from vac.logs import get_logger
from vac.protocol.errors import ProtocolError
from vac.protocol.messages import (
    AudioInputCancel,
    AudioInputChunk,
    AudioInputCommit,
    AudioInputDone,
    AudioInputStart,
    AudioOutputPlayed,
    InboundMessage,
    InputDoneReason,
    Negotiation,
    ObjectiveClarify,
    ObjectiveConfirm,
    ObjectiveConfirmed,
    ObjectiveDraft,
    ObjectiveList,
    ObjectiveListResult,
    ObjectiveReject,
    ObjectiveRejected,
    Outbound,
    Preview,
    SquadMessage,
    SquadSend,
    TextInput,
    TranscriptFinal,
    TurnCancel,
    TurnDone,
    TurnStatus,
)
from vac.protocol.objective import Objective
from vac.runtime.latency import LatencyTrace
from vac.runtime.listener import FinalHeard, Listener
from vac.runtime.outcomes import encode_replies
from vac.runtime.session import Session, new_id
from vac.runtime.speaker import ReplyOutcome, Speaker
from vac.runtime.store import (
    AuditRow,
    EventLog,
    ObjectiveRow,
    Outcome,
    Step,
    StorageUnavailable,
)

if TYPE_CHECKING:
    from vac.runtime.pipeline import Pipeline

log = get_logger("vac.turns")
MAX_ENDED_TURNS: Final = 256
# Input held while a decision is being written (normally a few ms of fsync).
# Bounded: past it the session is answered `busy` until the disk catches up.
MAX_HELD_MESSAGES: Final = 512


class ReplyOverrun(Exception):
    """The client stopped reading and its reply was cancelled (§7)."""


@dataclass
class Turn:
    id: str
    trace: LatencyTrace
    task: asyncio.Task[None] | None = None
    done: bool = False
    muted: bool = False  # barged in on before its reply began: it speaks no more


@dataclass
class Plan:
    """A decision applied to the draft book, not yet written or announced.

    `checkpoint` undoes it; `rows` and `audits` are written with the message
    id's outcome in one transaction; then `messages` are sent, `applied`
    runs, and the turn says `spoken` and ends with `status`.
    """

    checkpoint: intent.Checkpoint
    rows: list[ObjectiveRow]
    messages: list[Outbound]
    spoken: str | None
    status: TurnStatus
    audits: list[AuditRow] = field(default_factory=list)
    ack: bool = False  # the `ack` stage ends when these messages are sent
    applied: Callable[[], None] = lambda: None


# The event log's state of an objective, as PROTOCOL §9 names it.
_LISTED_STATUS: Final[dict[str, str]] = {
    "pending": "draft",
    "confirmed": "confirmed",
    "rejected": "rejected",
    "expired": "expired",
    "refused": "refused",
    "withdrawn": "withdrawn",
}


def _unknown(exc: intent.ObjectiveUnknown) -> ProtocolError:
    # A settled objective is told apart from a missing one only for its own
    # principal (the book raises the same for another principal's id).
    state = exc.detail
    if state in ("confirmed", "rejected", "expired", "refused", "withdrawn"):
        return ProtocolError(
            "objective_unknown",
            f"objective is no longer pending (it is {state})",
            details={"status": state},
        )
    return ProtocolError("objective_unknown", "no such pending objective")


@dataclass
class _Ended:
    ids: list[str] = field(default_factory=list)

    def add(self, turn_id: str) -> None:
        self.ids.append(turn_id)
        del self.ids[:-MAX_ENDED_TURNS]


class TurnCoordinator:
    def __init__(self, pipeline: Pipeline, session: Session) -> None:
        self.pipeline = pipeline
        self.transport = pipeline.transport
        self.session = session
        self.active: Turn | None = None
        self.ended = _Ended()
        self.current_agent: str | None = None
        # The decision being written now, and the input that waits for it.
        self._step: asyncio.Task[None] | None = None
        self._held: deque[Callable[[], None]] = deque()
        self.speaker: Speaker | None = None
        self.listener: Listener | None = None
        if pipeline.tts is not None:
            self.speaker = Speaker(
                self.transport,
                session,
                pipeline.tts,
                pipeline.tts_executor,
                pipeline.next_generation,
                self.transport.limits.output_lead_ms,
            )
        if pipeline.stt is not None:
            self.listener = Listener(
                self.transport,
                session,
                pipeline.stt,
                pipeline.vad_config,
                pipeline.partial_interval_ms,
                self._on_final,
                self.barge_in,
            )

    # ------------------------------------------------------------ plumbing

    def send(self, msg: Outbound) -> None:
        self.transport.send(self.session, msg)

    def error(self, exc: ProtocolError, ref: str | None) -> None:
        self.transport.error(self.session, exc.with_ref(ref))

    def _said(self, turn: str | None, role: str, kind: str, text: str) -> None:
        self.pipeline.persist(
            EventLog.said, self.session.id, self.session.principal, turn, role, kind, text, now_ms()
        )

    # ------------------------------------------------------------ dispatch

    def handle(self, msg: InboundMessage, payload: bytes | None) -> None:
        if self._step is None:
            self._handle_now(msg, payload)
        elif len(self._held) < MAX_HELD_MESSAGES:
            self._held.append(lambda: self._handle_now(msg, payload))
        else:
            self.error(
                ProtocolError(
                    "busy",
                    "the event log is slow; this message was not handled",
                    details={"retry_after_ms": 200},
                ),
                msg.id,
            )

    def _handle_now(self, msg: InboundMessage, payload: bytes | None) -> None:
        try:
            self._dispatch(msg, payload)
        except ProtocolError as exc:
            self.error(exc, msg.id)
        except Exception:
            # A bug answers `internal` for this message; the session goes on.
            log.exception("message_failed", session=self.session.id, type=type(msg).__name__)
            self.error(ProtocolError("internal", "the daemon failed on this message"), msg.id)

    def _dispatch(self, msg: InboundMessage, payload: bytes | None) -> None:
        match msg:
            case TextInput():
                trace = LatencyTrace()
                self._utterance(msg.text, 1.0, None, msg.id, trace, None)
            case AudioInputStart():
                self._require_listener().start(msg)
            case AudioInputChunk():
                assert payload is not None
                self._require_listener().chunk(msg, payload)
            case AudioInputCommit():
                self._require_listener().commit(msg)
            case AudioInputCancel():
                self._require_listener().cancel(msg)
            case ObjectiveConfirm():
                self._confirm(msg.id, msg.objective_id, msg.revision, msg.edits)
            case ObjectiveReject():
                self._reject(msg.id, msg.objective_id)
            case TurnCancel():
                self._turn_cancel(msg)
            case AudioOutputPlayed():
                if self.speaker is None or not self.speaker.played(msg.stream, msg.played_ms):
                    raise ProtocolError(
                        "stream_unknown", "no such output stream", stream=msg.stream
                    )
            case SquadSend():
                self._squad(msg)
            case ObjectiveList():
                task = asyncio.ensure_future(self._list(msg))
                task.add_done_callback(self._list_done(msg.id))
            case _:
                raise ProtocolError("invalid_message", f"unexpected {type(msg).__name__}")

    def _require_listener(self) -> Listener:
        if self.listener is None:
            raise ProtocolError(
                "provider_unavailable", "voice input is disabled in this daemon's configuration"
            )
        return self.listener

    # ---------------------------------------------------------------- turns

    def _open(self, turn_id: str, trace: LatencyTrace) -> Turn:
        """End the active turn and make `turn_id` the active one."""
        self._end_active("cancelled")
        turn = Turn(id=turn_id, trace=trace)
        self.active = turn
        return turn

    def _begin(self, turn: Turn, body: Callable[[Turn], Coroutine[Any, Any, None]]) -> None:
        turn.task = asyncio.ensure_future(self._run(turn, body))

    def _start(
        self,
        trace: LatencyTrace,
        first: Callable[[str], Outbound],
        body: Callable[[Turn], Coroutine[Any, Any, None]],
        turn_id: str | None = None,
    ) -> Turn:
        """End the active turn, start a new one, send its first message now."""
        turn = self._open(turn_id or new_id(), trace)
        self.send(first(turn.id))
        self._begin(turn, body)
        return turn

    async def _run(self, turn: Turn, body: Callable[[Turn], Coroutine[Any, Any, None]]) -> None:
        try:
            # The coroutine is made here, so a turn cancelled before it ran
            # leaves no never-awaited coroutine behind.
            await body(turn)
        except asyncio.CancelledError:
            raise
        except ReplyOverrun:
            self.finish(turn, "failed")  # §7: error, audio.output.done and turn.done failed
        except ProtocolError as exc:
            # A refusal inside a turn (a spoken "yes" to a draft that can no
            # longer be confirmed): named to the client, not a bug.
            exc.turn = exc.turn or turn.id
            self.error(exc, None)
            self.finish(turn, "failed")
        except Exception:
            log.exception("turn_failed", session=self.session.id, turn=turn.id)
            self.finish(turn, "failed")

    def finish(self, turn: Turn, status: TurnStatus) -> None:
        """End a turn with its one `turn.done`."""
        if turn.done:
            return
        turn.done = True
        if self.active is turn:
            self.active = None
        self.ended.add(turn.id)
        # Ids, status and timings only: never the words of the turn.
        log.info(
            "turn_done",
            principal=self.session.principal,
            session=self.session.id,
            turn=turn.id,
            status=status,
            latency_ms=dict(turn.trace.stages_ms),
        )
        self.send(TurnDone(turn=turn.id, status=status, latency_ms=dict(turn.trace.stages_ms)))

    def _end_active(self, status: TurnStatus, played_ms: int | None = None) -> None:
        turn = self.active
        if turn is None:
            return
        self._fence(played_ms)
        if turn.task is not None:
            turn.task.cancel()
        self.finish(turn, status)

    def _fence(self, played_ms: int | None) -> None:
        if self.speaker is None:
            return
        reply = self.speaker.fence(played_ms)
        if reply is not None:
            heard = self.speaker.heard(reply)
            if heard:
                self._said(reply.turn, "agent", "spoken", heard)

    def barge_in(self) -> None:
        """The user started speaking: stop the reply (never reject a draft).

        A reply being spoken is cancelled with its turn. A turn still working
        towards its reply (parsing, saving) goes on, but says nothing: after
        the daemon read the new input, no audio of that turn is sent (§5.2).
        """
        if self.speaker is not None and self.speaker.current is not None:
            self._end_active("cancelled")
        elif self.active is not None:
            self.active.muted = True

    def _turn_cancel(self, msg: TurnCancel) -> None:
        if self.active is not None and self.active.id == msg.turn:
            self._end_active("cancelled", msg.played_ms)
        elif msg.turn not in self.ended.ids:
            raise ProtocolError("turn_unknown", "no such turn", turn=msg.turn)

    async def _speak(self, turn: Turn, text: str) -> ReplyOutcome | None:
        if self.speaker is None or turn.muted:
            return None
        outcome = await self.speaker.speak(turn.id, text, turn.trace)
        if outcome.end == "overrun":
            raise ReplyOverrun
        if outcome.end == "completed" or outcome.end == "silent":
            self._said(turn.id, "agent", "spoken", outcome.heard_text)
        return outcome

    # ------------------------------------------------------------ utterances

    def _on_final(self, heard: FinalHeard) -> TranscriptFinal | None:
        turn_id = new_id()
        args = (heard.text, heard.confidence, heard.stream, heard.ref, heard.trace, heard.reason)
        if self._step is None:
            return self._utterance(*args, turn_id=turn_id)

        # A decision is being written: this utterance comes after it. Its
        # turn id is fixed now so a repeated commit is answered the same.
        def later() -> None:
            self._utterance(*args, turn_id=turn_id)

        self._held.append(later)
        return self._final_msg(heard.text, heard.confidence, heard.stream, heard.ref, turn_id)

    @staticmethod
    def _final_msg(
        text: str, confidence: float, stream: str | None, ref: str | None, turn_id: str
    ) -> TranscriptFinal:
        return TranscriptFinal(
            ref=ref, stream=stream, turn=turn_id, text=text, confidence=confidence
        )

    def _utterance(
        self,
        text: str,
        confidence: float,
        stream: str | None,
        ref: str | None,
        trace: LatencyTrace,
        input_done: InputDoneReason | None,
        *,
        turn_id: str | None = None,
    ) -> TranscriptFinal:
        """Start an utterance's turn and decide what it means, here and now.

        The decision is planned synchronously, in input order: a confirm or
        a text that arrives after it is handled after it, never in between.
        """
        turn_id = turn_id or new_id()
        heard: list[Outbound] = [self._final_msg(text, confidence, stream, ref, turn_id)]
        if stream is not None:
            heard.append(
                AudioInputDone(stream=stream, reason=input_done or "transcribed", turn=turn_id)
            )
        turn = self._open(turn_id, trace)
        for msg in heard:
            self.send(msg)
        self._said(turn.id, "user", "said", text)
        try:
            meaning = self._meaning(turn, text, confidence, ref)
        except ProtocolError as exc:
            exc.turn = turn.id
            self.error(exc, ref)
            self.finish(turn, "failed")
        except Exception:
            # A bug in understanding ends this turn `failed`; the session goes on.
            log.exception("turn_failed", session=self.session.id, turn=turn.id)
            self.error(ProtocolError("internal", "the daemon failed on this turn"), ref)
            self.finish(turn, "failed")
        else:
            if isinstance(meaning, Plan):
                step = self._decision_step(turn, ref, heard, meaning)
                self._begin(turn, lambda t: self._decided(t, step, meaning))
            else:
                reason, question = meaning
                self._begin(turn, lambda t: self._clarified(t, reason, question))
        first = heard[0]
        assert isinstance(first, TranscriptFinal)
        return first

    def _meaning(
        self, turn: Turn, text: str, confidence: float, ref: str | None
    ) -> Plan | tuple[str, str]:
        """A decision to write, or a clarification (reason, question)."""
        now = wall_now()
        book = self.pipeline.book
        reply_kind = intent.classify_reply(text)
        sole = book.sole_pending(self.session.principal, session=self.session.id, now=now)
        if reply_kind is not None and sole is not None:
            oid = sole.objective.id
            if reply_kind == "reject" and confidence >= intent.REJECT_MIN_CONFIDENCE:
                return self._plan_reject(turn.id, oid, now, None)
            if reply_kind == "confirm" and confidence >= intent.MIN_CONFIDENCE:
                return self._plan_confirm(turn.id, oid, None, None, now, None)
            if reply_kind == "confirm":
                # A low-confidence "yes" never binds an agent: ask for a clear one.
                summary = intent.summarise(sole.objective, now=now)
                question = (
                    f"I'm not sure I heard yes. {summary} Say 'yes, confirm' clearly, "
                    "or confirm it on screen."
                )
                return "low-confidence-confirm", question
        t0_ns = monotonic_ns()
        result = intent.parse(
            text,
            confidence=confidence,
            now=now,
            roster=self.pipeline.roster,
            current_agent=self.current_agent,
            objective_id=new_id(),
        )
        turn.trace.record("parse", (monotonic_ns() - t0_ns) / 1e6)
        if isinstance(result, intent.Clarify):
            return result.reason, result.question
        if not self._draft_quota_ok(now):
            raise ProtocolError(
                "rate_limited",
                "too many pending drafts; confirm or reject some",
                details={"retry_after_ms": 60_000},
            )
        return self._plan_draft(turn.id, result, now, ref)

    async def _clarified(self, turn: Turn, reason: str, question: str) -> None:
        self.send(ObjectiveClarify(turn=turn.id, reason=reason, question=question))
        turn.trace.since_origin("ack")
        await self._speak(turn, question)
        self.finish(turn, "needs-clarification")

    def _draft_quota_ok(self, now: dt.datetime) -> bool:
        pending = self.pipeline.book.pending(self.session.principal, now=now)
        return len(pending) < self.pipeline.max_pending_drafts

    # ------------------------------------------------- decisions, durably

    def _critical(
        self,
        step: Step,
        checkpoint: intent.Checkpoint,
        announce: Callable[[], None],
        failed: Callable[[BaseException], None],
    ) -> asyncio.Task[None]:
        """Write `step`, then `announce` it; the session's later input waits for both.

        The task is never cancelled by a turn: once the book has changed, the
        change is either written and announced, or rolled back and `failed`
        says so, before any held input runs.
        """
        previous = self._step
        book = self.pipeline.book

        async def run() -> None:
            if previous is not None:
                await asyncio.wait([previous])  # decisions are written in order
            try:
                await self.pipeline.commit(step)
            except BaseException as exc:
                book.rollback(checkpoint)
                failed(exc)
                raise
            book.settle(checkpoint)
            announce()

        task = asyncio.ensure_future(run())
        self._step = task
        task.add_done_callback(self._step_done)
        return task

    def _step_done(self, task: asyncio.Task[None]) -> None:
        if self._step is task:
            self._step = None
        if not task.cancelled():
            exc = task.exception()
            if exc is not None and not isinstance(exc, StorageUnavailable):
                log.error("decision_failed", session=self.session.id, error=repr(exc))
        while self._held and self._step is None:
            held = self._held.popleft()
            try:
                held()
            except Exception as exc:  # never strand the rest of the queue
                log.error("held_message_failed", session=self.session.id, error=repr(exc))

    def _write_failed(self, exc: BaseException, ref: str | None, turn: str | None) -> None:
        """A decision was not written: nothing changed, say so (retryable)."""
        if isinstance(exc, asyncio.CancelledError):
            return  # shutting down: the session is gone
        if isinstance(exc, StorageUnavailable):
            log.warning(
                "decision_write_failed",
                principal=self.session.principal,
                session=self.session.id,
                error=str(exc),  # one line, no paths or data (StorageUnavailable)
            )
            err = ProtocolError(
                "provider_unavailable",
                "the event log could not be written; nothing was changed, try again",
                turn=turn,
                details={"provider": "storage", "retry_after_ms": 1000},
            )
        else:
            err = ProtocolError("internal", "the daemon failed on this message", turn=turn)
        self.error(err, ref)

    def _step_of(self, plan: Plan, ref: str | None, replies: list[Outbound]) -> Step:
        """What one transaction writes for `plan`: its rows, audits and outcome."""
        try:
            outcome = self._outcome(ref, replies)
        except BaseException:
            self.pipeline.book.rollback(plan.checkpoint)
            raise
        return Step(objectives=plan.rows, audits=plan.audits, outcome=outcome)

    def _outcome(self, ref: str | None, msgs: list[Outbound]) -> Outcome | None:
        if ref is None:
            return None
        return Outcome(
            session=self.session.id,
            msg_id=ref,
            principal=self.session.principal,
            at_ms=now_ms(),
            replies=encode_replies(msgs),
        )

    def _decision_step(
        self, turn: Turn, ref: str | None, heard: list[Outbound], plan: Plan
    ) -> asyncio.Task[None]:
        """Start writing an utterance's decision (its turn is open already)."""
        replies = [*heard, *plan.messages]
        step = self._step_of(plan, ref, replies)

        def announce() -> None:
            plan.applied()
            if not turn.done:  # ended by a detach meanwhile: durable, replayed on repeat
                for msg in plan.messages:
                    self.send(msg)
                if plan.ack:
                    turn.trace.since_origin("ack")
            if ref is not None:
                self.session.replies.settle(ref, replies)

        def failed(exc: BaseException) -> None:
            self._write_failed(exc, ref, turn.id)
            self.finish(turn, "failed")

        return self._critical(step, plan.checkpoint, announce, failed)

    async def _decided(self, turn: Turn, step: asyncio.Task[None], plan: Plan) -> None:
        try:
            await asyncio.shield(step)
        except Exception:
            return  # rolled back, and the client was told (`failed`)
        await self._after_decision(turn, plan)

    async def _after_decision(self, turn: Turn, plan: Plan) -> None:
        status = plan.status
        if plan.ack and turn.trace.ack_exceeded:
            status = "budget-exceeded"
        if plan.spoken:
            await self._speak(turn, plan.spoken)
        self.finish(turn, status)

    def _row(self, entry: intent.DraftEntry, origin: str | None = None) -> ObjectiveRow:
        return self.pipeline.row(entry, origin=origin)

    @contextlib.contextmanager
    def _planning(self, objective_ids: list[str]) -> Iterator[intent.Checkpoint]:
        """Record a decision's changes to the book; any failure while planning
        it undoes them (planning is pure, but not infallible)."""
        book = self.pipeline.book
        checkpoint = book.checkpoint(objective_ids)
        try:
            yield checkpoint
        except BaseException:
            book.rollback(checkpoint)
            raise

    def _plan_draft(
        self, turn_id: str, draft: intent.Draft, now: dt.datetime, ref: str | None
    ) -> Plan:
        book = self.pipeline.book
        objective = draft.objective
        with self._planning([objective.id]) as checkpoint:
            entry = book.add(self.session.principal, objective, now=now, session=self.session.id)
            row = self._row(entry, ref)

        def applied() -> None:
            self.current_agent = objective.agent

        return Plan(
            checkpoint=checkpoint,
            rows=[row],
            messages=[
                ObjectiveDraft(
                    turn=turn_id, objective=objective, preview=Preview(summary=draft.summary)
                )
            ],
            spoken=draft.summary,
            status="parsed",
            ack=True,
            applied=applied,
        )

    def _plan_reject(self, turn_id: str, oid: str, now: dt.datetime, ref: str | None) -> Plan:
        book = self.pipeline.book
        with self._planning([oid]) as checkpoint:
            try:
                entry = book.reject(self.session.principal, oid, now=now)
            except intent.ObjectiveUnknown as exc:
                raise _unknown(exc) from None
            row = self._row(entry)
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
        )

    def _plan_confirm(
        self,
        turn_id: str,
        oid: str,
        revision: int | None,
        edits: object,
        now: dt.datetime,
        ref: str | None,
    ) -> Plan:
        """The steward's confirm and the agent's answer, as one decision.

        The negotiation is pure and quick, so it is decided here and written
        in the same transaction as the confirm: a crash never leaves a
        confirmed objective whose answer was announced but not kept.
        """
        counter_id = new_id()
        with self._planning([oid, counter_id]) as checkpoint:
            book = self.pipeline.book
            principal = self.session.principal
            confirmed = self._gate_confirm(oid, revision, edits, now)
            objective = confirmed.objective
            agent = self.pipeline.roster.get(objective.agent)
            if agent is None:
                raise ProtocolError(
                    "objective_invalid",
                    f"agent: {objective.agent!r} is not in the roster",
                    details={"fields": ["agent"]},
                )
            result = intent.negotiate(
                objective,
                agent,
                now=now,
                prior_refusal=confirmed.prior_refusal,
                counter_id=counter_id,
            )
            entry = confirmed.entry
            if result.decision == "refuse":
                entry = book.record_refusal(principal, oid)
            rows = [self._row(entry)]
            audits = []
            if result.audit is not None:
                detail = msgspec.to_builtins(result.audit)
                audits.append(
                    AuditRow(
                        at_ms=now_ms(), kind=result.audit.type, principal=principal, detail=detail
                    )
                )
            messages: list[Outbound] = [
                ObjectiveConfirmed(ref=ref, turn=turn_id, objective_id=oid, objective=objective),
                Negotiation(
                    turn=turn_id,
                    objective_id=oid,
                    decision=result.decision,
                    reply=result.reply,
                    reason=result.reason,
                    evidence=list(result.evidence),
                ),
            ]
            spoken = result.reply
            if result.counter is not None and self._draft_quota_ok(now):
                counter = book.add(principal, result.counter, now=now, session=self.session.id)
                rows.append(self._row(counter, ref))
                summary = intent.summarise(result.counter, now=now)
                messages.append(
                    ObjectiveDraft(
                        turn=turn_id, objective=result.counter, preview=Preview(summary=summary)
                    )
                )
                spoken = f"{result.reply} {summary}"

            def applied() -> None:
                if result.decision == "accept":
                    self.pipeline.accepted(objective)
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
            )

    # ------------------------------------------------------- steward gate

    def _gate_confirm(
        self, oid: str, revision: int | None, edits: object, now: dt.datetime
    ) -> intent.Confirmed:
        try:
            return self.pipeline.book.confirm(
                self.session.principal, oid, now=now, revision=revision, edits=edits
            )
        except intent.ObjectiveUnknown as exc:
            raise _unknown(exc) from None
        except intent.RevisionStale as exc:
            raise ProtocolError(
                "objective_invalid", f"revision: {exc}", details={"fields": ["revision"]}
            ) from None
        except intent.ObjectiveInvalid as exc:
            raise ProtocolError(
                "objective_invalid", exc.message, details={"fields": exc.fields}
            ) from None

    def _typed_decision(self, ref: str, turn_id: str, plan: Plan) -> None:
        """A typed confirm or reject: its turn starts once the decision is durable."""
        trace = LatencyTrace()
        step = self._step_of(plan, ref, plan.messages)

        def announce() -> None:
            plan.applied()
            turn = self._open(turn_id, trace)
            for msg in plan.messages:
                self.send(msg)
            # After sending: the stored outcome replaces what `send` recorded.
            self.session.replies.settle(ref, plan.messages)
            self._begin(turn, lambda t: self._after_decision(t, plan))

        def failed(exc: BaseException) -> None:
            self._write_failed(exc, ref, None)

        self._critical(step, plan.checkpoint, announce, failed)

    def _confirm(self, ref: str, oid: str, revision: int | None, edits: object) -> None:
        # The gate runs before any turn starts: a refused confirm changes nothing.
        turn_id = new_id()
        plan = self._plan_confirm(turn_id, oid, revision, edits, wall_now(), ref)
        self._typed_decision(ref, turn_id, plan)

    def _reject(self, ref: str, oid: str) -> None:
        turn_id = new_id()
        self._typed_decision(ref, turn_id, self._plan_reject(turn_id, oid, wall_now(), ref))

    # ------------------------------------------------------------ listing

    async def _list(self, msg: ObjectiveList) -> None:
        """PROTOCOL §9 `objective.list`: read from the event log, which holds
        every decision before it is announced, so it is never behind."""
        rows = await self.pipeline.store.call(EventLog.objectives_of, self.session.principal)
        now = wall_now()
        listed: list[Objective] = []
        for row in sorted(rows, key=lambda r: (r["created_at_ms"], r["id"]), reverse=True):
            entry = msgspec.json.decode(row["body"], type=intent.DraftEntry)
            status = _LISTED_STATUS[entry.state]
            if status == "draft" and now >= entry.expires_at:
                status = "expired"  # the sweeper writes it within a minute
            if msg.state is None or msg.state == status:
                listed.append(entry.objective)
        more = len(listed) > msg.limit
        self.send(ObjectiveListResult(ref=msg.id, objectives=listed[: msg.limit], more=more))

    def _list_done(self, ref: str) -> Callable[[asyncio.Future[None]], None]:
        def done(task: asyncio.Future[None]) -> None:
            if task.cancelled() or task.exception() is None:
                return
            log.error("list_failed", session=self.session.id, error=repr(task.exception()))
            self.error(ProtocolError("internal", "the objectives could not be read"), ref)

        return done

    # ---------------------------------------------------------------- squad

    def _squad(self, msg: SquadSend) -> None:
        routed = self.pipeline.route_squad(msg)
        if routed.dropped:
            retry = routed.retry_after_ms or 1000
            raise ProtocolError(
                "rate_limited",
                routed.drop_reason or "squad message dropped",
                details={"retry_after_ms": retry},
            )

        def first(turn_id: str) -> SquadMessage:
            return SquadMessage(
                ref=msg.id,
                turn=turn_id,
                kind=routed.kind,
                sender=routed.sender,
                recipients=list(routed.recipients),
                text=routed.text,
                realm=routed.realm,
                time_sensitive=routed.time_sensitive,
                needs_steward=routed.needs_steward,
                duckable=routed.duckable,
            )

        heard_by_steward = "steward" in routed.recipients
        # The original text goes to the rendering gate: its line structure is
        # what tells prose from code.
        turn = self._start(
            LatencyTrace(), first, lambda t: self._squad_turn(t, msg.text, heard_by_steward)
        )
        self._said(turn.id, "user", "squad", msg.text)

    async def _squad_turn(self, turn: Turn, text: str, spoken: bool) -> None:
        if spoken:
            await self._speak(turn, text)
        self.finish(turn, "completed")

    # ------------------------------------------------------------ lifecycle

    def detached(self, reason: str) -> None:
        if self.listener is not None:
            # Idle ends the open stream with `audio.input.done {idle}` (§3);
            # any other detach just stops the work.
            if reason == "idle":
                self.listener.cancel_open("idle")
            self.listener.close_all()
        if self.active is not None:
            self._end_active("cancelled")
