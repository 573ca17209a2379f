"""`vac bench`: the latency benchmark — real daemon, real models, real sockets.

Each session streams the bundled spoken commands (paced in real time unless
`--fast`), commits, waits for the draft, confirms it and waits for the spoken
reply. The daemon's own `turn.done.latency_ms` (PROTOCOL §8 stage names) is
collected, plus client-side commit → final / draft times and the round trip
of a `ping` sent every 50 ms by a bystander session during the whole run.
Every number printed is measured in this run; nothing is modelled.
"""

from __future__ import annotations

import json
import platform
import statistics
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from vac.client.connection import Connection, keys_for
from vac.client.wavio import read_input_wav
from vac.daemon import keys
from vac.protocol.messages import (
    AudioInputCommit,
    AudioInputDone,
    ObjectiveConfirm,
    ObjectiveDraft,
    Ping,
    Pong,
    TranscriptFinal,
    TurnDone,
)

ROOT: Final = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class BenchOptions:
    sessions: int = 1
    turns: int = 12
    out: Path = Path("bench-results")
    fast: bool = False
    config: Path | None = None  # a vac.toml for the benchmarked daemon (e.g. the Ray engine)


@dataclass
class Samples:
    values: dict[str, list[float]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, name: str, ms: float) -> None:
        with self.lock:
            self.values.setdefault(name, []).append(ms)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    return statistics.quantiles(ordered, n=100, method="inclusive")[int(q) - 1]


def spoken_fixtures() -> list[tuple[str, bytes]]:
    manifest = json.loads((ROOT / "fixtures" / "manifest.json").read_text())
    return [
        (entry["text"], read_input_wav(ROOT / "fixtures" / entry["file"]).pcm)
        for entry in manifest["files"]
        if entry["speech"] and entry["duration_ms"] >= 2000
    ]


def run_session(
    conn: Connection,
    fixtures: list[tuple[str, bytes]],
    turns: int,
    fast: bool,
    samples: Samples,
    *,
    before_turn: Callable[[Connection, int], None] = lambda conn, n: None,
    pause_ms: int = 0,
) -> None:
    """Speak `turns` commands; `before_turn(conn, n)` waits for the turn's moment (the
    arrival pattern), `pause_ms` of silence follow the words before the commit
    (the user's natural pause before releasing the talk key)."""
    conn.hello(rate=16000, speak=True, client="vac-bench")
    pause = b"\x00\x00" * (16 * pause_ms)
    for n in range(turns):
        _, pcm = fixtures[n % len(fixtures)]
        stream = f"b{n}"
        before_turn(conn, n)
        seq = conn.stream_pcm(stream, pcm + pause, pace_s=0.0 if fast else 0.02, commit=False)
        t0 = time.perf_counter()
        conn.send(AudioInputCommit(id=conn.next_id(), stream=stream, last_seq=seq))
        draft: ObjectiveDraft | None = None
        ended = False
        while not ended:
            msg, _ = conn.recv(60)
            match msg:
                case TranscriptFinal():
                    samples.add("client commit→final", (time.perf_counter() - t0) * 1000)
                case ObjectiveDraft():
                    draft = msg
                    samples.add("client commit→draft", (time.perf_counter() - t0) * 1000)
                case TurnDone():
                    for stage, ms in msg.latency_ms.items():
                        samples.add(f"voice {stage}", ms)
                    samples.add(f"status {msg.status}", 1)
                    ended = True
                case AudioInputDone() if msg.reason != "transcribed":
                    ended = True
        if draft is None:
            continue
        conn.send(ObjectiveConfirm(id=conn.next_id(), objective_id=draft.objective.id))
        for msg, _ in conn.recv_until(lambda m: isinstance(m, TurnDone), 60):
            if isinstance(msg, TurnDone):
                for stage, ms in msg.latency_ms.items():
                    samples.add(f"confirm {stage}", ms)


def bystander(conn: Connection, stop: threading.Event, samples: Samples) -> None:
    conn.hello(client="vac-bench-ping")
    while True:
        t0 = time.perf_counter()
        conn.send(Ping(id=conn.next_id()))
        conn.expect(Pong, 5)
        samples.add("ping rtt", (time.perf_counter() - t0) * 1000)
        if stop.wait(0.05):  # one ping every 50 ms until the sessions are done
            return


def quiet_thread(
    target: Callable[..., None], args: tuple[Any, ...], stop: threading.Event, failures: list[str]
) -> threading.Thread:
    """A thread whose failure is one line in `failures`, never a traceback; and once
    `stop` is set (the run is over or interrupted) not even that. A daemon thread: an
    interrupted run ends at once, without waiting for sessions the daemon left."""

    def run() -> None:
        try:
            target(*args)
        except Exception as exc:
            if not stop.is_set():
                failures.append(f"{type(exc).__name__}: {exc}")

    return threading.Thread(target=run, name=getattr(target, "__name__", None), daemon=True)


