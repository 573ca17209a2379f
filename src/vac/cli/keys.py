"""`vac keys ...`: the server keypair, client keypairs, enrolment and revocation."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from vac.cli.common import UnknownPrincipal, home_of, known_home, print_result
from vac.errors import VacError
from vac.home import Home, HomeError


class UnknownAgent(HomeError):
    """`vac keys enroll NAME --agent` for a name the roster does not have."""


def cmd_keys_init(args: argparse.Namespace) -> int:
    from vac.daemon.keys import init_server

    public, done = init_server(home_of(args))
    # `restored`: server.key was written again from server.key_secret (same key).
    print(f"{done}: server public key {public}")
    return 0


def cmd_keys_new(args: argparse.Namespace) -> int:
    from vac.daemon.keys import make_keypair

    public, secret = make_keypair(Path(args.out), args.name)
    print(f"public key (give this to the daemon host): {public}")
    print(f"secret key (keep here, mode 0600): {secret}")
    return 0


def cmd_keys_enroll(args: argparse.Namespace) -> int:
    from vac.daemon.keys import enroll
    from vac.runtime.store import EventLog

    home = known_home(args)
    out = Path(args.out) if args.out else None
    agent = _roster_name(home, args.principal) if args.agent else None
    # The event log first: one that cannot be opened changes no key (an
    # operator probe: enrolled, then "failed", with no audit row).
    log = EventLog(home.db_file)
    try:
        result = enroll(
            home,
            args.principal.lower() if args.agent else args.principal,
            out_dir=out,
            public=Path(args.public) if args.public else None,
            agent=agent,
        )
        detail = {
            "fingerprint": result.fingerprint,
            "replaced": result.replaced,
            "role": "agent" if agent else "steward",
        }
        _audited(log, "key_enrolled", result.principal, detail, "enrolled")
    finally:
        log.close()
    verb = "re-enrolled (previous key replaced)" if result.replaced else "enrolled"
    role = f" as agent {agent}" if agent else ""
    print(f"{verb} {result.principal}{role} (fingerprint {result.fingerprint})")
    print(f"public key: {result.public}")
    if result.secret:
        print(f"secret key: {result.secret}")
    for stale in result.removed:
        print(f"removed {stale} (its key is no longer enrolled)")
    return 0


def _audited(log: Any, kind: str, principal: str, detail: dict[str, Any], done: str) -> None:
    """The audit row of a key change already made; if it cannot be written,
    say that the change stands (not that it failed)."""
    from vac.clock import now_ms
    from vac.runtime.store import StorageUnavailable

    try:
        log.audit(now_ms(), kind, principal, detail)
    except StorageUnavailable as exc:
        fix = "another program holds vac.db: close it" if "locked" in str(exc) else "free space"
        raise VacError(
            f"{principal} was {done}, but its audit row could not be written ({exc}) —"
            f" {fix}, then check 'vac keys list'"
        ) from None


def _roster_name(home: Home, name: str) -> str:
    """The roster's spelling of agent NAME; a clear error if it is not in the roster."""
    from vac.daemon.config import intent_config, load_config

    roster = intent_config(load_config(home.config_file)).roster()
    agent = roster.get(name)
    if agent is None:
        raise UnknownAgent(
            f"{name!r} is not an agent of this household; the roster has"
            f" {', '.join(roster.names())} ({home.config_file} [[agents]])"
        )
    return str(agent.name)


def cmd_keys_revoke(args: argparse.Namespace) -> int:
    from vac.daemon.keys import check_principal, client_keypair, load_public, revoke
    from vac.keyid import fingerprint
    from vac.runtime.store import EventLog

    home = known_home(args)
    principal = check_principal(args.principal)
    path = home.enrolled_dir / f"{principal}.key"
    fp = fingerprint(load_public(path)) if path.exists() else None
    leftovers = client_keypair(home, principal)
    log = EventLog(home.db_file)  # first: one that cannot be opened revokes nothing
    try:
        if not revoke(home, principal):
            if leftovers:
                names = ", ".join(p.name for p in leftovers)
                print(f"{principal} was not enrolled; removed its stale keypair ({names})")
                return 0
            raise UnknownPrincipal(
                f"{principal!r} is not enrolled in {home.root} — 'vac keys list' shows who is"
            )
        _audited(log, "key_revoked", principal, {"fingerprint": fp}, "revoked")
    finally:
        log.close()
    print(f"revoked {principal}; takes effect on its next message")
    for removed in leftovers:
        print(f"removed {removed}")
    return 0


def cmd_keys_list(args: argparse.Namespace) -> int:
    from vac.daemon.keys import list_enrolled

    rows = list_enrolled(known_home(args))
    if not rows and not args.json:
        print("no principals enrolled", file=sys.stderr)
    for principal, fp, agent in rows:
        role = "agent" if agent else "steward"
        print_result(
            args.json,
            {"principal": principal, "fingerprint": fp, "role": role, "agent": agent},
            f"{principal}\t{fp}\t{f'agent {agent}' if agent else role}",
        )
    return 0
