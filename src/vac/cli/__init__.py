"""`vac` — the one console command (README.md, docs/client.md).

Errors a person can act on are one line on stderr with a non-zero exit code;
a traceback is a bug. Exit codes of every command:

  0  done
  1  the daemon said no (its error code is printed)
  2  a usage or local problem (missing home, key or file; a bad argument)
  3  no answer from the daemon (not running, keys that do not match,
     or it ended the session first)
  141  stdout was closed early (`| head`): ends quietly, as on SIGPIPE

One module per concern: `parser` (every command's flags and help), `keys`,
`host` (daemon, schema, preflight, bench), `turns` (say, confirm, reject,
drafts, objectives) over `session` and `render`, `audio` (transport, talk),
`data` (export, delete).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from vac.cli.common import Handler
from vac.cli.parser import build_parser
from vac.cli.render import print_event as _print_event
from vac.errors import VacError
from vac.protocol.text_safety import escape_for_terminal

# `_print_event` is kept under its old name for the tests that escape output.
__all__ = ["_print_event", "build_parser", "main"]


def _quiet_stdout() -> None:
    """After EPIPE: send the rest of stdout to /dev/null so the exit flush is silent.

    (The recipe of the Python docs, "Note on SIGPIPE".)
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _refuse_extra(
    parser: argparse.ArgumentParser, args: argparse.Namespace, words: list[str], extra: list[str]
) -> None:
    """Unknown arguments, with the usage of the (sub)command they were given
    to: `vac keys list --frobnicate` shows `vac keys list`'s usage, not `vac`'s;
    `vac --bogus keys list` shows `vac`'s."""
    command = getattr(args, "command", None)
    before_command = command in words and words.index(extra[0]) < words.index(command)
    for dest in () if before_command else ("command", f"{command}_command"):  # "keys_command"
        chosen = getattr(args, dest, None)
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if chosen is None or not subs or chosen not in subs[0].choices:
            break
        parser = subs[0].choices[chosen]
    parser.error(f"unrecognized arguments: {' '.join(extra)}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    words = list(sys.argv[1:] if argv is None else argv)
    args, extra = parser.parse_known_args(words)
    if extra:
        _refuse_extra(parser, args, words, extra)
    fn: Handler = args.fn
    try:
        code = fn(args)
        sys.stdout.flush()  # inside the try: a closed pipe is noticed here
        return code
    except BrokenPipeError:
        # The reader went away (`vac keys list | head -1`): end quietly, as a
        # command killed by SIGPIPE would.
        _quiet_stdout()
        return 141
    except VacError as exc:
        said = str(exc)
        if "stayed locked" in said and "another program" not in said:  # a durability probe
            said += " — another program holds vac.db (a sqlite3 shell, a backup): close it, retry"
        print(f"vac: {escape_for_terminal(said)}", file=sys.stderr)
        return int(getattr(exc, "exit_code", 2))
    except OSError as exc:
        # A file the command needed could not be read or written (a read-only
        # home, a full disk, a directory where a file belongs): one line that
        # names it, not a traceback (an operator probe found five). Any other
        # OSError (no file named) is a bug to see whole.
        if not exc.filename:
            raise
        said = f"{exc.filename}: {exc.strerror or exc}"
        print(
            f"vac: {escape_for_terminal(said)} — check that path, its permissions and free space",
            file=sys.stderr,
        )
        return 1
    except KeyboardInterrupt:
        return 130