def run_bench(opts: BenchOptions) -> int:
    """One level. Raises DaemonDidNotStart (the daemon's own error); SIGTERM and
    Ctrl-C stop the daemon and remove its home (vac.child_daemon)."""
    from vac.child_daemon import ending_on_signals, running_daemon, scratch_home

    fixtures = spoken_fixtures()
    samples = Samples()
    failures: list[str] = []
    with ending_on_signals(), scratch_home("vac-bench-") as home:
        keys.init_server(home)
        if opts.config is not None:
            home.config_file.write_text(opts.config.read_text())
        principals = [f"bench{i}" for i in range(opts.sessions)] + ["bystander"]
        for p in principals:
            keys.enroll(home, p)
        with running_daemon(home, config_from=opts.config) as (_, endpoint):
            stop = threading.Event()
            try:
                conns = [Connection(endpoint, keys_for(home, p)) for p in principals]
                pinger = quiet_thread(bystander, (conns[-1], stop, samples), stop, failures)
                pinger.start()
                workers = [
                    quiet_thread(
                        run_session, (c, fixtures, opts.turns, opts.fast, samples), stop, failures
                    )
                    for c in conns[:-1]
                ]
                t0 = time.monotonic()
                for w in workers:
                    w.start()
                for w in workers:
                    w.join()
                wall_s = time.monotonic() - t0
                stop.set()
                pinger.join()
                for c in conns:
                    c.close()
            finally:
                stop.set()  # interrupted: what the sessions say as the daemon stops is noise
    code = report(opts, samples, wall_s)
    for failure in failures:
        print(f"vac bench: a session failed: {failure}", file=sys.stderr)
    if failures:
        print("vac bench: the figures above are incomplete", file=sys.stderr)
        return 1
    return code


def report(opts: BenchOptions, samples: Samples, wall_s: float) -> int:
    rows = []
    for name in sorted(samples.values):
        if name.startswith("status "):
            continue
        vals = samples.values[name]
        rows.append(
            {
                "stage": name,
                "n": len(vals),
                "p50_ms": round(percentile(vals, 50), 1),
                "p95_ms": round(percentile(vals, 95), 1),
                "p99_ms": round(percentile(vals, 99), 1),
                "max_ms": round(max(vals), 1),
            }
        )
    statuses = {
        k.removeprefix("status "): len(v)
        for k, v in samples.values.items()
        if k.startswith("status ")
    }
    print(
        f"vac bench: {opts.sessions} session(s) × {opts.turns} spoken turns, "
        f"{'fast' if opts.fast else 'real-time'} streaming, {wall_s:.1f} s"
    )
    print(f"{'stage':<24}{'n':>5}{'p50 ms':>10}{'p95 ms':>10}{'p99 ms':>10}{'max ms':>10}")
    for r in rows:
        print(
            f"{r['stage']:<24}{r['n']:>5}{r['p50_ms']:>10}{r['p95_ms']:>10}"
            f"{r['p99_ms']:>10}{r['max_ms']:>10}"
        )
    print("turn statuses: " + ", ".join(f"{k}={v}" for k, v in sorted(statuses.items())))
    opts.out.mkdir(parents=True, exist_ok=True)
    result: dict[str, Any] = {
        "sessions": opts.sessions,
        "turns": opts.turns,
        "fast": opts.fast,
        "config": opts.config.read_text() if opts.config is not None else "",
        "wall_s": round(wall_s, 1),
        "machine": platform.platform(),
        "cpus": __import__("os").cpu_count(),
        "stages": rows,
        "statuses": statuses,
    }
    name = f"bench-s{opts.sessions}-t{opts.turns}{'-fast' if opts.fast else ''}"
    (opts.out / f"{name}.json").write_text(json.dumps(result, indent=2) + "\n")
    plot(samples, opts.out / f"{name}.png", title=name)
    return 0


def plot(samples: Samples, path: Path, *, title: str) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(matplotlib not installed: no plot; pip install 'vac[bench]')")
        return
    names = [n for n in sorted(samples.values) if not n.startswith("status ")]
    fig, ax = plt.subplots(figsize=(9, 0.45 * len(names) + 1.5))
    ax.boxplot(
        [samples.values[n] for n in names],
        orientation="horizontal",
        tick_labels=names,
        whis=(5, 95),
    )
    ax.axvline(400, color="tab:orange", linestyle="--", label="ack budget 400 ms")
    ax.axvline(1000, color="tab:red", linestyle="--", label="first_audio budget 1000 ms")
    ax.set_xlabel("milliseconds (box: p25–p75, whiskers: p5–p95)")
    ax.set_title(f"vac latency — {title}")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    print(f"wrote {path}")
