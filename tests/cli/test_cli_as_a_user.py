"""The shell user's experience, end to end: the `vac` CLI as subprocesses
against a real daemon process (text-only, so it starts in about a second).

Every failure a person can meet gives exactly one line on stderr, a
documented exit code (0 ok, 1 the daemon said no, 2 usage or local error,
3 no answer) and never a traceback.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.daemon.test_process import DaemonProcess
from vac.home import Home

pytestmark = pytest.mark.slow
VAC = [sys.executable, "-m", "vac.cli"]
# Text only; and room for the 50 drafts of the loop (the default quota is 32
# pending drafts per principal, which would refuse the 33rd — rightly).
TEXT_ONLY_TOML = "[stt]\nenabled = false\n\n[tts]\nenabled = false\n"
SAY = "ask Kofi to build a bench by tomorrow"


def vac(
    *args: str, home: Path | None = None, stdout: int | None = subprocess.PIPE
) -> subprocess.CompletedProcess[str]:
    cmd = [*VAC, *args] + (["--home", str(home)] if home is not None else [])
    return subprocess.run(
        cmd, stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=60, check=False
    )


def one_line(res: subprocess.CompletedProcess[str], code: int) -> str:
    """The failure's single stderr line (daemon JSON log lines aside)."""
    assert "Traceback" not in res.stderr, res.stderr
    lines = [ln for ln in res.stderr.splitlines() if not ln.startswith("{")]
    assert res.returncode == code, (res.returncode, res.stderr)
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith("vac: "), lines
    return lines[0]


def make_home(root: Path, *principals: str) -> Path:
    assert vac("keys", "init", home=root).returncode == 0
    for name in principals:
        assert vac("keys", "enroll", name, home=root).returncode == 0
    (root / "vac.toml").write_text(TEXT_ONLY_TOML)
    return root


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    root = make_home(tmp_path_factory.mktemp("user") / "home", "alice")
    d = DaemonProcess(Home(root))
    try:
        yield root, d.endpoint
    finally:
        assert d.stop() == 0


def test_fifty_says_in_a_tight_loop_all_succeed(daemon: tuple[Path, str]) -> None:
    home, endpoint = daemon
    t0 = time.monotonic()
    for n in range(50):
        res = vac("say", SAY, "--connect", endpoint, home=home)
        assert res.returncode == 0, (n, res.stdout, res.stderr)
        assert res.stderr == "", (n, res.stderr)
        lines = res.stdout.splitlines()
        assert lines[0].startswith("session ") and "(alice)" in lines[0]
        assert any(ln.startswith("draft: ") for ln in lines), res.stdout
        assert any(ln.strip().startswith("confirm with: vac confirm ") for ln in lines)
    elapsed_s = time.monotonic() - t0
    print(f"\n50 x vac say: {elapsed_s:.1f} s ({elapsed_s / 50 * 1000:.0f} ms each)")
    assert elapsed_s < 60
    # Every one-shot session ended with `bye`: none is left holding the quota.
    exported = json.loads(vac("data", "export", "alice", home=home).stdout)
    cli_sessions = [s for s in exported["sessions"] if s["client"] == "vac-cli"]
    assert len(cli_sessions) >= 50
    assert all(s["ended_at_ms"] is not None for s in cli_sessions)


def test_json_everywhere(daemon: tuple[Path, str]) -> None:
    home, endpoint = daemon
    said = vac("say", SAY, "--connect", endpoint, "--json", home=home)
    events = [json.loads(line) for line in said.stdout.splitlines()]
    assert events[-1]["type"] == "turn.done" and all(e["session"] for e in events)
    listed = vac("keys", "list", "--json", home=home)
    assert [json.loads(x)["principal"] for x in listed.stdout.splitlines()] == ["alice"]
    checks = [json.loads(x) for x in vac("preflight", "--json", home=home).stdout.splitlines()]
    assert {"keys", "config", "endpoint"} <= {c["check"] for c in checks}
    drafts = vac("drafts", "--connect", endpoint, "--json", home=home)
    assert drafts.returncode == 0 and all(json.loads(x)["id"] for x in drafts.stdout.splitlines())


