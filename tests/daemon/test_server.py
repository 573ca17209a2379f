"""The daemon over real sockets: CURVE + ZAP, handshake, strictness, isolation, fairness."""

from __future__ import annotations

import time

import msgspec
import pytest
import zmq

from tests.conftest import RunningDaemon, fast_config, start_daemon
from vac.client.connection import ClientKeys, Connection, Timeout
from vac.daemon import keys
from vac.home import Home
from vac.protocol.codec import encode_inbound
from vac.protocol.messages import (
    MARKER,
    AudioInputChunk,
    Error,
    Hello,
    HelloOk,
    OutputRequest,
    Ping,
    Pong,
    ServerBye,
    TextInput,
    TranscriptFinal,
    TurnDone,
)
from vac.runtime.store import EventLog

pytestmark = pytest.mark.slow


def hello_frames(msg_id: str = "h1", **over: object) -> list[bytes]:
    header = {
        "type": "hello",
        "id": msg_id,
        "versions": [1],
        "client": "t",
        "output": {"rate": 16000, "speak": False},
    }
    header.update(over)
    return [MARKER, msgspec.msgpack.encode(header)]


def test_unenrolled_key_never_gets_an_answer(daemon: RunningDaemon, tmp_path: object) -> None:
    import zmq.auth

    server_public, _ = zmq.auth.load_certificate(str(daemon.home.server_public))
    public, secret = zmq.curve_keypair()
    with Connection(daemon.endpoint, ClientKeys(server_public, public, secret)) as stranger:
        stranger.send(Ping(id="p"))
        stranger.send_frames(hello_frames())
        with pytest.raises(Timeout):
            stranger.recv(1.0)
    rows = daemon.query(EventLog.audit_rows)
    assert any(r["kind"] == "auth_failed" for r in rows)


def test_ping_before_hello_and_handshake_required(daemon: RunningDaemon) -> None:
    c = daemon.connect()
    c.send(Ping(id="p0"))
    pong = c.expect(Pong)
    assert pong.session is None and pong.seq is None
    c.send(TextInput(id="t0", text="hi"))
    err = c.expect(Error)
    assert (err.code, err.ref) == ("handshake_required", "t0")


def test_hello_ok_fields_and_contiguous_seq(daemon: RunningDaemon) -> None:
    c = daemon.connect()
    ok = c.hello(rate=48000)
    assert ok.seq == 0 and ok.session and ok.principal == "alice" and ok.version == 1
    assert ok.output.rate == 48000 and ok.input.rate == 16000 and not ok.resumed
    assert ok.limits.output_queue_chunks > 0 and "text.input" in ok.features
    seqs = [ok.seq]
    for i in range(5):
        c.send(Ping(id=f"p{i}"))
        seqs.append(c.expect(Pong).seq)  # type: ignore[arg-type]
    assert seqs == list(range(6))


def test_a_daemon_without_speech_output_answers_speak_false(daemon: RunningDaemon) -> None:
    # A text-only daemon: a client asking for audio is told it gets none, so
    # it never waits for an `audio.output.*` that cannot come.
    ok = daemon.connect().hello(speak=True)
    assert "audio.output" not in ok.features and ok.output.speak is False


def fr(header: object, *extra: bytes) -> list[bytes]:
    return [MARKER, msgspec.msgpack.encode(header), *extra]


