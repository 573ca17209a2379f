"""`vac data export|delete`: a principal's stored data, out of the event log or gone."""

from __future__ import annotations

import argparse
import json
from typing import Any

from vac.cli.common import UnknownPrincipal, known_home
from vac.home import Home, HomeError


def _empty_export(principal: str) -> dict[str, Any]:
    keys = ("sessions", "conversation", "objectives", "outcomes", "input_streams", "audit")
    return {"principal": principal, **{k: [] for k in keys}}


def _known(home: Home, principal: str, *, stored: bool) -> None:
    """Refuse a principal neither enrolled nor in the event log (a typo)."""
    if not stored and not (home.enrolled_dir / f"{principal}.key").exists():
        raise UnknownPrincipal(
            f"no principal {principal!r} in {home.root}: not enrolled and nothing in its event"
            " log — 'vac keys list' shows who is enrolled"
        )


def cmd_data_export(args: argparse.Namespace) -> int:
    from vac.daemon.keys import check_principal
    from vac.runtime.store import EventLog

    home = known_home(args)
    principal = check_principal(args.principal)
    data = _empty_export(principal)
    if home.db_file.exists():  # never create vac.db just to read it
        log = EventLog(home.db_file)
        try:
            data = log.export_principal(principal)
        finally:
            log.close()
    _known(home, principal, stored=any(v for k, v in data.items() if k != "principal"))
    print(json.dumps(data, indent=2, sort_keys=True))
    return 0


def cmd_data_delete(args: argparse.Namespace) -> int:
    from vac.daemon.keys import check_principal
    from vac.daemon.lock import HomeLocked, home_lock
    from vac.runtime.store import EventLog

    home = known_home(args)
    principal = check_principal(args.principal)
    counts: dict[str, int] = {}
    try:
        # Hold the daemon's lock: a running daemon keeps drafts in memory and
        # would write them back; deleting under it would not delete.
        with home_lock(home):
            if home.db_file.exists():  # never create vac.db to delete from it
                log = EventLog(home.db_file)
                try:
                    counts = log.delete_principal(principal)
                finally:
                    log.close()
    except HomeLocked:
        raise HomeError(f"a daemon is running on {home.root} — stop it, then delete") from None
    # As `data export` refuses it: a typo deleted nothing and said "deleted 0".
    _known(home, principal, stored=any(counts.values()))
    print("deleted " + (", ".join(f"{n} {t}" for t, n in counts.items()) or "nothing stored"))
    return 0
