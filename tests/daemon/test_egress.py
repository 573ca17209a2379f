"""Egress without a socket: the one translation of an exception into a wire
`error`, and bounded outboxes flushed through a fake non-blocking socket."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import zmq
from structlog.testing import capture_logs

from vac.daemon.egress import Egress, to_wire
from vac.daemon.sessions import SessionTable
from vac.errors import VacError
from vac.lifecycle.session import SessionEvent
from vac.protocol.codec import decode_outbound
from vac.protocol.errors import ProtocolError
from vac.protocol.messages import AudioOutputChunk, Error, OutputFormat, Pong
from vac.runtime.session import Outbox, Replies, Session
from vac.runtime.store import StorageUnavailable


class FakeSocket:
    """Takes `room` messages, then says `zmq.Again` (or raises `fail`)."""

    def __init__(self, room: int = 1000, fail: int | None = None) -> None:
        self.room = room
        self.fail = fail
        self.sent: list[list[bytes]] = []

    def send_multipart(self, frames: list[bytes], **_: Any) -> asyncio.Future[None]:
        fut: asyncio.Future[None] = asyncio.get_event_loop_policy().get_event_loop().create_future()
        if self.fail is not None:
            fut.set_exception(zmq.ZMQError(self.fail))
        elif self.room <= 0:
            fut.set_exception(zmq.Again())
        else:
            self.room -= 1
            self.sent.append([bytes(f) for f in frames])
            fut.set_result(None)
        return fut


def attached(rid: bytes = b"r1", max_control: int = 8) -> Session:
    return Session(
        "s1",
        "alice",
        "t",
        OutputFormat(rate=16000, speak=False),
        Outbox(max_chunks=2, max_control=max_control),
        Replies(window=8),
        rid,
    )


def egress(sock: FakeSocket) -> tuple[Egress, list[tuple[Session, SessionEvent, bytes]]]:
    lost: list[tuple[Session, SessionEvent, bytes]] = []
    out = Egress(
        SessionTable(max_detached_per_principal=1, max_detached=1),
        lambda s, e, r: lost.append((s, e, r)),
    )
    out.sock = sock  # type: ignore[assignment]
    return out, lost


def test_to_wire_carries_every_field() -> None:
    exc = ProtocolError("input_gap", "gap", ref="m", stream="st", turn="t", details={"a": 1})
    assert to_wire(exc) == Error(
        code="input_gap",
        message="gap",
        ref="m",
        retryable=False,
        stream="st",
        turn="t",
        details={"a": 1},
    )
    assert to_wire(VacError("oops")).code == "internal" and to_wire(VacError("oops")).retryable


def test_a_storage_failure_reaches_a_client_without_its_reason() -> None:
    err = to_wire(StorageUnavailable("disk I/O error at /home/x/vac.db").with_ref("h1"))
    assert (err.code, err.ref, err.retryable) == ("provider_unavailable", "h1", True)
    assert err.message == "the event log could not be written; nothing was changed, try again"
    assert err.details == {"provider": "storage", "retry_after_ms": 1000}


def test_error_is_logged_once_and_queued_in_the_session() -> None:
    sock = FakeSocket()
    out, _ = egress(sock)
    session = attached()
    with capture_logs() as logs:
        out.error(b"r1", ProtocolError("busy", "later", ref="m1"), session=session)
        out.error(b"r9", ProtocolError("unauthorized", "no"), principal="bob")
    sent = [e for e in logs if e["event"] == "error_sent"]
    assert [(e["code"], e["principal"], e["session"]) for e in sent] == [
        ("busy", "alice", "s1"),
        ("unauthorized", "bob", None),
    ]
    assert [f[0] for f in sock.sent] == [b"r1", b"r9"]
    first, _ = decode_outbound(sock.sent[0][1:])
    assert isinstance(first, Error) and first.session == "s1" and first.seq == 0


def test_a_slow_peer_keeps_its_output_in_order() -> None:
    sock = FakeSocket(room=1)
    out, _ = egress(sock)
    session = attached()
    out.table.add(session)
    assert out.send(session, Pong(ref="a")) and out.send(session, Pong(ref="b"))
    assert len(sock.sent) == 1 and len(session.outbox) == 1
    sock.room = 5
    assert out.flush_all() is False
    assert [decode_outbound(f[1:])[0].ref for f in sock.sent] == ["a", "b"]  # type: ignore[union-attr]


def test_a_full_chunk_budget_refuses_chunks_only() -> None:
    out, lost = egress(FakeSocket(room=0))
    session = attached()
    chunk = AudioOutputChunk(stream="o", generation=1, index=0)
    assert out.try_send_chunk(session, chunk, b"\0\0")
    assert out.try_send_chunk(session, chunk, b"\0\0")
    assert not out.try_send_chunk(session, chunk, b"\0\0")
    assert out.drop_chunks(session, 1) == 2 and lost == []


def test_lost_peers_are_reported_to_the_lifecycle() -> None:
    out, lost = egress(FakeSocket(room=0))
    session = attached(max_control=1)
    assert out.send(session, Pong(ref="a"))
    assert not out.send(session, Pong(ref="b"))
    assert lost == [(session, SessionEvent.OVERFLOW, session.connection)]
    gone, lost2 = egress(FakeSocket(fail=zmq.EHOSTUNREACH))
    assert not gone.flush(session)
    assert lost2 == [(session, SessionEvent.UNREACHABLE, session.connection)]


def test_nothing_goes_out_once_closed() -> None:
    out, _ = egress(FakeSocket())
    out.sock = None
    session = attached()
    session.outbox.push(Pong(ref="a"))
    assert out.flush(session) is False and len(session.outbox) == 1
    out.send_raw(b"r1", Pong(ref="a"))  # no socket: dropped, no error


@pytest.fixture(autouse=True)
def loop() -> Any:
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    yield loop
    asyncio.set_event_loop(None)
    loop.close()


def test_a_reply_sent_while_detached_is_kept_for_the_ids_repeat() -> None:
    # A review: a repeat that waited for its outcome was never answered when
    # the turn ended while the client was away (nothing was recorded then).
    session = attached()
    out, _ = egress(FakeSocket())
    session.replies.begin("m1")
    assert session.replies.wait("m1")  # sent again before any reply
    session.connection = None  # the client went away
    assert not out.send(session, Pong(ref="m1"))
    assert session.replies.seen("m1") == [Pong(ref="m1")]  # what a resumed repeat gets
