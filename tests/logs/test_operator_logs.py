"""Logs an operator can read: one line per turn, refusal and session change; no words.

The in-process daemon runs in a thread of this process, so
`structlog.testing.capture_logs()` sees its events. Captured events are raw
(before the redactor): "no words" is checked on what the daemon passes, not
on what the redactor would have hidden.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator, MutableMapping
from pathlib import Path
from typing import Any

import msgspec
import pytest
import structlog
from structlog.testing import capture_logs

from tests.conftest import RunningDaemon, client_keys, fast_config, start_daemon
from vac import logs as vac_logs
from vac.client.connection import Connection
from vac.daemon import keys
from vac.daemon.engines import SttSection, TtsSection, describe_stt, describe_tts
from vac.errors import VacError
from vac.home import Home
from vac.logs import REDACTED, LogLevelError, configure, get_logger, redact
from vac.protocol.messages import (
    MARKER,
    ClientBye,
    Error,
    Negotiation,
    ObjectiveConfirm,
    ObjectiveDraft,
    OutboundMessage,
    Ping,
    Pong,
    TextInput,
    TurnDone,
)

Event = MutableMapping[str, Any]

SAID = "Ask Zuri to repair the garden gate by tomorrow"
SAID_WORDS = ("repair", "garden", "gate", "tomorrow")


def turn(c: Connection, msg: object, timeout_s: float = 10.0) -> list[OutboundMessage]:
    c.send(msg)  # type: ignore[arg-type]
    return [m for m, _ in c.recv_until(lambda m: isinstance(m, TurnDone), timeout_s)]


def only(msgs: list[OutboundMessage], cls: type) -> Any:
    found = [m for m in msgs if isinstance(m, cls)]
    assert len(found) == 1, (cls.__name__, msgs)
    return found[0]


def named(logs: list[Event], event: str) -> list[Event]:
    return [e for e in logs if e["event"] == event]


def strings(value: Any) -> Iterator[str]:
    """Every key and value of a log event, as text, however deep."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from strings(v)
    elif isinstance(value, list | tuple | set):
        for v in value:
            yield from strings(v)
    else:
        yield str(value)


def assert_no_words(logs: list[Event], words: tuple[str, ...], phrases: tuple[str, ...]) -> None:
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, words)) + r")\b", re.IGNORECASE)
    for event in logs:
        for text in strings(event):
            assert not pattern.search(text), (text, event)
            for phrase in phrases:
                assert phrase not in text, (phrase, event)


# ------------------------------------------------------------ a whole session


@pytest.mark.slow
def test_turns_refusals_and_the_session_are_one_line_each_without_words(home: Home) -> None:
    with capture_logs() as logs:
        d = start_daemon(home, config=fast_config())
        try:
            c = d.connect()
            ok = c.hello()
            said = turn(c, TextInput(id="t1", text=SAID))
            draft = only(said, ObjectiveDraft)
            confirmed = turn(c, ObjectiveConfirm(id="c1", objective_id=draft.objective.id))
            negotiation = only(confirmed, Negotiation)
            # Refusals: one from the turn coordinator, one from the decoder.
            c.send(ObjectiveConfirm(id="c2", objective_id=draft.objective.id))
            assert c.expect(Error).code == "objective_unknown"
            c.send_frames([MARKER, msgspec.msgpack.encode({"type": "text.input", "id": "b1"})])
            assert c.expect(Error).code == "invalid_message"
            c.send(ClientBye(id="bye"))
            c.send(Ping(id="after"))  # answered outside any session: the bye was handled
            assert c.expect(Pong).ref == "after"
        finally:
            d.shutdown()

    # Startup names what runs.
    (ready,) = named(logs, "ready")
    assert ready["log_level"] == "info"
    assert ready["endpoint"] == d.endpoint
    assert ready["stt"] == "disabled" and ready["tts"] == "disabled"
    assert ready["fingerprint"] == keys.fingerprint(keys.load_public(home.server_public))
    assert ready["home"] == str(home.root) and ready["pid"] == os.getpid()

    # One turn_done per turn, matching what the client was told.
    wire = [m for m in said + confirmed if isinstance(m, TurnDone)]
    done = named(logs, "turn_done")
    assert [e["turn"] for e in done] == [m.turn for m in wire]
    for event, msg in zip(done, wire, strict=True):
        assert event["log_level"] == "info"
        assert (event["principal"], event["session"]) == ("alice", ok.session)
        assert event["status"] == msg.status
        assert event["latency_ms"] == msg.latency_ms
    assert done[0]["status"] in ("parsed", "budget-exceeded")
    assert {"parse", "ack"} <= set(done[0]["latency_ms"])
    assert done[1]["status"] == "completed"

    # One error_sent per error, at warning level, naming who and what.
    errors = named(logs, "error_sent")
    assert [(e["code"], e["ref"]) for e in errors] == [
        ("objective_unknown", "c2"),
        ("invalid_message", "b1"),
    ]
    for event in errors:
        assert event["log_level"] == "warning"
        assert (event["principal"], event["session"]) == ("alice", ok.session)
        assert "message" not in event

    # Session lines: attached, detached (bye), ended.
    lifecycle = [
        (e["event"], e.get("reason"))
        for e in logs
        if e["event"] in ("session_attached", "session_detached", "session_ended")
    ]
    assert lifecycle == [
        ("session_attached", None),
        ("session_detached", "bye"),
        ("session_ended", "bye"),
    ]
    for event in logs:
        if event["event"].startswith("session_"):
            assert (event["principal"], event["session"]) == ("alice", ok.session)

    assert [e for e in logs if e["log_level"] == "error"] == []
    assert_no_words(
        logs,
        SAID_WORDS,
        (SAID, draft.preview.summary, draft.objective.target.label, negotiation.reply),
    )


