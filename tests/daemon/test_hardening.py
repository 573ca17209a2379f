"""Issue 8 over real sockets: quotas, failed writes, frame bounds, early floods,
auth-failure audit, routing-id reuse, and what the log says about refusals."""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator, MutableMapping
from typing import Any

import pytest
import zmq
import zmq.auth
from structlog.testing import capture_logs
from zmq.utils.monitor import recv_monitor_message

import vac.daemon.server as server_module
from tests.conftest import RunningDaemon, client_keys, fast_config, start_daemon
from vac.client.connection import ClientKeys
from vac.home import Home
from vac.protocol.codec import decode_outbound, encode_inbound, encode_outbound, header_bytes
from vac.protocol.messages import (
    MARKER,
    Error,
    Hello,
    HelloOk,
    OutboundMessage,
    OutputRequest,
    Ping,
    Pong,
    ServerBye,
    TextInput,
    TurnCancel,
    TurnDone,
)
from vac.runtime.store import EventLog

pytestmark = pytest.mark.slow


# ---------------------------------------------------------------- helpers


@pytest.fixture
def ctx() -> Iterator[zmq.Context[Any]]:
    context: zmq.Context[Any] = zmq.Context()
    yield context
    context.destroy(linger=0)


def dealer(
    ctx: zmq.Context[Any], endpoint: str, keys: ClientKeys, *, routing_id: bytes | None = None
) -> zmq.Socket[bytes]:
    """A bare DEALER with CURVE keys (and, when asked, a routing id of our choosing)."""
    sock: zmq.Socket[bytes] = ctx.socket(zmq.DEALER)
    sock.setsockopt(zmq.LINGER, 0)
    sock.curve_serverkey = keys.server_public
    sock.curve_publickey = keys.public
    sock.curve_secretkey = keys.secret
    if routing_id is not None:
        sock.setsockopt(zmq.ROUTING_ID, routing_id)
    sock.connect(endpoint)
    return sock


def hello(msg_id: str, resume: str | None = None) -> Hello:
    output = OutputRequest(rate=16000, speak=False)
    return Hello(id=msg_id, versions=[1], client="t", output=output, resume=resume)


def send(sock: zmq.Socket[bytes], msg: Any) -> None:
    sock.send_multipart(encode_inbound(msg))


def recv(sock: zmq.Socket[bytes], timeout_s: float = 5.0) -> OutboundMessage:
    if not sock.poll(int(timeout_s * 1000)):
        raise AssertionError(f"no reply within {timeout_s} s")
    msg, _ = decode_outbound(sock.recv_multipart())
    assert msg is not None
    return msg


def drain(sock: zmq.Socket[bytes], quiet_s: float) -> list[OutboundMessage]:
    """Everything that arrives until the socket has been quiet for `quiet_s`."""
    out = []
    while sock.poll(int(quiet_s * 1000)):
        msg, _ = decode_outbound(sock.recv_multipart())
        assert msg is not None
        out.append(msg)
    return out


def stranger_keys(home: Home) -> ClientKeys:
    server_public, _ = zmq.auth.load_certificate(str(home.server_public))
    public, secret = zmq.curve_keypair()
    return ClientKeys(server_public, public, secret)


