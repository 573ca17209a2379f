"""Event lines: JSON as received plus client annotations; short human lines."""

from __future__ import annotations

import io
import json

from vac.client.events import EventSink, Received, describe, event_json


def received(header: dict[str, object], payload: bytes | None = None) -> Received:
    return Received(header, None, payload, recv_ms=42)


def test_event_json_keeps_unknown_fields_and_annotates() -> None:
    line = event_json(received({"type": "x.new", "seq": 3, "extra": [1]}, b"\x00" * 8))
    assert json.loads(line) == {
        "type": "x.new",
        "seq": 3,
        "extra": [1],
        "_recv_ms": 42,
        "_payload_bytes": 8,
    }


def test_human_lines_are_short_and_skip_chunks() -> None:
    assert describe({"type": "audio.output.chunk", "index": 1}) is None
    assert describe({"type": "transcript.final", "text": "hi"}) == "transcript.final: 'hi'"
    assert describe({"type": "error", "code": "busy", "message": "later"}) == "error busy: later"
    assert describe({"type": "x.new", "seq": 1, "a": 2}) == 'x.new: {"a": 2}'


def test_provisional_finals_and_decisions_read_as_what_they_are() -> None:
    """A user probe saw a provisional final as a plain one (twice the same
    line) and a confirm as the whole objective in JSON."""
    final = {"type": "transcript.final", "text": "Ask Kofi", "provisional": True}
    assert describe(final) == "transcript.final (provisional): 'Ask Kofi'"
    obj = {"agent": "Kofi", "verb": "Build", "target": {"label": "Bench"}, "status": "accepted"}
    confirmed = {"type": "objective.confirmed", "objective_id": "o1", "objective": obj}
    assert describe(confirmed) == "objective.confirmed: Kofi · Build · Bench [id o1, accepted]"


def test_sink_writes_log_and_stdout() -> None:
    log, out = io.StringIO(), io.StringIO()
    sink = EventSink(log, out, as_json=False)
    sink.write(received({"type": "pong", "seq": 1}))
    sink.write(received({"type": "audio.output.chunk", "seq": 2}, b"\x00\x00"))
    assert len(log.getvalue().splitlines()) == 2
    assert out.getvalue() == "pong: {}\n"


def test_the_same_human_line_again_is_counted_not_repeated() -> None:
    """A user probe's long WAV with --fast printed hundreds of the same error."""
    out = io.StringIO()
    sink = EventSink(None, out, as_json=False)
    limited = {"type": "error", "code": "rate_limited", "message": "too many messages; slow down"}
    for _ in range(300):
        sink.write(received(limited))
    sink.write(received({"type": "transcript.final", "text": "hi"}))
    sink.write(received(limited))
    sink.close()
    assert out.getvalue().splitlines() == [
        "error rate_limited: too many messages; slow down",
        "  (the line above 299 more times)",
        "transcript.final: 'hi'",
        "error rate_limited: too many messages; slow down",
    ]
