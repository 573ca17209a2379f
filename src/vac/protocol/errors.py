"""The VAC/1 violation: an error whose wire code is chosen where it is raised.

The codes of PROTOCOL §6 and the exception root live in `vac.errors` (a leaf
every layer may import); they are re-exported here for the protocol layer.
"""

from __future__ import annotations

from typing import Any

from vac.errors import RETRYABLE, ErrorCode, VacError

__all__ = ["RETRYABLE", "ErrorCode", "ProtocolError", "VacError"]


class ProtocolError(VacError):
    """A violation of VAC/1 that is answered with `error {code}`.

    Unlike the other `VacError`s, its code is an argument: the codec and the
    stream rules name the exact violation where they find it.
    """

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
        super().__init__(message, details=details, ref=ref, stream=stream, turn=turn)
        self.args = (f"{code}: {message}",)
        self.code = code

    def with_ref(self, ref: str | None) -> ProtocolError:
        self.ref = ref
        return self
