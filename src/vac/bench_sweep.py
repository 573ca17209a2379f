"""`vac bench --sessions 1,2,4,8`: latency as concurrency grows, under two arrival patterns.

One daemon (models load once) serves every level in turn. At each level N
sessions speak `turns` commands each, as `vac bench` does (stream in real
time; the fixtures' 700 ms of trailing silence, plus `pause_ms`, are the
user's natural pause; commit, confirm the draft, hear the reply), while a
bystander session pings every 50 ms:

- *together*: all N start every turn at the same instant (a barrier): the
  worst case, every stage contended at once.
- *staggered*: each session's turns arrive as a Poisson process at
  `rate_per_min` per session (exponential gaps, a fixed seed): what a
  household does.

Per level: p50/p95/p99 of every stage the daemon reports in `turn.done`
(PROTOCOL §8), the share of turns over the contract's budgets, the
bystander's pong round trip, and the daemon's CPU (share of one core, from
/proc) and peak RSS. Written as JSON, Markdown and one PNG (p95 per stage
against sessions). Every figure is measured in the run; the targets of the
scaling issue are checked against them and reported as met or missed.
"""

from __future__ import annotations

import json
import os
import platform
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from vac.bench import Samples, bystander, percentile, quiet_thread, run_session, spoken_fixtures
from vac.client.connection import Connection, keys_for
from vac.daemon import keys
from vac.home import Home
from vac.protocol.messages import Ping, Pong

ARRIVALS: Final = ("together", "staggered")
BUDGET_MS: Final = {"ack": 400.0, "first_audio": 1000.0}
# The stages plotted and tabled, in pipeline order ("voice": a spoken turn,
# "confirm": the reply to the confirm; PROTOCOL §8 names).
STAGES: Final = (
    "voice asr",
    "voice parse",
    "voice ack",
    "voice tts_first",
    "voice first_audio",
    "confirm tts_first",
    "confirm first_audio",
    "ping rtt",
)
# The scaling issue's targets: (arrival, sessions, stage, percentile, ms).
TARGETS: Final = (
    ("together", 4, "voice ack", 95, 50.0),
    ("together", 4, "voice first_audio", 95, 300.0),
    ("staggered", 8, "voice ack", 95, 150.0),
    ("staggered", 8, "voice first_audio", 95, 400.0),
    ("staggered", 8, "ping rtt", 99, 50.0),
)
KEEPALIVE_S: Final = 4.0  # well inside the default heartbeat (10 s; idle after 30 s)
_CLK_TCK: Final = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
_PAGE_BYTES: Final = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


@dataclass(frozen=True)
class SweepOptions:
    levels: tuple[int, ...] = (1, 2, 4, 8)
    arrivals: tuple[str, ...] = ARRIVALS
    turns: int = 4
    rate_per_min: float = 4.0
    pause_ms: int = 0  # beyond the fixtures' own 700 ms of trailing silence
    out: Path = Path("bench-results")
    seed: int = 1
    config: Path | None = None  # a vac.toml for the daemon (e.g. another [tts] workers)


class ProcessMeter:
    """CPU seconds and peak RSS of the daemon and its children (the recognition
    worker processes), sampled from /proc every 250 ms. None where there is no /proc."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.peak_rss_mb = 0.0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _tree(self) -> list[list[str]]:
        """The /proc/PID/stat fields (after the command name) of the daemon's process tree."""
        stats: dict[int, list[str]] = {}
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stats[int(entry.name)] = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue  # ended meanwhile
        tree, frontier = [], [self.pid]
        while frontier:
            pid = frontier.pop()
            if pid in stats:
                tree.append(stats[pid])
                frontier += [child for child, f in stats.items() if int(f[1]) == pid]
        return tree

    def cpu_s(self) -> float | None:
        tree = self._tree()
        if not tree:
            return None
        return sum(int(f[11]) + int(f[12]) for f in tree) / _CLK_TCK  # utime + stime

    def rss_mb(self) -> float | None:
        tree = self._tree()
        if not tree:
            return None
        return sum(int(f[21]) for f in tree) * _PAGE_BYTES / 2**20

    def reset_peak(self) -> None:
        with self._lock:
            self.peak_rss_mb = 0.0

    def _run(self) -> None:
        while not self._stop.wait(0.25):
            rss = self.rss_mb()
            if rss is not None:
                with self._lock:
                    self.peak_rss_mb = max(self.peak_rss_mb, rss)

    def __enter__(self) -> ProcessMeter:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


