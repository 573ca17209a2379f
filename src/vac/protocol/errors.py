"""Error codes of PROTOCOL §6 and the one root exception that carries them.

Every failure that reaches a client is a `ProtocolError` with a wire `code`;
bad input never becomes `None` or a bare exception.
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
    """Root of every vac exception."""


class ProtocolError(VacError):
    """A violation of VAC/1 that is answered with `error {code}`."""

    def __init__(
        self,
        code: ErrorCode,
        message: str,
        *,
        ref: str | None = None,
        stream: str | None = None,
        turn: str | None = None,
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(f"{code}: {message}")
        self.code: ErrorCode = code
        self.message = message
        self.ref = ref
        self.stream = stream
        self.turn = turn
        self.details = details

    @property
    def retryable(self) -> bool:
        return self.code in RETRYABLE

    def with_ref(self, ref: str | None) -> ProtocolError:
        self.ref = ref
        return self
