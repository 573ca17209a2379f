"""Edits keep the deadline and its time constraint saying the same thing.

The `deadline` field is the one answer to "by when"; the `time` constraint
mirrors it (the parser writes both from one phrase). After a steward's edits
(`validate.apply_edits`, which `DraftBook.confirm` uses):

- `deadline` edited: the time constraint becomes the new deadline (where it
  was, or last when there was none); `deadline: null` removes it. A time
  constraint sent in the same edit is overruled: the deadline field says when.
- only `constraints` edited: a time constraint there moves the deadline to
  its value, which must be a deadline itself (a date, or a datetime with
  offset), else the edit is refused naming that constraint. With no time
  constraint in the new list the deadline stays and its constraint is put
  back: only `deadline: null` clears a deadline, so a client that edits the
  pace and forgets the time entry does not drop the deadline unseen.

Builtins in, builtins out (the shape `apply_edits` merges and validates).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from typing import Any, Final

from vac.intent.errors import FieldError
from vac.protocol.objective import DEADLINE_PATTERN

_DEADLINE_RE: Final = re.compile(DEADLINE_PATTERN)
DEADLINE_SHAPE: Final = (
    "must be an ISO-8601 date (YYYY-MM-DD), an RFC 3339 datetime with offset, or null"
)


def deadline_problem(value: object) -> str | None:
    """Why `value` is not a deadline (None: it is one). Null is not checked here."""
    if not isinstance(value, str) or not _DEADLINE_RE.match(value):
        return DEADLINE_SHAPE
    # The pattern admits 2026-02-31; the calendar does not.
    try:
        if len(value) == 10:
            dt.date.fromisoformat(value)
        else:
            dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return f"{value!r} is not a real date"
    return None


def _is_time(item: object) -> bool:
    return isinstance(item, Mapping) and item.get("kind") == "time"


def _with_time(constraints: list[Any], deadline: str | None) -> list[Any]:
    """`constraints` with exactly one time constraint, `deadline` (none if null)."""
    out: list[Any] = []
    placed = deadline is None
    for item in constraints:
        if not _is_time(item):
            out.append(item)
        elif not placed:
            out.append({"kind": "time", "value": deadline})
            placed = True
    # Last when there was none: the constraints sent keep their indices, so
    # an error names the one the client sent (it named the next one).
    return out if placed else [*out, {"kind": "time", "value": deadline}]


def align_deadline(merged: dict[str, Any], edits: Mapping[Any, Any]) -> list[FieldError]:
    """Make `merged` (an edited objective) agree with itself; the failures of
    a time constraint that cannot be the deadline. Shapes the validator
    rejects anyway (constraints not a list, a malformed deadline) are left
    for it to name."""
    constraints = merged.get("constraints")
    deadline = merged.get("deadline")
    if not isinstance(constraints, list):
        return []
    if "deadline" in edits:
        if deadline is None or deadline_problem(deadline) is None:
            merged["constraints"] = _with_time(constraints, deadline)
        return []
    if "constraints" not in edits:
        return []
    times = [(i, item) for i, item in enumerate(constraints) if _is_time(item)]
    if not times:
        if deadline is None or deadline_problem(deadline) is None:
            merged["constraints"] = _with_time(constraints, deadline)
        return []
    errors = [
        FieldError(
            f"constraints[{i}].value",
            "a time constraint is the deadline, so its value must be an ISO-8601 date "
            "(YYYY-MM-DD) or an RFC 3339 datetime with offset"
            if problem == DEADLINE_SHAPE
            else problem,
        )
        for i, item in times
        if (problem := deadline_problem(item.get("value"))) is not None
    ]
    if errors:
        return errors
    values = {item["value"] for _, item in times}
    if len(values) > 1:
        return [FieldError(f"constraints[{times[1][0]}]", "a second deadline; give one date")]
    merged["deadline"] = values.pop()
    merged["constraints"] = _with_time(constraints, merged["deadline"])
    return []
