"""What the CLI says, in-process and fast: error lines, help, the transport's
end on `bye`, WAV refusals, the endpoint probe, revocation and homes."""

from __future__ import annotations

import contextlib
import io
import os
import socket
import struct
import time
from pathlib import Path
from typing import Any

import pytest

from tests.client.fake_daemon import FakeDaemon
from vac.cli import build_parser, main
from vac.client.connection import Connection, refusal_line
from vac.client.transport import TransportOptions, read_wav, run_transport
from vac.client.wavio import WavError
from vac.daemon import keys
from vac.daemon.preflight import EndpointUnavailable, probe_endpoint
from vac.home import Home, HomeError
from vac.protocol.messages import AudioInputChunk, Error, ServerBye

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "audio"


def error(code: str, message: str = "m", **details: Any) -> Error:
    return Error(code=code, message=message, ref="r", retryable=False, details=details or None)


def test_a_settled_objective_is_named_as_such() -> None:
    line = refusal_line(error("objective_unknown", "gone", status="rejected"), objective_id="o1")
    assert line.startswith("objective_unknown: objective o1 is already rejected — ")
    plain = refusal_line(error("objective_unknown", "no such pending objective"))
    assert plain.startswith("objective_unknown: no such pending objective — ")
    assert "vac drafts" in plain


def test_a_roles_refusal_is_not_called_a_key_not_enrolled() -> None:
    # A client-author probe: `vac say` with an agent's key was told "this key is not enrolled".
    role = refusal_line(error("unauthorized", "an agent's session cannot send text.input"))
    assert "not enrolled" not in role and "role" in role
    gone = refusal_line(error("unauthorized", "this key is no longer enrolled"))
    assert "vac keys list" in gone


def test_a_value_ref_is_shown_a_value_example() -> None:
    from vac.intent.validate import _check_ref

    found: list[Any] = []
    _check_ref(found, "forbidden_lines[0].value_ref", "nope")
    _check_ref(found, "target.ref", "nope")
    assert "value:honesty" in found[0].message and "prop:garden-gate" in found[1].message


def test_refusal_lines_say_what_to_do() -> None:
    assert refusal_line(error("rate_limited", "slow down", retry_after_ms=1500)).endswith(
        "— try again in 1.5 s"
    )
    invalid = refusal_line(error("objective_invalid", "priority: too big", fields=["priority"]))
    assert invalid.endswith("fix priority with --edit FIELD=VALUE")
    assert "\x1b" not in refusal_line(error("busy", "\x1b[2Jgotcha"))


def test_every_subcommand_has_an_example_and_defaults_are_shown(
    capsys: pytest.CaptureFixture[str],
) -> None:
    parser = build_parser()
    commands = [
        ["daemon"],
        ["keys", "init"],
        ["keys", "new"],
        ["keys", "enroll"],
        ["keys", "revoke"],
        ["keys", "list"],
        ["schema"],
        ["say"],
        ["confirm"],
        ["reject"],
        ["withdraw"],
        ["drafts"],
        ["transport"],
        ["talk"],
        ["preflight"],
        ["bench"],
        ["data", "export"],
        ["data", "delete"],
    ]
    for command in commands:
        with pytest.raises(SystemExit) as done:
            parser.parse_args([*command, "--help"])
        assert done.value.code == 0
        text = capsys.readouterr().out
        assert "example:\n  vac " in text, command
    with pytest.raises(SystemExit):
        parser.parse_args(["bench", "--help"])
    assert "(default: bench-results)" in " ".join(capsys.readouterr().out.split())
    with pytest.raises(SystemExit):
        parser.parse_args(["transport", "--help"])
    assert "(default: 30.0)" in " ".join(capsys.readouterr().out.split())
    with pytest.raises(SystemExit):
        parser.parse_args(["--version"])
    assert capsys.readouterr().out.startswith("vac ")


class ByeDaemon(FakeDaemon):
    """Says `bye {shutdown}` a few chunks into the first stream."""

    def _on(self, msg: Any) -> None:
        if isinstance(msg, AudioInputChunk) and msg.seq == 5:
            self._send(ServerBye(reason="shutdown"))
            return
        super()._on(msg)


