"""`vac transport` end to end: the real daemon, real models, real CURVE sockets."""

from __future__ import annotations

import json
import wave
from pathlib import Path

import pytest

from tests.conftest import start_daemon
from vac.cli import main
from vac.home import Home

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "audio"
COMMAND_WAV = FIXTURES / "abeni_repair_gate.joe.wav"


@pytest.mark.slow
def test_transport_spoken_command_with_confirm_against_real_daemon(
    home: Home, tmp_path: Path
) -> None:
    daemon = start_daemon(home)
    out = tmp_path / "out"
    try:
        rc = main(
            [
                "transport",
                "--home",
                str(home.root),
                "--connect",
                daemon.endpoint,
                "--key",
                str(home.clients_dir / "alice.key_secret"),
                "--wav",
                str(COMMAND_WAV),
                "--out",
                str(out),
                "--fast",
                "--confirm",
                "--rate",
                "22050",
                "--timeout",
                "60",
            ]
        )
    finally:
        daemon.shutdown()
    events = [json.loads(line) for line in (out / "events.jsonl").read_text().splitlines()]
    kinds = [e["type"] for e in events]
    assert rc == 0, [e for e in events if e["type"] == "error"]
    assert "transcript.final" in kinds
    assert "objective.draft" in kinds
    assert "negotiation" in kinds
    replies = sorted(out.glob("reply-*.wav"))
    assert replies
    with wave.open(str(replies[0]), "rb") as w:
        assert (w.getframerate(), w.getnchannels(), w.getsampwidth()) == (22050, 1, 2)
        assert w.getnframes() > 0
