"""The understanding benchmark: does vac understand what the household says?

Run: `python -m benchmarks.understanding --split both` (or `make bench-understanding`).
What it measures and why: docs/understanding.md.

Every utterance of `benchmarks/understanding_corpus.py` is rendered with
several voices (espeak-ng variants, the daemon's own piper voice, the piper
voice with noise at 15 dB SNR), cached under `benchmarks/.cache/` (git-ignored,
never committed), and streamed to a real `vac daemon` subprocess over the real
client, as a microphone client would. Each command is also typed once
(`text.input`), the typed baseline. What the daemon answers is scored against
the item's expected meaning; nothing in here knows how the daemon decides.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any, Final

import numpy as np
from benchmarks.understanding_corpus import (
    PRIORITY_BANDS,
    REPLY_SETUP,
    Item,
    resolve_deadline,
    split_items,
)

from vac.child_daemon import daemon_argv, ending_on_signals
from vac.client.connection import Connection, Timeout, keys_for
from vac.daemon import keys
from vac.home import Home
from vac.protocol.messages import (
    AudioInputChunk,
    AudioInputCommit,
    AudioInputDone,
    AudioInputStart,
    Error,
    ObjectiveClarify,
    ObjectiveConfirmed,
    ObjectiveDraft,
    ObjectiveReject,
    ObjectiveRejected,
    OutboundMessage,
    TextInput,
    TranscriptFinal,
    TurnDone,
)
from vac.speech.wer import word_error_rate

ROOT: Final = Path(__file__).resolve().parents[1]
CACHE: Final = ROOT / "benchmarks" / ".cache" / "understanding"
RATE_HZ: Final = 16_000
LEAD_MS: Final = 250
TRAIL_MS: Final = 250
PAUSE_MS: Final = 300  # the natural pause before commit in --realtime
TYPED: Final = "typed"
DEFAULT_VOICES: Final = (
    "espeak-en-us",
    "espeak-en-gb-x-rp",
    "espeak-en-us+f3",
    "joe",
    "joe+pink15",
)
FIELDS: Final = ("agent", "verb", "target", "deadline", "priority", "autonomy", "boundary")
DEFAULT_LINE_REF: Final = "forbidden-line:respect-agent-autonomy"
TURN_TIMEOUT_S: Final = 60.0


# --- rendering ----------------------------------------------------------------


def _noise(kind: str, n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    white = rng.standard_normal(n)
    if kind == "white":
        return white
    # Pink (1/f power): shape white noise in the frequency domain.
    spectrum = np.fft.rfft(white)
    freqs = np.fft.rfftfreq(n)
    freqs[0] = freqs[1] if n > 1 else 1.0
    return np.asarray(np.fft.irfft(spectrum / np.sqrt(freqs), n))


def noise_scale(speech: np.ndarray, noise: np.ndarray, snr_db: float) -> float:
    """The factor that puts `noise` `snr_db` below the power of `speech`."""
    p_speech = float(np.mean(speech.astype(np.float64) ** 2))
    p_noise = float(np.mean(noise.astype(np.float64) ** 2)) or 1.0
    return float(np.sqrt(p_speech / (p_noise * 10 ** (snr_db / 10))))


_NOISY: Final = re.compile(r"^(?P<base>[^+]+(?:\+f\d)?)\+(?P<kind>pink|white)(?P<snr>\d+)$")


def synthesize(text: str, voice: str) -> np.ndarray:
    """16 kHz mono float speech of `text` in `voice` (no padding)."""
    # The fixtures' own renderers (piper loads once); imported here because
    # importing piper is slow and the scoring functions do not need it.
    from fixtures.generate import espeak_say, joe_say

    noisy = _NOISY.match(voice)
    if noisy is not None:
        return synthesize(text, noisy["base"])  # the noise is added in render()
    if voice == "joe":
        return joe_say(text)
    if voice.startswith("espeak-"):
        return espeak_say(text, voice.removeprefix("espeak-"))
    raise ValueError(f"unknown voice {voice!r}")


def render(text: str, voice: str) -> bytes:
    """s16le PCM of `text` in `voice`, padded; cached by text + voice."""
    digest = hashlib.sha256(f"v1|{voice}|{text}".encode()).hexdigest()[:20]
    path = CACHE / f"{digest}.s16"
    if path.exists():
        return path.read_bytes()
    speech = synthesize(text, voice)
    lead = np.zeros(RATE_HZ * LEAD_MS // 1000, dtype=np.float32)
    trail = np.zeros(RATE_HZ * TRAIL_MS // 1000, dtype=np.float32)
    audio = np.concatenate([lead, speech, trail])
    noisy = _NOISY.match(voice)
    if noisy is not None:
        seed = int.from_bytes(hashlib.sha256(f"{voice}|{text}".encode()).digest()[:4], "big")
        noise = _noise(noisy["kind"], len(audio), seed)
        # The SNR is against the speech's own power; the noise runs through the pads too.
        scale = noise_scale(speech, noise, float(noisy["snr"]))
        audio = (audio + scale * noise).astype(np.float32)
    pcm = np.clip(np.round(audio * 32767.0), -32768, 32767).astype("<i2").tobytes()
    CACHE.mkdir(parents=True, exist_ok=True)
    ignore = CACHE.parent / ".gitignore"
    if not ignore.exists():
        ignore.write_text("# rendered benchmark audio: never committed\n*\n")
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(pcm)
    tmp.replace(path)
    return pcm


# --- the daemon -----------------------------------------------------------------


@dataclass
class Daemon:
    proc: subprocess.Popen[bytes]
    endpoint: str
    home: Home
    log: Path

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def start_daemon(tmp: Path, principal: str = "bench", config: str | None = None) -> Daemon:
    """A real `vac daemon` on a fresh home and a random port; its log goes to a file.
    `config` is the text of its vac.toml (the defaults when None)."""
    home = Home(tmp / "home")
    keys.init_server(home)
    keys.enroll(home, principal)
    if config is not None:
        home.config_file.write_text(config)
    log = tmp / "daemon.log"
    with log.open("wb") as sink:
        proc = subprocess.Popen(
            daemon_argv(home),
            stdout=subprocess.DEVNULL,
            stderr=sink,
        )
    deadline = time.monotonic() + 180
    try:
        while time.monotonic() < deadline:
            for line in log.read_text(errors="replace").splitlines():
                try:
                    event = json.loads(line)
                except ValueError:
                    continue
                if isinstance(event, dict) and event.get("event") == "ready":
                    return Daemon(proc, str(event["endpoint"]), home, log)
            if proc.poll() is not None:
                break
            time.sleep(0.1)
    except BaseException:  # Ctrl-C or SIGTERM while it starts: it goes too
        proc.kill()
        proc.wait()
        raise
    proc.kill()
    tail = log.read_text(errors="replace")[-2000:]
    raise RuntimeError(f"the daemon did not start:\n{tail}")


# --- one turn -----------------------------------------------------------------


@dataclass
class Outcome:
    """What the daemon answered to one utterance (or typed text)."""

    transcript: str | None = None
    confidence: float | None = None
    draft: dict[str, Any] | None = None  # the objective
    uncertain: list[str] = field(default_factory=list)
    summary: str | None = None
    clarify: str | None = None  # the reason
    question: str | None = None
    candidates: list[str] = field(default_factory=list)
    decision: str | None = None  # for replies: confirmed, rejected, clarify, draft, none
    status: str | None = None
    ack_ms: int | None = None
    latency_ms: dict[str, int] = field(default_factory=dict)  # every stage turn.done names
    input_done: str | None = None
    errors: list[str] = field(default_factory=list)


class Session:
    """One session on the benchmark's principal; every draft it sees is rejected."""

    def __init__(self, endpoint: str, home: Home, principal: str, *, realtime: bool) -> None:
        self.conn = Connection(endpoint, keys_for(home, principal))
        self.conn.hello(rate=16000, speak=False, client="vac-bench-understanding")
        self.realtime = realtime
        self.streams = 0

    def close(self) -> None:
        self.conn.bye()
        self.conn.close()

    def _send_paced(self, stream: str, pcm: bytes) -> int:
        conn = self.conn
        conn.send(
            AudioInputStart(
                id=conn.next_id(),
                stream=stream,
                encoding="pcm_s16le",
                rate=RATE_HZ,
                channels=1,
                mode="push_to_talk",
            )
        )
        if self.realtime:
            # 20 ms chunks in real time, then a 300 ms natural pause before commit.
            pcm = pcm + bytes(RATE_HZ * 2 * PAUSE_MS // 1000)
            size, pace = 640, 0.02
        else:
            size, pace = 3200, 0.0  # 100 ms chunks, all at once
        seq = 0
        t0 = time.monotonic()
        for seq, off in enumerate(range(0, len(pcm), size)):
            conn.send(
                AudioInputChunk(id=conn.next_id(), stream=stream, seq=seq), pcm[off : off + size]
            )
            if pace:
                time.sleep(max(0.0, t0 + (seq + 1) * pace - time.monotonic()))
        conn.send(AudioInputCommit(id=conn.next_id(), stream=stream, last_seq=seq))
        return seq

    def _collect(self, out: Outcome, *, stream: str | None) -> None:
        """Messages up to the turn's `turn.done` (or an input that started no turn)."""
        deadline = time.monotonic() + TURN_TIMEOUT_S
        while True:
            try:
                msg, _ = self.conn.recv(max(0.1, deadline - time.monotonic()))
            except Timeout:
                out.errors.append("timeout")
                return
            if self._note(out, msg):
                return
            if isinstance(msg, AudioInputDone) and msg.stream == stream:
                out.input_done = msg.reason
                if msg.turn is None:
                    return

    def _note(self, out: Outcome, msg: OutboundMessage) -> bool:
        """Record `msg`; True once the turn is done."""
        match msg:
            case TranscriptFinal():
                out.transcript, out.confidence = msg.text, msg.confidence
            case ObjectiveDraft():
                out.draft = _plain(msg.objective)
                out.summary = msg.preview.summary
                out.uncertain = [str(f) for f in getattr(msg.preview, "uncertain", []) or []]
                out.decision = out.decision or "draft"
            case ObjectiveClarify():
                out.clarify, out.question = msg.reason, msg.question
                out.candidates = [str(c) for c in getattr(msg, "candidates", []) or []]
                out.decision = out.decision or "clarify"
            case ObjectiveConfirmed():
                out.decision = "confirmed"
            case ObjectiveRejected():
                out.decision = "rejected"
            case Error():
                out.errors.append(msg.code)
            case TurnDone():
                out.status = msg.status
                out.ack_ms = msg.latency_ms.get("ack")
                out.latency_ms = dict(msg.latency_ms)
                return True
        return False

    def speak(self, pcm: bytes) -> Outcome:
        self.streams += 1
        stream = f"u{self.streams}"
        out = Outcome()
        self._send_paced(stream, pcm)
        self._collect(out, stream=stream)
        return out

    def type(self, text: str) -> Outcome:
        out = Outcome()
        self.conn.send(TextInput(id=self.conn.next_id(), text=text))
        self._collect(out, stream=None)
        return out

    def reject(self, objective_id: str) -> None:
        """Reject a draft the benchmark did not confirm (drafts must not pile up)."""
        self.conn.send(ObjectiveReject(id=self.conn.next_id(), objective_id=objective_id))
        self._collect(Outcome(), stream=None)


def _plain(obj: Any) -> dict[str, Any]:
    import msgspec

    return dict(msgspec.to_builtins(obj))


# --- scoring ------------------------------------------------------------------


def words(text: str) -> list[str]:
    """Lower-case words, punctuation stripped (the WER normalisation)."""
    return re.findall(r"[a-z0-9']+", text.lower().replace("’", "'"))


def wer(reference: str, hypothesis: str) -> float:
    return word_error_rate(" ".join(words(reference)), " ".join(words(hypothesis)))


# Irregular plural endings (singular, plural): fisherman/fishermen,
# supply/supplies, shelf/shelves, knife/knives.
_PLURAL_ENDINGS: Final = (("man", "men"), ("y", "ies"), ("f", "ves"), ("fe", "ves"))


def same_noun(a: str, b: str) -> bool:
    """Equal, or one is the other's plural: -s / -es, and the irregular endings."""
    if a == b or any(x + suffix == y for x, y in ((a, b), (b, a)) for suffix in ("s", "es")):
        return True
    return any(
        x.endswith(one) and y.endswith(many) and x[: -len(one)] == y[: -len(many)]
        for x, y in ((a, b), (b, a))
        for one, many in _PLURAL_ENDINGS
    )


def _contains(words_: Sequence[str], key: str) -> bool:
    return any(same_noun(key, w) for w in words_)


def target_right(expected: str, label: str) -> bool:
    """The expected key noun (its last word) is among the label's words, plural-blind."""
    return _contains(words(label), words(expected)[-1])


def priority_band(priority: int) -> str:
    for band, (low, high) in PRIORITY_BANDS.items():
        if low <= priority <= high:
            return band
    return "normal"


def boundary_present(objective: dict[str, Any]) -> bool:
    return any(line.get("value_ref") != DEFAULT_LINE_REF for line in objective["forbidden_lines"])


def fields_right(item: Item, objective: dict[str, Any] | None, today: date) -> dict[str, bool]:
    """Each of FIELDS right or wrong; no draft: all wrong."""
    if objective is None:
        return dict.fromkeys(FIELDS, False)
    want_deadline = resolve_deadline(item.deadline, today)
    got_deadline = objective.get("deadline")
    return {
        "agent": str(objective["agent"]).lower() == (item.agent or "").lower(),
        "verb": objective["verb"] == item.verb,
        "target": target_right(item.target or "", objective["target"]["label"]),
        "deadline": (
            got_deadline is None
            if want_deadline is None
            else got_deadline is not None and got_deadline[:10] == want_deadline.isoformat()
        ),
        "priority": priority_band(int(objective["priority"])) == item.priority,
        "autonomy": objective["autonomy"] == item.autonomy,
        "boundary": boundary_present(objective) == item.boundary,
    }


def location_right(item: Item, objective: dict[str, Any] | None) -> bool | None:
    """Whether a named place became a location constraint (None: the item names none)."""
    if item.location is None:
        return None
    if objective is None:
        return False
    places = [c["value"] for c in objective["constraints"] if c["kind"] == "location"]
    return any(_contains(words(p), item.location.lower()) for p in places)


def wrong_draft(right: dict[str, bool], uncertain: Sequence[str], drafted: bool) -> bool:
    """A draft whose agent or verb is wrong, and the preview does not flag that field."""
    if not drafted:
        return False
    return any(not right[f] and f not in uncertain for f in ("agent", "verb"))


def reply_right(item: Item, decision: str | None) -> bool:
    return (item.reply == "confirm" and decision == "confirmed") or (
        item.reply == "reject" and decision == "rejected"
    )


def heard_right(item: Item, transcript: str | None) -> bool:
    return transcript is not None and words(item.text) == words(transcript)


# --- a run ----------------------------------------------------------------------


@dataclass
class Record:
    split: str
    voice: str
    kind: str
    text: str
    outcome: Outcome
    right: dict[str, bool] | None = None
    location: bool | None = None
    wer: float | None = None
    ref_words: int = 0


def score(item: Item, split: str, voice: str, out: Outcome, today: date) -> Record:
    rec = Record(split, voice, item.kind, item.text, out)
    if voice != TYPED:
        rec.ref_words = len(words(item.text))
        rec.wer = wer(item.text, out.transcript or "")
    if item.kind == "command":
        rec.right = fields_right(item, out.draft, today)
        rec.location = location_right(item, out.draft)
    return rec


def run_item(session: Session, item: Item, voice: str) -> Outcome:
    if item.kind == "reply":
        setup = session.type(REPLY_SETUP)
        pending = setup.draft["id"] if setup.draft else None
        out = session.type(item.text) if voice == TYPED else session.speak(render(item.text, voice))
        if out.draft is not None:
            session.reject(out.draft["id"])  # the reply was heard as a new command
        if pending is not None and out.decision not in ("confirmed", "rejected"):
            session.reject(pending)
        return out
    out = session.type(item.text) if voice == TYPED else session.speak(render(item.text, voice))
    if out.draft is not None:
        session.reject(out.draft["id"])
    return out


def pct(values: Sequence[float], q: float) -> float | None:
    return float(np.percentile(values, q)) if values else None


def _share(hits: int, n: int) -> float | None:
    return round(hits / n, 3) if n else None


def metrics(records: Sequence[Record]) -> dict[str, Any]:
    """Every metric of docs/understanding.md over `records`."""
    commands = [r for r in records if r.kind == "command"]
    others = [r for r in records if r.kind == "other"]
    replies = [r for r in records if r.kind == "reply"]
    items = {it.text: it for it in split_items("both")}
    field_hits = sum(sum(r.right.values()) for r in commands if r.right)
    heard = [
        r for r in commands if r.outcome.transcript is not None and (r.wer == 0 or r.wer is None)
    ]
    wers = [r for r in records if r.wer is not None]
    cmd_wers = [r for r in commands if r.wer is not None]
    acks = [float(r.outcome.ack_ms) for r in records if r.outcome.ack_ms is not None]
    drafts = [r for r in commands if r.outcome.draft is not None]
    located = [r.location for r in commands if r.location is not None]
    return {
        "commands": len(commands),
        "fields_right": _share(field_hits, len(FIELDS) * len(commands)),
        "per_field": {
            f: _share(sum(1 for r in commands if r.right and r.right[f]), len(commands))
            for f in FIELDS
        },
        "whole_right": _share(
            sum(1 for r in commands if r.right and all(r.right.values())), len(commands)
        ),
        "agent_right": _share(
            sum(1 for r in commands if r.right and r.right["agent"]), len(commands)
        ),
        "location_right": _share(sum(located), len(located)),
        "drafted": _share(len(drafts), len(commands)),
        "clarified": _share(sum(1 for r in commands if r.outcome.clarify), len(commands)),
        "clarify_reasons": dict(Counter(r.outcome.clarify for r in commands if r.outcome.clarify)),
        "heard_right": len(heard),
        "clarify_when_heard_right": _share(sum(1 for r in heard if r.outcome.clarify), len(heard)),
        "wrong_drafts": _share(
            sum(
                1
                for r in commands
                if r.right
                and wrong_draft(r.right, r.outcome.uncertain, r.outcome.draft is not None)
            ),
            len(commands),
        ),
        "flagged_drafts": _share(sum(1 for r in drafts if r.outcome.uncertain), len(commands)),
        "wer": (
            round(
                sum(r.wer * r.ref_words for r in wers if r.wer is not None)
                / sum(r.ref_words for r in wers),
                3,
            )
            if wers and sum(r.ref_words for r in wers)
            else None
        ),
        "wer_commands": (
            round(
                sum(r.wer * r.ref_words for r in cmd_wers if r.wer is not None)
                / sum(r.ref_words for r in cmd_wers),
                3,
            )
            if cmd_wers and sum(r.ref_words for r in cmd_wers)
            else None
        ),
        "non_commands": len(others),
        "non_command_drafts": _share(sum(1 for r in others if r.outcome.draft), len(others)),
        "replies": len(replies),
        "reply_right": _share(
            sum(1 for r in replies if reply_right(items[r.text], r.outcome.decision)), len(replies)
        ),
        "reply_outcomes": dict(
            Counter(f"{items[r.text].reply}->{r.outcome.decision or 'none'}" for r in replies)
        ),
        "ack_p50_ms": _round(pct(acks, 50)),
        "ack_p95_ms": _round(pct(acks, 95)),
        "ack_n": len(acks),
        "errors": dict(Counter(e for r in records for e in r.outcome.errors)),
    }


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 1)


