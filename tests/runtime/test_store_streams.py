"""Closed input streams in the event log (schema 4): written as they close,
one row per stream, the newest N kept per session, read back oldest first."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from vac.runtime.store import MIGRATIONS, SCHEMA_VERSION, EventLog, StreamRow


@pytest.fixture
def log(tmp_path: Path) -> Iterator[EventLog]:
    log = EventLog(tmp_path / "vac.db")
    yield log
    log.close()


def row(
    stream: str,
    state: str = "committed",
    outcome: bytes | None = b"final",
    *,
    session: str = "s1",
    at_ms: int = 1,
) -> StreamRow:
    return StreamRow(
        session=session,
        stream=stream,
        principal="alice",
        closed_at_ms=at_ms,
        state=state,
        outcome=outcome,
    )


def test_a_closed_stream_reads_back_as_written(log: EventLog) -> None:
    log.stream_closed(row("a", "cancelled", None), keep=8)
    log.stream_closed(row("b", outcome=b"\x91\x82final"), keep=8)
    assert log.streams_of("s1", 8) == [
        row("a", "cancelled", None),
        row("b", outcome=b"\x91\x82final"),
    ]
    assert log.streams_of("other", 8) == []


def test_a_stream_written_again_is_one_row_in_its_first_place(log: EventLog) -> None:
    """Its outcome settles after it closed (a cancelled turn replaces a
    final): the newest write wins, the order stays the order of closing."""
    log.stream_closed(row("a", outcome=None), keep=8)
    log.stream_closed(row("b"), keep=8)
    log.stream_closed(row("a", "committed", b"done", at_ms=5), keep=8)
    got = log.streams_of("s1", 8)
    assert [(r.stream, r.outcome) for r in got] == [("a", b"done"), ("b", b"final")]
    assert got[0].closed_at_ms == 1  # when it closed, not when it settled


def test_each_session_keeps_its_newest_streams(log: EventLog) -> None:
    for i in range(10):
        log.stream_closed(row(f"x{i}", session="busy"), keep=4)
    log.stream_closed(row("quiet", session="calm"), keep=4)
    assert [r.stream for r in log.streams_of("busy", 100)] == ["x6", "x7", "x8", "x9"]
    assert [r.stream for r in log.streams_of("busy", 2)] == ["x8", "x9"]  # the newest, oldest first
    assert [r.stream for r in log.streams_of("calm", 100)] == ["quiet"]  # another's untouched
    with pytest.raises(ValueError, match="at least 1"):
        log.stream_closed(row("y"), keep=0)


def test_a_schema_3_file_gains_the_table_and_keeps_its_data(tmp_path: Path) -> None:
    assert SCHEMA_VERSION >= 4
    db = sqlite3.connect(tmp_path / "vac.db")
    for script in MIGRATIONS[:3]:
        db.executescript(script)
    db.execute("PRAGMA user_version=3")
    db.execute("INSERT INTO sessions VALUES ('s1', 'alice', 'cli', 1, 2, NULL, NULL)")
    db.commit()
    db.close()
    log = EventLog(tmp_path / "vac.db")
    try:
        assert log.schema_version == SCHEMA_VERSION
        assert log.session_row("s1") is not None
        log.stream_closed(row("a"), keep=8)
        assert [r.stream for r in log.streams_of("s1", 8)] == ["a"]
    finally:
        log.close()
