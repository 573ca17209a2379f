"""Where an agent's objective went, once it has left the daemon's memory.

Settled objectives stay in memory for `[intent] draft_ttl_s`, and after a
restart only live ones are loaded; both stay in the store. An agent's late
report on one of its own (done, failed, withdrawn, expired) is told where
it went, as it is while the objective is in memory (§9: `objective_invalid`
with `details.status`), not `objective_unknown`: a client-author probe
found the answer changed across a restart. Another agent's objective, an
unconfirmed draft (never shown to an agent) and an unknown id get the same
`objective_unknown`.
"""

from __future__ import annotations

import msgspec

from vac import intent
from vac.errors import VacError
from vac.logs import get_logger
from vac.protocol.errors import ProtocolError
from vac.runtime.session import Session
from vac.runtime.shared import SharedState
from vac.runtime.store import AsyncEventLog, EventLog, StorageUnavailable

log = get_logger("vac.agents")


def moved_on(status: str) -> ProtocolError:
    """§9: a message for an objective that moved on, with its status now."""
    return ProtocolError(
        "objective_invalid",
        f"the objective moved on: it is {status} now",
        details={"status": status},
    )


async def where_it_went(store: AsyncEventLog, agent: str, objective_id: str) -> VacError:
    """The error for `agent`'s message about `objective_id`, read from the store."""
    body = await store.call(EventLog.objective_body, objective_id)
    if body is not None:
        entry = msgspec.json.decode(body, type=intent.DraftEntry)
        objective = entry.objective
        if objective.agent.strip().lower() == agent.lower() and objective.confirmed_by_steward:
            return moved_on(objective.status)
    return intent.ObjectiveUnknown(objective_id)


async def told(shared: SharedState, session: Session, msg_id: str, objective_id: str) -> None:
    """Answer message `msg_id` of an agent's `session` with where its
    objective went, once read (its other messages do not wait for it)."""
    try:
        exc = await where_it_went(shared.store, session.agent or "", objective_id)
    except StorageUnavailable as failed:
        exc = failed  # retryable: the same id sent again is read again
    except Exception:
        log.exception("report_lookup_failed", objective_id=objective_id)
        exc = intent.ObjectiveUnknown(objective_id)
    shared.transport.error(session, exc.with_ref(msg_id))
