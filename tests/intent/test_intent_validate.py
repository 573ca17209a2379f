from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import msgspec
import pytest
from intent_factories import objective_builtins

from vac.intent import (
    FieldError,
    ObjectiveInvalid,
    agent_counter,
    apply_edits,
    check_draft_ready,
    objective_from_builtins,
    validate_objective,
)
from vac.protocol.objective import Objective

MakeObjective = Callable[..., Objective]


def _messages(raw: object) -> list[str]:
    return [str(e) for e in validate_objective(raw)]


def test_a_valid_objective_has_no_errors() -> None:
    assert validate_objective(objective_builtins()) == []


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        ({"priority": 101}, "priority: must be ≤ 100"),
        ({"priority": -1}, "priority: must be ≥ 0"),
        ({"priority": True}, "priority: must be an integer"),
        ({"forbidden_lines": []}, "forbidden_lines: at least 1 required"),
        (
            {
                "forbidden_lines": [
                    {"text": f"Do not {i}", "value_ref": "value:x"} for i in range(25)
                ]
            },
            "forbidden_lines: at most 24",
        ),
        ({"deadline": "next tuesday"}, "deadline: must be an ISO-8601 date"),
        ({"deadline": "2026-02-31"}, "deadline: '2026-02-31' is not a real date"),
        ({"target": {"ref": "Garden Gate", "kind": "prop", "label": "x"}}, "target.ref: must be"),
        ({"target": {"ref": "prop:x", "kind": "tree", "label": "x"}}, "target.kind: 'tree' is not"),
        ({"verb": "Destroy"}, "verb: 'Destroy' is not allowed; must be one of Repair, Map"),
        ({"autonomy": "total"}, "autonomy: 'total' is not allowed; must be one of direct-tether"),
        ({"confidence": 1.5}, "confidence: must be between 0 and 1"),
        ({"constraints": [{"kind": "mood", "value": "calm"}]}, "constraints[0].kind: 'mood'"),
        ({"id": ""}, "id: must be 1–64 printable ASCII characters"),
        ({"agent": "R2-D2!"}, "agent: must be an agent name"),
    ],
)
def test_named_errors(overrides: dict[str, object], expected: str) -> None:
    messages = _messages(objective_builtins(**overrides))
    assert any(m.startswith(expected) for m in messages), messages


def test_seed_case_priority_101_and_empty_lines_each_fail_by_name() -> None:
    errors = validate_objective(objective_builtins(priority=101, forbidden_lines=[]))
    assert FieldError("priority", "must be ≤ 100") in errors
    assert FieldError("forbidden_lines", "at least 1 required") in errors
    assert len(errors) == 2


def test_every_failure_is_reported_not_just_the_first() -> None:
    raw = objective_builtins(priority=400, verb="Dance", autonomy="x", foo=1)
    del raw["agent"]
    paths = {e.path for e in validate_objective(raw)}
    assert paths == {"priority", "verb", "autonomy", "foo", "agent"}
    assert "foo: not an objective field" in _messages(raw)
    assert "agent: required" in _messages(raw)


def test_duplicate_forbidden_lines_are_named() -> None:
    lines = [
        {"text": "Do not lie to visitors", "value_ref": "value:honesty"},
        {"text": "do not  lie to visitors", "value_ref": "value:honesty"},
    ]
    assert _messages(objective_builtins(forbidden_lines=lines)) == [
        "forbidden_lines[1].text: duplicate of forbidden_lines[0]"
    ]


def test_unknown_nested_fields_and_non_objects() -> None:
    raw = objective_builtins(
        target={"ref": "prop:x", "kind": "prop", "label": "X", "size": 3},
        constraints=["fast"],
    )
    assert set(_messages(raw)) == {
        "target.size: not a target field",
        "constraints[0]: must be an object with kind and value",
    }
    assert _messages([1, 2]) == ["objective: must be an object"]


def test_roster_membership_when_given() -> None:
    errors = validate_objective(objective_builtins(agent="Bob"), agents=["Abeni", "Kofi"])
    assert [e.path for e in errors] == ["agent"]


def test_rfc3339_deadline_is_accepted() -> None:
    assert validate_objective(objective_builtins(deadline="2026-05-01T22:00:00+01:00")) == []
    assert validate_objective(objective_builtins(deadline="2026-05-01T22:00:00")) != []


def test_valid_builtins_convert_and_invalid_raise_with_all_fields() -> None:
    assert isinstance(objective_from_builtins(objective_builtins()), Objective)
    with pytest.raises(ObjectiveInvalid) as info:
        objective_from_builtins(objective_builtins(priority=101, forbidden_lines=[]))
    assert info.value.fields == ["priority", "forbidden_lines"]
    assert info.value.message == "priority: must be ≤ 100; forbidden_lines: at least 1 required"
    assert info.value.code == "objective_invalid"


def test_apply_edits_makes_a_new_revision(make_objective: MakeObjective) -> None:
    obj = make_objective()
    edited = apply_edits(obj, {"priority": 90, "agent": "Kofi"}, new_revision=2)
    assert (edited.priority, edited.agent, edited.revision) == (90, "Kofi", 2)
    assert edited.id == obj.id and edited.status == "draft"


