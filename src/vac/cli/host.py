"""Commands for the daemon's host: run it, check it, measure it, print its schema."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

from vac.cli.common import home_of, known_home, print_result, writable_dir
from vac.protocol.text_safety import escape_for_terminal


def cmd_daemon(args: argparse.Namespace) -> int:
    from vac.daemon.main import run_daemon
    from vac.logs import configure

    home = known_home(args)
    configure(args.log_level)  # None: $VAC_LOG_LEVEL, else info
    return asyncio.run(run_daemon(home, endpoint=args.endpoint))


def cmd_schema(args: argparse.Namespace) -> int:
    from vac.intent import objective_json_schema
    from vac.protocol.schema import message_schemas

    schema = message_schemas()
    schema["objective"] = objective_json_schema()
    print(json.dumps(schema, indent=2, sort_keys=True))
    return 0


def cmd_preflight(args: argparse.Namespace) -> int:
    from vac.daemon.preflight import preflight

    checks = preflight(home_of(args), args.endpoint)
    width = max(len(c.name) for c in checks)
    for c in checks:
        print_result(
            args.json,
            {"check": c.name, "status": c.status, "detail": c.detail},
            f"{c.status:<4}  {c.name:<{width}}  {c.detail}",
        )
    # A failed check is a local problem (exit 2); 1 is kept for the daemon's "no".
    return 2 if any(c.status == "fail" for c in checks) else 0


def cmd_bench(args: argparse.Namespace) -> int:
    rate = 4.0 if args.rate is None else args.rate
    pause_ms = 0 if args.pause_ms is None else args.pause_ms
    if (args.turns is not None and args.turns < 1) or rate <= 0 or pause_ms < 0:
        print(
            "vac bench: --turns and --rate must be positive, --pause-ms not negative",
            file=sys.stderr,
        )
        return 2
    sweep = len(args.sessions) > 1 or args.arrival is not None
    if not sweep and (args.rate, args.pause_ms) != (None, None):
        # They were ignored: a user measured the defaults thinking otherwise.
        print(
            "vac bench: --rate and --pause-ms are for a sweep"
            " (--sessions 1,2,4 or --arrival staggered)",
            file=sys.stderr,
        )
        return 2
    if args.config and not Path(args.config).is_file():
        print(f"vac bench: no such config file: {args.config}", file=sys.stderr)
        return 2  # a usage error, as argparse's own
    if sweep and args.fast:
        print("vac bench: --fast is for one level; a sweep is real time", file=sys.stderr)
        return 2
    if (problem := writable_dir(Path(args.out))) is not None:
        print(f"vac bench: {problem}", file=sys.stderr)  # before a run whose results are lost
        return 2
    from vac.child_daemon import DaemonDidNotStart

    try:
        return _run_bench(args, sweep, rate, pause_ms)
    except DaemonDidNotStart as exc:  # the daemon's own line, e.g. a bad --config
        print(f"vac bench: {escape_for_terminal(str(exc))}", file=sys.stderr)
        return exc.exit_code


def _run_bench(args: argparse.Namespace, sweep: bool, rate: float, pause_ms: int) -> int:
    if sweep:
        from vac.bench_sweep import ARRIVALS, SweepOptions, run_sweep

        return run_sweep(
            SweepOptions(
                levels=args.sessions,
                arrivals=args.arrival or ARRIVALS,
                turns=4 if args.turns is None else args.turns,
                rate_per_min=rate,
                pause_ms=pause_ms,
                out=Path(args.out),
                config=Path(args.config) if args.config else None,
            )
        )
    from vac.bench import BenchOptions, run_bench

    return run_bench(
        BenchOptions(
            sessions=args.sessions[0],
            turns=12 if args.turns is None else args.turns,
            out=Path(args.out),
            fast=args.fast,
            config=Path(args.config) if args.config else None,
        )
    )
