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
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

import msgspec
import zmq
import zmq.asyncio
from zmq.auth.asyncio import AsyncioAuthenticator

from vac.clock import monotonic_s, now_ms
from vac.daemon.config import DaemonSection
from vac.daemon.keys import KeyRegistry, fingerprint, socket_curve_server
from vac.errors import VacError
from vac.home import Home
from vac.logs import get_logger, report_task_failure
from vac.protocol.codec import MAX_HEADER_BYTES, decode_inbound, encode_outbound
from vac.protocol.errors import ProtocolError
from vac.protocol.messages import (
    CONTROL_TYPES,
    PROTOCOL_VERSION,
    AudioInputChunk,
    AudioOutputChunk,
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
from vac.runtime.outcomes import decode_replies
from vac.runtime.port import SessionHandler
from vac.runtime.session import Outbox, OutboxFull, Replies, Session, new_id
from vac.runtime.store import AsyncEventLog, EventLog, StorageUnavailable

ZAP_DOMAIN: Final = "vac"
MAX_MESSAGE_BYTES: Final = 64 * 1024
# Per peer. Kept small on purpose: what libzmq and the kernel buffer is out
# of our sight, so a client that stops reading should reach its session's
# outbox (and its `output_queue_chunks` bound, §7) after seconds, not minutes.
SOCKET_SNDHWM: Final = 64
SOCKET_SNDBUF_BYTES: Final = 64 * 1024
# Per peer, in whole messages: libzmq counts a multipart message once, at its
# last frame (pipe.cpp), so this bounds well-formed traffic to 256 messages of
# at most MAX_MESSAGE_TOTAL_BYTES, about 18 MiB queued per peer. It does not
# bound one message of many frames: MAXMSGSIZE limits each frame, nothing in
# libzmq limits their number, and a message is only readable once all of it
# has arrived. `_recv_message` makes sure we never hold such a message too.
SOCKET_RCVHWM: Final = 256
# Routing id + marker + header + payload: the most a VAC/1 message can have.
MAX_MESSAGE_FRAMES: Final = 4
# The client's frames: a payload (at most MAXMSGSIZE), a header and a marker.
MAX_MESSAGE_TOTAL_BYTES: Final = MAX_MESSAGE_BYTES + MAX_HEADER_BYTES + 64
RETRY_SEND_S: Final = 0.005
SHUTDOWN_DRAIN_S: Final = 2.0
MAX_SILENCED: Final = 4096
# Per-connection state kept for connections without a session (early-traffic
# buckets, routing-id owners): least recently used first out.
MAX_TRACKED_CONNECTIONS: Final = 4096
# Traffic before a session (pings, hellos, refusals), per connection: a
# client needs a handful of messages to get a session, not thousands.
EARLY_MESSAGES_PER_S: Final = 20.0
AUTH_AUDIT_INTERVAL_S: Final = 60.0
MAX_AUTH_FINGERPRINTS: Final = 1024
OTHER_FINGERPRINTS: Final = "other"

log = get_logger("vac.server")


@dataclass
class _Bucket:
    """A token bucket (burst = one second's worth) for non-control messages (§7)."""

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


@dataclass
class _EarlyGate:
    """A connection's bucket for traffic outside a session.

    The first message refused in a dry spell is answered (`rate_limited`, so
    the client knows to slow down); the rest are dropped unanswered until
    the bucket has refilled completely, i.e. until the client paused. A
    flood thus gets `burst + rate × seconds` replies plus one error.
    """

    bucket: _Bucket
    dry: bool = False

    def admit(self, now_s: float) -> float | None:
        """0.0: let it pass; > 0: refuse with this retry delay; None: drop it."""
        wait_s = self.bucket.take(now_s)
        if wait_s <= 0:
            if self.bucket.tokens >= self.bucket.rate_per_s - 1:
                self.dry = False  # it was full: the client paused
            return 0.0
        if self.dry:
            return None
        self.dry = True
        return wait_s


def _over_bounds(frame_count: int, total_bytes: int) -> str | None:
    """Why a message of this many frames (with the routing id) and bytes is refused."""
    if frame_count > MAX_MESSAGE_FRAMES:
        return f"message has more than {MAX_MESSAGE_FRAMES - 1} frames"
    if total_bytes > MAX_MESSAGE_TOTAL_BYTES:
        return f"message is over {MAX_MESSAGE_TOTAL_BYTES} bytes"
    return None


def _ref_of(frames: list[zmq.Frame]) -> str | None:
    """The id of a message we refuse without handling it, when it can be read."""
    try:
        msg, _ = decode_inbound([f.bytes for f in frames[1:]])
    except ProtocolError as exc:
        return exc.ref
    return msg.id


def log_error_sent(err: Error, principal: str | None, session: str | None) -> None:
    """The one log line of an `error` the daemon sends (replays of an id's outcome aside).

    Warning level whatever the code: the cause of an `internal` error is
    logged at error level, with its traceback, where it was caught.
    `message` is left out: it can quote what the client sent.
    """
    log.warning(
        "error_sent",
        code=err.code,
        principal=principal,
        session=session,
        ref=err.ref,
        turn=err.turn,
        stream=err.stream,
        retryable=err.retryable,
        details=err.details,
    )


def spawn_audit(
    store: AsyncEventLog, kind: str, principal: str | None, detail: dict[str, Any]
) -> None:
    """Write an audit event without waiting for it (its failure is logged)."""
    task = asyncio.ensure_future(store.call(EventLog.audit, now_ms(), kind, principal, detail))
    task.add_done_callback(report_task_failure)


class _AuthProvider:
    """ZAP CURVE callback: enrolled keys only; failures counted, audited in bulk.

    A scan with fresh keys used to write one audit row per key, growing the
    event log without bound. Failures are now counted in memory per key
    fingerprint (at most MAX_AUTH_FINGERPRINTS distinct ones per interval,
    the rest under "other") and written as one `auth_failed` row at most
    once per interval, and at shutdown. The first failure after a quiet
    interval is written at once, so an operator sees an attack start.
    """

    def __init__(self, registry: KeyRegistry, store: AsyncEventLog, interval_s: float) -> None:
        self.registry = registry
        self.store = store
        self.interval_s = interval_s
        self._counts: dict[str, int] = {}
        self._last_write_s = -interval_s

    def callback(self, domain: str, key: bytes) -> bool:
        if domain == ZAP_DOMAIN and self.registry.principal_of(key) is not None:
            return True
        # The public key is not secret; its fingerprint is enough to act on.
        self._count(fingerprint(key))
        self.write_if_due()
        return False

    def _count(self, name: str) -> None:
        if name not in self._counts and len(self._counts) >= MAX_AUTH_FINGERPRINTS:
            name = OTHER_FINGERPRINTS
        self._counts[name] = self._counts.get(name, 0) + 1

    def write_if_due(self) -> None:
        """Start writing the interval's counts, if an interval has passed."""
        if self._counts and monotonic_s() - self._last_write_s >= self.interval_s:
            task = asyncio.ensure_future(self._write(self._take()))
            task.add_done_callback(report_task_failure)

    async def write_now(self) -> None:
        """At shutdown: whatever was counted, whenever the last row was."""
        if self._counts:
            await self._write(self._take())

    def _take(self) -> dict[str, int]:
        # Taken synchronously, so two writes never carry the same failures.
        counts, self._counts = self._counts, {}
        self._last_write_s = monotonic_s()
        return counts

    async def _write(self, counts: dict[str, int]) -> None:
        log.warning("auth_failed", total=sum(counts.values()), distinct=len(counts))
        await self.store.call(EventLog.auth_failures, now_ms(), counts)


class Server:
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
        )
        self.sessions: dict[str, Session] = {}
        self.by_conn: dict[bytes, Session] = {}
        self._detached: OrderedDict[str, None] = OrderedDict()
        self._silenced: OrderedDict[bytes, None] = OrderedDict()
        self._buckets: dict[str, _Bucket] = {}
        self._early: OrderedDict[bytes, _EarlyGate] = OrderedDict()
        # Routing id -> the principal that first used it (see `_owner_of`).
        self._owners: OrderedDict[bytes, str] = OrderedDict()
        # Hellos that will create a session and are still being answered: the
        # session quota counts them, so concurrent hellos cannot overshoot it.
        self._opening: dict[str, int] = {}
        self._auth_failures = _AuthProvider(
            self.registry,
            store,
            AUTH_AUDIT_INTERVAL_S if auth_audit_interval_s is None else auth_audit_interval_s,
        )
        self._dirty: set[str] = set()
        self._wake = asyncio.Event()
        self.ctx = zmq.asyncio.Context()
        self.sock: zmq.asyncio.Socket | None = None
        self.auth: AsyncioAuthenticator | None = None
        self.bound_endpoint = ""
        self.pipeline = pipeline_factory(self)
        self._stopping = False

    # ------------------------------------------------------------ lifecycle

    def bind(self) -> str:
        self.auth = AsyncioAuthenticator(self.ctx)
        self.auth.start()
        self.auth.configure_curve_callback(ZAP_DOMAIN, self._auth_failures)
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
                tg.create_task(self._auth_audit_loop()),
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
                log.info(
                    "session_detached",
                    session=session.id,
                    principal=session.principal,
                    reason="shutdown",
                )
                self.pipeline.on_detached(session, "shutdown")
                self.send(session, ServerBye(reason="shutdown"))
        deadline = monotonic_s() + SHUTDOWN_DRAIN_S
        while monotonic_s() < deadline and any(
            len(s.outbox) for s in self.sessions.values() if s.attached
        ):
            self._flush_all()
            await asyncio.sleep(RETRY_SEND_S)
        try:
            await self._auth_failures.write_now()
        except StorageUnavailable as exc:
            log.warning("auth_audit_lost", error=str(exc))

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
            frames, problem = await self._recv_message(self.sock)
            try:
                self._on_frames(frames, problem)
            except Exception:
                # A bug must never take the daemon down; the client sees a
                # generic error and the log has the traceback (no locals).
                log.exception("dispatch_failed")

    @staticmethod
    async def _recv_message(sock: zmq.asyncio.Socket) -> tuple[list[zmq.Frame], str | None]:
        """One message, frame by frame, keeping only what a VAC/1 message can be.

        `recv_multipart` would hand us a message of any number of frames
        whole (800 × 60 KB is 48 MB). Past MAX_MESSAGE_FRAMES or
        MAX_MESSAGE_TOTAL_BYTES the rest is read and dropped frame by frame,
        and the second value says why the message is refused.
        """
        frame: zmq.Frame = await sock.recv(copy=False)
        frames = [frame]  # the routing id
        kept_bytes = 0
        problem: str | None = None
        while frame.more:
            # libzmq hands over whole messages: the rest is here already.
            frame = await sock.recv(zmq.NOBLOCK, copy=False)
            if problem is None:
                problem = _over_bounds(len(frames) + 1, kept_bytes + len(frame))
            if problem is None:
                frames.append(frame)
                kept_bytes += len(frame)
        return frames, problem

    def _on_frames(self, frames: list[zmq.Frame], problem: str | None) -> None:
        rid = frames[0].bytes
        if rid in self._silenced:
            return
        # Any data frame carries the connection's metadata; the first always fits.
        user_id = str(frames[-1].get("User-Id") or "")
        principal = self.registry.principal_of(user_id.encode()) if user_id else None
        session = self.by_conn.get(rid)
        if principal is None:
            self._refuse_revoked(rid, session, user_id)
            return
        owner = self._owner_of(rid, principal, session)
        mine = session is not None and owner == principal
        if not mine and not self._early_admit(rid, frames):
            return
        if owner != principal:
            self._refuse_foreign(rid, principal, session, frames)
            return
        if problem is not None:
            # The frames kept are the message's first ones: its id may be readable.
            ref = _ref_of(frames)
            self._error(rid, session, ProtocolError("invalid_message", problem, ref=ref))
            return
        try:
            msg, payload = decode_inbound([f.bytes for f in frames[1:]])
        except ProtocolError as exc:
            self._error(rid, session, exc)
            return
        if session is None:
            self._pre_session(rid, principal, msg)
            return
        session.last_seen_s = monotonic_s()
        self._in_session(rid, session, msg, payload)

    def _refuse_revoked(self, rid: bytes, session: Session | None, user_id: str) -> None:
        """The key is no longer enrolled (§1): `unauthorized`, then silence."""
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
        self._send_error_raw(rid, err, principal)
        log.warning(
            "refused_revoked_key",
            principal=principal,
            fingerprint=fingerprint(user_id.encode()) if user_id else None,
        )
        spawn_audit(
            self.store, "revoked_key_used", principal, {"session": session.id if session else None}
        )

    def _owner_of(self, rid: bytes, principal: str, session: Session | None) -> str:
        """The principal this routing id is bound to: the first that used it.

        A client chooses its routing id (ZMQ_ROUTING_ID) and libzmq reuses
        it for whoever connects with it once its holder has gone, so the
        routing id is never identity (§1). A session's connection belongs
        to the session's principal; otherwise the first principal seen on
        the routing id owns it (remembered for MAX_TRACKED_CONNECTIONS ids).
        """
        if session is not None:
            return session.principal
        owner = self._owners.setdefault(rid, principal)
        self._remember_owner(rid, owner)
        return owner

    def _remember_owner(self, rid: bytes, principal: str) -> None:
        self._owners[rid] = principal
        self._owners.move_to_end(rid)
        while len(self._owners) > MAX_TRACKED_CONNECTIONS:
            self._owners.popitem(last=False)

    def _refuse_foreign(
        self, rid: bytes, principal: str, session: Session | None, frames: list[zmq.Frame]
    ) -> None:
        """An enrolled principal on a routing id that belongs to another one.

        Rule: refused with `unauthorized` and nothing else. It says nothing
        against the owner, so no audit row (it would name the owner), no
        silencing (that would lock the owner out of its own routing id). The
        refused client can connect again with a routing id of its own.

        One thing does happen to the owner's session, if one is bound here:
        it is detached (resumable, no `bye`). libzmq lets a second peer use
        a routing id only once the first peer's connection is gone, so the
        owner cannot be reached here any more; left bound, its remaining
        output (turn replies, `bye {idle}`) would go to this other principal.
        """
        if session is not None:
            self.detach(session, "unreachable")
        log.warning("refused_foreign_routing_id", principal=principal)
        err = Error(
            code="unauthorized",
            message="this connection id belongs to another principal",
            ref=_ref_of(frames),
            retryable=False,
        )
        self._send_error_raw(rid, err, principal)

    def _early_admit(self, rid: bytes, frames: list[zmq.Frame]) -> bool:
        """The per-connection limit on traffic outside a session."""
        gate = self._early.get(rid)
        if gate is None:
            rate = EARLY_MESSAGES_PER_S
            gate = self._early[rid] = _EarlyGate(_Bucket(rate, rate, monotonic_s()))
            while len(self._early) > MAX_TRACKED_CONNECTIONS:
                self._early.popitem(last=False)
        else:
            self._early.move_to_end(rid)
        wait_s = gate.admit(monotonic_s())
        if wait_s is None:
            return False
        if wait_s > 0:
            err = Error(
                code="rate_limited",
                message="too many messages before a session; slow down",
                ref=_ref_of(frames),
                retryable=True,
                details={"retry_after_ms": max(1, int(wait_s * 1000))},
            )
            # Before the routing-id check: the sender, not necessarily the owner.
            user_id = str(frames[-1].get("User-Id") or "")
            self._send_error_raw(rid, err, self.registry.principal_of(user_id.encode()))
            return False
        return True

    def _pre_session(self, rid: bytes, principal: str, msg: InboundMessage) -> None:
        match msg:
            case Ping():
                self._send_raw(rid, Pong(ref=msg.id))
            case Hello():
                self._hello(rid, principal, msg, None)
            case _:
                err = Error(
                    code="handshake_required",
                    message="send hello first",
                    ref=msg.id,
                    retryable=False,
                )
                self._send_error_raw(rid, err, principal)

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
                log.debug("outcome_replayed", session=session.id, ref=msg.id, replies=len(prior))
                return
        if not isinstance(msg, CONTROL_TYPES) and (
            err := self._rate_limited(session.principal, msg)
        ):
            log_error_sent(err, session.principal, session.id)
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
                self.pipeline.on_message(session, msg, payload)

    def _rate_limited(self, principal: str, msg: InboundMessage) -> Error | None:
        """The principal's token bucket (§7); None when the message may pass."""
        wait_s = self._bucket(principal).take(monotonic_s())
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
            bucket = self._buckets[principal] = _Bucket(rate, rate, monotonic_s())
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
        opens = msg.resume is None
        # Counted and reserved here, synchronously: the handshake awaits, and
        # a count taken there let 60 concurrent hellos past a quota of 8.
        if opens and not self._room_for_session(principal, current):
            self._error(
                rid,
                current,
                ProtocolError(
                    "rate_limited",
                    "too many open sessions for this principal",
                    ref=msg.id,
                    details={"retry_after_ms": 1000},
                ),
            )
            return
        if current is not None:
            # A second hello detaches the current session (kept for resume).
            self.detach(current, "rehello")
        if opens:
            self._opening[principal] = self._opening.get(principal, 0) + 1
        task = asyncio.ensure_future(self._handshake(rid, principal, msg, reserved=opens))
        task.add_done_callback(report_task_failure)

    async def _handshake(self, rid: bytes, principal: str, msg: Hello, *, reserved: bool) -> None:
        """Answer a hello, whatever happens: never leave one unanswered."""
        try:
            await self._open(rid, principal, msg)
        except StorageUnavailable as exc:
            log.warning("hello_failed", principal=principal, reason="storage", error=str(exc))
            err = Error(
                code="provider_unavailable",
                message="the event log could not be written; try again",
                ref=msg.id,
                retryable=True,
                details={"provider": "storage"},
            )
            self._send_error_raw(rid, err, principal)
        except Exception:
            log.exception("hello_failed", principal=principal)  # a bug: keep its traceback
            err = Error(
                code="internal",
                message="the session could not be opened; try again",
                ref=msg.id,
                retryable=True,
            )
            self._send_error_raw(rid, err, principal)
        finally:
            if reserved:
                self._release_opening(principal)

    def _release_opening(self, principal: str) -> None:
        left = self._opening.get(principal, 0) - 1
        if left > 0:
            self._opening[principal] = left
        else:
            self._opening.pop(principal, None)

    async def _open(self, rid: bytes, principal: str, msg: Hello) -> None:
        resumed = False
        output = OutputFormat(rate=msg.output.rate, speak=msg.output.speak)
        if msg.resume is not None:
            session = await self._find_resumable(principal, msg.resume)
            if session is None:
                err = Error(
                    code="session_unknown",
                    message="no such session to resume",
                    ref=msg.id,
                    retryable=False,
                )
                self._send_error_raw(rid, err, principal)
                return
            session.output = output
            resumed = True
        else:
            session_id = new_id()
            await self.store.call(
                EventLog.session_opened, session_id, principal, msg.client, now_ms()
            )
            # Registered only once its row landed: a failed write leaves nothing.
            session = self._new_session(principal, msg.client, output, session_id)
        try:
            pending = await self.pipeline.on_attached(session, resumed)
        except BaseException:
            self._drop_unattached(session)
            raise
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
                features=list(self.pipeline.features),
                input=InputFormat(),
                output=output,
                limits=self.limits,
                heartbeat_ms=self.cfg.heartbeat_ms,
                resumed=resumed,
                pending=pending,
            ),
        )
        log.info("session_attached", session=session.id, principal=principal, resumed=resumed)

    def _drop_unattached(self, session: Session) -> None:
        """Forget a session this failed hello made (new, or read back from the log).

        One that is attached elsewhere, or detached and kept for resume,
        existed before this hello and stays as it was.
        """
        if not session.attached and session.id not in self._detached:
            self._forget(session.id)

    def _room_for_session(self, principal: str, current: Session | None) -> bool:
        """Per-principal session quota (§7), counting hellos still being answered.

        `current` is the session this hello will detach: it does not count.
        A connection that vanished is only noticed by idle expiry; so at the
        quota, the principal's longest-silent session is detached (kept for
        resume) if it has been silent for a heartbeat — likely a dead client.
        """
        mine = [
            s
            for s in self.sessions.values()
            if s.principal == principal and s.attached and s is not current
        ]
        if len(mine) + self._opening.get(principal, 0) < self.cfg.max_sessions_per_principal:
            return True
        if not mine:
            return False  # all of the quota is hellos in flight
        stalest = min(mine, key=lambda s: s.last_seen_s)
        if monotonic_s() - stalest.last_seen_s > self.cfg.heartbeat_ms / 1000:
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
        # Its stored outcomes: a message id sent again after a restart is
        # answered from them, not executed twice (§2).
        outcomes = await self.store.call(
            EventLog.outcomes_of, session_id, self.cfg.idempotency_window
        )
        raced = self.sessions.get(session_id)
        if raced is not None:  # another resume of it finished while we read
            return raced if not raced.ended else None
        session = self._new_session(
            principal, row["client"], OutputFormat(rate=16000, speak=False), session_id
        )
        session.replies.load([(o.msg_id, decode_replies(o.replies)) for o in outcomes])
        return session

    def _attach(self, session: Session, rid: bytes) -> None:
        if session.connection is not None and session.connection != rid:
            old = session.connection
            log.info(
                "session_detached",
                session=session.id,
                principal=session.principal,
                reason="replaced",
            )
            self.pipeline.on_detached(session, "replaced")
            self.send(session, ServerBye(reason="replaced"))
            self._flush(session)
            self.by_conn.pop(old, None)
        session.outbox.clear()
        session.connection = rid
        session.seq = 0
        session.last_seen_s = monotonic_s()
        self.by_conn[rid] = session
        self._remember_owner(rid, session.principal)
        self._detached.pop(session.id, None)

    def detach(self, session: Session, reason: str, *, notify: bool = True) -> None:
        """Unbind a session from its connection; it stays resumable."""
        if session.connection is not None:
            log.info(
                "session_detached", session=session.id, principal=session.principal, reason=reason
            )
        if notify:
            self.pipeline.on_detached(session, reason)
        if session.connection is not None:
            self.by_conn.pop(session.connection, None)
            # The routing id stays bound to its principal after the session leaves it.
            self._remember_owner(session.connection, session.principal)
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
        self.pipeline.on_forgotten(session_id)

    def end(self, session: Session) -> None:
        """Client `bye`: the session ends for good."""
        session.ended = True
        self.detach(session, "bye")
        self._detached.pop(session.id, None)
        self.sessions.pop(session.id, None)
        task = asyncio.ensure_future(self.store.call(EventLog.session_ended, session.id, now_ms()))
        task.add_done_callback(report_task_failure)
        log.info("session_ended", session=session.id, principal=session.principal, reason="bye")

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

    def drop_chunks(self, session: Session, generation: int) -> int:
        """Remove one generation's queued, unsent chunks (a cancelled reply)."""
        return session.outbox.drop_chunks(generation)

    def attached(self) -> list[Session]:
        return [s for s in self.sessions.values() if s.attached]

    def holds(self, session_id: str) -> bool:
        return session_id in self.sessions

    def try_send_chunk(self, session: Session, msg: AudioOutputChunk, payload: bytes) -> bool:
        """Queue an audio chunk; False when `output_queue_chunks` is reached (§7)."""
        if session.connection is None:
            return False
        try:
            session.outbox.push(msg, payload)
        except OutboxFull:
            return False
        self._kick(session)
        return True

    def _send_error_raw(self, rid: bytes, err: Error, principal: str | None) -> None:
        """An error outside any session: logged once (`error_sent`), then sent."""
        log_error_sent(err, principal, None)
        self._send_raw(rid, err)

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

    def _error(self, rid: bytes, session: Session | None, exc: VacError) -> None:
        """The one translation of an exception into a wire `error` (PROTOCOL §6)."""
        err = Error(
            code=exc.code,
            message=exc.message,
            ref=exc.ref,
            retryable=exc.retryable,
            stream=exc.stream,
            turn=exc.turn,
            details=exc.details,
        )
        # Without a session this runs only after the routing-id check in
        # `_on_frames`, so the connection's owner is the sender.
        principal = session.principal if session is not None else self._owners.get(rid)
        log_error_sent(err, principal, session.id if session is not None else None)
        if session is not None and session.connection == rid:
            self.send(session, err)
        else:
            self._send_raw(rid, err)

    def error(self, session: Session, exc: VacError) -> None:
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

    # ---------------------------------------------------------------- audit

    async def _auth_audit_loop(self) -> None:
        """Write counted authentication failures once their interval is over."""
        while True:
            await asyncio.sleep(self._auth_failures.interval_s / 4)
            self._auth_failures.write_if_due()

    # ---------------------------------------------------------------- idle

    async def _idle_loop(self) -> None:
        hb_s = self.cfg.heartbeat_ms / 1000
        while True:
            await asyncio.sleep(hb_s / 4)
            limit = monotonic_s() - 3 * hb_s
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
        self.pipeline.on_detached(session, reason)
        self.send(session, ServerBye(reason=reason), record=False)
        self._flush(session)
        self.detach(session, reason, notify=False)
