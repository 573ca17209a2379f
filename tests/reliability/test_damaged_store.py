"""A damaged vac.db is refused at start with one line and exit 2 (a durability
probe: random bytes in its pages gave a traceback, with users' words in it,
and one damaged page let the daemon run while every write failed as
retryable)."""

from __future__ import annotations

import sqlite3
import subprocess
from pathlib import Path

import pytest

from tests.reliability.harness import VAC, Daemon, free_port, text_only_home
from vac.client.connection import Connection, keys_for
from vac.protocol.messages import Error, ObjectiveDraft, TextInput, TurnDone

pytestmark = pytest.mark.slow


def _with_a_draft(tmp_path: Path) -> Path:
    home = text_only_home(tmp_path / "home")
    daemon = Daemon(home, free_port(), tmp_path / "daemon.log")
    daemon.start()
    try:
        c = Connection(daemon.endpoint, keys_for(home, "alice"))
        c.hello()
        c.send(TextInput(id="t1", text="ask Kofi to fix the gate"))
        c.expect(ObjectiveDraft, 10)
        c.expect(TurnDone, 10)
        c.close()
    finally:
        assert daemon.stop() == 0
    return home.root


def _start(root: Path) -> subprocess.CompletedProcess[str]:
    endpoint = f"tcp://127.0.0.1:{free_port()}"
    return subprocess.run(
        [*VAC, "daemon", "--home", str(root), "--endpoint", endpoint],
        capture_output=True,
        text=True,
        timeout=120,
    )


def _refused(got: subprocess.CompletedProcess[str]) -> str:
    assert got.returncode == 2, got.stderr[-2000:]
    lines = got.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in got.stderr, got.stderr[-2000:]
    assert "is damaged" in lines[0] and "restore a backup" in lines[0]
    return lines[0]


def test_a_damaged_page_is_refused_at_start(tmp_path: Path) -> None:
    root = _with_a_draft(tmp_path)
    db = root / "vac.db"
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(db.read_bytes())
    page = 4096
    data[page * 2 : page * 2 + 64] = b"\xa5" * 64  # the third page's header
    db.write_bytes(bytes(data))
    line = _refused(_start(root))
    assert "page" in line.lower(), line  # SQLite's own report of the page


def test_a_row_that_cannot_be_read_is_refused_without_its_words(tmp_path: Path) -> None:
    root = _with_a_draft(tmp_path)
    with sqlite3.connect(root / "vac.db") as conn:
        conn.execute("UPDATE objectives SET body = CAST(X'7b22ff6761746522' AS TEXT)")
    line = _refused(_start(root))
    assert "a stored row cannot be read" in line and "gate" not in line


@pytest.mark.parametrize("how", ["rm", "mv"])
def test_a_vac_db_removed_while_running_acknowledges_nothing(tmp_path: Path, how: str) -> None:
    """A durability probe: after `rm vac.db` (and its -wal, -shm) a confirm and
    a draft were acknowledged, written to the unlinked file, lost at restart."""
    home = text_only_home(tmp_path / "home")
    daemon = Daemon(home, free_port(), tmp_path / "daemon.log")
    daemon.start()
    try:
        c = Connection(daemon.endpoint, keys_for(home, "alice"))
        c.hello()
        for name in ("vac.db", "vac.db-wal", "vac.db-shm"):
            path = home.root / name
            if how == "rm":
                path.unlink(missing_ok=True)
            elif path.exists():
                path.rename(tmp_path / name)
        c.send(TextInput(id="t1", text="ask Kofi to fix the gate"))
        got = c.expect(Error, 10)
        assert (got.code, got.ref, got.retryable) == ("provider_unavailable", "t1", True)
        done = c.expect(TurnDone, 10)
        assert done.status == "failed"
        c.close()
        assert "removed or replaced" in daemon.tail()
    finally:
        daemon.stop()