def reliability(records: Iterable[Record], bins: int = 10) -> list[dict[str, Any]]:
    """transcript.final.confidence vs "the draft's agent and verb are right", per bin."""
    rows = [
        {"low": i / bins, "high": (i + 1) / bins, "n": 0, "right": 0, "conf_sum": 0.0}
        for i in range(bins)
    ]
    for r in records:
        if r.kind != "command" or r.outcome.confidence is None or r.right is None:
            continue
        conf = r.outcome.confidence
        row = rows[min(bins - 1, int(conf * bins))]
        row["n"] += 1
        row["right"] += int(r.outcome.draft is not None and r.right["agent"] and r.right["verb"])
        row["conf_sum"] += conf
    return [
        {
            "low": row["low"],
            "high": row["high"],
            "n": row["n"],
            "accuracy": round(row["right"] / row["n"], 3) if row["n"] else None,
            "mean_confidence": round(row["conf_sum"] / row["n"], 3) if row["n"] else None,
        }
        for row in rows
    ]


def calibration_error(diagram: Sequence[dict[str, Any]]) -> float | None:
    total = sum(int(b["n"]) for b in diagram)
    if not total:
        return None
    gap = sum(float(b["n"] * abs(b["accuracy"] - b["mean_confidence"])) for b in diagram if b["n"])
    return round(gap / total, 3)


