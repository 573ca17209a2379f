"""`vac` — the one console command (../shared/design/CLI.md).

Errors a person can act on are one line on stderr with a non-zero exit code;
a traceback is a bug. Exit codes of every command:

  0  done
  1  the daemon said no (its error code is printed)
  2  a usage or local problem (missing home, key or file; a bad argument)
  3  no answer from the daemon (not running, keys that do not match,
     or it ended the session first)
  141  stdout was closed early (`| head`): ends quietly, as on SIGPIPE
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar, Final, TextIO

import msgspec

from vac.errors import VacError
from vac.home import Home, HomeError
from vac.protocol.text_safety import escape_for_terminal

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
MAX_TEXT_CHARS: Final = 2000  # text.input (PROTOCOL §4)
_ID_RE: Final = re.compile(r"[\x20-\x7e]{1,64}")


class TurnFailed(VacError):
    """The daemon ended the turn as failed or cancelled without an error (exit 1)."""

    exit_code: ClassVar[int] = 1


class UnknownPrincipal(HomeError):
    """No enrolment and nothing in the event log (exit 2)."""


def _home(args: argparse.Namespace) -> Home:
    return Home.resolve(getattr(args, "home", None))


def _known_home(args: argparse.Namespace) -> Home:
    """The home, which must exist: a mistyped --home never becomes a fresh one."""
    return _home(args).require()


def _out(as_json: bool, record: dict[str, Any], line: str) -> None:
    """One result: a JSON line with --json, else a line for people."""
    print(json.dumps(record, sort_keys=True) if as_json else line, flush=True)


# ------------------------------------------------------------------ keys


def cmd_keys_init(args: argparse.Namespace) -> int:
    from vac.daemon.keys import init_server

    public, created = init_server(_home(args))
    print(f"{'created' if created else 'exists'}: server public key {public}")
    return 0


def cmd_keys_new(args: argparse.Namespace) -> int:
    from vac.daemon.keys import make_keypair

    public, secret = make_keypair(Path(args.out), args.name)
    print(f"public key (give this to the daemon host): {public}")
    print(f"secret key (keep here, mode 0600): {secret}")
    return 0


def cmd_keys_enroll(args: argparse.Namespace) -> int:
    from vac.clock import now_ms
    from vac.daemon.keys import enroll
    from vac.runtime.store import EventLog

    home = _known_home(args)
    out = Path(args.out) if args.out else None
    result = enroll(
        home, args.principal, out_dir=out, public=Path(args.public) if args.public else None
    )
    log = EventLog(home.db_file)
    try:
        log.audit(
            now_ms(),
            "key_enrolled",
            result.principal,
            {"fingerprint": result.fingerprint, "replaced": result.replaced},
        )
    finally:
        log.close()
    verb = "re-enrolled (previous key replaced)" if result.replaced else "enrolled"
    print(f"{verb} {result.principal} (fingerprint {result.fingerprint})")
    print(f"public key: {result.public}")
    if result.secret:
        print(f"secret key: {result.secret}")
    return 0


def cmd_keys_revoke(args: argparse.Namespace) -> int:
    from vac.clock import now_ms
    from vac.daemon.keys import check_principal, client_keypair, fingerprint, load_public, revoke
    from vac.runtime.store import EventLog

    home = _known_home(args)
    principal = check_principal(args.principal)
    path = home.enrolled_dir / f"{principal}.key"
    fp = fingerprint(load_public(path)) if path.exists() else None
    leftovers = client_keypair(home, principal)
    if not revoke(home, principal):
        if leftovers:
            names = ", ".join(p.name for p in leftovers)
            print(f"{principal} was not enrolled; removed its stale keypair ({names})")
            return 0
        raise UnknownPrincipal(
            f"{principal!r} is not enrolled in {home.root} — 'vac keys list' shows who is"
        )
    log = EventLog(home.db_file)
    try:
        log.audit(now_ms(), "key_revoked", principal, {"fingerprint": fp})
    finally:
        log.close()
    print(f"revoked {principal}; takes effect on its next message")
    for removed in leftovers:
        print(f"removed {removed}")
    return 0


def cmd_keys_list(args: argparse.Namespace) -> int:
    from vac.daemon.keys import list_enrolled

    rows = list_enrolled(_known_home(args))
    if not rows and not args.json:
        print("no principals enrolled", file=sys.stderr)
    for principal, fp in rows:
        _out(args.json, {"principal": principal, "fingerprint": fp}, f"{principal}\t{fp}")
    return 0


# ---------------------------------------------------------------- daemon


def cmd_daemon(args: argparse.Namespace) -> int:
    from vac.daemon.main import run_daemon
    from vac.logs import configure

    home = _known_home(args)
    configure()
    return asyncio.run(run_daemon(home, endpoint=args.endpoint))


def cmd_schema(args: argparse.Namespace) -> int:
    from vac.intent import objective_json_schema
    from vac.protocol.schema import message_schemas

    schema = message_schemas()
    schema["objective"] = objective_json_schema()
    print(json.dumps(schema, indent=2, sort_keys=True))
    return 0


# ---------------------------------------------------------------- client


def _connect(args: argparse.Namespace) -> Any:
    from vac.client.connection import connect_from_home

    home = _home(args)
    if args.server_key is None:
        home.require()
    return connect_from_home(
        home,
        args.connect,
        Path(args.key) if args.key else None,
        Path(args.server_key) if args.server_key else None,
    )


def _target(obj: dict[str, Any]) -> str:
    target = obj.get("target") or {}
    label, kind = target.get("label"), target.get("kind")
    return f"{label} ({kind})" if kind else str(label)


def _draft_card(data: dict[str, Any]) -> str:
    obj = data["objective"]
    oid = obj["id"]
    rows = [
        ("id", f"{oid} (revision {obj.get('revision')})"),
        ("agent", obj.get("agent")),
        ("verb", obj.get("verb")),
        ("target", _target(obj)),
        ("deadline", obj.get("deadline") or "none"),
    ]
    lines = [f"draft: {data['preview']['summary']}"]
    lines += [f"  {name:<9} {value}" for name, value in rows]
    lines.append(f"  confirm with: vac confirm {oid}")
    lines.append(f"  reject with:  vac reject {oid}")
    return "\n".join(lines)


def _human(kind: str, data: dict[str, Any]) -> str | None:
    """One readable line per event (a short card for a draft); None to skip."""
    match kind:
        case "objective.draft":
            return _draft_card(data)
        case "transcript.final":
            return f"heard: {data['text']}"
        case "transcript.partial":
            return None
        case "objective.clarify":
            return f"question: {data['question']} ({data['reason']})"
        case "objective.confirmed":
            return f"confirmed: {data['objective_id']}"
        case "objective.rejected":
            return f"rejected: {data['objective_id']}"
        case "negotiation":
            return f"negotiation: {data['decision']} — {data['reply']}"
        case "turn.done":
            stages = ", ".join(f"{k} {v} ms" for k, v in sorted(data["latency_ms"].items()))
            return f"turn done: {data['status']}" + (f" ({stages})" if stages else "")
        case "pong":
            return None
    rest = {k: v for k, v in data.items() if k not in ("turn",)}
    return f"{kind}: {json.dumps(rest, sort_keys=True)}"


def _print_event(msg: Any, as_json: bool, out: TextIO | None = None) -> None:
    data = msgspec.to_builtins(msg)
    out = out or sys.stdout
    if as_json:  # json.dumps escapes every control character (ensure_ascii)
        print(json.dumps(data, sort_keys=True), file=out, flush=True)
        return
    kind = data.pop("type")
    for noise in ("session", "seq", "ref"):
        data.pop(noise, None)
    line = _human(kind, data)
    # Text from the daemon (and, through it, from people) is escaped before a
    # terminal sees it: an ESC in a reply must not drive the screen.
    if line is not None:
        print(escape_for_terminal(line), file=out, flush=True)


def _check_id(objective_id: str) -> str:
    if not _ID_RE.fullmatch(objective_id):
        raise VacError(
            f"{escape_for_terminal(objective_id)!r} is not an objective id — use the id"
            " printed with the draft ('vac drafts' lists them)"
        )
    return objective_id


def _checked(msg: Any) -> Any:
    """Refuse here what the daemon would refuse as `invalid_message` (exit 2)."""
    from vac.protocol.codec import decode_inbound, encode_inbound
    from vac.protocol.errors import ProtocolError

    try:
        decode_inbound(encode_inbound(msg))
    except ProtocolError as exc:
        raise VacError(
            f"the daemon would refuse this: {exc.message} — check the arguments"
        ) from None
    return msg


def _one_shot(args: argparse.Namespace, work: Callable[[Any, Any], int]) -> int:
    """Every command that talks to the daemon once: hello, the work, bye (always).

    Only `--keep` leaves the session resumable (a `bye` ends it for good).
    """
    from vac.client.connection import one_shot

    keep = bool(getattr(args, "keep", False))
    with (
        _connect(args) as conn,
        one_shot(
            conn, client="vac-cli", timeout_s=args.timeout, resume=args.session, keep=keep
        ) as ok,
    ):
        if not args.json:
            resumed = " resumed" if ok.resumed else ""
            kept = f"; kept open: continue with --session {ok.session}" if keep else ""
            print(f"session {ok.session}{resumed} ({ok.principal}){kept}", flush=True)
        return work(conn, ok)


def _run_turn(
    args: argparse.Namespace, build: Callable[[Any], Any], objective_id: str | None = None
) -> int:
    """Send the message that starts a turn and print its events up to `turn.done`."""
    from vac.client.connection import NoAnswer, Refused, Timeout, ended_by, refusal_line
    from vac.protocol.messages import Error, ServerBye, TurnDone

    def work(conn: Any, ok: Any) -> int:
        conn.send(_checked(build(conn)))
        while True:
            try:
                msg, _ = conn.recv(args.timeout)
            except Timeout:
                raise NoAnswer(
                    f"the daemon at {conn.endpoint} sent nothing for {args.timeout:g} s"
                    " in the middle of the turn — it may be overloaded: see its log, or"
                    " retry with a larger --timeout"
                ) from None
            if isinstance(msg, Error) and msg.code == "input_gap":
                continue
            if args.json or not isinstance(msg, (Error, ServerBye)):
                _print_event(msg, args.json)
            if isinstance(msg, Error):
                raise Refused(msg, refusal_line(msg, objective_id=objective_id))
            if isinstance(msg, ServerBye):
                raise ended_by(msg)
            if isinstance(msg, TurnDone):
                if msg.status in ("failed", "cancelled"):
                    raise TurnFailed(f"the turn ended {msg.status} — see the daemon's log")
                return 0

    return _one_shot(args, work)


def cmd_say(args: argparse.Namespace) -> int:
    from vac.protocol.messages import TextInput
    from vac.protocol.text_safety import find_control

    text = args.text
    if not text.strip():
        raise VacError('nothing to say: TEXT is empty — e.g. vac say "ask Kofi to build a bench"')
    if len(text) > MAX_TEXT_CHARS:
        raise VacError(f"TEXT is {len(text)} characters; one turn takes at most {MAX_TEXT_CHARS}")
    if found := find_control(text):
        raise VacError(f"TEXT contains {found[1]}, a control character; send plain text")
    return _run_turn(args, lambda c: TextInput(id=c.next_id(), text=text))


def _parse_edits(pairs: Sequence[str]) -> dict[str, Any] | None:
    edits: dict[str, Any] = {}
    for pair in pairs:
        field, sep, value = pair.partition("=")
        if not sep:
            raise VacError(f"--edit {pair!r}: use FIELD=VALUE (VALUE may be JSON)")
        try:
            edits[field] = json.loads(value)
        except json.JSONDecodeError:
            edits[field] = value
    return edits or None


def cmd_confirm(args: argparse.Namespace) -> int:
    from vac.protocol.messages import ObjectiveConfirm

    oid = _check_id(args.objective_id)
    edits = _parse_edits(args.edit)
    return _run_turn(
        args,
        lambda c: ObjectiveConfirm(
            id=c.next_id(), objective_id=oid, revision=args.revision, edits=edits
        ),
        objective_id=oid,
    )


def cmd_reject(args: argparse.Namespace) -> int:
    from vac.protocol.messages import ObjectiveReject

    oid = _check_id(args.objective_id)
    return _run_turn(
        args, lambda c: ObjectiveReject(id=c.next_id(), objective_id=oid), objective_id=oid
    )


def cmd_drafts(args: argparse.Namespace) -> int:
    """The principal's pending drafts: `hello.ok.pending` (PROTOCOL §3), then bye."""

    def work(conn: Any, ok: Any) -> int:
        if not ok.pending and not args.json:
            print("no drafts awaiting confirmation", file=sys.stderr)
        for obj in ok.pending:
            data = msgspec.to_builtins(obj)
            line = (
                f"{data['id']}  {data['agent']} {data['verb']} {_target(data)}"
                f"  deadline {data.get('deadline') or 'none'}  (revision {data['revision']})"
                f"  {data['source_text']!r}"
            )
            _out(args.json, data, escape_for_terminal(line))
        return 0

    return _one_shot(args, work)


