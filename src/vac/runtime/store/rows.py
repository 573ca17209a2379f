"""The rows the event log writes: what one client message changed (`Step`)."""

from __future__ import annotations

from typing import Any

import msgspec


class ObjectiveRow(msgspec.Struct, frozen=True, kw_only=True):
    objective_id: str
    principal: str
    session: str
    revision: int
    state: str
    body: bytes  # msgspec.json-encoded DraftEntry, stored as TEXT
    created_at_ms: int
    expires_at_ms: int
    updated_at_ms: int
    refused: bool = False
    origin: str | None = None  # id of the client message that created the objective


class AuditRow(msgspec.Struct, frozen=True, kw_only=True):
    at_ms: int
    kind: str
    principal: str | None
    detail: dict[str, Any]


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    """What the daemon answered to one client message, for replay on a retry."""

    session: str
    msg_id: str
    principal: str
    at_ms: int
    replies: bytes  # opaque to the store (msgpack of the reply headers)


class StreamRow(msgspec.Struct, frozen=True, kw_only=True):
    """A closed input stream of a session (PROTOCOL §4): its id is never used
    again, and a repeated commit of it is answered with `outcome` again."""

    session: str
    stream: str
    principal: str
    closed_at_ms: int
    state: str  # committed, cancelled or failed (`vac.protocol.streams.StreamState`)
    # Opaque to the store (msgpack of the one reply: `transcript.final` or
    # `audio.input.done`); None for a stream closed without one (cancelled,
    # overrun, idle).
    outcome: bytes | None = None


class Said(msgspec.Struct, frozen=True, kw_only=True):
    session: str
    principal: str
    turn: str | None
    role: str
    kind: str
    text: str
    at_ms: int


class Step(msgspec.Struct, frozen=True, kw_only=True):
    """Everything one client message changed, written in one transaction."""

    objectives: list[ObjectiveRow] = msgspec.field(default_factory=list)
    audits: list[AuditRow] = msgspec.field(default_factory=list)
    said: list[Said] = msgspec.field(default_factory=list)
    outcome: Outcome | None = None
    # The outcome of an earlier message whose turn this step continues (a
    # steward's confirm, once its agent answered): replaced whole.
    continued: Outcome | None = None
