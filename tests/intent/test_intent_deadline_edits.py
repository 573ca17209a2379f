"""Edits never leave an objective saying two things about when: the deadline
and its `time` constraint move together (`vac.intent.deadline_edits`)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest

from vac.intent import DraftBook, ObjectiveInvalid, apply_edits
from vac.protocol.objective import Objective

MakeObjective = Callable[..., Objective]
NOW = dt.datetime(2026, 5, 1, 10, 0, tzinfo=dt.UTC)
PACE = {"kind": "pace", "value": "gentle"}
TIME = {"kind": "time", "value": "2026-05-02"}


def pairs(obj: Objective) -> list[tuple[str, str]]:
    return [(c.kind, c.value) for c in obj.constraints]


def confirm(make_objective: MakeObjective, edits: Any, **fields: Any) -> Objective:
    book = DraftBook()
    book.add("alice", make_objective(**fields), now=NOW)
    return book.confirm("alice", "obj-1", now=NOW, revision=1, edits=edits).objective


def test_editing_the_deadline_replaces_its_time_constraint(make_objective: MakeObjective) -> None:
    obj = confirm(make_objective, {"deadline": "2026-05-08"}, constraints=[PACE, TIME])
    assert obj.deadline == "2026-05-08"
    assert pairs(obj) == [("pace", "gentle"), ("time", "2026-05-08")]  # in its place
    assert obj.revision == 2


def test_a_deadline_edited_to_null_removes_it(make_objective: MakeObjective) -> None:
    obj = confirm(make_objective, {"deadline": None}, constraints=[TIME, PACE])
    assert obj.deadline is None
    assert pairs(obj) == [("pace", "gentle")]


def test_a_new_deadline_gets_a_time_constraint(make_objective: MakeObjective) -> None:
    obj = confirm(make_objective, {"deadline": "2026-05-08"}, deadline=None, constraints=[PACE])
    # Last: the constraints sent keep their indices (an error names them as sent).
    assert pairs(obj) == [("pace", "gentle"), ("time", "2026-05-08")]


def test_an_rfc3339_deadline_is_mirrored_as_given(make_objective: MakeObjective) -> None:
    obj = confirm(make_objective, {"deadline": "2026-05-08T17:00:00+01:00"})
    assert pairs(obj) == [("time", "2026-05-08T17:00:00+01:00")]


def test_the_deadline_overrules_a_time_constraint_in_the_same_edit(
    make_objective: MakeObjective,
) -> None:
    edits = {
        "deadline": "2026-05-08",
        "constraints": [{"kind": "time", "value": "2026-06-01"}, PACE],
    }
    obj = confirm(make_objective, edits)
    assert obj.deadline == "2026-05-08"
    assert pairs(obj) == [("time", "2026-05-08"), ("pace", "gentle")]


def test_a_time_constraint_edited_alone_moves_the_deadline(make_objective: MakeObjective) -> None:
    edits = {"constraints": [PACE, {"kind": "time", "value": "2026-05-09"}]}
    obj = confirm(make_objective, edits)
    assert obj.deadline == "2026-05-09"
    assert pairs(obj) == [("pace", "gentle"), ("time", "2026-05-09")]


def test_constraints_without_a_time_keep_the_deadline(make_objective: MakeObjective) -> None:
    obj = confirm(make_objective, {"constraints": [PACE]})
    assert obj.deadline == "2026-05-02"
    assert pairs(obj) == [("pace", "gentle"), ("time", "2026-05-02")]
    # With no deadline there is nothing to put back.
    obj = confirm(make_objective, {"constraints": [PACE]}, deadline=None, constraints=[])
    assert (obj.deadline, pairs(obj)) == (None, [("pace", "gentle")])


@pytest.mark.parametrize(
    ("constraints", "fields"),
    [
        ([{"kind": "time", "value": "before the harvest"}], ["constraints[0].value"]),
        ([PACE, {"kind": "time", "value": "2026-02-31"}], ["constraints[1].value"]),
        (
            [{"kind": "time", "value": "2026-05-09"}, {"kind": "time", "value": "2026-05-10"}],
            ["constraints[1]"],
        ),
    ],
)
def test_a_time_constraint_that_cannot_be_the_deadline_is_refused(
    make_objective: MakeObjective, constraints: list[dict[str, str]], fields: list[str]
) -> None:
    book = DraftBook()
    book.add("alice", make_objective(), now=NOW)
    with pytest.raises(ObjectiveInvalid) as info:
        book.confirm("alice", "obj-1", now=NOW, edits={"constraints": constraints})
    assert info.value.fields == fields
    assert book.get("alice", "obj-1").state == "pending"


def test_same_date_twice_collapses(make_objective: MakeObjective) -> None:
    obj = apply_edits(make_objective(), {"constraints": [TIME, PACE, TIME]}, new_revision=2)
    assert pairs(obj) == [("time", "2026-05-02"), ("pace", "gentle")]


def test_a_malformed_deadline_is_named_once(make_objective: MakeObjective) -> None:
    with pytest.raises(ObjectiveInvalid) as info:
        apply_edits(make_objective(), {"deadline": "soon"}, new_revision=2)
    assert info.value.fields == ["deadline"]
    with pytest.raises(ObjectiveInvalid) as info:
        apply_edits(make_objective(), {"deadline": 5}, new_revision=2)
    assert info.value.fields == ["deadline"]


def test_other_edits_leave_time_alone(make_objective: MakeObjective) -> None:
    obj = apply_edits(make_objective(), {"priority": 90}, new_revision=2)
    assert (obj.deadline, pairs(obj)) == ("2026-05-02", [("time", "2026-05-02")])


@pytest.mark.parametrize(
    ("edited", "field"),
    [
        ([{**TIME, "extra": "x"}], "constraints[0].extra"),  # was dropped without a word
        ([PACE, {**TIME, "extra": "x"}], "constraints[1].extra"),
        ([{**PACE, "extra": "x"}, TIME], "constraints[0].extra"),  # as sent, not realigned
    ],
)
def test_an_unknown_key_in_an_edited_constraint_is_named_as_sent(
    make_objective: MakeObjective, edited: list[dict[str, str]], field: str
) -> None:
    obj = make_objective(constraints=[PACE, TIME], deadline="2026-05-02")
    with pytest.raises(ObjectiveInvalid) as caught:
        apply_edits(obj, {"constraints": edited, "priority": 500}, new_revision=2)
    assert set(caught.value.details["fields"]) == {field, "priority"}


def test_an_unknown_key_hides_no_other_error(make_objective: MakeObjective) -> None:
    edited = [{**TIME, "extra": "x"}, {"kind": "bogus", "value": "x"}, 5]
    with pytest.raises(ObjectiveInvalid) as caught:
        apply_edits(make_objective(), {"constraints": edited}, new_revision=2)
    fields = caught.value.details["fields"]
    assert "constraints[0].extra" in fields and len(fields) >= 3, fields