def cmd_objectives(args: argparse.Namespace) -> int:
    """This principal's objectives from the daemon's event log (`objective.list`, §9)."""
    from vac.client.connection import NoAnswer, Refused, Timeout, refusal_line
    from vac.protocol.messages import Error, ObjectiveList, ObjectiveListResult

    if not 1 <= args.limit <= 50:
        raise VacError(f"--limit {args.limit}: use 1 to 50")

    def work(conn: Any, ok: Any) -> int:
        conn.send(ObjectiveList(id=conn.next_id(), state=args.state, limit=args.limit))
        try:
            got = conn.recv_until(
                lambda m: isinstance(m, (ObjectiveListResult, Error)), args.timeout
            )
        except Timeout:
            raise NoAnswer(
                f"the daemon at {conn.endpoint} sent no list within {args.timeout:g} s"
                " — see its log, or retry with a larger --timeout"
            ) from None
        msg = got[-1][0]
        if isinstance(msg, Error):
            raise Refused(msg, refusal_line(msg))
        if not msg.objectives and not args.json:
            print(
                "no objectives" + (f" in state {args.state}" if args.state else ""), file=sys.stderr
            )
        for obj in msg.objectives:
            data = msgspec.to_builtins(obj)
            line = (
                f"{data['id']}  {data['status']:<9}  {data['agent']} {data['verb']} {_target(data)}"
                f"  deadline {data.get('deadline') or 'none'}"
            )
            _out(args.json, data, escape_for_terminal(line))
        if msg.more and not args.json:
            print(f"(older ones left out: --limit {args.limit})", file=sys.stderr)
        return 0

    return _one_shot(args, work)


