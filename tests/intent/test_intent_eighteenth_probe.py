"""An eighteenth round of probes (2026-12-08, the twenty-sixth session;
none from the understanding corpus): a typed probe (T29: clock times in
words, event deadlines, "let's", sequences, "don't forget", possessives,
manner, very short turns, the recogniser's sound-alikes, formal English)
and a conversation probe (T28c), read as first turns."""

from __future__ import annotations

import intent_factories as factories
import pytest

from vac.intent import Clarify, lexicon

run = factories.probe_run
draft = factories.probe_draft

# PROBE_NOW is Wednesday 2026-03-11, 09:30.


@pytest.mark.parametrize(
    ("text", "deadline", "label"),
    [
        ("kofi fix the gate by for o'clock", "2026-03-11", "Gate"),
        ("kofi fix the gate by to", "2026-03-11", "Gate"),
        ("zuri visit gran on fry day", "2026-03-13", "Gran"),
        ("kofi repair the fence by next weak", "2026-03-22", "Fence"),
        ("tariq check the boiler two day", "2026-03-11", "Boiler"),
        ("kofi fix the gate buy the weekend", "2026-03-14", "Gate"),
        ("tariq help kofi to morrow with the car", "2026-03-12", "Kofi"),
        ("Kofi, fix the gate by the weak end", "2026-03-14", "Gate"),
        ("Kofi, fix the gate within a weak", "2026-03-18", "Gate"),
    ],
)
def test_time_words_heard_as_sound_alikes_are_the_time(
    text: str, deadline: str, label: str
) -> None:
    """T29: each drafted with no deadline, or the time in the thing ("Boiler two day")."""
    got = draft(text)
    assert (got.objective.deadline, got.objective.target.label) == (deadline, label)


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("Kofi, fix the weak fence", "Weak fence"),
        ("Kofi, fix the gate by the way", "Gate"),
        ("Kofi, fix the gate at his earliest convenience", "Gate"),
        ("Kofi, fix the gate, stand by", "Gate"),
        ("Kofi, fix the gate and drop by", "Gate"),
    ],
)
def test_look_alikes_of_a_lost_time_are_no_time(text: str, label: str) -> None:
    got = draft(text)
    assert (got.objective.deadline, got.objective.target.label) == (None, label)
    assert not [c for c in got.objective.constraints if c.kind == "location"]


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, fix the gate by",
        "Kofi, fix the gate by half term",
        "Kofi, fix the fence by the end of term",
    ],
)
def test_a_time_lost_after_by_is_asked(text: str) -> None:
    """T29: "by" with its time lost or unknown drafted no deadline without a word."""
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "unclear-deadline", got


def test_purchases_and_lengths_keep_their_words() -> None:
    lows = [t.low for t in lexicon.tokenize("go buy the weekend papers, then a two day course")]
    assert "buy" in lows and "two" in lows and "today" not in lows
