"""Text from users and the daemon reaches a terminal escaped, never as controls."""

from __future__ import annotations

import json

import pytest

from tests.client.client_factories import objective
from vac.cli import _print_event
from vac.client.events import describe
from vac.protocol.messages import Negotiation, ObjectiveDraft, Preview
from vac.protocol.text_safety import FORBIDDEN_CODEPOINTS, escape_for_terminal

ESCAPED: list[tuple[str, str]] = [
    ("\x1b[2J", "\\u001b[2J"),  # clear screen
    ("a\x00b", "a\\u0000b"),
    ("\x07bell", "\\u0007bell"),
    ("over\rwrite", "over\\u000dwrite"),  # CR redraws the line: shown, not obeyed
    ("del\x7f", "del\\u007f"),
    ("\x9b2J", "\\u009b2J"),  # C1 CSI
    ("abc\u202edef", "abc\\u202edef"),  # Trojan-source override
    ("\u2066iso\u2069", "\\u2066iso\\u2069"),
    ("line\u2028sep", "line\\u2028sep"),
    ("\ufeffbom", "\\ufeffbom"),
    ("soft\u00adhyphen", "soft\\u00adhyphen"),  # other Cf
    ("tag\U000e0041", "tag\\U000e0041"),  # invisible tag characters
    ("lone \ud800", "lone \\ud800"),  # would not even encode
]

KEPT: list[str] = [
    "plain ascii",
    "tab\tand\nnewline",
    "café 日本語",
    "\U0001f468\u200d\U0001f469\u200d\U0001f467",  # ZWJ emoji
    "می\u200cخواهم",  # ZWNJ
    "no\u00a0break",
    "back\\slash \\u001b as typed",
]


@pytest.mark.parametrize(("raw", "shown"), ESCAPED)
def test_controls_are_shown_as_escapes(raw: str, shown: str) -> None:
    assert escape_for_terminal(raw) == shown


@pytest.mark.parametrize("text", KEPT)
def test_ordinary_text_is_unchanged(text: str) -> None:
    assert escape_for_terminal(text) == text


def test_every_forbidden_character_is_escaped() -> None:
    for cp in FORBIDDEN_CODEPOINTS:
        out = escape_for_terminal(f"x{chr(cp)}y")
        assert out.isprintable() and out.startswith("x\\u") and out.endswith("y"), hex(cp)


def test_printable_text_is_returned_as_is() -> None:
    text = "nothing to do here"
    assert escape_for_terminal(text) is text


def _draft(summary: str) -> ObjectiveDraft:
    return ObjectiveDraft(turn="t", objective=objective(), preview=Preview(summary=summary))


def _negotiation(reply: str) -> Negotiation:
    return Negotiation(
        turn="t",
        objective_id="obj-1",
        decision="accept",
        reply=reply,
        reason="r",
        evidence=[],
        answered_by="policy",
    )


def test_cli_human_output_escapes_daemon_text(capsys: pytest.CaptureFixture[str]) -> None:
    _print_event(_draft("build \x1b[2Ja bench"), as_json=False)
    _print_event(_negotiation("sure\u202e!"), as_json=False)
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\u202e" not in out
    assert "build \\u001b[2Ja bench" in out and "sure\\u202e!" in out


def test_cli_json_output_is_already_escaped(capsys: pytest.CaptureFixture[str]) -> None:
    _print_event(_negotiation("sure\x1b\x7f\u202e\x85"), as_json=True)
    out = capsys.readouterr().out
    assert out.isascii() and all(ch == "\n" or ch.isprintable() for ch in out)
    assert json.loads(out)["reply"] == "sure\x1b\x7f\u202e\x85"


def test_transport_lines_escape_daemon_text() -> None:
    assert describe({"type": "error", "code": "busy", "message": "\x1b[31mred"}) == (
        "error busy: \\u001b[31mred"
    )
    clarify = {"type": "objective.clarify", "question": "who\u2066?", "reason": "r\x00"}
    assert describe(clarify) == "objective.clarify: who\\u2066? (r\\u0000)"
    hello = {"type": "hello.ok", "session": "s", "principal": "p\x1b", "output": {}}
    line = describe(hello)
    assert line is not None and "\x1b" not in line


def test_talk_names_a_missing_audio_device_plainly() -> None:
    from vac.client.talk import audio_device_problem

    msg = audio_device_problem("Error querying device -1")
    assert "no microphone or speaker found" in msg and "-1" not in msg
    assert "Busy" in audio_device_problem("Device unavailable: Busy")
