"""docs/speaking.md cannot drift from the parser.

Every line of a ```text block is parsed: it must make a draft, and each
`key: value` after `→` must hold for it (`→ clarify: REASON` lines must make
that question instead; `→ confirm` / `reject` / `neither` lines are spoken
replies). Every word table on the page must equal the parser's own list.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import NamedTuple

import pytest

from vac.daemon.config import decode_config, intent_config
from vac.intent import (
    Clarify,
    Draft,
    classify_reply,
    default_roster,
    negotiate,
    reply_words,
    understand,
)
from vac.intent import lexicon as lx

SPEAKING_MD = Path(__file__).resolve().parents[2] / "docs" / "speaking.md"
TEXT = SPEAKING_MD.read_text()
# The moment the page's dates were read at (it says so): Friday 1 May 2026.
NOW = dt.datetime(2026, 5, 1, 10, 0, tzinfo=dt.UTC)
OBJECTIVE_ID = "0123456789abcdef0123456789abcdef"
_FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```", re.M | re.S)


class Example(NamedTuple):
    line: int
    said: str
    expect: str  # what follows →, or ""


def _blocks(language: str) -> list[tuple[int, str]]:
    """(first line number, body) of every fenced block in `language`."""
    return [
        (TEXT.count("\n", 0, m.start(2)) + 1, m.group(2))
        for m in _FENCE.finditer(TEXT)
        if m.group(1).strip() == language
    ]


def _examples() -> list[Example]:
    out: list[Example] = []
    for first, body in _blocks("text"):
        for offset, raw in enumerate(body.splitlines()):
            if not raw.strip():
                continue
            said, _, expect = raw.partition("→")
            out.append(Example(first + offset, said.strip(), expect.strip()))
    return out


EXAMPLES = _examples()


def _parse(said: str) -> Draft | Clarify:
    """As the daemon reads typed text (`intent.understand` without evidence)."""
    return understand(
        said,
        confidence=1.0,
        evidence=None,
        now=NOW,
        roster=default_roster(),
        current_agent=None,
        objective_id=OBJECTIVE_ID,
    )


def _boundaries(draft: Draft) -> set[str]:
    return {
        f"{line.text} ({line.value_ref.removeprefix('value:')})"
        for line in draft.objective.forbidden_lines
        if line.value_ref.startswith("value:")
    }


def _check(draft: Draft, key: str, value: str) -> None:
    obj = draft.objective
    match key:
        case "agent":
            assert obj.agent == value
        case "verb":
            assert obj.verb == value
        case "target":
            assert obj.target.label == value
        case "deadline":
            assert obj.deadline == (None if value == "none" else value)
        case "priority":
            assert obj.priority == int(value)
        case "autonomy":
            assert obj.autonomy == value
        case "heard":
            assert draft.heard_as == value
        case "constraint":
            kind, _, wanted = value.partition("=")
            assert (kind, wanted) in {(c.kind, c.value) for c in obj.constraints}
        case "boundary" if value == "none":
            assert _boundaries(draft) == set()
        case "boundary":
            assert value in _boundaries(draft)
        case "note":  # the summary's note, in parentheses
            assert f"({value})" in draft.summary
        case "answer":
            agent = default_roster().get(obj.agent)
            assert agent is not None
            assert negotiate(obj, agent, now=NOW, prior_refusal=False).decision == value
        case _:
            pytest.fail(f"docs/speaking.md: unknown expectation {key!r}")


def test_the_page_has_examples() -> None:
    assert len(EXAMPLES) > 60


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: f"L{e.line}:{e.said}")
def test_example(example: Example) -> None:
    where = f"docs/speaking.md line {example.line}: {example.said!r}"
    if example.expect in ("confirm", "reject", "neither"):
        wanted = None if example.expect == "neither" else example.expect
        assert classify_reply(example.said) == wanted, where
        return
    result = _parse(example.said)
    if example.expect.startswith("clarify:"):
        assert isinstance(result, Clarify), f"{where} made a draft, not a question"
        assert result.reason == example.expect.removeprefix("clarify:").strip(), where
        return
    assert isinstance(result, Draft), f"{where} did not parse: {getattr(result, 'question', '')}"
    for item in filter(None, (p.strip() for p in example.expect.split(";"))):
        key, sep, value = item.partition(":")
        assert sep, f"{where}: write expectations as `key: value`"
        try:
            _check(result, key.strip(), value.strip())
        except AssertionError:
            pytest.fail(f"{where}: expected {item!r}, got {result.objective}")


def _row(first_cell: str) -> set[str]:
    """The quoted phrases in the second cell of the one table row whose first
    cell is `first_cell` (the "say" column)."""
    rows = [
        line
        for line in TEXT.splitlines()
        if line.startswith("|") and line.split("|")[1].strip() == first_cell
    ]
    assert len(rows) == 1, f"docs/speaking.md: expected one table row {first_cell!r}"
    return {p.lower() for p in re.findall(r'"([^"]+)"', rows[0].split("|")[2])}


def _joined(table: tuple[tuple[str, ...], ...]) -> set[str]:
    return {" ".join(p) for p in table}


def test_the_verb_table_is_the_lexicon() -> None:
    for verb in sorted(set(lx.VERB_CUES.values())):
        cues = {cue for cue, v in lx.VERB_CUES.items() if v == verb}
        assert _row(verb) == cues, verb


def test_the_priority_table_is_the_lexicon() -> None:
    for tier, cues in lx.PRIORITY_TIERS:
        assert _row(str(tier)) == _joined(cues), tier
    assert f"Priority is {lx.DEFAULT_PRIORITY} unless" in TEXT


def test_the_autonomy_table_is_the_lexicon() -> None:
    for mode, cues in lx.AUTONOMY_CUES:
        assert _row(mode) == _joined(cues), mode


def test_the_constraint_table_is_the_lexicon() -> None:
    for kind, table in (("pace", lx.PACE_CUES), ("safety", lx.SAFETY_CUES)):
        for value in set(table.values()):
            assert _row(f"{kind} {value}") == {c for c, v in table.items() if v == value}
    assert _row("privacy discreet") == _joined(lx.PRIVACY_CUES)


def test_the_boundary_markers_are_the_lexicon() -> None:
    assert _row("boundary") == _joined(lx.FORBID_MARKERS)


def test_the_yes_and_no_phrases_are_the_gate() -> None:
    assert _row("confirm") == set(reply_words._CONFIRM)
    assert _row("reject") == set(reply_words._REJECT)
    assert _row("confirm, understood when heard") == set(reply_words.CONFIRM_HEARD)
    assert _row("reject, understood when heard") == set(reply_words.REJECT_HEARD)


def test_the_built_in_roster_is_named() -> None:
    names = default_roster().names()
    assert f"**{', '.join(names[:-1])} and {names[-1]}**" in " ".join(TEXT.split())


@pytest.mark.parametrize("first_line", [n for n, _ in _blocks("toml")])
def test_toml_examples_decode_and_replace_the_roster(first_line: int) -> None:
    body = dict(_blocks("toml"))[first_line]
    roster = intent_config(decode_config(body.encode())).roster()
    assert roster.names() == re.findall(r'^name = "([^"]+)"', body, re.M)