def rss_mb() -> float:
    """This process's resident memory; the test daemon runs in a thread of it."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS in /proc/self/status")


def attached_sessions(d: RunningDaemon, principal: str) -> int:
    return int(
        d.call(
            lambda: sum(
                1 for s in d.server.sessions.values() if s.principal == principal and s.attached
            )
        )
    )


def tracebacks(logs: list[MutableMapping[str, Any]]) -> list[MutableMapping[str, Any]]:
    """Log entries that carry a traceback (only real bugs should)."""
    return [e for e in logs if e.get("exc_info")]


# ------------------------------------------------------- 1. session quota race


def test_concurrent_hellos_of_one_principal_stay_within_the_session_quota(
    daemon: RunningDaemon, ctx: zmq.Context[Any]
) -> None:
    quota = daemon.server.cfg.max_sessions_per_principal
    keys = client_keys(daemon.home, "alice")
    socks = [dealer(ctx, daemon.endpoint, keys) for _ in range(60)]
    # Every connection is up first, so the 60 hellos reach the daemon together.
    for i, sock in enumerate(socks):
        send(sock, Ping(id=f"p{i}"))
    assert all(isinstance(recv(sock), Pong) for sock in socks)
    for i, sock in enumerate(socks):
        send(sock, hello(f"h{i}"))
    replies = [recv(sock, 10.0) for sock in socks]
    oks = [r for r in replies if isinstance(r, HelloOk)]
    limited = [r for r in replies if isinstance(r, Error) and r.code == "rate_limited"]
    assert len(oks) == quota, [getattr(r, "code", "ok") for r in replies]
    assert len(limited) == 60 - quota
    assert all(r.retryable and r.details and r.details["retry_after_ms"] > 0 for r in limited)
    assert attached_sessions(daemon, "alice") == quota
    # Nothing is left reserved: the count is the attached sessions again.
    assert daemon.call(lambda: dict(daemon.server._opening)) == {}


def test_sessions_kept_for_resume_come_back_only_within_the_quota(
    daemon: RunningDaemon, ctx: zmq.Context[Any]
) -> None:
    quota = daemon.server.cfg.max_sessions_per_principal
    keys = client_keys(daemon.home, "alice")
    # One connection says hello quota + 1 times: each hello detaches the
    # session before it (kept for resume), so one is attached and `quota` wait.
    first = dealer(ctx, daemon.endpoint, keys)
    kept = []
    for i in range(quota + 1):
        send(first, hello(f"h{i}"))
        ok = recv(first)
        assert isinstance(ok, HelloOk)
        kept.append(ok.session)
    others = [dealer(ctx, daemon.endpoint, keys) for _ in range(quota - 1)]
    for i, sock in enumerate(others):
        send(sock, hello(f"o{i}"))
        assert isinstance(recv(sock), HelloOk)
    assert attached_sessions(daemon, "alice") == quota
    # Resuming a kept session would be one more: refused like a new hello.
    late = dealer(ctx, daemon.endpoint, keys)
    send(late, hello("r1", resume=kept[0]))
    refused = recv(late)
    assert isinstance(refused, Error) and refused.code == "rate_limited", refused
    assert attached_sessions(daemon, "alice") == quota
    # Resuming the attached one from a new connection only moves it.
    send(late, hello("r2", resume=kept[-1]))
    moved = recv(late)
    assert isinstance(moved, HelloOk) and moved.resumed and moved.session == kept[-1]
    assert attached_sessions(daemon, "alice") == quota
    assert daemon.call(lambda: dict(daemon.server._opening)) == {}


# ------------------------------------------------------ 2. hello, write fails


def test_a_resume_of_an_unknown_session_at_the_quota_detaches_nothing(
    daemon: RunningDaemon, ctx: zmq.Context[Any]
) -> None:
    quota = daemon.server.cfg.max_sessions_per_principal
    keys = client_keys(daemon.home, "alice")
    socks = [dealer(ctx, daemon.endpoint, keys) for _ in range(quota)]
    sessions = []
    for i, sock in enumerate(socks):
        send(sock, hello(f"h{i}"))
        ok = recv(sock)
        assert isinstance(ok, HelloOk)
        sessions.append(ok.session)
    # The first has been silent for longer than a heartbeat: a new session
    # at the quota would detach it to make room (`MakeRoom`).
    stale = sessions[0]

    def age() -> None:
        daemon.server.sessions[stale].last_seen_s -= 3600.0

    daemon.call(age)
    late = dealer(ctx, daemon.endpoint, keys)
    send(late, hello("r1", resume="no-such-session"))
    refused = recv(late)
    assert isinstance(refused, Error) and refused.code == "session_unknown", refused
    # Refused, so nothing changed: the stale session is still attached.
    assert daemon.call(lambda: daemon.server.sessions[stale].attached)
    assert attached_sessions(daemon, "alice") == quota
    assert daemon.call(lambda: set(daemon.server.handshakes.making_room)) == set()
    # A resume that is found does make room, as a new hello would.
    kept = dealer(ctx, daemon.endpoint, keys)
    send(kept, hello("k1"))  # over the quota: detaches the stale one
    ok = recv(kept)
    assert isinstance(ok, HelloOk)
    assert not daemon.call(lambda: daemon.server.sessions[stale].attached)
    send(kept, hello("k2"))  # detaches k1's session, kept for resume
    assert isinstance(recv(kept), HelloOk)

    def age_all() -> None:
        for s in daemon.server.sessions.values():
            s.last_seen_s -= 3600.0

    daemon.call(age_all)
    again = dealer(ctx, daemon.endpoint, keys)
    send(again, hello("r2", resume=ok.session))
    back = recv(again)
    assert isinstance(back, HelloOk) and back.resumed and back.session == ok.session
    assert attached_sessions(daemon, "alice") == quota
    assert daemon.call(lambda: dict(daemon.server._opening)) == {}


def test_hello_when_the_event_log_cannot_be_written(daemon: RunningDaemon) -> None:
    # A real failing write: SQLite refuses it, the store says StorageUnavailable.
    daemon.query(lambda log: log._db.execute("PRAGMA query_only=ON"))
    c = daemon.connect()
    with capture_logs() as logs:
        c.send(hello("h1"))
        err = c.expect(Error, 5.0)
    assert (err.code, err.ref, err.retryable) == ("provider_unavailable", "h1", True)
    assert err.details == {"provider": "storage", "retry_after_ms": 1000}
    assert err.message == "the event log could not be written; nothing was changed, try again"
    assert daemon.call(lambda: len(daemon.server.sessions)) == 0  # nothing half-made
    failed = [e for e in logs if e["event"] == "hello_failed"]
    assert len(failed) == 1 and failed[0]["log_level"] == "warning"
    assert tracebacks(logs) == []
    # The disk has room again: the same connection gets its session.
    daemon.query(lambda log: log._db.execute("PRAGMA query_only=OFF"))
    assert c.hello().principal == "alice"


def test_a_bug_in_the_handshake_is_answered_internal_and_logged_once(
    daemon: RunningDaemon, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(session: object, resumed: bool) -> list[object]:
        raise RuntimeError("bug")

    monkeypatch.setattr(daemon.server.pipeline, "on_attached", broken)
    c = daemon.connect()
    with capture_logs() as logs:
        c.send(hello("h1"))
        err = c.expect(Error, 5.0)
    assert (err.code, err.ref, err.retryable) == ("internal", "h1", True)
    assert "bug" not in err.message  # nothing of the daemon's insides reaches a client
    assert daemon.call(lambda: len(daemon.server.sessions)) == 0
    assert len(tracebacks(logs)) == 1
    assert [e["event"] for e in logs if e["log_level"] == "error"] == ["hello_failed"]


# ------------------------------------------- 4. frames bounded at receive


def test_messages_of_many_frames_are_refused_without_being_held(
    daemon: RunningDaemon, ctx: zmq.Context[Any]
) -> None:
    flooder = dealer(ctx, daemon.endpoint, client_keys(daemon.home, "alice"))
    # Zero-copy sends: the 800 frames share one buffer, so the memory we
    # measure is the daemon's, not this client's.
    flooder.copy_threshold = 0
    send(flooder, hello("h"))
    assert isinstance(recv(flooder), HelloOk)
    other = daemon.connect("bob")
    other.hello()
    frame = b"\x01" * 60_000

    def flood(msg_id: str) -> list[bytes]:
        return [MARKER, header_bytes(Ping(id=msg_id)), *[frame] * 798]  # 800 frames

    message_mb = 798 * len(frame) / 2**20
    # libzmq holds a message whole before its first frame can be read (it
    # delivers whole messages only): one message is its cost, not ours, and
    # its memory is reused. Holding the frames ourselves (the old
    # recv_multipart, and a bytes copy of each) cost two to four times that.
    cold_mb = rss_mb()
    flooder.send_multipart(flood("warm"), copy=False)
    assert isinstance(recv(flooder, 30.0), Error)
    base_mb = peak_mb = rss_mb()
    for i in range(10):
        flooder.send_multipart(flood(f"f{i}"), copy=False)
    errors: list[OutboundMessage] = []
    worst_pong_s = 0.0
    deadline = time.monotonic() + 60
    while len(errors) < 10 and time.monotonic() < deadline:
        t0 = time.perf_counter()
        other.send(Ping(id=other.next_id()))
        other.expect(Pong, 2.0)
        worst_pong_s = max(worst_pong_s, time.perf_counter() - t0)
        errors += drain(flooder, 0.02)
        peak_mb = max(peak_mb, rss_mb())
    cold_growth_mb, growth_mb = peak_mb - cold_mb, peak_mb - base_mb
    print(
        f"frame flood: RSS peak +{cold_growth_mb:.1f} MiB from cold, +{growth_mb:.1f} MiB"
        f" for the ten after the first; worst pong {worst_pong_s:.3f} s"
    )
    # At most two at once: libzmq's I/O thread assembles the next message
    # while the daemon refuses the one before, and the allocator may return
    # the first one's memory late. Under a loaded CI run the peak reached
    # +46.5 and +47.6 MiB after the first message and +67.2 MiB from cold
    # (one message is 45.7); ten messages held would be ~460 MiB, so both
    # bounds still fail on any accumulation.
    assert cold_growth_mb < 2 * message_mb + 20, f"RSS grew by {cold_growth_mb:.1f} MiB"
    assert growth_mb < 2 * message_mb + 10, f"RSS grew by {growth_mb:.1f} MiB over ten messages"
    assert worst_pong_s < 0.5, f"a pong took {worst_pong_s:.3f} s"
    assert [(e.code, e.ref) for e in errors if isinstance(e, Error)] == [
        ("invalid_message", f"f{i}") for i in range(10)
    ]
    assert all(
        isinstance(e, Error) and e.message == "message has more than 3 frames" for e in errors
    )
    # Frames stay a little under MAXMSGSIZE: under CURVE, libzmq applies it
    # to the encrypted frame, and a larger one drops the connection.
    big = b"\x02" * 60_000
    flooder.send_multipart([MARKER, header_bytes(Ping(id="big")), big, big], copy=False)
    err = recv(flooder)
    assert isinstance(err, Error) and err.code == "invalid_message"
    assert (err.message, err.ref) == ("message has more than 3 frames", "big")
    # Within the frame count, over the bytes.
    flooder.send_multipart([big, big], copy=False)
    err = recv(flooder)
    assert isinstance(err, Error) and err.code == "invalid_message"
    assert err.message == f"message is over {server_module.MAX_MESSAGE_TOTAL_BYTES} bytes"
    send(flooder, Ping(id="after"))
    assert isinstance(recv(flooder), Pong)


# ------------------------------------------- 5. traffic before a session


def test_pings_before_hello_are_rate_limited_per_connection(daemon: RunningDaemon) -> None:
    c = daemon.connect()
    t0 = time.monotonic()
    for i in range(2000):
        c.send(Ping(id=f"p{i}"))
    replies = list(c.drain(1.0))
    elapsed_s = time.monotonic() - t0
    pongs = [m for m in replies if isinstance(m, Pong)]
    limited = [m for m in replies if isinstance(m, Error) and m.code == "rate_limited"]
    rate = server_module.EARLY_MESSAGES_PER_S
    bound = rate + rate * elapsed_s + 3  # burst + refill + a few
    print(f"early flood: {len(pongs)} pongs, {len(limited)} rate_limited in {elapsed_s:.2f} s")
    assert len(replies) <= bound, f"{len(replies)} replies in {elapsed_s:.2f} s"
    assert len(pongs) >= rate  # the burst itself passes
    assert len(limited) == 1  # one error when it runs dry, then silence
    assert limited[0].details and limited[0].details["retry_after_ms"] > 0
    time.sleep(1.1)  # the bucket refills; the connection is not punished for good
    assert c.hello().principal == "alice"


# ------------------------------------------- 6. auth failures, in bulk


def attempt_once(ctx: zmq.Context[Any], endpoint: str, keys: ClientKeys) -> zmq.Socket[bytes]:
    """A connection that tries its handshake once, never again (no reconnect)."""
    sock: zmq.Socket[bytes] = ctx.socket(zmq.DEALER)
    sock.setsockopt(zmq.LINGER, 0)
    sock.setsockopt(zmq.RECONNECT_IVL, -1)
    sock.curve_serverkey = keys.server_public
    sock.curve_publickey = keys.public
    sock.curve_secretkey = keys.secret
    return sock


def refused_handshakes(
    ctx: zmq.Context[Any], home: Home, endpoint: str, count: int
) -> list[zmq.Socket[bytes]]:
    """`count` distinct unenrolled keys, each refused once; waits for every refusal."""
    socks, monitors = [], []
    for _ in range(count):
        sock = attempt_once(ctx, endpoint, stranger_keys(home))
        monitors.append(sock.get_monitor_socket(zmq.EVENT_HANDSHAKE_FAILED_AUTH))
        sock.connect(endpoint)
        socks.append(sock)
    for monitor in monitors:
        assert monitor.poll(10_000), "a handshake was not refused"
        assert recv_monitor_message(monitor)["event"] == zmq.EVENT_HANDSHAKE_FAILED_AUTH
        monitor.close(linger=0)
    return socks


def auth_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in rows if r["kind"] == "auth_failed"]


def test_auth_failures_of_many_keys_are_audited_in_one_or_two_rows(
    home: Home, ctx: zmq.Context[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server_module, "AUTH_AUDIT_INTERVAL_S", 3600.0)
    d = start_daemon(home, config=fast_config())
    try:
        with capture_logs() as logs:
            refused_handshakes(ctx, home, d.endpoint, 200)
            live_rows = auth_rows(d.query(EventLog.audit_rows))
    finally:
        d.shutdown()
    log = EventLog(home.db_file)
    try:
        rows = auth_rows(log.audit_rows())
    finally:
        log.close()
    totals = [r["detail"]["total"] for r in rows]
    print(f"auth failures: {len(rows)} audit rows for 200 keys, totals {totals}")
    # The first failure is written at once, the rest of the interval at shutdown.
    assert len(live_rows) == 1 and len(rows) == 2
    assert sum(r["detail"]["total"] for r in rows) == 200
    assert sum(r["detail"]["distinct_keys"] for r in rows) == 200
    warnings = [e for e in logs if e["event"] == "auth_failed"]
    assert len(warnings) == 1  # one line per interval, not one per key


def test_auth_failures_are_written_at_most_once_per_interval(
    home: Home, ctx: zmq.Context[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    interval_s = 0.5
    monkeypatch.setattr(server_module, "AUTH_AUDIT_INTERVAL_S", interval_s)
    d = start_daemon(home, config=fast_config())
    try:
        attempts = 0
        for _ in range(3):
            attempts += len(refused_handshakes(ctx, home, d.endpoint, 20))
            time.sleep(0.2)
        deadline = time.monotonic() + 5
        rows = auth_rows(d.query(EventLog.audit_rows))
        while sum(r["detail"]["total"] for r in rows) < attempts and time.monotonic() < deadline:
            time.sleep(0.1)
            rows = auth_rows(d.query(EventLog.audit_rows))
    finally:
        d.shutdown()
    assert sum(r["detail"]["total"] for r in rows) == attempts  # written while running
    gaps_ms = [b["at_ms"] - a["at_ms"] for a, b in itertools.pairwise(rows)]
    assert all(gap >= interval_s * 1000 - 50 for gap in gaps_ms), gaps_ms


# ------------------------------------------- 7. routing-id reuse


def wait_until_gone(d: RunningDaemon, rid: bytes) -> None:
    """Until the daemon's ROUTER has dropped the connection holding `rid`.

    libzmq ignores a second peer with the same routing id while the first is
    connected; probing with ROUTER_MANDATORY tells when the id is free.
    """
    probe = [rid, *encode_outbound(Pong(ref="probe"))]

    def gone() -> bool:
        # The socket itself, not the daemon's watch (which knows a close first).
        sock = d.server.egress.sock
        assert sock is not None
        fut: Any = sock.send_multipart(probe, flags=zmq.NOBLOCK)  # resolved at once
        exc = fut.exception() if fut.done() else None
        return isinstance(exc, zmq.ZMQError) and exc.errno == zmq.EHOSTUNREACH

    deadline = time.monotonic() + 5
    while not d.call(gone):
        assert time.monotonic() < deadline, "the daemon never saw the connection go"
        time.sleep(0.05)


def alice_left(daemon: RunningDaemon, ctx: zmq.Context[Any], rid: bytes) -> HelloOk:
    """Alice says hello on `rid` and leaves; her session is kept (for resume)."""
    alice = dealer(ctx, daemon.endpoint, client_keys(daemon.home, "alice"), routing_id=rid)
    send(alice, hello("ha"))
    ok = recv(alice)
    assert isinstance(ok, HelloOk)
    alice.close(linger=0)
    wait_until_gone(daemon, rid)
    return ok


def test_a_routing_id_another_principal_used_before_is_the_new_peers(
    daemon: RunningDaemon, ctx: zmq.Context[Any]
) -> None:
    """A client-author probe: bob pinged once on the routing id alice uses
    (a host name, say) and alice was refused on it for as long as the daemon
    remembered ("this connection id belongs to another principal"). libzmq
    hands a routing id on only once its holder has gone: the new peer is
    served, and nothing of the first owner's reaches it (§1)."""
    rid = b"shared-id"
    ok = alice_left(daemon, ctx, rid)

    bob = dealer(ctx, daemon.endpoint, client_keys(daemon.home, "bob"), routing_id=rid)
    with capture_logs() as logs:
        send(bob, hello("hb"))
        got = recv(bob)
        assert isinstance(got, HelloOk) and got.principal == "bob"
        assert got.session != ok.session
        send(bob, Ping(id="pb"))
        again = drain(bob, 0.5)
    assert [type(m) for m in again] == [Pong]  # nothing of alice's
    assert tracebacks(logs) == []
    rows = daemon.query(EventLog.audit_rows)
    assert not [r for r in rows if r["kind"] == "revoked_key_used"]
    bob.close(linger=0)
    wait_until_gone(daemon, rid)

    # And back: alice, on the same routing id again, resumes her session.
    alice = dealer(ctx, daemon.endpoint, client_keys(daemon.home, "alice"), routing_id=rid)
    send(alice, hello("ha2", resume=ok.session))
    back = recv(alice)
    assert isinstance(back, HelloOk) and back.resumed and back.session == ok.session
    alice.close(linger=0)


