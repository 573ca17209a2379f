"""structlog set-up: JSON when stderr is not a TTY, and a redaction processor.

Privacy rule: raw audio and key material never reach the logs. The redactor
drops every bytes/bytearray/memoryview value and every key whose name looks
like audio, pcm, key, secret or token — whatever the caller passed.
"""

from __future__ import annotations

import logging
import re
import sys
from typing import Any, Final

import structlog
from structlog.typing import EventDict, WrappedLogger

_SENSITIVE_NAME: Final = re.compile(r"audio|pcm|key|secret|token|payload", re.IGNORECASE)
REDACTED: Final = "[redacted]"


def _clean(value: Any) -> Any:
    if isinstance(value, bytes | bytearray | memoryview):
        return REDACTED
    if isinstance(value, dict):
        return {
            k: (REDACTED if isinstance(k, str) and _SENSITIVE_NAME.search(k) else _clean(v))
            for k, v in value.items()
        }
    if isinstance(value, list | tuple):
        return [_clean(v) for v in value]
    return value


def redact(_logger: WrappedLogger, _method: str, event_dict: EventDict) -> EventDict:
    """Drop audio and key material from a log event (see module docstring)."""
    for name in list(event_dict):
        if name == "event":
            continue
        if _SENSITIVE_NAME.search(name):
            event_dict[name] = REDACTED
        else:
            event_dict[name] = _clean(event_dict[name])
    return event_dict


def configure(*, json: bool | None = None, level: int = logging.INFO) -> None:
    """Configure structlog for the process (the daemon calls this once)."""
    as_json = (not sys.stderr.isatty()) if json is None else json
    renderer: Any
    processors: list[Any] = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
        redact,
    ]
    if as_json:
        # show_locals off: a traceback must not carry audio or keys in locals.
        processors.append(
            structlog.processors.ExceptionRenderer(
                structlog.tracebacks.ExceptionDictTransformer(show_locals=False)
            )
        )
        renderer = structlog.processors.JSONRenderer()
    else:
        renderer = structlog.dev.ConsoleRenderer(
            exception_formatter=structlog.dev.RichTracebackFormatter(show_locals=False)
            if _has_rich()
            else structlog.dev.plain_traceback
        )
    processors.append(renderer)
    structlog.configure(
        processors=processors,
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=False,
    )


def _has_rich() -> bool:
    try:
        import rich  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        return False
    return True


def get_logger(name: str) -> Any:
    return structlog.get_logger(name)


def report_task_failure(task: Any) -> None:
    """Done-callback for a fire-and-forget task: its failure is logged, not lost."""
    if not task.cancelled() and (exc := task.exception()) is not None:
        structlog.get_logger("vac.tasks").error("task_failed", error=repr(exc))
