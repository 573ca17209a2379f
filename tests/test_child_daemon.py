"""`vac bench` and `make demo` own their daemon: a failed start is the daemon's own
one line (exit 2), and SIGTERM or Ctrl-C stop the daemon and remove the temporary
home, quietly (143, 130). The slow tests run the real commands as subprocesses."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from vac.bench import quiet_thread
from vac.child_daemon import (
    ending_on_signals,
    scratch_home,
    shielded,
    sweep_stale,
    why_it_ended,
)

ROOT = Path(__file__).resolve().parents[1]
BENCH = [sys.executable, "-m", "vac.cli", "bench", "--turns", "4", "--fast", "--out", "b"]
DEMO = [sys.executable, "-m", "vac.demo"]  # writes demo-out/ in the repository, if it gets there


# --- without a daemon -------------------------------------------------------


def test_the_daemons_own_line_is_the_reason() -> None:
    said = ['{"event": "starting", "level": "info"}\n', "vac: x.toml: unknown field `bogus`\n"]
    assert why_it_ended(said, 2) == "vac: x.toml: unknown field `bogus`"
    traceback = ["Traceback (most recent call last):\n", '  File "x"\n', "RuntimeError: boom\n"]
    assert why_it_ended(traceback, 1) == "RuntimeError: boom"
    logged = ['{"event": "stt_failed", "level": "error", "error": "no model"}\n']
    assert why_it_ended(logged, 1) == "stt_failed: no model"
    assert why_it_ended([], -9) == "it exited with code -9 and said nothing"


def test_a_scratch_home_left_by_a_killed_process_is_removed_by_the_next(tmp_path: Path) -> None:
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    owners = {"dead": ended.pid, "mine": os.getpid(), "alive": os.getppid(), "junk": "x"}
    for name, pid in owners.items():
        (tmp_path / f"vac-bench-{name}").mkdir()
        (tmp_path / f"vac-bench-{name}" / "owner.pid").write_text(f"{pid}\n")
    (tmp_path / "vac-bench-no-owner").mkdir()
    (tmp_path / "vac-demo-dead").mkdir()  # another prefix
    (tmp_path / "vac-demo-dead" / "owner.pid").write_text(f"{ended.pid}\n")
    assert sweep_stale("vac-bench-", tmp_path) == [tmp_path / "vac-bench-dead"]
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == [
        "vac-bench-alive",
        "vac-bench-junk",
        "vac-bench-mine",
        "vac-bench-no-owner",
        "vac-demo-dead",
    ]


def test_a_scratch_home_names_its_owner_and_is_gone_after() -> None:
    with scratch_home("vac-test-scratch-") as home:
        owner = home.root.parent / "owner.pid"
        assert owner.read_text().strip() == str(os.getpid())
    assert not home.root.parent.exists()


def test_sigterm_ends_the_block_through_finally_and_a_shield_defers_it() -> None:
    cleaned: list[str] = []
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(SystemExit) as ended, ending_on_signals():
        try:
            with shielded():
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(0.05)  # delivered here, acted on after the clean-up
                cleaned.append("shielded")
            cleaned.append("not reached")
        finally:
            cleaned.append("finally")
    assert ended.value.code == 143
    assert cleaned == ["shielded", "finally"]
    assert signal.getsignal(signal.SIGTERM) is before  # restored


def test_an_ignored_sigint_stays_ignored() -> None:
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with ending_on_signals():
            assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, before)


def test_a_bench_session_that_fails_is_one_line_and_after_the_run_nothing() -> None:
    def fail(why: str) -> None:
        raise TimeoutError(why)

    stop, failures = threading.Event(), []
    during = quiet_thread(fail, ("no pong within 5.0 s",), stop, failures)
    during.start()
    during.join()
    stop.set()  # the run is over (or interrupted): the daemon is going away
    after = quiet_thread(fail, ("noise",), stop, failures)
    after.start()
    after.join()
    assert failures == ["TimeoutError: no pong within 5.0 s"]
    assert during.daemon and after.daemon  # an interrupted run does not wait for them


# --- the real commands --------------------------------------------------------


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "VAC_LOG_LEVEL"}
    return env | {"PYTHONPATH": f"{ROOT / 'src'}{os.pathsep}{ROOT}"} | extra


@pytest.mark.slow
@pytest.mark.parametrize(
    ("command", "env", "says"),
    [
        (BENCH, {"VAC_LOG_LEVEL": "bogus"}, "vac bench: the daemon did not start: vac: "),
        (DEMO, {"VAC_LOG_LEVEL": "bogus"}, "vac demo: the daemon did not start: vac: "),
    ],
    ids=["bench", "demo"],
)
def test_a_daemon_that_does_not_start_is_one_line_and_exit_2(
    tmp_path: Path, command: list[str], env: dict[str, str], says: str
) -> None:
    done = subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=120,
        env=_env(**env),
        cwd=tmp_path,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == [
        f"{says}VAC_LOG_LEVEL: 'bogus' is not one of debug, info, warning, error"
    ]


@pytest.mark.slow
def test_a_bad_bench_config_is_named_as_the_user_wrote_it(tmp_path: Path) -> None:
    (tmp_path / "bad.toml").write_text("[daemon]\nbogus=1\n")
    done = subprocess.run(
        [*BENCH[:4], "--config", "bad.toml", "--turns", "1", "--out", "b"],
        capture_output=True,
        text=True,
        timeout=120,
        env=_env(),
        cwd=tmp_path,
    )
    assert done.returncode == 2, done.stderr
    [line] = done.stderr.splitlines()  # no traceback
    assert line.startswith("vac bench: the daemon did not start: vac: bad.toml: ")
    assert "bogus" in line


def _children(pid: int) -> dict[int, list[str]]:
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            if ppid == pid:
                found[int(entry.name)] = (entry / "cmdline").read_text().split("\0")
        except (OSError, IndexError, ValueError):
            continue
    return found


def _established(pid: int) -> int:
    """How many TCP connections process `pid` holds open (its sessions with the daemon)."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[len("socket:[") : -1])
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for row in Path(table).read_text().splitlines()[1:]:
            cols = row.split()
            count += cols[3] == "01" and cols[9] in inodes  # 01: ESTABLISHED
    return count


@contextmanager
def _running(
    command: list[str], cwd: Path, sessions: int
) -> Iterator[tuple[subprocess.Popen[str], int, Path]]:
    """The command, once its daemon is up and `sessions` connections to it are open:
    (process, the daemon's pid, its temporary home). In a session of its own, so a
    SIGINT to the group is a Ctrl-C at its terminal. Whatever happens, nothing of
    it is left running or on disk afterwards (even when the test fails)."""
    proc = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(),
        cwd=cwd,
        start_new_session=True,
    )
    daemon: tuple[int, list[str]] | None = None
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and proc.poll() is None:
            daemon = daemon or next(
                ((p, c) for p, c in _children(proc.pid).items() if "daemon" in c), None
            )
            if daemon is not None and _established(proc.pid) >= sessions:
                break
            time.sleep(0.1)
        assert daemon is not None and proc.poll() is None, "the command ran no daemon"
        pid, cmdline = daemon
        yield proc, pid, Path(cmdline[cmdline.index("--home") + 1]).parent
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate(timeout=60)
        if daemon is not None:
            pid, cmdline = daemon
            if not _gone(pid, 0.5):
                os.kill(pid, signal.SIGKILL)
            shutil.rmtree(Path(cmdline[cmdline.index("--home") + 1]).parent, ignore_errors=True)


