"""Phrase splitting: golden cases and the whitespace-only-cut invariants."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vac.speech.phrases import split_phrases

GOLDEN: list[tuple[str, list[str]]] = [
    ("", []),
    ("   ", []),
    ("Okay.", ["Okay."]),
    ("Yes. Kofi will do it.", ["Yes.", "Kofi will do it."]),
    ("Really? Yes! Good.", ["Really?", "Yes!", "Good."]),
    ('He said "stop." Then left.', ['He said "stop."', "Then left."]),
    (
        "Dr. Mensah arrives at 3.30 today. Confirm?",
        ["Dr. Mensah arrives at 3.30 today.", "Confirm?"],
    ),
    ("Ask J. Smith, e.g. now. Done.", ["Ask J. Smith, e.g. now.", "Done."]),
    (
        "Kofi will build a wooden bench near the pond, by tomorrow, and report any blockers. "
        "Confirm?",
        [
            "Kofi will build a wooden bench near the pond, by tomorrow,",
            "and report any blockers.",
            "Confirm?",
        ],
    ),
    (
        "Kofi will build a wooden bench near the pond by tomorrow and report blockers to you.",
        ["Kofi will build a wooden bench near the pond by tomorrow", "and report blockers to you."],
    ),
    (
        "Kofi will build a wooden bench near the pond by tomorrow morning at the latest.",
        ["Kofi will build a wooden bench near the pond by tomorrow morning at the latest."],
    ),
    ("No sentence end here", ["No sentence end here"]),
]


@pytest.mark.parametrize(("text", "phrases"), GOLDEN)
def test_golden(text: str, phrases: list[str]) -> None:
    assert split_phrases(text) == phrases


def test_long_sentence_is_cut_under_max_chars_at_clause_then_space() -> None:
    text = ("alpha beta gamma delta " * 20).strip() + "."
    phrases = split_phrases(text, first_max_chars=30, max_chars=50)
    assert all(len(p) <= 50 for p in phrases)
    assert " ".join(phrases) == text


def test_a_word_longer_than_max_chars_stays_whole() -> None:
    word = "x" * 80
    assert split_phrases(f"see {word} now", first_max_chars=10, max_chars=20) == [
        "see",
        word,
        "now",
    ]


def test_invalid_limits_are_refused() -> None:
    with pytest.raises(ValueError):
        split_phrases("a", first_max_chars=0)
    with pytest.raises(ValueError):
        split_phrases("a", first_max_chars=100, max_chars=50)


_WORDS = st.sampled_from(
    [
        "Kofi",
        "will",
        "build",
        "a",
        "bench",
        "Dr.",
        "e.g.",
        "now,",
        "and",
        "then;",
        "yes.",
        "no!",
        "why?",
        "—",
        "x" * 70,
        "3.5",
        '"ok."',
        "(fine.)",
        "J.",
    ]
)
_SPACES = st.sampled_from([" ", "  ", "\n", "\t", " \n "])
_TEXT = st.one_of(
    st.text(max_size=400),
    st.lists(st.tuples(_WORDS, _SPACES), max_size=80).map(lambda ws: "".join(a + b for a, b in ws)),
)


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


@settings(max_examples=300, deadline=None)
@given(_TEXT, st.integers(min_value=1, max_value=80), st.integers(min_value=0, max_value=200))
def test_properties(text: str, first_max: int, extra: int) -> None:
    max_chars = first_max + extra
    phrases = split_phrases(text, first_max_chars=first_max, max_chars=max_chars)
    # Joined back, the phrases are the text modulo whitespace.
    assert _squash("".join(phrases)) == _squash(text)
    at = 0
    for phrase in phrases:
        assert phrase and phrase == phrase.strip()
        start = text.index(phrase, at)
        # Never inside a word: each phrase is bounded by whitespace or the text's ends.
        assert start == 0 or text[start - 1].isspace()
        end = start + len(phrase)
        assert end == len(text) or text[end].isspace()
        assert not text[at:start].strip()
        at = end
        # Over max_chars only when a single word is.
        if len(phrase) > max_chars:
            assert any(len(word) > max_chars for word in phrase.split())
