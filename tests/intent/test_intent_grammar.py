from __future__ import annotations

from typing import Any

import msgspec

from vac.intent import OBJECTIVE_FIELDS, grammar_function_schema, objective_json_schema
from vac.intent.grammar import CONSTRAINT_KINDS, GRAMMAR_FUNCTION_NAME, TARGET_KINDS, VERBS


def _objects(node: Any, path: str = "$") -> list[tuple[str, dict[str, Any]]]:
    found: list[tuple[str, dict[str, Any]]] = []
    if isinstance(node, dict):
        if node.get("type") == "object" or "properties" in node:
            found.append((path, node))
        for key, value in node.items():
            found += _objects(value, f"{path}.{key}")
    elif isinstance(node, list):
        for i, item in enumerate(node):
            found += _objects(item, f"{path}[{i}]")
    return found


def test_every_object_level_is_closed_and_fully_required() -> None:
    schema = objective_json_schema()
    objects = _objects(schema)
    # The root and the three nested shapes at least.
    assert len(objects) >= 4
    for path, obj in objects:
        assert obj.get("additionalProperties") is False, path
        assert sorted(obj["required"]) == sorted(obj["properties"]), path


def test_schema_root_is_the_objective() -> None:
    schema = objective_json_schema()
    assert schema["type"] == "object"
    assert tuple(schema["properties"]) == OBJECTIVE_FIELDS
    assert "forbidden_lines" in schema["properties"]
    lines = schema["properties"]["forbidden_lines"]
    assert lines["minItems"] == 1 and lines["maxItems"] == 24
    priority = schema["properties"]["priority"]
    assert priority["minimum"] == 0 and priority["maximum"] == 100
    assert set(schema["$defs"]) == {"Target", "Constraint", "ForbiddenLine"}


def test_schema_enums_are_the_grammar() -> None:
    defs = objective_json_schema()["$defs"]
    assert set(defs["Target"]["properties"]["kind"]["enum"]) == set(TARGET_KINDS)
    assert set(defs["Constraint"]["properties"]["kind"]["enum"]) == set(CONSTRAINT_KINDS)
    assert set(objective_json_schema()["properties"]["verb"]["enum"]) == set(VERBS)
    assert len(VERBS) == 8 and len(CONSTRAINT_KINDS) == 8


def test_schema_is_json_and_a_fresh_copy() -> None:
    a = objective_json_schema()
    a["properties"].clear()
    b = objective_json_schema()
    assert b["properties"]
    assert msgspec.json.decode(msgspec.json.encode(b)) == b


def test_function_schema_is_strict() -> None:
    fn = grammar_function_schema()
    assert fn["name"] == GRAMMAR_FUNCTION_NAME
    assert fn["strict"] is True
    assert fn["parameters"]["additionalProperties"] is False
