"""A daemon of our own for `make demo` and `vac bench`: started, waited for, always stopped.

The demo and the benchmarks run a real `vac daemon` in a throw-away home.
This module owns that daemon's life, so that neither it nor its home
outlives the command that started it:

- `running_daemon` starts it, waits for its `ready` line and stops it on the
  way out, whatever the way out (SIGTERM, bounded wait, then SIGKILL of its
  process group). A daemon that exits before `ready` raises
  `DaemonDidNotStart` carrying the daemon's own one-line error (`vac: …`).
- `scratch_home` is a temporary home removed on the way out (or, after a
  kill -9, by the next `scratch_home` of the same prefix).
- `ending_on_signals` makes SIGTERM and SIGHUP end the command as Ctrl-C
  does, through every `finally`: SIGINT raises KeyboardInterrupt (exit 130),
  SIGTERM/SIGHUP raise SystemExit(128 + signal) (143, 129). Inside
  `shielded()` (stopping the daemon, removing the home) a signal waits until
  the clean-up is done, so a second Ctrl-C cannot leave either behind.

The daemon runs in its own session (a Ctrl-C at the terminal reaches only
the command, which stops the daemon in order) and, on Linux, is sent
SIGTERM by the kernel if the command dies without cleaning up (SIGKILL).
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, ClassVar, Final

from vac.errors import VacError
from vac.home import Home

READY_TIMEOUT_S: Final = 180.0
STOP_TIMEOUT_S: Final = 20.0  # the daemon drains for ≤ 2 s; then its workers end
ENDING_SIGNALS: Final = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
_PR_SET_PDEATHSIG: Final = 1


class DaemonDidNotStart(VacError):
    """The daemon exited (or never said `ready`) before serving: a local problem (exit 2)."""

    exit_code: ClassVar[int] = 2


# --- signals: end through the `finally` blocks, never around them ----------

_shield_depth = 0
_pending: list[int] = []


def _raise_for(signum: int) -> None:
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    raise SystemExit(128 + signum)


def _on_signal(signum: int, _frame: object) -> None:
    if _shield_depth:
        _pending.append(signum)  # raised when the clean-up in progress is done
        return
    _raise_for(signum)


@contextlib.contextmanager
def ending_on_signals() -> Iterator[None]:
    """SIGINT, SIGTERM and SIGHUP end the block by an exception (see the module
    docstring), so every `finally` inside runs. A signal the process ignores
    stays ignored. Outside the main thread this does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous: dict[int, Any] = {}
    for sig in ENDING_SIGNALS:
        before = signal.getsignal(sig)
        if before is signal.SIG_IGN:
            continue  # e.g. started with nohup, or in the background of a script
        previous[sig] = before
        signal.signal(sig, _on_signal)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


@contextlib.contextmanager
def shielded() -> Iterator[None]:
    """Signals that arrive inside are acted on when it ends (see `ending_on_signals`)."""
    global _shield_depth
    _shield_depth += 1
    try:
        yield
    finally:
        _shield_depth -= 1
        if not _shield_depth and _pending:
            signum = _pending[0]
            _pending.clear()
            _raise_for(signum)


# --- the throw-away home --------------------------------------------------


# In each scratch directory: the pid of the process that made it. A process
# killed outright (kill -9) cannot remove its home, keys and all: the next one
# with the same prefix does, once that pid is gone.
_OWNER_FILE: Final = "owner.pid"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process
    return True


def sweep_stale(prefix: str, parent: Path | None = None) -> list[Path]:
    """Remove this user's scratch directories of `prefix` whose maker has
    ended without removing them; the ones removed. One without an owner
    file, or not ours, is left alone."""
    removed: list[Path] = []
    for tmp in Path(parent or tempfile.gettempdir()).glob(f"{prefix}*"):
        try:
            if tmp.is_symlink() or tmp.stat().st_uid != os.getuid():
                continue
            pid = int((tmp / _OWNER_FILE).read_text(encoding="ascii").strip())
        except (OSError, ValueError):
            continue
        if pid != os.getpid() and not _alive(pid):
            shutil.rmtree(tmp, ignore_errors=True)
            removed.append(tmp)
    return removed


@contextlib.contextmanager
def scratch_home(prefix: str) -> Iterator[Home]:
    """A fresh home under a new temporary directory, removed on the way out
    (and, should this process be killed outright, by the next one)."""
    tmp: str | None = None
    try:
        with shielded():
            sweep_stale(prefix)
            tmp = tempfile.mkdtemp(prefix=prefix)
            (Path(tmp) / _OWNER_FILE).write_text(f"{os.getpid()}\n", encoding="ascii")
        yield Home(Path(tmp) / "home")
    finally:
        if tmp is not None:
            with shielded():
                shutil.rmtree(tmp, ignore_errors=True)


