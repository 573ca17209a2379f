"""The TurnCoordinator: one per session, owning its turns, input and output.

PROTOCOL §5: a turn begins with a final transcript, a `text.input`, a
`squad.send` or a confirm/reject, and ends with exactly one `turn.done`. One
turn is active per session; a new one first ends the old with
`turn.done {cancelled}`. A turn's first message carries `ref` and is sent
synchronously when the turn starts, so that its order is the order of input.

Write, then acknowledge: every decision a client is told about (a draft, a
confirm or reject, the agent's answer) is planned against the draft book
(`decisions.py`), written to the event log with the message id's outcome,
and only then sent (`durable.py`). While that write is in flight the
session's later input is held and handled after it, in order. A failed
write rolls the book back and answers `provider_unavailable` (retryable).

The turn rules are a table (`vac.lifecycle.turn`), carried out by
`turns.py`. Errors are reported in one way: a `VacError` keeps its own code
and message, gains the `ref`/`turn` it is about, and goes to
`transport.error`; anything else is a bug, answered `internal`.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
from typing import Final

from vac import intent
from vac.clock import monotonic_ns, now_ms, wall_now
from vac.errors import VacError
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
    ObjectiveAnswer,
    ObjectiveClarify,
    ObjectiveConfirm,
    ObjectiveList,
    ObjectiveProgress,
    ObjectiveReject,
    ObjectiveWithdraw,
    Outbound,
    SquadAnswer,
    SquadSend,
    SquadWithdraw,
    TextInput,
    TranscriptFinal,
    TurnCancel,
    tag_of,
)
from vac.runtime import amend, several
from vac.runtime.announcer import Announcer
from vac.runtime.choices import Clarification, PendingChoice, called
from vac.runtime.decisions import Plan, Planner
from vac.runtime.durable import DecisionSteps
from vac.runtime.heard import FinalHeard
from vac.runtime.latency import LatencyTrace
from vac.runtime.listener import Listener
from vac.runtime.listing import answer_listing, check_room
from vac.runtime.permissions import posted_plan, requested_plan, spoken_answer, typed_answer
from vac.runtime.routing import Routing, as_sender, check_role
from vac.runtime.session import Session, new_id
from vac.runtime.shared import SharedState
from vac.runtime.speaker import Speaker
from vac.runtime.squad_wire import routed_or_refused, squad_message
from vac.runtime.store import StorageUnavailable
from vac.runtime.stream_records import StreamRecords
from vac.runtime.tasks import TaskSet
from vac.runtime.turns import Turn, TurnRunner

log = get_logger("vac.turns")
# What a bug is answered with: the session goes on.
_BUG: Final = "the daemon failed on this message"
_BUSY: Final = "the event log is slow; this message was not handled"


class TurnCoordinator:
    def __init__(self, shared: SharedState, session: Session) -> None:
        self.shared = shared
        self.transport = shared.transport
        self.session = session
        self.current_agent: str | None = None
        self.speaker: Speaker | None = None
        self.listener: Listener | None = None
        if shared.tts is not None:
            self.speaker = Speaker(
                self.transport,
                session,
                shared.tts,
                shared.tts_executor,
                shared.next_generation,
                self.transport.limits.output_lead_ms,
            )
        if shared.stt is not None:
            self.listener = Listener(
                self.transport,
                session,
                shared.stt,
                shared.vad_config,
                shared.partial_interval_ms,
                self._on_final,
                self.barge_in,
                lambda: self._sole_pending(wall_now()) is not None,
                StreamRecords(shared.store, shared.writes, session),
            )
        self.turns = TurnRunner(self.transport, session, self.speaker, self._said)
        self.announcer = Announcer(session, self.turns, self.speaker is not None)  # §9 updates
        self.planner = Planner(shared, session)
        self.several = several.Several(self.planner)  # "yes to the gate one"
        self.choice = PendingChoice()  # "Did you mean Imani or Abeni?", awaiting its answer
        # `shared.commit` is looked up at each write: tests make it slow or fail.
        self.steps = DecisionSteps(lambda step: shared.commit(step), shared.book, session.id)
        self.routing = Routing(shared, session, self.planner, self.steps)  # §9 offers
        self._listings = TaskSet()  # objective.list reads: cancelled on detach

    # ------------------------------------------------------------ plumbing

    def send(self, msg: Outbound) -> None:
        self.transport.send(self.session, msg)

    def error(self, exc: VacError, ref: str | None) -> None:
        self.transport.error(self.session, exc.with_ref(ref))

    def _said(self, turn: str | None, role: str, kind: str, text: str) -> None:
        self.shared.writes.said(
            self.session.id, self.session.principal, turn, role, kind, text, now_ms()
        )

    # ------------------------------------------------------------ dispatch

    def handle(self, msg: InboundMessage, payload: bytes | None) -> None:
        if not self.steps.writing:
            self._handle_now(msg, payload)
        elif self.steps.has_room:
            self.steps.hold(lambda: self._handle_now(msg, payload))
        else:
            busy = ProtocolError("busy", _BUSY, details={"retry_after_ms": 200})
            self.error(busy, msg.id)

    def _handle_now(self, msg: InboundMessage, payload: bytes | None) -> None:
        try:
            self._dispatch(msg, payload)
        except VacError as exc:
            self.error(exc, msg.id)
        except Exception:
            # A bug answers `internal` for this message; the session goes on.
            log.exception("message_failed", session=self.session.id, type=type(msg).__name__)
            self.error(ProtocolError("internal", _BUG), msg.id)

    def _dispatch(self, msg: InboundMessage, payload: bytes | None) -> None:
        check_role(self.session, msg)  # an agent answers; a steward decides (§9)
        match msg:
            case TextInput():
                self._utterance(msg.text, 1.0, None, msg.id, LatencyTrace(), None)
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
                # An ended turn, also one known from before a restart: a no-op (§5.2).
                if (self.listener is None or not self.listener.cancel_turn(msg.turn)) and (
                    msg.turn not in self.session.replies.ended_turns
                ):
                    self.turns.cancel(msg.turn, msg.played_ms)
            case AudioOutputPlayed():
                if not self.turns.played(msg.stream, msg.played_ms):
                    raise ProtocolError(
                        "stream_unknown", "no such output stream", stream=msg.stream
                    )
            case SquadSend():
                self._squad(msg)
            case ObjectiveList():
                check_room(len(self._listings))
                self._listings.spawn(answer_listing(self.shared, self.session, msg, self))
            case ObjectiveWithdraw():
                self.routing.withdraw(msg.id, msg.objective_id, self._write_failed)
            case ObjectiveAnswer() | ObjectiveProgress() | SquadWithdraw():  # an agent's (§9)
                self.routing.from_agent(msg, lambda e: self._write_failed(e, msg.id, None))
            case SquadAnswer():
                plan = typed_answer(self.shared, self.session, turn_id := new_id(), msg)
                self._typed_decision(msg.id, turn_id, plan)
            case _:
                raise ProtocolError("invalid_message", f"unexpected {tag_of(type(msg))}")

    def _require_listener(self) -> Listener:
        if self.listener is None:
            raise ProtocolError(
                "provider_unavailable", "voice input is disabled in this daemon's configuration"
            )
        return self.listener

    def barge_in(self) -> None:
        """The listener heard the user start speaking (§5.2)."""
        self.turns.barge_in()

    # ------------------------------------------------------------ utterances

    def _on_final(self, heard: FinalHeard) -> TranscriptFinal | None:
        turn_id = heard.turn_id or new_id()
        args = (heard.text, heard.confidence, heard.stream, heard.ref, heard.trace, heard.reason)
        if not self.steps.writing:
            return self._utterance(*args, turn_id=turn_id, evidence=heard.evidence)

        # A decision is being written: this utterance comes after it. Its
        # turn id is fixed now so a repeated commit is answered the same.
        def later() -> None:
            self._utterance(*args, turn_id=turn_id, evidence=heard.evidence)

        self.steps.hold(later)
        return TranscriptFinal(
            ref=heard.ref,
            stream=heard.stream,
            turn=turn_id,
            text=heard.text,
            confidence=heard.confidence,
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
        evidence: intent.Evidence | None = None,
    ) -> TranscriptFinal:
        """Start an utterance's turn and decide what it means, here and now.

        The decision is planned synchronously, in input order: a confirm or
        a text that arrives after it is handled after it, never in between.
        """
        turn_id = turn_id or new_id()
        final = TranscriptFinal(
            ref=ref, stream=stream, turn=turn_id, text=text, confidence=confidence
        )
        heard: list[Outbound] = [final]
        if stream is not None:
            heard.append(
                AudioInputDone(stream=stream, reason=input_done or "transcribed", turn=turn_id)
            )
        turn = self.turns.open(turn_id, trace)
        for msg in heard:
            self.send(msg)
        self._said(turn.id, "user", "said", text)
        try:
            meaning = self._meaning(turn, text, confidence, ref, evidence)
        except VacError as exc:
            exc.turn = turn.id
            self.error(exc, ref)
            self.turns.finish(turn, "failed")
        except Exception:
            # A bug in understanding ends this turn `failed`; the session goes on.
            log.exception("turn_failed", session=self.session.id, turn=turn.id)
            self.error(ProtocolError("internal", "the daemon failed on this turn"), ref)
            self.turns.finish(turn, "failed")
        else:
            if isinstance(meaning, Plan):
                plan = meaning
                step = self._decision_step(turn, ref, heard, plan)
                self.turns.begin(turn, lambda t: self._decided(t, step, plan))
            else:
                asked = meaning.asked(turn.id)
                wrote = self.steps.question(self.session, ref, [*heard, asked])
                self.turns.begin(turn, lambda t: self._clarified(t, asked, wrote, ref))
        return final

    def _sole_pending(self, now: dt.datetime) -> intent.DraftEntry | None:
        book, session = self.shared.book, self.session
        return book.sole_pending(session.principal, session=session.id, now=now)

    def _meaning(
        self,
        turn: Turn,
        text: str,
        confidence: float,
        ref: str | None,
        evidence: intent.Evidence | None = None,
    ) -> Plan | Clarification:
        """A decision to write, or a clarification."""
        now = wall_now()
        asked = self.choice.just_asked()
        # An answer to the question just asked first ("no, Zuri" to "Who should do it?")
        if picked := self.choice.answer_heard(
            text, confidence, evidence, now, self.shared.roster.names()
        ):
            text, confidence, evidence = picked, 1.0, None  # the steward completed the words
        sole = self._sole_pending(now)  # the audio's reply scores only answer a draft
        reading = amend.Reading(now, self.shared.roster, self.current_agent)
        if not picked and sole and (new := reading.changed(text, confidence, evidence, sole)):
            return amend.planned(self.planner, turn.id, new, sole, now, ref)  # "no, Zuri"
        words = (text, confidence, evidence)  # "yes to the gate one" while two drafts wait:
        if not picked and (one := self.several.pick(turn.id, words, now)):
            return one
        reply = intent.spoken_reply(text, confidence, evidence, rescored_ok=sole is not None)
        if reply is not None and sole is not None:
            said = self.choice.to_the_draft(reply, sole, asked, now)
            if said == "reject":
                return self.planner.reject(turn.id, sole.objective.id, now, None)
            if said == "confirm":
                return self.planner.confirm(turn.id, sole.objective.id, None, None, now, None)
            if isinstance(said, Clarification):
                return said
        if reply is not None and sole is None:  # "yes, go ahead" to a permission-request
            granted = spoken_answer(self.shared, self.session, turn.id, reply.kind, reply.sure, ref)
            if granted is not None:
                return granted
            no = reply.kind == "reject"  # after a question: answer it; two drafts: which one?
            if many := self.choice.in_words(asked, no) or self.several.waiting(now, no):
                return many
        t0_ns = monotonic_ns()
        # Words with evidence are weighed slot by slot, not by one number.
        result = self.choice.weighed(reading.understood(text, confidence, evidence), bool(picked))
        turn.trace.record("parse", (monotonic_ns() - t0_ns) / 1e6)
        if isinstance(result, intent.Clarify):
            self.choice.offer(result, spoken=evidence is not None and bool(evidence.words))
            self.current_agent = called(result, self.shared.roster) or self.current_agent
            question = self.several.still_waiting(result, sole, now)
            return Clarification(result.reason, question, result.candidates)
        if (over := self.planner.over_quota(now)) is not None:
            raise ProtocolError("rate_limited", over, details={"retry_after_ms": 60_000})
        return self.planner.draft(turn.id, result, now, ref)

    async def _clarified(
        self, turn: Turn, asked: ObjectiveClarify, wrote: asyncio.Task[None] | None, ref: str | None
    ) -> None:
        try:
            await asyncio.shield(wrote) if wrote is not None else None
        except Exception as exc:  # not written: never asked (write, then acknowledge)
            self.choice.drop()  # nor answered: the next words are their own
            self._write_failed(exc, ref, turn.id)
            self.turns.finish(turn, "failed")
            return
        self.send(asked)
        turn.trace.since_origin("ack")
        await self.turns.speak(turn, asked.question)
        over = turn.trace.ack_exceeded  # §8: a question over the budget is over it too
        self.turns.finish(turn, "budget-exceeded" if over else "needs-clarification")

    # ------------------------------------------------- decisions, durably

    def _decision_step(
        self, turn: Turn, ref: str | None, heard: list[Outbound], plan: Plan
    ) -> asyncio.Task[None]:
        """Start writing an utterance's decision (its turn is open already)."""
        replies = [*heard, *plan.messages]
        step = self.steps.step_of(plan, self.session, ref, replies)

        def announce() -> None:
            self._applied(plan)
            if not turn.done:  # ended by a detach meanwhile: durable, replayed on repeat
                for msg in plan.messages:
                    self.send(msg)
                if plan.ack:
                    turn.trace.since_origin("ack")
            if ref is not None:
                self.session.replies.settle(ref, replies)
            self.routing.announced(turn.id, plan)  # pushes; a spoken confirm's offer

        def failed(exc: BaseException) -> None:
            self.routing.not_written(plan)
            self._write_failed(exc, ref, turn.id)
            self.turns.finish(turn, "failed")

        return self.steps.run(step, plan.checkpoint, announce, failed)

    def _applied(self, plan: Plan) -> None:
        plan.applied()
        if plan.agent is not None:
            self.current_agent = plan.agent

    async def _decided(self, turn: Turn, step: asyncio.Task[None], plan: Plan) -> None:
        try:
            await asyncio.shield(step)
        except Exception:
            return  # rolled back, and the client was told (`failed`)
        await self._after_decision(turn, plan)

    async def _after_decision(self, turn: Turn, plan: Plan) -> None:
        if plan.offer is not None:  # §9: the agent's answer (or the policy's)
            answered = await self.routing.resolution(turn.id)
            plan = answered or dataclasses.replace(plan, offer=None, spoken=None)
        status = plan.status
        if plan.ack and turn.trace.ack_exceeded:
            status = "budget-exceeded"
        if plan.spoken:
            await self.turns.speak(turn, plan.spoken)
        self.turns.finish(turn, status)

    def _typed_decision(self, ref: str, turn_id: str, plan: Plan) -> None:
        """A typed confirm or reject: its turn starts once the decision is durable."""
        trace = LatencyTrace()
        step = self.steps.step_of(plan, self.session, ref, plan.messages)

        def announce() -> None:
            self._applied(plan)
            turn = self.turns.open(turn_id, trace)
            for msg in plan.messages:
                self.send(msg)
            # After sending: the stored outcome replaces what `send` recorded.
            self.session.replies.settle(ref, plan.messages)
            self.routing.announced(turn_id, plan)
            self.turns.begin(turn, lambda t: self._after_decision(t, plan))

        def failed(exc: BaseException) -> None:
            self.routing.not_written(plan)
            self._write_failed(exc, ref, None)

        self.steps.run(step, plan.checkpoint, announce, failed)

    def _confirm(self, ref: str, oid: str, revision: int | None, edits: object) -> None:
        # Planned before any turn starts: a refused confirm changes nothing.
        turn_id = new_id()
        plan = self.planner.confirm(turn_id, oid, revision, edits, wall_now(), ref)
        self._typed_decision(ref, turn_id, plan)

    def _reject(self, ref: str, oid: str) -> None:
        turn_id = new_id()
        self._typed_decision(ref, turn_id, self.planner.reject(turn_id, oid, wall_now(), ref))

    def _write_failed(self, exc: BaseException, ref: str | None, turn: str | None) -> None:
        """A decision was not written: nothing changed, say so (retryable)."""
        if isinstance(exc, asyncio.CancelledError):
            return  # shutting down: the session is gone
        if isinstance(exc, StorageUnavailable):
            log.warning(
                "decision_write_failed",
                principal=self.session.principal,
                session=self.session.id,
                error=str(exc),  # the reason, one line, no paths or data
            )
        err = exc if isinstance(exc, VacError) else ProtocolError("internal", _BUG)
        err.turn = turn
        self.error(err, ref)

    # ---------------------------------------------------------------- squad

    def _squad(self, msg: SquadSend) -> None:
        routed = routed_or_refused(self.shared.route_squad(as_sender(self.session, msg)))
        heard_by_steward = "steward" in routed.recipients
        first = squad_message(routed, msg.id, turn_id := new_id(), new_id(), self.session.principal)
        # The original text goes to the rendering gate: its line structure is
        # what tells prose from code.
        spoken = msg.text if heard_by_steward else None
        if first.kind == "permission-request":  # open for a day, restarts too: written first
            plan = requested_plan(self.shared, self.session, first, spoken)  # or rate_limited
        else:
            # Written (its id's outcome) before anyone hears it: the same id
            # sent again, after a restart too, is answered, never posted twice
            # (a client-author probe: a directed order was delivered again).
            plan = posted_plan(self.shared, self.session, first, spoken)
        self._said(turn_id, "user", "squad", msg.text)
        return self._typed_decision(msg.id, turn_id, plan)

    # ------------------------------------------------------------ lifecycle

    def detached(self, reason: str) -> None:
        """The session detached: stop its work. Decisions being written are
        never cancelled (see `durable.py`); `drain` waits for them."""
        if self.listener is not None:
            # Idle ends the open stream with `audio.input.done {idle}` (§3);
            # any other detach just stops the work.
            if reason == "idle":
                self.listener.cancel_open("idle")
            self.listener.close_all()
        self.announcer.stop()
        self.turns.detach()
        self._listings.cancel()

    @property
    def writing(self) -> bool:
        """Whether a decision of this session is being written."""
        return self.steps.writing

    async def settled(self) -> None:
        """Wait, without a bound, for the decisions being written (never cancelled)."""
        await self.steps.settled()

    async def drain(self, timeout_s: float) -> int:
        """Wait (bounded) for the decisions being written; return how many were cut."""
        return await self.steps.drain(timeout_s)