@dataclass
class Pacing:
    """One `before_turn` per session, and how to release everyone when one fails."""

    before: list[Callable[[Connection, int], None]]
    abort: Callable[[], None]


def pacing(arrival: str, n_sessions: int, rate_per_min: float, seed: int) -> Pacing:
    """The arrival pattern as hooks for `run_session`."""
    if rate_per_min <= 0:
        raise ValueError("rate_per_min must be positive")
    if arrival == "together":
        barrier = threading.Barrier(n_sessions)

        def together(conn: Connection, n: int) -> None:
            barrier.wait(timeout=300)  # every session starts turn n at the same instant

        return Pacing([together] * n_sessions, barrier.abort)
    mean_gap_s = 60.0 / rate_per_min

    def poisson(rng: random.Random) -> Callable[[Connection, int], None]:
        # Arrival times are absolute (t_k = t_k-1 + an exponential gap), so the
        # rate is the one asked for: a turn that arrives while the session is
        # still busy with the last one starts as soon as it is free.
        due_s: list[float] = []

        def wait(conn: Connection, n: int) -> None:
            base_s = due_s[-1] if due_s else time.monotonic()
            due_s.append(base_s + rng.expovariate(1.0 / mean_gap_s))
            until_s = due_s[-1]
            # A long gap must not make the session idle (§3): ping through it.
            while (left_s := until_s - time.monotonic()) > 0:
                time.sleep(min(left_s, KEEPALIVE_S))
                if until_s - time.monotonic() > 0:
                    conn.send(Ping(id=conn.next_id()))
                    conn.expect(Pong, 10)

        return wait

    return Pacing(
        [poisson(random.Random(seed * 1000 + i)) for i in range(n_sessions)], lambda: None
    )


def run_level(
    endpoint: str, home: Home, meter: ProcessMeter, arrival: str, n: int, opts: SweepOptions
) -> dict[str, Any]:
    fixtures = spoken_fixtures()
    samples = Samples()
    conns = [Connection(endpoint, keys_for(home, f"bench{i}")) for i in range(n)]
    pinger_conn = Connection(endpoint, keys_for(home, "bystander"))
    stop = threading.Event()
    failures: list[str] = []
    pinger = quiet_thread(bystander, (pinger_conn, stop, samples), stop, failures)
    pace = pacing(arrival, n, opts.rate_per_min, opts.seed)

    def speak(conn: Connection, before: Callable[[Connection, int], None]) -> None:
        try:
            run_session(
                conn,
                fixtures,
                opts.turns,
                False,
                samples,
                before_turn=before,
                pause_ms=opts.pause_ms,
            )
        except Exception:
            pace.abort()  # the others must not wait for this one at the barrier
            raise  # reported with the level by quiet_thread, never lost in a thread

    sessions = [
        quiet_thread(speak, (c, before), stop, failures)
        for c, before in zip(conns, pace.before, strict=True)
    ]
    meter.reset_peak()
    cpu0, t0 = meter.cpu_s(), time.monotonic()
    pinger.start()
    try:
        for s in sessions:
            s.start()
        for s in sessions:
            s.join()
    except BaseException:
        # Interrupted (Ctrl-C, SIGTERM): the daemon is about to be stopped; the
        # sessions' threads are daemon threads and their errors are now noise.
        stop.set()
        pace.abort()
        raise
    wall_s = time.monotonic() - t0
    cpu1 = meter.cpu_s()
    stop.set()
    pinger.join()
    for c in [*conns, pinger_conn]:
        c.bye()  # end the sessions: the next level starts with fresh ones
        c.close()
    level = summarise(arrival, n, samples, wall_s, cpu0, cpu1, meter.peak_rss_mb)
    level["failures"] = failures
    return level


