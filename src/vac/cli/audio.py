"""Commands that stream audio: the scripted `vac transport` and the desktop `vac talk`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from vac.cli.common import writable_dir
from vac.cli.session import connect


def cmd_transport(args: argparse.Namespace) -> int:
    from vac.client.transport import TransportOptions, run_transport

    if args.out and (problem := writable_dir(Path(args.out))) is not None:
        print(f"vac transport: {problem}", file=sys.stderr)
        return 2
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
    return run_transport(opts, lambda: connect(args))


def cmd_talk(args: argparse.Namespace) -> int:
    from vac.client.talk import TalkOptions, run_talk

    opts = TalkOptions(
        vad=args.vad,
        rate_hz=args.rate,
        resume=args.session,
        timeout_s=args.timeout,
        as_json=args.json,
    )
    return run_talk(opts, lambda: connect(args))
