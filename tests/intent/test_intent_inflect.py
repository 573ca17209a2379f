"""`vac.intent.inflect`: a deed's plain form for a boundary ("no smoking" →
"Do not smoke"), and which "-ing" words are deeds."""

from __future__ import annotations

import pytest

from vac.intent.inflect import a_deed, alone_at, base_form, starts_an_order

GOLDEN = {
    "smoking": "smoke",
    "diving": "dive",
    "naming": "name",
    "fencing": "fence",
    "exaggerating": "exaggerate",
    "deciding": "decide",
    "arguing": "argue",
    "chasing": "chase",
    "using": "use",
    "lying": "lie",
    "visiting": "visit",
    "opening": "open",
    "listening": "listen",
    "hunting": "hunt",
    "shooting": "shoot",
    "eating": "eat",
    "cutting": "cut",
    "climbing": "climb",
    "watching": "watch",
    "fixing": "fix",
    "spying": "spy",
}


@pytest.mark.parametrize(("said", "plain"), GOLDEN.items())
def test_the_plain_form(said: str, plain: str) -> None:
    assert base_form(said) == plain


@pytest.mark.parametrize("word", ["climbing", "shouting", "lying", "smoking"])
def test_deeds(word: str) -> None:
    assert a_deed(word)


@pytest.mark.parametrize("word", ["morning", "thing", "ceiling", "kidding", "rush", "one"])
def test_not_deeds(word: str) -> None:
    assert not a_deed(word)


def test_leave_alone_runs_to_alone_within_six_words() -> None:
    assert alone_at(["leave", "the", "hens", "alone"], 1) == 3
    assert alone_at(["leave", "the", "gate", "open"], 1) is None
    assert alone_at(["leave", "the", "old", "hinges", ",", "they", "work", "alone"], 1) is None


def test_an_order_starts_first_or_after_a_break() -> None:
    words = ["fix", "it", ",", "no", "climbing", "and", "leave", "them", "alone", "if", "you"]
    words.append("leave")
    assert starts_an_order(words, 0) and starts_an_order(words, 3)
    assert starts_an_order(words, 6) and not starts_an_order(words, 11)
