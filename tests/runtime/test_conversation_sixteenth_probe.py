"""What a twenty-fourth-session conversation probe (T23c) found: "no, not
now" said to a draft made it urgent (and the next "yes" confirmed that),
and "no, put your shoes on first", said to someone else in the room,
redrafted the order for April 1. The real daemon's twin:
tests/daemon/test_amend.py."""

from __future__ import annotations

import pytest

from tests.runtime.test_amend import changed
from tests.runtime.test_coordinator import Rig, rig  # noqa: F401 (the fixture)
from vac.protocol.messages import ObjectiveDraft, ObjectiveRejected


@pytest.mark.parametrize("text", ["no, not now", "no, not right now", "not now"])
def test_not_now_changes_nothing(text: str) -> None:
    assert changed("Tariq, map the stream", text) is None


def test_on_first_said_to_someone_else_sets_no_day() -> None:
    got = changed("Imani, build a bench for the garden", "no, put your shoes on first")
    assert got is None or got.deadline is None, got


async def test_no_not_now_rejects_the_draft_and_drafts_nothing(rig: Rig) -> None:  # noqa: F811
    rig.text("t1", "Tariq, map the stream")
    await rig.settle(1)
    (made,) = rig.of(ObjectiveDraft)
    rig.text("t2", "no, not now")
    await rig.settle(2)
    assert [r.objective_id for r in rig.of(ObjectiveRejected)] == [made.objective.id]
    assert len(rig.of(ObjectiveDraft)) == 1  # nothing drafted again, urgent or not
