"""`vac talk` without a session to be had, or after the daemon ended it.

The client runs as a subprocess with piped stdin (line mode) on the audio
stack (it needs devices to start at all), against a real text-only daemon
process on loopback: nothing here needs the models. What it must do is what
`vac say` does in the same case: the same one line on stderr and exit 3 — no
daemon, a server key that does not match, a key that is not enrolled, no
answer within `--timeout`, or a `bye` from the daemon; a daemon killed
mid-session (no `bye`) is noticed by its unanswered pings. `--json` prints
the daemon's events as JSON lines, as `vac transport --json` does.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest

from tests.audio_stack.pulse import PulseStack
from tests.audio_stack.talk import portaudio_problem, start_talk
from tests.audio_stack.tmux import TmuxServer
from tests.cli.test_cli_as_a_user import SAY, free_port, make_home, one_line, vac
from tests.daemon.test_process import DaemonProcess
from vac.home import Home

pytestmark = pytest.mark.slow
VAC = [sys.executable, "-m", "vac.cli"]
# A hang (the bug this guards against) fails the test instead of stalling it.
HANG_S = 30.0


@pytest.fixture(autouse=True)
def _devices() -> None:
    problem = portaudio_problem()
    if problem is not None:
        pytest.skip(problem)


@pytest.fixture(scope="module")
def text_daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    root = make_home(tmp_path_factory.mktemp("talk-conn") / "home", "alice")
    d = DaemonProcess(Home(root))
    try:
        yield root, d.endpoint
    finally:
        d.stop()


def talk(
    stack: PulseStack, home: Path, *args: str, stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*VAC, "talk", "--home", str(home), *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=stack.env,
        timeout=HANG_S,
        check=False,
    )


class Talk:
    """A running `vac talk` whose stdout is read line by line as it comes."""

    def __init__(self, stack: PulseStack, home: Path, *args: str) -> None:
        self.proc = subprocess.Popen(
            [*VAC, "talk", "--home", str(home), *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=stack.env,
        )
        self.stdout: list[str] = []
        self._lines: queue.Queue[str | None] = queue.Queue()
        assert self.proc.stdout is not None
        threading.Thread(target=self._read, args=(self.proc.stdout,), daemon=True).start()

    def _read(self, out: IO[str]) -> None:
        for line in out:
            self._lines.put(line)
        self._lines.put(None)

    def wait_for(self, text: str, timeout_s: float = HANG_S) -> str:
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"{text!r} not seen: {self.stdout}") from None
            if line is None:
                raise AssertionError(f"{text!r} not seen before the end: {self.stdout}")
            self.stdout.append(line)
            if text in line:
                return line

    def type_line(self, text: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def finish(self) -> subprocess.CompletedProcess[str]:
        """Its exit, stdin left open (its end would quit), with everything it wrote."""
        try:
            self.proc.wait(timeout=HANG_S)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise AssertionError(f"vac talk did not exit: {self.stdout}") from None
        assert self.proc.stdin is not None and self.proc.stderr is not None
        self.proc.stdin.close()
        err = self.proc.stderr.read()
        while (line := self._lines.get(timeout=5)) is not None:
            self.stdout.append(line)
        out = "".join(self.stdout)
        return subprocess.CompletedProcess(self.proc.args, self.proc.returncode, out, err)


def refused_server_key(tmp_path: Path) -> list[str]:
    other = tmp_path / "other"
    assert vac("keys", "init", home=other).returncode == 0
    return ["--server-key", str(other / "keys" / "server.key")]


def unenrolled_key(tmp_path: Path) -> list[str]:
    laptop = tmp_path / "laptop"
    assert vac("keys", "new", "--out", str(laptop)).returncode == 0
    return ["--key", str(next(laptop.glob("*.key_secret")))]


@pytest.mark.parametrize("case", ["no daemon", "wrong server key", "key not enrolled"])
def test_no_session_is_the_line_vac_say_prints_and_exit_3(
    case: str, text_daemon: tuple[Path, str], audio_stack: PulseStack, tmp_path: Path
) -> None:
    home, endpoint = text_daemon
    args = {
        "no daemon": lambda: ["--connect", f"tcp://127.0.0.1:{free_port()}"],
        "wrong server key": lambda: ["--connect", endpoint, *refused_server_key(tmp_path)],
        "key not enrolled": lambda: ["--connect", endpoint, *unenrolled_key(tmp_path)],
    }[case]()
    t0 = time.monotonic()
    # Typed before any session: held, never sent into nothing.
    res = talk(audio_stack, home, *args, "--timeout", "5", stdin=SAY + "\n")
    took_s = time.monotonic() - t0
    said = one_line(vac("say", SAY, *args, "--timeout", "5", home=home), 3)
    assert one_line(res, 3) == said
    assert "connected as" not in res.stdout and "handshake_required" not in res.stdout
    assert took_s < 15


def test_timeout_bounds_the_wait_and_q_always_quits(
    text_daemon: tuple[Path, str], audio_stack: PulseStack
) -> None:
    home, _ = text_daemon
    with socket.socket() as silent:  # takes the connection, never says a word
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        args = ["--connect", f"tcp://127.0.0.1:{silent.getsockname()[1]}", "--timeout", "2"]
        t0 = time.monotonic()
        res = talk(audio_stack, home, *args, stdin=SAY + "\n")
        took_s = time.monotonic() - t0
        said = one_line(vac("say", SAY, *args, home=home), 3)
        assert one_line(res, 3) == said and "never finished the handshake" in said
        assert took_s < 12
        quit_early = talk(audio_stack, home, *args[:-2], stdin="q\n")  # the default 30 s
        assert quit_early.returncode == 0 and quit_early.stdout.splitlines()[-1] == "bye"


def test_full_screen_says_connecting_q_quits_and_no_daemon_is_exit_3(
    text_daemon: tuple[Path, str], tmux_server: TmuxServer
) -> None:
    home = Home(text_daemon[0])
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        waiting = start_talk(tmux_server, home, f"tcp://127.0.0.1:{silent.getsockname()[1]}")
        waiting.wait_for("connecting", timeout_s=HANG_S)
        waiting.send_keys("q")  # the single key of the full screen, before any session
        assert waiting.wait_exit(timeout_s=10) == 0, waiting.stderr_tail()
    nobody = f"tcp://127.0.0.1:{free_port()}"
    down = start_talk(tmux_server, home, nobody, name="down")
    assert down.wait_exit(timeout_s=HANG_S) == 3
    (line,) = down.stderr_tail().strip().splitlines()[-1:]
    assert line.startswith(f"vac: no daemon at {nobody}"), down.stderr_tail()


def test_a_revoked_key_ends_with_exit_3(
    text_daemon: tuple[Path, str], audio_stack: PulseStack, tmp_path: Path
) -> None:
    home, endpoint = text_daemon
    assert vac("keys", "enroll", "bob", home=home).returncode == 0
    kept = tmp_path / "bob.key_secret"  # a copy, as a client machine would hold
    kept.write_bytes((home / "clients" / "bob.key_secret").read_bytes())
    client = Talk(audio_stack, home, "--connect", endpoint, "--key", str(kept))
    client.wait_for("connected as bob")
    assert vac("keys", "revoke", "bob", home=home).returncode == 0
    client.type_line(SAY)  # the revocation is noticed on the next message
    res = client.finish()
    assert one_line(res, 3) == "vac: the daemon ended the session (this key was revoked)"


def test_a_daemon_shutting_down_ends_with_exit_3(audio_stack: PulseStack, tmp_path: Path) -> None:
    home = make_home(tmp_path / "home", "alice")
    daemon = DaemonProcess(Home(home))
    try:
        client = Talk(audio_stack, home, "--connect", daemon.endpoint)
        client.wait_for("connected as alice")
    finally:
        assert daemon.stop() == 0  # SIGTERM: bye {shutdown} to every session
    res = client.finish()
    assert one_line(res, 3) == "vac: the daemon ended the session (the daemon is shutting down)"


def killable_daemon(home: Path) -> tuple[subprocess.Popen[str], str]:
    """A text-only daemon in a process group of its own (to SIGKILL), and its endpoint."""
    proc = subprocess.Popen(
        [*VAC, "daemon", "--home", str(home), "--endpoint", "tcp://127.0.0.1:*"],
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert proc.stderr is not None
    for line in proc.stderr:
        if json.loads(line).get("event") == "ready":
            return proc, json.loads(line)["endpoint"]
    proc.wait(timeout=HANG_S)
    raise AssertionError("the daemon never said ready")


def test_a_daemon_killed_without_bye_ends_with_exit_3(
    audio_stack: PulseStack, tmp_path: Path
) -> None:
    home = make_home(tmp_path / "home", "alice")
    with (home / "vac.toml").open("a") as toml:
        toml.write("\n[daemon]\nheartbeat_ms = 1000\n")  # pings every 0.5 s
    daemon, endpoint = killable_daemon(home)
    try:
        client = Talk(audio_stack, home, "--connect", endpoint, "--timeout", "2")
        client.wait_for("connected as alice")
        time.sleep(1.5)  # pings answered meanwhile: the session stays
        assert client.proc.poll() is None
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(daemon.pid, signal.SIGKILL)  # no bye: gone, as a machine pulled
        daemon.wait(timeout=HANG_S)
        assert daemon.stderr is not None
        daemon.stderr.close()
    t0 = time.monotonic()
    res = client.finish()
    took_s = time.monotonic() - t0
    line = one_line(res, 3)
    assert line.startswith(f"vac: no answer from the daemon at {endpoint} for 2 s"), line
    assert took_s < 8, took_s  # the bound is max(2 × heartbeat_ms, --timeout) = 2 s


def test_json_prints_every_event_as_a_json_line(
    text_daemon: tuple[Path, str], audio_stack: PulseStack
) -> None:
    home, endpoint = text_daemon
    client = Talk(audio_stack, home, "--connect", endpoint, "--json")
    client.wait_for('"type": "hello.ok"')
    client.type_line(SAY)
    client.wait_for('"type": "turn.done"')
    client.type_line("q")
    res = client.finish()
    assert res.returncode == 0, res.stderr
    events = [json.loads(line) for line in res.stdout.splitlines()]  # nothing else on stdout
    kinds = [e["type"] for e in events]
    assert kinds[0] == "hello.ok" and events[0]["principal"] == "alice"
    assert {"transcript.final", "objective.draft", "turn.done"} <= set(kinds)
    assert all(isinstance(e["_recv_ms"], int) for e in events)  # as `vac transport --json`
    # The client's own lines are for the person, on stderr.
    assert "connected as alice" in res.stderr and res.stderr.splitlines()[-1] == "bye"