def test_apply_edits_refuses_non_editable_fields_by_name(make_objective: MakeObjective) -> None:
    obj = make_objective()
    with pytest.raises(ObjectiveInvalid) as info:
        apply_edits(
            obj,
            {
                "status": "confirmed",
                "confirmed_by_steward": True,
                "accepted_by_agent": True,
                "id": "x",
                "revision": 9,
                "foo": 1,
                "priority": 101,
            },
            new_revision=2,
        )
    assert info.value.fields == [
        "status",
        "confirmed_by_steward",
        "accepted_by_agent",
        "id",
        "revision",
        "foo",
        "priority",
    ]
    assert "status: not editable" in info.value.message
    assert "foo: not an objective field" in info.value.message


def test_apply_edits_validates_the_merged_result(make_objective: MakeObjective) -> None:
    with pytest.raises(ObjectiveInvalid) as info:
        apply_edits(make_objective(), {"forbidden_lines": [], "deadline": "soon"}, new_revision=2)
    assert info.value.fields == ["deadline", "forbidden_lines"]


def test_apply_edits_edge_cases(make_objective: MakeObjective) -> None:
    obj = make_objective()
    assert apply_edits(obj, {}, new_revision=2) is obj
    with pytest.raises(ObjectiveInvalid):
        apply_edits(obj, ["priority"], new_revision=2)
    with pytest.raises(ValueError):
        apply_edits(obj, {"priority": 1}, new_revision=1)


def test_pre_confirmed_input_is_malformed(make_objective: MakeObjective) -> None:
    assert check_draft_ready(make_objective()) == []
    bad = make_objective(status="confirmed", confirmed_by_steward=True, accepted_by_agent=True)
    assert [e.path for e in check_draft_ready(bad)] == [
        "status",
        "confirmed_by_steward",
        "accepted_by_agent",
    ]
    assert [e.path for e in check_draft_ready(msgspec.to_builtins(bad))] == [
        "status",
        "confirmed_by_steward",
        "accepted_by_agent",
    ]


OFFERED = {"status": "offered", "confirmed_by_steward": True}


def _fields(exc: pytest.ExceptionInfo[ObjectiveInvalid]) -> list[str]:
    return sorted(e.path for e in exc.value.errors)


def test_an_agent_counter_may_not_propose_a_past_deadline(make_objective: MakeObjective) -> None:
    offered = make_objective(**OFFERED)
    now = dt.datetime(2026, 5, 10, 12, tzinfo=dt.UTC)
    with pytest.raises(ObjectiveInvalid) as exc:
        agent_counter(offered, {"deadline": "2026-05-09"}, counter_id="c1", now=now)
    assert [e.path for e in exc.value.errors] == ["deadline"]
    assert agent_counter(offered, {"deadline": "2026-05-10"}, counter_id="c1", now=now)


def test_an_agent_counter_is_a_new_draft_of_the_changed_fields(
    make_objective: MakeObjective,
) -> None:
    offered = make_objective(**OFFERED)
    counter = agent_counter(offered, {"deadline": "2026-05-09"}, counter_id="c1")
    assert (counter.id, counter.revision, counter.status) == ("c1", 1, "draft")
    assert not counter.confirmed_by_steward and not counter.accepted_by_agent
    assert counter.deadline == "2026-05-09"
    # The time constraint moves with the deadline, as in a steward's edit.
    assert [c.value for c in counter.constraints if c.kind == "time"] == ["2026-05-09"]


def test_a_whole_objective_sent_back_counts_only_what_differs(
    make_objective: MakeObjective,
) -> None:
    offered = make_objective(**OFFERED)
    whole = msgspec.to_builtins(offered) | {"priority": 40}
    assert agent_counter(offered, whole, counter_id="c1").priority == 40
    # …or written as the draft it proposes: claims nothing confirmed or accepted (§5.1).
    as_draft = whole | {
        "status": "draft",
        "confirmed_by_steward": False,
        "accepted_by_agent": False,
    }
    assert agent_counter(offered, as_draft, counter_id="c1").priority == 40


@pytest.mark.parametrize(
    ("counter", "fields"),
    [
        ({"id": "mine"}, ["id"]),
        ({"status": "accepted"}, ["status"]),
        ({"confirmed_by_steward": True, "status": "confirmed"}, ["status"]),
        ({"status": "draft"}, ["counter"]),  # a draft of the same: nothing proposed
        ({"agent": "Kofi"}, ["agent"]),
        ({"priority": 101}, ["priority"]),
        ({"colour": "red"}, ["colour"]),
        ({}, ["counter"]),
        ({"priority": 55}, ["counter"]),  # the same as offered: nothing proposed
    ],
)
def test_a_bad_counter_names_its_fields(
    make_objective: MakeObjective, counter: dict[str, object], fields: list[str]
) -> None:
    with pytest.raises(ObjectiveInvalid) as info:
        agent_counter(make_objective(**OFFERED), counter, counter_id="c1")
    assert _fields(info) == fields


def test_a_counter_that_is_not_an_object_is_named(make_objective: MakeObjective) -> None:
    with pytest.raises(ObjectiveInvalid) as info:
        agent_counter(make_objective(**OFFERED), ["deadline"], counter_id="c1")
    assert _fields(info) == ["counter"]
