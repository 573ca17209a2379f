"""The lifecycle of an objective (PROTOCOL §9), as one table.

Pure: no clock, no I/O. The draft book (`vac.intent.gate`) applies these
transitions to its entries; the runtime writes each new state to the event
log before it announces it (`objective.updated`).

    draft ──confirm──► confirmed ──offer──► offered ──► accepted ──► in-progress ──► done | failed
      ├──reject──► rejected                     ├──► countered
      └──expire──► expired                      ├──► deferred
                                                ├──► clarifying
                                                └──► refused ──confirm (pushed again)──► confirmed

Every state that is not final may be withdrawn by its steward or expire
(its deadline passed; a draft: its lifetime). `done`, `failed`, `rejected`,
`expired` and `withdrawn` are final. `refused` is final for the agent, but
its steward may push it again: the daemon then refuses it itself (coercion,
PROTOCOL §5.1) without asking the agent.

`done` and `failed` come only after `in-progress`, as the §9 chain lists
(`accepted → in-progress → done | failed`): a report straight from
`accepted` is `objective_invalid` with `details.status: "accepted"`. (Until
2026-12-05 it was taken, an addition an independent agent's author read as a
departure from the table.)
"""

from __future__ import annotations

from typing import Final, Literal, get_args

from vac.errors import VacError

Status = Literal[
    "draft",
    "confirmed",
    "offered",
    "accepted",
    "countered",
    "deferred",
    "refused",
    "clarifying",
    "in-progress",
    "done",
    "failed",
    "withdrawn",
    "expired",
    "rejected",
]
STATUSES: Final[tuple[Status, ...]] = get_args(Status)

Event = Literal[
    "confirm",  # the steward confirmed (the gate)
    "reject",  # the steward rejected the draft
    "offer",  # the daemon offered it to the agent (or to the built-in negotiator)
    "accept",  # the agent's answers (objective.answer)
    "counter-offer",
    "defer",
    "clarify",
    "refuse",
    "in-progress",  # the agent's reports (objective.progress)
    "done",
    "failed",
    "withdraw",  # the steward took it back (objective.withdraw)
    "expire",  # its deadline (a draft: its lifetime) passed
]
EVENTS: Final[tuple[Event, ...]] = get_args(Event)

FINAL: Final[frozenset[Status]] = frozenset({"done", "failed", "rejected", "expired", "withdrawn"})
# What the negotiation can answer, and the state each answer leaves.
ANSWERS: Final[dict[Event, Status]] = {
    "accept": "accepted",
    "counter-offer": "countered",
    "defer": "deferred",
    "clarify": "clarifying",
    "refuse": "refused",
}
# An agent's commitments are its objectives in these states (PROTOCOL §9).
COMMITTED: Final[frozenset[Status]] = frozenset({"accepted", "in-progress"})

_T: dict[tuple[Status, Event], Status] = {
    ("draft", "confirm"): "confirmed",
    ("draft", "reject"): "rejected",
    # Pushed again after a refusal: the daemon refuses it (coercion).
    ("refused", "confirm"): "confirmed",
    ("confirmed", "offer"): "offered",
    ("in-progress", "in-progress"): "in-progress",  # a repeated report changes nothing
    ("accepted", "in-progress"): "in-progress",
    ("in-progress", "done"): "done",
    ("in-progress", "failed"): "failed",
}
_T.update({("offered", answer): state for answer, state in ANSWERS.items()})
for _status in STATUSES:
    if _status not in FINAL and _status != "refused":
        _T[(_status, "withdraw")] = "withdrawn"
        _T[(_status, "expire")] = "expired"

TRANSITIONS: Final[dict[tuple[Status, Event], Status]] = dict(_T)


class TransitionInvalid(VacError):
    """An event that does not apply to the objective's current status: the
    objective moved on. `details.status` says where it is now (§9)."""

    code = "objective_invalid"

    def __init__(
        self, objective_id: str, status: Status, event: Event, said: str | None = None
    ) -> None:
        self.objective_id = objective_id
        self.status = status
        self.event = event
        first = " (report 'in-progress' first)" if (status, event) in _NEEDS_START else ""
        super().__init__(
            f"objective is {status}; it cannot take {said or event!r} now{first}",
            details={"status": status},
        )


# Reports that skip `in-progress`: the refusal says what comes first.
_NEEDS_START: Final = frozenset({("accepted", "done"), ("accepted", "failed")})


def next_status(objective_id: str, status: Status, event: Event, said: str | None = None) -> Status:
    """The status after `event`, or `TransitionInvalid` (nothing changes);
    `said` is how the client put it, for the refusal ("blocked" is the
    `in-progress` event)."""
    new = TRANSITIONS.get((status, event))
    if new is None:
        raise TransitionInvalid(objective_id, status, event, said)
    return new


def is_final(status: Status) -> bool:
    return status in FINAL
