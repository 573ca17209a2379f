"""`vac.intent.inflect`: a deed's plain form for a boundary ("no smoking" →
"Do not smoke"), and which "-ing" words are deeds."""

from __future__ import annotations

import pytest

from vac.intent.inflect import a_deed, alone_at, base_form, may_start_boundary

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
    "buzzing": "buzz",
    "waltzing": "waltz",
    "combating": "combat",
    "handling": "handle",
    "charging": "charge",
    "releasing": "release",
    "exploring": "explore",
    "anchoring": "anchor",
    "freeing": "free",
    "typing": "type",
    "exploding": "explode",
    "guiding": "guide",
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


@pytest.mark.parametrize(
    ("said", "at", "starts"),
    [
        ("fix it , no climbing", 3, True),
        ("fix it , no climbing on the roof", 3, True),
        ("fix it by friday no climbing", 4, False),  # no comma: not guessed
        ("fix it , no running water", 3, False),  # a noun after it
        ("fix it , no climbing the ladder", 3, True),  # its object
        ("there's no heating", 1, False),
        ("and leave the hens alone", 1, True),
        ("you must leave the hens alone", 2, False),
        ("the fox won't ever leave them alone", 4, False),
    ],
)
def test_where_no_and_leave_start_a_boundary(said: str, at: int, starts: bool) -> None:
    assert may_start_boundary(said.split(" "), at) == starts
