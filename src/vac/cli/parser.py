"""`vac`'s argument parser: every command, its flags, its help and example.

The order commands are added in is the order `vac --help` lists them.
"""

from __future__ import annotations

import argparse
from typing import Any

from vac.cli.audio import cmd_talk, cmd_transport
from vac.cli.common import EXIT_CODES, STREAM_TIMEOUT_S, TRANSPORT_EXIT_CODES
from vac.cli.data import cmd_data_delete, cmd_data_export
from vac.cli.host import cmd_bench, cmd_daemon, cmd_preflight, cmd_schema
from vac.cli.keys import (
    cmd_keys_enroll,
    cmd_keys_init,
    cmd_keys_list,
    cmd_keys_new,
    cmd_keys_revoke,
)
from vac.cli.options import (
    HelpFormatter,
    command,
    non_negative_ms,
    version,
    with_client,
    with_home,
    with_keep,
)
from vac.cli.turns import (
    cmd_confirm,
    cmd_drafts,
    cmd_objectives,
    cmd_reject,
    cmd_say,
    cmd_withdraw,
)
from vac.protocol.objective_lifecycle import STATUSES


def _add_daemon(sub: Any) -> None:
    """`vac daemon`: the daemon in the foreground."""
    d = with_home(
        command(
            sub,
            "daemon",
            "run the daemon in the foreground",
            "vac daemon --endpoint tcp://127.0.0.1:7707",
        )
    )
    d.add_argument(
        "--endpoint",
        metavar="URI",
        help="tcp://HOST:PORT or ipc://PATH (default: [daemon] endpoint in vac.toml,"
        " else tcp://127.0.0.1:7707)",
    )
    d.add_argument(
        "--log-level",
        metavar="LEVEL",
        help="debug, info, warning, error (default: $VAC_LOG_LEVEL, else info)",
    )
    d.set_defaults(fn=cmd_daemon)


def _add_keys(sub: Any) -> None:
    """`vac keys init|new|enroll|revoke|list`."""
    keys_parser = command(sub, "keys", "server and client keys", "vac keys list")
    keys = keys_parser.add_subparsers(dest="keys_command", required=True, metavar="COMMAND")
    with_home(
        command(keys, "init", "create the server keypair", "vac keys init --home ~/vac-home")
    ).set_defaults(fn=cmd_keys_init)
    k = command(
        keys,
        "new",
        "make a client keypair on this machine",
        "vac keys new --out ~/.config/vac --name laptop",
    )
    k.add_argument("--out", required=True, metavar="DIR", help="where to write NAME.key(_secret)")
    k.add_argument("--name", default="client", help="file name of the keypair")
    k.set_defaults(fn=cmd_keys_new)
    k = with_home(
        command(
            keys,
            "enroll",
            "enroll a client key for PRINCIPAL",
            "vac keys enroll alice   (or: vac keys enroll alice --public laptop.key)",
        )
    )
    k.add_argument("principal", help="a lower-case name, e.g. alice")
    k.add_argument(
        "--out", metavar="DIR", help="where to write a new keypair (default: HOME/clients)"
    )
    k.add_argument("--public", metavar="FILE", help="enroll this existing public key instead")
    k.add_argument(
        "--agent",
        action="store_true",
        help="the principal IS roster agent PRINCIPAL: it answers offers (PROTOCOL §9)",
    )
    k.set_defaults(fn=cmd_keys_enroll)
    k = with_home(
        command(
            keys,
            "revoke",
            "revoke PRINCIPAL's key (and remove its keypair from HOME/clients)",
            "vac keys revoke bob",
        )
    )
    k.add_argument("principal", help="the principal to revoke")
    k.set_defaults(fn=cmd_keys_revoke)
    k = with_home(command(keys, "list", "principals and key fingerprints", "vac keys list --json"))
    k.add_argument("--json", action="store_true", help="one JSON object per line")
    k.set_defaults(fn=cmd_keys_list)


def _add_schema(sub: Any) -> None:
    """`vac schema`."""
    command(
        sub,
        "schema",
        "JSON Schema of every message and the objective",
        "vac schema > vac-schema.json",
    ).set_defaults(fn=cmd_schema)


