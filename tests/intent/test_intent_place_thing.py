"""A place said after a preposition as the thing to map, look into or
protect (the sixteenth session; the understanding benchmark's dev half had
"Tell Imani to survey in the valley" asked what to map)."""

from __future__ import annotations

import datetime as dt

import intent_factories as factories
import pytest

from vac.intent import Clarify, Draft, default_roster

NOW = dt.datetime(2026, 3, 11, 9, 30, tzinfo=dt.UTC)  # a Wednesday morning
ROSTER = default_roster()


def understood(text: str) -> Draft | Clarify:
    return factories.understood(text, now=NOW, roster=ROSTER)


@pytest.mark.parametrize(
    ("text", "verb", "label"),
    [
        ("Tell Imani to survey in the valley, use your judgment.", "Map", "Valley"),
        ("Zuri, scout around the hills.", "Map", "Hills"),
        ("Kofi, explore around the old mill.", "Map", "Old mill"),
        ("Zuri, explore in the forest.", "Map", "Forest"),
        ("Imani, keep watch in the barn tonight.", "Protect", "Barn"),
        ("Kofi, investigate in the attic.", "Investigate", "Attic"),
        ("Abeni, help out at the fair.", "Support", "Fair"),
    ],
)
def test_a_place_after_a_preposition_is_the_thing(text: str, verb: str, label: str) -> None:
    got = understood(text)
    assert isinstance(got, Draft), got
    assert (got.objective.verb, got.objective.target.label) == (verb, label)


@pytest.mark.parametrize(
    "text",
    [
        "Could you have Imani map in the cracked wall? No rush.",  # a misheard "examine"
        "Zuri, search in the shed for the keys.",  # "in" a thing: asked
        "Kofi, check in the morning.",  # a time
        "Zuri, help in the end.",  # a time (was "Zuri will support the end")
        "Kofi, map in the morning",
    ],
)
def test_no_place_is_still_asked(text: str) -> None:
    got = understood(text)
    assert isinstance(got, Clarify) and got.reason == "no-target", got
