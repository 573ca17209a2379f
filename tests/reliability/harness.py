"""The crash-consistency harness: a real daemon process, SIGKILLed at random.

A client drives a random mix of typed turns, spoken-style replies ("yes",
"no"), confirms (some with edits), rejects and cancels at random speeds. The
daemon is killed with SIGKILL at random moments, restarted on the same home
and port, and the client resumes its session and re-sends the message that
was in flight with the same id (as a real client retries). Every
acknowledgement the client ever received is kept in `Acks`.

`check` is the independent referee: it reads `vac.db` with plain sqlite3 and
JSON (no vac code) and compares it with the acknowledgements. The promise:
0 acknowledged decisions lost, 0 applied twice.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import wave
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vac.client.connection import Connection, Timeout, keys_for
from vac.home import Home
from vac.protocol.errors import ProtocolError
from vac.protocol.messages import (
    AudioInputChunk,
    AudioInputCommit,
    AudioInputStart,
    Error,
    HelloOk,
    Inbound,
    Negotiation,
    ObjectiveConfirm,
    ObjectiveConfirmed,
    ObjectiveDraft,
    ObjectiveReject,
    ObjectiveRejected,
    OutboundMessage,
    TextInput,
    TurnCancel,
    TurnDone,
)
from vac.protocol.objective_lifecycle import ANSWERS

VAC = [sys.executable, "-m", "vac.cli"]
# Where a steward's confirm leaves an objective: the negotiation answers in
# the same decision, so the stored status is the answer's (PROTOCOL §9).
CONFIRMED_STATES = frozenset({"confirmed", *ANSWERS.values()})
TEXT_ONLY_TOML = "[stt]\nenabled = false\n\n[tts]\nenabled = false\n"
COMMANDS = (
    "ask Kofi to build a bench by the pond by tomorrow",
    "tell Zuri to repair the garden gate",
    "have Tariq investigate the noise in the barn",
    "ask Abeni to map the grove path by friday",
    "ask Imani to water the tomatoes this evening",
    "tell Kofi to sweep the porch",
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Daemon:
    """`vac daemon` as a real process on a fixed port (so clients can come back)."""

    def __init__(self, home: Home, port: int, log_path: Path) -> None:
        self.home = home
        self.endpoint = f"tcp://127.0.0.1:{port}"
        self.proc: subprocess.Popen[str] | None = None
        self.log_path = log_path  # outside the home: the home's disk may be full
        self._readies = 0

    def start(self, timeout_s: float = 120.0) -> None:
        log = open(self.log_path, "a")  # noqa: SIM115 - the child owns it
        self.proc = subprocess.Popen(
            [*VAC, "daemon", "--home", str(self.home.root), "--endpoint", self.endpoint],
            stderr=log,
            stdout=subprocess.DEVNULL,
            text=True,
        )
        log.close()
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"daemon exited {self.proc.returncode}: {self.tail()}")
            if self._ready():
                return
            time.sleep(0.02)
        raise AssertionError("daemon never became ready: " + self.tail())

    def _ready(self) -> bool:
        # The log is appended across restarts: count "ready" lines.
        text = self.log_path.read_text(errors="replace")
        return text.count('"event": "ready"') > self._readies

    def tail(self) -> str:
        return self.log_path.read_text(errors="replace")[-3000:]

    def kill(self, sig: int = signal.SIGKILL) -> None:
        assert self.proc is not None
        self._readies = self.log_path.read_text(errors="replace").count('"event": "ready"')
        self.proc.send_signal(sig)
        self.proc.wait(timeout=30)

    def stop(self) -> int:
        if self.proc is None or self.proc.poll() is not None:
            return self.proc.returncode if self.proc else 0
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout=30)


@dataclass
class Acks:
    """Everything the client was told, as the referee needs it."""

    drafts: dict[str, str] = field(default_factory=dict)  # objective id -> message id
    confirmed: set[str] = field(default_factory=set)
    rejected: set[str] = field(default_factory=set)
    decisions: dict[str, str] = field(default_factory=dict)  # objective id -> decision
    by_id: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # msg id -> acks
    storage_errors: int = 0
    replays: int = 0
    replay_mismatches: list[str] = field(default_factory=list)

    def note(self, msg: OutboundMessage, ref_of_turn: dict[str, str]) -> None:
        ref = msg.ref or ref_of_turn.get(getattr(msg, "turn", None) or "", "")
        ack: tuple[str, str] | None = None
        match msg:
            case ObjectiveDraft(objective=obj):
                self.drafts[obj.id] = ref
                ack = ("draft", obj.id)
            case ObjectiveConfirmed(objective_id=oid):
                self.confirmed.add(oid)
                ack = ("confirmed", oid)
            case ObjectiveRejected(objective_id=oid):
                self.rejected.add(oid)
                ack = ("rejected", oid)
            case Negotiation(objective_id=oid, decision=decision):
                self.decisions[oid] = decision
                ack = ("negotiation", f"{oid}:{decision}")
            case Error(code="provider_unavailable"):
                self.storage_errors += 1
        if ack is not None and ref:
            self.by_id.setdefault(ref, []).append(ack)


@dataclass
class Figures:
    kills: int = 0
    messages: int = 0
    restarts: int = 0


class Driver:
    """One steward, one session, resumed across every restart."""

    def __init__(
        self,
        daemon: Daemon,
        rng: random.Random,
        principal: str = "alice",
        voices: list[bytes] | None = None,
    ) -> None:
        self.daemon = daemon
        self.voices = voices or []  # PCM of spoken commands: spoken commits when given
        self.rng = rng
        self.principal = principal
        self.acks = Acks()
        self.figures = Figures()
        self.session: str | None = None
        self.conn: Connection | None = None
        self.pending: list[str] = []
        self.turn_ref: dict[str, str] = {}
        self.in_flight: Inbound | None = None
        self.last_sent: Inbound | None = None
        self.last_turn: str | None = None

    # -- connection ------------------------------------------------------

    def connect(self) -> None:
        if self.conn is not None:
            self.conn.close()
        conn = Connection(self.daemon.endpoint, keys_for(self.daemon.home, self.principal))
        ok = conn.hello(resume=self.session, timeout_s=20.0)
        assert isinstance(ok, HelloOk)
        if self.session is not None:
            assert ok.resumed and ok.session == self.session, ok
        self.session = ok.session
        self.pending = [o.id for o in ok.pending]
        self.conn = conn

    # -- traffic -----------------------------------------------------------

    def _send(self, msg: Inbound) -> None:
        assert self.conn is not None
        self.in_flight = self.last_sent = msg
        self.figures.messages += 1
        self.conn.send(msg)

    def _read(self, quiet_s: float) -> None:
        """Take what the daemon sent within `quiet_s` of silence."""
        assert self.conn is not None
        for msg in self.conn.drain(quiet_s):
            self._take(msg)

    def _answered(self, msg_id: str) -> bool:
        """Whether this connection has seen the start of an answer to `msg_id`."""
        assert self.conn is not None
        return any(m.ref == msg_id or isinstance(m, TurnDone) for m in self.conn.received)

    def _take(self, msg: OutboundMessage) -> None:
        turn = getattr(msg, "turn", None)
        if msg.ref is not None and turn:
            self.turn_ref[turn] = msg.ref
        self.acks.note(msg, self.turn_ref)
        match msg:
            case ObjectiveDraft(objective=obj):
                self.pending.append(obj.id)
            case ObjectiveConfirmed(objective_id=oid) | ObjectiveRejected(objective_id=oid):
                if oid in self.pending:
                    self.pending.remove(oid)
            case TurnDone(turn=t):
                self.last_turn = t
            case _:
                pass
        if isinstance(msg, TurnDone):
            self.in_flight = None

    def step(self) -> None:
        """One random action, at a random speed."""
        assert self.conn is not None
        r = self.rng.random()
        mid = self.conn.next_id()
        if self.voices and self.rng.random() < 0.2:
            self._speak(self.rng.choice(self.voices))
        elif r < 0.35 or not self.pending:
            self._send(TextInput(id=mid, text=self.rng.choice(COMMANDS)))
        elif r < 0.55:
            oid = self.rng.choice(self.pending)
            edits = {"priority": self.rng.randint(0, 100)} if self.rng.random() < 0.3 else None
            self._send(ObjectiveConfirm(id=mid, objective_id=oid, edits=edits))
        elif r < 0.72:
            self._send(ObjectiveReject(id=mid, objective_id=self.rng.choice(self.pending)))
        elif r < 0.85:
            self._send(TextInput(id=mid, text=self.rng.choice(("yes", "no", "do it", "cancel"))))
        elif self.last_turn is not None:
            self._send(TurnCancel(id=mid, turn=self.last_turn))
        else:
            self._send(TextInput(id=mid, text=self.rng.choice(COMMANDS)))
        # Random speed: back to back, a little later, or after the answer.
        self._read(self.rng.choice((0.0, 0.0, 0.005, 0.02, 0.1)))

    def _speak(self, pcm: bytes) -> None:
        """A spoken command: 20 ms chunks as fast as they go, then a commit."""
        assert self.conn is not None
        stream = self.conn.next_id()
        self.conn.send(
            AudioInputStart(
                id=self.conn.next_id(),
                stream=stream,
                encoding="pcm_s16le",
                rate=16000,
                channels=1,
                mode="push_to_talk",
            )
        )
        seq = 0
        for seq, off in enumerate(range(0, len(pcm), 640)):
            self.conn.send(
                AudioInputChunk(id=self.conn.next_id(), stream=stream, seq=seq),
                pcm[off : off + 640],
            )
        self._send(AudioInputCommit(id=self.conn.next_id(), stream=stream, last_seq=seq))

    def drive_for(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.step()

    def after_restart(self) -> None:
        """Resume and send the last message again, with the same id.

        A client retries what was in flight; the last message of all is sent
        again even when it was answered, so every kill also tests that a
        stored outcome is answered, never executed twice.
        """
        self.connect()
        retry = self.in_flight or self.last_sent
        if retry is None:
            return
        before = list(self.acks.by_id.get(retry.id, []))
        assert self.conn is not None
        self.conn.send(retry)
        self.acks.replays += 1
        # A replayed outcome has no turn.done; a fresh run may take a while.
        deadline = time.monotonic() + 5.0
        while time.monotonic() < deadline and not self._answered(retry.id):
            self._read(0.05)
        self._read(0.2)
        got = self.acks.by_id.get(retry.id, [])[len(before) :]
        # A stored outcome is answered again, never executed differently.
        if any(ack not in got for ack in before):
            self.acks.replay_mismatches.append(f"{retry.id}: had {before}, got {got}")
        self.in_flight = None


def run_with_kills(
    home: Home,
    log_path: Path,
    *,
    kills: int,
    seed: int,
    max_gap_s: float = 0.4,
    principal: str = "alice",
    disk: Any = None,
    voices: list[bytes] | None = None,
) -> tuple[Driver, Daemon]:
    """Drive, kill -9 at random moments, restart, resume; returns for `check`.

    With `disk` (a `FullDisk`), the file system is filled to the last byte
    each time the daemon is up: it starts with room, then runs out.
    """
    rng = random.Random(seed)
    daemon = Daemon(home, free_port(), log_path)
    daemon.start()
    driver = Driver(daemon, rng, principal, voices)
    driver.connect()  # a new session needs a write: made while there is room
    if disk is not None:
        disk.fill()
        disk.free(65_536)
        real_start = daemon.start

        def start_then_fill(timeout_s: float = 120.0) -> None:
            disk.free()
            real_start(timeout_s)
            disk.fill()
            # Sometimes a little room: a few writes land, then the disk is full.
            disk.free(rng.choice((0, 0, 16_384, 65_536)))

        daemon.start = start_then_fill  # type: ignore[method-assign]
    try:
        for _ in range(kills):
            driver.drive_for(rng.uniform(0.0, max_gap_s))
            daemon.kill()
            driver.figures.kills += 1
            # What the client had in its socket before the kill still counts.
            with contextlib.suppress(Timeout, ProtocolError):
                driver._read(0.05)
            daemon.start()
            driver.figures.restarts += 1
            driver.after_restart()
        driver.drive_for(0.3)
        driver._read(0.3)
    finally:
        if driver.conn is not None:
            driver.conn.close()
        daemon.stop()
        if disk is not None:
            disk.free()
    return driver, daemon


@dataclass
class Verdict:
    lost: list[str]
    applied_twice: list[str]
    checked: int

    @property
    def ok(self) -> bool:
        return not self.lost and not self.applied_twice


def check(db_path: Path, acks: Acks) -> Verdict:
    """Compare every acknowledgement with the event log after the last restart."""
    db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        rows = db.execute("SELECT id, state, body, origin FROM objectives").fetchall()
    finally:
        db.close()
    state = {r[0]: r[1] for r in rows}
    body = {r[0]: json.loads(r[2]) for r in rows}
    lost: list[str] = []
    for oid in acks.drafts:
        if oid not in state:
            lost.append(f"draft {oid} acknowledged but not in the event log")
    for oid in acks.confirmed:
        if state.get(oid) not in CONFIRMED_STATES:
            lost.append(f"confirm of {oid} acknowledged, event log says {state.get(oid)}")
        elif not body[oid]["objective"]["confirmed_by_steward"]:
            lost.append(f"confirm of {oid} acknowledged, stored body not confirmed")
    for oid in acks.rejected:
        if state.get(oid) != "rejected":
            lost.append(f"reject of {oid} acknowledged, event log says {state.get(oid)}")
    for oid, decision in acks.decisions.items():
        if state.get(oid) != ANSWERS[decision]:
            lost.append(f"{decision} of {oid} acknowledged, event log says {state.get(oid)}")
    twice: list[str] = []
    both = acks.confirmed & acks.rejected
    twice += [f"{oid} acknowledged as confirmed and as rejected" for oid in sorted(both)]
    origins = Counter(r[3] for r in rows if r[3] is not None)
    twice += [f"message {m} made {n} objectives" for m, n in origins.items() if n > 1]
    twice += acks.replay_mismatches
    checked = len(acks.drafts) + len(acks.confirmed) + len(acks.rejected) + len(acks.decisions)
    return Verdict(lost, twice, checked)


def text_only_home(root: Path, *, voice: bool = False) -> Home:
    """A home with alice enrolled; text-only unless `voice` (the real models)."""
    from vac.daemon import keys

    home = Home(root)
    keys.init_server(home)
    keys.enroll(home, "alice")
    if not voice:
        home.config_file.write_text(TEXT_ONLY_TOML)
    return home


def spoken_commands() -> list[bytes]:
    """The project's fixture commands (and a "yes"), as 16 kHz PCM."""
    audio = Path(__file__).resolve().parents[2] / "fixtures" / "audio"
    names = ("kofi_build_bench.joe.wav", "tariq_investigate_barn.joe.wav", "yes.joe.wav")
    out = []
    for name in names:
        with wave.open(str(audio / name), "rb") as w:
            out.append(w.readframes(w.getnframes()))
    return out


def long_form_kills() -> int:
    """`VAC_CRASH_KILLS=300 make test` runs the long form."""
    return int(os.environ.get("VAC_CRASH_KILLS", "0"))


def figures_of(driver: Driver, verdict: Verdict) -> dict[str, Any]:
    return {
        "kills": driver.figures.kills,
        "messages": driver.figures.messages,
        "acknowledgements_checked": verdict.checked,
        "replays": driver.acks.replays,
        "storage_errors": driver.acks.storage_errors,
        "lost": len(verdict.lost),
        "applied_twice": len(verdict.applied_twice),
    }