def cmd_transport(args: argparse.Namespace) -> int:
    from vac.client.transport import TransportOptions, run_transport

    opts = TransportOptions(
        wavs=[Path(w) for w in args.wav],
        out_dir=Path(args.out) if args.out else None,
        as_json=args.json,
        fast=args.fast,
        barge_in_after_ms=args.barge_in_after,
        vad=args.vad,
        rate_hz=args.rate,
        speak=args.speak,
        confirm=args.confirm,
        timeout_s=args.timeout,
        resume=args.session,
    )
    return run_transport(opts, lambda: _connect(args))


def cmd_talk(args: argparse.Namespace) -> int:
    from vac.client.talk import TalkOptions, run_talk

    opts = TalkOptions(vad=args.vad, rate_hz=args.rate, resume=args.session)
    return run_talk(opts, lambda: _connect(args))


def cmd_preflight(args: argparse.Namespace) -> int:
    from vac.daemon.preflight import preflight

    checks = preflight(_home(args), args.endpoint)
    width = max(len(c.name) for c in checks)
    for c in checks:
        _out(
            args.json,
            {"check": c.name, "status": c.status, "detail": c.detail},
            f"{c.status:<4}  {c.name:<{width}}  {c.detail}",
        )
    return 1 if any(c.status == "fail" for c in checks) else 0


