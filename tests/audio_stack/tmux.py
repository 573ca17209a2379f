"""Driving a terminal program through tmux: keys in, the screen out.

A private tmux server (`tmux -S SOCKET`, no user config) runs each program in
a detached session of a fixed size (80x24 by default), so what a test reads
is what a user on a small terminal would see. The pane stays after the
program exits (`remain-on-exit`), so its last screen and exit status can
still be read; `wait_for` gives up early when the program died.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Final

POLL_S: Final = 0.05
_TMUX_TIMEOUT_S: Final = 10.0
_CONFIG: Final = "set -g remain-on-exit on\nset -g history-limit 20000\n"


class TmuxServer:
    """One tmux server on a private socket; sessions share its environment."""

    def __init__(self, root: Path, env: Mapping[str, str]) -> None:
        self.root = root
        self.socket = root / "tmux.sock"
        self.config = root / "tmux.conf"
        self.config.write_text(_CONFIG)
        self.env = dict(env)
        self.sessions: list[TmuxSession] = []

    def run(self, *args: str, check: bool = True) -> str:
        proc = subprocess.run(
            ["tmux", "-S", str(self.socket), "-f", str(self.config), *args],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=_TMUX_TIMEOUT_S,
        )
        if check and proc.returncode != 0:
            raise AssertionError(f"tmux {' '.join(args)}: {proc.stderr.strip()}")
        return proc.stdout

    def start(
        self,
        name: str,
        argv: Sequence[str],
        *,
        env: Mapping[str, str] | None = None,
        cwd: Path | None = None,
        width: int = 80,
        height: int = 24,
        stderr_path: Path | None = None,
    ) -> TmuxSession:
        """Run `argv` in a new detached session.

        `env` is set in the session on top of the server's environment (the
        audio stack's). With `stderr_path`, the program's stderr goes to that
        file instead of the screen (PortAudio's ALSA chatter, tracebacks).
        """
        command = "exec " + shlex.join(argv)
        if stderr_path is not None:
            command += f" 2>{shlex.quote(str(stderr_path))}"
        args = ["new-session", "-d", "-s", name, "-x", str(width), "-y", str(height)]
        for key, value in (env or {}).items():
            args += ["-e", f"{key}={value}"]
        if cwd is not None:
            args += ["-c", str(cwd)]
        self.run(*args, command)
        session = TmuxSession(self, name, stderr_path)
        self.sessions.append(session)
        return session

    def kill(self) -> None:
        self.run("kill-server", check=False)
        self.socket.unlink(missing_ok=True)


class TmuxSession:
    def __init__(self, server: TmuxServer, name: str, stderr_path: Path | None) -> None:
        self.server = server
        self.name = name
        self.stderr_path = stderr_path

    def send_keys(self, *keys: str) -> None:
        """tmux key names: "Enter", "C-c", "Up", or a word (each is looked up as a key)."""
        self.server.run("send-keys", "-t", self.name, *keys)

    def type(self, text: str) -> None:
        """Type `text` literally (no key-name lookup)."""
        self.server.run("send-keys", "-t", self.name, "-l", text)

    def type_line(self, text: str = "") -> None:
        """Type `text`, then Enter (an empty line is just Enter)."""
        if text:
            self.type(text)
        self.send_keys("Enter")

    def capture(self, *, history: bool = False) -> str:
        """The visible screen (or the whole scrollback), wrapped lines joined."""
        args = ["capture-pane", "-p", "-J", "-t", self.name]
        if history:
            args += ["-S", "-"]
        return self.server.run(*args)

    def status(self) -> tuple[bool, int | None]:
        """(dead, exit status) of the program in the pane; killed by signal N: -N.

        The status can lag the death by a moment (tmux sees the terminal
        close before it reaps the process): (True, None) until then.
        """
        fields = "#{pane_dead}:#{pane_dead_status}:#{pane_dead_signal}"
        out = self.server.run("display-message", "-p", "-t", self.name, fields).strip()
        dead, status, signal = [*out.split(":"), "", "", ""][:3]
        if dead != "1":
            return False, None
        if signal.isdigit() and signal != "0":
            return True, -int(signal)
        return True, int(status) if status.lstrip("-").isdigit() else None

    def stderr_tail(self, chars: int = 2000) -> str:
        if self.stderr_path is None or not self.stderr_path.exists():
            return ""
        return self.stderr_path.read_text(errors="replace")[-chars:]

    def wait_for(
        self,
        pattern: str | re.Pattern[str],
        timeout_s: float,
        *,
        occurrence: int = 1,
        history: bool = True,
    ) -> re.Match[str]:
        """Until `pattern` (a substring, or a compiled regex) is on screen `occurrence` times.

        Searches the scrollback too by default: a line-printing program may
        have scrolled it off already. Returns that occurrence's match.
        """
        regex = pattern if isinstance(pattern, re.Pattern) else re.compile(re.escape(pattern))
        deadline = time.monotonic() + timeout_s
        while True:
            # Status before the screen: a program that printed its last line and
            # exited in between is still judged on that line.
            dead, status = self.status()
            text = self.capture(history=history)
            matches = list(regex.finditer(text))
            if len(matches) >= occurrence:
                return matches[occurrence - 1]
            if dead or time.monotonic() > deadline:
                why = f"exited with {status}" if dead else f"not seen in {timeout_s} s"
                raise AssertionError(
                    f"{regex.pattern!r} (x{occurrence}) {why}.\n--- screen ---\n{text}"
                    f"\n--- stderr ---\n{self.stderr_tail()}"
                )
            time.sleep(POLL_S)

    def wait_exit(self, timeout_s: float) -> int:
        """Until the program has exited; its exit status (-N: killed by signal N)."""
        deadline = time.monotonic() + timeout_s
        while True:
            dead, status = self.status()
            if dead and status is not None:
                return status
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"no exit status after {timeout_s} s (dead: {dead}).\n"
                    f"--- screen ---\n{self.capture()}\n--- stderr ---\n{self.stderr_tail()}"
                )
            time.sleep(POLL_S)

    def kill(self) -> None:
        self.server.run("kill-session", "-t", self.name, check=False)
