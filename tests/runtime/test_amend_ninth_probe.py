"""Changes from a ninth typed probe's conversations (2026-12-06, the
seventeenth session): "no" and someone else's news with a time made that
time the draft's deadline ("Nah, the engineer's coming tomorrow": due
tomorrow)."""

from __future__ import annotations

import datetime as dt
from typing import NamedTuple

import pytest

from vac.intent import Draft, Wording, default_roster, understand
from vac.protocol.objective import Objective
from vac.runtime.amend import Reading

NOW = dt.datetime(2026, 3, 11, 9, 30, tzinfo=dt.UTC)  # a Wednesday morning
ROSTER = default_roster()
MACHINE = "Kofi, fix the washing machine"


class Entry(NamedTuple):
    objective: Objective
    wording: Wording | None = None


def changed(text: str, source: str = MACHINE) -> object:
    pending = understand(
        source, confidence=1.0, evidence=None, now=NOW, roster=ROSTER, current_agent=None,
        objective_id="o",
    )  # fmt: skip
    assert isinstance(pending, Draft)
    entry = Entry(pending.objective, pending.wording)
    return Reading(NOW, ROSTER, None).changed(text, 1.0, None, entry)


@pytest.mark.parametrize(
    "text",
    [
        "Nah, the engineer's coming tomorrow",
        "No, the plumber's coming on Friday",
        "No, my brother is sorting it out on Saturday",
        "Actually, the kids are back tomorrow",
    ],
)
def test_news_after_a_no_changes_no_deadline(text: str) -> None:
    got = changed(text)
    assert not isinstance(got, Draft) or got.objective.deadline is None, got


@pytest.mark.parametrize(
    ("text", "deadline", "target"),
    [
        ("No, tomorrow", "2026-03-12", "Washing machine"),
        ("No, the dryer is better", None, "Dryer"),
        ("No, the dryer, by Friday", "2026-03-13", "Dryer"),
    ],
)
def test_a_change_is_still_a_change(text: str, deadline: str | None, target: str) -> None:
    got = changed(text)
    assert isinstance(got, Draft), got
    assert got.objective.deadline == deadline
    assert got.objective.target.label == target