def cmd_bench(args: argparse.Namespace) -> int:
    from vac.bench import BenchOptions, run_bench

    return run_bench(
        BenchOptions(sessions=args.sessions, turns=args.turns, out=Path(args.out), fast=args.fast)
    )


# ------------------------------------------------------------------ data


def _empty_export(principal: str) -> dict[str, Any]:
    keys = ("sessions", "conversation", "objectives", "outcomes", "audit")
    return {"principal": principal, **{k: [] for k in keys}}


def cmd_data_export(args: argparse.Namespace) -> int:
    from vac.daemon.keys import check_principal
    from vac.runtime.store import EventLog

    home = _known_home(args)
    principal = check_principal(args.principal)
    data = _empty_export(principal)
    if home.db_file.exists():  # never create vac.db just to read it
        log = EventLog(home.db_file)
        try:
            data = log.export_principal(principal)
        finally:
            log.close()
    enrolled = (home.enrolled_dir / f"{principal}.key").exists()
    stored = any(v for k, v in data.items() if k != "principal")
    if not enrolled and not stored:
        raise UnknownPrincipal(
            f"no principal {principal!r} in {home.root}: not enrolled and nothing in its event"
            " log — 'vac keys list' shows who is enrolled"
        )
    print(json.dumps(data, indent=2, sort_keys=True))
    return 0


