"""What every `vac` command shares: exit-code texts, timeouts, the home, output."""

from __future__ import annotations

import argparse
import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar, Final

from vac.errors import VacError
from vac.home import Home, HomeError

Handler = Callable[[argparse.Namespace], int]

EXIT_CODES: Final = """\
exit codes:
  0  done
  1  the daemon said no (its error code is printed on stderr)
  2  usage or local error (missing home, key or file; a bad argument)
  3  no answer from the daemon (not running, keys that do not match, or it
     ended the session first); the line on stderr says what to check
  141  stdout was closed early (e.g. '| head'); ends quietly, like SIGPIPE
"""
TRANSPORT_EXIT_CODES: Final = """\
exit codes:
  0  the session behaved
  1  it misbehaved (each problem on stderr as '- reason: detail')
  2  usage or local error (a refused WAV, missing keys, a bad flag)
  3  no answer from the daemon, or it ended the session (bye, e.g. shutdown)
     before the last WAV was done
"""
# One-shot commands wait this long for each event; the transport longer.
ONE_SHOT_TIMEOUT_S: Final = 10.0
STREAM_TIMEOUT_S: Final = 30.0


def writable_dir(path: Path) -> str | None:
    """What stops writing results into `path` (made if missing), or None:
    checked before a run, so a run's results are never lost at its end."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=path):
            pass
    except FileExistsError:
        return f"cannot write to {path}: it is a file, not a directory — choose another --out"
    except OSError as exc:
        why = (exc.strerror or type(exc).__name__).lower()
        return f"cannot write to {path}: {why} — choose another --out"
    return None


class TurnFailed(VacError):
    """The daemon ended the turn as failed or cancelled without an error (exit 1)."""

    exit_code: ClassVar[int] = 1


class UnknownPrincipal(HomeError):
    """No enrolment and nothing in the event log (exit 2)."""


def home_of(args: argparse.Namespace) -> Home:
    return Home.resolve(getattr(args, "home", None))


def known_home(args: argparse.Namespace) -> Home:
    """The home, which must exist: a mistyped --home never becomes a fresh one."""
    return home_of(args).require()


def print_result(as_json: bool, record: dict[str, Any], line: str) -> None:
    """One result: a JSON line with --json, else a line for people."""
    print(json.dumps(record, sort_keys=True) if as_json else line, flush=True)
