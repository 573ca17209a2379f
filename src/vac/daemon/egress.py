"""Bounded egress: outboxes drained with non-blocking sends, and the one
place an exception becomes a wire `error`.

Sends never block: each session has a bounded outbox, flushed as far as its
peer will take at once; what is left waits for the send loop, so a peer
that cannot take output only ever delays itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any, Final

import msgspec
import zmq
import zmq.asyncio

from vac.daemon.connections import ConnectionWatch
from vac.daemon.sessions import SessionTable
from vac.errors import VacError
from vac.lifecycle.session import SessionEvent
from vac.logs import get_logger
from vac.protocol.codec import encode_outbound
from vac.protocol.messages import AudioOutputChunk, Error, HelloOk, Outbound
from vac.runtime.session import OutboxFull, Session

RETRY_SEND_S: Final = 0.005

log = get_logger("vac.server")

# Called when a send finds the session's peer lost (overflow, unreachable).
# (session, event, the routing id that was lost): the id says which connection
# failed, so a report about a connection the session already left is stale.
OnLost = Callable[[Session, SessionEvent, bytes], None]


def to_wire(exc: VacError) -> Error:
    """The one translation of an exception into a wire `error` (PROTOCOL §6)."""
    return Error(
        code=exc.code,
        message=exc.message,
        ref=exc.ref,
        retryable=exc.retryable,
        stream=exc.stream,
        turn=exc.turn,
        details=exc.details,
    )


# `error_sent` lines per principal and code in a minute; past it one line
# says how many were left out. A client sending 400 bad chunks a second
# otherwise wrote ~100 KB/s into the journal (an adversarial probe).
ERROR_LINES_PER_MIN: Final = 10
ERROR_LOG_WINDOW_S: Final = 60.0


class ErrorLogBudget:
    """How many `error_sent` lines each (principal, code) may still write
    this minute; what was left out is counted and said (`error_sent_left_out`)
    with the first line of a later minute. Bounded: principals are enrolled,
    codes a closed set."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        # (principal, code) -> (window start, lines written, lines left out)
        self._windows: dict[tuple[str | None, str], tuple[float, int, int]] = {}

    def allow(self, principal: str | None, code: str) -> tuple[bool, int]:
        """Whether to write this line, and how many were left out in the
        minute that just ended (to say so first)."""
        now, key = self._clock(), (principal, code)
        start, written, left_out = self._windows.get(key, (now, 0, 0))
        ended = 0
        if now - start >= ERROR_LOG_WINDOW_S:
            start, written, ended, left_out = now, 0, left_out, 0
        if written < ERROR_LINES_PER_MIN:
            self._windows[key] = (start, written + 1, left_out)
            return True, ended
        self._windows[key] = (start, written, left_out + 1)
        return False, ended


def log_error_sent(
    err: Error, principal: str | None, session: str | None, budget: ErrorLogBudget
) -> None:
    """The one log line of an `error` the daemon sends (replays of an id's outcome aside),
    at most `ERROR_LINES_PER_MIN` a minute per principal and code.

    Warning level whatever the code: the cause of an `internal` error is
    logged at error level, with its traceback, where it was caught.
    `message` is left out: it can quote what the client sent.
    """
    write, left_out = budget.allow(principal, err.code)
    if left_out:
        log.warning("error_sent_left_out", code=err.code, principal=principal, count=left_out)
    if not write:
        return
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