def summarise(
    arrival: str,
    n: int,
    samples: Samples,
    wall_s: float,
    cpu0: float | None,
    cpu1: float | None,
    peak_rss_mb: float,
) -> dict[str, Any]:
    stages: dict[str, dict[str, float]] = {}
    for name, vals in sorted(samples.values.items()):
        if name.startswith("status "):
            continue
        stages[name] = {
            "n": len(vals),
            "p50_ms": round(percentile(vals, 50), 1),
            "p95_ms": round(percentile(vals, 95), 1),
            "p99_ms": round(percentile(vals, 99), 1),
            "max_ms": round(max(vals), 1),
        }
    over: dict[str, float] = {}
    for stage, budget in BUDGET_MS.items():
        vals = samples.values.get(f"voice {stage}", []) + samples.values.get(f"confirm {stage}", [])
        if vals:
            over[stage] = round(sum(v > budget for v in vals) / len(vals), 3)
    statuses = {
        k.removeprefix("status "): len(v)
        for k, v in samples.values.items()
        if k.startswith("status ")
    }
    cpu = None if cpu0 is None or cpu1 is None else round((cpu1 - cpu0) / wall_s, 3)
    return {
        "arrival": arrival,
        "sessions": n,
        "wall_s": round(wall_s, 1),
        "stages": stages,
        "over_budget_share": over,
        "statuses": statuses,
        "daemon_cpu_cores": cpu,
        "daemon_peak_rss_mb": round(peak_rss_mb, 1),
    }


def check_targets(levels: list[dict[str, Any]]) -> list[dict[str, Any]]:
    checks = []
    for arrival, n, stage, q, limit in TARGETS:
        level = next(
            (lv for lv in levels if lv["arrival"] == arrival and lv["sessions"] == n), None
        )
        value = None if level is None else level["stages"].get(stage, {}).get(f"p{q}_ms")
        checks.append(
            {
                "target": f"{n} {arrival}: {stage} p{q} ≤ {limit:g} ms",
                "measured_ms": value,
                "met": None if value is None else value <= limit,
            }
        )
    return checks


def dominant_stage(level: dict[str, Any]) -> str:
    """The component stage with the largest p95 (the totals ack/first_audio excluded)."""
    parts = {
        name: s["p95_ms"]
        for name, s in level["stages"].items()
        if name.startswith(("voice ", "confirm "))
        and not name.endswith((" ack", " first_audio", " endpoint"))
    }
    return max(parts, key=lambda k: parts[k]) if parts else "n/a"


def run_sweep(opts: SweepOptions) -> int:
    from vac.child_daemon import ending_on_signals, running_daemon, scratch_home

    levels: list[dict[str, Any]] = []
    with ending_on_signals(), scratch_home("vac-bench-") as home:
        keys.init_server(home)
        if opts.config is not None:
            home.config_file.write_text(opts.config.read_text())
        for p in [f"bench{i}" for i in range(max(opts.levels))] + ["bystander"]:
            keys.enroll(home, p)
        with (
            running_daemon(home, config_from=opts.config) as (proc, endpoint),
            ProcessMeter(proc.pid) as meter,
        ):
            for arrival in opts.arrivals:
                for n in opts.levels:
                    level = run_level(endpoint, home, meter, arrival, n, opts)
                    levels.append(level)
                    print_level(level)
                    for failure in level["failures"]:
                        print(f"  a session failed: {failure}", flush=True)
    return write_results(opts, levels)


def print_level(level: dict[str, Any]) -> None:
    s = level["stages"]

    def p95(name: str) -> str:
        return f"{s[name]['p95_ms']:.0f}" if name in s else "-"

    print(
        f"{level['arrival']:>9} {level['sessions']:>2} sessions: ack p95 {p95('voice ack')} ms,"
        f" first_audio p95 {p95('voice first_audio')} ms, pong p99"
        f" {s.get('ping rtt', {}).get('p99_ms', '-')} ms, cpu {level['daemon_cpu_cores']} cores,"
        f" rss {level['daemon_peak_rss_mb']} MB, {level['wall_s']} s",
        flush=True,
    )


def write_results(opts: SweepOptions, levels: list[dict[str, Any]]) -> int:
    checks = check_targets(levels)
    result = {
        "options": {
            "levels": list(opts.levels),
            "arrivals": list(opts.arrivals),
            "turns": opts.turns,
            "rate_per_min": opts.rate_per_min,
            "pause_ms": opts.pause_ms,
            "config": opts.config.read_text() if opts.config is not None else "",
        },
        "machine": platform.platform(),
        "cpus": os.cpu_count(),
        "levels": levels,
        "targets": checks,
        "dominant_stage": {
            f"{lv['arrival']} {lv['sessions']}": dominant_stage(lv) for lv in levels
        },
    }
    opts.out.mkdir(parents=True, exist_ok=True)
    (opts.out / "sweep.json").write_text(json.dumps(result, indent=2) + "\n")
    (opts.out / "sweep.md").write_text(markdown(result))
    plot_sweep(levels, opts.out / "sweep.png")
    for c in checks:
        verdict = {True: "met", False: "MISSED", None: "not measured"}[c["met"]]
        measured = "—" if c["measured_ms"] is None else f"{c['measured_ms']} ms"
        print(f"target {c['target']}: {measured} → {verdict}")
    print(f"wrote {opts.out / 'sweep.json'}, sweep.md, sweep.png")
    failed = sum(len(lv.get("failures", [])) for lv in levels)
    if failed:
        print(f"vac bench: {failed} session(s) failed: the figures above are incomplete")
        return 1
    return 0