def _add_turns(sub: Any) -> None:
    """The one-shot session commands: say, confirm, reject, withdraw, drafts, objectives."""
    s = with_client(
        command(
            sub,
            "say",
            "a typed turn: prints the transcript, the draft and the reply",
            "vac say 'ask Kofi to build a bench by tomorrow'",
            codes=EXIT_CODES,
        )
    )
    s.add_argument("text", help="what to say, as typed words")
    with_keep(s)
    s.set_defaults(fn=cmd_say)
    c = with_client(
        command(
            sub,
            "confirm",
            "confirm a draft objective (the steward gate)",
            "vac confirm 93a0c8f873f640b2ac33503e3cfa2707 --edit priority=90",
            codes=EXIT_CODES,
        )
    )
    c.add_argument("objective_id", help="the id printed with the draft")
    c.add_argument("--revision", type=int, help="refuse if the draft changed since REVISION")
    c.add_argument(
        "--edit",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="change a field while confirming (VALUE may be JSON; repeatable)",
    )
    with_keep(c)
    c.set_defaults(fn=cmd_confirm)
    r = with_client(
        command(
            sub,
            "reject",
            "reject a draft objective",
            "vac reject 93a0c8f873f640b2ac33503e3cfa2707",
            codes=EXIT_CODES,
        )
    )
    r.add_argument("objective_id", help="the id printed with the draft")
    with_keep(r)
    r.set_defaults(fn=cmd_reject)
    w = with_client(
        command(
            sub,
            "withdraw",
            "take back a draft or a confirmed objective (its agent's commitment ends)",
            "vac withdraw 93a0c8f873f640b2ac33503e3cfa2707",
            codes=EXIT_CODES,
        )
    )
    w.add_argument("objective_id", help="the id printed with the draft or by 'vac objectives'")
    w.set_defaults(fn=cmd_withdraw)
    dr = with_client(
        command(
            sub,
            "drafts",
            "this principal's drafts awaiting confirmation, one line each",
            "vac drafts --json",
            codes=EXIT_CODES,
        )
    )
    dr.set_defaults(fn=cmd_drafts)
    ob = with_client(
        command(
            sub,
            "objectives",
            "this principal's objectives, newest first, one line each",
            "vac objectives --state confirmed",
            codes=EXIT_CODES,
        )
    )
    ob.add_argument(
        "--state",
        choices=list(STATUSES),
        default=None,
        help="only objectives in this state",
    )
    ob.add_argument("--limit", type=int, default=20, help="at most this many (1-50)")
    ob.add_argument(
        "--before",
        metavar="ID",
        default=None,
        help="only objectives older than this one (the last id of the page before)",
    )
    ob.set_defaults(fn=cmd_objectives)


def _add_audio(sub: Any) -> None:
    """The streaming clients: `vac transport` and `vac talk`."""
    t = with_client(
        command(
            sub,
            "transport",
            "stream WAV files as a scripted client (exit 0 only if the session behaved)",
            "vac transport --wav fixtures/audio/abeni_repair_gate.joe.wav --confirm --out /tmp/run",
            codes=TRANSPORT_EXIT_CODES,
        ),
        STREAM_TIMEOUT_S,
    )
    t.add_argument(
        "--wav",
        action="append",
        required=True,
        metavar="FILE",
        help="16 kHz mono 16-bit PCM WAV (repeatable)",
    )
    t.add_argument("--out", metavar="DIR", help="write events.jsonl and reply-N.wav here")
    t.add_argument("--fast", action="store_true", help="no real-time pacing")
    t.add_argument(
        "--barge-in-after",
        type=non_negative_ms,
        metavar="MS",
        help="cancel each reply MS in",
    )
    t.add_argument("--vad", action="store_true", help="vad mode instead of push-to-talk")
    t.add_argument(
        "--rate",
        type=int,
        default=16000,
        choices=(16000, 22050, 24000, 48000),
        help="reply audio rate in Hz",
    )
    t.add_argument(
        "--speak",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="ask for spoken replies",
    )
    t.add_argument("--confirm", action="store_true", help="confirm every draft")
    t.set_defaults(fn=cmd_transport)
    t = with_client(
        command(
            sub,
            "talk",
            "the desktop voice client (needs sounddevice)",
            "vac talk --vad",
        ),
        STREAM_TIMEOUT_S,
        "seconds to wait for the daemon's answer to hello (exit 3 without one)",
    )
    t.add_argument("--vad", action="store_true", help="hands-free instead of Enter to talk")
    t.add_argument(
        "--rate",
        type=int,
        default=16000,
        choices=(16000, 22050, 24000, 48000),
        help="reply audio rate in Hz",
    )
    t.set_defaults(fn=cmd_talk)


