"""An agent's commitments end (intent/commitments.py): golden cases."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import msgspec

from vac.intent import OPEN_ENDED_DAYS, DraftEntry, default_roster, with_commitments
from vac.protocol.objective import Objective

NOW = dt.datetime(2026, 12, 2, 10, 0, tzinfo=dt.UTC)
DAY = dt.timedelta(days=1)
MakeObjective = Callable[..., Objective]


def accepted(make: MakeObjective, oid: str, agent: str, deadline: str | None) -> DraftEntry:
    obj = make(id=oid, agent=agent, deadline=deadline, constraints=[])
    obj = msgspec.structs.replace(
        obj, status="confirmed", confirmed_by_steward=True, accepted_by_agent=True
    )
    return DraftEntry("alice", obj, NOW, NOW + DAY, "confirmed")


def test_standing_commitments_stay_and_accepted_ones_end_at_their_deadline(
    make_objective: MakeObjective,
) -> None:
    kofi = default_roster().get("Kofi")
    assert kofi is not None and kofi.commitments == ["tend the hives"]
    entries = [accepted(make_objective, "o-1", "Kofi", "2026-12-03")]
    assert len(with_commitments(kofi, entries, NOW.date()).commitments) == 2
    assert len(with_commitments(kofi, entries, dt.date(2026, 12, 3)).commitments) == 2
    # The day after its deadline it is off the agent's plate.
    assert with_commitments(kofi, entries, dt.date(2026, 12, 4)).commitments == ["tend the hives"]


def test_an_open_ended_commitment_ends_after_a_week(make_objective: MakeObjective) -> None:
    zuri = default_roster().get("Zuri")
    assert zuri is not None
    entries = [accepted(make_objective, "o-1", "Zuri", None)]
    last = NOW.date() + dt.timedelta(days=OPEN_ENDED_DAYS)
    assert len(with_commitments(zuri, entries, last).commitments) == 1
    assert with_commitments(zuri, entries, last + DAY).commitments == []


def test_only_the_agents_own_accepted_objectives_count(make_objective: MakeObjective) -> None:
    zuri = default_roster().get("Zuri")
    assert zuri is not None
    other = accepted(make_objective, "o-1", "Imani", None)
    not_accepted = msgspec.structs.replace(
        accepted(make_objective, "o-2", "Zuri", None),
        objective=make_objective(id="o-2", agent="Zuri", constraints=[]),
        state="pending",
    )
    assert with_commitments(zuri, [other, not_accepted], NOW.date()).commitments == []
