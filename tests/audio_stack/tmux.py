"""Driving a terminal program through tmux: keys in, the screen out.

A private tmux server (`tmux -S SOCKET`, no user config) runs each program in
a detached session of a fixed size (80x24 by default), so what a test reads
is what a user on a small terminal would see. The pane stays after the
program exits (`remain-on-exit`), so its last screen can still be read.

The exit status comes from a file the pane's shell writes when the program
ends, not from tmux: tmux 3.3a sometimes leaves an exited `vac talk` a
zombie with no `#{pane_dead_status}` for good (about one run in five here), and
the shell, as the program's parent, always reaps it. `wait_for` gives up
early once the program has ended.
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
_LAST_OUTPUT_S: Final = 0.3
_CONFIG: Final = (
    "set -g remain-on-exit on\nset -g history-limit 20000\nset -g default-shell /bin/sh\n"
)


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
        status_path = self.root / f"{name}.status"
        status_path.unlink(missing_ok=True)
        command = shlex.join(argv)
        if stderr_path is not None:
            command += f" 2>{shlex.quote(str(stderr_path))}"
        # Written whole, then renamed: a reader never sees half a number.
        partial = shlex.quote(f"{status_path}.partial")
        command += f"; echo $? >{partial} && mv {partial} {shlex.quote(str(status_path))}"
        args = ["new-session", "-d", "-s", name, "-x", str(width), "-y", str(height)]
        for key, value in (env or {}).items():
            args += ["-e", f"{key}={value}"]
        if cwd is not None:
            args += ["-c", str(cwd)]
        self.run(*args, command)
        # Everything the program writes, also what a full-screen program
        # overwrote: the screen alone forgets. Python starts in far more than
        # the moment this takes, so nothing the program prints is missed.
        output_path = self.root / f"{name}.output"
        self.run("pipe-pane", "-o", "-t", name, f"cat >> {shlex.quote(str(output_path))}")
        session = TmuxSession(self, name, stderr_path, status_path, output_path)
        self.sessions.append(session)
        return session

    def kill(self, timeout_s: float = 5.0) -> None:
        """Kill every session and wait for their shells, which may still write a status."""
        panes = self.run("list-panes", "-a", "-F", "#{pane_pid}", check=False).split()
        self.run("kill-server", check=False)
        deadline = time.monotonic() + timeout_s
        for pid in map(int, panes):
            while _running(pid) and time.monotonic() < deadline:
                time.sleep(POLL_S)
        self.socket.unlink(missing_ok=True)


class TmuxSession:
    def __init__(
        self,
        server: TmuxServer,
        name: str,
        stderr_path: Path | None,
        status_path: Path,
        output_path: Path,
    ) -> None:
        self.server = server
        self.name = name
        self.stderr_path = stderr_path
        self.status_path = status_path
        self.output_path = output_path

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
        """(ended, exit status) of the program; killed by signal N: 128 + N (the shell's $?)."""
        try:
            return True, int(self.status_path.read_text())
        except FileNotFoundError:
            return False, None

    def output(self) -> str:
        """All the program wrote to the terminal so far, escapes included."""
        if not self.output_path.exists():
            return ""
        return self.output_path.read_text(errors="replace")

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
        looked_after_end = False
        while True:
            # Status before the screen, and one more look a moment after the
            # end: tmux may not have drawn the program's last output yet.
            ended, status = self.status()
            text = self.capture(history=history)
            matches = list(regex.finditer(text))
            if len(matches) >= occurrence:
                return matches[occurrence - 1]
            if ended and not looked_after_end:
                looked_after_end = True
                time.sleep(_LAST_OUTPUT_S)
                continue
            if ended or time.monotonic() > deadline:
                why = f"exited with {status}" if ended else f"not seen in {timeout_s} s"
                raise AssertionError(
                    f"{regex.pattern!r} (x{occurrence}) {why}.\n--- screen ---\n{text}"
                    f"\n--- stderr ---\n{self.stderr_tail()}"
                )
            time.sleep(POLL_S)

    def wait_exit(self, timeout_s: float) -> int:
        """Until the program has ended; its exit status."""
        deadline = time.monotonic() + timeout_s
        while True:
            ended, status = self.status()
            if ended and status is not None:
                return status
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"still running after {timeout_s} s.\n"
                    f"--- screen ---\n{self.capture()}\n--- stderr ---\n{self.stderr_tail()}"
                )
            time.sleep(POLL_S)

    def pid(self) -> int:
        """The pane's process: the shell whose child is the program."""
        return int(self.server.run("display-message", "-p", "-t", self.name, "#{pane_pid}"))

    def kill(self) -> None:
        self.server.run("kill-session", "-t", self.name, check=False)


def _running(pid: int) -> bool:
    """Alive and not a zombie (an orphaned zombie may wait for a lazy init to reap it)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
