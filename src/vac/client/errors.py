"""What a client command tells a person when the daemon says no, or nothing.

Exit codes of every client command (CLI.md): 0 done, 1 the daemon refused
(`Refused`, its error code is printed), 2 a usage or local problem
(`ClientError`), 3 no answer from the daemon (`NoAnswer`: not running, or the
CURVE handshake never completed; `SessionEnded`: it said `bye` first).
"""

from __future__ import annotations

from typing import ClassVar, Final, TypeGuard

from vac.errors import VacError
from vac.protocol.messages import Error, OutboundMessage, ServerBye
from vac.protocol.text_safety import escape_for_terminal

EXIT_OK: Final = 0
EXIT_REFUSED: Final = 1
EXIT_USAGE: Final = 2
EXIT_NO_ANSWER: Final = 3


class ClientError(VacError):
    """A client-side problem with a one-line, actionable message (exit 2)."""

    exit_code: ClassVar[int] = EXIT_USAGE


class Timeout(ClientError):
    """Nothing arrived in time (exit 3)."""

    exit_code: ClassVar[int] = EXIT_NO_ANSWER


class NoAnswer(Timeout):
    """The daemon never answered: not running, or the CURVE handshake failed."""


class SessionEnded(Timeout):
    """The daemon ended the session (`bye`) before the command was done."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


class Refused(ClientError):
    """The daemon answered with an `error` (exit 1); str() is the one line to show."""

    exit_code: ClassVar[int] = EXIT_REFUSED

    def __init__(self, error: Error, line: str | None = None) -> None:
        super().__init__(line or refusal_line(error))
        self.error = error


# What a person can do about each error code (PROTOCOL §6).
_WHAT_TO_DO: Final[dict[str, str]] = {
    "invalid_message": "this client sent something the daemon could not read; please report it",
    "unsupported_version": "this client and the daemon speak different VAC versions; upgrade one",
    "handshake_required": "the connection was reset; run the command again",
    "unauthorized": "this key is not enrolled (any more): check 'vac keys list' on the daemon host",
    "session_unknown": "that session is gone or not yours; run without --session",
    "objective_unknown": "'vac drafts' lists the drafts awaiting confirmation,"
    " 'vac objectives' every objective of yours",
    "objective_invalid": "fix the named field(s) with --edit FIELD=VALUE",
    "busy": "the daemon is busy; try again in a moment",
    "provider_unavailable": "try again in a moment; the daemon's log says why",
    "internal": "the daemon hit a bug; its log has the details",
}


def refusal_line(error: Error, *, objective_id: str | None = None) -> str:
    """`code: message — what to do`, escaped for a terminal (the daemon's text is data)."""
    message = error.message
    hint = _WHAT_TO_DO.get(error.code, "")
    if error.code == "unauthorized" and "enrolled" not in message:
        # A role's refusal, not a key's (a probe: an agent's key was told "not enrolled").
        hint = "this key's role cannot do that: a steward's drafts and confirms, an agent's answers"
    details = error.details or {}
    if error.code == "objective_unknown" and isinstance(details.get("status"), str):
        # The principal's own settled objective (PROTOCOL §6, details.status).
        message = f"objective {objective_id or 'that'} is already {details['status']}"
        hint = "'vac drafts' lists what is still pending"
    elif error.code == "rate_limited":
        retry_ms = details.get("retry_after_ms")
        if "drafts" in message:
            hint = "'vac drafts' lists them"
        elif isinstance(retry_ms, int):
            hint = f"try again in {max(retry_ms, 100) / 1000:.1f} s"
    elif error.code == "objective_invalid" and isinstance(details.get("fields"), list):
        edited = [str(f) for f in details["fields"] if f != "revision"]
        hints = [f"fix {', '.join(edited)} with --edit FIELD=VALUE"] if edited else []
        if "revision" in details["fields"]:  # not a field one edits: it moved on
            hints.append(
                "'vac drafts' shows its current revision; confirm that, or drop --revision"
            )
        hint = "; ".join(hints)
    line = f"{error.code}: {message}" + (f" — {hint}" if hint else "")
    return escape_for_terminal(line)


def refuses_hello(msg: OutboundMessage, hello_id: str) -> TypeGuard[Error]:
    """Whether `msg` is the daemon's `error` answering the hello `hello_id`."""
    # Before a session, `unauthorized` (a revoked key) carries no ref.
    return isinstance(msg, Error) and (
        msg.ref == hello_id or (msg.ref is None and msg.code == "unauthorized")
    )


def bye_reason(reason: str) -> str:
    """A `bye` reason as a person reads it ("revoked" → "this key was revoked")."""
    return {
        "shutdown": "the daemon is shutting down",
        "idle": "the session was idle too long",
        "replaced": "another connection took the session over",
        "revoked": "this key was revoked",
    }.get(reason, reason)


def ended_by(msg: ServerBye) -> SessionEnded:
    why = bye_reason(msg.reason)
    return SessionEnded(msg.reason, f"the daemon ended the session ({why}) before it was done")
