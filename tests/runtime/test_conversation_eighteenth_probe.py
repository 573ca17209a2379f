"""What the twenty-sixth session found (a review of the earlier leftovers
and the blind probes T29, T28c): a second name told to do the order after
it was given ("Kofi, fix the tap. Tariq, you do it") was lost, the draft
Kofi's. Now which of the two is asked, and the answer drafts the order with
that name. The real daemon's twin: tests/daemon/test_amend.py."""

from __future__ import annotations

import pytest

from tests.runtime.test_coordinator import Rig, rig  # noqa: F401 (the fixture)
from vac.protocol.messages import ObjectiveClarify, ObjectiveDraft


@pytest.mark.parametrize("name", ["Kofi", "Tariq"])
async def test_the_answer_to_which_of_two_drafts_that_ones(rig: Rig, name: str) -> None:  # noqa: F811
    rig.text("t1", "Kofi, fix the tap by Friday. Tariq, you do it.")
    await rig.settle(1)
    assert [m.question for m in rig.of(ObjectiveClarify)] == ["Who should do it: Kofi or Tariq?"]
    assert not rig.of(ObjectiveDraft)
    rig.text("t2", name)
    await rig.settle(2)
    made = [(d.objective.agent, d.objective.target.label) for d in rig.of(ObjectiveDraft)]
    assert made == [(name, "Tap")]
    assert rig.of(ObjectiveDraft)[0].preview.summary.endswith("by Friday — confirm?")
