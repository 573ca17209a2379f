"""The embedded SQLite event log: sessions, conversation, objectives, audit.

One file in the home (`vac.db`), WAL mode so the CLI can read and write while
the daemon runs. The schema is versioned with `PRAGMA user_version` and
migrated forward on open. Raw audio is never stored here — only text,
objectives and audit facts.

`EventLog` is synchronous; the daemon wraps it in `AsyncEventLog`, which runs
every call on one dedicated thread so SQLite never blocks the event loop.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Final, TypeVar

T = TypeVar("T")

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
)

SCHEMA_VERSION: Final = len(MIGRATIONS)


def now_ms() -> int:
    """Wall-clock milliseconds since the epoch: the event log's timestamps."""
    return time.time_ns() // 1_000_000


class EventLog:
    """Synchronous access to `vac.db`. Use from one thread at a time."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        # isolation_level=None: we manage transactions explicitly.
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA busy_timeout=5000")
        self._db.execute("PRAGMA foreign_keys=ON")
        path.chmod(0o600)
        self._migrate()

    def _migrate(self) -> None:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise RuntimeError(
                f"{self.path} has schema {version}, newer than this vac ({SCHEMA_VERSION})"
            )
        for number in range(version, SCHEMA_VERSION):
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for statement in _statements(MIGRATIONS[number]):
                    self._db.execute(statement)
                self._db.execute(f"PRAGMA user_version={number + 1}")
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    @property
    def schema_version(self) -> int:
        return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    def close(self) -> None:
        self._db.close()

    # ------------------------------------------------------------ writes

    def audit(self, at_ms: int, kind: str, principal: str | None, detail: dict[str, Any]) -> None:
        self._db.execute(
            "INSERT INTO audit(at_ms, kind, principal, detail) VALUES (?,?,?,?)",
            (at_ms, kind, principal, json.dumps(detail, sort_keys=True)),
        )

    def session_opened(self, session: str, principal: str, client: str, at_ms: int) -> None:
        self._db.execute(
            "INSERT INTO sessions(id, principal, client, created_at_ms, last_seen_at_ms)"
            " VALUES (?,?,?,?,?)",
            (session, principal, client, at_ms, at_ms),
        )

    def session_seen(self, session: str, at_ms: int, current_agent: str | None = None) -> None:
        self._db.execute(
            "UPDATE sessions SET last_seen_at_ms=?, current_agent=COALESCE(?, current_agent)"
            " WHERE id=?",
            (at_ms, current_agent, session),
        )

    def session_ended(self, session: str, at_ms: int) -> None:
        self._db.execute("UPDATE sessions SET ended_at_ms=? WHERE id=?", (at_ms, session))

    def said(
        self,
        session: str,
        principal: str,
        turn: str | None,
        role: str,
        kind: str,
        text: str,
        at_ms: int,
    ) -> None:
        self._db.execute(
            "INSERT INTO conversation(session, principal, turn, role, kind, text, at_ms)"
            " VALUES (?,?,?,?,?,?,?)",
            (session, principal, turn, role, kind, text, at_ms),
        )

    def next_counter(self, name: str, *, block: int = 1) -> int:
        """Reserve `block` values of a durable counter; returns the first."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            row = self._db.execute("SELECT value FROM counters WHERE name=?", (name,)).fetchone()
            first = (row[0] if row else 0) + 1
            self._db.execute(
                "INSERT INTO counters(name, value) VALUES (?, ?)"
                " ON CONFLICT(name) DO UPDATE SET value=excluded.value",
                (name, first + block - 1),
            )
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        return first

    def put_objective(
        self,
        *,
        objective_id: str,
        principal: str,
        session: str,
        revision: int,
        state: str,
        body: bytes,
        created_at_ms: int,
        expires_at_ms: int,
        updated_at_ms: int,
        refused: bool = False,
    ) -> None:
        self._db.execute(
            "INSERT INTO objectives(id, principal, session, revision, state, body, created_at_ms,"
            " expires_at_ms, updated_at_ms, refused) VALUES (?,?,?,?,?,?,?,?,?,?)"
            " ON CONFLICT(id) DO UPDATE SET revision=excluded.revision, state=excluded.state,"
            " body=excluded.body, expires_at_ms=excluded.expires_at_ms,"
            " updated_at_ms=excluded.updated_at_ms, refused=excluded.refused",
            (
                objective_id,
                principal,
                session,
                revision,
                state,
                body.decode(),
                created_at_ms,
                expires_at_ms,
                updated_at_ms,
                int(refused),
            ),
        )

    # ------------------------------------------------------------- reads

    def session_row(self, session: str) -> dict[str, Any] | None:
        cur = self._db.execute(
            "SELECT id, principal, client, created_at_ms, last_seen_at_ms, ended_at_ms,"
            " current_agent FROM sessions WHERE id=?",
            (session,),
        )
        return _one(cur)

    def objectives_of(self, principal: str, state: str | None = None) -> list[dict[str, Any]]:
        sql = (
            "SELECT id, principal, session, revision, state, body, created_at_ms,"
            " expires_at_ms, updated_at_ms, refused FROM objectives WHERE principal=?"
        )
        args: tuple[Any, ...] = (principal,)
        if state is not None:
            sql += " AND state=?"
            args += (state,)
        return _all(self._db.execute(sql + " ORDER BY created_at_ms, id", args))

    def live_objectives(self) -> list[dict[str, Any]]:
        """Drafts still pending, and refused objectives (coercion is judged against them)."""
        cur = self._db.execute(
            "SELECT id, principal, body, state, refused FROM objectives"
            " WHERE state IN ('pending', 'refused') OR refused = 1 ORDER BY created_at_ms"
        )
        return _all(cur)

    def conversation_of(self, session: str) -> list[dict[str, Any]]:
        cur = self._db.execute(
            "SELECT turn, role, kind, text, at_ms FROM conversation WHERE session=? ORDER BY id",
            (session,),
        )
        return _all(cur)

    def audit_rows(self, principal: str | None = None) -> list[dict[str, Any]]:
        if principal is None:
            cur = self._db.execute("SELECT at_ms, kind, principal, detail FROM audit ORDER BY id")
        else:
            cur = self._db.execute(
                "SELECT at_ms, kind, principal, detail FROM audit WHERE principal=? ORDER BY id",
                (principal,),
            )
        rows = _all(cur)
        for row in rows:
            row["detail"] = json.loads(row["detail"])
        return rows

    # ------------------------------------------- the people whose words these are

    def export_principal(self, principal: str) -> dict[str, Any]:
        sessions = _all(
            self._db.execute(
                "SELECT id, client, created_at_ms, last_seen_at_ms, ended_at_ms FROM sessions"
                " WHERE principal=? ORDER BY created_at_ms",
                (principal,),
            )
        )
        conversation = _all(
            self._db.execute(
                "SELECT session, turn, role, kind, text, at_ms FROM conversation"
                " WHERE principal=? ORDER BY id",
                (principal,),
            )
        )
        objectives = self.objectives_of(principal)
        for row in objectives:
            row["body"] = json.loads(row["body"])
        return {
            "principal": principal,
            "sessions": sessions,
            "conversation": conversation,
            "objectives": objectives,
            "audit": self.audit_rows(principal),
        }

    def delete_principal(self, principal: str) -> dict[str, int]:
        counts: dict[str, int] = {}
        self._db.execute("BEGIN IMMEDIATE")
        try:
            for table in ("conversation", "objectives", "audit", "sessions"):
                cur = self._db.execute(f"DELETE FROM {table} WHERE principal=?", (principal,))
                counts[table] = cur.rowcount
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        return counts


def _statements(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]


def _one(cur: sqlite3.Cursor) -> dict[str, Any] | None:
    row = cur.fetchone()
    if row is None:
        return None
    return dict(zip([c[0] for c in cur.description], row, strict=True))


def _all(cur: sqlite3.Cursor) -> list[dict[str, Any]]:
    names = [c[0] for c in cur.description]
    return [dict(zip(names, row, strict=True)) for row in cur.fetchall()]


class AsyncEventLog:
    """Runs every `EventLog` call on one dedicated thread, off the event loop.

    One thread keeps SQLite's single-writer rule trivially true and keeps the
    order of writes equal to the order of calls.
    """

    def __init__(self, path: Path) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="vac-db")
        self._log: EventLog = self._pool.submit(EventLog, path).result()

    async def call(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, lambda: fn(self._log, *args, **kwargs))

    async def close(self) -> None:
        await self.call(EventLog.close)
        self._pool.shutdown(wait=True)
