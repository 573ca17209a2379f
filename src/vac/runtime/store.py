"""The embedded SQLite event log: sessions, conversation, objectives, audit.

One file in the home (`vac.db`), WAL mode so the CLI can read and write while
the daemon runs. The schema is versioned with `PRAGMA user_version` and
migrated forward on open. Raw audio is never stored here — only text,
objectives and audit facts.

`EventLog` is synchronous; the daemon wraps it in `AsyncEventLog`, which runs
every call on one dedicated thread so SQLite never blocks the event loop.

Every write is one transaction that either lands whole or raises
`StorageUnavailable` with nothing of it applied ("write, then acknowledge":
the daemon answers a client only after `commit` returns). A file that cannot
be used at all raises `StoreError` when it is opened.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Final, TypeVar

import msgspec

from vac.errors import ErrorCode, VacError

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
)

SCHEMA_VERSION: Final = len(MIGRATIONS)

_DAY_MS: Final = 86_400_000
# Draft states that never became a command; retention treats them as drafts.
_NEVER_COMMANDS: Final = ("rejected", "expired", "withdrawn")
# An auth_failed audit row names at most this many key fingerprints, so a
# flood of random keys costs one bounded row per interval.
_AUTH_KEYS_NAMED: Final = 32

# SQLite primary result codes whose meaning we can say without paths or data.
_WRITE_REASONS: Final[dict[int, str]] = {
    sqlite3.SQLITE_FULL: "database or disk is full",
    sqlite3.SQLITE_IOERR: "disk I/O error",
    sqlite3.SQLITE_READONLY: "the database is read-only",
    sqlite3.SQLITE_BUSY: "the database stayed locked",
    sqlite3.SQLITE_LOCKED: "the database stayed locked",
    sqlite3.SQLITE_CANTOPEN: "the database file cannot be opened",
    sqlite3.SQLITE_PERM: "permission denied",
    sqlite3.SQLITE_NOMEM: "out of memory",
    sqlite3.SQLITE_CORRUPT: "the database file is damaged",
    sqlite3.SQLITE_NOTADB: "the database file is damaged",
    sqlite3.SQLITE_CONSTRAINT: "a row broke a constraint",
}
_DAMAGED: Final = (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)


class StoreError(VacError):
    """`vac.db` cannot be used at all (damaged, not ours, too new, unreadable).

    The message is one line naming the file and what to do about it.
    """


class StorageUnavailable(VacError):
    """A write did not land; nothing of it was applied.

    The message is one line without paths or data: it may reach a client,
    as `provider_unavailable {provider: storage}` (retryable).
    """

    code: ErrorCode = "provider_unavailable"

    def __init__(self, reason: str) -> None:
        # `str(exc)` keeps the reason for the operator's log; a client is
        # told only that nothing was written and that it may try again.
        super().__init__(
            "the event log could not be written; nothing was changed, try again",
            details={"provider": "storage", "retry_after_ms": 1000},
        )
        self.args = (reason,)


# ------------------------------------------------------------------ rows


class ObjectiveRow(msgspec.Struct, frozen=True, kw_only=True):
    objective_id: str
    principal: str
    session: str
    revision: int
    state: str
    body: bytes  # msgspec.json-encoded DraftEntry, stored as TEXT
    created_at_ms: int
    expires_at_ms: int
    updated_at_ms: int
    refused: bool = False
    origin: str | None = None  # id of the client message that created the objective


class AuditRow(msgspec.Struct, frozen=True, kw_only=True):
    at_ms: int
    kind: str
    principal: str | None
    detail: dict[str, Any]


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    """What the daemon answered to one client message, for replay on a retry."""

    session: str
    msg_id: str
    principal: str
    at_ms: int
    replies: bytes  # opaque to the store (msgpack of the reply headers)


class Said(msgspec.Struct, frozen=True, kw_only=True):
    session: str
    principal: str
    turn: str | None
    role: str
    kind: str
    text: str
    at_ms: int


class Step(msgspec.Struct, frozen=True, kw_only=True):
    """Everything one client message changed, written in one transaction."""

    objectives: list[ObjectiveRow] = msgspec.field(default_factory=list)
    audits: list[AuditRow] = msgspec.field(default_factory=list)
    said: list[Said] = msgspec.field(default_factory=list)
    outcome: Outcome | None = None


# --------------------------------------------------------------- the log


class EventLog:
    """Synchronous access to `vac.db`. Use from one thread at a time."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            # isolation_level=None: we manage transactions explicitly.
            self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        except (sqlite3.Error, OSError) as exc:
            raise _unusable(path, exc) from None
        try:
            self._open()
        except (sqlite3.Error, OSError) as exc:
            self._db.close()
            raise _unusable(path, exc) from None
        except BaseException:
            self._db.close()
            raise

    def _open(self) -> None:
        self._db.execute("PRAGMA busy_timeout=5000")
        # Read before anything writes: a file that is not ours is left exactly as found.
        version = self.schema_version
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path} has schema {version}, newer than this vac ({SCHEMA_VERSION})"
                " — upgrade vac, or move the file aside (vac starts a new one)"
            )
        if (
            version == 0
            and self._db.execute(
                "SELECT 1 FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
            ).fetchone()
        ):
            # Our first migration sets user_version in the same transaction
            # as its tables, so tables at version 0 are someone else's.
            raise StoreError(
                f"{self.path} is not a vac event log (it holds another program's tables)"
                " — move it aside (vac starts a new one) or restore a backup"
            )
        self._db.execute("PRAGMA journal_mode=WAL")
        # In WAL mode FULL fsyncs the WAL on every commit, so a committed
        # transaction survives power loss and kill -9 — the daemon acknowledges
        # only what is committed. NORMAL may lose the last commits on power loss.
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self.path.chmod(0o600)
        self._migrate(version)

    def _migrate(self, version: int) -> None:
        for number in range(version, SCHEMA_VERSION):
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for statement in _statements(MIGRATIONS[number]):
                    self._db.execute(statement)
                self._db.execute(f"PRAGMA user_version={number + 1}")
                self._db.execute("COMMIT")
            except BaseException:
                self._rollback()
                raise

    @property
    def schema_version(self) -> int:
        return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    def close(self) -> None:
        self._db.close()

    @contextlib.contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: all of it lands, or none of it and `StorageUnavailable`."""
        try:
            # IMMEDIATE takes the write lock up front, so a busy database
            # fails here (after busy_timeout) rather than halfway through.
            self._db.execute("BEGIN IMMEDIATE")
            yield self._db
            self._db.execute("COMMIT")
        except (sqlite3.Error, OSError) as exc:
            self._rollback()
            raise StorageUnavailable(
                f"the event log could not be written ({_reason(exc)})"
            ) from None
        except BaseException:
            self._rollback()
            raise

    def _rollback(self) -> None:
        # SQLite may already have rolled back (it does on some SQLITE_FULL
        # errors), and on a full disk ROLLBACK itself may fail: the caller's
        # error is the one worth raising.
        if self._db.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")

    # ------------------------------------------------------------ writes

    def commit(self, step: Step) -> None:
        """Write every row of `step` in one transaction, or none of them.

        Raises `StorageUnavailable`; the caller then must not acknowledge.
        """
        with self._writing() as db:
            for objective in step.objectives:
                _upsert_objective(db, objective)
            for row in step.audits:
                _insert_audit(db, row)
            for said in step.said:
                _insert_said(db, said)
            if step.outcome is not None:
                _put_outcome(db, step.outcome)

    def audit(self, at_ms: int, kind: str, principal: str | None, detail: dict[str, Any]) -> None:
        self.commit(
            Step(audits=[AuditRow(at_ms=at_ms, kind=kind, principal=principal, detail=detail)])
        )

    def auth_failures(self, at_ms: int, counts: dict[str, int], *, cap_rows: int = 10_000) -> None:
        """One `auth_failed` audit row for an interval's failures, by key fingerprint.

        Names the most frequent keys only, and keeps only the newest `cap_rows`
        such rows, so unauthenticated traffic cannot grow the log without bound.
        An interval without failures writes nothing.
        """
        if cap_rows < 1:
            raise ValueError("cap_rows must be at least 1")
        if not counts:
            return
        top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:_AUTH_KEYS_NAMED]
        detail = {"total": sum(counts.values()), "distinct_keys": len(counts), "keys": dict(top)}
        with self._writing() as db:
            _insert_audit(
                db, AuditRow(at_ms=at_ms, kind="auth_failed", principal=None, detail=detail)
            )
            db.execute(
                "DELETE FROM audit WHERE kind='auth_failed' AND id <= (SELECT id FROM audit"
                " WHERE kind='auth_failed' ORDER BY id DESC LIMIT 1 OFFSET ?)",
                (cap_rows,),
            )

    def session_opened(self, session: str, principal: str, client: str, at_ms: int) -> None:
        with self._writing() as db:
            db.execute(
                "INSERT INTO sessions(id, principal, client, created_at_ms, last_seen_at_ms)"
                " VALUES (?,?,?,?,?)",
                (session, principal, client, at_ms, at_ms),
            )

    def session_seen(self, session: str, at_ms: int, current_agent: str | None = None) -> None:
        with self._writing() as db:
            db.execute(
                "UPDATE sessions SET last_seen_at_ms=?, current_agent=COALESCE(?, current_agent)"
                " WHERE id=?",
                (at_ms, current_agent, session),
            )

    def session_ended(self, session: str, at_ms: int) -> None:
        with self._writing() as db:
            db.execute("UPDATE sessions SET ended_at_ms=? WHERE id=?", (at_ms, session))

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
        row = Said(
            session=session,
            principal=principal,
            turn=turn,
            role=role,
            kind=kind,
            text=text,
            at_ms=at_ms,
        )
        self.commit(Step(said=[row]))

    def next_counter(self, name: str, *, block: int = 1) -> int:
        """Reserve `block` values of a durable counter; returns the first."""
        with self._writing() as db:
            row = db.execute("SELECT value FROM counters WHERE name=?", (name,)).fetchone()
            first = (row[0] if row else 0) + 1
            db.execute(
                "INSERT INTO counters(name, value) VALUES (?, ?)"
                " ON CONFLICT(name) DO UPDATE SET value=excluded.value",
                (name, first + block - 1),
            )
        return int(first)

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
        origin: str | None = None,
    ) -> None:
        row = ObjectiveRow(
            objective_id=objective_id,
            principal=principal,
            session=session,
            revision=revision,
            state=state,
            body=body,
            created_at_ms=created_at_ms,
            expires_at_ms=expires_at_ms,
            updated_at_ms=updated_at_ms,
            refused=refused,
            origin=origin,
        )
        self.commit(Step(objectives=[row]))

    # ------------------------------------------------------------- reads

    def session_row(self, session: str) -> dict[str, Any] | None:
        cur = self._db.execute(
            "SELECT id, principal, client, created_at_ms, last_seen_at_ms, ended_at_ms,"
            " current_agent FROM sessions WHERE id=?",
            (session,),
        )
        return _one(cur)

    def outcomes_of(self, session: str, limit: int) -> list[Outcome]:
        """The newest `limit` outcomes of `session`, oldest first (replay order)."""
        cur = self._db.execute(
            "SELECT session, msg_id, principal, at_ms, replies FROM outcomes WHERE session=?"
            " ORDER BY at_ms DESC, rowid DESC LIMIT ?",
            (session, limit),
        )
        return [
            Outcome(session=s, msg_id=m, principal=p, at_ms=at, replies=bytes(r))
            for s, m, p, at, r in reversed(cur.fetchall())
        ]

    def objectives_of(self, principal: str, state: str | None = None) -> list[dict[str, Any]]:
        sql = (
            "SELECT id, principal, session, revision, state, body, created_at_ms,"
            " expires_at_ms, updated_at_ms, refused, origin FROM objectives WHERE principal=?"
        )
        args: tuple[Any, ...] = (principal,)
        if state is not None:
            sql += " AND state=?"
            args += (state,)
        return _all(self._db.execute(sql + " ORDER BY created_at_ms, id", args))

    def live_objectives(self) -> list[dict[str, Any]]:
        """Drafts still pending, and refused objectives (coercion is judged against them)."""
        cur = self._db.execute(
            "SELECT id, principal, body, state, refused, origin FROM objectives"
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

    # ------------------------------------------------------------ retention

    def prune(
        self,
        now_ms: int,
        *,
        transcripts_days: int,
        sessions_days: int,
        drafts_days: int,
        objectives_days: int,
        audit_days: int,
        max_outcomes_per_session: int,
    ) -> dict[str, int]:
        """Delete what is older than its retention window; counts per table.

        A `*_days` of 0 keeps that data forever. "Older than N days" means
        strictly before `now_ms - N days`. All of it is one transaction.

        - conversation: rows said before the transcripts window.
        - sessions: sessions whose last sign of life (`ended_at_ms` or
          `last_seen_at_ms`, whichever is later) is before the sessions
          window. A session still open (not ended, seen within the window) is
          never deleted.
        - outcomes: those of the sessions deleted above, and those of sessions
          with no row that are older than the sessions window — so a retried
          message is recognised for as long as its session is kept, across
          restarts. Then every session keeps only its newest
          `max_outcomes_per_session` outcomes.
        - objectives: drafts that never became a command (rejected, expired,
          withdrawn, and never refused) last updated before the drafts window;
          every other objective last updated before the objectives window. A
          pending objective is never deleted, and a refused one only by the
          objectives window, since coercion is judged against refusals.
        - audit: rows before the audit window, every kind (`auth_failed` rows
          are also capped by count in `auth_failures`).
        """
        counts = dict.fromkeys(("conversation", "sessions", "outcomes", "objectives", "audit"), 0)
        never = ",".join("?" * len(_NEVER_COMMANDS))
        draft = f"state IN ({never}) AND refused = 0"
        with self._writing() as db:

            def delete(table: str, sql: str, *args: Any) -> None:
                counts[table] += db.execute(sql, args).rowcount

            if (cutoff := _cutoff_ms(now_ms, transcripts_days)) is not None:
                delete("conversation", "DELETE FROM conversation WHERE at_ms < ?", cutoff)
            if (cutoff := _cutoff_ms(now_ms, sessions_days)) is not None:
                gone = "max(last_seen_at_ms, COALESCE(ended_at_ms, 0)) < ?"
                delete(
                    "outcomes",
                    f"DELETE FROM outcomes WHERE session IN (SELECT id FROM sessions WHERE {gone})"
                    " OR (at_ms < ? AND session NOT IN (SELECT id FROM sessions))",
                    cutoff,
                    cutoff,
                )
                delete("sessions", f"DELETE FROM sessions WHERE {gone}", cutoff)
            delete(
                "outcomes",
                "DELETE FROM outcomes WHERE rowid IN (SELECT r FROM (SELECT rowid AS r,"
                " row_number() OVER (PARTITION BY session ORDER BY at_ms DESC, rowid DESC)"
                " AS newer FROM outcomes) WHERE newer > ?)",
                max_outcomes_per_session,
            )
            if (cutoff := _cutoff_ms(now_ms, drafts_days)) is not None:
                delete(
                    "objectives",
                    f"DELETE FROM objectives WHERE {draft} AND updated_at_ms < ?",
                    *_NEVER_COMMANDS,
                    cutoff,
                )
            if (cutoff := _cutoff_ms(now_ms, objectives_days)) is not None:
                delete(
                    "objectives",
                    f"DELETE FROM objectives WHERE state != 'pending' AND NOT ({draft})"
                    " AND updated_at_ms < ?",
                    *_NEVER_COMMANDS,
                    cutoff,
                )
            if (cutoff := _cutoff_ms(now_ms, audit_days)) is not None:
                delete("audit", "DELETE FROM audit WHERE at_ms < ?", cutoff)
        return counts

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
        # The replies themselves are opaque bytes here; which messages were
        # answered, and when, is what a person can read.
        outcomes = _all(
            self._db.execute(
                "SELECT session, msg_id, at_ms FROM outcomes WHERE principal=?"
                " ORDER BY session, at_ms, rowid",
                (principal,),
            )
        )
        return {
            "principal": principal,
            "sessions": sessions,
            "conversation": conversation,
            "objectives": objectives,
            "outcomes": outcomes,
            "audit": self.audit_rows(principal),
        }

    def delete_principal(self, principal: str) -> dict[str, int]:
        counts: dict[str, int] = {}
        with self._writing() as db:
            for table in ("conversation", "objectives", "outcomes", "audit", "sessions"):
                cur = db.execute(f"DELETE FROM {table} WHERE principal=?", (principal,))
                counts[table] = cur.rowcount
        return counts


# ------------------------------------------------------------ row writers


def _upsert_objective(db: sqlite3.Connection, row: ObjectiveRow) -> None:
    # `origin` is the message that created the objective: the first one
    # recorded stays, later revisions only fill it in if it was missing.
    db.execute(
        "INSERT INTO objectives(id, principal, session, revision, state, body, created_at_ms,"
        " expires_at_ms, updated_at_ms, refused, origin) VALUES (?,?,?,?,?,?,?,?,?,?,?)"
        " ON CONFLICT(id) DO UPDATE SET revision=excluded.revision, state=excluded.state,"
        " body=excluded.body, expires_at_ms=excluded.expires_at_ms,"
        " updated_at_ms=excluded.updated_at_ms, refused=excluded.refused,"
        " origin=COALESCE(objectives.origin, excluded.origin)",
        (
            row.objective_id,
            row.principal,
            row.session,
            row.revision,
            row.state,
            row.body.decode(),
            row.created_at_ms,
            row.expires_at_ms,
            row.updated_at_ms,
            int(row.refused),
            row.origin,
        ),
    )


def _insert_audit(db: sqlite3.Connection, row: AuditRow) -> None:
    db.execute(
        "INSERT INTO audit(at_ms, kind, principal, detail) VALUES (?,?,?,?)",
        (row.at_ms, row.kind, row.principal, json.dumps(row.detail, sort_keys=True)),
    )


def _insert_said(db: sqlite3.Connection, row: Said) -> None:
    db.execute(
        "INSERT INTO conversation(session, principal, turn, role, kind, text, at_ms)"
        " VALUES (?,?,?,?,?,?,?)",
        (row.session, row.principal, row.turn, row.role, row.kind, row.text, row.at_ms),
    )


def _put_outcome(db: sqlite3.Connection, row: Outcome) -> None:
    db.execute(
        "INSERT OR REPLACE INTO outcomes(session, msg_id, principal, at_ms, replies)"
        " VALUES (?,?,?,?,?)",
        (row.session, row.msg_id, row.principal, row.at_ms, row.replies),
    )


# ---------------------------------------------------------------- helpers


def _cutoff_ms(now_ms: int, days: int) -> int | None:
    """Rows before this are past a `days` window; None keeps forever (days 0)."""
    return now_ms - days * _DAY_MS if days > 0 else None


def _reason(exc: BaseException) -> str:
    """Why a write failed, in words that carry no path and no data."""
    if isinstance(exc, OSError):
        return exc.strerror or type(exc).__name__
    code = getattr(exc, "sqlite_errorcode", None)
    if code is None:
        return type(exc).__name__
    return _WRITE_REASONS.get(code & 0xFF) or str(getattr(exc, "sqlite_errorname", code))


def _unusable(path: Path, exc: sqlite3.Error | OSError) -> StoreError:
    """The one-line StoreError for a vac.db that could not be opened."""
    reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    reason = " ".join(reason.split())
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None and code & 0xFF in _DAMAGED:
        # A stale -wal next to a new file would be replayed into it.
        return StoreError(
            f"{path} is not a vac event log ({reason}) — move it and its -wal/-shm files"
            " aside (vac starts a new one) or restore a backup"
        )
    return StoreError(
        f"{path} cannot be opened ({reason}) — check its permissions and free disk space,"
        " then retry"
    )


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
        try:
            # .result() re-raises the worker's exception itself: a StoreError
            # reaches the caller as a StoreError.
            self._log: EventLog = self._pool.submit(EventLog, path).result()
        except BaseException:
            self._pool.shutdown(wait=True)  # idle by now: the open has failed
            raise

    async def call(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, lambda: fn(self._log, *args, **kwargs))

    async def close(self) -> None:
        await self.call(EventLog.close)
        self._pool.shutdown(wait=True)