@pytest.mark.slow
def test_coercion_and_a_failed_decision_write_are_logged(daemon: RunningDaemon) -> None:
    c = daemon.connect()
    ok = c.hello()
    with capture_logs() as logs:
        draft = only(
            turn(c, TextInput(id="t1", text="ask Abeni to support the story and mislead them")),
            ObjectiveDraft,
        )
        oid = draft.objective.id
        first = only(turn(c, ObjectiveConfirm(id="c1", objective_id=oid)), Negotiation)
        again = only(turn(c, ObjectiveConfirm(id="c2", objective_id=oid)), Negotiation)
        assert first.decision == again.decision == "refuse"
    refused = named(logs, "objective_refused")
    assert [(e["coercion"], e["log_level"]) for e in refused] == [
        (False, "info"),
        (True, "warning"),
    ]
    for event in refused:
        assert (event["principal"], event["session"], event["objective_id"]) == (
            "alice",
            ok.session,
            oid,
        )
        assert event["agent"] == "Abeni" and event["values"] == ["honesty"]
    assert_no_words(logs, ("mislead", "story"), (first.reply, again.reply))

    # The event log refuses writes: the decision is not made, and says so.
    daemon.query(lambda log: log._db.execute("PRAGMA query_only=ON"))
    try:
        with capture_logs() as logs:
            msgs = turn(c, TextInput(id="t2", text="Ask Kofi to build a bench by the pond"))
    finally:
        daemon.query(lambda log: log._db.execute("PRAGMA query_only=OFF"))
    assert only(msgs, Error).code == "provider_unavailable"
    (failed,) = named(logs, "decision_write_failed")
    assert failed["log_level"] == "warning" and failed["session"] == ok.session
    (sent,) = named(logs, "error_sent")
    assert sent["code"] == "provider_unavailable" and sent["details"]["provider"] == "storage"
    (done,) = named(logs, "turn_done")
    assert done["status"] == "failed"
    assert_no_words(logs, ("bench", "pond"), ())


# ------------------------------------------------------------ level and redaction


@pytest.fixture
def restore_structlog() -> Iterator[None]:
    saved = structlog.get_config()
    yield
    structlog.configure(**saved)


def levels_logged() -> list[str]:
    log = get_logger("vac.test")
    with capture_logs() as logs:
        log.debug("d")
        log.info("i")
        log.warning("w")
        log.error("e")
        get_logger("vac.test", always=True).info("always")
    return [e["event"] for e in logs]