# --- the daemon -----------------------------------------------------------


def daemon_argv(home: Home) -> list[str]:
    """`vac daemon` on `home`, this Python, a free loopback port (the `ready` line names it)."""
    loopback = "tcp://127.0.0.1:*"
    return [
        sys.executable,
        "-m",
        "vac.cli",
        "daemon",
        "--home",
        str(home.root),
        "--endpoint",
        loopback,
    ]


def _dies_with_parent() -> Callable[[], None] | None:
    """A `preexec_fn` that has the kernel SIGTERM the child when its parent ends (Linux)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    parent = os.getpid()

    def arm() -> None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != parent:  # the parent ended before the line above
            os._exit(1)

    return arm


def _ready_endpoint(line: str) -> str | None:
    try:
        event = json.loads(line)
    except ValueError:
        return None
    if isinstance(event, dict) and event.get("event") == "ready" and "endpoint" in event:
        return str(event["endpoint"])
    return None


def _read_stderr(proc: subprocess.Popen[str], lines: queue.Queue[str | None]) -> None:
    """Pass the daemon's lines on until `ready`, then drop them (a full pipe would block it)."""
    assert proc.stderr is not None
    ready = False
    for line in proc.stderr:
        if not ready:
            lines.put(line)
            ready = _ready_endpoint(line) is not None
    lines.put(None)


def why_it_ended(lines: list[str], returncode: int | None) -> str:
    """The daemon's own account of why it ended: its last `vac: …` line, else its last
    plain line (a traceback's last line), else its last error log event."""
    plain = [s for line in lines if (s := line.strip()) and not s.startswith("{")]
    said = [s for s in plain if s.startswith("vac: ")]
    if said:
        return said[-1]
    if plain:
        return plain[-1]
    for line in reversed(lines):
        with contextlib.suppress(ValueError):
            event = json.loads(line)
            if isinstance(event, dict) and event.get("level") in ("error", "critical"):
                detail = event.get("error") or event.get("reason") or ""
                return f"{event.get('event')}{': ' if detail else ''}{detail}"
    return f"it exited with code {returncode} and said nothing"


def _wait_ready(proc: subprocess.Popen[str], timeout_s: float) -> str:
    lines: queue.Queue[str | None] = queue.Queue()
    threading.Thread(target=_read_stderr, args=(proc, lines), daemon=True).start()
    seen: list[str] = []
    deadline_s = time.monotonic() + timeout_s  # in all: a chatty daemon never ready ends too
    while True:
        try:
            # Interruptible: Ctrl-C is not held up.
            line = lines.get(timeout=max(0.0, deadline_s - time.monotonic()))
        except queue.Empty:
            raise DaemonDidNotStart(
                f"the daemon did not start: not ready within {timeout_s:.0f} s"
            ) from None
        if line is None:  # its stderr closed: it ended
            try:
                code = proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                code = None
            raise DaemonDidNotStart(f"the daemon did not start: {why_it_ended(seen, code)}")
        if (endpoint := _ready_endpoint(line)) is not None:
            return endpoint
        seen.append(line)
        del seen[:-50]


def stop_daemon(proc: subprocess.Popen[str], timeout_s: float = STOP_TIMEOUT_S) -> int:
    """SIGTERM (the daemon says `bye` and drains), at most `timeout_s`, then SIGKILL
    to its whole process group (its recognition workers too). Returns its exit code."""
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            proc.send_signal(signal.SIGTERM)
        try:
            return proc.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)  # its own session: pgid == pid
            proc.kill()
    return proc.wait()


@contextlib.contextmanager
def running_daemon(
    home: Home,
    *,
    config_from: Path | None = None,
    ready_timeout_s: float = READY_TIMEOUT_S,
) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """`vac daemon` on `home` and a free loopback port: (process, endpoint) once it is
    ready; stopped on the way out. `config_from`: the user's file that `home`'s vac.toml
    was copied from, named in errors instead of the copy (which is about to vanish)."""
    proc: subprocess.Popen[str] | None = None
    try:
        with shielded():  # a signal now would leave a daemon no one knows of
            proc = subprocess.Popen(
                daemon_argv(home),
                stdin=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
                errors="replace",
                start_new_session=True,
                preexec_fn=_dies_with_parent(),
            )
        try:
            endpoint = _wait_ready(proc, ready_timeout_s)
        except DaemonDidNotStart as exc:
            if config_from is None:
                raise
            raise DaemonDidNotStart(
                str(exc).replace(str(home.config_file), str(config_from))
            ) from None
        yield proc, endpoint
    finally:
        if proc is not None:
            with shielded():
                stop_daemon(proc)
