"""The TurnCoordinator: one per session, owning its turns, input and output.

PROTOCOL §5: a turn begins with a final transcript, a `text.input`, a
`squad.send` or a confirm/reject, and ends with exactly one `turn.done`. One
turn is active per session; a new one first ends the old with
`turn.done {cancelled}`. A turn's first message carries `ref` and is sent
synchronously when the turn starts, so that its order is the order of input.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

import msgspec

from vac import intent
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
from vac.runtime.session import Session, new_id
from vac.runtime.speaker import ReplyOutcome, Speaker
from vac.runtime.store import EventLog, now_ms

if TYPE_CHECKING:
    from vac.runtime.pipeline import Pipeline

log = get_logger("vac.turns")
MAX_ENDED_TURNS: Final = 256


def wall_now() -> dt.datetime:
    """The household's local time, for deadlines and the agents' time of day."""
    return dt.datetime.now().astimezone()


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
class _Ended:
    ids: list[str] = field(default_factory=list)

    def add(self, turn_id: str) -> None:
        self.ids.append(turn_id)
        del self.ids[:-MAX_ENDED_TURNS]


class TurnCoordinator:
    def __init__(self, pipeline: Pipeline, session: Session) -> None:
        self.pipeline = pipeline
        self.server = pipeline.server
        self.session = session
        self.active: Turn | None = None
        self.ended = _Ended()
        self.current_agent: str | None = None
        self.speaker: Speaker | None = None
        self.listener: Listener | None = None
        if pipeline.tts is not None:
            self.speaker = Speaker(
                self.server,
                session,
                pipeline.tts,
                pipeline.tts_executor,
                pipeline.next_generation,
                self.server.limits.output_lead_ms,
            )
        if pipeline.stt is not None:
            self.listener = Listener(
                self.server,
                session,
                pipeline.stt,
                pipeline.vad_config,
                pipeline.partial_interval_ms,
                self._on_final,
                self.barge_in,
            )

    # ------------------------------------------------------------ plumbing

    def send(self, msg: Outbound) -> None:
        self.server.send(self.session, msg)

    def error(self, exc: ProtocolError, ref: str | None) -> None:
        self.server.error(self.session, exc.with_ref(ref))

    def _said(self, turn: str | None, role: str, kind: str, text: str) -> None:
        self.pipeline.persist(
            EventLog.said, self.session.id, self.session.principal, turn, role, kind, text, now_ms()
        )

    # ------------------------------------------------------------ dispatch

    def handle(self, msg: InboundMessage, payload: bytes | None) -> None:
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
            case _:
                raise ProtocolError("invalid_message", f"unexpected {type(msg).__name__}")

    def _require_listener(self) -> Listener:
        if self.listener is None:
            raise ProtocolError(
                "provider_unavailable", "voice input is disabled in this daemon's configuration"
            )
        return self.listener

    # ---------------------------------------------------------------- turns

    def _start(
        self,
        trace: LatencyTrace,
        first: Outbound,
        body: Callable[[Turn], Coroutine[Any, Any, None]],
    ) -> Turn:
        """End the active turn, start a new one, send its first message now."""
        self._end_active("cancelled")
        turn = Turn(id=new_id(), trace=trace)
        self.active = turn
        self.send(msgspec.structs.replace(first, turn=turn.id))  # type: ignore[call-arg]
        turn.task = asyncio.ensure_future(self._run(turn, body))
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
        return self._utterance(
            heard.text, heard.confidence, heard.stream, heard.ref, heard.trace, heard.reason
        )

    def _utterance(
        self,
        text: str,
        confidence: float,
        stream: str | None,
        ref: str | None,
        trace: LatencyTrace,
        input_done: InputDoneReason | None,
    ) -> TranscriptFinal:
        first = TranscriptFinal(ref=ref, stream=stream, turn="", text=text, confidence=confidence)
        turn = self._start(trace, first, lambda t: self._utterance_turn(t, text, confidence))
        self._said(turn.id, "user", "said", text)
        if stream is not None:
            self.send(
                AudioInputDone(stream=stream, reason=input_done or "transcribed", turn=turn.id)
            )
        return msgspec.structs.replace(first, turn=turn.id)

    async def _utterance_turn(self, turn: Turn, text: str, confidence: float) -> None:
        now = wall_now()
        book = self.pipeline.book
        reply_kind = intent.classify_reply(text)
        sole = book.sole_pending(self.session.principal, session=self.session.id, now=now)
        if reply_kind is not None and sole is not None:
            oid = sole.objective.id
            if reply_kind == "reject" and confidence >= intent.REJECT_MIN_CONFIDENCE:
                await self._rejected_turn(turn, self._gate_reject(oid, now))
                return
            if reply_kind == "confirm" and confidence >= intent.MIN_CONFIDENCE:
                await self._confirmed_turn(turn, self._gate_confirm(oid, None, None, now))
                return
            if reply_kind == "confirm":
                # A low-confidence "yes" never binds an agent: ask for a clear one.
                summary = intent.summarise(sole.objective, now=now)
                question = (
                    f"I'm not sure I heard yes. {summary} Say 'yes, confirm' clearly, "
                    "or confirm it on screen."
                )
                await self._clarified(turn, "low-confidence-confirm", question)
                return
        t0 = time.perf_counter()
        result = intent.parse(
            text,
            confidence=confidence,
            now=now,
            roster=self.pipeline.roster,
            current_agent=self.current_agent,
            objective_id=new_id(),
        )
        turn.trace.record("parse", (time.perf_counter() - t0) * 1000)
        if isinstance(result, intent.Clarify):
            await self._clarified(turn, result.reason, result.question)
            return
        if not self._draft_quota_ok(now):
            self.error(
                ProtocolError(
                    "rate_limited",
                    "too many pending drafts; confirm or reject some",
                    turn=turn.id,
                    details={"retry_after_ms": 60_000},
                ),
                None,
            )
            self.finish(turn, "failed")
            return
        self.current_agent = result.objective.agent
        await self._add_draft(result.objective, now)
        self.send(
            ObjectiveDraft(
                turn=turn.id, objective=result.objective, preview=Preview(summary=result.summary)
            )
        )
        turn.trace.since_origin("ack")
        status: TurnStatus = "budget-exceeded" if turn.trace.ack_exceeded else "parsed"
        await self._speak(turn, result.summary)
        self.finish(turn, status)

    async def _clarified(self, turn: Turn, reason: str, question: str) -> None:
        self.send(ObjectiveClarify(turn=turn.id, reason=reason, question=question))
        turn.trace.since_origin("ack")
        await self._speak(turn, question)
        self.finish(turn, "needs-clarification")

    def _draft_quota_ok(self, now: dt.datetime) -> bool:
        pending = self.pipeline.book.pending(self.session.principal, now=now)
        return len(pending) < self.pipeline.server.cfg.max_pending_drafts

    async def _add_draft(self, objective: Objective, now: dt.datetime) -> None:
        book = self.pipeline.book
        entry = book.add(self.session.principal, objective, now=now, session=self.session.id)
        # Durable before the steward sees it: a kill -9 never loses a draft.
        save = asyncio.ensure_future(self.pipeline.save_entry(entry))
        try:
            await asyncio.shield(save)
        except asyncio.CancelledError:
            # The turn ended before the draft was shown: it must not stay
            # pending where a later "yes" could confirm it unseen.
            withdrawn = book.withdraw(self.session.principal, objective.id)
            save.add_done_callback(lambda _: self.pipeline.persist_entry(withdrawn))
            raise

    # ------------------------------------------------------- steward gate

    def _gate_confirm(
        self, oid: str, revision: int | None, edits: object, now: dt.datetime
    ) -> intent.Confirmed:
        try:
            return self.pipeline.book.confirm(
                self.session.principal, oid, now=now, revision=revision, edits=edits
            )
        except intent.ObjectiveUnknown:
            raise ProtocolError("objective_unknown", "no such pending objective") from None
        except intent.RevisionStale as exc:
            raise ProtocolError(
                "objective_invalid", f"revision: {exc}", details={"fields": ["revision"]}
            ) from None
        except intent.ObjectiveInvalid as exc:
            raise ProtocolError(
                "objective_invalid", exc.message, details={"fields": exc.fields}
            ) from None

    def _gate_reject(self, oid: str, now: dt.datetime) -> intent.DraftEntry:
        try:
            return self.pipeline.book.reject(self.session.principal, oid, now=now)
        except intent.ObjectiveUnknown:
            raise ProtocolError("objective_unknown", "no such pending objective") from None

    def _confirm(self, ref: str, oid: str, revision: int | None, edits: object) -> None:
        # The gate runs before any turn starts: a refused confirm changes nothing.
        confirmed = self._gate_confirm(oid, revision, edits, wall_now())
        first = ObjectiveConfirmed(
            ref=ref, turn="", objective_id=oid, objective=confirmed.objective
        )
        self._start(LatencyTrace(), first, lambda t: self._negotiate(t, confirmed))

    def _reject(self, ref: str, oid: str) -> None:
        entry = self._gate_reject(oid, wall_now())
        first = ObjectiveRejected(ref=ref, turn="", objective_id=oid, objective=entry.objective)
        self._start(LatencyTrace(), first, lambda t: self._after_reject(t, entry))

    async def _confirmed_turn(self, turn: Turn, confirmed: intent.Confirmed) -> None:
        self.send(
            ObjectiveConfirmed(
                turn=turn.id, objective_id=confirmed.objective.id, objective=confirmed.objective
            )
        )
        await self._negotiate(turn, confirmed)

    async def _rejected_turn(self, turn: Turn, entry: intent.DraftEntry) -> None:
        self.send(
            ObjectiveRejected(
                turn=turn.id, objective_id=entry.objective.id, objective=entry.objective
            )
        )
        await self._after_reject(turn, entry)

    async def _after_reject(self, turn: Turn, entry: intent.DraftEntry) -> None:
        self.pipeline.persist_entry(entry)
        self.finish(turn, "completed")

    async def _negotiate(self, turn: Turn, confirmed: intent.Confirmed) -> None:
        now = wall_now()
        objective = confirmed.objective
        self.pipeline.persist_entry(confirmed.entry)
        agent = self.pipeline.roster.get(objective.agent) or self.pipeline.roster.first
        result = intent.negotiate(
            objective, agent, now=now, prior_refusal=confirmed.prior_refusal, counter_id=new_id()
        )
        await self.pipeline.settle(self.session.principal, confirmed, result)
        self.send(
            Negotiation(
                turn=turn.id,
                objective_id=objective.id,
                decision=result.decision,
                reply=result.reply,
                reason=result.reason,
                evidence=list(result.evidence),
            )
        )
        spoken = result.reply
        if result.counter is not None and self._draft_quota_ok(now):
            await self._add_draft(result.counter, now)
            summary = intent.summarise(result.counter, now=now)
            self.send(
                ObjectiveDraft(
                    turn=turn.id, objective=result.counter, preview=Preview(summary=summary)
                )
            )
            spoken = f"{result.reply} {summary}"
        await self._speak(turn, spoken)
        self.finish(turn, "completed")

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
        first = SquadMessage(
            ref=msg.id,
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