def test_daemon_down_is_exit_3(daemon: tuple[Path, str]) -> None:
    home, _ = daemon
    res = vac("say", "hi", "--connect", f"tcp://127.0.0.1:{free_port()}", home=home)
    line = one_line(res, 3)
    assert "is it running" in line and "vac preflight" in line
    assert res.stdout == ""


def test_wrong_server_key_is_exit_3(daemon: tuple[Path, str], tmp_path: Path) -> None:
    home, endpoint = daemon
    other = tmp_path / "other"
    assert vac("keys", "init", home=other).returncode == 0
    server_key = str(other / "keys" / "server.key")
    t0 = time.monotonic()
    res = vac("say", "hi", "--connect", endpoint, "--server-key", server_key, home=home)
    line = one_line(res, 3)
    assert "server key does not match" in line
    assert time.monotonic() - t0 < 8  # a hopeless handshake is not waited out


def test_the_daemons_secret_key_is_refused_as_server_key(tmp_path: Path) -> None:
    """A client never needs it; passing it by mistake must not quietly work."""
    home = make_home(tmp_path / "h", "alice")
    secret = home / "keys" / "server.key_secret"
    res = vac("say", "hi", "--server-key", str(secret), home=home)
    line = one_line(res, 2)
    assert "is the daemon's secret key" in line and "server.key" in line


def test_revoked_key_is_exit_3_and_its_keypair_goes(
    daemon: tuple[Path, str], tmp_path: Path
) -> None:
    home, endpoint = daemon
    assert vac("keys", "enroll", "bob", home=home).returncode == 0
    kept = tmp_path / "bob.key_secret"  # a copy, as a client machine would hold
    shutil.copy(home / "clients" / "bob.key_secret", kept)
    assert vac("say", "hi", "--connect", endpoint, "--key", str(kept), home=home).returncode == 0
    revoked = vac("keys", "revoke", "bob", home=home)
    assert revoked.returncode == 0
    assert not (home / "clients" / "bob.key_secret").exists()
    assert not (home / "clients" / "bob.key").exists()
    res = vac("say", "hi", "--connect", endpoint, "--key", str(kept), home=home)
    line = one_line(res, 3)
    assert "refused this client's key" in line and "vac keys list" in line
    # Only alice's keypair is left: a plain `vac say` finds it again.
    assert vac("say", "hi", "--connect", endpoint, home=home).returncode == 0


def test_second_daemon_on_a_port_in_use(daemon: tuple[Path, str], tmp_path: Path) -> None:
    _, endpoint = daemon
    other = make_home(tmp_path / "second")
    pre = vac("preflight", "--endpoint", endpoint, home=other)
    assert pre.returncode == 2
    (endpoint_line,) = [ln for ln in pre.stdout.splitlines() if " endpoint " in ln]
    assert endpoint_line.startswith("fail") and "in use" in endpoint_line
    res = vac("daemon", "--endpoint", endpoint, home=other)
    line = one_line(res, 2)
    assert line.startswith(f"vac: cannot bind {endpoint}: address already in use")


def test_a_daemon_refuses_an_ipc_endpoint_another_listens_on(tmp_path: Path) -> None:
    """libzmq would replace the socket file, leaving the first daemon running
    and unreachable: refused as a port in use is, and the file is kept."""
    home = make_home(tmp_path / "second")
    path = tmp_path / "vac.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as first:
        first.bind(str(path))
        first.listen(1)
        inode = path.stat().st_ino
        res = vac("daemon", "--endpoint", f"ipc://{path}", home=home)
        line = one_line(res, 2)
        assert line.startswith(f"vac: cannot bind ipc://{path}: address already in use")
        assert path.stat().st_ino == inode


def test_missing_home_is_exit_2_and_nothing_is_created(tmp_path: Path) -> None:
    typo = tmp_path / "no-such-home"
    for args in (["say", "hi"], ["keys", "list"], ["data", "export", "alice"], ["drafts"]):
        line = one_line(vac(*args, home=typo), 2)
        assert f"vac keys init --home {typo}" in line, line
    assert not typo.exists()


def test_empty_say_is_exit_2_in_plain_words(daemon: tuple[Path, str]) -> None:
    home, endpoint = daemon
    res = vac("say", "", "--connect", endpoint, home=home)
    line = one_line(res, 2)
    assert "nothing to say" in line and "Expected" not in line


