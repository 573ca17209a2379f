"""The schema of `vac.db`: its migrations, and opening a file safely.

The version is `PRAGMA user_version`; each migration sets it in the same
transaction as its tables, so a file is at exactly one version. A file that
is newer than this vac, or that holds another program's tables, is refused
before anything is written to it.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Final

from vac.runtime.store.errors import StoreError, damaged, unusable, writable
from vac.runtime.store.transaction import rollback

MIGRATIONS: Final[tuple[str, ...]] = (
    # 1: the foundation.
    """
    CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        principal TEXT NOT NULL,
        client TEXT NOT NULL,
        created_at_ms INTEGER NOT NULL,
        last_seen_at_ms INTEGER NOT NULL,
        ended_at_ms INTEGER,
        current_agent TEXT
    );
    CREATE INDEX sessions_principal ON sessions(principal);
    CREATE TABLE conversation (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        session TEXT NOT NULL,
        principal TEXT NOT NULL,
        turn TEXT,
        role TEXT NOT NULL,
        kind TEXT NOT NULL,
        text TEXT NOT NULL,
        at_ms INTEGER NOT NULL
    );
    CREATE INDEX conversation_session ON conversation(session, id);
    CREATE INDEX conversation_principal ON conversation(principal);
    CREATE TABLE objectives (
        id TEXT PRIMARY KEY,
        principal TEXT NOT NULL,
        session TEXT NOT NULL,
        revision INTEGER NOT NULL,
        state TEXT NOT NULL,
        body TEXT NOT NULL,
        created_at_ms INTEGER NOT NULL,
        expires_at_ms INTEGER NOT NULL,
        updated_at_ms INTEGER NOT NULL,
        refused INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX objectives_principal ON objectives(principal, state);
    CREATE TABLE audit (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at_ms INTEGER NOT NULL,
        kind TEXT NOT NULL,
        principal TEXT,
        detail TEXT NOT NULL
    );
    CREATE INDEX audit_principal ON audit(principal);
    """,
    # 2: generations must be unique across restarts (PROTOCOL §5.2).
    """
    CREATE TABLE counters (
        name TEXT PRIMARY KEY,
        value INTEGER NOT NULL
    );
    """,
    # 3: idempotency survives restarts (the reply to each client message is
    # kept per session), objectives remember the message that created them,
    # and retention deletes by age without scanning whole tables.
    """
    CREATE TABLE outcomes (
        session TEXT NOT NULL,
        msg_id TEXT NOT NULL,
        principal TEXT NOT NULL,
        at_ms INTEGER NOT NULL,
        replies BLOB NOT NULL,
        PRIMARY KEY (session, msg_id)
    );
    CREATE INDEX outcomes_session_at ON outcomes(session, at_ms);
    CREATE INDEX outcomes_principal ON outcomes(principal);
    ALTER TABLE objectives ADD COLUMN origin TEXT;
    CREATE INDEX conversation_at ON conversation(at_ms);
    CREATE INDEX audit_at ON audit(at_ms);
    CREATE INDEX audit_kind ON audit(kind);
    """,
    # 4: a session's closed input streams survive restarts (PROTOCOL §4): an
    # id stays used, and a repeated commit is answered with the outcome the
    # stream was first answered with. No audio: `outcome` is one message.
    """
    CREATE TABLE input_streams (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        session TEXT NOT NULL,
        stream TEXT NOT NULL,
        principal TEXT NOT NULL,
        closed_at_ms INTEGER NOT NULL,
        state TEXT NOT NULL,
        outcome BLOB,
        UNIQUE (session, stream)
    );
    CREATE INDEX input_streams_session ON input_streams(session, id);
    CREATE INDEX input_streams_principal ON input_streams(principal);
    CREATE INDEX input_streams_at ON input_streams(closed_at_ms);
    """,
    # 5: `objective.list` reads a principal's newest objectives (of one state)
    # without reading all of them: it read every one, newest first, and a
    # long history made each listing take seconds of the loop.
    """
    CREATE INDEX objectives_newest ON objectives(principal, created_at_ms, id);
    CREATE INDEX objectives_state_newest ON objectives(principal, state, created_at_ms, id);
    """,
)

SCHEMA_VERSION: Final = len(MIGRATIONS)


def schema_version(db: sqlite3.Connection) -> int:
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def prepare(db: sqlite3.Connection, path: Path) -> None:
    """Check `path` is ours (or empty), set durability, and migrate it forward."""
    db.execute("PRAGMA busy_timeout=5000")
    # Read before anything writes: a file that is not ours is left exactly as found.
    version = _ours(db, path)
    # A damaged page is refused here, once, not met by every later write as a
    # retryable error that never clears (a durability probe: the daemon ran,
    # and every hello was `provider_unavailable`). Reads every page: 0.07 s
    # for 100 MB here, in the page cache (a cold disk reads it first).
    if (damage := db.execute("PRAGMA quick_check(1)").fetchone()[0]) != "ok":
        raise damaged(path, damage)
    db.execute("PRAGMA journal_mode=WAL")
    # In WAL mode FULL fsyncs the WAL on every commit, so a committed
    # transaction survives power loss and kill -9 — the daemon acknowledges
    # only what is committed. NORMAL may lose the last commits on power loss.
    db.execute("PRAGMA synchronous=FULL")
    db.execute("PRAGMA foreign_keys=ON")
    path.chmod(0o600)
    _migrate(db, version)


def _ours(db: sqlite3.Connection, path: Path) -> int:
    """The file's schema version; a StoreError naming the fix if it is too new or not ours."""
    version = schema_version(db)
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"{path} has schema {version}, newer than this vac ({SCHEMA_VERSION})"
            " — upgrade vac, or move the file aside (vac starts a new one)"
        )
    if (
        version == 0
        and db.execute(
            "SELECT 1 FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
        ).fetchone()
    ):
        # Our first migration sets user_version in the same transaction
        # as its tables, so tables at version 0 are someone else's.
        raise StoreError(
            f"{path} is not a vac event log (it holds another program's tables)"
            " — move it aside (vac starts a new one) or restore a backup"
        )
    return version


def inspect(path: Path) -> str:
    """What `vac preflight` says of `path`, read-only: nothing is migrated or
    repaired, and no vac.db is created (SQLite may leave its `-wal`/`-shm`
    beside an existing one, as any reader does). A StoreError (with the
    daemon's wording) for a file the daemon would refuse."""
    if not path.exists():
        writable(path)  # its directory
        return f"{path} (none yet: the daemon creates it)"
    writable(path)
    try:
        db = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise unusable(path, exc) from None
    try:
        version = _ours(db, path)
        damage = db.execute("PRAGMA quick_check(1)").fetchone()[0]
    except sqlite3.Error as exc:
        raise unusable(path, exc) from None
    finally:
        db.close()
    if damage != "ok":
        raise damaged(path, damage)
    newer = "" if version == SCHEMA_VERSION else f"; the daemon migrates it to {SCHEMA_VERSION}"
    return f"{path} (schema {version}{newer})"


def _migrate(db: sqlite3.Connection, version: int) -> None:
    for number in range(version, SCHEMA_VERSION):
        db.execute("BEGIN IMMEDIATE")
        try:
            for statement in _statements(MIGRATIONS[number]):
                db.execute(statement)
            db.execute(f"PRAGMA user_version={number + 1}")
            db.execute("COMMIT")
        except BaseException:
            rollback(db)
            raise


def _statements(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]