def test_nothing_of_a_closed_connections_session_reaches_the_next_peer_on_its_id(
    home: Home, ctx: zmq.Context[Any]
) -> None:
    """A client-author probe (2026-12-06): alice's client chose a routing id
    ("kitchen-tablet"), left, and bob connected with the same id and sent
    nothing; alice's session output still due (there: an agent's negotiation
    reply) went to bob, with her session id (§1: never identity). The daemon
    now watches connections close (the socket monitor), so alice's session
    is detached when hers closes and nothing of it is sent on the id again:
    here, the `bye {idle}` her session would get after three heartbeats."""
    daemon = start_daemon(home, config=fast_config(heartbeat_ms=500))
    rid = b"kitchen-tablet"
    ok = alice_left(daemon, ctx, rid)

    bob = dealer(ctx, daemon.endpoint, client_keys(daemon.home, "bob"), routing_id=rid)
    heartbeat_s = daemon.server.cfg.heartbeat_ms / 1000
    assert drain(bob, 4 * heartbeat_s + 0.5) == []  # alice's bye {idle} came here before
    send(bob, hello("hb"))
    got = recv(bob)
    assert isinstance(got, HelloOk) and got.principal == "bob"
    bob.close(linger=0)
    wait_until_gone(daemon, rid)

    # Her session was set aside, not lost: she resumes it from a new connection.
    alice = dealer(ctx, daemon.endpoint, client_keys(daemon.home, "alice"))
    send(alice, hello("ha2", resume=ok.session))
    back = recv(alice)
    assert isinstance(back, HelloOk) and back.resumed and back.session == ok.session
    alice.close(linger=0)
    daemon.shutdown()


