"""Changes from an eleventh typed probe's conversations (2026-12-07, the
nineteenth session): "scratch the deadline" changed nothing."""

from __future__ import annotations

import pytest

from tests.runtime import amend_factories as factories
from vac.intent import Draft


@pytest.mark.parametrize("text", ["scratch the deadline", "ok, scratch that deadline"])
def test_scratching_the_deadline_takes_it_off(text: str) -> None:
    got = factories.changed(text, "Zuri, check the hives tomorrow")
    assert isinstance(got, Draft), got
    assert got.objective.deadline is None
    assert not [c for c in got.objective.constraints if c.kind == "time"]
