"""The reads of `EventLog`: rows as dicts keyed by column, or as `rows` structs."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from typing import Any

from vac.runtime.store.rows import Outcome, StreamRow


class EventLogReads:
    """Mixin of `EventLog`: plain SELECTs, which in WAL mode never wait for a writer."""

    _db: sqlite3.Connection

    def session_row(self, session: str) -> dict[str, Any] | None:
        cur = self._db.execute(
            "SELECT id, principal, client, created_at_ms, last_seen_at_ms, ended_at_ms,"
            " current_agent FROM sessions WHERE id=?",
            (session,),
        )
        return one_row(cur)

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

    def turns_of(self, session: str, limit: int) -> list[str]:
        """The newest `limit` turns of `session` that said something, oldest
        first: a resumed session knows them after a restart (§5.2: cancelling
        an ended turn is a no-op, `turn_unknown` is for a turn never seen)."""
        cur = self._db.execute(
            "SELECT turn FROM conversation WHERE session=? AND turn IS NOT NULL"
            " GROUP BY turn ORDER BY max(id) DESC LIMIT ?",
            (session, limit),
        )
        return [t for (t,) in reversed(cur.fetchall())]

    def streams_of(self, session: str, limit: int) -> list[StreamRow]:
        """The newest `limit` closed input streams of `session`, oldest first."""
        cur = self._db.execute(
            "SELECT session, stream, principal, closed_at_ms, state, outcome FROM input_streams"
            " WHERE session=? ORDER BY id DESC LIMIT ?",
            (session, limit),
        )
        return [
            StreamRow(
                session=s,
                stream=st,
                principal=p,
                closed_at_ms=at,
                state=state,
                outcome=None if out is None else bytes(out),
            )
            for s, st, p, at, state, out in reversed(cur.fetchall())
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
        return all_rows(self._db.execute(sql + " ORDER BY created_at_ms, id", args))

    def objective_body(self, objective_id: str) -> str | None:
        """One objective's stored entry (JSON), by id; None if never stored."""
        cur = self._db.execute("SELECT body FROM objectives WHERE id=?", (objective_id,))
        row = cur.fetchone()
        return None if row is None else str(row[0])

    def objective_place(self, principal: str, objective_id: str) -> tuple[int, str] | None:
        """Where `objective_id` stands in `principal`'s listing (created_at_ms,
        id); None if it is not one of theirs."""
        cur = self._db.execute(
            "SELECT created_at_ms, id FROM objectives WHERE id=? AND principal=?",
            (objective_id, principal),
        )
        row = cur.fetchone()
        return None if row is None else (int(row[0]), str(row[1]))

    def newest_objectives(
        self,
        principal: str,
        state: str | None,
        limit: int,
        *,
        live_at_ms: int | None = None,
        over_at_ms: int | None = None,
        before: tuple[int, str] | None = None,
    ) -> list[dict[str, Any]]:
        """`principal`'s newest `limit` objectives (of one stored `state`),
        newest first: read through an index, whatever the history's length.
        Only those whose lifetime ends after `live_at_ms`, or by `over_at_ms`;
        only those older than `before` (created_at_ms, id): the next page."""
        where = "principal=?"
        args: list[Any] = [principal]
        if before is not None:
            # A row value: an index range search (an OR of the two walked every
            # newer row: 32 ms a page at the end of 200,000, a review).
            where += " AND (created_at_ms, id) < (?, ?)"
            args += [before[0], before[1]]
        if state is not None:
            where += " AND state=?"
            args.append(state)
        if live_at_ms is not None:
            where += " AND expires_at_ms > ?"
            args.append(live_at_ms)
        if over_at_ms is not None:
            where += " AND expires_at_ms <= ?"
            args.append(over_at_ms)
        cur = self._db.execute(
            "SELECT id, state, body, created_at_ms FROM objectives"
            f" WHERE {where} ORDER BY created_at_ms DESC, id DESC LIMIT ?",
            (*args, limit),
        )
        return all_rows(cur)

    def live_objectives(
        self, accepted_since_ms: int = 0, refusals_per_principal: int | None = None
    ) -> list[dict[str, Any]]:
        """Drafts still pending, objectives not yet settled (offered, accepted,
        in progress, waiting on the steward) made since `accepted_since_ms` (an
        agent's commitments are judged from them: `intent.commitments`), and
        refused objectives (coercion is judged against them): each
        principal's newest `refusals_per_principal` by when they were last
        written (None: all), as refusal memory holds them (`intent.refusals`).
        Oldest first; `updated_at_ms` orders the refusals."""
        refusals = "SELECT id FROM objectives WHERE state = 'refused' OR refused = 1"
        args: tuple[Any, ...] = (accepted_since_ms,)
        if refusals_per_principal is not None:
            refusals = (
                "SELECT id FROM (SELECT id, row_number() OVER (PARTITION BY principal"
                " ORDER BY updated_at_ms DESC, rowid DESC) AS newer FROM objectives"
                " WHERE state = 'refused' OR refused = 1) WHERE newer <= ?"
            )
            args += (refusals_per_principal,)
        cur = self._db.execute(
            "SELECT id, principal, body, state, refused, origin, updated_at_ms FROM objectives"
            " WHERE state = 'pending'"
            " OR (state IN ('confirmed', 'offered', 'accepted', 'in-progress',"
            "               'countered', 'deferred', 'clarifying')"
            "     AND created_at_ms >= ?)"
            f" OR id IN ({refusals})"
            " ORDER BY created_at_ms",
            args,
        )
        return all_rows(cur)

    def conversation_of(self, session: str) -> list[dict[str, Any]]:
        cur = self._db.execute(
            "SELECT turn, role, kind, text, at_ms FROM conversation WHERE session=? ORDER BY id",
            (session,),
        )
        return all_rows(cur)

    def audit_rows(self, principal: str | None = None) -> list[dict[str, Any]]:
        if principal is None:
            cur = self._db.execute("SELECT at_ms, kind, principal, detail FROM audit ORDER BY id")
        else:
            cur = self._db.execute(
                "SELECT at_ms, kind, principal, detail FROM audit WHERE principal=? ORDER BY id",
                (principal,),
            )
        return _audit(cur)

    def permission_rows(self, since_ms: int) -> Iterator[dict[str, Any]]:
        """Permission-requests asked, answered and withdrawn since `since_ms`,
        in the order written (the start-up reopens what is still open), one
        at a time: a day of them may be millions. Iterate it on the store's
        thread (inside a function given to `AsyncEventLog.call`)."""
        cur = self._db.execute(
            "SELECT at_ms, kind, principal, detail FROM audit"
            " WHERE kind IN ('permission_requested', 'permission_answered',"
            " 'permission_withdrawn') AND at_ms >= ?"
            " ORDER BY id",
            (since_ms,),
        )
        names = [c[0] for c in cur.description]
        for values in cur:
            row = dict(zip(names, values, strict=True))
            row["detail"] = json.loads(row["detail"])
            yield row


def _audit(cur: sqlite3.Cursor) -> list[dict[str, Any]]:
    """Audit rows with their `detail` decoded."""
    rows = all_rows(cur)
    for row in rows:
        row["detail"] = json.loads(row["detail"])
    return rows


def one_row(cur: sqlite3.Cursor) -> dict[str, Any] | None:
    row = cur.fetchone()
    if row is None:
        return None
    return dict(zip([c[0] for c in cur.description], row, strict=True))


def all_rows(cur: sqlite3.Cursor) -> list[dict[str, Any]]:
    names = [c[0] for c in cur.description]
    return [dict(zip(names, row, strict=True)) for row in cur.fetchall()]