def test_a_last_message_read_after_its_connection_closed_does_not_reopen_the_id(
    home: Home, ctx: zmq.Context[Any]
) -> None:
    """A review: alice's last message (a no-op `turn.cancel`) was read after
    her connection's close, which marked the id open again; three
    heartbeats later her `bye {idle}` went to bob, who held the id by then."""
    daemon = start_daemon(home, config=fast_config(heartbeat_ms=500))
    rid = b"kitchen-tablet"
    alice = dealer(ctx, daemon.endpoint, client_keys(daemon.home, "alice"), routing_id=rid)
    send(alice, hello("ha"))
    ok = recv(alice)
    assert isinstance(ok, HelloOk)
    send(alice, TextInput(id="t1", text="ask Kofi to fix the gate"))
    done = next(m for m in iter(lambda: recv(alice), None) if isinstance(m, TurnDone))
    daemon.loop.call_soon_threadsafe(time.sleep, 0.5)  # the loop busy a moment
    time.sleep(0.05)
    send(alice, TurnCancel(id="c1", turn=done.turn))  # a no-op: nothing is sent back
    alice.close(linger=1000)
    time.sleep(1.0)
    wait_until_gone(daemon, rid)
    bob = dealer(ctx, daemon.endpoint, client_keys(daemon.home, "bob"), routing_id=rid)
    assert drain(bob, 4 * 0.5 + 0.5) == []  # her bye {idle} came here before
    bob.close(linger=0)
    daemon.shutdown()


