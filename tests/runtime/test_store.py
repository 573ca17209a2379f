"""The event log: WAL, migrations forward, a newer schema refused, principal data."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from vac.runtime.store import MIGRATIONS, SCHEMA_VERSION, EventLog


def test_fresh_log_is_wal_and_current(tmp_path: Path) -> None:
    log = EventLog(tmp_path / "vac.db")
    assert log.schema_version == SCHEMA_VERSION
    mode = sqlite3.connect(tmp_path / "vac.db").execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"
    assert (tmp_path / "vac.db").stat().st_mode & 0o777 == 0o600
    log.close()


def test_old_schema_is_migrated_forward(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / "vac.db")
    db.executescript(MIGRATIONS[0])
    db.execute("PRAGMA user_version=1")
    db.execute("INSERT INTO audit(at_ms, kind, principal, detail) VALUES (1, 'x', 'alice', '{}')")
    db.commit()
    db.close()
    log = EventLog(tmp_path / "vac.db")
    assert log.schema_version == SCHEMA_VERSION
    assert [r["kind"] for r in log.audit_rows("alice")] == ["x"]  # data kept
    assert log.next_counter("generation", block=10) == 1
    assert log.next_counter("generation", block=10) == 11
    log.close()


def test_newer_schema_is_refused(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / "vac.db")
    db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(RuntimeError, match="newer than this vac"):
        EventLog(tmp_path / "vac.db")


def test_export_and_delete_cover_every_table(tmp_path: Path) -> None:
    log = EventLog(tmp_path / "vac.db")
    log.session_opened("s1", "alice", "cli", 1)
    log.said("s1", "alice", "t1", "user", "said", "hello", 2)
    log.put_objective(
        objective_id="o1",
        principal="alice",
        session="s1",
        revision=1,
        state="pending",
        body=b'{"objective": {}}',
        created_at_ms=1,
        expires_at_ms=9,
        updated_at_ms=1,
    )
    log.audit(3, "key_enrolled", "alice", {})
    log.session_opened("s2", "bob", "cli", 1)
    exported = log.export_principal("alice")
    assert [len(exported[k]) for k in ("sessions", "conversation", "objectives", "audit")] == [
        1,
        1,
        1,
        1,
    ]
    counts = log.delete_principal("alice")
    assert counts == {"conversation": 1, "objectives": 1, "audit": 1, "sessions": 1}
    assert log.session_row("s2") is not None  # another principal's data is untouched
    log.close()
