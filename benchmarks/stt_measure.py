"""Measure the STT choices recorded in docs/stt.md (run: python benchmarks/stt_measure.py).

1. fast path (10 s window, greedy) vs transcribe(): WER and compute time per fixture;
2. SttPool commit -> final, 1 worker x 2 threads vs 2 workers x 1 thread,
   one stream at a time and two streams at once; loop lag while it runs.
"""

from __future__ import annotations

import asyncio
import functools
import json
import statistics
import sys
import time
import wave
from pathlib import Path

import numpy as np

from vac.speech.stt import SttConfig, WhisperStt, load_pcm
from vac.speech.wer import word_error_rate
from vac.speech.workers import SttPool, SttPoolConfig

ROOT = Path(__file__).resolve().parents[1]
NAMES = ("Abeni", "Kofi", "Zuri", "Tariq", "Imani")


def fixtures() -> list[tuple[str, str, str, bytes]]:
    manifest = json.loads((ROOT / "fixtures" / "manifest.json").read_text())
    out = []
    for entry in manifest["files"]:
        if not entry["speech"]:
            continue
        with wave.open(str(ROOT / "fixtures" / entry["file"])) as w:
            pcm = w.readframes(w.getnframes())
        out.append((Path(entry["file"]).stem, entry["voice"], entry["text"], pcm))
    return out


def pct(values: list[float], q: float) -> float:
    return float(np.percentile(values, q))


def compare_paths(repeats: int = 3) -> None:
    print("## fast path vs transcribe (in process, 2 threads)")
    engines = {
        "window 10 s": WhisperStt(SttConfig(), vocabulary=NAMES),
        "transcribe": WhisperStt(SttConfig(window_ms=0), vocabulary=NAMES),
    }
    for label, engine in engines.items():
        wers: dict[str, list[float]] = {"joe": [], "espeak": []}
        times: list[float] = []
        for name, voice, text, pcm in fixtures():
            results = [engine.transcribe(load_pcm(pcm), final=True) for _ in range(repeats)]
            times.extend(r.compute_ms for r in results)
            wer = word_error_rate(text, results[0].text)
            wers["joe" if voice == "joe" else "espeak"].append(wer)
            print(f"  {label:12s} {name:40s} wer {wer:.2f}  {results[0].text!r}")
        print(
            f"{label}: WER joe {statistics.mean(wers['joe']):.3f} "
            f"espeak {statistics.mean(wers['espeak']):.3f}; compute p50 {pct(times, 50):.0f} ms "
            f"p95 {pct(times, 95):.0f} ms"
        )


async def pool_latency(workers: int, threads: int, concurrent: int, rounds: int = 2) -> None:
    factory = functools.partial(WhisperStt, SttConfig(cpu_threads=threads), vocabulary=NAMES)
    pool = SttPool(factory, SttPoolConfig(workers=workers))
    started = time.perf_counter()
    await pool.start()
    start_s = time.perf_counter() - started
    lags: list[float] = []
    latencies: list[float] = []
    stop = asyncio.Event()

    async def ticker() -> None:
        while not stop.is_set():
            before = time.perf_counter()
            await asyncio.sleep(0.005)
            lags.append((time.perf_counter() - before) * 1000 - 5)

    async def stream(items: list[tuple[str, str, str, bytes]], tag: int) -> None:
        for name, _voice, _text, pcm in items:
            t0 = time.perf_counter()
            await pool.transcribe(pcm, kind="final", key=f"{tag}:{name}")
            latencies.append((time.perf_counter() - t0) * 1000)

    items = fixtures() * rounds
    try:
        async with asyncio.TaskGroup() as tg:
            tick = tg.create_task(ticker())
            async with asyncio.TaskGroup() as inner:
                for tag in range(concurrent):
                    inner.create_task(stream(items[tag::concurrent], tag))
            stop.set()
            await tick
    finally:
        await pool.close()
    print(
        f"{workers} worker x {threads} thread, {concurrent} stream(s): start {start_s:.1f} s; "
        f"commit->final p50 {pct(latencies, 50):.0f} ms p95 {pct(latencies, 95):.0f} ms "
        f"(n={len(latencies)}); loop lag p50 {pct(lags, 50):.2f} p99 {pct(lags, 99):.2f} "
        f"max {max(lags):.2f} ms"
    )


def main() -> None:
    if "--pool-only" not in sys.argv:
        compare_paths()
    print("## SttPool commit -> final")
    for workers, threads in ((1, 2), (2, 1)):
        for concurrent in (1, 2):
            asyncio.run(pool_latency(workers, threads, concurrent))


if __name__ == "__main__":
    main()
