"""Errors of the intent layer, each carrying the wire `code` it maps to.

Each one says what a client is told (`code`, `message`, `details`); the
daemon turns it into `error {…}` at its single boundary, unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from vac.errors import VacError
from vac.protocol.objective_lifecycle import STATUSES


class FieldError(msgspec.Struct, frozen=True):
    """One failing field: `path` names it (`priority`, `target.kind`,
    `forbidden_lines[2].text`), `message` says what is wrong in plain words."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


class IntentError(VacError):
    """Root of every error raised by `vac.intent`."""


class ObjectiveInvalid(IntentError):
    """An objective (or its edits) failed validation; *every* failure is named."""

    code = "objective_invalid"

    def __init__(self, errors: Sequence[FieldError]) -> None:
        if not errors:
            raise ValueError("ObjectiveInvalid needs at least one FieldError")
        self.errors: list[FieldError] = list(errors)
        # Paths in first-seen order, each once: this is `details.fields`.
        self.fields: list[str] = list(dict.fromkeys(e.path for e in self.errors))
        super().__init__("; ".join(str(e) for e in self.errors), details={"fields": self.fields})


class RevisionStale(ObjectiveInvalid):
    """A confirm named a revision that is not the draft's current one.

    `others` are the confirm's other failing fields (its edits): §5.1 names
    every failing field, and a client that fixes only the revision should
    not learn of the next one on its next try.
    """

    def __init__(
        self, objective_id: str, given: int, current: int, others: Sequence[FieldError] = ()
    ) -> None:
        self.objective_id = objective_id
        self.given = given
        self.current = current
        why = "is stale" if given < current else "is not a revision of this draft"
        super().__init__(
            [FieldError("revision", f"{given} {why}; the current revision is {current}"), *others]
        )


class ObjectiveUnknown(IntentError):
    """No pending objective with this id *for this principal*.

    The same error (and the same message) is raised for another principal's
    draft as for an id that never existed, so its existence is never revealed.
    A settled objective of the principal's own says what it became (`detail`,
    and `details.status` on the wire).
    """

    code = "objective_unknown"
    # Every status past `draft` (PROTOCOL §9 lifecycle).
    SETTLED = tuple(s for s in STATUSES if s != "draft")

    def __init__(self, objective_id: str, detail: str | None = None) -> None:
        self.objective_id = objective_id
        self.detail = detail
        if detail in self.SETTLED:
            super().__init__(
                f"objective is no longer pending (it is {detail})", details={"status": detail}
            )
        elif detail is not None:
            super().__init__(f"no such pending objective ({detail})")
        else:
            super().__init__("no such pending objective")


class IntentConfigInvalid(IntentError):
    """The intent configuration (`vac.toml`) is invalid; `key` names the bad key."""

    def __init__(self, key: str | None, problem: str) -> None:
        self.key = key
        self.problem = problem
        super().__init__(f"{key}: {problem}" if key else problem)


class SquadMessageInvalid(IntentError):
    """A squad message cannot be routed (unknown sender or recipient, empty text)."""

    code = "invalid_message"


class SquadSenderUnauthorized(IntentError):
    """The sender may not send this kind: a status report, a request or
    banter is an agent's, never a steward's (the message is well formed)."""

    code = "unauthorized"
