"""The pieces every subcommand's parser is built from: help layout and shared flags."""

from __future__ import annotations

import argparse
from typing import Any, Final

from vac.cli.common import ONE_SHOT_TIMEOUT_S

HOME_HELP: Final = (
    "state directory (default: $VAC_HOME, else $XDG_STATE_HOME/vac, else ~/.local/state/vac)"
)


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Keeps epilog layout; appends `(default: X)` where there is a real default."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        default = action.default
        if (
            "%(default)" in text
            or "default" in text
            or not action.option_strings
            or default is None
            or default is False
            or default == []
            or default is argparse.SUPPRESS
        ):
            return text
        return f"{text} (default: %(default)s)"


def version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("vac")
    except PackageNotFoundError:
        import vac

        return str(getattr(vac, "__version__", "unknown"))


def command(
    parent: Any, name: str, help_text: str, example: str, *, codes: str = ""
) -> argparse.ArgumentParser:
    """A subcommand whose help ends with an example (and its exit codes, if given)."""
    epilog = f"example:\n  {example}" + (f"\n\n{codes}" if codes else "")
    sp: argparse.ArgumentParser = parent.add_parser(
        name,
        help=help_text,
        description=help_text,
        epilog=epilog,
        formatter_class=HelpFormatter,
    )
    return sp


def positive_seconds(text: str) -> float:
    """A `--timeout`: a number of seconds above 0 (argparse: a usage error, exit 2)."""
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 < seconds < float("inf"):
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds, not {text}")
    if seconds > MAX_TIMEOUT_S:  # a socket timeout in ms past 2^31 raised OverflowError
        raise argparse.ArgumentTypeError(f"at most {MAX_TIMEOUT_S} seconds (a day), not {text}")
    return seconds


MAX_TIMEOUT_S: Final = 86_400


def non_negative_ms(text: str) -> int:
    """A number of milliseconds, 0 or more (`--barge-in-after -500` acted as 0)."""
    try:
        ms = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number of milliseconds: {text!r}") from None
    if ms < 0:
        raise argparse.ArgumentTypeError(f"must be 0 ms or more, not {text}")
    return ms


def with_home(sp: argparse.ArgumentParser) -> argparse.ArgumentParser:
    sp.add_argument("--home", metavar="DIR", help=HOME_HELP)
    return sp


def with_client(
    sp: argparse.ArgumentParser,
    timeout_s: float = ONE_SHOT_TIMEOUT_S,
    timeout_help: str = "seconds to wait for the daemon's answer and for each event",
) -> argparse.ArgumentParser:
    """The flags of every command that talks to the daemon."""
    with_home(sp)
    sp.add_argument(
        "--connect",
        metavar="URI",
        help="daemon endpoint (default: $VAC_CONNECT, else tcp://127.0.0.1:7707)",
    )
    sp.add_argument(
        "--key",
        metavar="FILE",
        help="this client's .key_secret (default: the only one in HOME/clients)",
    )
    sp.add_argument(
        "--server-key",
        metavar="FILE",
        help="the daemon's public key (default: HOME/keys/server.key)",
    )
    sp.add_argument("--json", action="store_true", help="print events as JSON lines")
    sp.add_argument(
        "--timeout",
        type=positive_seconds,
        default=timeout_s,
        metavar="S",
        help=timeout_help,
    )
    sp.add_argument("--session", metavar="ID", help="resume this session")
    return sp


def with_keep(sp: argparse.ArgumentParser) -> argparse.ArgumentParser:
    sp.add_argument(
        "--keep",
        action="store_true",
        help="leave the session open for a later --session ID (else it ends with bye)",
    )
    return sp
