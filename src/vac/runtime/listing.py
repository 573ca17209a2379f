"""PROTOCOL §9 `objective.list`: a principal's objectives, from the event log.

Read from the log, not the book: the log holds every decision before it is
announced, so a listing is never behind what the client was told.
"""

from __future__ import annotations

from typing import Final, Protocol

import msgspec

from vac import intent
from vac.clock import wall_now
from vac.errors import VacError
from vac.logs import get_logger
from vac.protocol.errors import ProtocolError
from vac.protocol.messages import ObjectiveList, ObjectiveListResult, Outbound
from vac.protocol.objective import Objective
from vac.runtime.session import Session
from vac.runtime.store import AsyncEventLog, EventLog

log = get_logger("vac.turns")

# The event log's state of an objective, as PROTOCOL §9 names it.
LISTED_STATUS: Final[dict[str, str]] = {
    "pending": "draft",
    "confirmed": "confirmed",
    "rejected": "rejected",
    "expired": "expired",
    "refused": "refused",
    "withdrawn": "withdrawn",
    "offered": "offered",
    "accepted": "accepted",
    "countered": "countered",
    "deferred": "deferred",
    "clarifying": "clarifying",
    "in-progress": "in-progress",
    "done": "done",
    "failed": "failed",
}


class Answers(Protocol):
    """Where a listing's answer goes (the session's coordinator)."""

    def send(self, msg: Outbound) -> None: ...
    def error(self, exc: VacError, ref: str | None) -> None: ...


async def answer_listing(
    store: AsyncEventLog, session: Session, msg: ObjectiveList, to: Answers
) -> None:
    """Answer `msg` with the result, or with one error; never raises."""
    try:
        result = await list_objectives(store, session.principal, msg)
    except VacError as exc:
        to.error(exc, msg.id)
    except Exception as exc:
        log.error("list_failed", session=session.id, error=repr(exc))
        to.error(ProtocolError("internal", "the objectives could not be read"), msg.id)
    else:
        to.send(result)


async def list_objectives(
    store: AsyncEventLog, principal: str, msg: ObjectiveList
) -> ObjectiveListResult:
    """The answer to `msg`: newest first, filtered by state, at most `limit`."""
    rows = await store.call(EventLog.objectives_of, principal)
    now = wall_now()
    listed: list[Objective] = []
    for row in sorted(rows, key=lambda r: (r["created_at_ms"], r["id"]), reverse=True):
        entry = msgspec.json.decode(row["body"], type=intent.DraftEntry)
        status = LISTED_STATUS[entry.state]
        if status == "draft" and now >= entry.expires_at:
            status = "expired"  # the sweeper writes it within a minute
        if msg.state is None or msg.state == status:
            listed.append(entry.objective)
    more = len(listed) > msg.limit
    return ObjectiveListResult(ref=msg.id, objectives=listed[: msg.limit], more=more)
