"""Household commands typed as people write them, from a review of new
sentences (none from the understanding corpus)."""

from __future__ import annotations

import datetime as dt

import intent_factories as factories

from vac.intent import Clarify, Draft, default_roster

NOW = dt.datetime(2026, 5, 1, 10, 0, tzinfo=dt.UTC)  # a Friday, as in docs/speaking.md
ROSTER = default_roster()


def run(text: str) -> Draft | Clarify:
    got: Draft | Clarify = factories.understood(text, now=NOW, roster=ROSTER)
    return got


def draft(text: str) -> Draft:
    got = run(text)
    assert isinstance(got, Draft), got
    return got


def test_a_place_ends_where_the_deadline_starts() -> None:
    # The place was dropped: "behind the school this weekend" ended in a time.
    got = draft("Zuri, could you map the woods behind the school this weekend?")
    assert ("location", "behind the school") in {
        (c.kind, c.value) for c in got.objective.constraints
    }
    assert got.objective.deadline == "2026-05-02"