def test_transport_ends_promptly_on_bye_shutdown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fake = ByeDaemon()
    assert fake.keys is not None
    keys_ = fake.keys
    wav = FIXTURES / "kofi_build_bench.joe.wav"  # 4 s, sent in real time
    opts = TransportOptions(wavs=[wav, wav], out_dir=tmp_path / "out", timeout_s=30.0)
    t0 = time.monotonic()
    try:
        rc = run_transport(opts, lambda: Connection(fake.endpoint, keys_), io.StringIO())
    finally:
        fake.close()
    assert time.monotonic() - t0 < 2.0
    assert rc == 3
    err = capsys.readouterr().err
    assert "bye shutdown" in err and "the session misbehaved" not in err


def float_wav(path: Path, channels: int = 1, rate: int = 16000) -> Path:
    data = struct.pack("<160f", *([0.1] * 160))
    fmt = struct.pack("<HHIIHH", 3, channels, rate, rate * 4 * channels, 4 * channels, 32)
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt
    body += b"data" + struct.pack("<I", len(data)) + data
    path.write_bytes(b"RIFF" + struct.pack("<I", len(body)) + body)
    return path


def test_a_float_wav_is_named_with_the_fix(tmp_path: Path) -> None:
    path = float_wav(tmp_path / "f.wav")
    with pytest.raises(WavError) as refused:
        read_wav(path)
    assert str(refused.value) == (
        f"{path} is 32-bit float WAV; vac needs 16-bit PCM — convert with sox {path} -b 16 out.wav"
    )
    stereo = float_wav(tmp_path / "g.wav", channels=2, rate=44100)
    with pytest.raises(WavError) as refused_stereo:
        read_wav(stereo)
    assert str(refused_stereo.value).endswith(f"sox {stereo} -b 16 -c 1 -r 16000 out.wav")


def test_the_endpoint_probe_names_a_port_in_use() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        with pytest.raises(EndpointUnavailable, match="address already in use"):
            probe_endpoint(f"tcp://127.0.0.1:{port}")
    probe_endpoint(f"tcp://127.0.0.1:{port}")  # closed: free again
    probe_endpoint("tcp://127.0.0.1:*")
    with pytest.raises(EndpointUnavailable, match="port must be a number"):
        probe_endpoint("tcp://127.0.0.1:http")


