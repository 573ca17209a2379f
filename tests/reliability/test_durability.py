"""Write, then acknowledge: each finding of issue 8, over real sockets.

Every test here failed on the build before the fix: decisions announced
before they were written, a later message cancelling the write, ids
forgotten at restart, a full disk acknowledged as success.
"""

from __future__ import annotations

import contextlib
import signal
import sqlite3
from pathlib import Path

import pytest

from tests.conftest import fast_config, start_daemon
from tests.reliability.full_disk import FullDisk, mount_small_fs
from tests.reliability.harness import CONFIRMED_STATES, Daemon, free_port, text_only_home
from vac.client.connection import Connection, keys_for
from vac.home import Home
from vac.protocol.messages import (
    Error,
    Hello,
    Negotiation,
    ObjectiveConfirm,
    ObjectiveConfirmed,
    ObjectiveDraft,
    ObjectiveReject,
    ObjectiveRejected,
    OutboundMessage,
    OutputRequest,
    TextInput,
    TurnCancel,
    TurnDone,
)

pytestmark = pytest.mark.slow
COMMANDS = (
    "ask Kofi to build a bench by the pond by tomorrow",
    "tell Zuri to repair the garden gate",
    "have Tariq investigate the noise in the barn",
    "ask Abeni to map the grove path",
)


def states(db: Path) -> dict[str, str]:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return dict(con.execute("SELECT id, state FROM objectives").fetchall())
    finally:
        con.close()


def drafts(c: Connection, n: int) -> list[str]:
    ids = []
    for text in COMMANDS[:n]:
        c.send(TextInput(id=c.next_id(), text=text))
        ids.append(c.expect(ObjectiveDraft, 10).objective.id)
        c.expect(TurnDone, 10)
    return ids


def collect(c: Connection, seconds: float) -> list[OutboundMessage]:
    return list(c.drain(seconds))


def test_back_to_back_decisions_survive_a_restart(home: Home) -> None:
    d = start_daemon(home, config=fast_config())
    try:
        c = d.connect()
        c.hello()
        a, b, cc, dd = drafts(c, 4)
        # Back to back, then a text and a cancel within a few ms: nothing may
        # cancel a decision that was already acknowledged.
        c.send(ObjectiveReject(id="rA", objective_id=a))
        c.send(ObjectiveReject(id="rB", objective_id=b))
        c.send(ObjectiveConfirm(id="cC", objective_id=cc))
        c.send(ObjectiveConfirm(id="cD", objective_id=dd))
        c.send(TextInput(id="t", text="hello there"))
        c.send(TurnCancel(id="x", turn="nope"))
        msgs = collect(c, 1.0)
        assert {m.objective_id for m in msgs if isinstance(m, ObjectiveRejected)} == {a, b}
        assert {m.objective_id for m in msgs if isinstance(m, ObjectiveConfirmed)} == {cc, dd}
    finally:
        d.shutdown()
    got = states(home.db_file)
    assert (got[a], got[b]) == ("rejected", "rejected")
    assert got[cc] in CONFIRMED_STATES and got[dd] in CONFIRMED_STATES
    d = start_daemon(home, config=fast_config())
    try:
        c = d.connect()
        ok = c.hello()
        assert not {a, b, cc, dd} & {o.id for o in ok.pending}
        c.send(ObjectiveConfirm(id=c.next_id(), objective_id=a))
        err = c.expect(Error)
        assert err.code == "objective_unknown"
        assert not any(isinstance(m, Negotiation) for m in collect(c, 0.3))
    finally:
        d.shutdown()


@pytest.mark.parametrize("run", range(6))
def test_kill9_right_after_confirmed_keeps_the_confirm(tmp_path: Path, run: int) -> None:
    home = text_only_home(tmp_path / "home")
    daemon = Daemon(home, free_port(), tmp_path / "daemon.log")
    daemon.start()
    try:
        c = Connection(daemon.endpoint, keys_for(home, "alice"))
        session = c.hello().session
        (oid,) = drafts(c, 1)
        c.send(ObjectiveConfirm(id="confirm-1", objective_id=oid))
        confirmed = c.expect(ObjectiveConfirmed, 10)
        daemon.kill()  # the moment the acknowledgement arrived
        c.close()
        assert states(home.db_file)[oid] in CONFIRMED_STATES
        daemon.start()
        c = Connection(daemon.endpoint, keys_for(home, "alice"))
        ok = c.hello(resume=session)
        assert ok.resumed and oid not in {o.id for o in ok.pending}
        # The same confirm id again: the stored outcome, never a second run.
        c.send(ObjectiveConfirm(id="confirm-1", objective_id=oid))
        again = c.expect(ObjectiveConfirmed, 5)
        assert again.turn == confirmed.turn and again.objective_id == oid
        rest = collect(c, 0.3)
        assert not any(isinstance(m, Error) for m in rest), rest
        c.close()
    finally:
        daemon.stop()


