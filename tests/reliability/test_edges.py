"""Hardened edges over real sockets and real processes (issue 8)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest

from tests.conftest import RunningDaemon
from tests.reliability.harness import text_only_home
from vac.protocol.messages import (
    Error,
    ObjectiveConfirm,
    ObjectiveDraft,
    Pong,
    TextInput,
    TurnDone,
)

pytestmark = pytest.mark.slow
VAC = [sys.executable, "-m", "vac.cli"]


def raw(header: dict[str, Any]) -> list[bytes]:
    return [b"VAC/1", msgspec.msgpack.encode(header)]


def deep_confirm(msg_id: str, depth: int) -> list[bytes]:
    """An `objective.confirm` whose edits nest `depth` arrays deep, encoded by
    hand (an encoder would refuse to recurse that far)."""
    enc = msgspec.msgpack.encode
    header = (
        b"\x84"
        + enc("type")
        + enc("objective.confirm")
        + enc("id")
        + enc(msg_id)
        + enc("objective_id")
        + enc("x")
        + enc("edits")
        + b"\x81"
        + enc("target")
        + b"\x91" * depth
        + enc("x")
    )
    return [b"VAC/1", header]


def test_deeply_nested_edits_are_invalid_message_never_silence(daemon: RunningDaemon) -> None:
    c = daemon.connect()
    c.hello()
    for depth in (17, 1_200, 8_000):
        c.send_frames(deep_confirm(f"deep-{depth}", depth))
        err = c.expect(Error, 5)
        assert err.code == "invalid_message", err
        assert "nested" in err.message
    # The daemon is fine afterwards.
    c.send_frames(raw({"type": "ping", "id": "p"}))
    assert c.expect(Pong, 5).ref == "p"


@pytest.mark.parametrize(
    ("text", "codepoint"),
    [
        ("ask Kofi to build a bench\x1b[2J", "U+001B"),
        ("ask Kofi\x00 to build a bench", "U+0000"),
        ("ask Kofi to build a \u202ehcneb", "U+202E"),
    ],
)
def test_control_characters_in_text_are_refused(
    daemon: RunningDaemon, text: str, codepoint: str
) -> None:
    c = daemon.connect()
    c.hello()
    c.send(TextInput(id="t1", text=text))
    err = c.expect(Error, 5)
    assert err.code == "invalid_message" and err.ref == "t1"
    assert codepoint in err.message and "text" in err.message
    # Ordinary text, tabs and new lines still work.
    c.send(TextInput(id="t2", text="ask Kofi to build a bench\tby the pond"))
    assert any(isinstance(m, ObjectiveDraft) for m, _ in c.recv_until(_done, 10))


def test_control_characters_in_an_edit_are_refused_and_change_nothing(
    daemon: RunningDaemon,
) -> None:
    c = daemon.connect()
    c.hello()
    c.send(TextInput(id="t", text="ask Kofi to build a bench by the pond"))
    draft = next(m for m, _ in c.recv_until(_done, 10) if isinstance(m, ObjectiveDraft))
    target = {"ref": "bench", "kind": "object", "label": "bench \u202eevil"}
    c.send(ObjectiveConfirm(id="e", objective_id=draft.objective.id, edits={"target": target}))
    err = c.expect(Error, 5)
    assert err.code == "invalid_message" and "U+202E" in err.message
    # Still pending: the refused edit changed nothing.
    ok = c.hello()
    assert draft.objective.id in {o.id for o in ok.pending}


def _done(m: object) -> bool:
    return isinstance(m, TurnDone)


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        (b"this is not a database at all" * 100, "not a vac event log"),
        (None, "not a vac event log"),  # a foreign SQLite database
        ("newer", "newer"),
    ],
)
def test_unusable_vac_db_is_one_line_and_exit_2(
    tmp_path: Path, content: bytes | str | None, needle: str
) -> None:
    import sqlite3

    home = text_only_home(tmp_path / "home")
    if isinstance(content, bytes):
        home.db_file.write_bytes(content)
    elif content is None:
        con = sqlite3.connect(home.db_file)
        con.execute("CREATE TABLE recipes (name TEXT)")
        con.commit()
        con.close()
    else:
        con = sqlite3.connect(home.db_file)
        con.execute("PRAGMA user_version=999")
        con.commit()
        con.close()
    for args in (["daemon", "--endpoint", "tcp://127.0.0.1:*"], ["data", "export", "alice"]):
        res = subprocess.run(
            [*VAC, *args, "--home", str(home.root)], capture_output=True, text=True, timeout=60
        )
        lines = [ln for ln in res.stderr.splitlines() if not ln.startswith("{")]
        assert res.returncode == 2, res.stderr
        assert "Traceback" not in res.stderr
        assert len(lines) == 1 and str(home.db_file) in lines[0] and needle in lines[0], lines


def test_confirm_editing_agent_outside_the_roster_is_invalid_and_changes_nothing(
    daemon: RunningDaemon,
) -> None:
    c = daemon.connect()
    c.hello()
    c.send(TextInput(id="t", text="ask Kofi to build a bench by the pond"))
    draft = next(m for m, _ in c.recv_until(_done, 10) if isinstance(m, ObjectiveDraft))
    c.send(ObjectiveConfirm(id="e", objective_id=draft.objective.id, edits={"agent": "Mallory"}))
    err = c.expect(Error, 5)
    assert err.code == "objective_invalid" and err.details is not None
    assert "agent" in err.details["fields"]
    ok = c.hello()
    pending = {o.id: o for o in ok.pending}
    assert pending[draft.objective.id].agent == "Kofi"  # still pending, unedited
