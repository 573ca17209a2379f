"""An agent's commitments: what it took on and has not yet finished.

Computed, never accumulated: the configured standing commitments of the
agent ("tend the hives") plus every objective it accepted whose commitment
has not ended. A commitment ends at its deadline (the end of that day); one
without a deadline ends `OPEN_ENDED_DAYS` after it was taken on. The book
holds the accepted objectives and the event log keeps them across restarts,
so the negotiator's "stacked commitments" rule sees what is really on the
agent's plate — it no longer grows until the daemon restarts.

Pure: the caller passes `today` (the household's local date).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Final, Protocol

import msgspec

from vac.intent.negotiation import commitment_of
from vac.intent.roster import Agent
from vac.intent.spoken import deadline_date, deadline_passed_at
from vac.protocol.objective import Objective
from vac.protocol.objective_lifecycle import COMMITTED


class DraftEntry(Protocol):
    """What this module reads of a `gate.DraftEntry` (the gate imports us)."""

    @property
    def state(self) -> str: ...
    @property
    def objective(self) -> Objective: ...
    @property
    def created_at(self) -> dt.datetime: ...


# An accepted objective with no deadline whose agent never reports it done
# or failed (the built-in negotiator never does) stops counting after this
# long, so an agent is never stuck deferring on work nobody tracks.
OPEN_ENDED_DAYS: Final = 7


def commitment_end(entry: DraftEntry) -> dt.date:
    """The last day the accepted objective of `entry` counts as a commitment."""
    deadline = deadline_date(entry.objective.deadline)
    if deadline is not None:
        return deadline
    return entry.created_at.date() + dt.timedelta(days=OPEN_ENDED_DAYS)


def deadline_passed(objective: Objective, now: dt.datetime) -> bool:
    """Whether the objective's deadline passed (none: never). A date passes
    when its day is over; an RFC 3339 date-time (§5.1 allows both) at that
    moment: "by 18:00" is over at 18:00, not at midnight."""
    return deadline_passed_at(objective.deadline, now)


def is_open(entry: DraftEntry, today: dt.date) -> bool:
    """Whether `entry` is an accepted objective its agent is still committed
    to: accepted or in progress (PROTOCOL §9), and not past its end."""
    committed = entry.state in COMMITTED or (
        # Stored before the lifecycle had its own states.
        entry.state == "confirmed" and entry.objective.accepted_by_agent
    )
    return committed and today <= commitment_end(entry)


def with_commitments(agent: Agent, entries: Iterable[DraftEntry], today: dt.date) -> Agent:
    """`agent` with its standing commitments and its open accepted objectives."""
    taken = [
        commitment_of(e.objective)
        for e in entries
        if e.objective.agent.lower() == agent.name.lower() and is_open(e, today)
    ]
    fresh = [c for c in taken if c not in agent.commitments]
    if not fresh:
        return agent
    return msgspec.structs.replace(agent, commitments=[*agent.commitments, *fresh])
