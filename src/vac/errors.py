"""The one root of vac's exceptions, and the wire codes they carry.

Every exception vac raises on purpose is a `VacError`. Each class says what
a client is told if it reaches one (`code`, PROTOCOL §6), with a one-line
`message` that holds no paths, keys or audio, and optional `details`. The
daemon turns an exception into `error {code, …}` in exactly one place (the
transport's `error`); nothing else maps exceptions to codes by hand.

This module is a leaf: every layer may import it, it imports nothing of vac.
"""

from __future__ import annotations

from typing import Any, Final, Literal

ErrorCode = Literal[
    "invalid_message",
    "unsupported_version",
    "handshake_required",
    "unauthorized",
    "session_unknown",
    "format_unsupported",
    "chunk_invalid",
    "input_gap",
    "input_overrun",
    "stream_unknown",
    "stream_exists",
    "stream_closed",
    "turn_unknown",
    "objective_unknown",
    "objective_invalid",
    "output_overrun",
    "rate_limited",
    "busy",
    "provider_unavailable",
    "internal",
]

# Whether a client may usefully send the same thing again later.
RETRYABLE: Final[frozenset[str]] = frozenset(
    {"rate_limited", "busy", "provider_unavailable", "internal", "output_overrun"}
)


class VacError(Exception):
    """Root of every vac exception.

    `code` is what a client is told if this reaches one; a failure that is
    not about the client's input (a bad config file, a missing model at
    start-up) keeps the default `internal`. `ref`, `stream` and `turn` say
    which message, input stream or turn it is about, when known.
    """

    code: ErrorCode = "internal"

    def __init__(
        self,
        message: str = "",
        *,
        details: dict[str, Any] | None = None,
        ref: str | None = None,
        stream: str | None = None,
        turn: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.details = details
        self.ref = ref
        self.stream = stream
        self.turn = turn

    @property
    def retryable(self) -> bool:
        return self.code in RETRYABLE

    def with_ref(self, ref: str | None) -> VacError:
        self.ref = ref
        return self
