"""What a detached session missed: the newest change of each objective, bounded."""

from __future__ import annotations

from typing import Any

import msgspec

from tests.intent.intent_factories import objective_builtins
from vac.protocol.messages import ObjectiveUpdated, SquadAnswered, SquadWithdrawn
from vac.protocol.objective import Objective
from vac.runtime.missed import MAX_MISSED, Missed


def update(oid: str, status: str, note: str | None = None) -> ObjectiveUpdated:
    objective = msgspec.convert(objective_builtins(id=oid, status=status), Objective)
    return ObjectiveUpdated(objective=objective, by="agent", note=note)


def updates(msgs: list[Any]) -> list[ObjectiveUpdated]:
    assert all(isinstance(m, ObjectiveUpdated) for m in msgs)
    return msgs


def test_the_newest_change_of_each_objective_oldest_first_once() -> None:
    m = Missed()
    m.keep("s1", update("a", "accepted", "On it."))
    m.keep("s1", update("b", "deferred"))
    m.keep("s1", update("a", "in-progress"))
    m.keep("s2", update("c", "done"))
    assert [(u.objective.id, u.objective.status) for u in updates(m.take("s1"))] == [
        ("b", "deferred"),
        ("a", "in-progress"),
    ]
    assert m.take("s1") == []  # told once
    m.forget("s2")
    assert m.take("s2") == [] and len(m) == 0


def test_bounded_per_session_the_oldest_dropped() -> None:
    m = Missed()
    for i in range(MAX_MISSED + 10):
        m.keep("s1", update(f"o{i}", "accepted"))
    kept = m.take("s1")
    assert len(kept) == MAX_MISSED
    assert isinstance(kept[0], ObjectiveUpdated) and kept[0].objective.id == "o10"


def test_how_a_request_ended_is_kept_once_per_request() -> None:
    """A review: a steward away while a permission-request it was shown got
    answered or withdrawn was re-sent the open ones only, never told of those."""
    m = Missed()
    answered = SquadAnswered(message_id="q1", answer="granted", text="", asked_by="Kofi", by="bob")
    m.keep("s1", answered)
    m.keep("s1", SquadWithdrawn(message_id="q2", asked_by="Zuri"))
    m.keep("s1", update("a", "accepted"))
    kept = m.take("s1")
    assert [type(k).__name__ for k in kept] == [
        "SquadAnswered",
        "SquadWithdrawn",
        "ObjectiveUpdated",
    ]
