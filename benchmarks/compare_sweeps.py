"""Local against Ray: two `vac bench` sweeps of one run, stage by stage.

Reads `sweep.json` of a local-mode and a Ray-mode sweep (`make
bench-scaling` writes both) and prints, per session level and stage, the p50
and p95 of each and the Ray/local ratio; then the scaling target "Ray mode
`first_audio` p95 within 25 % of local mode" as met or missed per level.

    python -m benchmarks.compare_sweeps docs/bench/scaling-local docs/bench/scaling-ray \
        --md docs/bench/scaling-compare.md
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

STAGES = (
    "voice ack",
    "voice asr",
    "voice tts_first",
    "voice first_audio",
    "confirm first_audio",
    "ping rtt",
)
TARGET_STAGE = "voice first_audio"
TARGET_RATIO = 1.25


def _levels(directory: Path) -> dict[int, dict[str, Any]]:
    sweep = json.loads((directory / "sweep.json").read_text())
    return {int(level["sessions"]): level for level in sweep["levels"]}


def compare(local_dir: Path, ray_dir: Path) -> list[str]:
    local, ray = _levels(local_dir), _levels(ray_dir)
    lines = [
        "| sessions | stage | local p50 / p95 | ray p50 / p95 | p95 ray / local |",
        "|---:|---|---|---|---:|",
    ]
    verdicts = []
    for n in sorted(set(local) & set(ray)):
        for stage in STAGES:
            a = local[n]["stages"].get(stage)
            b = ray[n]["stages"].get(stage)
            if not a or not b:
                continue
            ratio = b["p95_ms"] / a["p95_ms"] if a["p95_ms"] else float("nan")
            lines.append(
                f"| {n} | {stage} | {a['p50_ms']:.0f} / {a['p95_ms']:.0f} |"
                f" {b['p50_ms']:.0f} / {b['p95_ms']:.0f} | {ratio:.2f} |"
            )
            if stage == TARGET_STAGE:
                met = ratio <= TARGET_RATIO
                verdicts.append(
                    f"- {n} session(s): `first_audio` p95 {b['p95_ms']:.0f} ms (Ray) against"
                    f" {a['p95_ms']:.0f} ms (local), {100 * (ratio - 1):+.0f} % —"
                    f" {'met' if met else '**missed**'} (target ≤ +25 %)"
                )
        lines.append(
            f"| {n} | daemon CPU (cores) | {local[n]['daemon_cpu_cores']:.3f} |"
            f" {ray[n]['daemon_cpu_cores']:.3f} | |"
        )
    return [*lines, "", "Target, Ray mode `first_audio` p95 within 25 % of local:", *verdicts]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("local", type=Path, help="the local-mode sweep's directory")
    parser.add_argument("ray", type=Path, help="the Ray-mode sweep's directory")
    parser.add_argument("--md", type=Path, help="also write the table here")
    args = parser.parse_args(argv)
    lines = compare(args.local, args.ray)
    print("\n".join(lines))
    if args.md is not None:
        args.md.write_text("# Local against Ray (same run)\n\n" + "\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
