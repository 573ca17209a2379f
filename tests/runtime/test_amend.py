"""A change said to the draft just read back: golden tables, read as the
runtime reads them (`runtime.amend.Reading.changed`, pure: words in, a
draft out), and the words `intent.follow_up` makes of them."""

from __future__ import annotations

import datetime as dt
from typing import NamedTuple

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vac.intent import Clarify, Draft, default_roster, follow_up, understand
from vac.protocol.objective import Objective
from vac.runtime.amend import Reading

NOW = dt.datetime(2026, 12, 5, 10, 0, tzinfo=dt.UTC)  # a Saturday
ROSTER = default_roster()


def parse(text: str) -> Draft | Clarify:
    return understand(
        text, confidence=1.0, evidence=None, now=NOW, roster=ROSTER, current_agent=None,
        objective_id="o",
    )  # fmt: skip


class Entry(NamedTuple):
    objective: Objective


def changed(source: str, text: str) -> Objective | None:
    pending = parse(source)
    assert isinstance(pending, Draft)
    reading = Reading(NOW, ROSTER, None)
    got = reading.changed(text, 1.0, None, Entry(pending.objective))
    return None if got is None else got.objective


GATE = "Kofi, fix the gate"


@pytest.mark.parametrize(
    ("source", "text", "field", "value"),
    [
        # A typed probe's corrections, each said as the next turn: all were
        # "I heard you, but not what to do", and the next "yes" confirmed
        # the draft unchanged.
        ("Zuri, fix the gate", "no, I said Kofi", "agent", "Kofi"),
        ("Zuri, fix the gate", "no, tell Kofi instead", "agent", "Kofi"),
        ("Zuri, fix the gate", "No Kofi", "agent", "Kofi"),
        (GATE, "no, Zuri instead", "agent", "Zuri"),
        (GATE, "actually, Zuri", "agent", "Zuri"),
        (GATE, "Zuri, you do it", "agent", "Zuri"),
        (GATE, "let Zuri do it", "agent", "Zuri"),
        (GATE, "ask Zuri instead", "agent", "Zuri"),
        ("fix the gate", "Zuri", "agent", "Zuri"),  # the default agent's draft
        ("Kofi, fix the gate today", "I meant tomorrow not today", "deadline", "2026-12-06"),
        ("Kofi, fix the gate tomorrow", "actually Friday", "deadline", "2026-12-11"),
        ("Kofi, fix the gate tomorrow", "by Friday", "deadline", "2026-12-11"),
        (GATE, "change it to Friday", "deadline", "2026-12-11"),
        (GATE, "make that Friday", "deadline", "2026-12-11"),
        (GATE, "tomorrow please", "deadline", "2026-12-06"),
        (GATE, "not the gate, the fence", "target", "Fence"),
        (GATE, "the fence not the gate", "target", "Fence"),
        (GATE, "urgent", "priority", 90),
        (GATE, "it's urgent", "priority", 90),
        ("ask Kofi to fix the gate by Friday", "make it urgent", "priority", 90),
        ("ask Kofi to fix the gate by Friday", "yes, and make it urgent", "priority", 90),
        (GATE, "no rush", "priority", 25),
        ("Tariq, guard the barn", "yes please, but make it tomorrow", "deadline", "2026-12-06"),
        (GATE, "use your judgment", "autonomy", "free"),
        (GATE, "check with me first", "autonomy", "direct-tether"),
        (GATE, "no, ask Zuri to map the river instead", "verb", "Map"),
    ],
)
def test_a_change_said_next_changes_that_field(
    source: str, text: str, field: str, value: object
) -> None:
    got = changed(source, text)
    assert got is not None, text
    read = {"target": got.target.label}.get(field, getattr(got, field))
    assert read == value, got
    if field not in ("agent", "verb"):  # the rest of the draft stays as it was
        was = parse(source)
        assert isinstance(was, Draft)
        assert (got.agent, got.verb) == (was.objective.agent, was.objective.verb)


@pytest.mark.parametrize("text", ["and don't use the ladder", "but don't use the ladder"])
def test_a_ban_said_next_is_added(text: str) -> None:
    got = changed(GATE, text)
    assert got is not None and "Do not use the ladder" in [f.text for f in got.forbidden_lines]


@pytest.mark.parametrize(
    "text",
    [
        # Replies, questions, new orders and chatter change nothing: the
        # runtime then reads them as before (a yes or no to the draft, a
        # draft of their own, a question).
        "yes", "yes please", "ok", "great", "perfect thanks", "Lovely, ta", "Aye, go on then",
        "no", "no thanks", "no, leave it", "nah, forget it", "no thanks, not today",
        "nope, scrap it", "no, cancel that", "scrap that", "never mind", "not now thanks",
        "wait", "wait, not yet", "hmm", "what did you hear?", "sorry, what?",
        "Zuri, check the hives", "and ask Zuri to check the hives", "Kofi is busy",
        "it's raining", "the fence too", "Zuri too", "thanks", "",
        "Kofi is busy, fix the gate tomorrow", "Kofi, fix it tomorrow",
    ],
)  # fmt: skip
def test_no_change(text: str) -> None:
    assert changed(GATE, text) is None


@given(st.text(max_size=40))
def test_any_words_give_words_that_start_with_the_draft(text: str) -> None:
    for words in follow_up(text, GATE, alone_is_order=False):
        assert words.startswith(GATE) and len(words) <= len(GATE) + len(text) + 8


def test_a_low_priority_said_after_is_heard_in_the_read_back() -> None:
    pending = parse(GATE)
    assert isinstance(pending, Draft)
    got = Reading(NOW, ROSTER, None).changed("no rush", 1.0, None, Entry(pending.objective))
    assert got is not None and got.summary == "Kofi will repair the gate, no rush — confirm?"
