"""What the test daemon recorded of a `vac talk` session (white-box reads of its event log).

The screen shows what the client chose to print; the event log shows what
the daemon actually did with it: how many turns the user's speech became,
what of each reply the user heard (cut at the client's `played_ms`, §5.2).
"""

from __future__ import annotations

from typing import Any

from tests.conftest import RunningDaemon
from vac.runtime.store.log import EventLog


def newest_session(daemon: RunningDaemon, principal: str = "alice") -> str:
    def read(log: EventLog) -> Any:
        cur = log._db.execute(
            "SELECT id FROM sessions WHERE principal=? ORDER BY created_at_ms DESC, rowid DESC",
            (principal,),
        )
        return cur.fetchone()

    row = daemon.query(read)
    assert row is not None, f"no session of {principal}"
    return str(row[0])


def conversation(daemon: RunningDaemon, session: str) -> list[dict[str, Any]]:
    """Rows of (turn, role, kind, text, at_ms), oldest first."""
    rows: list[dict[str, Any]] = daemon.query(EventLog.conversation_of, session)
    return rows


def said_by_user(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per user turn, typed or spoken (both are "said")."""
    return [r for r in rows if r["role"] == "user" and r["kind"] == "said"]


def spoken_by_agent(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in rows if r["role"] == "agent" and r["kind"] == "spoken"]