def _gone(pid: int, timeout_s: float = 30) -> bool:
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            return True
        if state == "Z":  # ended, not yet reaped by its parent
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize(
    ("command", "sessions", "how", "code"),
    [
        (BENCH, 2, signal.SIGTERM, 143),
        (BENCH, 2, signal.SIGINT, 130),
        (DEMO, 1, signal.SIGTERM, 143),
        (DEMO, 1, signal.SIGINT, 130),
    ],
    ids=["bench-sigterm", "bench-ctrl-c", "demo-sigterm", "demo-ctrl-c"],
)
def test_a_signal_stops_the_daemon_and_removes_the_home_quietly(
    tmp_path: Path, command: list[str], sessions: int, how: signal.Signals, code: int
) -> None:
    with _running(command, tmp_path, sessions) as (proc, daemon, tmp_home):
        assert tmp_home.is_dir()
        time.sleep(1.0)  # mid-turn: streaming, waiting for drafts, pinging
        t0 = time.monotonic()
        if how == signal.SIGINT:
            os.killpg(proc.pid, signal.SIGINT)  # as Ctrl-C: the whole foreground group
        else:
            proc.send_signal(how)
        _, err = proc.communicate(timeout=60)
        took_s = time.monotonic() - t0
        assert proc.returncode == code, err
        assert err == ""  # no traceback, no "Exception in thread"
        assert took_s < 10, f"took {took_s:.1f} s to end"
        assert _gone(daemon, 2), "the daemon outlived the command"
        assert not tmp_home.exists(), "the temporary home was left behind"


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG")
def test_a_killed_bench_takes_its_daemon_along(tmp_path: Path) -> None:
    with _running(BENCH, tmp_path, 2) as (proc, daemon, tmp_home):
        proc.kill()  # no clean-up can run: the kernel ends the daemon (its home stays)
        proc.communicate(timeout=30)
        assert _gone(daemon), "the daemon outlived a killed bench"
        assert tmp_home.is_dir()
        # The next bench (or demo) removes it, keys and all.
        assert tmp_home in sweep_stale("vac-bench-")
        assert not tmp_home.exists()


def test_a_daemon_that_keeps_logging_but_is_never_ready_times_out() -> None:
    """The ready timeout is for the whole start, not for each line it logs."""
    from vac.child_daemon import DaemonDidNotStart, _wait_ready

    chatty = (
        "import sys, time\n"
        "while True:\n    print('{}', file=sys.stderr, flush=True)\n    time.sleep(0.02)"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", chatty], stderr=subprocess.PIPE, text=True, errors="replace"
    )
    try:
        with pytest.raises(DaemonDidNotStart, match="not ready within"):
            _wait_ready(proc, 0.5)
    finally:
        proc.kill()
        proc.wait()