# --- reporting ------------------------------------------------------------------


def summarise(
    records: Sequence[Record], voices: Sequence[str], split_names: Sequence[str]
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for split in split_names:
        mine = [r for r in records if r.split == split]
        spoken = [r for r in mine if r.voice != TYPED]
        diagram = reliability(spoken)
        out[split] = {
            "voices": {v: metrics([r for r in mine if r.voice == v]) for v in voices},
            "spoken": metrics(spoken),
            "typed": metrics([r for r in mine if r.voice == TYPED]),
            "reliability": diagram,
            "calibration_error": calibration_error(diagram),
        }
    return out


COLUMNS: Final = (
    ("fields right", "fields_right", "pct"),
    ("whole right", "whole_right", "pct"),
    ("agent right", "agent_right", "pct"),
    ("WER", "wer", "num"),
    ("clarify when heard right", "clarify_when_heard_right", "pct"),
    ("wrong drafts", "wrong_drafts", "pct"),
    ("flagged", "flagged_drafts", "pct"),
    ("non-cmd drafts", "non_command_drafts", "pct"),
    ("yes/no right", "reply_right", "pct"),
    ("ack p50", "ack_p50_ms", "ms"),
    ("ack p95", "ack_p95_ms", "ms"),
)


def _cell(value: Any, how: str) -> str:
    if value is None:
        return "–"
    if how == "pct":
        return f"{100 * value:.0f}%"
    if how == "ms":
        return f"{value:.0f}"
    return f"{value:.2f}"


def markdown(summary: dict[str, Any], meta: dict[str, Any]) -> str:
    lines = [
        "# Understanding benchmark",
        "",
        f"Run {meta['started']} on commit `{meta['commit']}`, {meta['machine']}, "
        f"{meta['cpus']} cores; streaming {'in real time' if meta['realtime'] else 'at once'}; "
        f"{meta['wall_s']:.0f} s.",
        "",
    ]
    if meta.get("config"):
        lines += ["The daemon's vac.toml:", "", "```toml", meta["config"].strip(), "```", ""]
    for split, part in summary.items():
        head = part["spoken"]
        lines += [
            f"## {split}",
            "",
            f"{head['commands'] // max(1, len(part['voices']))} commands, "
            f"{head['non_commands'] // max(1, len(part['voices']))} non-commands, "
            f"{head['replies'] // max(1, len(part['voices']))} yes/no replies per voice.",
            "",
            "| voice | " + " | ".join(c[0] for c in COLUMNS) + " |",
            "|---|" + "---:|" * len(COLUMNS),
        ]
        rows = [
            *part["voices"].items(),
            ("**all spoken**", part["spoken"]),
            ("typed", part["typed"]),
        ]
        for name, m in rows:
            lines.append(
                f"| {name} | " + " | ".join(_cell(m.get(k), how) for _, k, how in COLUMNS) + " |"
            )
        lines += [
            "",
            "Per field, all spoken / typed:",
            "",
            "| field | spoken | typed |",
            "|---|---:|---:|",
        ]
        for f in FIELDS:
            lines.append(
                f"| {f} | {_cell(head['per_field'][f], 'pct')} | "
                f"{_cell(part['typed']['per_field'][f], 'pct')} |"
            )
        lines += [
            "",
            f"Clarify reasons (spoken): {_counts(head['clarify_reasons'])}. "
            f"Replies (spoken): {_counts(head['reply_outcomes'])}. "
            f"Location right (spoken / typed): {_cell(head['location_right'], 'pct')} / "
            f"{_cell(part['typed']['location_right'], 'pct')}. "
            f"Calibration error (ECE): {part['calibration_error']}.",
            "",
            "| confidence | n | agent+verb right |",
            "|---|---:|---:|",
        ]
        for b in part["reliability"]:
            lines.append(
                f"| {b['low']:.1f}–{b['high']:.1f} | {b['n']} | {_cell(b['accuracy'], 'pct')} |"
            )
        lines.append("")
    return "\n".join(lines)


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or "none"


def plot(summary: dict[str, Any], path: Path) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(matplotlib not installed: no plot; pip install -e '.[bench]')", file=sys.stderr)
        return False
    fig, axes = plt.subplots(
        2,
        len(summary),
        figsize=(5.5 * len(summary), 6.5),
        squeeze=False,
        gridspec_kw={"height_ratios": [3, 1]},
        sharex=True,
    )
    for col, (split, part) in enumerate(summary.items()):
        diagram = part["reliability"]
        centres = [(b["low"] + b["high"]) / 2 for b in diagram]
        ax, bars = axes[0][col], axes[1][col]
        ax.plot([0, 1], [0, 1], linestyle="--", color="grey", label="perfectly calibrated")
        ax.bar(
            centres,
            [b["accuracy"] or 0 for b in diagram],
            width=0.09,
            color="tab:blue",
            alpha=0.8,
            label="agent and verb right",
        )
        for c, b in zip(centres, diagram, strict=True):
            if b["n"]:
                ax.text(c, (b["accuracy"] or 0) + 0.02, f"n={b['n']}", ha="center", fontsize=7)
        ax.set_ylim(0, 1.08)
        ax.set_ylabel("share of commands")
        ax.set_title(f"{split}: ECE {part['calibration_error']}")
        ax.legend(loc="upper left", fontsize=8)
        bars.bar(centres, [b["n"] for b in diagram], width=0.09, color="tab:grey")
        bars.set_ylabel("count")
        bars.set_xlabel("transcript.final confidence")
        bars.set_xlim(0, 1)
    fig.suptitle("vac understanding: recogniser confidence vs the draft being right")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def _git(*args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()


def _commit() -> str:
    """HEAD, with `+dirty` when src/ has uncommitted changes (the code measured)."""
    try:
        head = _git("rev-parse", "--short", "HEAD")
        return head + ("+dirty" if _git("status", "--porcelain", "--", "src") else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def limited(items: list[Item], limit: int | None) -> list[Item]:
    """The first `limit` items, taken round-robin across kinds so every kind is in."""
    if limit is None:
        return items
    queues = {k: [it for it in items if it.kind == k] for k in ("command", "other", "reply")}
    out: list[Item] = []
    while len(out) < limit and any(queues.values()):
        for k in ("command", "other", "reply"):
            if queues[k] and len(out) < limit:
                out.append(queues[k].pop(0))
    return out


@dataclass(frozen=True)
class Options:
    split: str = "both"
    voices: tuple[str, ...] = DEFAULT_VOICES
    limit: int | None = None
    realtime: bool = False
    typed: bool = True
    out: Path | None = None
    md: Path | None = None
    png: Path | None = None
    quiet: bool = False
    config: Path | None = None  # the daemon's vac.toml (e.g. another [stt] beam_size)


def run(opts: Options) -> dict[str, Any]:
    split_names = ["dev", "heldout"] if opts.split == "both" else [opts.split]
    plan = {s: limited(split_items(s), opts.limit) for s in split_names}

    def log(line: str) -> None:
        if not opts.quiet:
            print(line, file=sys.stderr, flush=True)

    started = datetime.now().astimezone()
    commit = _commit()  # before the daemon starts: the code it runs
    config = opts.config.read_text() if opts.config is not None else None
    t0 = time.monotonic()
    n_render = sum(len(v) for v in plan.values()) * len(opts.voices)
    log(f"rendering {n_render} utterances (cached in {CACHE.relative_to(ROOT)})")
    for items in plan.values():
        for voice in opts.voices:
            for it in items:
                render(it.text, voice)
    records: list[Record] = []
    # SIGTERM ends the run through the `finally`s, as Ctrl-C does: the daemon
    # is stopped and its home removed (child_daemon.py).
    with ending_on_signals(), tempfile.TemporaryDirectory(prefix="vac-understanding-") as tmp:
        daemon = start_daemon(Path(tmp), config=config)
        try:
            voices = [*opts.voices, TYPED] if opts.typed else list(opts.voices)
            for split in split_names:
                for voice in voices:
                    session = Session(daemon.endpoint, daemon.home, "bench", realtime=opts.realtime)
                    try:
                        for n, item in enumerate(plan[split], 1):
                            out = run_item(session, item, voice)
                            records.append(score(item, split, voice, out, date.today()))
                            if n % 10 == 0 or n == len(plan[split]):
                                log(f"  {split} {voice}: {n}/{len(plan[split])}")
                    finally:
                        session.close()
        finally:
            daemon.stop()
    meta = {
        "started": started.isoformat(timespec="seconds"),
        "commit": commit,
        "machine": platform.platform(),
        "cpus": os.cpu_count(),
        "realtime": opts.realtime,
        "voices": list(opts.voices),
        "limit": opts.limit,
        "wall_s": round(time.monotonic() - t0, 1),
        "config": config or "",
        "split_sizes": {s: len(v) for s, v in plan.items()},
    }
    summary = summarise(records, list(opts.voices), split_names)
    result = {
        "meta": meta,
        "summary": summary,
        "records": [
            {**{k: v for k, v in asdict(r).items() if k != "outcome"}, **asdict(r.outcome)}
            for r in records
        ],
    }
    text = markdown(summary, meta)
    print(text)
    if opts.out:
        opts.out.parent.mkdir(parents=True, exist_ok=True)
        opts.out.write_text(json.dumps(result, indent=1) + "\n")
    if opts.md:
        opts.md.parent.mkdir(parents=True, exist_ok=True)
        opts.md.write_text(text + "\n")
    if opts.png:
        plot(summary, opts.png)
    return result


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m benchmarks.understanding", description=__doc__.split("\n\n")[0]
    )
    p.add_argument("--split", choices=("dev", "heldout", "both"), default="both")
    p.add_argument(
        "--voices",
        default=",".join(DEFAULT_VOICES),
        help="comma-separated: espeak-VOICE (see `espeak-ng --voices=en`), joe, "
        "VOICE+pinkNN / VOICE+whiteNN (noise at NN dB SNR)",
    )
    p.add_argument("--limit", type=int, default=None, help="items per split (every kind kept)")
    p.add_argument(
        "--realtime", action="store_true", help="stream in real time, 300 ms pause before commit"
    )
    p.add_argument("--no-typed", action="store_true", help="skip the typed baseline")
    p.add_argument("--out", type=Path, help="JSON results")
    p.add_argument("--md", type=Path, help="Markdown report")
    p.add_argument("--png", type=Path, help="reliability diagram")
    p.add_argument("--config", type=Path, help="the daemon's vac.toml (default: the defaults)")
    args = p.parse_args(argv)
    run(
        Options(
            split=args.split,
            voices=tuple(v.strip() for v in args.voices.split(",") if v.strip()),
            limit=args.limit,
            realtime=args.realtime,
            typed=not args.no_typed,
            out=args.out,
            md=args.md,
            png=args.png,
            config=args.config,
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
