"""structlog set-up: JSON when stderr is not a TTY, a level, and a redaction processor.

Privacy rule: raw audio, key material and what people said never reach the
logs. The redactor drops every bytes/bytearray/memoryview value and every key
whose name looks like audio, pcm, key, secret, token, payload, text (so also
source_text), transcript or label — whatever the caller passed — unless the
value is a number: a number carries no audio, key or word, and the latency
stage `first_audio` must reach the operator. Callers log ids, codes, counts
and timings, never words.

Level: `configure(level=...)` takes debug, info, warning or error; with no
level it reads `VAC_LOG_LEVEL` (default info). A few lines are written at any
level (`get_logger(name, always=True)`): `ready`, which scripts and test
harnesses wait for on stderr.
"""

from __future__ import annotations

import logging
import os
import re
import sys
from typing import Any, Final, TextIO, cast

import structlog
from structlog.typing import EventDict, WrappedLogger

from vac.errors import VacError

_SENSITIVE_NAME: Final = re.compile(
    r"audio|pcm|key|secret|token|payload|text|transcript|label", re.IGNORECASE
)
REDACTED: Final = "[redacted]"
LEVEL_ENV: Final = "VAC_LOG_LEVEL"
LEVELS: Final[dict[str, int]] = {
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "warning": logging.WARNING,
    "error": logging.ERROR,
}
DEFAULT_LEVEL: Final = "info"


class LogLevelError(VacError, ValueError):
    """A log level that is not one of LEVELS (from `--log-level` or VAC_LOG_LEVEL)."""


def _sensitive(name: object, value: Any) -> bool:
    """A value its name says may be audio, key material or words (not a number)."""
    number = isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(name, str) and not number and _SENSITIVE_NAME.search(name) is not None


def _clean(value: Any) -> Any:
    if isinstance(value, bytes | bytearray | memoryview):
        return REDACTED
    if isinstance(value, dict):
        return {k: (REDACTED if _sensitive(k, v) else _clean(v)) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_clean(v) for v in value]
    return value


def redact(_logger: WrappedLogger, _method: str, event_dict: EventDict) -> EventDict:
    """Drop audio, key material and words from a log event (see module docstring)."""
    for name in list(event_dict):
        if name == "event":
            continue
        if _sensitive(name, event_dict[name]):
            event_dict[name] = REDACTED
        else:
            event_dict[name] = _clean(event_dict[name])
    return event_dict


def parse_level(level: str | int | None = None) -> int:
    """The numeric level of `level`, or of VAC_LOG_LEVEL when it is None (default info).

    Raises LogLevelError (a VacError: `vac` prints it as one line) for
    anything but debug, info, warning or error, in any case.
    """
    source = "log level"
    if level is None:
        level = os.environ.get(LEVEL_ENV, "").strip() or DEFAULT_LEVEL
        source = LEVEL_ENV
    if isinstance(level, int) and not isinstance(level, bool):
        if level in LEVELS.values():
            return level
    elif isinstance(level, str) and level.strip().lower() in LEVELS:
        return LEVELS[level.strip().lower()]
    raise LogLevelError(f"{source}: {level!r} is not one of {', '.join(LEVELS)}")


def configure(level: str | int | None = None, *, json: bool | None = None) -> None:
    """Configure structlog for the process (the daemon calls this once).

    `level`: debug, info, warning or error (a `logging` constant is accepted
    too); None reads VAC_LOG_LEVEL, and info when that is unset or empty.
    `json`: None writes JSON lines when stderr is not a TTY, a console
    rendering otherwise. Raises LogLevelError for an unknown level.
    """
    threshold = parse_level(level)
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
        wrapper_class=structlog.make_filtering_bound_logger(threshold),
        logger_factory=structlog.PrintLoggerFactory(file=cast(TextIO, LossyStream(sys.stderr))),
        cache_logger_on_first_use=False,
    )


class LossyStream:
    """A log stream whose failures are the log's, never the daemon's: a full
    disk under the log file or a closed pipe (`vac daemon 2>&1 | head`) made
    `print` raise inside a message handler and ended the daemon (a
    durability probe). Lines that cannot be written are counted and dropped;
    the first line written again says how many.

    A line is counted once where its loss shows: unbuffered, at its newline;
    line-buffered (stderr's default), at the newline that flushes it;
    block-buffered, at the flush that fails (a review: stderr's buffering
    hid every loss from a count kept at the words)."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self.dropped = 0
        self._counted = False  # this line's loss is counted (its newline failed)
        self._told = 0  # the count a `log_lines_dropped` line waiting to be flushed says

    def write(self, text: str) -> int:
        ends = "\n" in text
        try:
            if self.dropped and text.strip() and not self._told:
                self._stream.write(f'{{"event": "log_lines_dropped", "count": {self.dropped}}}\n')
                self._told = self.dropped
            written = int(self._stream.write(text))
        except (OSError, ValueError):  # ENOSPC, EPIPE, EIO; ValueError: closed
            self.dropped += ends
            self._counted, self._told = ends, 0
            return 0
        self._counted = self._counted and not ends
        return written

    def flush(self) -> None:
        try:
            self._stream.flush()
        except (OSError, ValueError):
            self.dropped += not self._counted
            self._told = 0  # not written: said again with the next line
        else:
            self.dropped -= self._told
            self._told = 0
        self._counted = False

    def isatty(self) -> bool:
        return bool(self._stream.isatty())


def _has_rich() -> bool:
    try:
        import rich  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        return False
    return True


# Never filtered: the configured processors and output, but every level passes.
_UNFILTERED: Final = structlog.make_filtering_bound_logger(logging.NOTSET)


def get_logger(name: str, *, always: bool = False) -> Any:
    """A logger for `name`. `always=True`: its lines are written at any configured
    level (keep it for the few lines tools wait for, such as `ready`)."""
    if always:
        return structlog.wrap_logger(None, wrapper_class=_UNFILTERED, logger_factory_args=(name,))
    return structlog.get_logger(name)


def report_task_failure(task: Any) -> None:
    """Done-callback for a fire-and-forget task: its failure is logged, not lost."""
    if not task.cancelled() and (exc := task.exception()) is not None:
        structlog.get_logger("vac.tasks").error("task_failed", error=repr(exc))
