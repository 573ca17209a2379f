"""Typed turns and the steward gate: `vac say|confirm|reject|drafts|objectives`."""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Sequence
from typing import Any, Final

import msgspec

from vac.cli.common import print_result
from vac.cli.render import target_label
from vac.cli.session import one_shot, run_turn
from vac.errors import VacError
from vac.protocol.text_safety import escape_for_terminal

MAX_TEXT_CHARS: Final = 2000  # text.input (PROTOCOL §4)
_ID_RE: Final = re.compile(r"[\x20-\x7e]{1,64}")


def _check_id(objective_id: str) -> str:
    if not _ID_RE.fullmatch(objective_id):
        raise VacError(
            f"{escape_for_terminal(objective_id)!r} is not an objective id — use the id"
            " printed with the draft ('vac drafts' lists them)"
        )
    return objective_id


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
    return run_turn(args, lambda c: TextInput(id=c.next_id(), text=text))


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
    return run_turn(
        args,
        lambda c: ObjectiveConfirm(
            id=c.next_id(), objective_id=oid, revision=args.revision, edits=edits
        ),
        objective_id=oid,
    )


def cmd_reject(args: argparse.Namespace) -> int:
    from vac.protocol.messages import ObjectiveReject

    oid = _check_id(args.objective_id)
    return run_turn(
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
                f"{data['id']}  {data['agent']} {data['verb']} {target_label(data)}"
                f"  deadline {data.get('deadline') or 'none'}  {_manner(data)}"
                f"  (revision {data['revision']})  {data['source_text']!r}"
            )
            print_result(args.json, data, escape_for_terminal(line))
        return 0

    return one_shot(args, work)


def _manner(data: dict[str, Any]) -> str:
    """How urgent and how free: "priority 90  hand free" (they were not shown)."""
    return f"priority {data.get('priority')}  hand {data.get('autonomy')}"


def cmd_objectives(args: argparse.Namespace) -> int:
    """This principal's objectives from the daemon's event log (`objective.list`, §9)."""
    from vac.client.connection import NoAnswer, Refused, Timeout, refusal_line
    from vac.protocol.messages import Error, ObjectiveList, ObjectiveListResult

    if not 1 <= args.limit <= 50:
        raise VacError(f"--limit {args.limit}: use 1 to 50")

    def work(conn: Any, ok: Any) -> int:
        conn.send(
            ObjectiveList(id=conn.next_id(), state=args.state, limit=args.limit, before=args.before)
        )
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
                f"{data['id']}  {data['status']:<9}  {data['agent']} {data['verb']}"
                f" {target_label(data)}  deadline {data.get('deadline') or 'none'}  {_manner(data)}"
            )
            print_result(args.json, data, escape_for_terminal(line))
        if msg.more and msg.objectives:
            # To stderr, so that --json stays one objective a line.
            same = "".join(
                f" --{flag.replace('_', '-')} {value}"
                for flag in ("state", "limit", "home", "connect", "key")
                if (value := getattr(args, flag, None)) is not None
                and not (flag == "limit" and value == 20)
            ) + (" --json" if args.json else "")
            nxt = f"vac objectives{same} --before {msg.objectives[-1].id}"
            print(f"(older ones left out: {nxt})", file=sys.stderr)
        return 0

    return one_shot(args, work)


def cmd_withdraw(args: argparse.Namespace) -> int:
    """Take back a draft or a confirmed objective (`objective.withdraw`, §9)."""
    from vac.client.connection import NoAnswer, Refused, Timeout, refusal_line
    from vac.protocol.messages import Error, ObjectiveUpdated, ObjectiveWithdraw

    oid = _check_id(args.objective_id)

    def work(conn: Any, ok: Any) -> int:
        sent = ObjectiveWithdraw(id=conn.next_id(), objective_id=oid)
        conn.send(sent)
        try:
            got = conn.recv_until(
                lambda m: isinstance(m, (ObjectiveUpdated, Error)) and m.ref == sent.id,
                args.timeout,
            )
        except Timeout:
            raise NoAnswer(
                f"the daemon at {conn.endpoint} did not answer within {args.timeout:g} s"
                " — see its log, or retry with a larger --timeout"
            ) from None
        msg = got[-1][0]
        if isinstance(msg, Error):
            raise Refused(msg, refusal_line(msg, objective_id=oid))  # "objective ID is already …"
        data = msgspec.to_builtins(msg.objective)
        line = f"withdrawn: {data['id']}  {data['agent']} {data['verb']} {target_label(data)}"
        print_result(args.json, data, escape_for_terminal(line))
        return 0

    return one_shot(args, work)
