"""`vac daemon` and `vac keys` as a person runs them: real processes, real signals."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import client_keys
from vac.client.connection import Connection
from vac.daemon import keys
from vac.home import Home
from vac.logs import REDACTED, redact
from vac.protocol.messages import ObjectiveDraft, ServerBye, TextInput, TurnDone

pytestmark = pytest.mark.slow
VAC = [sys.executable, "-m", "vac.cli"]


def run(
    *args: str, home: Home | None = None, check: bool = True
) -> subprocess.CompletedProcess[str]:
    cmd = [*VAC, *args] + (["--home", str(home.root)] if home else [])
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60, check=check)


class DaemonProcess:
    def __init__(self, home: Home, env: dict[str, str] | None = None) -> None:
        self.proc = subprocess.Popen(
            [*VAC, "daemon", "--home", str(home.root), "--endpoint", "tcp://127.0.0.1:*"],
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, **(env or {})},
        )
        self.lines: list[str] = []
        self.endpoint = ""
        assert self.proc.stderr is not None
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            line = self.proc.stderr.readline()
            if not line:
                break
            self.lines.append(line)
            event = json.loads(line)
            if event.get("event") == "ready":
                self.endpoint = event["endpoint"]
                return
        raise AssertionError("daemon never said ready: " + "".join(self.lines))

    def stop(self, sig: int = signal.SIGTERM) -> int:
        self.proc.send_signal(sig)
        rc = self.proc.wait(timeout=30)
        assert self.proc.stderr is not None
        self.lines += self.proc.stderr.readlines()
        return rc


@pytest.fixture
def cli_home(tmp_path: Path) -> Home:
    home = Home(tmp_path / "h")
    assert run("keys", "init", home=home).returncode == 0
    assert run("keys", "enroll", "alice", home=home).returncode == 0
    return home


def test_keys_cli_modes_and_list_shows_no_secrets(cli_home: Home) -> None:
    for secret in [cli_home.server_secret, cli_home.clients_dir / "alice.key_secret"]:
        assert secret.stat().st_mode & 0o777 == 0o600
    out = run("keys", "list", home=cli_home).stdout
    assert out.startswith("alice\t") and "secret" not in out
    secret_text = (cli_home.clients_dir / "alice.key_secret").read_text()
    secret_key = next(x for x in secret_text.splitlines() if "secret-key" in x).split('"')[1]
    assert secret_key not in out
    again = run("keys", "init", home=cli_home).stdout
    assert again.startswith("exists")
    bad = run("keys", "enroll", "Not A Name", home=cli_home, check=False)
    assert bad.returncode != 0 and bad.stderr.startswith("vac: bad principal")
    assert "Traceback" not in bad.stderr


def test_keys_new_and_enroll_public_only(cli_home: Home, tmp_path: Path) -> None:
    out = tmp_path / "laptop"
    run("keys", "new", "--out", str(out), "--name", "laptop")
    res = run("keys", "enroll", "dave", "--public", str(out / "laptop.key"), home=cli_home)
    assert "enrolled dave" in res.stdout
    assert not (cli_home.clients_dir / "dave.key_secret").exists()
    clash = run(
        "keys", "enroll", "erin", "--public", str(out / "laptop.key"), home=cli_home, check=False
    )
    assert clash.returncode != 0 and "already enrolled" in clash.stderr


def test_keys_enroll_an_agent_lists_its_role_and_revoke_removes_it(cli_home: Home) -> None:
    res = run("keys", "enroll", "Kofi", "--agent", home=cli_home)
    assert "enrolled kofi as agent Kofi" in res.stdout
    rows = [json.loads(x) for x in run("keys", "list", "--json", home=cli_home).stdout.splitlines()]
    roles = {r["principal"]: (r["role"], r["agent"]) for r in rows}
    assert roles == {"alice": ("steward", None), "kofi": ("agent", "Kofi")}
    unknown = run("keys", "enroll", "nobody", "--agent", home=cli_home, check=False)
    assert unknown.returncode != 0 and "not an agent of this household" in unknown.stderr
    assert "Traceback" not in unknown.stderr and not (cli_home.clients_dir / "nobody.key").exists()
    run("keys", "revoke", "kofi", home=cli_home)
    assert not (cli_home.enrolled_dir / "kofi.agent").exists()


def test_daemon_refuses_without_server_key(tmp_path: Path) -> None:
    res = run("daemon", home=Home(tmp_path / "empty"), check=False)
    assert res.returncode != 0
    assert res.stderr.strip().count("\n") == 0
    assert "no server key" in res.stderr and "vac keys init" in res.stderr


def test_daemon_refuses_loose_secret(cli_home: Home) -> None:
    cli_home.server_secret.chmod(0o644)
    res = run("daemon", home=cli_home, check=False)
    assert res.returncode != 0 and "readable by others" in res.stderr and "chmod 600" in res.stderr


def test_second_daemon_on_same_home_is_refused_and_sigterm_drains(cli_home: Home) -> None:
    d = DaemonProcess(cli_home)
    try:
        second = run("daemon", home=cli_home, check=False)
        assert second.returncode != 0 and "another vac daemon" in second.stderr
        conn = Connection(d.endpoint, client_keys(cli_home, "alice"))
        conn.hello()
        conn.send(TextInput(id="t", text="hello"))
        conn.expect(TurnDone)
        t0 = time.monotonic()
        rc = d.stop()
        assert rc == 0 and time.monotonic() - t0 < 5
        assert conn.expect(ServerBye).reason == "shutdown"
        conn.close()
    finally:
        if d.proc.poll() is None:
            d.proc.kill()
    events = [json.loads(x)["event"] for x in d.lines]
    assert "ready" in events and events[-1] == "stopped"


def test_ready_is_notified_to_systemd(cli_home: Home, tmp_path: Path) -> None:
    path = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(10)
    d = DaemonProcess(cli_home, env={"NOTIFY_SOCKET": str(path)})
    try:
        assert sock.recv(100) == b"READY=1"
    finally:
        assert d.stop() == 0
        sock.close()


def test_resume_after_kill_9(cli_home: Home) -> None:
    d = DaemonProcess(cli_home)
    conn = Connection(d.endpoint, client_keys(cli_home, "alice"))
    ok = conn.hello()
    conn.send(TextInput(id="t", text="Ask Kofi to build a bench by the pond"))
    draft = conn.expect(ObjectiveDraft)
    conn.expect(TurnDone, 30)
    conn.close()
    d.stop(signal.SIGKILL)
    d2 = DaemonProcess(cli_home)
    try:
        with Connection(d2.endpoint, client_keys(cli_home, "alice")) as c2:
            ok2 = c2.hello(resume=ok.session)
            assert ok2.resumed and ok2.session == ok.session
            assert [p.id for p in ok2.pending] == [draft.objective.id]
            assert ok2.pending[0].status == "draft"
    finally:
        assert d2.stop() == 0


def test_revocation_from_cli_is_audited(cli_home: Home) -> None:
    run("keys", "revoke", "alice", home=cli_home)
    exported = json.loads(run("data", "export", "alice", home=cli_home).stdout)
    kinds = [a["kind"] for a in exported["audit"]]
    assert "key_enrolled" in kinds and "key_revoked" in kinds
    assert keys.list_enrolled(cli_home) == []


def test_redaction_drops_audio_and_keys() -> None:
    event = {
        "event": "x",
        "pcm": b"\x00\x01",
        "payload": "anything",
        "secret_key": "abc",
        "audio_ms": 20,
        "blob": memoryview(b"zz"),
        "nested": {"token": "t", "ok": 1, "raw": b"x"},
        "session": "s1",
    }
    out = redact(None, "info", dict(event))
    assert out["pcm"] == out["payload"] == out["secret_key"] == out["blob"] == REDACTED
    assert out["nested"] == {"token": REDACTED, "ok": 1, "raw": REDACTED}
    assert out["session"] == "s1"


def test_daemon_logs_carry_no_key_material(cli_home: Home) -> None:
    d = DaemonProcess(cli_home)
    with Connection(d.endpoint, client_keys(cli_home, "alice")) as c:
        c.hello()
    d.stop()
    text = "".join(d.lines)
    for secret_file in [cli_home.server_secret, cli_home.clients_dir / "alice.key_secret"]:
        for line in secret_file.read_text().splitlines():
            if "secret-key" in line:
                assert line.split('"')[1] not in text


def test_say_schema_and_data_cli_against_a_running_daemon(cli_home: Home) -> None:
    d = DaemonProcess(cli_home)
    try:
        said = run(
            "say",
            "Ask Kofi to build a bench by the pond",
            "--connect",
            d.endpoint,
            "--json",
            home=cli_home,
        )
        events = [json.loads(line) for line in said.stdout.splitlines()]
        kinds = [e["type"] for e in events]
        assert kinds[0] == "transcript.final" and "objective.draft" in kinds
        assert kinds[-1] == "turn.done"
        oid = next(e for e in events if e["type"] == "objective.draft")["objective"]["id"]
        confirmed = run(
            "confirm", oid, "--edit", "priority=90", "--connect", d.endpoint, home=cli_home
        )
        assert "negotiation:" in confirmed.stdout
        unknown = run("reject", oid, "--connect", d.endpoint, home=cli_home, check=False)
        assert unknown.returncode == 1 and "objective_unknown" in unknown.stderr
        busy = run("data", "delete", "alice", home=cli_home, check=False)
        assert busy.returncode != 0 and "stop it" in busy.stderr
    finally:
        assert d.stop() == 0
    exported = json.loads(run("data", "export", "alice", home=cli_home).stdout)
    assert [o["body"]["objective"]["id"] for o in exported["objectives"]] == [oid]
    assert any(c["text"].startswith("Ask Kofi") for c in exported["conversation"])
    deleted = run("data", "delete", "alice", home=cli_home)
    assert deleted.stdout.startswith("deleted")
    after = json.loads(run("data", "export", "alice", home=cli_home).stdout)
    assert after["objectives"] == [] and after["conversation"] == [] and after["audit"] == []
    schema = json.loads(run("schema").stdout)
    assert {"inbound", "outbound", "objective", "$defs"} <= set(schema)
    assert schema["objective"]["additionalProperties"] is False
