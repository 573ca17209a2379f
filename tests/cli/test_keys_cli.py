"""`vac keys ...` as a person meets it when something is off: half a server
keypair, a bad --public or --out, a name with a path in it, enrolling twice.

Found by a user probe. Each failure is one line naming the thing and the fix,
exit 2, never a traceback; real files in tmp_path, the CLI entry point in-process
(the daemon as a subprocess).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from vac.cli import main
from vac.daemon import keys
from vac.home import Home


def one_error(capsys: pytest.CaptureFixture[str]) -> str:
    """The single stderr line of the command that just failed."""
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("vac: "), lines
    return lines[0]


def fresh_home(tmp_path: Path) -> tuple[Home, list[str]]:
    home = Home(tmp_path / "h")
    keys.init_server(home)
    return home, ["--home", str(home.root)]


@pytest.mark.slow
def test_a_lost_server_secret_is_named_and_never_silently_replaced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home, h = fresh_home(tmp_path)
    trusted = home.server_public.read_bytes()
    home.server_secret.unlink()
    daemon = subprocess.run(
        [sys.executable, "-m", "vac.cli", "daemon", *h],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert daemon.returncode == 2 and "Traceback" not in daemon.stderr
    (line,) = daemon.stderr.splitlines()
    assert "server.key_secret is missing" in line and "restore it from a backup" in line
    assert f"rm {home.server_public} && vac keys init --home {home.root}" in line
    assert main(["keys", "init", *h]) == 2
    assert one_error(capsys) == line  # the same words and the same fix from both
    assert home.server_public.read_bytes() == trusted
    # Following the hint works: a new keypair, announced as created.
    home.server_public.unlink()
    assert main(["keys", "init", *h]) == 0
    assert capsys.readouterr().out.startswith("created:")
    assert keys.server_key_problem(home) is None


def test_a_lost_server_public_key_is_written_again_from_the_secret(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home, h = fresh_home(tmp_path)
    public = keys.load_public(home.server_public)
    home.server_public.unlink()
    problem = keys.server_key_problem(home)
    assert problem is not None and f"vac keys init --home {home.root}" in problem
    assert main(["keys", "init", *h]) == 0
    assert capsys.readouterr().out.startswith("restored: server public key")
    assert keys.load_public(home.server_public) == public
    assert keys.server_key_problem(home) is None


def test_a_bad_public_file_is_named_without_exception_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home, h = fresh_home(tmp_path)
    not_a_key = tmp_path / "passwd"
    not_a_key.write_text("root:x:0:0:root:/root:/bin/bash\n")
    laptop = tmp_path / "laptop"
    keys.make_keypair(laptop, "erin")
    cases = {
        str(tmp_path / "missing.key"): "no such file",
        str(not_a_key): "is not a Curve public key file",
        str(tmp_path): "not a regular file",
        str(laptop / "erin.key_secret"): "holds a secret key — pass the public erin.key",
    }
    for path, words in cases.items():
        assert main(["keys", "enroll", "erin", "--public", path, *h]) == 2
        line = one_error(capsys)
        assert words in line and path in line, line
        assert "Error" not in line  # no OSError / ValueError
    assert keys.list_enrolled(home) == []


def test_an_out_that_cannot_be_made_is_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a_file = tmp_path / "a-file"
    a_file.write_text("")
    assert main(["keys", "new", "--out", str(a_file / "x")]) == 2
    assert "part of that path is a file — pass --out a directory" in one_error(capsys)
    assert main(["keys", "new", "--out", str(a_file)]) == 2
    assert "it is a file, not a directory — pass --out" in one_error(capsys)
    assert main(["keys", "init", "--home", str(a_file / "home")]) == 2
    assert "check --home" in one_error(capsys)


def test_keys_new_refuses_a_name_that_is_a_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    assert main(["keys", "new", "--out", str(out), "--name", "../evil"]) == 2
    assert "bad keypair name '../evil'" in one_error(capsys)
    assert sorted(p.name for p in tmp_path.rglob("*")) == []
    assert main(["keys", "new", "--out", str(out), "--name", "laptop"]) == 0
    assert (out / "laptop.key_secret").stat().st_mode & 0o777 == 0o600


def test_enrolling_twice_names_the_fix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    home, h = fresh_home(tmp_path)
    assert main(["keys", "enroll", "alice", *h]) == 0
    capsys.readouterr()
    assert main(["keys", "enroll", "alice", *h]) == 2
    line = one_error(capsys)
    assert f"run 'vac keys revoke alice --home {home.root}' first" in line
    assert "--public FILE" in line
    # The fix it names works.
    assert main(["keys", "revoke", "alice", *h]) == 0
    assert main(["keys", "enroll", "alice", *h]) == 0


def test_re_enrolling_with_public_removes_the_stale_local_keypair(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from vac.client.keyfiles import find_client_key

    home, h = fresh_home(tmp_path)
    keys.enroll(home, "alice")
    keys.enroll(home, "bob")
    stale = home.clients_dir / "alice.key_secret"
    laptop, _ = keys.make_keypair(tmp_path / "laptop", "alice")
    assert main(["keys", "enroll", "alice", "--public", str(laptop), *h]) == 0
    out = capsys.readouterr().out
    assert out.startswith("re-enrolled (previous key replaced) alice")
    assert f"removed {stale} (its key is no longer enrolled)" in out
    assert keys.client_keypair(home, "alice") == []
    assert find_client_key(home) == home.clients_dir / "bob.key_secret"  # untouched
    assert (tmp_path / "laptop" / "alice.key_secret").exists()
    # A keypair in HOME/clients that *is* the key being enrolled stays.
    assert main(["keys", "revoke", "bob", *h]) == 0
    keys.make_keypair(home.clients_dir, "bob")
    capsys.readouterr()
    assert main(["keys", "enroll", "bob", "--public", str(home.clients_dir / "bob.key"), *h]) == 0
    assert "removed" not in capsys.readouterr().out
    assert find_client_key(home) == home.clients_dir / "bob.key_secret"


# ------------------------------------------- an operator's probe (2026-12-06)


def test_an_unreadable_event_log_changes_no_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Enrol and revoke said "failed" (exit 2) but had changed the keys, with
    no audit row: the event log is opened first now."""
    home, h = fresh_home(tmp_path)
    assert main(["keys", "enroll", "al", *h]) == 0
    capsys.readouterr()
    home.db_file.write_bytes(b"\x00not a database" * 1000)
    assert main(["keys", "enroll", "yan", *h]) == 2
    assert "not a vac event log" in one_error(capsys)
    assert main(["keys", "revoke", "al", *h]) == 2
    assert "not a vac event log" in one_error(capsys)
    assert [p for p, _, _ in keys.list_enrolled(home)] == ["al"]
    assert not (home.clients_dir / "yan.key_secret").exists()