def test_the_endpoint_probe_on_ipc_sockets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A socket file someone listens on is in use, also with its backlog
    full (it never accepts); a stale file is not; an abstract socket
    (`ipc://@name`) has no directory to check (the daemon's working
    directory may be read-only, as under systemd)."""
    path = tmp_path / "vac.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as busy:
        busy.bind(str(path))
        busy.listen(0)
        waiting = []
        for _ in range(64):  # fill its backlog: a connect then cannot complete
            c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            c.setblocking(False)
            with contextlib.suppress(OSError):
                c.connect(str(path))
            waiting.append(c)
        with pytest.raises(EndpointUnavailable, match="address already in use"):
            probe_endpoint(f"ipc://{path}")
        for c in waiting:
            c.close()
    probe_endpoint(f"ipc://{path}")  # a stale file: libzmq replaces it
    name = f"@vac-test-{os.getpid()}"
    monkeypatch.chdir("/proc")  # a directory nobody may write in
    probe_endpoint(f"ipc://{name}")
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as abstract:
        abstract.bind("\0" + name[1:])
        abstract.listen(1)
        with pytest.raises(EndpointUnavailable, match="address already in use"):
            probe_endpoint(f"ipc://{name}")


def test_revoke_removes_the_keypair_in_clients(tmp_path: Path) -> None:
    home = Home(tmp_path / "h")
    keys.init_server(home)
    keys.enroll(home, "bob")
    assert (home.clients_dir / "bob.key_secret").exists()
    assert keys.revoke(home, "bob")
    assert keys.client_keypair(home, "bob") == []
    assert not keys.revoke(home, "bob")


def test_a_home_that_is_not_one_is_refused(tmp_path: Path) -> None:
    typo = Home(tmp_path / "typo")
    with pytest.raises(HomeError) as refused:
        typo.require()
    assert f"vac keys init --home {typo.root}" in str(refused.value)
    assert not typo.root.exists()


@pytest.fixture
def alice_home(tmp_path: Path) -> Home:
    """A home with a server key and alice enrolled (nothing listens)."""
    home = Home(tmp_path / "h")
    keys.init_server(home)
    keys.enroll(home, "alice")
    return home


def test_usage_errors_are_one_line_exit_2(
    alice_home: Home, capsys: pytest.CaptureFixture[str]
) -> None:
    home = alice_home
    assert main(["say", "", "--home", str(home.root)]) == 2
    assert main(["confirm", "x" * 65, "--home", str(home.root)]) == 2
    assert main(["data", "export", "nosuchuser", "--home", str(home.root)]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 3 and all(line.startswith("vac: ") for line in lines)
    assert "nothing to say" in lines[0] and "not an objective id" in lines[1]


def test_bad_flags_and_outputs_are_one_line_exit_2_before_anything_runs(
    alice_home: Home, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Found by a user probe: a wrapped port, a negative timeout, a results
    # directory that cannot be made (the run's results were lost at its
    # end), --fast with a sweep. Each is refused at once, in one line.
    home = alice_home
    a_file = tmp_path / "a-file"
    a_file.write_text("")
    h = ["--home", str(home.root)]
    assert main(["say", "hi", "--connect", "tcp://127.0.0.1:73243", *h]) == 2
    assert main(["bench", "--turns", "1", "--fast", "--out", str(a_file / "x")]) == 2
    assert main(["bench", "--out", str(a_file)]) == 2
    assert main(["bench", "--fast", "--sessions", "1,2", "--out", str(tmp_path / "b")]) == 2
    wav = str(FIXTURES / "yes.joe.wav")
    assert main(["transport", "--wav", wav, "--out", str(a_file), *h]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 5 and all(line.startswith("vac") for line in lines), lines
    assert "73243: the port must be a number from 1 to 65535" in lines[0]
    assert "not a directory — choose another --out" in lines[1]
    assert "it is a file, not a directory" in lines[2] and "it is a file" in lines[4]
    assert "--fast is for one level" in lines[3]
    with pytest.raises(SystemExit) as usage:
        main(["say", "hi", "--timeout", "-1", *h])
    assert usage.value.code == 2
    assert "must be more than 0 seconds" in capsys.readouterr().err
    # A second user probe: sweep options on one level were ignored (a run of
    # the defaults), and a negative --barge-in-after acted as 0.
    for sweep_only in (["--rate", "4"], ["--pause-ms", "300"]):
        assert main(["bench", *sweep_only, "--out", str(tmp_path / "c")]) == 2
        assert "are for a sweep" in capsys.readouterr().err
    assert main(["bench", "--config", str(tmp_path / "none.toml"), "--out", str(a_file)]) == 2
    assert "no such config file" in capsys.readouterr().err  # one level takes it too
    with pytest.raises(SystemExit) as usage:
        main(["transport", "--wav", wav, "--barge-in-after", "-500", *h])
    assert usage.value.code == 2
    assert "must be 0 ms or more" in capsys.readouterr().err


def test_the_contracts_spelling_of_arrivals_is_accepted() -> None:
    args = build_parser().parse_args(["bench", "--sessions", "1,2", "--arrivals", "together"])
    assert list(args.arrival) == ["together"]


def test_a_stale_revision_is_not_named_as_a_field_to_edit() -> None:
    line = refusal_line(error("objective_invalid", "revision: 7 is stale", fields=["revision"]))
    assert "--edit" not in line and "vac drafts" in line
    both = refusal_line(
        error("objective_invalid", "revision: …; priority: …", fields=["revision", "priority"])
    )
    assert "fix priority with --edit" in both and "fix revision" not in both
    assert "drop --revision" in both


def test_a_file_that_is_no_wav_says_so_without_empty_brackets(tmp_path: Path) -> None:
    for content, why in ((b"", "the file ends early"), (b"not audio", "file does not start with")):
        junk = tmp_path / "notes.wav"
        junk.write_bytes(content)
        with pytest.raises(WavError) as refused:
            read_wav(junk)
        assert f"not a PCM WAV ({why}" in str(refused.value)
        assert "()" not in str(refused.value)


def test_a_host_that_does_not_resolve_is_named(
    alice_home: Home, capsys: pytest.CaptureFixture[str]
) -> None:
    home = alice_home
    assert main(["say", "hi", "--connect", "tcp://nohost.invalid:7707", "--home", str(home.root)])
    (line,) = capsys.readouterr().err.splitlines()
    assert "cannot resolve the host 'nohost.invalid'" in line  # not "refused"


@pytest.mark.parametrize(
    ("argv", "usage"),
    [
        (["keys", "list", "--frobnicate"], "usage: vac keys list "),
        (["say", "--nope", "hi"], "usage: vac say "),
        (["data", "export", "alice", "--nope"], "usage: vac data export "),
        (["--nope", "keys", "list"], "usage: vac [-h]"),  # given to vac itself
    ],
)
def test_an_unknown_flag_shows_its_subcommands_usage(
    argv: list[str], usage: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(usage) and "unrecognized arguments: --" in err