def test_broken_pipe_ends_quietly(daemon: tuple[Path, str]) -> None:
    home, endpoint = daemon
    for args in (["keys", "list"], ["say", SAY, "--connect", endpoint]):
        read_end, write_end = os.pipe()
        os.close(read_end)  # the reader is gone before the first write
        try:
            res = vac(*args, home=home, stdout=write_end)
        finally:
            os.close(write_end)
        assert res.stderr == "", res.stderr
        assert res.returncode == 141, args


def test_confirm_of_a_settled_id_is_exit_1(daemon: tuple[Path, str]) -> None:
    home, endpoint = daemon
    said = vac("say", SAY, "--connect", endpoint, "--json", home=home)
    draft = next(
        e for e in map(json.loads, said.stdout.splitlines()) if e["type"] == "objective.draft"
    )
    oid = draft["objective"]["id"]
    rejected = vac("reject", oid, "--connect", endpoint, home=home)
    assert rejected.returncode == 0 and f"rejected: {oid}" in rejected.stdout
    res = vac("confirm", oid, "--connect", endpoint, home=home)
    line = one_line(res, 1)
    assert line.startswith("vac: objective_unknown: ")
    assert f"objective {oid} is already rejected" in line
    unknown = one_line(vac("reject", "no-such-id", "--connect", endpoint, home=home), 1)
    assert "objective_unknown" in unknown


def test_withdraw_takes_back_a_draft_once(daemon: tuple[Path, str]) -> None:
    home, endpoint = daemon
    said = vac("say", SAY, "--connect", endpoint, "--json", home=home)
    draft = next(
        e for e in map(json.loads, said.stdout.splitlines()) if e["type"] == "objective.draft"
    )
    oid = draft["objective"]["id"]
    done = vac("withdraw", oid, "--connect", endpoint, home=home)
    assert done.returncode == 0 and f"\nwithdrawn: {oid}  Kofi Build" in done.stdout
    listed = vac("objectives", "--state", "withdrawn", "--connect", endpoint, home=home)
    assert oid in listed.stdout
    assert "priority 55  hand brief" in listed.stdout  # how urgent and how free, shown
    again = one_line(vac("withdraw", oid, "--connect", endpoint, home=home), 1)
    assert again.startswith("vac: objective_unknown: ") and "withdrawn" in again


def test_export_of_an_unknown_principal_is_exit_2(tmp_path: Path) -> None:
    root = tmp_path / "fresh"
    assert vac("keys", "init", home=root).returncode == 0
    line = one_line(vac("data", "export", "nosuchuser", home=root), 2)
    assert "nosuchuser" in line and "not enrolled" in line
    assert not (root / "vac.db").exists()


def test_version_and_help(tmp_path: Path) -> None:
    version = vac("--version")
    assert version.returncode == 0 and version.stdout.startswith("vac ")
    helped = vac("say", "--help")
    assert "(default: 10.0)" in helped.stdout and "example:" in helped.stdout
    assert "exit codes:" in helped.stdout


def test_keep_leaves_the_session_for_a_later_session_id(daemon: tuple[Path, str]) -> None:
    home, endpoint = daemon
    kept = vac("say", "hello there", "--keep", "--connect", endpoint, home=home)
    assert kept.returncode == 0 and "kept open" in kept.stdout
    session = kept.stdout.split()[1]
    resumed = vac("say", "hello again", "--session", session, "--connect", endpoint, home=home)
    assert resumed.returncode == 0 and resumed.stdout.startswith(f"session {session} resumed")
    # That one said bye: the session is over for good (PROTOCOL §3).
    gone = vac("say", "anyone?", "--session", session, "--connect", endpoint, home=home)
    assert "session_unknown" in one_line(gone, 1)


def test_a_daemon_endpoint_with_a_port_out_of_range_is_one_line(tmp_path: Path) -> None:
    # libzmq would take 99999 modulo 65536 and listen on 34463 (a subprocess:
    # the daemon configures logging for its whole process).
    home = make_home(tmp_path / "h")
    res = vac("daemon", "--endpoint", "tcp://127.0.0.1:99999", home=home)
    line = one_line(res, 2)
    assert "99999: the port must be a number from 1 to 65535" in line