def markdown(result: dict[str, Any]) -> str:
    o = result["options"]
    lines = [
        f"# vac bench sweep — {result['cpus']} CPUs, {result['machine']}",
        "",
        f"{o['turns']} spoken turns per session, {700 + o['pause_ms']} ms of silence after the"
        " words before the commit (the fixtures' 700 ms + pause_ms);"
        f" staggered: Poisson arrivals at {o['rate_per_min']:g} turns/min per session.",
        "",
        "| arrival | sessions | ack p50/p95/p99 | first_audio p50/p95/p99 | confirm first_audio p95"
        " | tts_first p95 | asr p95 | over budget (ack / first_audio) | pong p99 | daemon CPU"
        " | peak RSS | dominant stage |",
        "|---|---:|---|---|---:|---:|---:|---|---:|---:|---:|---|",
    ]
    for lv in result["levels"]:
        s = lv["stages"]

        def ppp(name: str, stages: dict[str, Any] = s) -> str:
            if name not in stages:
                return "-"
            st = stages[name]
            return f"{st['p50_ms']:.0f} / {st['p95_ms']:.0f} / {st['p99_ms']:.0f}"

        def p(name: str, q: int = 95, stages: dict[str, Any] = s) -> str:
            return f"{stages[name][f'p{q}_ms']:.0f}" if name in stages else "-"

        ob = lv["over_budget_share"]
        key = f"{lv['arrival']} {lv['sessions']}"
        lines.append(
            f"| {lv['arrival']} | {lv['sessions']} | {ppp('voice ack')}"
            f" | {ppp('voice first_audio')}"
            f" | {p('confirm first_audio')} | {p('voice tts_first')} | {p('voice asr')}"
            f" | {ob.get('ack', 0):.0%} / {ob.get('first_audio', 0):.0%} | {p('ping rtt', 99)}"
            f" | {lv['daemon_cpu_cores']} | {lv['daemon_peak_rss_mb']:.0f} MB"
            f" | {result['dominant_stage'][key]} |"
        )
    lines += ["", "Targets (from the scaling issue):", ""]
    for c in result["targets"]:
        verdict = {True: "met", False: "**missed**", None: "not measured"}[c["met"]]
        measured = "—" if c["measured_ms"] is None else f"{c['measured_ms']} ms"
        lines.append(f"- {c['target']}: {measured} — {verdict}")
    return "\n".join(lines) + "\n"


def plot_sweep(levels: list[dict[str, Any]], path: Path) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(matplotlib not installed: no plot; pip install 'vac[bench]')")
        return
    arrivals = sorted({lv["arrival"] for lv in levels})
    fig, axes = plt.subplots(1, len(arrivals), figsize=(6 * len(arrivals), 4.5), squeeze=False)
    for ax, arrival in zip(axes[0], arrivals, strict=True):
        rows = sorted(
            (lv for lv in levels if lv["arrival"] == arrival), key=lambda r: r["sessions"]
        )
        xs = [r["sessions"] for r in rows]
        for stage in STAGES:
            ys = [r["stages"].get(stage, {}).get("p95_ms") for r in rows]
            if any(y is not None for y in ys):
                ax.plot(xs, [y if y is not None else float("nan") for y in ys], "o-", label=stage)
        ax.set_xscale("log", base=2)
        ax.set_xticks(xs, [str(x) for x in xs])
        ax.set_yscale("log")
        ax.set_xlabel("concurrent sessions")
        ax.set_ylabel("p95 ms")
        ax.set_title(f"{arrival}")
        ax.grid(True, which="both", alpha=0.3)
    axes[0][-1].legend(fontsize=8, loc="upper left")
    fig.suptitle("vac latency p95 per stage vs sessions")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
