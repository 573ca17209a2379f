"""The transport's loop against a scripted daemon on a real CURVE socket."""

from __future__ import annotations

import io
import json
import wave
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.client.fake_daemon import FakeDaemon
from vac.client.connection import Connection
from vac.client.transport import TransportOptions, run_transport
from vac.client.wavio import WavError
from vac.protocol.messages import (
    AudioInputChunk,
    AudioInputCommit,
    AudioInputStart,
    ObjectiveConfirm,
    TurnCancel,
)

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "audio"
YES = FIXTURES / "yes.joe.wav"


@pytest.fixture
def fake() -> Iterator[FakeDaemon]:
    d = FakeDaemon()
    yield d
    d.close()


def transport(fake: FakeDaemon, tmp_path: Path, *wavs: Path, **kw: Any) -> tuple[int, str]:
    assert fake.keys is not None
    keys = fake.keys
    kw.setdefault("timeout_s", 5.0)
    opts = TransportOptions(wavs=list(wavs or [YES]), out_dir=tmp_path / "out", fast=True, **kw)
    out = io.StringIO()
    rc = run_transport(opts, lambda: Connection(fake.endpoint, keys), out)
    return rc, out.getvalue()


def events(tmp_path: Path) -> list[dict[str, Any]]:
    lines = (tmp_path / "out" / "events.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


def sent(fake: FakeDaemon, cls: type) -> list[Any]:
    return [m for m in fake.received if isinstance(m, cls)]


def test_push_to_talk_session_behaves_and_is_recorded(fake: FakeDaemon, tmp_path: Path) -> None:
    rc, stdout = transport(fake, tmp_path)
    assert rc == 0
    chunks = sent(fake, AudioInputChunk)
    assert [c.seq for c in chunks] == list(range(len(chunks)))
    assert sent(fake, AudioInputStart)[0].mode == "push_to_talk"
    assert sent(fake, AudioInputCommit)[0].last_seq == len(chunks) - 1
    kinds = [e["type"] for e in events(tmp_path)]
    assert kinds[0] == "hello.ok" and "transcript.final" in kinds and kinds.count("turn.done") == 1
    assert "objective.draft: a bench" in stdout and "audio.output.chunk" not in stdout
    with wave.open(str(tmp_path / "out" / "reply-1.wav"), "rb") as w:
        assert w.getframerate() == 16000 and w.getnframes() == 5 * 320


def test_an_out_dir_used_before_keeps_no_stale_replies(fake: FakeDaemon, tmp_path: Path) -> None:
    """A user probe reused a directory: events.jsonl was new, reply-2.wav old."""
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "reply-2.wav").write_bytes(b"an earlier run")
    (tmp_path / "out" / "notes.txt").write_text("mine")
    rc, _ = transport(fake, tmp_path)
    assert rc == 0
    names = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert names == ["events.jsonl", "notes.txt", "reply-1.wav"]  # only its own replies go


def test_json_mode_prints_the_same_lines_as_the_log(fake: FakeDaemon, tmp_path: Path) -> None:
    rc, stdout = transport(fake, tmp_path, as_json=True)
    assert rc == 0
    assert [json.loads(line) for line in stdout.splitlines()] == events(tmp_path)
    chunk = next(e for e in events(tmp_path) if e["type"] == "audio.output.chunk")
    assert chunk["_payload_bytes"] == 640


def test_two_wavs_and_confirm(fake: FakeDaemon, tmp_path: Path) -> None:
    rc, _ = transport(fake, tmp_path, YES, YES, confirm=True, rate_hz=24000)
    assert rc == 0
    confirms = sent(fake, ObjectiveConfirm)
    assert [(c.objective_id, c.revision) for c in confirms] == [("obj-1", 1), ("obj-3", 1)]
    kinds = [e["type"] for e in events(tmp_path)]
    assert kinds.count("negotiation") == 2 and kinds.count("turn.done") == 4
    for n in range(1, 5):
        with wave.open(str(tmp_path / "out" / f"reply-{n}.wav"), "rb") as w:
            assert w.getframerate() == 24000


def test_barge_in_cancels_with_played_ms(tmp_path: Path) -> None:
    fake = FakeDaemon(reply_chunks=100, chunk_interval_s=0.02)
    try:
        rc, _ = transport(fake, tmp_path, barge_in_after_ms=200)
    finally:
        fake.close()
    assert rc == 0
    (cancel,) = sent(fake, TurnCancel)
    assert cancel.turn == "turn-1"
    # Cancelled where it was playing: after the 200 ms asked for (less what
    # was buffered), well before the reply's 2 s end. Not a timing budget: a
    # busy host may take longer to get there, which is no failure.
    assert cancel.played_ms is not None and 100 <= cancel.played_ms < 1000
    statuses = [e.get("status") for e in events(tmp_path) if e["type"] == "turn.done"]
    assert statuses == ["cancelled"]


def test_vad_mode_stops_at_the_endpoint_and_tolerates_the_race(tmp_path: Path) -> None:
    fake = FakeDaemon(vad_endpoint_after_chunks=10)
    try:
        rc, _ = transport(fake, tmp_path, vad=True)
    finally:
        fake.close()
    assert rc == 0
    assert sent(fake, AudioInputStart)[0].mode == "vad"
    assert sent(fake, AudioInputCommit) == []  # the daemon endpointed; nothing to commit


def test_missing_turn_done_fails_with_its_name(tmp_path: Path, capsys: Any) -> None:
    fake = FakeDaemon(drop_turn_done=True)
    try:
        rc, _ = transport(fake, tmp_path, timeout_s=1.0)
    finally:
        fake.close()
    assert rc == 1
    err = capsys.readouterr().err
    assert "missing_turn_done" in err and "timeout" in err


def test_a_reason_repeated_is_listed_once_with_its_count(tmp_path: Path, capsys: Any) -> None:
    """docs/client.md: "the reasons at the end are each listed once with a
    count"; an error's own ref made each of them a line of its own."""
    fake = FakeDaemon(rate_limit_after_chunks=10)
    try:
        rc, _ = transport(fake, tmp_path)
    finally:
        fake.close()
    assert rc == 1
    err = capsys.readouterr().err
    (line,) = [ln for ln in err.splitlines() if "rate_limited" in ln]
    assert line.startswith("  - error_received: error rate_limited: rate_limited (×")
    assert "; the first ref " in line


def test_seq_gap_fails_with_its_name(tmp_path: Path, capsys: Any) -> None:
    fake = FakeDaemon(skip_a_seq=True)
    try:
        rc, _ = transport(fake, tmp_path)
    finally:
        fake.close()
    assert rc == 1
    assert "seq_gap" in capsys.readouterr().err


def test_a_bad_wav_is_refused_before_connecting(tmp_path: Path) -> None:
    path = tmp_path / "stereo.wav"
    with wave.open(str(path), "wb") as w:
        w.setnchannels(2)
        w.setsampwidth(2)
        w.setframerate(44100)
        w.writeframes(b"\x00" * 400)

    def never() -> Connection:
        raise AssertionError("connected although the WAV is bad")

    with pytest.raises(WavError, match=r"stereo\.wav: 2 ch, 16-bit, 44100 Hz"):
        run_transport(TransportOptions(wavs=[YES, path]), never)
