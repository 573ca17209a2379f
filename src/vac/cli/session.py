"""One session per command: connect, hello, the work, bye — and one turn's events."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from vac.cli.common import TurnFailed, home_of
from vac.cli.render import print_event
from vac.errors import VacError


def connect(args: argparse.Namespace) -> Any:
    from vac.client.connection import connect_from_home

    home = home_of(args)
    if args.server_key is None:
        home.require()
    return connect_from_home(
        home,
        args.connect,
        Path(args.key) if args.key else None,
        Path(args.server_key) if args.server_key else None,
    )


def checked(msg: Any) -> Any:
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


def one_shot(args: argparse.Namespace, work: Callable[[Any, Any], int]) -> int:
    """Every command that talks to the daemon once: hello, the work, bye (always).

    Only `--keep` leaves the session resumable (a `bye` ends it for good).
    """
    from vac.client.connection import one_shot as session

    keep = bool(getattr(args, "keep", False))
    with (
        connect(args) as conn,
        session(
            conn, client="vac-cli", timeout_s=args.timeout, resume=args.session, keep=keep
        ) as ok,
    ):
        if not args.json:
            resumed = " resumed" if ok.resumed else ""
            kept = f"; kept open: continue with --session {ok.session}" if keep else ""
            print(f"session {ok.session}{resumed} ({ok.principal}){kept}", flush=True)
        return work(conn, ok)


def run_turn(
    args: argparse.Namespace, build: Callable[[Any], Any], objective_id: str | None = None
) -> int:
    """Send the message that starts a turn and print its events up to `turn.done`."""
    from vac.client.connection import NoAnswer, Refused, Timeout, ended_by, refusal_line
    from vac.protocol.messages import Error, ServerBye, TurnDone

    def work(conn: Any, ok: Any) -> int:
        conn.send(checked(build(conn)))
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
                print_event(msg, args.json)
            if isinstance(msg, Error):
                raise Refused(msg, refusal_line(msg, objective_id=objective_id))
            if isinstance(msg, ServerBye):
                raise ended_by(msg)
            if isinstance(msg, TurnDone):
                if msg.status in ("failed", "cancelled"):
                    raise TurnFailed(f"the turn ended {msg.status} — see the daemon's log")
                return 0

    return one_shot(args, work)
