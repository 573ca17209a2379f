"""`vac bench --sessions 1,2,...`: the sweep's arithmetic (pure) and one small real run."""

from __future__ import annotations

import argparse
import json
import threading
import time
from pathlib import Path

import pytest

from vac.bench import Samples
from vac.bench_sweep import (
    SweepOptions,
    check_targets,
    dominant_stage,
    markdown,
    pacing,
    run_sweep,
    summarise,
)
from vac.cli.parser import arrivals, session_levels


def level(arrival: str, n: int, values: dict[str, list[float]]) -> dict[str, object]:
    samples = Samples()
    for name, vals in values.items():
        for v in vals:
            samples.add(name, v)
    return summarise(arrival, n, samples, wall_s=10.0, cpu0=1.0, cpu1=6.0, peak_rss_mb=512.0)


def test_summary_has_percentiles_over_budget_shares_and_cpu() -> None:
    lv = level(
        "together",
        4,
        {
            "voice ack": [10.0] * 19 + [500.0],
            "voice first_audio": [200.0] * 18 + [1200.0, 1300.0],
            "confirm first_audio": [100.0] * 20,
            "status parsed": [1, 1],
        },
    )
    assert lv["stages"]["voice ack"]["p50_ms"] == 10.0
    assert lv["stages"]["voice ack"]["max_ms"] == 500.0
    # 1 of 20 acks over 400 ms; 2 of 40 first_audio (voice + confirm) over 1000 ms.
    assert lv["over_budget_share"] == {"ack": 0.05, "first_audio": 0.05}
    assert lv["statuses"] == {"parsed": 2}
    assert lv["daemon_cpu_cores"] == 0.5  # 5 CPU seconds in 10 s of wall time


def test_targets_are_met_missed_or_not_measured() -> None:
    levels = [
        level("together", 4, {"voice ack": [20.0] * 10, "voice first_audio": [900.0] * 10}),
        level("staggered", 8, {"voice ack": [100.0] * 10, "ping rtt": [3.0] * 50}),
    ]
    checks = {c["target"]: c["met"] for c in check_targets(levels)}
    assert checks["4 together: voice ack p95 ≤ 50 ms"] is True
    assert checks["4 together: voice first_audio p95 ≤ 300 ms"] is False
    assert checks["8 staggered: voice ack p95 ≤ 150 ms"] is True
    assert checks["8 staggered: voice first_audio p95 ≤ 400 ms"] is None
    assert checks["8 staggered: ping rtt p99 ≤ 50 ms"] is True


def test_the_dominant_stage_is_a_component_not_a_total() -> None:
    lv = level(
        "together",
        8,
        {
            "voice asr": [300.0],
            "voice tts_first": [700.0],
            "voice first_audio": [1100.0],
            "voice ack": [320.0],
        },
    )
    assert dominant_stage(lv) == "voice tts_first"


def test_markdown_has_one_row_per_level_and_the_verdicts() -> None:
    levels = [level("together", n, {"voice ack": [float(n)]}) for n in (1, 2)]
    result = {
        "options": {"turns": 2, "pause_ms": 300, "rate_per_min": 4.0},
        "machine": "test",
        "cpus": 2,
        "levels": levels,
        "targets": check_targets(levels),
        "dominant_stage": {"together 1": "n/a", "together 2": "n/a"},
    }
    text = markdown(result)
    assert text.count("| together |") == 2
    assert "not measured" in text


def test_together_starts_every_turn_at_once_and_staggered_waits() -> None:
    befores = pacing("together", 3, 4.0, seed=1).before
    started: list[float] = []

    def session(i: int) -> None:
        time.sleep(0.3 * i)  # arrive at the barrier 0.3 s apart
        befores[i](None, 0)  # type: ignore[arg-type]
        started.append(time.monotonic())

    threads = [threading.Thread(target=session, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=5)
    assert max(started) - min(started) < 0.3  # released together, not 0.6 s apart
    staggered = pacing("staggered", 2, 6000.0, seed=1).before  # 100/s: gaps of ~10 ms
    t0 = time.monotonic()
    for n in range(5):
        staggered[0](None, n)  # type: ignore[arg-type]  # gaps this short need no ping
    assert time.monotonic() - t0 < 1.0


def test_a_failed_session_releases_the_others_and_a_zero_rate_is_refused() -> None:
    pace = pacing("together", 2, 4.0, seed=1)
    raised: list[BaseException] = []

    def waiting() -> None:
        try:
            pace.before[0](None, 0)  # type: ignore[arg-type]
        except threading.BrokenBarrierError as exc:
            raised.append(exc)

    t = threading.Thread(target=waiting)
    t.start()
    time.sleep(0.1)
    pace.abort()  # what run_level does when the other session fails
    t.join(timeout=5)
    assert raised and not t.is_alive()
    with pytest.raises(ValueError, match="positive"):
        pacing("staggered", 1, 0.0, seed=1)


def test_the_cli_reads_session_lists_and_arrivals() -> None:
    assert session_levels("1,2,4,8") == (1, 2, 4, 8)
    assert session_levels("3") == (3,)
    with pytest.raises(argparse.ArgumentTypeError):
        session_levels("1,x")
    with pytest.raises(argparse.ArgumentTypeError):
        session_levels("0")
    assert arrivals("together") == ("together",)
    with pytest.raises(argparse.ArgumentTypeError, match="together or staggered"):
        arrivals("burst")


@pytest.mark.slow
def test_a_small_real_sweep_writes_json_markdown_and_a_plot(tmp_path: Path) -> None:
    opts = SweepOptions(levels=(1, 2), arrivals=("together",), turns=1, pause_ms=200, out=tmp_path)
    assert run_sweep(opts) == 0
    result = json.loads((tmp_path / "sweep.json").read_text())
    assert [(lv["arrival"], lv["sessions"]) for lv in result["levels"]] == [
        ("together", 1),
        ("together", 2),
    ]
    two = result["levels"][1]
    assert two["stages"]["voice ack"]["n"] == 2  # both sessions spoke
    assert two["stages"]["ping rtt"]["n"] > 0
    assert two["daemon_peak_rss_mb"] > 50
    assert (tmp_path / "sweep.md").read_text().count("| together |") == 2
    assert (tmp_path / "sweep.png").stat().st_size > 0