CHUNK0 = {"type": "audio.input.chunk", "stream": "s", "seq": 0}
MALFORMED: list[tuple[str, list[bytes], str | None]] = [
    ("unknown type", fr({"type": "nope", "id": "m1"}), "m1"),
    ("unknown field", fr({"type": "ping", "id": "m2", "x": 1}), "m2"),
    ("mistyped field", fr({"type": "text.input", "id": "m3", "text": 5}), "m3"),
    ("missing field", fr({"type": "text.input", "id": "m4"}), "m4"),
    ("missing id", fr({"type": "ping"}), None),
    ("bad marker", [b"HELLO", msgspec.msgpack.encode({"type": "ping", "id": "m5"})], "m5"),
    ("one frame", [MARKER], None),
    ("four frames", fr({"type": "ping", "id": "m6"}, b"a", b"b"), "m6"),
    ("payload on ping", fr({"type": "ping", "id": "m7"}, b"xx"), "m7"),
    ("chunk without payload", fr({**CHUNK0, "id": "m8"}), "m8"),
    ("not msgpack", [MARKER, b"\xc1\xc1\xc1"], None),
    ("header not a map", fr([1, 2]), None),
    ("header over 8 KiB", fr({"type": "ping", "id": "m9", "pad": "x" * 9000}), None),
    ("negative seq", fr({**CHUNK0, "id": "m10", "seq": -1}, b"\0\0"), "m10"),
    ("id too long", fr({"type": "ping", "id": "x" * 65}), None),
    ("text too long", fr({"type": "text.input", "id": "m11", "text": "a" * 2001}), "m11"),
    # {"type": "ping", "id": [[[... 3000 deep ...]]]}: msgspec would recurse to the limit.
    (
        "deeply nested",
        [MARKER, bytes.fromhex("82a474797065a470696e67a26964") + b"\x91" * 3000 + b"\x01"],
        None,
    ),
]