class Egress:
    def __init__(self, table: SessionTable, on_lost: OnLost) -> None:
        self.table = table
        self.on_lost = on_lost
        self.sock: zmq.asyncio.Socket | None = None  # set by bind, cleared by close
        self.watch: ConnectionWatch | None = None  # set by bind: which ids' peers left
        # Sessions whose peer did not take all of their output yet.
        self._dirty: set[str] = set()
        self._wake = asyncio.Event()
        self._logged = ErrorLogBudget(time.monotonic)  # this daemon's `error_sent` lines

    # --------------------------------------------------------- sessions

    def send(
        self, session: Session, msg: Outbound, payload: bytes | None = None, *, record: bool = True
    ) -> bool:
        """Queue a message for a session. False if it could not be queued.

        Raises nothing: a full outbox of control messages drops the session
        (its peer is not reading at all); a full chunk budget is reported to
        the caller of `try_send_chunk`.
        """
        # Kept as the id's outcome even while detached: a client that resumes
        # and sends the id again gets what it missed (and a repeat waiting
        # for the outcome is not left waiting for ever).
        complete = session.replies.record(msg) if record else []
        if (rid := session.connection) is None:
            return False
        try:
            session.outbox.push(msg, payload)
            for ref, repeats in complete:  # repeats of its id sent meanwhile: now answered
                for _ in range(repeats):
                    for reply in session.replies.seen(ref) or ():
                        session.outbox.push(reply, None)
        except OutboxFull:
            log.warning("outbox_overflow_detaching", session=session.id)
            self.on_lost(session, SessionEvent.OVERFLOW, rid)
            return False
        self._kick(session)
        return True

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

    def drop_chunks(self, session: Session, generation: int) -> int:
        """Remove one generation's queued, unsent chunks (a cancelled reply)."""
        return session.outbox.drop_chunks(generation)

    def error(
        self,
        rid: bytes,
        exc: VacError,
        *,
        session: Session | None = None,
        principal: str | None = None,
    ) -> None:
        """Tell a connection about `exc`, logged once (`error_sent`).

        Through the session's outbox when `rid` is its connection, straight
        to the socket otherwise (no session, or a refusal on a connection
        that is not the session's). `principal` names the sender when there
        is no session.
        """
        err = to_wire(exc)
        if session is not None:
            principal = session.principal
        log_error_sent(err, principal, session.id if session is not None else None, self._logged)
        if session is not None and session.connection == rid:
            self.send(session, err)
        else:
            self.send_raw(rid, err)

    def settle(self, session_id: str) -> None:
        """The session left its connection: nothing of it waits any more."""
        self._dirty.discard(session_id)

    # ------------------------------------------------------------ socket

    def send_raw(self, rid: bytes, msg: Outbound) -> None:
        """A message outside any session (pong to an early ping, an error)."""
        if self.sock is None:
            return
        with contextlib.suppress(zmq.ZMQError):
            self.send_now([rid, *encode_outbound(msg)])

    def send_now(self, frames: list[bytes]) -> None:
        """A non-blocking send that raises `zmq.Again` / `ZMQError` right here.

        zmq.asyncio resolves a DONTWAIT send immediately (we never leave send
        futures waiting), so its outcome is known before we return.
        """
        assert self.sock is not None
        if self.watch is not None and self.watch.closed(frames[0]):
            # That connection closed: the id may be another peer's by now (§1).
            raise zmq.ZMQError(zmq.EHOSTUNREACH)
        fut: asyncio.Future[Any] = self.sock.send_multipart(  # type: ignore[assignment]
            frames, flags=zmq.NOBLOCK, copy=False
        )
        if not fut.done():  # pragma: no cover - only if someone awaited a send
            raise zmq.Again()
        if (exc := fut.exception()) is not None:
            raise exc

    def _kick(self, session: Session) -> None:
        """Send now what the peer will take; leave the rest to the send loop."""
        if session.id in self._dirty:
            return  # already waiting on a slow peer: keep order, don't spin
        if self.flush(session):
            self._dirty.add(session.id)
            self._wake.set()

    def flush(self, session: Session) -> bool:
        """Send what the peer will take now. True if output is still waiting."""
        rid = session.connection
        if self.sock is None:
            return False  # closed at shutdown: nothing more goes out
        while rid is not None and len(session.outbox):
            msg, payload = session.outbox.peek()
            if isinstance(msg, HelloOk):
                # §2: 0 on every hello.ok, also one sent again for a repeated
                # hello id (a client probe: it came at seq 2 and a client
                # written to the contract reported a gap).
                session.seq = 0
            stamped = msgspec.structs.replace(msg, session=session.id, seq=session.seq)
            try:
                self.send_now([rid, *encode_outbound(stamped, payload)])
            except zmq.Again:
                return True
            except zmq.ZMQError as exc:
                if exc.errno == zmq.EHOSTUNREACH:  # the peer is gone
                    self.on_lost(session, SessionEvent.UNREACHABLE, rid)
                    return False
                raise
            session.outbox.pop()
            session.seq += 1
        return False

    def flush_all(self) -> bool:
        """Flush every session that had output waiting. True if some still has."""
        blocked = False
        for sid in list(self._dirty):
            session = self.table.get(sid)
            if session is None or not self.flush(session):
                self._dirty.discard(sid)
            else:
                blocked = True
        return blocked

    async def run(self) -> None:
        """The send loop: retry peers that were not reading, without spinning."""
        while True:
            await self._wake.wait()
            self._wake.clear()
            try:
                blocked = self.flush_all()
            except Exception:
                log.exception("send_loop_failed")  # never take the daemon down
                blocked = True
            if blocked:
                # Some peer is not reading; look again soon without spinning.
                await asyncio.sleep(RETRY_SEND_S)
                self._wake.set()
