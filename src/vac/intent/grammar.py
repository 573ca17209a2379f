"""The constrained intent grammar: its vocabularies and its strict JSON Schema.

The objective's shape is defined once, in `vac.protocol.objective`; this module
re-exports its vocabularies and derives the schema a constrained
function-calling model (or any client) is held to. The schema is *strict*:
every object level has `additionalProperties: false` and lists every property
as required, so a model can neither invent a field nor drop one (a nullable
field such as `deadline` is required and may be `null`).
"""

from __future__ import annotations

import copy
from typing import Any, Final

import msgspec

from vac.protocol.objective import (
    AGENT_PATTERN,
    AUTONOMY_MODES,
    CONSTRAINT_KINDS,
    DEADLINE_PATTERN,
    EDITABLE_FIELDS,
    MAX_CONSTRAINTS,
    MAX_FORBIDDEN_LINES,
    REF_PATTERN,
    TARGET_KINDS,
    VERBS,
    Objective,
)

__all__ = [
    "AGENT_PATTERN",
    "AUTONOMY_MODES",
    "CONSTRAINT_KINDS",
    "DEADLINE_PATTERN",
    "EDITABLE_FIELDS",
    "GRAMMAR_FUNCTION_NAME",
    "MAX_CONSTRAINTS",
    "MAX_FORBIDDEN_LINES",
    "OBJECTIVE_FIELDS",
    "OBJECTIVE_STATUSES",
    "REF_PATTERN",
    "SCHEMA_ID",
    "TARGET_KINDS",
    "VERBS",
    "grammar_function_schema",
    "objective_json_schema",
]

GRAMMAR_FUNCTION_NAME: Final = "vac_parse_objective_intent"
SCHEMA_ID: Final = "vac.objective.1"
OBJECTIVE_FIELDS: Final[tuple[str, ...]] = Objective.__struct_fields__
OBJECTIVE_STATUSES: Final[tuple[str, ...]] = ("draft", "confirmed", "rejected", "expired")

_JSON_SCHEMA_DIALECT: Final = "https://json-schema.org/draft/2020-12/schema"


def _make_strict(node: Any) -> None:
    """Walk the schema in place: every object with properties becomes closed
    and requires all of its properties."""
    if isinstance(node, dict):
        props = node.get("properties")
        if node.get("type") == "object" or isinstance(props, dict):
            node["additionalProperties"] = False
            if isinstance(props, dict):
                node["required"] = list(props)
        for value in node.values():
            _make_strict(value)
    elif isinstance(node, list):
        for item in node:
            _make_strict(item)


_BASE_SCHEMA: Final[dict[str, Any]] = msgspec.json.schema(Objective)


def objective_json_schema() -> dict[str, Any]:
    """The strict JSON Schema of the objective (a fresh copy on every call).

    The root is the Objective object itself (not a `$ref`), with the nested
    shapes (`Target`, `Constraint`, `ForbiddenLine`) under `$defs`.
    """
    base = copy.deepcopy(_BASE_SCHEMA)
    defs: dict[str, Any] = base.get("$defs", {})
    root_name = base["$ref"].rsplit("/", 1)[-1]
    root = defs.pop(root_name)
    schema: dict[str, Any] = {
        "$schema": _JSON_SCHEMA_DIALECT,
        "$id": SCHEMA_ID,
        **root,
        "$defs": defs,
    }
    _make_strict(schema)
    return schema


def grammar_function_schema() -> dict[str, Any]:
    """The schema wrapped as a strict function declaration for constrained
    function calling (name, description, `strict: true`, parameters)."""
    return {
        "name": GRAMMAR_FUNCTION_NAME,
        "description": "Parse a steward's words into a draft objective for one agent.",
        "strict": True,
        "parameters": objective_json_schema(),
    }