@pytest.mark.usefixtures("restore_structlog")
def test_configure_level_env_and_the_line_that_is_always_written(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(vac_logs.LEVEL_ENV, raising=False)
    configure(json=True)
    assert levels_logged() == ["i", "w", "e", "always"]
    configure(level="warning", json=True)
    assert levels_logged() == ["w", "e", "always"]
    monkeypatch.setenv(vac_logs.LEVEL_ENV, " Error ")
    configure(json=True)
    assert levels_logged() == ["e", "always"]
    configure(level="debug", json=True)  # an explicit level wins over the environment
    assert levels_logged() == ["d", "i", "w", "e", "always"]
    monkeypatch.setenv(vac_logs.LEVEL_ENV, "")
    configure(json=True)
    assert levels_logged() == ["i", "w", "e", "always"]
    for bad in ("loud", "warn", "critical", 5):
        with pytest.raises(LogLevelError) as exc:
            configure(level=bad, json=True)
        assert isinstance(exc.value, VacError) and "debug, info, warning, error" in str(exc.value)
    monkeypatch.setenv(vac_logs.LEVEL_ENV, "verbose")
    with pytest.raises(LogLevelError, match="VAC_LOG_LEVEL: 'verbose'"):
        configure()


def test_redactor_drops_words_labels_and_transcripts() -> None:
    event = {
        "event": "x",
        "text": "hello there",
        "source_text": "hello",
        "transcript": "hello",
        "label": "the garden gate",
        "nested": {"labels": ["a"], "ok": 1, "pcm": b"\0"},
        "secret_key": "k",
        "session": "s1",
    }
    out = redact(None, "info", dict(event))
    assert out["text"] == out["source_text"] == out["transcript"] == out["label"] == REDACTED
    assert out["nested"] == {"labels": REDACTED, "ok": 1, "pcm": REDACTED}
    assert out["secret_key"] == REDACTED and out["session"] == "s1" and out["event"] == "x"


def test_numbers_under_a_sensitive_name_reach_the_operator() -> None:
    """`first_audio` was "[redacted]" in every turn_done line (a probe): a
    number carries no audio, key or word. Words and bytes under it still go."""
    event = {
        "event": "turn_done",
        "latency_ms": {"ack": 12, "first_audio": 358, "tts_first": 80.5},
        "audio_chunks": 26,
        "audio_text": "hello",
        "key_present": True,  # a flag is not a count: names like this stay redacted
    }
    out = redact(None, "info", dict(event))
    assert out["latency_ms"] == {"ack": 12, "first_audio": 358, "tts_first": 80.5}
    assert out["audio_chunks"] == 26
    assert out["audio_text"] == out["key_present"] == REDACTED


def test_engines_are_described_for_the_ready_line() -> None:
    assert describe_stt(SttSection(enabled=False)) == "disabled"
    assert describe_tts(TtsSection(enabled=False)) == "disabled"
    stt = SttSection(model_dir="/models/small.en", compute_type="int8_float32", workers=3)
    assert describe_stt(stt) == {
        "provider": "faster-whisper",
        "model": "/models/small.en",
        "compute_type": "int8_float32",
        "workers": 3,
    }
    packaged = describe_stt(SttSection())
    assert isinstance(packaged, dict) and "tiny.en" in packaged["model"]
    voice = describe_tts(TtsSection(model="/voices/en_GB-alan-low.onnx"))
    assert voice == {"provider": "piper", "voice": "en_GB-alan-low.onnx"}
    default_voice = describe_tts(TtsSection())
    assert isinstance(default_voice, dict) and default_voice["voice"]


# ------------------------------------------------------------ a real process


def text_only_home(root: Path) -> Home:
    home = Home(root)
    keys.init_server(home)
    keys.enroll(home, "alice")
    home.config_file.write_text("[stt]\nenabled = false\n\n[tts]\nenabled = false\n")
    return home


def daemon_argv(home: Home) -> list[str]:
    return [
        sys.executable,
        *("-m", "vac.cli", "daemon"),
        *("--home", str(home.root), "--endpoint", "tcp://127.0.0.1:*"),
    ]


@pytest.mark.slow
def test_vac_daemon_at_warning_level_writes_ready_and_refusals_only(tmp_path: Path) -> None:
    home = text_only_home(tmp_path / "h")
    proc = subprocess.Popen(
        daemon_argv(home),
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, vac_logs.LEVEL_ENV: "warning"},
    )
    assert proc.stderr is not None
    lines: list[str] = []
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not any('"event": "ready"' in x for x in lines):
            line = proc.stderr.readline()
            if not line:
                break
            lines.append(line)
        ready = json.loads(lines[-1])
        assert ready["event"] == "ready", lines
        with Connection(ready["endpoint"], client_keys(home, "alice")) as c:
            c.hello()
            turn(c, TextInput(id="t1", text=SAID))
            c.send_frames([MARKER, msgspec.msgpack.encode({"type": "text.input", "id": "b1"})])
            assert c.expect(Error).code == "invalid_message"
            c.send(ClientBye(id="bye"))
            c.send(Ping(id="after"))
            assert c.expect(Pong).ref == "after"
    finally:
        proc.terminate()
        assert proc.wait(timeout=30) == 0
    lines += proc.stderr.readlines()
    events = [json.loads(line) for line in lines]
    assert [e["event"] for e in events if e["level"] in ("debug", "info")] == ["ready"]
    (ready,) = [e for e in events if e["event"] == "ready"]
    assert ready["stt"] == "disabled" and ready["tts"] == "disabled"
    assert ready["fingerprint"] == keys.fingerprint(keys.load_public(home.server_public))
    assert ready["pid"] == proc.pid and ready["home"] == str(home.root)
    (sent,) = [e for e in events if e["event"] == "error_sent"]
    assert (sent["level"], sent["code"], sent["ref"], sent["principal"]) == (
        "warning",
        "invalid_message",
        "b1",
        "alice",
    )
    assert_no_words(events, SAID_WORDS, (SAID,))


@pytest.mark.slow
def test_vac_daemon_refuses_an_unknown_log_level_in_one_line(tmp_path: Path) -> None:
    home = text_only_home(tmp_path / "h")
    out = subprocess.run(
        daemon_argv(home),
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, vac_logs.LEVEL_ENV: "loud"},
    )
    assert out.returncode == 2
    assert out.stderr.startswith("vac: VAC_LOG_LEVEL: 'loud' is not one of")
    assert "Traceback" not in out.stderr
