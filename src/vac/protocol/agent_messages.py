"""PROTOCOL §9 messages: the objective lifecycle, listing, and agents' offers.

Re-exported by `vac.protocol.messages`, whose unions hold them.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

import msgspec

from vac.protocol.objective import Objective
from vac.protocol.objective_lifecycle import Status
from vac.protocol.wire_base import Id, Inbound, Outbound

# ---------------------------------------------------------------- inbound


class ObjectiveWithdraw(Inbound, frozen=True, tag="objective.withdraw"):
    """PROTOCOL §9: the steward takes back an objective not yet settled."""

    objective_id: Id


ListedStatus = Status
MAX_LISTED_OBJECTIVES: Final = 50


class ObjectiveList(Inbound, frozen=True, tag="objective.list"):
    """PROTOCOL §9: the steward's own objectives, newest first.

    `state` filters on the objective's `status`; `limit` (an addition, default
    20, at most 50) bounds the answer's size; `before` (an addition: the id
    of an objective listed last) pages on, to the ones older than it.
    """

    state: ListedStatus | None = None
    limit: Annotated[int, msgspec.Meta(ge=1, le=MAX_LISTED_OBJECTIVES)] = 20
    before: Id | None = None


AnsweredBy = Literal["agent", "policy"]
Decision = Literal["accept", "clarify", "counter-offer", "defer", "refuse"]
ProgressState = Literal["in-progress", "done", "failed", "blocked"]
Evidence = Annotated[str, msgspec.Meta(min_length=1, max_length=200)]


class ObjectiveAnswer(Inbound, frozen=True, tag="objective.answer"):
    """PROTOCOL §9: an agent's answer to an `objective.offer`.

    `reply` is spoken to the steward. `counter` (only with `counter-offer`)
    is the proposed objective, or just the fields it changes; it is
    validated like a steward's edit, so every bad field is named.
    """

    offer: Id
    decision: Decision
    reply: Annotated[str, msgspec.Meta(min_length=1, max_length=600)]
    # Required, as the contract lists them (§9); they were optional: a
    # client-author probe's answer without `reason` was taken.
    reason: Annotated[str, msgspec.Meta(max_length=200)]
    evidence: Annotated[list[Evidence], msgspec.Meta(max_length=16)]
    counter: dict[str, Any] | None = None


class ObjectiveProgress(Inbound, frozen=True, tag="objective.progress"):
    """PROTOCOL §9: an agent reports on an objective it accepted."""

    objective_id: Id
    state: ProgressState
    note: Annotated[str, msgspec.Meta(max_length=600)]  # required (§9), "" for none


PermissionAnswer = Literal["granted", "denied"]


class SquadAnswer(Inbound, frozen=True, tag="squad.answer"):
    """PROTOCOL §9: a steward, or an agent the request asked (`to`), answers
    an open permission-request, named by its `squad.message.message_id` (an
    addition: the id a request carries)."""

    message: Id
    answer: PermissionAnswer
    text: Annotated[str, msgspec.Meta(max_length=600)] = ""


class SquadWithdraw(Inbound, frozen=True, tag="squad.withdraw"):
    """An addition (PROTOCOL §9: a request stays open "until answered,
    withdrawn, or 24 h"): the agent that asked takes back its open
    permission-request, named by its `message_id`."""

    message: Id


# --------------------------------------------------------------- outbound


class ObjectiveListResult(Outbound, frozen=True, tag="objective.list.result"):
    """PROTOCOL §9: this principal's objectives only, newest first. `more`
    (an addition) says that older ones were left out by `limit`."""

    objectives: list[Objective]
    more: bool  # always sent (protocol.md lists it; a default was left out on the wire)


UpdatedBy = Literal["agent", "policy", "steward", "daemon"]


class ObjectiveUpdated(Outbound, frozen=True, tag="objective.updated"):
    """PROTOCOL §9: an objective changed state; sent to every attached
    session of its steward (the one that asked gets it with `ref`)."""

    objective: Objective
    by: UpdatedBy
    # An addition: the agent's note with its progress report (`blocked`: why),
    # or the reply of the answer that moved it (`negotiation.reply`): a
    # steward whose turn ended before the answer came learns it here.
    note: str | None = None
    # An addition: set when `objective` is an agent's counter-offer, a new
    # draft (the safer version of the objective it names).
    counter_of: str | None = None


class ObjectiveOffer(Outbound, frozen=True, tag="objective.offer"):
    """PROTOCOL §9: a confirmed objective, offered to the agent it names.
    Answer with `objective.answer {offer}` within `answer_by_ms`."""

    objective: Objective
    offer: str
    answer_by_ms: int


class SquadAnswered(Outbound, frozen=True, tag="squad.answered"):
    """An addition: a permission-request was answered. Sent to the one who
    answered (with `ref`, or in the spoken turn), every other attached
    session of the household's stewards, the asking agent's sessions and
    those of the agent asked (`to`), if any."""

    message_id: str
    answer: PermissionAnswer
    text: str
    by: str  # the principal who answered (a steward, or the agent asked)
    asked_by: str  # the agent who asked
    turn: str | None = None


class SquadWithdrawn(Outbound, frozen=True, tag="squad.withdrawn"):
    """An addition: a permission-request was withdrawn by the agent that
    asked. Sent to it (with `ref`), its other sessions, every attached
    session of the household's stewards and the agent asked (`to`): a
    client drops the request it shows."""

    message_id: str
    asked_by: str  # the agent who asked, and withdrew
