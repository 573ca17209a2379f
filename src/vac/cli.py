"""`vac` — the one console command (../shared/design/CLI.md).

Errors a person can act on are one line on stderr with a non-zero exit code;
a traceback is a bug.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import msgspec

from vac.home import Home
from vac.protocol.errors import VacError
from vac.protocol.text_safety import escape_for_terminal

Handler = Callable[[argparse.Namespace], int]


def _home(args: argparse.Namespace) -> Home:
    return Home.resolve(getattr(args, "home", None))


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
    from vac.daemon.keys import enroll
    from vac.runtime.store import EventLog, now_ms

    home = _home(args)
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
    from vac.daemon.keys import fingerprint, load_public, revoke
    from vac.runtime.store import EventLog, now_ms

    home = _home(args)
    path = home.enrolled_dir / f"{args.principal}.key"
    fp = fingerprint(load_public(path)) if path.exists() else None
    if not revoke(home, args.principal):
        print(f"vac: {args.principal!r} is not enrolled", file=sys.stderr)
        return 1
    log = EventLog(home.db_file)
    try:
        log.audit(now_ms(), "key_revoked", args.principal, {"fingerprint": fp})
    finally:
        log.close()
    print(f"revoked {args.principal}; takes effect on its next message")
    return 0


def cmd_keys_list(args: argparse.Namespace) -> int:
    from vac.daemon.keys import list_enrolled

    rows = list_enrolled(_home(args))
    if not rows:
        print("no principals enrolled")
    for principal, fp in rows:
        print(f"{principal}\t{fp}")
    return 0


# ---------------------------------------------------------------- daemon


def cmd_daemon(args: argparse.Namespace) -> int:
    from vac.daemon.main import run_daemon
    from vac.logs import configure

    configure()
    return asyncio.run(run_daemon(_home(args), endpoint=args.endpoint))


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

    return connect_from_home(
        _home(args),
        args.connect,
        Path(args.key) if args.key else None,
        Path(args.server_key) if args.server_key else None,
    )


def _print_event(msg: Any, as_json: bool) -> None:
    data = msgspec.to_builtins(msg)
    if as_json:  # json.dumps escapes every control character (ensure_ascii)
        print(json.dumps(data, sort_keys=True), flush=True)
        return
    kind = data.pop("type")
    for noise in ("session", "seq", "ref"):
        data.pop(noise, None)
    # Text from the daemon (and, through it, from people) is escaped before a
    # terminal sees it: an ESC in a reply must not drive the screen. `!r` and
    # json.dumps escape on their own.
    if kind == "objective.draft":
        summary = escape_for_terminal(data["preview"]["summary"])
        print(f"{kind}: {summary}  [id {data['objective']['id']}]")
    elif kind in ("transcript.final", "transcript.partial"):
        print(f"{kind}: {data['text']!r}")
    elif kind == "negotiation":
        print(f"{kind}: {data['decision']} — {escape_for_terminal(data['reply'])}")
    else:
        print(f"{kind}: {json.dumps(data, sort_keys=True)}", flush=True)


def _run_turn(args: argparse.Namespace, build: Callable[[Any], Any]) -> int:
    from vac.protocol.messages import Error, TurnDone

    with _connect(args) as conn:
        conn.hello(resume=getattr(args, "session", None), client="vac-cli")
        conn.send(build(conn))
        while True:
            msg, _ = conn.recv(args.timeout)
            _print_event(msg, args.json)
            if isinstance(msg, TurnDone):
                return 0 if msg.status not in ("failed", "cancelled") else 1
            if isinstance(msg, Error) and msg.code not in ("input_gap",):
                return 1


def cmd_say(args: argparse.Namespace) -> int:
    from vac.protocol.messages import TextInput

    return _run_turn(args, lambda c: TextInput(id=c.next_id(), text=args.text))


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

    edits = _parse_edits(args.edit)
    return _run_turn(
        args,
        lambda c: ObjectiveConfirm(
            id=c.next_id(), objective_id=args.objective_id, revision=args.revision, edits=edits
        ),
    )


def cmd_reject(args: argparse.Namespace) -> int:
    from vac.protocol.messages import ObjectiveReject

    return _run_turn(
        args, lambda c: ObjectiveReject(id=c.next_id(), objective_id=args.objective_id)
    )


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
        print(f"{c.status:<4}  {c.name:<{width}}  {c.detail}")
    return 1 if any(c.status == "fail" for c in checks) else 0


def cmd_bench(args: argparse.Namespace) -> int:
    from vac.bench import BenchOptions, run_bench

    return run_bench(
        BenchOptions(sessions=args.sessions, turns=args.turns, out=Path(args.out), fast=args.fast)
    )


# ------------------------------------------------------------------ data


def cmd_data_export(args: argparse.Namespace) -> int:
    from vac.daemon.keys import check_principal
    from vac.runtime.store import EventLog

    log = EventLog(_home(args).db_file)
    try:
        data = log.export_principal(check_principal(args.principal))
    finally:
        log.close()
    print(json.dumps(data, indent=2, sort_keys=True))
    return 0


def cmd_data_delete(args: argparse.Namespace) -> int:
    from vac.daemon.keys import check_principal
    from vac.daemon.main import home_lock
    from vac.home import HomeError
    from vac.runtime.store import EventLog

    home = _home(args)
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


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="vac", description="vac — a local-first voice-session daemon")
    sub = p.add_subparsers(dest="command", required=True)

    def with_home(sp: argparse.ArgumentParser) -> argparse.ArgumentParser:
        sp.add_argument("--home", help="state directory (default $VAC_HOME, ~/.local/state/vac)")
        return sp

    def with_client(sp: argparse.ArgumentParser) -> argparse.ArgumentParser:
        with_home(sp)
        sp.add_argument("--connect", help="daemon endpoint (default tcp://127.0.0.1:7707)")
        sp.add_argument("--key", help="this client's .key_secret file")
        sp.add_argument("--server-key", help="the daemon's public key file")
        sp.add_argument("--json", action="store_true", help="print events as JSON lines")
        sp.add_argument("--timeout", type=float, default=30.0, help="seconds to wait per event")
        sp.add_argument("--session", help="resume this session")
        return sp

    d = with_home(sub.add_parser("daemon", help="run the daemon in the foreground"))
    d.add_argument("--endpoint", help="tcp://HOST:PORT or ipc://PATH")
    d.set_defaults(fn=cmd_daemon)

    keys = sub.add_parser("keys", help="server and client keys").add_subparsers(
        dest="keys_command", required=True
    )
    with_home(keys.add_parser("init", help="create the server keypair")).set_defaults(
        fn=cmd_keys_init
    )
    k = keys.add_parser("new", help="make a client keypair on this machine")
    k.add_argument("--out", required=True)
    k.add_argument("--name", default="client")
    k.set_defaults(fn=cmd_keys_new)
    k = with_home(keys.add_parser("enroll", help="enroll a client key for PRINCIPAL"))
    k.add_argument("principal")
    k.add_argument("--out", help="where to write a new keypair (default HOME/clients)")
    k.add_argument("--public", help="enroll this existing public key file instead")
    k.set_defaults(fn=cmd_keys_enroll)
    k = with_home(keys.add_parser("revoke", help="revoke PRINCIPAL's key"))
    k.add_argument("principal")
    k.set_defaults(fn=cmd_keys_revoke)
    with_home(keys.add_parser("list", help="principals and fingerprints")).set_defaults(
        fn=cmd_keys_list
    )

    sub.add_parser("schema", help="JSON Schema of every message and the objective").set_defaults(
        fn=cmd_schema
    )

    s = with_client(sub.add_parser("say", help="a typed turn"))
    s.add_argument("text")
    s.set_defaults(fn=cmd_say)
    c = with_client(sub.add_parser("confirm", help="confirm a draft objective"))
    c.add_argument("objective_id")
    c.add_argument("--revision", type=int)
    c.add_argument("--edit", action="append", default=[], metavar="FIELD=VALUE")
    c.set_defaults(fn=cmd_confirm)
    r = with_client(sub.add_parser("reject", help="reject a draft objective"))
    r.add_argument("objective_id")
    r.set_defaults(fn=cmd_reject)

    t = with_client(sub.add_parser("transport", help="stream WAV files as a scripted client"))
    t.add_argument(
        "--wav", action="append", required=True, metavar="FILE", help="16 kHz mono s16le"
    )
    t.add_argument("--out", metavar="DIR", help="write events.jsonl and reply-N.wav here")
    t.add_argument("--fast", action="store_true", help="no real-time pacing")
    t.add_argument("--barge-in-after", type=int, metavar="MS", help="cancel each reply MS in")
    t.add_argument("--vad", action="store_true", help="vad mode instead of push-to-talk")
    t.add_argument("--rate", type=int, default=16000, choices=(16000, 22050, 24000, 48000))
    t.add_argument("--speak", action=argparse.BooleanOptionalAction, default=True)
    t.add_argument("--confirm", action="store_true", help="confirm every draft")
    t.set_defaults(fn=cmd_transport)
    t = with_client(sub.add_parser("talk", help="the desktop voice client (needs sounddevice)"))
    t.add_argument("--vad", action="store_true", help="hands-free instead of Enter to talk")
    t.add_argument("--rate", type=int, default=16000, choices=(16000, 22050, 24000, 48000))
    t.set_defaults(fn=cmd_talk)

    pf = with_home(sub.add_parser("preflight", help="check providers, keys and endpoint"))
    pf.add_argument("--endpoint", help="the endpoint the daemon would bind")
    pf.set_defaults(fn=cmd_preflight)
    b = sub.add_parser("bench", help="latency benchmark: real daemon, models and sockets")
    b.add_argument("--sessions", type=int, default=1, help="concurrent sessions")
    b.add_argument("--turns", type=int, default=12, help="spoken turns per session")
    b.add_argument("--out", default="docs/bench", help="where to write JSON and the PNG")
    b.add_argument("--fast", action="store_true", help="stream audio faster than real time")
    b.set_defaults(fn=cmd_bench)

    data = sub.add_parser("data", help="export or delete a principal's data").add_subparsers(
        dest="data_command", required=True
    )
    e = with_home(data.add_parser("export"))
    e.add_argument("principal")
    e.set_defaults(fn=cmd_data_export)
    e = with_home(data.add_parser("delete"))
    e.add_argument("principal")
    e.set_defaults(fn=cmd_data_delete)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    fn: Handler = args.fn
    try:
        return fn(args)
    except VacError as exc:
        print(f"vac: {escape_for_terminal(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