def cmd_data_delete(args: argparse.Namespace) -> int:
    from vac.daemon.keys import check_principal
    from vac.daemon.main import home_lock
    from vac.runtime.store import EventLog

    home = _known_home(args)
    principal = check_principal(args.principal)
    try:
        # Hold the daemon's lock: a running daemon keeps drafts in memory and
        # would write them back; deleting under it would not delete.
        with home_lock(home):
            log = EventLog(home.db_file)
            try:
                counts = log.delete_principal(principal)
            finally:
                log.close()
    except HomeError:
        raise HomeError(f"a daemon is running on {home.root} — stop it, then delete") from None
    print("deleted " + ", ".join(f"{n} {table}" for table, n in counts.items()))
    return 0


# ---------------------------------------------------------------- parser


class _HelpFormatter(argparse.RawDescriptionHelpFormatter):
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


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("vac")
    except PackageNotFoundError:
        import vac

        return str(getattr(vac, "__version__", "unknown"))


HOME_HELP: Final = (
    "state directory (default: $VAC_HOME, else $XDG_STATE_HOME/vac, else ~/.local/state/vac)"
)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="vac",
        description="vac — a local-first voice-session daemon",
        epilog=EXIT_CODES + "\nexample:\n  vac say 'ask Kofi to build a bench by tomorrow'",
        formatter_class=_HelpFormatter,
    )
    p.add_argument("--version", action="version", version=f"vac {_version()}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def parser(
        parent: Any, name: str, help_text: str, example: str, *, codes: str = ""
    ) -> argparse.ArgumentParser:
        epilog = f"example:\n  {example}" + (f"\n\n{codes}" if codes else "")
        sp: argparse.ArgumentParser = parent.add_parser(
            name,
            help=help_text,
            description=help_text,
            epilog=epilog,
            formatter_class=_HelpFormatter,
        )
        return sp

    def with_home(sp: argparse.ArgumentParser) -> argparse.ArgumentParser:
        sp.add_argument("--home", metavar="DIR", help=HOME_HELP)
        return sp

    def with_client(
        sp: argparse.ArgumentParser, timeout_s: float = ONE_SHOT_TIMEOUT_S
    ) -> argparse.ArgumentParser:
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
            type=float,
            default=timeout_s,
            metavar="S",
            help="seconds to wait for the daemon's answer and for each event",
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

    d = with_home(
        parser(
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
    d.set_defaults(fn=cmd_daemon)

    keys_parser = parser(sub, "keys", "server and client keys", "vac keys list")
    keys = keys_parser.add_subparsers(dest="keys_command", required=True, metavar="COMMAND")
    with_home(
        parser(keys, "init", "create the server keypair", "vac keys init --home ~/vac-home")
    ).set_defaults(fn=cmd_keys_init)
    k = parser(
        keys,
        "new",
        "make a client keypair on this machine",
        "vac keys new --out ~/.config/vac --name laptop",
    )
    k.add_argument("--out", required=True, metavar="DIR", help="where to write NAME.key(_secret)")
    k.add_argument("--name", default="client", help="file name of the keypair")
    k.set_defaults(fn=cmd_keys_new)
    k = with_home(
        parser(
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
    k.set_defaults(fn=cmd_keys_enroll)
    k = with_home(
        parser(
            keys,
            "revoke",
            "revoke PRINCIPAL's key (and remove its keypair from HOME/clients)",
            "vac keys revoke bob",
        )
    )
    k.add_argument("principal", help="the principal to revoke")
    k.set_defaults(fn=cmd_keys_revoke)
    k = with_home(parser(keys, "list", "principals and key fingerprints", "vac keys list --json"))
    k.add_argument("--json", action="store_true", help="one JSON object per line")
    k.set_defaults(fn=cmd_keys_list)

    parser(
        sub,
        "schema",
        "JSON Schema of every message and the objective",
        "vac schema > vac-schema.json",
    ).set_defaults(fn=cmd_schema)

    s = with_client(
        parser(
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
        parser(
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
        parser(
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
    dr = with_client(
        parser(
            sub,
            "drafts",
            "this principal's drafts awaiting confirmation, one line each",
            "vac drafts --json",
            codes=EXIT_CODES,
        )
    )
    dr.set_defaults(fn=cmd_drafts)
    ob = with_client(
        parser(
            sub,
            "objectives",
            "this principal's objectives, newest first, one line each",
            "vac objectives --state confirmed",
            codes=EXIT_CODES,
        )
    )
    ob.add_argument(
        "--state",
        choices=["draft", "confirmed", "rejected", "expired", "refused", "withdrawn"],
        default=None,
        help="only objectives in this state",
    )
    ob.add_argument("--limit", type=int, default=20, help="at most this many (1-50)")
    ob.set_defaults(fn=cmd_objectives)

    t = with_client(
        parser(
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
    t.add_argument("--barge-in-after", type=int, metavar="MS", help="cancel each reply MS in")
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
        parser(
            sub,
            "talk",
            "the desktop voice client (needs sounddevice)",
            "vac talk --vad",
        ),
        STREAM_TIMEOUT_S,
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

    pf = with_home(
        parser(
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
    b = parser(
        sub,
        "bench",
        "latency benchmark: real daemon, models and sockets",
        "vac bench --sessions 2 --turns 6 --out bench-results",
    )
    b.add_argument("--sessions", type=int, default=1, help="concurrent sessions")
    b.add_argument("--turns", type=int, default=12, help="spoken turns per session")
    b.add_argument("--out", default="bench-results", metavar="DIR", help="JSON and PNG go here")
    b.add_argument("--fast", action="store_true", help="stream audio faster than real time")
    b.set_defaults(fn=cmd_bench)

    data_parser = parser(
        sub, "data", "export or delete a principal's data", "vac data export alice > alice.json"
    )
    data = data_parser.add_subparsers(dest="data_command", required=True, metavar="COMMAND")
    e = with_home(
        parser(
            data,
            "export",
            "a principal's conversation, objectives and audit trail as JSON",
            "vac data export alice > alice.json",
        )
    )
    e.add_argument("principal", help="an enrolled (or formerly enrolled) principal")
    e.set_defaults(fn=cmd_data_export)
    e = with_home(
        parser(
            data,
            "delete",
            "delete a principal's stored data (stop the daemon first)",
            "vac data delete alice",
        )
    )
    e.add_argument("principal", help="the principal whose data goes")
    e.set_defaults(fn=cmd_data_delete)
    return p


def _quiet_stdout() -> None:
    """After EPIPE: send the rest of stdout to /dev/null so the exit flush is silent.

    (The recipe of the Python docs, "Note on SIGPIPE".)
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
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
        print(f"vac: {escape_for_terminal(str(exc))}", file=sys.stderr)
        return int(getattr(exc, "exit_code", 2))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
