"""The writes of `EventLog`: each one transaction, all of it or none of it."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any, Final

from vac.runtime.store.rows import AuditRow, ObjectiveRow, Outcome, Said, Step, StreamRow
from vac.runtime.store.transaction import writing

# An auth_failed audit row names at most this many key fingerprints, so a
# flood of random keys costs one bounded row per interval.
_AUTH_KEYS_NAMED: Final = 32
# Session rows kept per principal (each resumable after a restart); the
# least recently seen go first. Attached sessions are 8 at most.
MAX_SESSION_ROWS_PER_PRINCIPAL: Final = 1024


class EventLogWrites:
    """Mixin of `EventLog`: a write that does not land raises `StorageUnavailable`."""

    _db: sqlite3.Connection

    def commit(self, step: Step) -> None:
        """Write every row of `step` in one transaction, or none of them.

        Raises `StorageUnavailable`; the caller then must not acknowledge.
        """
        with writing(self._db) as db:
            for objective in step.objectives:
                _upsert_objective(db, objective)
            for row in step.audits:
                _insert_audit(db, row)
            for said in step.said:
                _insert_said(db, said)
            for outcome in (step.outcome, step.continued):
                if outcome is not None:
                    _put_outcome(db, outcome)

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
        with writing(self._db) as db:
            _insert_audit(
                db, AuditRow(at_ms=at_ms, kind="auth_failed", principal=None, detail=detail)
            )
            db.execute(
                "DELETE FROM audit WHERE kind='auth_failed' AND id <= (SELECT id FROM audit"
                " WHERE kind='auth_failed' ORDER BY id DESC LIMIT 1 OFFSET ?)",
                (cap_rows,),
            )

    def session_opened(
        self, session: str, principal: str, client: str, at_ms: int, held: Sequence[str] = ()
    ) -> None:
        """The session's row, and past `MAX_SESSION_ROWS_PER_PRINCIPAL` the
        principal's least recently seen sessions gone, with their stored
        outcomes and streams (a client-author probe: `hello` at 325/s, under
        the message quota, wrote ~35 M rows a day, kept 30 days). Never this
        one, nor those the daemon holds (`held`: attached or kept for
        resume), whose "last seen" is only written now and then (a review)."""
        with writing(self._db) as db:
            db.execute(
                "INSERT INTO sessions(id, principal, client, created_at_ms, last_seen_at_ms)"
                " VALUES (?,?,?,?,?)",
                (session, principal, client, at_ms, at_ms),
            )
            keep = {session, *held}
            old = [
                row[0]
                for row in db.execute(
                    "SELECT id FROM sessions WHERE principal=? ORDER BY"
                    " max(last_seen_at_ms, COALESCE(ended_at_ms, 0)) DESC, created_at_ms DESC"
                    " LIMIT -1 OFFSET ?",
                    (principal, MAX_SESSION_ROWS_PER_PRINCIPAL),
                )
                if row[0] not in keep
            ]
            for table in ("outcomes", "input_streams"):
                db.executemany(f"DELETE FROM {table} WHERE session=?", [(i,) for i in old])
            db.executemany("DELETE FROM sessions WHERE id=?", [(i,) for i in old])

    def session_seen(self, session: str, at_ms: int, current_agent: str | None = None) -> None:
        with writing(self._db) as db:
            db.execute(
                "UPDATE sessions SET last_seen_at_ms=?, current_agent=COALESCE(?, current_agent)"
                " WHERE id=?",
                (at_ms, current_agent, session),
            )

    def session_ended(self, session: str, at_ms: int) -> None:
        with writing(self._db) as db:
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

    def stream_closed(self, row: StreamRow, *, keep: int) -> None:
        """Record a closed input stream, or its outcome once it has one.

        The session keeps its newest `keep` streams (the listener remembers as
        many): the log holds no more of them than a resume can use.
        """
        self.streams_closed([row], keep=keep)

    def streams_closed(self, rows: Sequence[StreamRow], *, keep: int) -> None:
        """`stream_closed` for each of `rows`, in order, in one transaction."""
        if keep < 1:
            raise ValueError("keep must be at least 1")
        with writing(self._db) as db:
            for row in rows:
                # A stream's row stays where it was first written: its place in
                # the session's order is when it closed, not when it settled.
                db.execute(
                    "INSERT INTO input_streams(session, stream, principal, closed_at_ms, state,"
                    " outcome) VALUES (?,?,?,?,?,?) ON CONFLICT(session, stream) DO UPDATE SET"
                    " state=excluded.state, outcome=excluded.outcome",
                    (
                        row.session,
                        row.stream,
                        row.principal,
                        row.closed_at_ms,
                        row.state,
                        row.outcome,
                    ),
                )
            for session in dict.fromkeys(row.session for row in rows):
                db.execute(
                    "DELETE FROM input_streams WHERE session=? AND id <= (SELECT id FROM"
                    " input_streams WHERE session=? ORDER BY id DESC LIMIT 1 OFFSET ?)",
                    (session, session, keep),
                )

    def next_counter(self, name: str, *, block: int = 1) -> int:
        """Reserve `block` values of a durable counter; returns the first."""
        with writing(self._db) as db:
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
