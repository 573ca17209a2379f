"""The objective validator: every failing field named, never just "invalid".

msgspec stops at the first error, so a steward who sends three bad edits would
learn of them one round trip at a time. This validator walks a builtins-shaped
objective (what `msgspec.to_builtins` or a decoded `edits` dict gives) field by
field and reports *all* failures, each as `path: message`.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Collection, Mapping
from typing import Any, Final

import msgspec

from vac.intent.deadline_edits import align_deadline, deadline_problem
from vac.intent.errors import FieldError, ObjectiveInvalid
from vac.protocol.objective import (
    AGENT_PATTERN,
    AUTONOMY_MODES,
    CONSTRAINT_KINDS,
    EDITABLE_FIELDS,
    MAX_CONSTRAINTS,
    MAX_FORBIDDEN_LINES,
    REF_PATTERN,
    TARGET_KINDS,
    VERBS,
    Objective,
)

_REF_RE: Final = re.compile(REF_PATTERN)
_AGENT_RE: Final = re.compile(AGENT_PATTERN)
_ID_RE: Final = re.compile(r"^[\x20-\x7e]{1,64}$")

_FIELDS: Final[tuple[str, ...]] = Objective.__struct_fields__
_STATUSES: Final[tuple[str, ...]] = ("draft", "confirmed", "rejected", "expired")
_LABEL_MAX: Final = 120
_TEXT_MAX: Final = 200
_SOURCE_MAX: Final = 2000


def _one_of(values: Collection[str]) -> str:
    return "must be one of " + ", ".join(values)


def _is_int(value: object) -> bool:
    # bool is an int subclass; `priority: true` is not a priority.
    return isinstance(value, int) and not isinstance(value, bool)


def _check_str(
    errors: list[FieldError], path: str, value: object, *, max_len: int, min_len: int = 1
) -> bool:
    if not isinstance(value, str):
        errors.append(FieldError(path, "must be a string"))
        return False
    if len(value.strip()) < min_len:
        errors.append(FieldError(path, "must not be empty"))
        return False
    if len(value) > max_len:
        errors.append(FieldError(path, f"at most {max_len} characters"))
        return False
    return True


def _check_ref(errors: list[FieldError], path: str, value: object) -> None:
    if not isinstance(value, str) or not _REF_RE.match(value):
        example = "value:honesty" if path.endswith("value_ref") else "prop:garden-gate"
        errors.append(FieldError(path, f"must be a reference like kind:slug (e.g. {example})"))


def _check_deadline(errors: list[FieldError], value: object) -> None:
    problem = None if value is None else deadline_problem(value)
    if problem is not None:
        errors.append(FieldError("deadline", problem))


def _unknown_keys(
    errors: list[FieldError], prefix: str, raw: Mapping[Any, Any], known: Collection[str], what: str
) -> None:
    for key in raw:
        if key not in known:
            errors.append(FieldError(f"{prefix}{key}", f"not {what} field"))


def _check_missing(
    errors: list[FieldError], prefix: str, raw: Mapping[Any, Any], known: Collection[str]
) -> bool:
    ok = True
    for key in known:
        if key not in raw:
            errors.append(FieldError(f"{prefix}{key}", "required"))
            ok = False
    return ok


def _check_target(errors: list[FieldError], value: object) -> None:
    if not isinstance(value, Mapping):
        errors.append(FieldError("target", "must be an object with ref, kind and label"))
        return
    fields = ("ref", "kind", "label")
    _unknown_keys(errors, "target.", value, fields, "a target")
    _check_missing(errors, "target.", value, fields)
    if "ref" in value:
        _check_ref(errors, "target.ref", value["ref"])
    if "kind" in value:
        _check_enum(errors, "target.kind", value["kind"], TARGET_KINDS)
    if "label" in value:
        _check_str(errors, "target.label", value["label"], max_len=_LABEL_MAX)


def _check_constraints(errors: list[FieldError], value: object) -> None:
    if not isinstance(value, list):
        errors.append(FieldError("constraints", "must be a list"))
        return
    if len(value) > MAX_CONSTRAINTS:
        errors.append(FieldError("constraints", f"at most {MAX_CONSTRAINTS}"))
    seen: dict[tuple[str, str], int] = {}
    for i, item in enumerate(value):
        path = f"constraints[{i}]"
        if not isinstance(item, Mapping):
            errors.append(FieldError(path, "must be an object with kind and value"))
            continue
        _unknown_keys(errors, f"{path}.", item, ("kind", "value"), "a constraint")
        _check_missing(errors, f"{path}.", item, ("kind", "value"))
        kind, val = item.get("kind"), item.get("value")
        if "kind" in item:
            _check_enum(errors, f"{path}.kind", kind, CONSTRAINT_KINDS)
        if "value" in item and _check_str(errors, f"{path}.value", val, max_len=_TEXT_MAX):
            key = (str(kind), " ".join(str(val).lower().split()))
            if key in seen:
                errors.append(FieldError(path, f"duplicate of constraints[{seen[key]}]"))
            else:
                seen[key] = i


def _check_forbidden_lines(errors: list[FieldError], value: object) -> None:
    if not isinstance(value, list):
        errors.append(FieldError("forbidden_lines", "must be a list"))
        return
    if not value:
        # An objective with no boundary is unrepresentable.
        errors.append(FieldError("forbidden_lines", "at least 1 required"))
    if len(value) > MAX_FORBIDDEN_LINES:
        errors.append(FieldError("forbidden_lines", f"at most {MAX_FORBIDDEN_LINES}"))
    seen: dict[str, int] = {}
    for i, item in enumerate(value):
        path = f"forbidden_lines[{i}]"
        if not isinstance(item, Mapping):
            errors.append(FieldError(path, "must be an object with text and value_ref"))
            continue
        _unknown_keys(errors, f"{path}.", item, ("text", "value_ref"), "a forbidden-line")
        _check_missing(errors, f"{path}.", item, ("text", "value_ref"))
        if "value_ref" in item:
            _check_ref(errors, f"{path}.value_ref", item["value_ref"])
        text = item.get("text")
        if "text" in item and _check_str(errors, f"{path}.text", text, max_len=_TEXT_MAX):
            key = " ".join(str(text).lower().split())
            if key in seen:
                errors.append(
                    FieldError(f"{path}.text", f"duplicate of forbidden_lines[{seen[key]}]")
                )
            else:
                seen[key] = i


def _check_int_range(
    errors: list[FieldError], path: str, value: object, lo: int, hi: int | None
) -> None:
    if not _is_int(value):
        errors.append(FieldError(path, "must be an integer"))
        return
    assert isinstance(value, int)
    if value < lo:
        errors.append(FieldError(path, f"must be ≥ {lo}"))
    if hi is not None and value > hi:
        errors.append(FieldError(path, f"must be ≤ {hi}"))


def validate_objective(raw: object, *, agents: Collection[str] | None = None) -> list[FieldError]:
    """Every failure of a builtins-shaped objective, in field order.

    `agents`, when given, is the roster: an agent outside it is an error too.
    An empty list means the objective is valid (and `msgspec.convert` to
    `Objective` will succeed).
    """
    if not isinstance(raw, Mapping):
        return [FieldError("objective", "must be an object")]
    errors: list[FieldError] = []
    _unknown_keys(errors, "", raw, _FIELDS, "an objective")
    _check_missing(errors, "", raw, _FIELDS)
    if "id" in raw:
        _check_id(errors, raw["id"])
    if "revision" in raw:
        _check_int_range(errors, "revision", raw["revision"], 0, None)
    if "agent" in raw:
        _check_agent(errors, raw["agent"], agents)
    if "verb" in raw:
        _check_enum(errors, "verb", raw["verb"], VERBS)
    if "target" in raw:
        _check_target(errors, raw["target"])
    if "constraints" in raw:
        _check_constraints(errors, raw["constraints"])
    if "priority" in raw:
        _check_int_range(errors, "priority", raw["priority"], 0, 100)
    if "deadline" in raw:
        _check_deadline(errors, raw["deadline"])
    if "forbidden_lines" in raw:
        _check_forbidden_lines(errors, raw["forbidden_lines"])
    if "autonomy" in raw:
        _check_enum(errors, "autonomy", raw["autonomy"], AUTONOMY_MODES)
    if "status" in raw:
        _check_enum(errors, "status", raw["status"], _STATUSES)
    for flag in ("confirmed_by_steward", "accepted_by_agent"):
        if flag in raw:
            _check_bool(errors, flag, raw[flag])
    if "source_text" in raw:
        _check_str(errors, "source_text", raw["source_text"], max_len=_SOURCE_MAX, min_len=0)
    if "confidence" in raw:
        _check_confidence(errors, raw["confidence"])
    return errors


def _check_enum(
    errors: list[FieldError], path: str, value: object, allowed: Collection[str]
) -> None:
    if value not in allowed:
        errors.append(FieldError(path, f"{value!r} is not allowed; {_one_of(allowed)}"))


def _check_id(errors: list[FieldError], value: object) -> None:
    if not isinstance(value, str) or not _ID_RE.match(value):
        errors.append(FieldError("id", "must be 1–64 printable ASCII characters"))


def _check_agent(errors: list[FieldError], value: object, agents: Collection[str] | None) -> None:
    if not isinstance(value, str) or not _AGENT_RE.match(value):
        errors.append(FieldError("agent", "must be an agent name (letters, spaces, ' and -)"))
    elif agents is not None and value.strip().lower() not in {a.lower() for a in agents}:
        errors.append(FieldError("agent", "not in the roster: " + ", ".join(agents)))


def _check_bool(errors: list[FieldError], path: str, value: object) -> None:
    if not isinstance(value, bool):
        errors.append(FieldError(path, "must be true or false"))


def _check_confidence(errors: list[FieldError], value: object) -> None:
    if not isinstance(value, int | float) or isinstance(value, bool):
        errors.append(FieldError("confidence", "must be a number"))
    elif not 0.0 <= float(value) <= 1.0:
        errors.append(FieldError("confidence", "must be between 0 and 1"))


def check_draft_ready(obj: Objective | Mapping[str, Any]) -> list[FieldError]:
    """Why this objective cannot enter the gate as a draft (empty if it can).

    A parsed intent that arrives already confirmed or accepted is malformed:
    only the steward gate confirms and only the agent accepts.
    """
    raw: Any = msgspec.to_builtins(obj) if isinstance(obj, Objective) else obj
    errors: list[FieldError] = []
    if raw.get("status") != "draft":
        errors.append(FieldError("status", f"must be draft, got {raw.get('status')!r}"))
    if raw.get("confirmed_by_steward") is not False:
        errors.append(FieldError("confirmed_by_steward", "a draft cannot arrive confirmed"))
    if raw.get("accepted_by_agent") is not False:
        errors.append(FieldError("accepted_by_agent", "a draft cannot arrive accepted"))
    return errors


def objective_from_builtins(raw: object, *, agents: Collection[str] | None = None) -> Objective:
    """Validate then convert; raises `ObjectiveInvalid` naming every failure."""
    errors = validate_objective(raw, agents=agents)
    if errors:
        raise ObjectiveInvalid(errors)
    return msgspec.convert(raw, Objective)


def apply_edits(
    obj: Objective,
    edits: object,
    *,
    new_revision: int,
    agents: Collection[str] | None = None,
    now: dt.datetime | None = None,
) -> Objective:
    """The objective with `edits` applied, as revision `new_revision`.

    Only `EDITABLE_FIELDS` may be edited; any other key (status, the two
    confirmation flags, id, revision, …) is an error naming it. The merged
    result is validated as a whole. Raises `ObjectiveInvalid` listing every
    failing field. Empty edits return `obj` unchanged (no new revision).
    An edited deadline moves the time constraint with it, and a time
    constraint edited alone moves the deadline (`deadline_edits`).
    """
    if not isinstance(edits, Mapping):
        raise ObjectiveInvalid([FieldError("edits", "must be an object")])
    if not edits:
        return obj
    if new_revision <= obj.revision:
        raise ValueError(f"new_revision {new_revision} must exceed {obj.revision}")
    errors: list[FieldError] = []
    editable = ", ".join(sorted(EDITABLE_FIELDS))
    for key in edits:
        if key in EDITABLE_FIELDS:
            continue
        if key in _FIELDS:
            errors.append(FieldError(str(key), f"not editable (edits may change {editable})"))
        else:
            errors.append(FieldError(str(key), "not an objective field"))
    merged: dict[str, Any] = msgspec.to_builtins(obj)
    merged.update({k: v for k, v in edits.items() if k in EDITABLE_FIELDS})
    merged["revision"] = new_revision
    if isinstance(sent_items := edits.get("constraints"), list):
        # Unknown keys are named as sent, before the deadline's alignment
        # rebuilds a time constraint (the key would vanish) and moves it
        # first (the client's indices would be off).
        for i, item in enumerate(sent_items):
            if isinstance(item, Mapping):
                _unknown_keys(errors, f"constraints[{i}].", item, ("kind", "value"), "a constraint")
        # The rest is judged without them, so every other failure is named too.
        merged["constraints"] = [
            {k: v for k, v in item.items() if k in ("kind", "value")}
            if isinstance(item, Mapping)
            else item
            for item in sent_items
        ]
    # The deadline and its time constraint move together (`deadline_edits`).
    errors.extend(align_deadline(merged, edits))
    errors.extend(validate_objective(merged, agents=agents))
    moved = merged.get("deadline") != obj.deadline  # a deadline left as it was is not judged
    # Judged with the other fields' errors (§5.1: every failing field is
    # named; a bad place constraint hid it), unless the deadline is malformed.
    timed = any(e.path == "deadline" for e in errors)
    if now is not None and not timed and moved:
        errors.extend(_passed(merged.get("deadline"), now))
    if errors:
        raise ObjectiveInvalid(errors)
    if agents is not None and "agent" in edits:  # "zuri" is Zuri, as the roster spells it
        said = str(merged["agent"]).strip().lower()
        merged["agent"] = next((a for a in agents if a.lower() == said), merged["agent"])
    return msgspec.convert(merged, Objective)


def _passed(deadline: object, now: dt.datetime) -> list[FieldError]:
    """A deadline edited to a day or a moment already past: never due (it
    was confirmed, then expired within a minute with its question unanswered)."""
    if not isinstance(deadline, str):
        return []
    try:
        if len(deadline) == 10:
            past = dt.date.fromisoformat(deadline) < now.date()
        else:
            past = dt.datetime.fromisoformat(deadline.replace("Z", "+00:00")) < now
    except (ValueError, TypeError):  # malformed: named by the validation already
        return []
    return [FieldError("deadline", f"{deadline!r} has passed")] if past else []


def agent_counter(
    original: Objective,
    counter: object,
    *,
    counter_id: str,
    agents: Collection[str] | None = None,
    now: dt.datetime | None = None,
) -> Objective:
    """An agent's counter-offer (§9 `objective.answer.counter`) as a new draft.

    `counter` is the proposed objective, or only the fields it changes; it is
    validated like a steward's edit, so every bad field is named. Fields that
    may not be edited are ignored when they equal the original's (a whole
    objective sent back), and are errors when they differ. The agent may not
    hand the work to another agent, nor propose a deadline already past at
    `now` (the steward's own edit is refused so; the counter was confirmed,
    then expired).
    """
    if not isinstance(counter, Mapping):
        raise ObjectiveInvalid([FieldError("counter", "must be an object")])
    # A proposal is a new draft: the steward confirms it like any other.
    as_draft = msgspec.structs.replace(
        original, status="draft", confirmed_by_steward=False, accepted_by_agent=False
    )
    before: dict[str, Any] = msgspec.to_builtins(original)
    drafted: dict[str, Any] = msgspec.to_builtins(as_draft)
    # What differs from the original (sent back as it was offered, or written
    # as the draft it proposes: status "draft", nothing confirmed or
    # accepted): an editable field is an edit, any other is an error.
    edits = {k: v for k, v in counter.items() if v not in (before.get(str(k)), drafted.get(str(k)))}
    if not edits:
        raise ObjectiveInvalid([FieldError("counter", "proposes nothing different")])
    if "agent" in edits and str(edits["agent"]).strip().lower() != original.agent.lower():
        raise ObjectiveInvalid([FieldError("agent", "a counter-offer keeps its agent")])
    proposed = apply_edits(
        as_draft, edits, new_revision=original.revision + 1, agents=agents, now=now
    )
    return msgspec.structs.replace(proposed, id=counter_id, revision=1)
