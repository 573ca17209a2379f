"""What the `vad` continuation window buys and costs, measured through a real daemon.

Run: `python -m benchmarks.continuation --limit 24` (or `make bench-continuation`).
Results: `docs/bench/continuation.{json,md}`; discussed in docs/client.md.

Each command of the understanding corpus is said with a pause in the middle
("Ask Abeni to | fix the water pump urgently"): the daemon's piper voice
renders the two halves, trimmed of their own silence, joined by `--gap-ms`
of silence (600 ms by default: webrtcvad hears ~480 ms of it as unvoiced,
past the 400 ms endpoint). A hands-free client streams it in real time in
`vad` mode; when the daemon closes the stream early (it endpointed at the
pause), the client opens a new stream for the rest, as `vac talk` would at the
next onset. The same run is made against a daemon with the window
(`continuation_ms` 700) and without (0).

Reported per daemon: commands split into more than one turn, commands whose
first draft has the right agent and verb, and the `turn.done` stages:
`endpoint` (the silence waited for) and `ack`, and their sum, the time from
the end of speech to the turn's first answer.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Final

import numpy as np
from benchmarks.understanding import Daemon, pct, start_daemon, synthesize
from benchmarks.understanding_corpus import COMMANDS, Item

from vac.client.connection import Connection, Timeout, keys_for
from vac.protocol.messages import (
    AudioInputChunk,
    AudioInputDone,
    AudioInputStart,
    ObjectiveClarify,
    ObjectiveDraft,
    OutboundMessage,
    TranscriptFinal,
    TurnDone,
)

RATE_HZ: Final = 16000
CHUNK_BYTES: Final = 640  # 20 ms
LEAD_MS: Final = 300
TRAIL_MS: Final = 1500  # past the window and its wall-clock slack
SETTLE_S: Final = 2.0


def pause_point(text: str) -> int:
    """Where a person pauses: after the addressing "… to", else the first comma, else midway."""
    words = text.split()
    for i, w in enumerate(words[:5]):
        if w.lower() == "to" and i >= 2:
            return i + 1
    for i, w in enumerate(words[:4]):
        if w.endswith(","):
            return i + 1
    return max(1, len(words) // 2)


def render_paused(text: str, gap_ms: int) -> bytes:
    words = text.split()
    cut = pause_point(text)
    from fixtures.generate import _trim  # the fixtures' own trim: one rule for a "pause"

    halves = [_trim(synthesize(" ".join(part), "joe")) for part in (words[:cut], words[cut:])]
    audio = np.concatenate(
        [
            np.zeros(RATE_HZ * LEAD_MS // 1000, dtype=np.float32),
            halves[0],
            np.zeros(RATE_HZ * gap_ms // 1000, dtype=np.float32),
            halves[1],
            np.zeros(RATE_HZ * TRAIL_MS // 1000, dtype=np.float32),
        ]
    )
    return np.clip(np.round(audio * 32767.0), -32768, 32767).astype("<i2").tobytes()


@dataclass
class Result:
    text: str
    turns: int
    finals: list[str]
    agent_verb_right: bool
    endpoint_ms: list[int] = field(default_factory=list)
    ack_ms: list[int] = field(default_factory=list)


def run_item(conn: Connection, item: Item, pcm: bytes, tag: str) -> Result:
    """Stream `pcm` in real time as a hands-free client; a closed stream is reopened."""
    msgs: list[OutboundMessage] = []
    chunks = [pcm[i : i + CHUNK_BYTES] for i in range(0, len(pcm), CHUNK_BYTES)]
    stream, seq, n = None, 0, 0
    start_s = time.monotonic()
    for i, chunk in enumerate(chunks):
        if stream is None:
            n += 1
            stream, seq = f"{tag}-{n}", 0
            conn.send(
                AudioInputStart(
                    id=conn.next_id(),
                    stream=stream,
                    encoding="pcm_s16le",
                    rate=RATE_HZ,
                    channels=1,
                    mode="vad",
                )
            )
        conn.send(AudioInputChunk(id=conn.next_id(), stream=stream, seq=seq), chunk)
        seq += 1
        until = start_s + (i + 1) * 0.02
        while (left := until - time.monotonic()) > 0:
            try:
                msg, _ = conn.recv(left)
            except Timeout:
                break
            msgs.append(msg)
            if isinstance(msg, AudioInputDone) and msg.stream == stream:
                stream = None  # the daemon ended it; the next chunk opens another
    end_s = time.monotonic() + SETTLE_S
    while (left := end_s - time.monotonic()) > 0:
        try:
            msgs.append(conn.recv(left)[0])
        except Timeout:
            break
    finals = [m.text for m in msgs if isinstance(m, TranscriptFinal) and not m.provisional]
    dones = [m for m in msgs if isinstance(m, TurnDone)]
    first = next((m for m in msgs if isinstance(m, ObjectiveDraft | ObjectiveClarify)), None)
    right = (
        isinstance(first, ObjectiveDraft)
        and first.objective.agent == item.agent
        and first.objective.verb == item.verb
    )
    for m in msgs:
        if isinstance(m, ObjectiveDraft):
            conn.send(_reject(conn, m.objective.id))
    return Result(
        item.text,
        len(finals),
        finals,
        right,
        [d.latency_ms["endpoint"] for d in dones if "endpoint" in d.latency_ms],
        [d.latency_ms["ack"] for d in dones if "ack" in d.latency_ms],
    )


def _reject(conn: Connection, objective_id: str) -> Any:
    from vac.protocol.messages import ObjectiveReject

    return ObjectiveReject(id=conn.next_id(), objective_id=objective_id)


def run_daemon(tmp: Path, continuation_ms: int, items: list[tuple[Item, bytes]]) -> dict[str, Any]:
    home_dir = tmp / f"w{continuation_ms}"
    home_dir.mkdir()
    (home_dir / "home").mkdir()
    (home_dir / "home" / "vac.toml").write_text(f"[daemon]\ncontinuation_ms = {continuation_ms}\n")
    daemon: Daemon = start_daemon(home_dir)
    results: list[Result] = []
    try:
        with Connection(daemon.endpoint, keys_for(daemon.home, "bench")) as conn:
            conn.hello(speak=False)
            for k, (item, pcm) in enumerate(items):
                results.append(run_item(conn, item, pcm, f"c{k}"))
    finally:
        daemon.stop()
    firsts = [r for r in results if r.ack_ms and r.endpoint_ms]
    total = [r.endpoint_ms[0] + r.ack_ms[0] for r in firsts]
    split = [r for r in results if r.turns > 1]
    return {
        "continuation_ms": continuation_ms,
        "commands": len(results),
        "split": len(split),
        "agent_verb_right": sum(r.agent_verb_right for r in results),
        "endpoint_ms": _p([r.endpoint_ms[0] for r in firsts]),
        "ack_ms": _p([r.ack_ms[0] for r in firsts]),
        "speech_end_to_answer_ms": _p(total),
        "items": [asdict(r) for r in results],
    }


def _p(values: list[int]) -> dict[str, float | None]:
    return {"p50": pct(values, 50), "p95": pct(values, 95), "n": len(values)}


def markdown(report: dict[str, Any]) -> str:
    rows = [
        f"Run {report['when']} on commit `{report['commit']}`; {report['commands']} commands, "
        f"piper joe, a {report['gap_ms']} ms pause after the addressing words, real time.",
        "",
        "| daemon | split into 2+ turns | first draft: agent and verb right | endpoint p50/p95 |"
        " ack p50/p95 | end of speech → answer p50/p95 |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for run in report["runs"]:
        name = f"window {run['continuation_ms']} ms" if run["continuation_ms"] else "no window"
        cells = [
            name,
            f"{run['split']} / {run['commands']}",
            f"{run['agent_verb_right']} / {run['commands']}",
            *(
                f"{run[k]['p50']:.0f} / {run[k]['p95']:.0f}" if run[k]["n"] else "–"
                for k in ("endpoint_ms", "ack_ms", "speech_end_to_answer_ms")
            ),
        ]
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows) + "\n"


def main() -> None:
    from benchmarks.understanding import _commit

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=24, help="the first N commands (default 24)")
    ap.add_argument("--gap-ms", type=int, default=600)
    ap.add_argument("--out", type=Path, default=Path("docs/bench/continuation.json"))
    ap.add_argument("--md", type=Path, default=Path("docs/bench/continuation.md"))
    args = ap.parse_args()
    chosen = list(COMMANDS)[: args.limit]
    items = [(item, render_paused(item.text, args.gap_ms)) for item in chosen]
    with tempfile.TemporaryDirectory() as tmp:
        runs = [run_daemon(Path(tmp), ms, items) for ms in (700, 0)]
    report = {
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "commit": _commit(),
        "commands": len(items),
        "gap_ms": args.gap_ms,
        "runs": runs,
    }
    args.out.write_text(json.dumps(report, indent=1) + "\n")
    args.md.write_text(markdown(report))
    print(markdown(report))


if __name__ == "__main__":
    main()
