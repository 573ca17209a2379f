"""Answering a hello (PROTOCOL §3): open a new session, or resume one.

A hello is checked synchronously when it arrives (rate, version, the
session quota, whose reservation is taken right there), then answered in a
task owned by `Handshakes.tasks` (the server cancels those still running
at shutdown). Every hello is answered: `hello.ok`, or one `error`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from vac.clock import monotonic_s, now_ms
from vac.daemon.config import DaemonSection
from vac.daemon.egress import Egress
from vac.daemon.quotas import Full, MakeRoom, PrincipalBuckets, SessionQuota
from vac.daemon.sessions import SessionTable
from vac.errors import VacError
from vac.lifecycle.session import SessionEvent
from vac.logs import get_logger, report_task_failure
from vac.protocol.errors import ProtocolError
from vac.protocol.messages import (
    PROTOCOL_VERSION,
    Hello,
    HelloOk,
    InputFormat,
    Limits,
    OutputFormat,
)
from vac.runtime.outcomes import decode_replies
from vac.runtime.port import SessionHandler
from vac.runtime.session import OPT_IN_FEATURES, Outbox, Replies, Session, new_id
from vac.runtime.store import AsyncEventLog, EventLog, StorageUnavailable
from vac.runtime.tasks import TaskSet

# The server's `_feed`: move a session by an event and carry out its actions.
Feed = Callable[[Session, SessionEvent, bytes | None], None]

log = get_logger("vac.server")


@dataclass(eq=False)
class Handshakes:
    cfg: DaemonSection
    limits: Limits
    store: AsyncEventLog
    table: SessionTable
    egress: Egress
    buckets: PrincipalBuckets
    quota: SessionQuota
    pipeline: SessionHandler
    feed: Feed
    # The agent an enrolled principal is (its `.agent` marker), or None (§9).
    agent_of: Callable[[str], str | None] = lambda _principal: None
    # The hellos being answered: cancelled by the server at shutdown.
    tasks: TaskSet = field(default_factory=TaskSet)
    # Sessions a resume will detach to make room once it is found (by id);
    # no longer counted against the quota meanwhile (see `on_hello`).
    making_room: set[str] = field(default_factory=set)
    # The hellos being answered, by connection, principal and message id: the
    # same hello sent again meanwhile (a client's retry) is answered by the
    # first, not made a second session (§2: a repeated id has one effect).
    answering: set[tuple[bytes, str, str]] = field(default_factory=set)

    def hello(self, rid: bytes, principal: str, msg: Hello, current: Session | None) -> None:
        """Check a hello now; answer it in a task. `current`: the connection's session."""
        if (rid, principal, msg.id) in self.answering:
            log.info("hello_repeated_while_answered", principal=principal)
            return  # its hello.ok (or error) is on its way, with this ref
        # Every hello may create a session and an event-log row: it counts.
        if limited := self.buckets.refusal(principal, msg.id, monotonic_s()):
            self.egress.error(rid, limited, session=current, principal=principal)
            return
        if PROTOCOL_VERSION not in msg.versions:
            refusal = ProtocolError(
                "unsupported_version",
                "this daemon speaks VAC/1 only",
                ref=msg.id,
                details={"supported": [PROTOCOL_VERSION]},
            )
            self.egress.error(rid, refusal, session=current, principal=principal)
            return
        marker = self.agent_of(principal)
        agent = self.pipeline.agent_named(marker) if marker is not None else None
        if marker is not None and agent is None:
            refusal = ProtocolError(
                "unauthorized",
                f"{principal} is enrolled as agent {marker!r}, which is not in this"
                " daemon's roster",
                ref=msg.id,
            )
            self.egress.error(rid, refusal, session=current, principal=principal)
            return
        # Counted and reserved here, synchronously (see `SessionQuota`); a
        # resume too, or sessions kept for resume would come back past it.
        # `current` (this hello detaches it) and the session resumed (it only
        # moves, if it is attached elsewhere) do not count.
        mine = [
            s
            for s in self.table.attached_of(principal)
            if s is not current
            and (msg.resume is None or s.id != msg.resume)
            and s.id not in self.making_room
        ]
        room_from: Session | None = None
        match self.quota.check(principal, mine, monotonic_s()):
            case MakeRoom(stalest) if msg.resume is None:
                self.feed(stalest, SessionEvent.REPLACED, None)
            case MakeRoom(stalest):
                # Only once the resumed session is found: a resume naming an
                # unknown session is refused and must change nothing.
                room_from = stalest
                self.making_room.add(stalest.id)
            case Full():
                refusal = ProtocolError(
                    "rate_limited",
                    "too many open sessions for this principal",
                    ref=msg.id,
                    details={"retry_after_ms": 1000},
                )
                self.egress.error(rid, refusal, session=current, principal=principal)
                return
        if current is not None and msg.resume is None:
            # A second hello detaches the current session (kept for resume).
            # A resume does so only once the session it names is found
            # (`_open`): a refused one (`session_unknown`) changes nothing.
            self.feed(current, SessionEvent.REHELLO, None)
        self.quota.reserve(principal)
        self.answering.add((rid, principal, msg.id))
        task = self.tasks.spawn(self._answer(rid, principal, msg, agent, room_from))
        task.add_done_callback(report_task_failure)

    async def _answer(
        self, rid: bytes, principal: str, msg: Hello, agent: str | None, room_from: Session | None
    ) -> None:
        """Answer a hello, whatever happens: never leave one unanswered."""
        try:
            await self._open(rid, principal, msg, agent, room_from)
        except StorageUnavailable as exc:
            log.warning("hello_failed", principal=principal, reason="storage", error=str(exc))
            self.egress.error(rid, exc.with_ref(msg.id), principal=principal)
        except Exception:
            log.exception("hello_failed", principal=principal)  # a bug: keep its traceback
            bug = VacError("the session could not be opened; try again", ref=msg.id)
            self.egress.error(rid, bug, principal=principal)
        finally:
            self.answering.discard((rid, principal, msg.id))
            self.quota.release(principal)
            if room_from is not None:
                self.making_room.discard(room_from.id)

    async def _open(
        self, rid: bytes, principal: str, msg: Hello, agent: str | None, room_from: Session | None
    ) -> None:
        resumed = msg.resume is not None
        # A daemon without text-to-speech answers `speak: false`: the client
        # asked for audio it will never get, and must not wait for it.
        speaks = msg.output.speak and "audio.output" in self.pipeline.features
        output = OutputFormat(rate=msg.output.rate, speak=speaks)
        if msg.resume is not None:
            found = await self._find_resumable(principal, msg.resume)
            if found is None:
                unknown = ProtocolError("session_unknown", "no such session to resume", ref=msg.id)
                # In the connection's own session when it keeps one (§2: with
                # `session` and `seq`; a probe found them missing).
                kept = self.table.on(rid)
                if kept is not None and kept.principal == principal:
                    self.egress.error(rid, unknown, session=kept)
                else:
                    self.egress.error(rid, unknown, principal=principal)
                return
            session = found
            session.output = output
        else:
            session_id = new_id()
            held = [s.id for s in self.table.by_id.values() if s.principal == principal]
            await self.store.call(
                EventLog.session_opened, session_id, principal, msg.client, now_ms(), held
            )
            # Registered only once its row landed: a failed write leaves nothing.
            session = self._new_session(principal, msg.client, output, session_id)
        # The role as enrolled now: a re-enrolment takes effect on the next hello.
        session.agent = agent
        session.accepts = frozenset(msg.features) & OPT_IN_FEATURES  # this hello's, on resume too
        try:
            pending = await self.pipeline.on_attached(session, resumed)
        except BaseException:
            # A session this hello made is forgotten; one that existed before
            # (attached elsewhere, or detached and kept) stays as it was.
            self.feed(session, SessionEvent.ABANDONED, None)
            raise
        if self.egress.sock is None or session.ended:
            return  # shut down, or ended by a bye meanwhile
        if self.table.owner(rid) not in (None, principal):
            # The routing id went to another principal's new connection
            # while this hello was read (server._take_over): nothing of this
            # session, its hello.ok and drafts least, may go there.
            self.feed(session, SessionEvent.ABANDONED, None)
            log.info("hello_dropped", principal=principal, reason="routing_id_taken_over")
            return
        if (
            room_from is not None
            and room_from is not session
            and room_from.attached
            and monotonic_s() - room_from.last_seen_s > self.quota.heartbeat_s
        ):
            # Room for a resume, made only now that it is found and attached
            # (a refused one changes nothing), and only if that session is
            # still silent (its own client may have come back meanwhile).
            self.feed(room_from, SessionEvent.REPLACED, None)
        if (other := self.table.on(rid)) is not None:  # this connection said hello again
            self.feed(other, SessionEvent.REHELLO, None)
        # Attach and answer in one step: hello.ok is seq 0, nothing can precede it.
        self.feed(session, SessionEvent.RESUME if resumed else SessionEvent.HELLO_OK, rid)
        session.replies.begin(msg.id)
        self.egress.send(
            session,
            HelloOk(
                ref=msg.id,
                principal=principal,
                role="agent" if agent is not None else "steward",
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
        self.pipeline.on_greeted(session)
        log.info("session_attached", session=session.id, principal=principal, resumed=resumed)

    def _new_session(
        self, principal: str, client: str, output: OutputFormat, session_id: str
    ) -> Session:
        session = Session(
            id=session_id,
            principal=principal,
            client=client,
            output=output,
            outbox=Outbox(
                max_chunks=self.cfg.output_queue_chunks,
                max_control=self.cfg.output_queue_chunks * 4,
            ),
            replies=Replies(window=self.cfg.idempotency_window),
        )
        self.table.add(session)
        return session

    async def _find_resumable(self, principal: str, session_id: str) -> Session | None:
        session = self.table.get(session_id)
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
        turns = await self.store.call(EventLog.turns_of, session_id, self.cfg.idempotency_window)
        raced = self.table.get(session_id)
        if raced is not None:  # another resume of it finished while we read
            return raced if not raced.ended else None
        session = self._new_session(
            principal, row["client"], OutputFormat(rate=16000, speak=False), session_id
        )
        session.replies.load([(o.msg_id, decode_replies(o.replies)) for o in outcomes])
        session.replies.ended_turns.update(dict.fromkeys(turns))  # a cancel of one: a no-op
        return session
