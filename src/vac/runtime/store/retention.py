"""What `EventLog` forgets: retention by age, and a person's data on request."""

from __future__ import annotations

import json
from typing import Any, Final

from vac.runtime.store.reads import EventLogReads, all_rows
from vac.runtime.store.transaction import writing

_DAY_MS: Final = 86_400_000
# Draft states that never became a command; retention treats them as drafts.
_NEVER_COMMANDS: Final = ("rejected", "expired", "withdrawn")


class EventLogRetention(EventLogReads):
    """Mixin of `EventLog`: each delete is one transaction, like every write."""

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
        - input_streams: with their sessions, by the same rule as outcomes
          (each session keeps only its newest streams as they are written:
          `stream_closed`).
        - objectives: drafts that never became a command (rejected, expired,
          withdrawn, and never refused) last updated before the drafts window;
          every other objective last updated before the objectives window. A
          pending objective is never deleted, and a refused one only by the
          objectives window, since coercion is judged against refusals.
        - audit: rows before the audit window, every kind (`auth_failed` rows
          are also capped by count in `auth_failures`).
        """
        tables = ("conversation", "sessions", "outcomes", "input_streams", "objectives", "audit")
        counts = dict.fromkeys(tables, 0)
        never = ",".join("?" * len(_NEVER_COMMANDS))
        draft = f"state IN ({never}) AND refused = 0"
        with writing(self._db) as db:

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
                delete(
                    "input_streams",
                    "DELETE FROM input_streams WHERE session IN (SELECT id FROM sessions WHERE"
                    f" {gone}) OR (closed_at_ms < ? AND session NOT IN (SELECT id FROM sessions))",
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
        sessions = all_rows(
            self._db.execute(
                "SELECT id, client, created_at_ms, last_seen_at_ms, ended_at_ms FROM sessions"
                " WHERE principal=? ORDER BY created_at_ms",
                (principal,),
            )
        )
        conversation = all_rows(
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
        outcomes = all_rows(
            self._db.execute(
                "SELECT session, msg_id, at_ms FROM outcomes WHERE principal=?"
                " ORDER BY session, at_ms, rowid",
                (principal,),
            )
        )
        # Likewise a stream's outcome: which streams were closed, and how.
        streams = all_rows(
            self._db.execute(
                "SELECT session, stream, closed_at_ms, state FROM input_streams"
                " WHERE principal=? ORDER BY session, id",
                (principal,),
            )
        )
        return {
            "principal": principal,
            "sessions": sessions,
            "conversation": conversation,
            "objectives": objectives,
            "outcomes": outcomes,
            "input_streams": streams,
            "audit": self.audit_rows(principal),
        }

    def delete_principal(self, principal: str) -> dict[str, int]:
        counts: dict[str, int] = {}
        with writing(self._db) as db:
            tables = ("conversation", "objectives", "outcomes", "input_streams", "audit")
            for table in (*tables, "sessions"):
                cur = db.execute(f"DELETE FROM {table} WHERE principal=?", (principal,))
                counts[table] = cur.rowcount
        return counts


def _cutoff_ms(now_ms: int, days: int) -> int | None:
    """Rows before this are past a `days` window; None keeps forever (days 0)."""
    return now_ms - days * _DAY_MS if days > 0 else None
