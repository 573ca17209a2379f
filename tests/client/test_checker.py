"""SessionChecker on golden sequences: a good session passes, each misbehaviour is named."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from tests.client.client_factories import SESSION, hello_ok, spoken_turn, stamp
from vac.client import checker as c
from vac.client.checker import SessionChecker
from vac.protocol.messages import (
    AudioInputCancel,
    AudioInputChunk,
    AudioInputCommit,
    AudioInputDone,
    AudioInputStart,
    AudioOutputChunk,
    AudioOutputDone,
    Error,
    Pong,
    SpeechStopped,
    TranscriptFinal,
    TurnDone,
)


def start(stream: str = "in-1", mode: str = "push_to_talk", msg_id: str = "m-start") -> Any:
    return AudioInputStart(
        id=msg_id, stream=stream, encoding="pcm_s16le", rate=16000, channels=1, mode=mode
    )


def run(received: list[Any], sent: list[Any] | None = None, **hello: Any) -> list[str]:
    chk = SessionChecker()
    for msg in sent or [start()]:
        chk.sent(msg)
    chk.received(hello_ok(**hello))
    for msg in stamp(received):
        chk.received(msg)
    return [p.reason for p in chk.finish()]


def error(code: str, ref: str | None = "m-x", **kw: Any) -> Error:
    return Error(code=code, message=f"{code} happened", ref=ref, retryable=False, **kw)


def test_good_session_passes() -> None:
    assert run(spoken_turn()) == []


def test_two_good_turns_and_a_tolerated_input_gap_pass() -> None:
    sent = [start("in-1", msg_id="s1"), start("in-2", msg_id="s2")]
    msgs = [
        *spoken_turn("in-1", "t1", "o1"),
        error("input_gap", details={"expected": 3, "got": 5}),
        *spoken_turn("in-2", "t2", "o2"),
    ]
    assert run(msgs, sent) == []


def test_missing_turn_done_is_named() -> None:
    msgs = [m for m in spoken_turn() if not isinstance(m, TurnDone)]
    assert run(msgs) == [c.MISSING_TURN_DONE]


def test_a_provisional_finals_turn_must_end_too() -> None:
    """§5: a turn a `transcript.final` names ends with one `turn.done`, also
    one announced provisionally (its stream cancelled in the window)."""
    said = TranscriptFinal(stream="in-1", turn="t9", text="ask Kofi", confidence=0.9)
    provisional = msgspec.structs.replace(said, provisional=True)
    sent = [start("in-1", mode="vad"), AudioInputCancel(id="x", stream="in-1")]
    assert run([provisional], sent) == [c.MISSING_TURN_DONE]
    ended = TurnDone(turn="t9", status="cancelled", latency_ms={})
    assert run([provisional, ended], sent) == []


def test_duplicate_turn_done_is_named() -> None:
    msgs = spoken_turn()
    assert run([*msgs, msgs[-1]]) == [c.DUPLICATE_TURN_DONE]


def test_duplicate_audio_input_done_is_named() -> None:
    msgs = spoken_turn()
    assert run([*msgs, msgs[1]]) == [c.DUPLICATE_INPUT_DONE]


def test_missing_audio_input_done_is_named() -> None:
    msgs = [m for m in spoken_turn() if not isinstance(m, AudioInputDone)]
    assert run(msgs) == [c.MISSING_INPUT_DONE]


def test_cancelled_input_stream_owes_no_done() -> None:
    msgs = [m for m in spoken_turn() if not isinstance(m, AudioInputDone)]
    assert run(msgs, [start(), AudioInputCancel(id="m-c", stream="in-1")]) == []


def test_refused_start_owes_no_done_but_its_error_counts() -> None:
    assert run([error("format_unsupported", ref="m-start")]) == [c.ERROR_RECEIVED]


def test_seq_gap_is_named() -> None:
    chk = SessionChecker()
    chk.sent(start())
    chk.received(hello_ok())
    msgs = stamp(spoken_turn())
    for msg in msgs[:3] + [msgspec.structs.replace(m, seq=m.seq + 1) for m in msgs[3:]]:
        chk.received(msg)
    problems = chk.finish()
    assert [p.reason for p in problems] == [c.SEQ_GAP]  # one gap, one problem
    assert "seq 5 arrived, expected 4" in problems[0].detail


def test_hello_ok_must_have_seq_zero() -> None:
    chk = SessionChecker()
    chk.received(msgspec.structs.replace(hello_ok(), seq=2))
    assert [p.reason for p in chk.finish()] == [c.SEQ_GAP]


def test_missing_seq_after_hello_ok_is_a_gap() -> None:
    chk = SessionChecker()
    chk.received(hello_ok())
    chk.received(Pong(session=SESSION))
    assert [p.reason for p in chk.finish()] == [c.SEQ_GAP]


def test_unknown_message_types_still_count_in_seq() -> None:
    chk = SessionChecker()
    chk.received(hello_ok())
    chk.received_unknown("future.thing", 1, SESSION)
    chk.received(Pong(session=SESSION, seq=2))
    assert chk.finish() == []


def test_session_mismatch_is_named() -> None:
    chk = SessionChecker()
    chk.received(hello_ok())
    chk.received(Pong(session="other", seq=1))
    assert [p.reason for p in chk.finish()] == [c.SESSION_MISMATCH]


def test_chunk_count_mismatch_is_named() -> None:
    msgs = spoken_turn(chunks=3)
    msgs = [m for m in msgs if not (isinstance(m, AudioOutputChunk) and m.index == 1)]
    problems = run(msgs)
    assert problems == [c.CHUNK_COUNT_MISMATCH]


def test_chunk_after_done_is_named() -> None:
    msgs = spoken_turn(chunks=2)
    late = AudioOutputChunk(stream="out-1", generation=1, index=2)
    assert run([*msgs[:-1], late, msgs[-1]]) == [c.CHUNK_AFTER_DONE]


def test_missing_output_done_is_named() -> None:
    msgs = [m for m in spoken_turn() if not isinstance(m, AudioOutputDone)]
    assert run(msgs) == [c.MISSING_OUTPUT_DONE]


def test_output_rate_must_be_the_negotiated_rate() -> None:
    assert run(spoken_turn(), rate=24000) == [c.OUTPUT_RATE_MISMATCH]


def test_audio_when_speak_is_false_is_named() -> None:
    assert c.AUDIO_WHILE_SILENT in run(spoken_turn(), speak=False)


@pytest.mark.parametrize("code", ["internal", "stream_closed", "turn_unknown", "rate_limited"])
def test_any_error_but_input_gap_fails(code: str) -> None:
    assert run([*spoken_turn(), error(code)]) == [c.ERROR_RECEIVED]


def test_vad_stream_closed_after_the_endpoint_is_a_tolerated_race() -> None:
    sent = [start(mode="vad"), AudioInputChunk(id="m-late", stream="in-1", seq=90)]
    msgs = spoken_turn()
    race = [
        SpeechStopped(stream="in-1", at_ms=1800),
        error("stream_closed", ref="m-late", stream="in-1"),
    ]
    assert run([*race, *msgs], sent) == []


def test_stream_closed_in_push_to_talk_is_not_tolerated() -> None:
    sent = [start(), AudioInputCommit(id="m-late", stream="in-1", last_seq=3)]
    race = [SpeechStopped(stream="in-1", at_ms=1800), error("stream_closed", ref="m-late")]
    assert run([*race, *spoken_turn()], sent) == [c.ERROR_RECEIVED]


def test_queries_follow_the_traffic() -> None:
    chk = SessionChecker()
    chk.sent(start())
    chk.received(hello_ok())
    msgs = stamp(spoken_turn())
    for msg in msgs[:2]:
        chk.received(msg)
    assert chk.input_done("in-1") and chk.open_turns() == ["turn-1"]
    assert not chk.turn_done("turn-1")
    for msg in msgs[2:]:
        chk.received(msg)
    assert chk.turn_done("turn-1") and chk.open_turns() == []
