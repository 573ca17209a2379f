"""The asyncio ROUTER server: the socket loop, admission, and the wiring.

The receive loop does only quick, synchronous work per message (decode,
authorise, dispatch); anything slow (the event log, recognition, synthesis)
runs in tasks: a session's coordinator owns those of its session, the
server owns its handshakes and background writes and drains them at
shutdown. The other concerns live beside it, each in its own module:

- `wire`: the socket's bounds, and reading one message within them;
- `auth`: who may connect (ZAP), and the audit of those refused;
- `quotas`: per-principal and pre-session rates, the session quota;
- `sessions`: the table of sessions and connections (pure);
- `handshake`: answering a hello (open or resume);
- `egress`: bounded output, and the one translation of errors to the wire;
- `vac.lifecycle.session`: the session lifecycle table, whose actions
  `_feed` carries out.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, Final

import zmq
import zmq.asyncio
from zmq.auth.asyncio import AsyncioAuthenticator

from vac.clock import monotonic_s, now_ms
from vac.daemon.auth import AUTH_AUDIT_INTERVAL_S, ZAP_DOMAIN, AuthProvider
from vac.daemon.config import DaemonSection
from vac.daemon.connections import ConnectionWatch
from vac.daemon.egress import RETRY_SEND_S, Egress
from vac.daemon.handshake import Handshakes
from vac.daemon.keys import KeyRegistry, fingerprint, socket_curve_server
from vac.daemon.quotas import (
    EARLY_MESSAGES_PER_S,
    EarlyGates,
    PrincipalBuckets,
    SessionQuota,
    TextBudget,
    refusal,
    retry_after_ms,
)
from vac.daemon.sessions import SessionTable
from vac.daemon.wire import MAX_MESSAGE_TOTAL_BYTES, RecvPacer, recv_message, ref_of, set_bounds
from vac.errors import VacError
from vac.home import Home
from vac.lifecycle.session import BYE_REASON, Action, SessionEvent, reason_of
from vac.logs import get_logger, report_task_failure
from vac.protocol.codec import decode_inbound
from vac.protocol.errors import ProtocolError
from vac.protocol.messages import (
    AudioInputChunk,
    AudioOutputChunk,
    ClientBye,
    Hello,
    InboundMessage,
    Limits,
    Outbound,
    Ping,
    Pong,
    ServerBye,
)
from vac.runtime.durable import settled_within
from vac.runtime.port import SessionHandler
from vac.runtime.session import Session
from vac.runtime.store import AsyncEventLog, EventLog, StorageUnavailable
from vac.runtime.tasks import TaskSet

# Read by the tests (and re-exported so they may patch them here).
__all__ = ["AUTH_AUDIT_INTERVAL_S", "EARLY_MESSAGES_PER_S", "MAX_MESSAGE_TOTAL_BYTES", "Server"]

SHUTDOWN_DRAIN_S: Final = 2.0
# Background writes (audit rows, `session_ended`) get this long to land at shutdown.
WRITES_DRAIN_S: Final = 2.0

log = get_logger("vac.server")


class Server:
    """Implements `runtime.port.Transport`; drives the runtime through `SessionHandler`."""

    def __init__(
        self,
        home: Home,
        section: DaemonSection,
        store: AsyncEventLog,
        pipeline_factory: Callable[[Server], SessionHandler],
        *,
        endpoint: str | None = None,
        auth_audit_interval_s: float | None = None,
    ) -> None:
        self.home = home
        self.cfg = section
        self.store = store
        self.endpoint = endpoint or section.endpoint
        self.registry = KeyRegistry(home.enrolled_dir)
        self.limits = Limits(
            max_chunk_bytes=section.max_chunk_bytes,
            max_utterance_ms=section.max_utterance_ms,
            input_buffer_ms=section.input_buffer_ms,
            output_queue_chunks=section.output_queue_chunks,
            output_lead_ms=section.output_lead_ms,
            continuation_ms=section.continuation_ms,
        )
        self.table = SessionTable(
            max_detached_per_principal=section.max_detached_per_principal,
            max_detached=section.max_detached_sessions,
        )
        self.sessions = self.table.by_id  # the same dict: id -> Session
        self.by_conn = self.table.by_conn
        self.buckets = PrincipalBuckets(float(section.messages_per_s))
        self.text = TextBudget(float(section.text_chars_per_s))
        self.early = EarlyGates(EARLY_MESSAGES_PER_S)
        self.quota = SessionQuota(section.max_sessions_per_principal, section.heartbeat_ms / 1000)
        self.egress = Egress(self.table, self._lost)
        # Sessions whose table actions are being carried out now, and the
        # lost-connection reports that arrived meanwhile (see `_lost`).
        self._feeding: set[str] = set()
        self._lost_meanwhile: list[tuple[Session, SessionEvent, bytes]] = []
        # Owned here, drained at shutdown: nothing runs unawaited.
        self._writes = TaskSet()
        interval_s = (
            AUTH_AUDIT_INTERVAL_S if auth_audit_interval_s is None else auth_audit_interval_s
        )
        self._auth_failures = AuthProvider(self.registry, store, interval_s, self._spawn_write)
        self.ctx = zmq.asyncio.Context()
        self.auth: AsyncioAuthenticator | None = None
        self.bound_endpoint = ""
        self.pipeline = pipeline_factory(self)
        self.handshakes = Handshakes(
            section,
            self.limits,
            store,
            self.table,
            self.egress,
            self.buckets,
            self.quota,
            self.pipeline,
            self._feed,
            agent_of=self.registry.agent_of,
        )

    @property
    def sock(self) -> zmq.asyncio.Socket | None:
        return self.egress.sock

    @property
    def _opening(self) -> dict[str, int]:
        """Hellos being answered that will open a session, per principal."""
        return self.quota.opening

    def _spawn_write(self, coro: Coroutine[Any, Any, None]) -> None:
        """A background write: its failure is logged, shutdown waits for it."""
        self._writes.spawn(coro).add_done_callback(report_task_failure)

    def _audit(self, kind: str, principal: str | None, detail: dict[str, Any]) -> None:
        self._spawn_write(self.store.call(EventLog.audit, now_ms(), kind, principal, detail))

    # ------------------------------------------------------------ lifecycle

    def bind(self) -> str:
        self.auth = AsyncioAuthenticator(self.ctx)
        self.auth.start()
        self.auth.configure_curve_callback(ZAP_DOMAIN, self._auth_failures)
        sock = self.ctx.socket(zmq.ROUTER)
        set_bounds(sock, self.cfg.heartbeat_ms)
        sock.zap_domain = ZAP_DOMAIN.encode()
        socket_curve_server(sock, self.home.server_secret)  # type: ignore[arg-type]
        sock.bind(self.endpoint)
        self.egress.sock = sock
        self.egress.watch = ConnectionWatch(sock, self.ctx)  # a routing id's closing
        self.bound_endpoint = sock.getsockopt_string(zmq.LAST_ENDPOINT)
        return self.bound_endpoint

    async def serve(self, stop: asyncio.Event) -> None:
        """Run until `stop` is set, then shut down as PROTOCOL §3 says."""
        if self.sock is None:
            self.bind()
        async with asyncio.TaskGroup() as tg:
            tasks = [
                tg.create_task(self._recv_loop()),
                tg.create_task(self.egress.run()),
                tg.create_task(self._idle_loop()),
                tg.create_task(self._auth_audit_loop()),
                *([tg.create_task(w.run())] if (w := self.egress.watch) is not None else []),
            ]
            await stop.wait()
            tasks[0].cancel()  # input after the signal is not taken: the `bye` is the last word
            await self._shutdown()
            for t in tasks:
                t.cancel()
        # The loops are gone: hellos being answered are cancelled, writes get to land.
        await self.handshakes.tasks.drain(0)
        await self._writes.drain(WRITES_DRAIN_S)
        self.close()

    async def _shutdown(self) -> None:
        await settled_within(getattr(self.pipeline, "coordinators", {}).values(), SHUTDOWN_DRAIN_S)
        for session in list(self.sessions.values()):
            if session.attached:
                self._feed(session, SessionEvent.SHUTDOWN)
        deadline = monotonic_s() + SHUTDOWN_DRAIN_S
        while monotonic_s() < deadline and any(len(s.outbox) for s in self.table.attached()):
            self.egress.flush_all()
            await asyncio.sleep(RETRY_SEND_S)
        try:
            await self._auth_failures.write_now()
        except StorageUnavailable as exc:
            log.warning("auth_audit_lost", error=str(exc))

    def close(self) -> None:
        if self.auth is not None:
            self.auth.stop()
            self.auth = None
        if self.egress.watch is not None:
            self.egress.watch.close()
        if self.egress.sock is not None:
            self.egress.sock.close(linger=0)
            self.egress.sock = None
        self.ctx.term()

    # ------------------------------------------------- session lifecycle

    def _lost(self, session: Session, event: SessionEvent, rid: bytes) -> None:
        """Egress found the session's peer at `rid` gone (or not reading).

        A report about a connection the session has already left is stale and
        dropped. One that arrives while the session's own actions are being
        carried out (a takeover's `bye {replaced}` to the old, dead peer) waits
        until they are done: acting on it in the middle would detach the
        session from the connection it is just being attached to.
        """
        if session.id in self._feeding:
            self._lost_meanwhile.append((session, event, rid))
        elif session.connection == rid:
            self._feed(session, event)

    def _feed(self, session: Session, event: SessionEvent, rid: bytes | None = None) -> None:
        """Move a session by `event` and carry out the table's actions, in order."""
        if session.id in self._feeding:  # pragma: no cover - a bug of the shell
            # Never raised into the socket loop: logged, and the event dropped.
            log.error("session_event_reentered", session=session.id, event=event.value)
            return
        self._feeding.add(session.id)
        try:
            self._carry_out(session, event, rid)
        finally:
            self._feeding.discard(session.id)
        while self._lost_meanwhile and not self._feeding:
            lost, lost_event, lost_rid = self._lost_meanwhile.pop(0)
            if lost.connection == lost_rid:
                self._feed(lost, lost_event)

    def _carry_out(self, session: Session, event: SessionEvent, rid: bytes | None) -> None:
        reason = reason_of(event)
        for action in self.table.feed(session, event):
            match action:
                case Action.CLEAR_OUTBOX:
                    session.outbox.clear()
                case Action.NOTIFY_DETACHED:
                    self.pipeline.on_detached(session, reason)
                case Action.SEND_BYE:
                    self.egress.send(session, ServerBye(reason=BYE_REASON[event]), record=False)
                case Action.FLUSH:
                    self.egress.flush(session)
                case Action.LOG_DETACHED:
                    if session.connection is not None:
                        log.info(
                            "session_detached",
                            session=session.id,
                            principal=session.principal,
                            reason=reason,
                        )
                case Action.UNBIND:
                    self.egress.settle(session.id)
                    for evicted in self.table.unbind(session):
                        self._feed(evicted, SessionEvent.EVICTED)
                case Action.ATTACH:
                    assert rid is not None, "attach needs the hello's connection"
                    self.table.attach(session, rid, monotonic_s())
                case Action.RELEASE:
                    self.egress.settle(session.id)
                    self.table.release(session)
                case Action.FORGET:
                    self.table.forget(session.id)
                    self.pipeline.on_forgotten(session.id)
                case Action.RECORD_END:
                    self._spawn_write(self.store.call(EventLog.session_ended, session.id, now_ms()))
                    log.info(
                        "session_ended",
                        session=session.id,
                        principal=session.principal,
                        reason=reason,
                    )

    # --------------------------------------------- Transport (runtime.port)

    def send(
        self, session: Session, msg: Outbound, payload: bytes | None = None, *, record: bool = True
    ) -> bool:
        return self.egress.send(session, msg, payload, record=record)

    def try_send_chunk(self, session: Session, msg: AudioOutputChunk, payload: bytes) -> bool:
        return self.egress.try_send_chunk(session, msg, payload)

    def drop_chunks(self, session: Session, generation: int) -> int:
        return self.egress.drop_chunks(session, generation)

    def error(self, session: Session, exc: VacError) -> None:
        if session.connection is not None:
            self.egress.error(session.connection, exc, session=session)

    def attached(self) -> list[Session]:
        return self.table.attached()

    def holds(self, session_id: str) -> bool:
        return self.table.holds(session_id)

    def _send_now(self, frames: list[bytes]) -> None:
        self.egress.send_now(frames)

    # -------------------------------------------------------------- receive

    async def _recv_loop(self) -> None:
        assert self.sock is not None
        pacer = RecvPacer()
        while True:
            frames, problem = await recv_message(self.sock)
            start_s = monotonic_s()
            try:
                self._on_frames(frames, problem)
            except Exception:
                # A bug must never take the daemon down; the client sees a
                # generic error and the log has the traceback (no locals).
                log.exception("dispatch_failed")
            if pacer.handled(monotonic_s() - start_s):
                await asyncio.sleep(0)

    def _on_frames(self, frames: list[zmq.Frame], problem: str | None) -> None:
        rid = frames[0].bytes
        if self.egress.watch is not None:
            self.egress.watch.seen(rid, frames[-1])
        if self.table.silenced(rid):
            return
        # Any data frame carries the connection's metadata; the first always fits.
        user_id = str(frames[-1].get("User-Id") or "")
        principal = self.registry.principal_of(user_id.encode()) if user_id else None
        session = self.table.on(rid)
        if principal is None:
            self._refuse_revoked(rid, session, user_id, ref_of(frames))
            return
        if self.table.owner_of(rid, principal, session) != principal:
            self._take_over(rid, principal, session)
            session = None
        if session is None and not self._early_admit(rid, principal, frames):
            return
        if problem is not None:
            # The frames kept are the message's first ones: its id may be readable.
            exc = ProtocolError("invalid_message", problem, ref=ref_of(frames))
            self.egress.error(rid, exc, session=session, principal=principal)
            return
        try:
            msg, payload = decode_inbound([f.bytes for f in frames[1:]])
        except ProtocolError as exc:
            self.egress.error(rid, exc, session=session, principal=principal)
            return
        if session is None:
            self._pre_session(rid, principal, msg)
            return
        session.last_seen_s = monotonic_s()
        self._in_session(rid, session, msg, payload)

    def _refuse_revoked(
        self, rid: bytes, session: Session | None, user_id: str, ref: str | None
    ) -> None:
        """The key is no longer enrolled (§1): `unauthorized` (with the refused
        message's id, §2, when it can be read), then silence."""
        self.table.silence(rid)
        refusal = ProtocolError("unauthorized", "this key is no longer enrolled", ref=ref)
        principal = None
        if session is not None:
            # In its session first (with `session` and `seq`, §2), then
            # `bye {revoked}`; after that the connection hears nothing more.
            principal = session.principal
            if session.connection == rid:
                session.outbox.clear()  # nothing more of its output reaches this key
            self.egress.error(rid, refusal, session=session)
            self._feed(session, SessionEvent.REVOKED)
        else:
            self.egress.error(rid, refusal, principal=principal)
        log.warning(
            "refused_revoked_key",
            principal=principal,
            fingerprint=fingerprint(user_id.encode()) if user_id else None,
        )
        self._audit("revoked_key_used", principal, {"session": session.id if session else None})

    def _take_over(self, rid: bytes, principal: str, session: Session | None) -> None:
        """An enrolled principal on a routing id another one used before.

        libzmq lets a second peer use a routing id only once the first
        peer's connection is gone, so this is a new connection, and the
        routing id is its principal's now (§1: never identity). Before,
        it was refused for as long as the daemon remembered the first owner:
        one principal could lock another out of a routing id it chose (a
        host name) with a single ping. The first owner's session bound here,
        if any, is detached (resumable, no `bye`): it cannot be reached here
        any more, and none of its output goes to the new peer. Nothing is
        audited: it says nothing against either principal.
        """
        if session is not None:
            self._feed(session, SessionEvent.UNREACHABLE)
        self.table.remember_owner(rid, principal)
        self.early.forget(rid)
        log.info("routing_id_taken_over", principal=principal)

    def _early_admit(self, rid: bytes, principal: str, frames: list[zmq.Frame]) -> bool:
        """The per-connection limit on traffic outside a session."""
        wait_s = self.early.admit(rid, monotonic_s())
        if wait_s is None:
            return False
        if wait_s > 0:
            refusal = ProtocolError(
                "rate_limited",
                "too many messages before a session; slow down",
                ref=ref_of(frames),
                details={"retry_after_ms": retry_after_ms(wait_s)},
            )
            # Before the routing-id check: the sender, not necessarily the owner.
            self.egress.error(rid, refusal, principal=principal)
            return False
        return True

    def _pre_session(self, rid: bytes, principal: str, msg: InboundMessage) -> None:
        match msg:
            case Ping():
                self.egress.send_raw(rid, Pong(ref=msg.id))
            case Hello():
                self.handshakes.hello(rid, principal, msg, None)
            case _:
                refusal = ProtocolError("handshake_required", "send hello first", ref=msg.id)
                self.egress.error(rid, refusal, principal=principal)

    def _in_session(
        self, rid: bytes, session: Session, msg: InboundMessage, payload: bytes | None
    ) -> None:
        if isinstance(msg, Hello) and session.replies.seen(msg.id) is None:
            self.handshakes.hello(rid, session.principal, msg, session)
            return  # (a hello's id sent again: its hello.ok again, not a second session)
        if not isinstance(msg, AudioInputChunk):
            # Chunks are de-duplicated by (stream, seq), not by id (§4).
            prior = session.replies.seen(msg.id)
            if prior is not None and session.replies.wait(msg.id):
                return  # still being answered: the whole outcome once it is (egress)
            if prior is not None and session.replies.defer(msg.id, prior):
                return  # another turn is under way: answered after its turn.done (egress)
            if prior is not None:
                for reply in prior:
                    self.send(session, reply, record=False)
                log.debug("outcome_replayed", session=session.id, ref=msg.id, replies=len(prior))
                return
        if limited := refusal(self.buckets, self.text, session.principal, msg, monotonic_s()):
            # Retryable: not remembered as the id's outcome.
            self.egress.error(rid, limited, session=session)
            return
        if not isinstance(msg, AudioInputChunk):
            session.replies.begin(msg.id)
        match msg:
            case Ping():
                self.send(session, Pong(ref=msg.id))
            case ClientBye():
                self._feed(session, SessionEvent.BYE)
            case _:
                self.pipeline.on_message(session, msg, payload)

    # ------------------------------------------------------- timed loops

    async def _auth_audit_loop(self) -> None:
        """Write counted authentication failures once their interval is over."""
        while True:
            await asyncio.sleep(self._auth_failures.interval_s / 4)
            self._auth_failures.write_if_due()

    async def _idle_loop(self) -> None:
        """Detach sessions silent for three heartbeats (§3 idle)."""
        hb_s = self.cfg.heartbeat_ms / 1000
        while True:
            await asyncio.sleep(hb_s / 4)
            limit_s = monotonic_s() - 3 * hb_s
            for rid in self.egress.watch.closed_ids() if self.egress.watch else ():
                if (gone := self.table.on(rid)) is not None:  # its peer closed the connection
                    self._lost(gone, SessionEvent.UNREACHABLE, rid)
            for session in self.table.attached():
                if session.attached and session.last_seen_s < limit_s:
                    try:
                        self._feed(session, SessionEvent.IDLE)
                    except Exception:
                        log.exception("idle_expiry_failed", session=session.id)
