"""The asyncio ROUTER server: CURVE + ZAP, sessions, bounded egress.

The receive loop does only quick, synchronous work per message (decode,
authorise, dispatch); anything slow (the event log, recognition, synthesis)
runs in tasks owned by the session's coordinator. Sends never block: each
session has a bounded outbox drained with non-blocking sends, and a peer that
cannot take output only ever delays itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Protocol

import msgspec
import zmq
import zmq.asyncio
from zmq.auth.asyncio import AsyncioAuthenticator

from vac.daemon.config import DaemonSection
from vac.daemon.keys import KeyRegistry, fingerprint, socket_curve_server
from vac.home import Home
from vac.logs import get_logger, report_task_failure
from vac.protocol.codec import decode_inbound, encode_outbound
from vac.protocol.errors import ProtocolError
from vac.protocol.messages import (
    CONTROL_TYPES,
    PROTOCOL_VERSION,
    AudioInputChunk,
    ByeReason,
    ClientBye,
    Error,
    Hello,
    HelloOk,
    InboundMessage,
    InputFormat,
    Limits,
    Outbound,
    OutputFormat,
    Ping,
    Pong,
    ServerBye,
)
from vac.protocol.objective import Objective
from vac.runtime.session import Outbox, OutboxFull, Replies, Session, new_id
from vac.runtime.store import AsyncEventLog, EventLog, now_ms

ZAP_DOMAIN: Final = "vac"
MAX_MESSAGE_BYTES: Final = 64 * 1024
# Per peer. Kept small on purpose: what libzmq and the kernel buffer is out
# of our sight, so a client that stops reading should reach its session's
# outbox (and its `output_queue_chunks` bound, §7) after seconds, not minutes.
SOCKET_SNDHWM: Final = 64
SOCKET_SNDBUF_BYTES: Final = 64 * 1024
SOCKET_RCVHWM: Final = 1000
RETRY_SEND_S: Final = 0.005
SHUTDOWN_DRAIN_S: Final = 2.0
MAX_SILENCED: Final = 4096
AUTH_AUDIT_INTERVAL_S: Final = 60.0

log = get_logger("vac.server")


class Coordinator(Protocol):
    """What the server hands session traffic to (the turn pipeline)."""

    features: tuple[str, ...]

    def on_message(self, session: Session, msg: InboundMessage, payload: bytes | None) -> None: ...

    async def on_attached(self, session: Session, resumed: bool) -> list[Objective]: ...

    def on_detached(self, session: Session, reason: str) -> None: ...

    def on_forgotten(self, session_id: str) -> None: ...


@dataclass
class _Bucket:
    """Per-principal token bucket for non-control messages (§7)."""

    rate_per_s: float
    tokens: float
    stamp_s: float

    def take(self, now_s: float) -> float:
        """0 when allowed, else seconds until a token is available."""
        self.tokens = min(self.rate_per_s, self.tokens + (now_s - self.stamp_s) * self.rate_per_s)
        self.stamp_s = now_s
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0.0
        return (1.0 - self.tokens) / self.rate_per_s


def spawn_audit(
    store: AsyncEventLog, kind: str, principal: str | None, detail: dict[str, Any]
) -> None:
    """Write an audit event without waiting for it (its failure is logged)."""
    task = asyncio.ensure_future(store.call(EventLog.audit, now_ms(), kind, principal, detail))
    task.add_done_callback(report_task_failure)


class _AuthProvider:
    """ZAP CURVE callback: enrolled keys only; failures audited (rate-limited)."""

    def __init__(self, registry: KeyRegistry, store: AsyncEventLog) -> None:
        self.registry = registry
        self.store = store
        self._last_audit: OrderedDict[bytes, float] = OrderedDict()

    def callback(self, domain: str, key: bytes) -> bool:
        if domain == ZAP_DOMAIN and self.registry.principal_of(key) is not None:
            return True
        now_s = time.monotonic()
        last = self._last_audit.get(key)
        if last is None or now_s - last > AUTH_AUDIT_INTERVAL_S:
            self._last_audit[key] = now_s
            while len(self._last_audit) > 1024:
                self._last_audit.popitem(last=False)
            # The public key is not secret; its fingerprint is enough to act on.
            detail = {"fingerprint": fingerprint(key), "domain": domain}
            spawn_audit(self.store, "auth_failed", None, detail)
            log.warning("auth_failed", fingerprint=detail["fingerprint"])
        return False


class Server:
    def __init__(
        self,
        home: Home,
        section: DaemonSection,
        store: AsyncEventLog,
        coordinator_factory: Callable[[Server], Coordinator],
        *,
        endpoint: str | None = None,
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
        )
        self.sessions: dict[str, Session] = {}
        self.by_conn: dict[bytes, Session] = {}
        self._detached: OrderedDict[str, None] = OrderedDict()
        self._silenced: OrderedDict[bytes, None] = OrderedDict()
        self._buckets: dict[str, _Bucket] = {}
        self._dirty: set[str] = set()
        self._wake = asyncio.Event()
        self.ctx = zmq.asyncio.Context()
        self.sock: zmq.asyncio.Socket | None = None
        self.auth: AsyncioAuthenticator | None = None
        self.bound_endpoint = ""
        self.coordinator = coordinator_factory(self)
        self._stopping = False

    # ------------------------------------------------------------ lifecycle

    def bind(self) -> str:
        self.auth = AsyncioAuthenticator(self.ctx)
        self.auth.start()
        self.auth.configure_curve_callback(ZAP_DOMAIN, _AuthProvider(self.registry, self.store))
        sock = self.ctx.socket(zmq.ROUTER)
        sock.setsockopt(zmq.ROUTER_MANDATORY, 1)
        sock.setsockopt(zmq.SNDHWM, SOCKET_SNDHWM)
        sock.setsockopt(zmq.SNDBUF, SOCKET_SNDBUF_BYTES)
        sock.setsockopt(zmq.RCVHWM, SOCKET_RCVHWM)
        sock.setsockopt(zmq.MAXMSGSIZE, MAX_MESSAGE_BYTES)
        sock.setsockopt(zmq.LINGER, 0)
        hb = self.cfg.heartbeat_ms
        sock.setsockopt(zmq.HEARTBEAT_IVL, hb)
        sock.setsockopt(zmq.HEARTBEAT_TIMEOUT, hb * 3)
        sock.setsockopt(zmq.HEARTBEAT_TTL, hb * 3)
        sock.zap_domain = ZAP_DOMAIN.encode()
        socket_curve_server(sock, self.home.server_secret)  # type: ignore[arg-type]
        sock.bind(self.endpoint)
        self.sock = sock
        self.bound_endpoint = sock.getsockopt_string(zmq.LAST_ENDPOINT)
        return self.bound_endpoint

    async def serve(self, stop: asyncio.Event) -> None:
        """Run until `stop` is set, then shut down as PROTOCOL §3 says."""
        if self.sock is None:
            self.bind()
        async with asyncio.TaskGroup() as tg:
            tasks = [
                tg.create_task(self._recv_loop()),
                tg.create_task(self._send_loop()),
                tg.create_task(self._idle_loop()),
            ]
            await stop.wait()
            await self._shutdown()
            for t in tasks:
                t.cancel()
        self.close()

    async def _shutdown(self) -> None:
        self._stopping = True
        for session in list(self.sessions.values()):
            if session.attached:
                self.coordinator.on_detached(session, "shutdown")
                self.send(session, ServerBye(reason="shutdown"))
        deadline = time.monotonic() + SHUTDOWN_DRAIN_S
        while time.monotonic() < deadline and any(
            len(s.outbox) for s in self.sessions.values() if s.attached
        ):
            self._flush_all()
            await asyncio.sleep(RETRY_SEND_S)

    def close(self) -> None:
        if self.auth is not None:
            self.auth.stop()
            self.auth = None
        if self.sock is not None:
            self.sock.close(linger=0)
            self.sock = None
        self.ctx.term()

    # -------------------------------------------------------------- receive

    async def _recv_loop(self) -> None:
        assert self.sock is not None
        while True:
            frames = await self.sock.recv_multipart(copy=False)
            try:
                self._on_frames(frames)
            except Exception:
                # A bug must never take the daemon down; the client sees a
                # generic error and the log has the traceback (no locals).
                log.exception("dispatch_failed")

    def _on_frames(self, frames: list[zmq.Frame]) -> None:
        rid = frames[0].bytes
        if rid in self._silenced:
            return
        user_id = str(frames[-1].get("User-Id") or "")
        principal = self.registry.principal_of(user_id.encode()) if user_id else None
        session = self.by_conn.get(rid)
        if principal is None or (session is not None and session.principal != principal):
            self._refuse_revoked(rid, session, user_id)
            return
        try:
            msg, payload = decode_inbound([f.bytes for f in frames[1:]])
        except ProtocolError as exc:
            self._error(rid, session, exc)
            return
        if session is None:
            self._pre_session(rid, principal, msg)
            return
        session.last_seen_s = time.monotonic()
        self._in_session(rid, session, msg, payload)

    def _refuse_revoked(self, rid: bytes, session: Session | None, user_id: str | None) -> None:
        self._silenced[rid] = None
        while len(self._silenced) > MAX_SILENCED:
            self._silenced.popitem(last=False)
        err = Error(
            code="unauthorized", message="this key is no longer enrolled", ref=None, retryable=False
        )
        if session is not None:
            principal = session.principal
            self.detach(session, "revoked")
        else:
            principal = None
        self._send_raw(rid, err)
        spawn_audit(
            self.store, "revoked_key_used", principal, {"session": session.id if session else None}
        )

    def _pre_session(self, rid: bytes, principal: str, msg: InboundMessage) -> None:
        match msg:
            case Ping():
                self._send_raw(rid, Pong(ref=msg.id))
            case Hello():
                self._hello(rid, principal, msg, None)
            case _:
                self._send_raw(
                    rid,
                    Error(
                        code="handshake_required",
                        message="send hello first",
                        ref=msg.id,
                        retryable=False,
                    ),
                )

    def _in_session(
        self, rid: bytes, session: Session, msg: InboundMessage, payload: bytes | None
    ) -> None:
        if isinstance(msg, Hello):
            self._hello(rid, session.principal, msg, session)
            return
        if not isinstance(msg, AudioInputChunk):
            # Chunks are de-duplicated by (stream, seq), not by id (§4).
            prior = session.replies.seen(msg.id)
            if prior is not None:
                for reply in prior:
                    self.send(session, reply, record=False)
                return
        if not isinstance(msg, CONTROL_TYPES) and (
            err := self._rate_limited(session.principal, msg)
        ):
            self.send(session, err)  # retryable: not remembered as the id's outcome
            return
        if not isinstance(msg, AudioInputChunk):
            session.replies.begin(msg.id)
        match msg:
            case Ping():
                self.send(session, Pong(ref=msg.id))
            case ClientBye():
                self.end(session)
            case _:
                self.coordinator.on_message(session, msg, payload)

    def _rate_limited(self, principal: str, msg: InboundMessage) -> Error | None:
        """The principal's token bucket (§7); None when the message may pass."""
        wait_s = self._bucket(principal).take(time.monotonic())
        if wait_s <= 0:
            return None
        return Error(
            code="rate_limited",
            message="too many messages; slow down",
            ref=msg.id,
            retryable=True,
            details={"retry_after_ms": max(1, int(wait_s * 1000))},
        )

    def _bucket(self, principal: str) -> _Bucket:
        bucket = self._buckets.get(principal)
        if bucket is None:
            rate = float(self.cfg.messages_per_s)
            bucket = self._buckets[principal] = _Bucket(rate, rate, time.monotonic())
        return bucket

    # ------------------------------------------------------------ handshake

    def _hello(self, rid: bytes, principal: str, msg: Hello, current: Session | None) -> None:
        # Every hello may create a session and an event-log row: it counts.
        if err := self._rate_limited(principal, msg):
            self._error(
                rid,
                current,
                ProtocolError("rate_limited", err.message, ref=msg.id, details=err.details),
            )
            return
        if PROTOCOL_VERSION not in msg.versions:
            self._error(
                rid,
                current,
                ProtocolError(
                    "unsupported_version",
                    "this daemon speaks VAC/1 only",
                    ref=msg.id,
                    details={"supported": [PROTOCOL_VERSION]},
                ),
            )
            return
        if current is not None:
            # A second hello detaches the current session (kept for resume).
            self.detach(current, "rehello")
        task = asyncio.ensure_future(self._handshake(rid, principal, msg))
        task.add_done_callback(report_task_failure)

    async def _handshake(self, rid: bytes, principal: str, msg: Hello) -> None:
        resumed = False
        output = OutputFormat(rate=msg.output.rate, speak=msg.output.speak)
        if msg.resume is not None:
            session = await self._find_resumable(principal, msg.resume)
            if session is None:
                self._send_raw(
                    rid,
                    Error(
                        code="session_unknown",
                        message="no such session to resume",
                        ref=msg.id,
                        retryable=False,
                    ),
                )
                return
            session.output = output
            resumed = True
        else:
            if not self._room_for_session(principal):
                self._send_raw(
                    rid,
                    Error(
                        code="rate_limited",
                        message="too many open sessions for this principal",
                        ref=msg.id,
                        retryable=True,
                        details={"retry_after_ms": 1000},
                    ),
                )
                return
            session = self._new_session(principal, msg.client, output)
            await self.store.call(
                EventLog.session_opened, session.id, principal, msg.client, now_ms()
            )
        pending = await self.coordinator.on_attached(session, resumed)
        if self.sock is None or session.ended:
            return  # shut down, or ended by a bye meanwhile
        if rid in self.by_conn:  # the connection said hello again meanwhile
            self.detach(self.by_conn[rid], "rehello")
        # Attach and answer in one step: hello.ok is seq 0, nothing can precede it.
        self._attach(session, rid)
        session.replies.begin(msg.id)
        self.send(
            session,
            HelloOk(
                ref=msg.id,
                principal=principal,
                version=PROTOCOL_VERSION,
                features=list(self.coordinator.features),
                input=InputFormat(),
                output=output,
                limits=self.limits,
                heartbeat_ms=self.cfg.heartbeat_ms,
                resumed=resumed,
                pending=pending,
            ),
        )
        log.info("session_attached", session=session.id, principal=principal, resumed=resumed)

    def _room_for_session(self, principal: str) -> bool:
        """Per-principal session quota (§7).

        A connection that vanished is only noticed by idle expiry; so at the
        quota, the principal's longest-silent session is detached (kept for
        resume) if it has been silent for a heartbeat — likely a dead client.
        """
        mine = [s for s in self.sessions.values() if s.principal == principal and s.attached]
        if len(mine) < self.cfg.max_sessions_per_principal:
            return True
        stalest = min(mine, key=lambda s: s.last_seen_s)
        if time.monotonic() - stalest.last_seen_s > self.cfg.heartbeat_ms / 1000:
            self.expire(stalest, "replaced")
            return True
        return False

    def _new_session(
        self, principal: str, client: str, output: OutputFormat, session_id: str | None = None
    ) -> Session:
        session = Session(
            id=session_id or new_id(),
            principal=principal,
            client=client,
            output=output,
            outbox=Outbox(
                max_chunks=self.cfg.output_queue_chunks,
                max_control=self.cfg.output_queue_chunks * 4,
            ),
            replies=Replies(window=self.cfg.idempotency_window),
        )
        self.sessions[session.id] = session
        return session

    async def _find_resumable(self, principal: str, session_id: str) -> Session | None:
        session = self.sessions.get(session_id)
        if session is not None:
            return session if session.principal == principal and not session.ended else None
        row = await self.store.call(EventLog.session_row, session_id)
        # Another principal's session and an unknown one get the same answer.
        if row is None or row["principal"] != principal or row["ended_at_ms"] is not None:
            return None
        raced = self.sessions.get(session_id)
        if raced is not None:  # another resume of it finished while we read
            return raced if not raced.ended else None
        return self._new_session(
            principal, row["client"], OutputFormat(rate=16000, speak=False), session_id
        )

    def _attach(self, session: Session, rid: bytes) -> None:
        if session.connection is not None and session.connection != rid:
            old = session.connection
            self.coordinator.on_detached(session, "replaced")
            self.send(session, ServerBye(reason="replaced"))
            self._flush(session)
            self.by_conn.pop(old, None)
        session.outbox.clear()
        session.connection = rid
        session.seq = 0
        session.last_seen_s = time.monotonic()
        self.by_conn[rid] = session
        self._detached.pop(session.id, None)

    def detach(self, session: Session, reason: str, *, notify: bool = True) -> None:
        """Unbind a session from its connection; it stays resumable."""
        if notify:
            self.coordinator.on_detached(session, reason)
        if session.connection is not None:
            self.by_conn.pop(session.connection, None)
        session.connection = None
        session.outbox.clear()
        self._dirty.discard(session.id)
        self._detached[session.id] = None
        # Bounded in memory, per principal first (one principal's churn never
        # pushes out another's sessions), then overall. Forgotten sessions
        # still resume from the event log.
        mine = [sid for sid in self._detached if self._principal_of(sid) == session.principal]
        for sid in mine[: max(0, len(mine) - self.cfg.max_detached_per_principal)]:
            self._forget(sid)
        while len(self._detached) > self.cfg.max_detached_sessions:
            self._forget(next(iter(self._detached)))

    def _principal_of(self, session_id: str) -> str | None:
        session = self.sessions.get(session_id)
        return session.principal if session is not None else None

    def _forget(self, session_id: str) -> None:
        self._detached.pop(session_id, None)
        self.sessions.pop(session_id, None)
        self.coordinator.on_forgotten(session_id)

    def end(self, session: Session) -> None:
        """Client `bye`: the session ends for good."""
        session.ended = True
        self.detach(session, "bye")
        self._detached.pop(session.id, None)
        self.sessions.pop(session.id, None)
        task = asyncio.ensure_future(self.store.call(EventLog.session_ended, session.id, now_ms()))
        task.add_done_callback(report_task_failure)

    # ---------------------------------------------------------------- send

    def send(
        self, session: Session, msg: Outbound, payload: bytes | None = None, *, record: bool = True
    ) -> bool:
        """Queue a message for a session. False if it could not be queued.

        Raises nothing: a full outbox of control messages drops the session
        (its peer is not reading at all); a full chunk budget is reported to
        the caller via `OutboxFull` semantics in `try_send_chunk`.
        """
        if session.connection is None:
            return False
        if record:
            session.replies.record(msg)
        try:
            session.outbox.push(msg, payload)
        except OutboxFull:
            log.warning("outbox_overflow_detaching", session=session.id)
            self.detach(session, "overflow")
            return False
        self._kick(session)
        return True

    def _kick(self, session: Session) -> None:
        """Send now what the peer will take; leave the rest to the send loop."""
        if session.id in self._dirty:
            return  # already waiting on a slow peer: keep order, don't spin
        if self._flush(session):
            self._dirty.add(session.id)
            self._wake.set()

    def try_send_chunk(self, session: Session, msg: Outbound, payload: bytes) -> bool:
        """Queue an audio chunk; False when `output_queue_chunks` is reached (§7)."""
        if session.connection is None:
            return False
        try:
            session.outbox.push(msg, payload)
        except OutboxFull:
            return False
        self._kick(session)
        return True

    def _send_raw(self, rid: bytes, msg: Outbound) -> None:
        """A message outside any session (pong to an early ping, an error)."""
        if self.sock is None:
            return
        with contextlib.suppress(zmq.ZMQError):
            self._send_now([rid, *encode_outbound(msg)])

    def _send_now(self, frames: list[bytes]) -> None:
        """A non-blocking send that raises `zmq.Again` / `ZMQError` right here.

        zmq.asyncio resolves a DONTWAIT send immediately (we never leave send
        futures waiting), so its outcome is known before we return.
        """
        assert self.sock is not None
        fut: asyncio.Future[Any] = self.sock.send_multipart(  # type: ignore[assignment]
            frames, flags=zmq.NOBLOCK, copy=False
        )
        if not fut.done():  # pragma: no cover - only if someone awaited a send
            raise zmq.Again()
        if (exc := fut.exception()) is not None:
            raise exc

    def _error(self, rid: bytes, session: Session | None, exc: ProtocolError) -> None:
        err = Error(
            code=exc.code,
            message=exc.message,
            ref=exc.ref,
            retryable=exc.retryable,
            stream=exc.stream,
            turn=exc.turn,
            details=exc.details,
        )
        if session is not None and session.connection == rid:
            self.send(session, err)
        else:
            self._send_raw(rid, err)

    def error(self, session: Session, exc: ProtocolError) -> None:
        if session.connection is not None:
            self._error(session.connection, session, exc)

    async def _send_loop(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            try:
                blocked = self._flush_all()
            except Exception:
                log.exception("send_loop_failed")  # never take the daemon down
                blocked = True
            if blocked:
                # Some peer is not reading; look again soon without spinning.
                await asyncio.sleep(RETRY_SEND_S)
                self._wake.set()

    def _flush_all(self) -> bool:
        blocked = False
        for sid in list(self._dirty):
            session = self.sessions.get(sid)
            if session is None or not self._flush(session):
                self._dirty.discard(sid)
            else:
                blocked = True
        return blocked

    def _flush(self, session: Session) -> bool:
        """Send what the peer will take now. True if output is still waiting."""
        rid = session.connection
        if self.sock is None:
            return False  # closed at shutdown: nothing more goes out
        while rid is not None and len(session.outbox):
            msg, payload = session.outbox.peek()
            stamped = msgspec.structs.replace(msg, session=session.id, seq=session.seq)
            try:
                self._send_now([rid, *encode_outbound(stamped, payload)])
            except zmq.Again:
                return True
            except zmq.ZMQError as exc:
                if exc.errno == zmq.EHOSTUNREACH:  # the peer is gone
                    self.detach(session, "unreachable")
                    return False
                raise
            session.outbox.pop()
            session.seq += 1
        return False

    # ---------------------------------------------------------------- idle

    async def _idle_loop(self) -> None:
        hb_s = self.cfg.heartbeat_ms / 1000
        while True:
            await asyncio.sleep(hb_s / 4)
            limit = time.monotonic() - 3 * hb_s
            for session in list(self.sessions.values()):
                if session.attached and session.last_seen_s < limit:
                    try:
                        self.expire(session, "idle")
                    except Exception:
                        log.exception("idle_expiry_failed", session=session.id)

    def expire(self, session: Session, reason: ByeReason) -> None:
        """Drop output, say bye, detach (§3 idle)."""
        session.outbox.clear()
        # The coordinator may still say `audio.input.done {idle}` before the bye.
        self.coordinator.on_detached(session, reason)
        self.send(session, ServerBye(reason=reason), record=False)
        self._flush(session)
        self.detach(session, reason, notify=False)
