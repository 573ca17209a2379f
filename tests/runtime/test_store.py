"""The event log: WAL, migrations forward, unusable files refused, writes all-or-nothing."""

from __future__ import annotations

import errno
import os
import sqlite3
import subprocess
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import msgspec
import pytest

from vac.runtime.store import (
    MIGRATIONS,
    SCHEMA_VERSION,
    AsyncEventLog,
    AuditRow,
    EventLog,
    ObjectiveRow,
    Outcome,
    Said,
    Step,
    StorageUnavailable,
    StoreError,
    StreamRow,
    inspect,
)


def objective(oid: str = "o1", *, origin: str | None = None, revision: int = 1) -> ObjectiveRow:
    return ObjectiveRow(
        objective_id=oid,
        principal="alice",
        session="s1",
        revision=revision,
        state="pending",
        body=b'{"objective": {}}',
        created_at_ms=1,
        expires_at_ms=9,
        updated_at_ms=revision,
        origin=origin,
    )


def said(text: str, at_ms: int = 2) -> Said:
    return Said(
        session="s1", principal="alice", turn="t1", role="user", kind="said", text=text, at_ms=at_ms
    )


def outcome(msg_id: str, at_ms: int, session: str = "s1") -> Outcome:
    return Outcome(
        session=session, msg_id=msg_id, principal="alice", at_ms=at_ms, replies=msg_id.encode()
    )


def stream_row(outcome: bytes | None = b"final") -> StreamRow:
    return StreamRow(
        session="s1", stream="a", principal="alice", closed_at_ms=3, state="committed",
        outcome=outcome,
    )  # fmt: skip


def full_step() -> Step:
    return Step(
        objectives=[objective(origin="m1")],
        audits=[AuditRow(at_ms=3, kind="objective_drafted", principal="alice", detail={"n": 1})],
        said=[said("hello")],
        outcome=outcome("m1", 3),
    )


def table_counts(path: Path) -> dict[str, int]:
    db = sqlite3.connect(path)
    try:
        tables = ("conversation", "objectives", "audit", "outcomes", "input_streams", "sessions")
        return {t: db.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in tables}
    finally:
        db.close()


@pytest.fixture
def log(tmp_path: Path) -> Iterator[EventLog]:
    log = EventLog(tmp_path / "vac.db")
    yield log
    log.close()


# ------------------------------------------------------------------ open


def test_fresh_log_is_wal_full_sync_and_current(log: EventLog) -> None:
    assert log.schema_version == SCHEMA_VERSION
    mode = sqlite3.connect(log.path).execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"
    # synchronous is per connection: ask the log's own.
    assert log._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert log.path.stat().st_mode & 0o777 == 0o600


def test_old_schema_is_migrated_forward(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / "vac.db")
    db.executescript(MIGRATIONS[0])
    db.execute("PRAGMA user_version=1")
    db.execute("INSERT INTO audit(at_ms, kind, principal, detail) VALUES (1, 'x', 'alice', '{}')")
    db.execute(
        "INSERT INTO objectives(id, principal, session, revision, state, body, created_at_ms,"
        " expires_at_ms, updated_at_ms) VALUES ('o1', 'alice', 's1', 1, 'pending', '{}', 1, 9, 1)"
    )
    db.commit()
    db.close()
    log = EventLog(tmp_path / "vac.db")
    assert log.schema_version == SCHEMA_VERSION
    assert [r["kind"] for r in log.audit_rows("alice")] == ["x"]  # data kept
    assert [(r["id"], r["origin"]) for r in log.objectives_of("alice")] == [("o1", None)]
    assert log.next_counter("generation", block=10) == 1
    assert log.next_counter("generation", block=10) == 11
    log.close()


def _garbage(path: Path) -> None:
    path.write_bytes(b"this is not sqlite at all, just bytes\n" * 200)


def _foreign(path: Path) -> None:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
    db.commit()
    db.close()


def _newer(path: Path) -> None:
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    db.close()


