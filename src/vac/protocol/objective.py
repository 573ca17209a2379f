"""The objective of PROTOCOL §5.1 — the shape a parsed intent takes on the wire.

It lives in `vac.protocol` because it is part of the wire contract
(`objective.draft`, `objective.confirmed`, `hello.ok.pending`); the intent
layer builds, validates and edits it. Field names are fixed by PROTOCOL.md.

The msgspec constraints here give the JSON Schema its bounds. The intent
validator (`vac.intent.validate`) re-checks every field and names *all* the
failing ones, because msgspec stops at the first error.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal

import msgspec

from vac.protocol.objective_lifecycle import Status

Verb = Literal["Repair", "Map", "Investigate", "Protect", "Build", "Support", "Befriend", "Report"]
VERBS: Final[tuple[str, ...]] = (
    "Repair",
    "Map",
    "Investigate",
    "Protect",
    "Build",
    "Support",
    "Befriend",
    "Report",
)

TargetKind = Literal["agent", "ground", "prop", "relationship", "activity", "place", "custom"]
TARGET_KINDS: Final[tuple[str, ...]] = (
    "agent",
    "ground",
    "prop",
    "relationship",
    "activity",
    "place",
    "custom",
)

ConstraintKind = Literal[
    "time", "pace", "safety", "location", "resource", "social", "privacy", "custom"
]
CONSTRAINT_KINDS: Final[tuple[str, ...]] = (
    "time",
    "pace",
    "safety",
    "location",
    "resource",
    "social",
    "privacy",
    "custom",
)

Autonomy = Literal["direct-tether", "standing-intent", "free", "brief"]
AUTONOMY_MODES: Final[tuple[str, ...]] = ("direct-tether", "standing-intent", "free", "brief")

# PROTOCOL §9: the statuses of the objective lifecycle (one table, in
# `vac.protocol.objective_lifecycle`).
ObjectiveStatus = Status

# A reference id: `kind:slug`, e.g. `prop:garden-gate`, `value:honesty`.
REF_PATTERN: Final = r"^[a-z][a-z0-9-]*:[a-z0-9][a-z0-9:._-]{0,95}$"
# ISO-8601 date, or RFC 3339 datetime with an offset.
DEADLINE_PATTERN: Final = (
    r"^\d{4}-\d{2}-\d{2}"
    r"(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$"
)
AGENT_PATTERN: Final = r"^[A-Za-z][A-Za-z' -]{0,47}$"

Ref = Annotated[str, msgspec.Meta(pattern=REF_PATTERN, max_length=100)]
Label = Annotated[str, msgspec.Meta(min_length=1, max_length=120)]
Priority = Annotated[int, msgspec.Meta(ge=0, le=100)]
Confidence = Annotated[float, msgspec.Meta(ge=0.0, le=1.0)]
ObjectiveId = Annotated[str, msgspec.Meta(pattern=r"^[\x20-\x7e]{1,64}$")]
Deadline = Annotated[str, msgspec.Meta(pattern=DEADLINE_PATTERN)]
AgentName = Annotated[str, msgspec.Meta(pattern=AGENT_PATTERN)]

MAX_FORBIDDEN_LINES: Final = 24
MAX_CONSTRAINTS: Final = 16

# The fields `objective.confirm.edits` may replace (PROTOCOL §5.1).
EDITABLE_FIELDS: Final[frozenset[str]] = frozenset(
    {
        "agent",
        "verb",
        "target",
        "constraints",
        "priority",
        "deadline",
        "forbidden_lines",
        "autonomy",
    }
)


class _Strict(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    pass


class Target(_Strict, frozen=True):
    ref: Ref
    kind: TargetKind
    label: Label


class Constraint(_Strict, frozen=True):
    kind: ConstraintKind
    value: Annotated[str, msgspec.Meta(min_length=1, max_length=200)]


class ForbiddenLine(_Strict, frozen=True):
    text: Annotated[str, msgspec.Meta(min_length=1, max_length=200)]
    value_ref: Ref


class Objective(_Strict, frozen=True):
    id: ObjectiveId
    revision: Annotated[int, msgspec.Meta(ge=0)]
    agent: AgentName
    verb: Verb
    target: Target
    constraints: Annotated[list[Constraint], msgspec.Meta(max_length=MAX_CONSTRAINTS)]
    priority: Priority
    deadline: Deadline | None
    forbidden_lines: Annotated[
        list[ForbiddenLine], msgspec.Meta(min_length=1, max_length=MAX_FORBIDDEN_LINES)
    ]
    autonomy: Autonomy
    status: ObjectiveStatus
    confirmed_by_steward: bool
    accepted_by_agent: bool
    source_text: Annotated[str, msgspec.Meta(max_length=2000)]
    confidence: Confidence


# Objective fields a draft's preview can flag as not surely heard (an addition,
# docs/protocol.md): the summary says so, and the steward confirms or edits.
UncertainField = Literal["agent", "verb", "deadline"]