def session_levels(text: str) -> tuple[int, ...]:
    """ "4" or "1,2,4,8": positive session counts."""
    try:
        levels = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of session counts: {text!r}") from None
    if not levels or min(levels) < 1 or max(levels) > 64:
        raise argparse.ArgumentTypeError("session counts must be between 1 and 64")
    return levels


def arrivals(text: str) -> tuple[str, ...]:
    chosen = tuple(part.strip() for part in text.split(","))
    unknown = [a for a in chosen if a not in ("together", "staggered")]
    if unknown:
        raise argparse.ArgumentTypeError(f"arrival must be together or staggered, not {unknown[0]}")
    return chosen


def _add_host_checks(sub: Any) -> None:
    """`vac preflight` and `vac bench`."""
    pf = with_home(
        command(
            sub,
            "preflight",
            "check providers, keys and the endpoint (binds it for a moment)",
            "vac preflight --endpoint tcp://127.0.0.1:7707",
        )
    )
    pf.add_argument(
        "--endpoint",
        metavar="URI",
        help="the endpoint the daemon would bind (default: [daemon] endpoint in vac.toml)",
    )
    pf.add_argument("--json", action="store_true", help="one JSON object per check")
    pf.set_defaults(fn=cmd_preflight)
    b = command(
        sub,
        "bench",
        "latency benchmark: real daemon, models and sockets",
        "vac bench --sessions 2 --turns 6 --out bench-results",
    )
    b.add_argument(
        "--sessions",
        type=session_levels,
        default="1",
        metavar="N[,N...]",
        help="concurrent sessions; several (1,2,4,8) sweep them in one run",
    )
    b.add_argument(
        "--turns",
        type=int,
        default=None,
        help="spoken turns per session (default: 12; 4 in a sweep)",
    )
    b.add_argument("--out", default="bench-results", metavar="DIR", help="JSON and PNG go here")
    b.add_argument(
        "--fast",
        action="store_true",
        help="stream audio faster than real time (one level only; a sweep is real time)",
    )
    b.add_argument(
        "--arrival",
        "--arrivals",  # the spelling of the CLI contract; both work
        type=arrivals,
        default=None,
        metavar="together,staggered",
        help="sweep: all sessions speak at once, and/or Poisson arrivals (default: both)",
    )
    b.add_argument(
        "--rate",
        type=float,
        default=None,
        metavar="PER_MIN",
        help="sweep, staggered: turns per minute per session (default 4)",
    )
    b.add_argument(
        "--pause-ms",
        type=int,
        default=None,
        help="sweep: extra silence before the commit, after the fixtures' own 700 ms (default 0)",
    )
    b.add_argument(
        "--config",
        metavar="FILE",
        help="a vac.toml for the benchmarked daemon (default: the built-in defaults)",
    )
    b.set_defaults(fn=cmd_bench)


def _add_data(sub: Any) -> None:
    """`vac data export|delete`."""
    data_parser = command(
        sub, "data", "export or delete a principal's data", "vac data export alice > alice.json"
    )
    data = data_parser.add_subparsers(dest="data_command", required=True, metavar="COMMAND")
    e = with_home(
        command(
            data,
            "export",
            "a principal's conversation, objectives and audit trail as JSON",
            "vac data export alice > alice.json",
        )
    )
    e.add_argument("principal", help="an enrolled (or formerly enrolled) principal")
    e.set_defaults(fn=cmd_data_export)
    e = with_home(
        command(
            data,
            "delete",
            "delete a principal's stored data (stop the daemon first)",
            "vac data delete alice",
        )
    )
    e.add_argument("principal", help="the principal whose data goes")
    e.set_defaults(fn=cmd_data_delete)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="vac",
        description="vac — a local-first voice-session daemon",
        epilog=EXIT_CODES + "\nexample:\n  vac say 'ask Kofi to build a bench by tomorrow'",
        formatter_class=HelpFormatter,
    )
    p.add_argument("--version", action="version", version=f"vac {version()}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _add_daemon(sub)
    _add_keys(sub)
    _add_schema(sub)
    _add_turns(sub)
    _add_audio(sub)
    _add_host_checks(sub)
    _add_data(sub)
    return p