def test_repeated_text_input_id_after_restart_makes_no_second_draft(tmp_path: Path) -> None:
    home = text_only_home(tmp_path / "home")
    daemon = Daemon(home, free_port(), tmp_path / "daemon.log")
    daemon.start()
    try:
        for attempt in range(3):
            c = Connection(daemon.endpoint, keys_for(home, "alice"))
            session = c.hello().session
            msg_id = f"say-{attempt}"
            c.send(TextInput(id=msg_id, text=COMMANDS[attempt]))
            first = c.expect(ObjectiveDraft, 10)
            c.close()
            # Both ways down: a clean stop and a kill -9.
            daemon.kill(signal.SIGKILL if attempt % 2 else signal.SIGTERM)
            daemon.start()
            c = Connection(daemon.endpoint, keys_for(home, "alice"))
            assert c.hello(resume=session).resumed
            c.send(TextInput(id=msg_id, text=COMMANDS[attempt]))
            again = c.expect(ObjectiveDraft, 5)
            assert again.objective.id == first.objective.id
            done = c.expect(TurnDone, 5)  # the stored outcome ends its turn, as the first did
            assert done.turn == again.turn and done.status == "parsed"
            c.close()
        con = sqlite3.connect(f"file:{home.db_file}?mode=ro", uri=True)
        rows = con.execute("SELECT origin, COUNT(*) FROM objectives GROUP BY origin").fetchall()
        con.close()
        assert all(n == 1 for _, n in rows) and len(rows) == 3
    finally:
        daemon.stop()


def test_a_full_disk_is_never_acknowledged(tmp_path: Path) -> None:
    mount = mount_small_fs(tmp_path / "small", size_kib=1024)
    if mount is None:
        pytest.skip("cannot mount a small tmpfs here (needs root and mount)")
    with contextlib.ExitStack() as stack:
        stack.callback(mount.unmount)
        home = text_only_home(mount / "home")
        daemon = Daemon(home, free_port(), tmp_path / "daemon.log")
        daemon.start()
        stack.callback(daemon.stop)  # whatever the outcome: no daemon left behind
        c = Connection(daemon.endpoint, keys_for(home, "alice"))
        c.hello()
        a, b = drafts(c, 2)
        disk = FullDisk(mount)
        disk.fill()
        # Fill what SQLite still had reserved: write until a write fails.
        seen: list[OutboundMessage] = []
        for i in range(30):
            c.send(TextInput(id=f"fill-{i}", text=COMMANDS[i % len(COMMANDS)]))
            msgs = [m for m, _ in c.recv_until(lambda m: isinstance(m, TurnDone), 10)]
            seen += msgs
            if any(isinstance(m, Error) for m in msgs):
                break
        errors = [m for m in seen if isinstance(m, Error)]
        assert errors, "the disk never filled"
        assert errors[0].code == "provider_unavailable" and errors[0].retryable
        done = [m for m in seen if isinstance(m, TurnDone)][-1]
        assert done.status == "failed"
        # Confirm and reject on a full disk: refused, never acknowledged.
        c.send(ObjectiveConfirm(id="c-full", objective_id=a))
        err = c.expect(Error, 5)
        assert err.code == "provider_unavailable" and err.retryable and err.ref == "c-full"
        c.send(ObjectiveReject(id="r-full", objective_id=b))
        err = c.expect(Error, 5)
        assert err.code == "provider_unavailable" and err.ref == "r-full"
        assert not any(
            isinstance(m, (ObjectiveConfirmed, ObjectiveRejected)) for m in collect(c, 0.3)
        )
        # A new session needs a row: refused by name, not silence.
        other = Connection(daemon.endpoint, keys_for(home, "alice"))
        other.send(
            Hello(id="h", versions=[1], client="t", output=OutputRequest(rate=16000, speak=False))
        )
        herr = other.expect(Error, 5)
        assert herr.code == "provider_unavailable" and herr.retryable
        other.close()
        # Room again: the same ids now work, and the state agrees.
        disk.free()
        c.send(ObjectiveConfirm(id="c-full", objective_id=a))
        assert c.expect(ObjectiveConfirmed, 5).objective_id == a
        c.send(ObjectiveReject(id="r-full", objective_id=b))
        assert c.expect(ObjectiveRejected, 5).objective_id == b
        c.close()
        assert daemon.stop() == 0
        got = states(home.db_file)
        assert got[a] in CONFIRMED_STATES and got[b] == "rejected"