def _directory(path: Path) -> None:
    path.mkdir()


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (_garbage, "is not a vac event log (file is not a database)"),
        (_foreign, "is not a vac event log (it holds another program's tables)"),
        (_newer, f"has schema {SCHEMA_VERSION + 1}, newer than this vac ({SCHEMA_VERSION})"),
        (_directory, "cannot be opened"),
    ],
)
def test_unusable_file_is_one_line_naming_it(
    tmp_path: Path, make: Callable[[Path], None], says: str
) -> None:
    path = tmp_path / "vac.db"
    make(path)
    before = path.read_bytes() if path.is_file() else None
    with pytest.raises(StoreError) as exc:
        EventLog(path)
    message = str(exc.value)
    assert message.startswith(f"{path} ") and says in message
    assert "\n" not in message and " — " in message  # and says what to do
    if before is not None:  # someone else's file is left exactly as it was
        assert path.read_bytes() == before
        assert not path.with_name("vac.db-wal").exists()


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (_garbage, "is not a vac event log (file is not a database)"),
        (_foreign, "is not a vac event log (it holds another program's tables)"),
        (_newer, f"has schema {SCHEMA_VERSION + 1}, newer than this vac ({SCHEMA_VERSION})"),
    ],
)
def test_inspect_refuses_what_opening_refuses_and_touches_nothing(
    tmp_path: Path, make: Callable[[Path], None], says: str
) -> None:
    """`vac preflight` reads vac.db as the daemon would open it, read-only."""
    path = tmp_path / "vac.db"
    make(path)
    before = path.read_bytes()
    with pytest.raises(StoreError) as exc:
        inspect(path)
    assert str(exc.value).startswith(f"{path} ") and says in str(exc.value)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["vac.db"]


def test_inspect_reads_without_creating_or_migrating(tmp_path: Path) -> None:
    path = tmp_path / "vac.db"
    assert inspect(path) == f"{path} (none yet: the daemon creates it)"
    assert not path.exists()
    old = sqlite3.connect(path)
    old.executescript(MIGRATIONS[0])
    old.execute("PRAGMA user_version=1")
    old.commit()
    old.close()
    before = path.read_bytes()
    assert inspect(path) == f"{path} (schema 1; the daemon migrates it to {SCHEMA_VERSION})"
    assert path.read_bytes() == before
    EventLog(path).close()
    assert inspect(path) == f"{path} (schema {SCHEMA_VERSION})"


def test_inspect_reads_a_log_the_daemon_holds_open(log: EventLog) -> None:
    row = AuditRow(at_ms=1, kind="objective_drafted", principal="alice", detail={})
    log.commit(Step(audits=[row]))
    assert inspect(log.path).endswith(f"(schema {SCHEMA_VERSION})")
    log.commit(Step(audits=[row]))  # still writable


def test_async_log_raises_store_error_and_stops_its_thread(tmp_path: Path) -> None:
    _garbage(tmp_path / "vac.db")
    # No thread is left behind; compared as a set, since a thread an earlier
    # test left running (e.g. a loop's default executor) may end meanwhile.
    threads = set(threading.enumerate())
    with pytest.raises(StoreError, match="not a vac event log"):
        AsyncEventLog(tmp_path / "vac.db")
    assert set(threading.enumerate()) <= threads


# ---------------------------------------------------------------- commit


def test_commit_writes_every_row(log: EventLog) -> None:
    log.session_opened("s1", "alice", "cli", 1)
    log.commit(full_step())
    assert [r["origin"] for r in log.objectives_of("alice")] == ["m1"]
    assert [r["detail"] for r in log.audit_rows("alice")] == [{"n": 1}]
    assert [r["text"] for r in log.conversation_of("s1")] == ["hello"]
    assert log.outcomes_of("s1", 10) == [outcome("m1", 3)]
    log.commit(Step())  # an empty step is a no-op, not an error


def test_commit_is_all_or_nothing_on_a_constraint(log: EventLog) -> None:
    broken = Step(
        objectives=[objective()],
        audits=[AuditRow(at_ms=3, kind="x", principal="alice", detail={})],
        said=[said("fine"), said(None)],  # type: ignore[arg-type]  # text is NOT NULL
        outcome=None,
    )
    with pytest.raises(StorageUnavailable, match="could not be written"):
        log.commit(broken)
    assert not log._db.in_transaction
    assert table_counts(log.path) == dict.fromkeys(table_counts(log.path), 0)
    log.commit(full_step())  # the log goes on
    assert table_counts(log.path)["outcomes"] == 1


def test_read_only_database_is_storage_unavailable(log: EventLog) -> None:
    log.commit(full_step())
    log._db.execute("PRAGMA query_only=ON")
    with pytest.raises(StorageUnavailable) as exc:
        log.commit(Step(said=[said("lost")], outcome=outcome("m2", 4)))
    assert str(exc.value) == "the event log could not be written (the database is read-only)"
    with pytest.raises(StorageUnavailable):
        log.next_counter("generation")
    log._db.execute("PRAGMA query_only=OFF")
    assert [o.msg_id for o in log.outcomes_of("s1", 10)] == ["m1"]
    assert [r["text"] for r in log.conversation_of("s1")] == ["hello"]


