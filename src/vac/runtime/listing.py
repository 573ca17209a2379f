"""PROTOCOL §9 `objective.list`: a principal's objectives, from the event log.

Read from the log, not the book: the log holds every decision before it is
announced, so a listing is never behind what the client was told.

Bounded whatever the history: a listing reads the principal's newest
`limit + 1` objectives of the states asked through an index (a draft is a
pending one not yet expired; an expired one is also a pending one past its
lifetime that the sweep has not written yet, and pending ones are few: the
draft quota). It read, decoded and sorted every objective the principal
ever had, on the loop: with 90,000 of them one listing held every session
for seconds. A session has at most `MAX_LISTINGS` being read; one more is
`busy` (retryable), so a client pipelining listings cannot queue the event
log's one thread in front of everyone's decisions.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final, Protocol

import msgspec

from vac import intent
from vac.clock import now_ms, wall_now
from vac.errors import VacError
from vac.logs import get_logger
from vac.protocol.errors import ProtocolError
from vac.protocol.messages import ObjectiveList, ObjectiveListResult, Outbound
from vac.protocol.objective import Objective
from vac.runtime.session import Session
from vac.runtime.store import AsyncEventLog, EventLog

log = get_logger("vac.turns")

MAX_LISTINGS: Final = 2  # being read at once per session
BUSY_RETRY_MS: Final = 50

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


class Holds(Protocol):
    """What a listing reads (the daemon's shared state)."""

    @property
    def store(self) -> AsyncEventLog: ...
    @property
    def book(self) -> intent.DraftBook: ...


async def answer_listing(shared: Holds, session: Session, msg: ObjectiveList, to: Answers) -> None:
    """Answer `msg` with the result, or with one error; never raises."""
    try:
        if session.agent is not None:
            result = addressed_to(shared.book, session.agent, msg)
        else:
            result = await list_objectives(shared.store, session.principal, msg)
    except VacError as exc:
        to.error(exc, msg.id)
    except Exception as exc:
        log.error("list_failed", session=session.id, error=repr(exc))
        to.error(ProtocolError("internal", "the objectives could not be read"), msg.id)
    else:
        to.send(result)


def check_room(listings: int) -> None:
    """Refuse one more listing while `listings` are being read (busy, retryable)."""
    if listings < MAX_LISTINGS:
        return
    raise ProtocolError(
        "busy",
        f"{MAX_LISTINGS} listings of this session are being read; try again",
        details={"retry_after_ms": BUSY_RETRY_MS},
    )


async def list_objectives(
    store: AsyncEventLog, principal: str, msg: ObjectiveList
) -> ObjectiveListResult:
    """The answer to `msg`: newest first, filtered by state, at most `limit`,
    older than `before` when it is given."""
    want = msg.limit + 1  # one more says whether there is more
    at_ms = now_ms()
    place = None
    if msg.before is not None:
        place = await store.call(EventLog.objective_place, principal, msg.before)
        if place is None:  # another principal's is answered as an unknown one
            raise _unknown_cursor(msg.before)
    rows: list[dict[str, Any]] = []
    for stored, when in _reads(msg.state, at_ms):
        rows += await store.call(
            EventLog.newest_objectives, principal, stored, want, before=place, **when
        )
    now = wall_now()
    listed: list[Objective] = []
    for row in _newest_first(rows):
        entry = msgspec.json.decode(row["body"], type=intent.DraftEntry)
        status = LISTED_STATUS[entry.state]
        if status == "draft" and now >= entry.expires_at:
            status = "expired"  # the sweeper writes it within a minute
        if msg.state is None or msg.state == status:
            listed.append(entry.objective)
            if len(listed) == want:
                break
    more = len(listed) > msg.limit
    return ObjectiveListResult(ref=msg.id, objectives=listed[: msg.limit], more=more)


def addressed_to(book: intent.DraftBook, agent: str, msg: ObjectiveList) -> ObjectiveListResult:
    """An agent's listing: the confirmed objectives addressed to it that the
    daemon holds (every one not yet settled, also after a restart, and those
    settled within `[intent] draft_ttl_s`), newest first, from any steward.
    An agent that lost its own state recovers its commitments here; it had
    no objectives of its own, so its listing was always empty (a probe)."""
    key = agent.strip().lower()
    mine = [
        e
        for e in book.durable_entries()  # never a decision still being written
        if e.objective.confirmed_by_steward and e.objective.agent.strip().lower() == key
    ]
    mine.sort(key=lambda e: (e.created_at, e.objective.id), reverse=True)
    if msg.before is not None:
        # Found before the state filter: the last of a page may have moved on
        # since (offered → accepted), and still marks the page (a review).
        ids = [e.objective.id for e in mine]
        if msg.before not in ids:
            raise _unknown_cursor(msg.before)
        mine = mine[ids.index(msg.before) + 1 :]
    mine = [e for e in mine if msg.state is None or LISTED_STATUS[e.state] == msg.state]
    listed = [e.objective for e in mine[: msg.limit]]
    return ObjectiveListResult(ref=msg.id, objectives=listed, more=len(mine) > msg.limit)


def _unknown_cursor(objective_id: str) -> ProtocolError:
    return ProtocolError(
        "objective_unknown",
        f"no objective {objective_id} of yours to list from (`before`)",
        details={"objective_id": objective_id},
    )


def _reads(state: str | None, at_ms: int) -> list[tuple[str | None, dict[str, int]]]:
    """What a listing of `state` reads: (stored state, None for any; its
    lifetime then). Pending ones first: one that expires meanwhile is then
    read twice, never missed."""
    if state is None:
        return [(None, {})]
    if state == "draft":
        return [("pending", {"live_at_ms": at_ms - 1})]
    if state == "expired":
        return [("pending", {"over_at_ms": at_ms + 1}), ("expired", {})]
    return [(state, {})]


def _newest_first(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    unique = {row["id"]: row for row in rows}
    return sorted(unique.values(), key=lambda r: (r["created_at_ms"], r["id"]), reverse=True)
