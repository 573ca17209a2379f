"""What a detached session missed: the newest change of each objective, bounded."""

from __future__ import annotations

import msgspec

from tests.intent.intent_factories import objective_builtins
from vac.protocol.messages import ObjectiveUpdated
from vac.protocol.objective import Objective
from vac.runtime.missed import MAX_MISSED_OBJECTIVES, Missed


def update(oid: str, status: str, note: str | None = None) -> ObjectiveUpdated:
    objective = msgspec.convert(objective_builtins(id=oid, status=status), Objective)
    return ObjectiveUpdated(objective=objective, by="agent", note=note)


def test_the_newest_change_of_each_objective_oldest_first_once() -> None:
    m = Missed()
    m.keep("s1", update("a", "accepted", "On it."))
    m.keep("s1", update("b", "deferred"))
    m.keep("s1", update("a", "in-progress"))
    m.keep("s2", update("c", "done"))
    assert [(u.objective.id, u.objective.status) for u in m.take("s1")] == [
        ("b", "deferred"),
        ("a", "in-progress"),
    ]
    assert m.take("s1") == []  # told once
    m.forget("s2")
    assert m.take("s2") == [] and len(m) == 0


def test_bounded_per_session_the_oldest_dropped() -> None:
    m = Missed()
    for i in range(MAX_MISSED_OBJECTIVES + 10):
        m.keep("s1", update(f"o{i}", "accepted"))
    kept = m.take("s1")
    assert len(kept) == MAX_MISSED_OBJECTIVES and kept[0].objective.id == "o10"