def test_revocation_still_refuses_and_silences(daemon: RunningDaemon) -> None:
    from vac.daemon import keys

    c = daemon.connect("bob")
    c.hello()
    assert keys.revoke(daemon.home, "bob")
    with capture_logs() as logs:
        c.send(Ping(id="p1"))
        assert c.expect(Error).code == "unauthorized"
        assert c.expect(ServerBye).reason == "revoked"  # §3: the session ends
        c.send(Ping(id="p2"))
        assert list(c.drain(0.5)) == []
    refusals = [e for e in logs if e["event"] == "refused_revoked_key"]
    assert len(refusals) == 1 and refusals[0]["log_level"] == "warning"
    assert tracebacks(logs) == []
    assert any(r["kind"] == "revoked_key_used" for r in daemon.query(EventLog.audit_rows, "bob"))


def test_long_texts_past_the_text_budget_are_rate_limited_for_that_principal(home: Home) -> None:
    """The twin of the budget's unit test, over real sockets: the refused
    text changes nothing and may be sent again later; bob types on."""
    from vac.client.connection import Connection
    from vac.protocol.messages import TextInput, TurnDone

    # 250 a second; the bucket holds the longest text's cost (10,000).
    d = start_daemon(home, config=fast_config(text_chars_per_s=250))
    try:
        alice, bob = d.connect("alice"), d.connect("bob")
        alice.hello()
        bob.hello()
        words = ("ask Kofi to build a bench by the pond by tomorrow " * 40)[:1500]

        def turn(c: Connection, msg_id: str, text: str) -> list[Any]:
            c.send(TextInput(id=msg_id, text=text))
            return [m for m, _ in c.recv_until(lambda m: isinstance(m, TurnDone | Error), 10)]

        assert isinstance(turn(alice, "a1", words)[-1], TurnDone)
        (refused,) = turn(alice, "a2", words)
        assert isinstance(refused, Error)
        assert (refused.code, refused.ref, refused.retryable) == ("rate_limited", "a2", True)
        # 1500 characters cost 6000 (1500 + 1500²/500); 4000 were left of
        # 10,000, refilling at 250 a second while the first turn ran.
        assert 4000 < refused.details["retry_after_ms"] <= 8000
        assert isinstance(turn(bob, "b1", words)[-1], TurnDone)  # bob's own budget
    finally:
        d.shutdown()