@pytest.mark.parametrize(("name", "frames", "ref"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_input_is_invalid_message_and_daemon_keeps_answering(
    daemon: RunningDaemon, name: str, frames: list[bytes], ref: str | None
) -> None:
    c = daemon.connect()
    ok = c.hello()
    c.send_frames(frames)
    err = c.expect(Error)
    assert err.code == "invalid_message", err
    assert err.ref == ref
    assert err.session == ok.session
    c.send(Ping(id="after"))
    assert c.expect(Pong).ref == "after"


def test_unsupported_version(daemon: RunningDaemon) -> None:
    c = daemon.connect()
    c.send_frames(hello_frames(versions=[2]))
    err = c.expect(Error)
    assert (err.code, err.ref) == ("unsupported_version", "h1")
    c.send_frames([b"VAC/2", msgspec.msgpack.encode({"type": "ping", "id": "x"})])
    assert c.expect(Error).code == "unsupported_version"


def test_revoked_principal_is_refused_on_live_connection(daemon: RunningDaemon) -> None:
    c = daemon.connect("bob")
    c.hello()
    c.send(Ping(id="p1"))
    c.expect(Pong)
    assert keys.revoke(daemon.home, "bob")
    c.send(Ping(id="p2"))
    err = c.expect(Error)
    assert (err.code, err.ref) == ("unauthorized", "p2")  # §2: ref, as it could be read
    # In its session (§2: session and the next seq), then the session's end.
    assert err.session is not None and err.seq == 2
    bye = c.expect(ServerBye)
    assert (bye.reason, bye.seq) == ("revoked", 3)
    c.send(Ping(id="p3"))
    with pytest.raises(Timeout):
        c.recv(0.5)  # then silence
    audit = daemon.query(EventLog.audit_rows, "bob")
    assert any(r["kind"] == "revoked_key_used" for r in audit)


def test_enrolment_by_another_process_is_seen_without_restart(daemon: RunningDaemon) -> None:
    keys.enroll(daemon.home, "carol")
    c = daemon.connect("carol")
    assert c.hello().principal == "carol"


def test_two_principals_never_see_each_others_messages(daemon: RunningDaemon) -> None:
    a, b = daemon.connect("alice"), daemon.connect("bob")
    ok_a, ok_b = a.hello(), b.hello()
    a.send(TextInput(id="ta", text="alice secret words"))
    b.send(TextInput(id="tb", text="bob words"))
    a_msgs = [m for m, _ in a.recv_until(lambda m: isinstance(m, TurnDone), 5)]
    b_msgs = [m for m, _ in b.recv_until(lambda m: isinstance(m, TurnDone), 5)]
    assert all(m.session == ok_a.session for m in a_msgs)
    assert all(m.session == ok_b.session for m in b_msgs)
    finals_b = [m for m in b_msgs if isinstance(m, TranscriptFinal)]
    assert [f.text for f in finals_b] == ["bob words"]
    assert list(a.drain(0.3)) == [] and list(b.drain(0.1)) == []
    # Resume of another principal's session looks exactly like an unknown one.
    c = daemon.connect("bob")
    c.send(
        Hello(
            id="r",
            versions=[1],
            client="t",
            output=OutputRequest(rate=16000, speak=False),
            resume=ok_a.session,
        )
    )
    err = c.expect(Error)
    assert err.code == "session_unknown"
    c.send(
        Hello(
            id="r2",
            versions=[1],
            client="t",
            output=OutputRequest(rate=16000, speak=False),
            resume="0" * 32,
        )
    )
    err2 = c.expect(Error)
    assert (err2.code, err2.message) == ("session_unknown", err.message)


def test_repeated_id_is_answered_with_stored_outcome(daemon: RunningDaemon) -> None:
    c = daemon.connect()
    c.hello()
    c.send(TextInput(id="same", text="once"))
    first = [m for m, _ in c.recv_until(lambda m: isinstance(m, TurnDone), 5)]
    c.send(TextInput(id="same", text="once"))
    # The whole outcome again, to its turn.done (a client that lost the
    # replies and retries must not wait for ever): the same turn, no second.
    again = [m for m, _ in c.recv_until(lambda m: isinstance(m, TurnDone), 5)]
    t1 = next(m for m in first if isinstance(m, TranscriptFinal))
    t2 = next(m for m in again if isinstance(m, TranscriptFinal))
    assert t1.turn == t2.turn  # the same turn, not a second one
    assert [type(m) for m in again] == [type(m) for m in first]
    assert next(m for m in again if isinstance(m, TurnDone)).turn == t1.turn
    rows = daemon.query(EventLog.conversation_of, t1.session or "")
    assert [r["text"] for r in rows] == ["once"]


def test_reconnect_and_resume(daemon: RunningDaemon) -> None:
    c1 = daemon.connect()
    ok1 = c1.hello()
    c2 = daemon.connect()
    ok2 = c2.hello(resume=ok1.session)
    assert ok2.resumed and ok2.session == ok1.session and ok2.seq == 0
    bye = c1.expect(ServerBye)
    assert bye.reason == "replaced"
    # The old connection no longer has a session.
    c1.send(TextInput(id="x", text="hi"))
    assert c1.expect(Error).code == "handshake_required"


def test_slow_reader_does_not_delay_another_clients_pong(home: Home) -> None:
    d = start_daemon(home, config=fast_config(output_queue_chunks=16))
    try:
        ctx = zmq.Context()
        stuck = d.connect("bob")
        stuck.sock.setsockopt(zmq.RCVHWM, 1)
        stuck.sock.setsockopt(zmq.RCVBUF, 4096)
        stuck.hello()
        # Flood without ever reading: the daemon's pipe to bob fills.
        for i in range(3000):
            stuck.send(Ping(id=f"f{i}"))
        fast = d.connect("alice")
        fast.hello()
        worst_s = 0.0
        for i in range(20):
            t0 = time.perf_counter()
            fast.send(Ping(id=f"q{i}"))
            fast.expect(Pong, 2.0)
            worst_s = max(worst_s, time.perf_counter() - t0)
        assert worst_s < 0.5, f"pong took {worst_s:.3f} s while another client stalled"
        ctx.term()
    finally:
        d.shutdown()


def test_idle_session_gets_bye_and_stays_resumable(home: Home) -> None:
    d = start_daemon(home, config=fast_config(heartbeat_ms=500))
    try:
        c = d.connect()
        ok = c.hello()
        bye = c.expect(ServerBye, 5.0)
        assert bye.reason == "idle"
        c2 = d.connect()
        assert c2.hello(resume=ok.session).resumed
    finally:
        d.shutdown()


def test_chunk_ids_are_not_replayed_but_control_is_never_rate_limited(home: Home) -> None:
    d = start_daemon(home, config=fast_config(messages_per_s=10))
    try:
        c = d.connect()
        c.hello()
        for i in range(40):
            c.send(AudioInputChunk(id=f"c{i}", stream="nope", seq=i), b"\0\0")
        codes = {m.code for m in c.drain(0.5) if isinstance(m, Error)}
        assert "rate_limited" in codes
    finally:
        d.shutdown()


def test_frames_are_exact(daemon: RunningDaemon) -> None:
    c = daemon.connect()
    c.hello()
    c.send_frames(encode_inbound(Ping(id="raw")))
    raw = c.sock.recv_multipart()
    assert raw[0] == MARKER and len(raw) == 2
    header = msgspec.msgpack.decode(raw[1])
    assert header["type"] == "pong" and header["seq"] == 1 and "session" in header
    assert isinstance(HelloOk, type)


def test_a_rate_limited_id_is_executed_when_sent_again(home: Home) -> None:
    d = start_daemon(home, config=fast_config(messages_per_s=10))
    try:
        c = d.connect()
        c.hello()
        for i in range(30):
            c.send(Ping(id=f"p{i}"))
        limited = [m.ref for m in c.drain(0.5) if isinstance(m, Error) and m.code == "rate_limited"]
        assert limited
        time.sleep(1.5)  # the bucket refills
        c.send(Ping(id=limited[0]))
        assert c.expect(Pong).ref == limited[0]  # retried, not answered with the stored error
    finally:
        d.shutdown()


def test_a_hello_sent_again_with_its_id_is_answered_with_its_hello_ok(
    daemon: RunningDaemon,
) -> None:
    """A client-author probe: a hello retried with the same id (its hello.ok
    lost) made a second session and left the first detached (§2)."""
    c = daemon.connect()
    first = c.hello()
    hello = Hello(
        id=first.ref or "", versions=[1], client="t", output=OutputRequest(rate=16000, speak=False)
    )
    c.send(Ping(id="between"))
    assert c.expect(Pong, 5).seq == 1
    c.send(hello)
    again = c.expect(HelloOk, 5)
    assert again.session == first.session and again.ref == first.ref
    assert again.seq == 0  # §2: 0 on every hello.ok (a probe: it was 2)
    c.send(Ping(id="after"))
    pong = c.expect(Pong, 5)
    assert pong.session == first.session and pong.seq == 1  # still attached, no bye


def test_a_hello_sent_again_while_it_is_answered_makes_one_session(
    daemon: RunningDaemon,
) -> None:
    """The review's leftover: the same hello sent twice at once (before its
    hello.ok) made two sessions, the first left detached."""
    c = daemon.connect()
    hello = Hello(
        id="h-twice", versions=[1], client="t", output=OutputRequest(rate=16000, speak=False)
    )
    c.send(hello)
    c.send(hello)  # read while the first is still being answered (its row is written first)
    got = [m for m in c.drain(1.0) if isinstance(m, HelloOk)]
    assert len(got) == 1 and got[0].ref == "h-twice", got
    c.send(Ping(id="after"))
    assert c.expect(Pong, 5).session == got[0].session
    sessions = daemon.call(lambda: len(daemon.server.table.attached_of("alice")))
    assert sessions == 1


def test_a_refused_resume_leaves_the_connections_session_attached(
    daemon: RunningDaemon,
) -> None:
    """A client-author probe: a hello resuming an unknown session was refused
    (`session_unknown`), yet it detached the session the connection had."""
    c = daemon.connect()
    ok = c.hello()
    c.send(
        Hello(
            id="r-unknown",
            versions=[1],
            client="t",
            output=OutputRequest(rate=16000, speak=False),
            resume="ab" * 16,
        )
    )
    refused = c.expect(Error)
    assert refused.code == "session_unknown"
    # In the connection's session, with its `session` and `seq` (§2; a probe: none)
    assert refused.session == ok.session and refused.seq == 1
    c.send(Ping(id="still"))
    pong = c.expect(Pong, 5)
    assert (pong.session, pong.seq) == (ok.session, 2)  # not handshake_required
    # A resume that is found still moves the connection to that session.
    other = daemon.connect()
    moved = other.hello()
    other.close()
    c.send(
        Hello(
            id="r-found",
            versions=[1],
            client="t",
            output=OutputRequest(rate=16000, speak=False),
            resume=moved.session,
        )
    )
    assert c.expect(HelloOk, 5).session == moved.session
    c.send(Ping(id="after"))
    assert c.expect(Pong, 5).session == moved.session
