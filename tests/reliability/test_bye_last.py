"""SIGTERM right after a confirm: `bye {shutdown}` is the last message, and a
confirm that was written was announced before it (a durability probe: in 6
of 12 runs `bye` came first, then `objective.confirmed`, `negotiation` and
`turn.done`; or the confirm was written and never announced)."""

from __future__ import annotations

import signal
import sqlite3
from pathlib import Path

import pytest

from tests.reliability.harness import Daemon, free_port, text_only_home
from vac.client.connection import Connection, Timeout, keys_for
from vac.protocol.messages import (
    ObjectiveConfirm,
    ObjectiveConfirmed,
    ObjectiveDraft,
    ServerBye,
    TextInput,
    TurnDone,
)

pytestmark = pytest.mark.slow


def test_bye_is_last_and_a_written_confirm_was_announced(tmp_path: Path) -> None:
    home = text_only_home(tmp_path / "home")
    daemon = Daemon(home, free_port(), tmp_path / "daemon.log")
    for run in range(6):
        daemon.start()
        c = Connection(daemon.endpoint, keys_for(home, "alice"))
        c.hello()
        c.send(TextInput(id=f"t{run}", text="ask Kofi to build a bench by tomorrow"))
        oid = c.expect(ObjectiveDraft, 10).objective.id
        c.expect(TurnDone, 10)
        c.send(ObjectiveConfirm(id=f"c{run}", objective_id=oid))
        daemon.kill(signal.SIGTERM)  # waits for the exit; the client's socket keeps what came
        assert daemon.proc is not None and daemon.proc.returncode == 0, daemon.tail()
        got = [m for m, _ in c.recv_until(lambda m: isinstance(m, ServerBye), 10)]
        with pytest.raises(Timeout):
            c.recv(0.5)  # nothing after the bye
        c.close()
        with sqlite3.connect(home.root / "vac.db") as db:
            (state,) = db.execute("SELECT state FROM objectives WHERE id = ?", (oid,)).fetchone()
        announced = any(isinstance(m, ObjectiveConfirmed) for m in got)
        assert announced == (state != "pending"), (run, state, [type(m).__name__ for m in got])
