"""The port between the runtime and whatever carries its messages.

The runtime (turns, listening, speaking, the pipeline) never imports the
daemon: it is handed a `Transport` and talks to sessions only through it.
The daemon's server implements `Transport` and drives the runtime through
`SessionHandler`, which the `Pipeline` implements. Dependencies point one
way, daemon -> runtime, and a message crosses each layer once.

    daemon.server  --(SessionHandler: on_message, on_attached, ...)-->  runtime
    runtime        --(Transport: send, try_send_chunk, error, ...)-->   daemon

Unit tests implement `Transport` with a recording fake; the real one is
the server, over real sockets (tests/daemon, tests/voice).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from vac.errors import VacError
from vac.protocol.messages import AudioOutputChunk, InboundMessage, Limits, Outbound
from vac.protocol.objective import Objective
from vac.runtime.session import Session


class Transport(Protocol):
    """What the runtime needs from the transport."""

    # The per-session limits announced in `hello.ok` (PROTOCOL §3).
    limits: Limits

    def send(self, session: Session, msg: Outbound) -> bool:
        """Queue a message for the session; False if it could not be queued
        (the session is detached, or its peer stopped reading and it was dropped)."""
        ...

    def try_send_chunk(self, session: Session, msg: AudioOutputChunk, payload: bytes) -> bool:
        """Queue an audio chunk if the session's chunk budget has room (§7)."""
        ...

    def drop_chunks(self, session: Session, generation: int) -> int:
        """Remove one generation's queued, unsent chunks; return how many."""
        ...

    def error(self, session: Session, exc: VacError) -> None:
        """Tell the session's client about `exc`: the one place an exception
        becomes a wire `error` (its code, message, details, ref, stream, turn)."""
        ...

    def attached(self) -> Iterable[Session]:
        """The sessions attached to a connection now."""
        ...

    def holds(self, session_id: str) -> bool:
        """Whether the session is still known (attached, or detached and resumable)."""
        ...


class SessionHandler(Protocol):
    """What the transport hands session traffic to (the daemon-wide pipeline)."""

    features: tuple[str, ...]

    def agent_named(self, name: str) -> str | None:
        """The roster's spelling of agent `name`, or None if it is not in the roster."""
        ...

    def on_message(self, session: Session, msg: InboundMessage, payload: bytes | None) -> None:
        """An accepted, in-order message of an attached session."""
        ...

    async def on_attached(self, session: Session, resumed: bool) -> list[Objective]:
        """The session was opened or resumed; return its pending drafts."""
        ...

    def on_greeted(self, session: Session) -> None:
        """`hello.ok` went out: send what the session must hear before anything new."""
        ...

    def on_detached(self, session: Session, reason: str) -> None:
        """The session lost its connection (`reason` as in `bye`, or `replaced`)."""
        ...

    def on_forgotten(self, session_id: str) -> None:
        """The transport forgot a detached session (bounded memory); so must we."""
        ...
