"""The understanding benchmark end to end: 3 items, 1 espeak voice, a real daemon."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from benchmarks.understanding import COLUMNS, FIELDS, Options, run

METRICS = (
    "commands",
    "fields_right",
    "per_field",
    "whole_right",
    "agent_right",
    "wer",
    "clarify_when_heard_right",
    "wrong_drafts",
    "flagged_drafts",
    "non_command_drafts",
    "reply_right",
    "ack_p50_ms",
    "ack_p95_ms",
)


@pytest.mark.slow
def test_three_items_one_voice_through_a_real_daemon(tmp_path: Path) -> None:
    out, md, png = tmp_path / "u.json", tmp_path / "u.md", tmp_path / "u.png"
    run(
        Options(split="dev", voices=("espeak-en-us",), limit=3, out=out, md=md, png=png, quiet=True)
    )
    result = json.loads(out.read_text())
    part = result["summary"]["dev"]
    assert set(part) >= {"voices", "spoken", "typed", "reliability", "calibration_error"}
    for m in (part["voices"]["espeak-en-us"], part["spoken"], part["typed"]):
        assert set(METRICS) <= set(m)
        assert set(m["per_field"]) == set(FIELDS)
        assert (m["commands"], m["non_commands"], m["replies"]) == (1, 1, 1)
    spoken = part["spoken"]
    assert spoken["wer"] is not None and spoken["ack_p50_ms"] is not None
    assert part["typed"]["fields_right"] is not None
    assert len(part["reliability"]) == 10
    assert sum(b["n"] for b in part["reliability"]) == 1  # the one spoken command
    assert len(result["records"]) == 6  # 3 items × (espeak + typed)
    report = md.read_text()
    for header, _, _ in COLUMNS:
        assert header in report
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
