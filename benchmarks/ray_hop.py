"""The Ray hop alone: one final and one phrase, local engines against Ray Serve.

The same `build_stt`/`build_tts` the daemon uses, first with `engine =
"local"`, then with `engine = "ray"` against a running cluster; each call is
made `--reps` times in a row (nothing else running), and the wall time of
the call is reported next to the engine's own compute time (measured inside
the worker or the replica). The difference is the hop: pickling, two gRPC
messages and the Serve router (docs/scaling.md).

    ray start --head --num-cpus 2 --port 6390 --include-dashboard=false
    python -m benchmarks.ray_hop --address 127.0.0.1:6390
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from typing import Any

from vac.daemon.engines import SttSection, TtsSection, build_stt, build_tts
from vac.daemon.inference import InferenceSection

NAMES = ["Abeni", "Kofi", "Zuri", "Tariq", "Imani"]
UTTERANCES = ("kofi_build_bench.joe", "abeni_repair_gate.espeak-en-gb")
PHRASE = "Kofi will build the bench by tomorrow."


def _median(values: list[float]) -> float:
    return round(statistics.median(values), 1)


async def _measure(inference: InferenceSection | None, reps: int) -> dict[str, Any]:
    from tests.speech.audio import load_fixtures

    by_name = {f.name: f for f in load_fixtures()}
    pool = build_stt(SttSection(workers=2), NAMES, inference)
    await pool.start()
    tts = build_tts(TtsSection(), inference)
    out: dict[str, Any] = {}
    try:
        for name in UTTERANCES:
            walls, computes = [], []
            for _ in range(reps):
                started = time.perf_counter()
                heard = await pool.transcribe(by_name[name].pcm, kind="final", key="k")
                walls.append((time.perf_counter() - started) * 1000)
                computes.append(heard.compute_ms)
            out[f"final {name}"] = {"wall_ms": _median(walls), "compute_ms": _median(computes)}
        walls, computes = [], []
        for _ in range(reps):
            started = time.perf_counter()
            phrase = await asyncio.to_thread(tts.synthesize, PHRASE)
            walls.append((time.perf_counter() - started) * 1000)
            computes.append(phrase.compute_ms)
        out["phrase"] = {"wall_ms": _median(walls), "compute_ms": _median(computes)}
    finally:
        close = getattr(tts, "close", None)
        if close is not None:
            close()
        await pool.close()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--address", required=True, help="the Ray cluster, host:port")
    parser.add_argument("--reps", type=int, default=10)
    args = parser.parse_args(argv)
    ray = InferenceSection(
        engine="ray", address=args.address, stt_replicas=2, stt_num_cpus=0.5, tts_num_cpus=0.5
    )
    results = {
        "local": asyncio.run(_measure(None, args.reps)),
        "ray": asyncio.run(_measure(ray, args.reps)),
    }
    for what in results["local"]:
        local, remote = results["local"][what], results["ray"][what]
        print(
            f"{what:45s} local {local['wall_ms']:6.1f} ms (compute {local['compute_ms']:6.1f})"
            f"  ray {remote['wall_ms']:6.1f} ms (compute {remote['compute_ms']:6.1f})"
        )
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