def test_a_server_key_from_another_keypair_is_refused_before_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A secret copied from another home passed preflight and the daemon
    started; every client was then refused with advice that could not help."""
    home, _ = fresh_home(tmp_path)
    other, _ = fresh_home(tmp_path / "other")
    home.server_secret.write_bytes(other.server_secret.read_bytes())
    problem = keys.server_key_problem(home)
    assert problem is not None and "not the public half" in problem
    assert keys.server_key_problem(other) is None


def test_a_file_the_command_cannot_write_is_one_line_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A read-only home, a full disk: an OSError was a traceback (exit 1)."""
    home, h = fresh_home(tmp_path)
    assert main(["keys", "enroll", "al", *h]) == 0
    capsys.readouterr()
    (home.enrolled_dir / "al.key").unlink()
    (home.enrolled_dir / "al.key").mkdir()  # a directory where the key file was
    code = main(["keys", "revoke", "al", *h])
    line = one_error(capsys)
    assert code in (1, 2) and "Traceback" not in line and "al.key" in line


def test_a_timeout_past_a_day_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    """`--timeout 1e10` was an OverflowError traceback."""
    with pytest.raises(SystemExit) as exited:
        main(["say", "hi", "--timeout", "1e10"])
    assert exited.value.code == 2
    assert "at most 86400 seconds" in capsys.readouterr().err


def test_a_lock_the_daemon_cannot_write_is_a_start_up_refusal(tmp_path: Path) -> None:
    """It was a PermissionError traceback and exit 1, which the service unit
    restarts every 2 s; a HomeError is exit 2 (RestartPreventExitStatus)."""
    from vac.daemon.lock import home_lock
    from vac.home import HomeError

    home, _ = fresh_home(tmp_path)
    home.lock_file.mkdir()
    with pytest.raises(HomeError) as refused, home_lock(home):
        pass
    assert str(home.lock_file) in str(refused.value)


def test_data_delete_of_a_name_no_one_has_is_refused_as_export_refuses_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A typo said "deleted 0 …" (exit 0), and made a vac.db where there was none."""
    home, h = fresh_home(tmp_path)
    assert main(["keys", "enroll", "alice", *h]) == 0
    capsys.readouterr()
    home.db_file.unlink(missing_ok=True)
    assert main(["data", "delete", "alcie", *h]) == 2
    assert "no principal 'alcie'" in one_error(capsys)
    assert not home.db_file.exists()
    assert main(["data", "delete", "alice", *h]) == 0  # enrolled, nothing stored yet
    assert "nothing stored" in capsys.readouterr().out
    home.lock_file.unlink()
    home.lock_file.mkdir()  # a lock that cannot be written is not "a daemon is running"
    assert main(["data", "delete", "alice", *h]) == 2
    line = one_error(capsys)
    assert "daemon.lock" in line and "is running" not in line