def test_full_database_is_storage_unavailable_and_nothing_lands(log: EventLog) -> None:
    log.commit(full_step())
    pages = log._db.execute("PRAGMA page_count").fetchone()[0]
    # SQLite itself refuses to grow the file past this: a real SQLITE_FULL.
    log._db.execute(f"PRAGMA max_page_count={pages}")
    big = Step(said=[said("x" * 100_000)], outcome=outcome("m2", 4))
    with pytest.raises(StorageUnavailable) as exc:
        log.commit(big)
    message = str(exc.value)
    assert message == "the event log could not be written (database or disk is full)"
    assert str(log.path.parent) not in message
    assert [o.msg_id for o in log.outcomes_of("s1", 10)] == ["m1"]
    log._db.execute(f"PRAGMA max_page_count={pages * 1000}")
    log.commit(big)  # room again: the same step lands whole
    assert [o.msg_id for o in log.outcomes_of("s1", 10)] == ["m1", "m2"]


@pytest.fixture
def small_fs(tmp_path: Path) -> Iterator[Path]:
    """A real 600 KiB file system, so the disk itself is what runs out."""
    mount = tmp_path / "small"
    mount.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=600k", "tmpfs", str(mount)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], check=True)


def _fill(path: Path) -> None:
    """Take every free byte of the file system."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT)
    try:
        for size in (64 * 1024, 4096, 1):
            try:
                while True:
                    os.write(fd, b"\0" * size)
            except OSError as exc:
                if exc.errno != errno.ENOSPC:
                    raise
    finally:
        os.close(fd)


WRITES: list[tuple[str, Callable[[EventLog], object]]] = [
    ("commit", lambda log: log.commit(Step(said=[said("y" * 9000)], outcome=outcome("m9", 9)))),
    ("audit", lambda log: log.audit(9, "x", "alice", {"pad": "z" * 9000})),
    ("said", lambda log: log.said("s1", "alice", None, "user", "said", "y" * 9000, 9)),
    ("session_opened", lambda log: log.session_opened("s" * 9000, "alice", "cli", 9)),
    ("session_seen", lambda log: log.session_seen("s1", 9, "a" * 9000)),
    ("session_ended", lambda log: log.session_ended("s1", 9)),
    ("next_counter", lambda log: log.next_counter("generation")),
    (
        "put_objective",
        lambda log: log.put_objective(
            objective_id="o9",
            principal="alice",
            session="s1",
            revision=1,
            state="pending",
            body=b'"' + b"b" * 9000 + b'"',
            created_at_ms=1,
            expires_at_ms=9,
            updated_at_ms=9,
        ),
    ),
    ("auth_failures", lambda log: log.auth_failures(9, {"k" * 9000: 1})),
    ("stream_closed", lambda log: log.stream_closed(stream_row(b"f" * 9000), keep=8)),
]


def test_a_full_disk_is_storage_unavailable_for_every_write(small_fs: Path) -> None:
    log = EventLog(small_fs / "vac.db")
    log.session_opened("s1", "alice", "cli", 1)
    log.commit(full_step())
    before = table_counts(log.path)
    _fill(small_fs / "filler")
    for name, write in WRITES:
        with pytest.raises(StorageUnavailable, match="database or disk is full") as exc:
            write(log)
        assert str(small_fs) not in str(exc.value), name
        assert not log._db.in_transaction, name
    assert table_counts(log.path) == before  # nothing of any failed write landed
    (small_fs / "filler").unlink()
    for _, write in WRITES:
        write(log)  # space again: the same log goes on
    log.close()


# ------------------------------------------------------------- outcomes


def test_outcomes_of_is_the_newest_oldest_first(log: EventLog) -> None:
    for i in range(6):
        log.commit(Step(outcome=outcome(f"m{i}", 100 + i)))
    log.commit(Step(outcome=outcome("other", 200, session="s2")))
    log.commit(Step(outcome=outcome("m1", 300)))  # a replaced outcome is newest
    assert [o.msg_id for o in log.outcomes_of("s1", 3)] == ["m4", "m5", "m1"]
    assert [o.msg_id for o in log.outcomes_of("s1", 100)] == ["m0", "m2", "m3", "m4", "m5", "m1"]
    assert log.outcomes_of("s2", 5) == [outcome("other", 200, session="s2")]
    assert log.outcomes_of("nobody", 5) == []


def test_origin_is_kept_from_the_first_insert(log: EventLog) -> None:
    log.commit(Step(objectives=[objective(origin="m1")]))
    log.commit(Step(objectives=[objective(revision=2)]))  # a revision without origin
    log.commit(Step(objectives=[objective(origin="m7", revision=3)]))
    log.commit(Step(objectives=[objective("o2", revision=1)]))
    log.commit(Step(objectives=[objective("o2", origin="m8", revision=2)]))  # filled in late
    rows = log.objectives_of("alice")
    assert [(r["id"], r["revision"], r["origin"]) for r in rows] == [
        ("o1", 3, "m1"),
        ("o2", 2, "m8"),
    ]
    assert {r["origin"] for r in log.live_objectives()} == {"m1", "m8"}


def test_a_restart_loads_each_principals_newest_refusals_only(log: EventLog) -> None:
    """Refusal memory's bound holds at start too (`intent.refusals`): pending
    and open objectives all, refused ones the newest N per principal."""

    def row(oid: str, principal: str, state: str, at: int, refused: bool) -> ObjectiveRow:
        base = msgspec.structs.replace(objective(oid), principal=principal, state=state)
        return msgspec.structs.replace(base, created_at_ms=at, updated_at_ms=at, refused=refused)

    rows = [row(f"a{n}", "alice", "refused", 100 - n, True) for n in range(5)]  # a0 newest
    rows += [row("b0", "bob", "refused", 1, True), row("a-draft", "alice", "pending", 2, False)]
    rows += [row("a-redraft", "alice", "pending", 3, True)]  # a refused ask, said again
    log.commit(Step(objectives=rows))
    loaded = log.live_objectives(refusals_per_principal=2)
    assert sorted(r["id"] for r in loaded) == ["a-draft", "a-redraft", "a0", "a1", "b0"]
    assert len(log.live_objectives()) == len(rows)


# ------------------------------------------- the people whose words these are


def test_export_and_delete_cover_every_table(log: EventLog) -> None:
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
        origin="m1",
    )
    log.audit(3, "key_enrolled", "alice", {})
    log.commit(Step(outcome=outcome("m1", 3)))
    log.stream_closed(stream_row(), keep=8)
    log.session_opened("s2", "bob", "cli", 1)
    exported = log.export_principal("alice")
    tables = ("sessions", "conversation", "objectives", "outcomes", "input_streams", "audit")
    assert [len(exported[k]) for k in tables] == [1, 1, 1, 1, 1, 1]
    assert exported["objectives"][0]["origin"] == "m1"
    assert exported["outcomes"] == [{"session": "s1", "msg_id": "m1", "at_ms": 3}]
    # Which streams closed and how; what was heard is in `conversation`.
    assert exported["input_streams"] == [
        {"session": "s1", "stream": "a", "closed_at_ms": 3, "state": "committed"}
    ]
    counts = log.delete_principal("alice")
    assert counts == dict.fromkeys(
        ("conversation", "objectives", "outcomes", "input_streams", "audit", "sessions"), 1
    )
    assert log.session_row("s2") is not None  # another principal's data is untouched


@pytest.mark.parametrize("opener", [inspect, EventLog], ids=["preflight", "daemon"])
def test_a_file_this_user_may_not_write_is_refused_before_opening(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, opener: Callable[[Path], object]
) -> None:
    """SQLite would open it read-only without a word, and the daemon would
    then refuse every decision; preflight says so as the daemon does."""
    import os

    path = tmp_path / "vac.db"
    EventLog(path).close()
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode: False if Path(p) == path else real(p, mode))
    says = r"cannot be opened \(the file is not writable by this user\)"
    with pytest.raises(StoreError, match=says):
        opener(path)


@pytest.mark.parametrize("opener", [inspect, EventLog], ids=["preflight", "daemon"])
def test_an_immutable_file_is_refused_by_preflight_as_by_the_daemon(
    tmp_path: Path, opener: Callable[[Path], object]
) -> None:
    """The real twin: `chattr +i` (where the filesystem has it)."""
    import shutil
    import subprocess

    path = tmp_path / "vac.db"
    EventLog(path).close()
    chattr = shutil.which("chattr")
    if chattr is None or subprocess.run([chattr, "+i", str(path)], check=False).returncode:
        pytest.skip("no chattr +i here")
    try:
        with pytest.raises(StoreError, match="cannot be opened"):
            opener(path)
    finally:
        subprocess.run([chattr, "-i", str(path)], check=True)
