"""A key the daemon does not enrol, refused before the client sent its `hello`.

libzmq drops the peer of a refused handshake for good, and a DEALER without a
peer waits forever to send: a `hello` sent after the refusal hung `vac talk`
(it opens the audio devices between connecting and the `hello`, about one run
in six). Here the refusal always comes first.
"""

from __future__ import annotations

import io
import queue
import time

import pytest
import zmq
import zmq.auth

from tests.conftest import RunningDaemon
from vac.client.connection import ClientKeys, Connection, NoAnswer
from vac.client.talk import TalkOptions, _Lines, _loop
from vac.client.talk_audio import PlaybackBuffer
from vac.client.talk_model import TalkModel

pytestmark = [pytest.mark.slow, pytest.mark.timeout(60)]  # the bug is a hang
REFUSED = "refused this client's key"


def refused_already(daemon: RunningDaemon) -> Connection:
    server_public, _ = zmq.auth.load_certificate(str(daemon.home.server_public))
    public, secret = zmq.curve_keypair()
    conn = Connection(daemon.endpoint, ClientKeys(server_public, public, secret), watch=True)
    deadline = time.monotonic() + 10
    # Refused, and the peer already dropped: no send can be queued any more.
    while not conn.hopeless() or conn.sock.poll(0, zmq.POLLOUT):
        assert time.monotonic() < deadline, "the daemon never refused the key"
        time.sleep(0.01)
    return conn


def test_hello_after_the_refusal_is_no_answer_not_a_hang(daemon: RunningDaemon) -> None:
    with refused_already(daemon) as conn, pytest.raises(NoAnswer, match=REFUSED):
        conn.hello(timeout_s=5)


def test_talk_after_the_refusal_is_no_answer_not_a_hang(daemon: RunningDaemon) -> None:
    lines: queue.Queue[str | None] = queue.Queue()
    lines.put("tell Kofi to fix the gate\n")
    lines.put(None)  # EOF: held until a session that never comes
    model = TalkModel(PlaybackBuffer(16000), timeout_s=5)
    t0 = time.monotonic()
    with refused_already(daemon) as conn, pytest.raises(NoAnswer, match=REFUSED):
        _loop(conn, model, queue.Queue(), lines, _Lines(io.StringIO()), TalkOptions(timeout_s=5))
    assert time.monotonic() - t0 < 4  # at once, not after the --timeout


def test_a_send_after_the_refusal_is_no_answer_not_a_hang(
    daemon: RunningDaemon, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An operator probe: examples/agent.py, its key revoked and the daemon
    restarted, sent its heartbeat into a DEALER with no peer and was still
    running 11 minutes past its --for-s."""
    from vac.client import connection
    from vac.protocol.messages import Ping

    monkeypatch.setattr(connection, "SEND_TIMEOUT_MS", 300)
    with refused_already(daemon) as conn:
        started = time.monotonic()
        with pytest.raises(NoAnswer, match="took no message"):
            conn.send(Ping(id="p"))
        assert time.monotonic() - started < 5
