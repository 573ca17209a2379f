"""The daemon-wide pipeline: engines, the draft book, the roster, generations.

The server hands it session traffic (it implements the port's
`SessionHandler`); it keeps one `TurnCoordinator` per session, which sees it
only as `SharedState` (the two never import each other). Engines
are injected: the daemon builds the real ones (faster-whisper in worker
processes, piper on a thread), tests may pass `None` for a text-only daemon.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any, Final

import msgspec

from vac import intent
from vac.clock import monotonic_s, now_ms, wall_now
from vac.errors import VacError
from vac.logs import get_logger
from vac.protocol.messages import (
    InboundMessage,
    ObjectiveUpdated,
    SquadMessage,
    SquadSend,
)
from vac.protocol.objective import Objective
from vac.runtime.announcer import spoken_update
from vac.runtime.coordinator import TurnCoordinator
from vac.runtime.missed import Kept, Missed
from vac.runtime.offers import OfferDesk
from vac.runtime.permission_desk import OPEN_FOR_S, OpenRequest, PermissionDesk, still_open
from vac.runtime.port import Transport
from vac.runtime.routing import is_orphan, orphan_answer, orphans
from vac.runtime.session import Session, new_id
from vac.runtime.store import AsyncEventLog, EventLog, ObjectiveRow, Step, StorageUnavailable
from vac.runtime.synthesis import SynthesisScheduler
from vac.runtime.tasks import TaskSet
from vac.runtime.writes import Writes
from vac.speech.tts import TtsEngine, TtsError
from vac.speech.vad import VadConfig
from vac.speech.workers import SttPool

log = get_logger("vac.pipeline")
GENERATION_BLOCK: Final = 1000
EXPIRY_SWEEP_S: Final = 60.0
RETENTION_SWEEP_S: Final = 3600.0
# How long closing waits for writes in flight before the event log closes.
CLOSE_DRAIN_S: Final = 2.0


@dataclass
class Engines:
    stt: SttPool | None
    tts: TtsEngine | None
    vad: VadConfig
    partial_interval_ms: int = 700
    tts_workers: int = 1
    tts_max_pending: int = 32
    # How the `ready` log line names each engine ("stt", "tts"): model,
    # voice, settings. The daemon fills it from vac.toml; an engine that is
    # None is "disabled" whatever this says.
    names: dict[str, Any] = field(default_factory=dict)


class Pipeline:
    def __init__(
        self,
        transport: Transport,
        store: AsyncEventLog,
        engines: Engines,
        intent_config: intent.VacIntentConfig,
        *,
        max_pending_drafts: int,
        max_open_objectives: int = 1000,
        max_remembered_refusals: int = intent.DEFAULT_MAX_REFUSALS,
        retention: dict[str, int] | None = None,
        offer_timeout_ms: int = 3000,
    ):
        self.transport = transport
        # `EventLog.prune`'s keyword arguments (the `[retention]` table); None
        # keeps everything.
        self.retention = retention
        self.store = store
        # Writes nobody waits for (history, last seen, expiry): owned here,
        # drained in `close` before the event log closes.
        self.writes = Writes(store)
        self.max_pending_drafts = max_pending_drafts
        self.max_open_objectives = max_open_objectives
        self.stt = engines.stt
        self.tts = engines.tts
        self.vad_config = engines.vad
        self.partial_interval_ms = engines.partial_interval_ms
        self._names = dict(engines.names)
        # Phrases are scheduled (first phrases first, principals in turn), not queued.
        self.tts_executor = SynthesisScheduler(engines.tts_workers, engines.tts_max_pending)
        self.roster = intent_config.roster()
        self.book = intent.DraftBook(
            ttl_s=intent_config.draft_ttl_s, max_refusals=max_remembered_refusals
        )
        self.throttle = intent.BanterThrottle()
        self.coordinators: dict[str, TurnCoordinator] = {}
        self.missed = Missed()  # updates for detached sessions held for a resume
        # Negotiation routing (§9): agent sessions, open offers, their resolutions.
        self.offers = OfferDesk(transport, answer_by_ms=offer_timeout_ms)
        self.permissions = PermissionDesk()  # open permission-requests (§9)
        self._gen_next = 0
        self._gen_end = 0
        self._gen_lock = asyncio.Lock()
        # The expiry and retention sweeper: cancelled in `close`.
        self._sweeps = TaskSet()
        # Waits for the decisions still being written by coordinators that
        # were dropped (bye, forgotten, replaced): bounded in `close`.
        self._retiring = TaskSet()
        features = [
            "text.input",
            "objective.confirm",
            "objective.list",
            "objective.withdraw",
            "squad",
            "resume",
            "idempotency",
            "agents",
        ]
        if self.stt is not None:
            features += ["audio.input", "vad", "transcript.partial", "provisional-final"]
        if self.tts is not None:
            features += ["audio.output", "visemes", "barge-in", "announcement-turns"]
        self.features: tuple[str, ...] = tuple(features)

    # ------------------------------------------------------------ start-up

    async def warm_up(self) -> None:
        """Load state and models before the daemon says it is ready."""
        rows = await self.store.call(_load_objectives, self.book.max_refusals)
        entries, refused = [], []
        for row in rows:
            entry = msgspec.json.decode(row["body"], type=intent.DraftEntry)
            entries.append(entry)
            if row["refused"]:
                refused.append((row["updated_at_ms"], entry))
        # Oldest refusal first: the newest are the ones remembered.
        refused.sort(key=lambda r: r[0])
        self.book.load(entries, refused=[entry for _, entry in refused])
        # Permission-requests of the last day with no answer stay open (§9).
        for request in await self.store.call(_open_requests, now_ms(), monotonic_s()):
            self.permissions.open(request)
        # Offers the last run left unanswered: the built-in negotiator answers
        # them before anyone can attach (§9: a restart loses no objective).
        await self.answer_orphans(announce=False)
        if self.stt is not None:
            await self.stt.start()
        if self.tts is not None:
            start = getattr(self.tts, "start", None)  # a voice elsewhere (ProcessTts)
            if start is not None:
                try:
                    await asyncio.to_thread(start)
                except TtsError as exc:
                    raise TtsError(f"tts: {exc}") from None
            warm = self.tts_executor.submit("", True, self.tts.synthesize, "Ready.")
            await asyncio.wrap_future(warm)
        self._sweeps.spawn(self._sweep())
        await self._prune()
        log.info("pipeline_warm", drafts=len(entries), features=list(self.features))

    def describe(self) -> dict[str, Any]:
        """The engines in use, for the daemon's `ready` log line."""

        def name(kind: str, engine: object | None) -> Any:
            if engine is None:
                return "disabled"
            return self._names.get(kind) or {"engine": type(engine).__name__}

        return {"stt": name("stt", self.stt), "tts": name("tts", self.tts)}

    async def close(self) -> None:
        """Stop every session's work, then wait (bounded) for what must land:
        decisions being written, then the writes nobody waits for. Offers
        still waiting are cut: they stay `offered`, answered at the next start."""
        self._sweeps.cancel()
        live = list(self.coordinators.values())
        for coordinator in live:
            coordinator.detached("shutdown")
        cut = sum(
            await asyncio.gather(
                *(c.drain(CLOSE_DRAIN_S) for c in live),
                self._retiring.drain(CLOSE_DRAIN_S),
                self.offers.tasks.drain(0),
            )
        )
        cut += await self.writes.drain(CLOSE_DRAIN_S)
        await self._sweeps.drain(0)  # cancelled above: let it finish unwinding
        if cut:
            log.warning("close_cut_writes", count=cut)
        try:
            if self.stt is not None:
                await self.stt.close()
        finally:
            await asyncio.to_thread(self.tts_executor.shutdown, CLOSE_DRAIN_S)  # a phrase ends
            # Bridge processes (Ray mode): stopping them may wait for a phrase.
            stop = getattr(self.tts, "close", None)
            if stop is not None:
                await asyncio.to_thread(stop)

    async def _sweep(self) -> None:
        since_prune_s = 0.0
        while True:
            await asyncio.sleep(EXPIRY_SWEEP_S)
            now = wall_now()
            try:
                await self.expire_due(now)
                await self.answer_orphans(announce=True)
                self.book.prune(now)
            except Exception:  # a bug: logged with its traceback; the sweep goes on
                log.exception("sweep_failed")
            since_prune_s += EXPIRY_SWEEP_S
            if since_prune_s >= RETENTION_SWEEP_S:
                since_prune_s = 0.0
                await self._prune()

    async def _prune(self) -> None:
        """Enforce `[retention]`: at start, then hourly. A failure is retried later."""
        if self.retention is None:
            return
        # A session attached for longer than the window is alive, not stale:
        # mark it seen first (the store's one thread keeps this order).
        for session in list(self.transport.attached()):
            if session.attached:
                self.persist(EventLog.session_seen, session.id, now_ms())
        try:
            counts = await self.store.call(EventLog.prune, now_ms(), **self.retention)
        except StorageUnavailable as exc:
            log.warning("retention_failed", error=str(exc))
            return
        if any(counts.values()):
            log.info("retention_pruned", **counts)

    async def answer_orphans(self, *, announce: bool) -> int:
        """Answer, by the built-in negotiator, objectives left `offered` with no
        open offer; each is written before it is pushed. Returns how many."""
        answered = 0
        for listed in orphans(self):
            # Re-read: an earlier answer's write was awaited, and the steward
            # may have withdrawn this one meanwhile.
            entry = self.book.find(listed.objective.id)
            if entry is None or not is_orphan(self, entry):
                continue
            oid, counter_id = entry.objective.id, new_id()
            checkpoint = self.book.checkpoint([oid, counter_id])
            try:
                done = orphan_answer(self, entry, wall_now(), counter_id)
                if done is None:
                    self.book.settle(checkpoint)
                    continue
                written, update = done
                await self.commit(Step(objectives=[self.row(e) for e in written]))
            except (StorageUnavailable, VacError) as exc:
                # Not written: undone, so the next sweep (or start) tries again.
                self.book.rollback(checkpoint)
                log.warning("orphan_answer_failed", objective_id=oid, error=str(exc))
                continue
            except BaseException:
                self.book.rollback(checkpoint)
                raise
            self.book.settle(checkpoint)
            answered += 1
            log.info("orphan_answered", objective_id=oid, status=update.objective.status)
            if announce:
                self.push_update(entry.principal, update)
                for counter in written[1:]:  # §9: its safer version, as a change
                    proposed = ObjectiveUpdated(
                        objective=counter.objective, by="policy", counter_of=oid
                    )
                    self.push_update(entry.principal, proposed)
        return answered

    async def next_generation(self) -> int:
        """Unique within a session and across restarts: blocks reserved durably."""
        async with self._gen_lock:
            if self._gen_next >= self._gen_end:
                first = await self.store.call(
                    EventLog.next_counter, "generation", block=GENERATION_BLOCK
                )
                self._gen_next, self._gen_end = first, first + GENERATION_BLOCK
            self._gen_next += 1
            return self._gen_next - 1

    # ------------------------------------------------------- server hooks

    def _coordinator(self, session: Session) -> TurnCoordinator:
        c = self.coordinators.get(session.id)
        if c is not None and c.session is not session:
            # Its listener and speaker hold the old Session object: start afresh.
            c.detached("replaced")
            self._retire(c)
            c = None
        if c is None:
            c = self.coordinators[session.id] = TurnCoordinator(self, session)
        return c

    def agent_named(self, name: str) -> str | None:
        agent = self.roster.get(name)
        return agent.name if agent is not None else None

    async def on_attached(self, session: Session, resumed: bool) -> list[Objective]:
        coordinator = self._coordinator(session)
        if resumed and coordinator.current_agent is None:
            row = await self.store.call(EventLog.session_row, session.id)
            coordinator.current_agent = row["current_agent"] if row else None
        if resumed and coordinator.listener is not None:
            await coordinator.listener.reload()  # its stream ids, after a restart (§4)
        self.offers.attached(session)  # an agent's: offers go to its latest session
        pending = self.book.pending(session.principal, now=wall_now())
        return [e.objective for e in pending]

    def on_greeted(self, session: Session) -> None:
        # A steward hears every open permission-request (§9), and an agent
        # those asked of it, also one asked before it attached or before a
        # restart: a "yes" answers only what it was told of. The same
        # `message_id`: a client shows it once.
        agent = session.agent
        for request in self.permissions.all_open(monotonic_s()):
            if request.message is not None and (agent is None or request.asked_of(agent)):
                self.transport.send(session, request.message)
        for update in self.missed.take(session.id):  # changed while it was away
            self.transport.send(session, update)
        self.offers.greeted(session)  # an agent's open offers, for the time left

    def on_detached(self, session: Session, reason: str) -> None:
        # Its open offers: the policy answers now, unless it said hello again.
        self.offers.detached(session, coming_back=reason == "rehello")
        coordinator = self.coordinators.get(session.id)
        if coordinator is None:
            return
        coordinator.detached(reason)
        if reason == "bye" or not self.transport.holds(session.id):
            self.coordinators.pop(session.id, None)
            self.missed.forget(session.id)
            self._retire(coordinator)
        else:
            # Remember who the session was talking to, for a resume.
            agent = coordinator.current_agent
            self.persist(EventLog.session_seen, session.id, now_ms(), agent)

    def on_forgotten(self, session_id: str) -> None:
        """The server evicted a detached session from memory (bounded); so do we."""
        self.offers.forget(session_id)
        self.missed.forget(session_id)
        coordinator = self.coordinators.pop(session_id, None)
        if coordinator is not None:
            coordinator.detached("forgotten")
            self._retire(coordinator)

    def _retire(self, coordinator: TurnCoordinator) -> None:
        """A dropped coordinator's decisions in flight still land (they are
        never cancelled): keep waiting for them, so `close` can too."""
        if coordinator.writing:
            self._retiring.spawn(coordinator.settled())

    def on_message(self, session: Session, msg: InboundMessage, payload: bytes | None) -> None:
        self._coordinator(session).handle(msg, payload)

    # ---------------------------------------------------------- persistence

    def persist(self, fn: Any, *args: Any, **kwargs: Any) -> None:
        """Fire a write nobody is told about (see `Writes`)."""
        self.writes.persist(fn, *args, **kwargs)

    async def expire_due(self, now: dt.datetime) -> int:
        """Expire drafts past their lifetime and objectives past their deadline
        day: written in one transaction, then pushed (§9, `by: "daemon"`) to
        the steward's sessions and, once it was offered, to the agent's.
        A failed write is undone and tried again at the next sweep."""
        ids = [e.objective.id for e in self.book.entries()]
        checkpoint = self.book.checkpoint(ids)
        try:
            expired = self.book.expire(now)
            if expired:
                await self.commit(Step(objectives=[self.row(e) for e in expired]))
        except StorageUnavailable as exc:
            self.book.rollback(checkpoint)
            log.warning("expiry_write_failed", error=str(exc))
            return 0
        except BaseException:
            self.book.rollback(checkpoint)
            raise
        self.book.settle(checkpoint)
        for entry in expired:
            self.push_update(
                entry.principal, ObjectiveUpdated(objective=entry.objective, by="daemon")
            )
        return len(expired)

    def row(self, entry: intent.DraftEntry, *, origin: str | None = None) -> ObjectiveRow:
        """The event-log row of an objective's current state."""
        return ObjectiveRow(
            objective_id=entry.objective.id,
            principal=entry.principal,
            session=entry.session,
            revision=entry.objective.revision,
            state=entry.state,
            body=msgspec.json.encode(entry),
            created_at_ms=int(entry.created_at.timestamp() * 1000),
            expires_at_ms=int(entry.expires_at.timestamp() * 1000),
            updated_at_ms=now_ms(),
            refused=self.book.prior_refusal(entry.principal, entry.objective),
            origin=origin,
        )

    async def commit(self, step: Step) -> None:
        """Write one decision in one transaction (fsync'd); raises StorageUnavailable."""
        await self.store.call(EventLog.commit, step)

    def push_update(
        self, principal: str, update: ObjectiveUpdated, *, skip: Collection[Session] = ()
    ) -> None:
        """§9: a change reaches every attached session of its steward and, once
        the steward confirmed it, of its agent (a draft is the steward's
        alone); none of `skip`, and without `ref`: they did not ask. A
        steward's session that speaks also hears it, briefly."""
        copy = msgspec.structs.replace(update, ref=None)
        spoken = spoken_update(update.objective, update.by)
        confirmed = update.objective.confirmed_by_steward
        agent = update.objective.agent.strip().lower()

        def concerns(session: Session) -> bool:
            if session.agent is None:
                return session.principal == principal
            return confirmed and session.agent.lower() == agent

        for session in list(self.transport.attached()):
            if not any(session is s for s in skip) and concerns(session):
                self.transport.send(session, copy)
                if session.agent is None:
                    self._announce(session, spoken)
        self.hold_for_resume(copy, concerns)

    def hold_for_resume(self, msg: Kept, concerns: Callable[[Session], bool]) -> None:
        """Keep `msg` for each session held for a resume that it `concerns`:
        told right after its `hello.ok` (`missed.py`)."""
        for coordinator in self.coordinators.values():
            held = coordinator.session
            if not held.attached and not held.ended and concerns(held):
                self.missed.keep(held.id, msg)

    def _announce(self, session: Session, text: str | None, about: str | None = None) -> None:
        """Also say it, briefly, where the steward listens (queued: `announcer.py`)."""
        coordinator = self.coordinators.get(session.id)
        if text is not None and coordinator is not None and session.agent is None:
            coordinator.announcer.say(text, about=about)

    def unannounce(self, about: str) -> None:
        for coordinator in self.coordinators.values():
            coordinator.announcer.drop(about)

    def share_squad(self, origin: Session, msg: SquadMessage) -> None:
        """The household channel (§9): a squad message reaches every other
        attached session of every steward and of the agents it names, without
        the sender's `ref` and `turn` (it starts no turn there, and is not
        spoken there)."""
        copy = msgspec.structs.replace(msg, ref=None, turn=None)
        named = {r.strip().lower() for r in msg.recipients}
        for session in list(self.transport.attached()):
            if session is origin:
                continue
            # Every steward's session; an agent's only when it is a recipient.
            if session.agent is None or session.agent.lower() in named:
                self.transport.send(session, copy)
            if msg.time_sensitive and "steward" in named:  # heard, behind any reply
                self._announce(session, f"{msg.sender}: {msg.text}", msg.message_id)

    def route_squad(self, msg: SquadSend) -> intent.RoutedMessage:
        message = intent.SquadPost(
            kind=msg.kind, sender=msg.sender or "steward", text=msg.text, to=msg.to
        )
        # The intent errors carry their wire codes (`invalid_message`, `unauthorized`).
        return intent.route(
            message, self.roster, realm="home", now_ms=now_ms(), throttle=self.throttle
        )


# Accepted objectives older than this are never an open commitment (their
# deadline, if any, is a year past); they stay in the log, not in memory.
_COMMITMENT_HORIZON_MS = int(intent.OPEN_HORIZON.total_seconds() * 1000)  # as the book prunes


def _open_requests(log_: EventLog, at_ms: int, at_s: float) -> list[OpenRequest]:
    """Permission-requests of the last day still open, read row by row on
    the store's thread: only the open ones are held."""
    return still_open(log_.permission_rows(at_ms - int(OPEN_FOR_S * 1000)), at_ms, at_s)


def _load_objectives(log_: EventLog, refusals_per_principal: int) -> list[dict[str, Any]]:
    return log_.live_objectives(
        accepted_since_ms=now_ms() - _COMMITMENT_HORIZON_MS,
        refusals_per_principal=refusals_per_principal,
    )
