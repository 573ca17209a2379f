"""Which of several pending drafts a yes or no names (intent/picks.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vac.intent import Named, Pick, picked

DRAFTS = [Named("Kofi", "Garden gate"), Named("Zuri", "Fence"), Named("Kofi", "Hens")]


@pytest.mark.parametrize(
    ("said", "pick"),
    [
        ("yes to the gate one", Pick("confirm", 0)),
        ("Yes to the gate job.", Pick("confirm", 0)),
        ("yes to the gates", Pick("confirm", 0)),
        ("yes to Kofi's gate", Pick("confirm", 0)),
        ("go ahead with the hens", Pick("confirm", 2)),
        ("Zuri's, yes please", Pick("confirm", 1)),
        ("yes the second one", Pick("confirm", 1)),
        ("the last one, yes", Pick("confirm", 2)),
        ("cancel the fence", Pick("reject", 1)),
        ("no to the fence", Pick("reject", 1)),
        ("the fence one, no", Pick("reject", 1)),
        ("no, the fence one", Pick("reject", 1)),
        ("forget the hens", Pick("reject", 2)),
        ("confirm both", Pick("confirm", None)),
        ("do the first one", Pick("confirm", 0)),
        ("do Zuri's", Pick("confirm", 1)),
        ("cancel all of them", Pick("reject", None)),
        # The twenty-third session's conversation probe: a name with a word
        # that only confirms or cancels, and "both of them, yes".
        ("cancel Zuri", Pick("reject", 1)),
        ("and cancel Zuri", Pick("reject", 1)),
        ("yes to Zuri", Pick("confirm", 1)),
        ("confirm Zuri", Pick("confirm", 1)),
        ("both of them, yes", Pick("confirm", None)),
    ],
)
def test_a_yes_or_no_that_names_one_draft_picks_it(said: str, pick: Pick) -> None:
    assert picked(said, DRAFTS) == pick


@pytest.mark.parametrize(
    "said",
    [
        "yes",  # names none
        "no",
        "confirm Kofi's",  # Kofi has two
        "yes to the shed",  # no such draft
        "no to Kofi",
        "cancel Kofi",  # Kofi has two
        "yes to the gate, but by Friday",  # more than a pick
        "no, Zuri should fix the gate",  # an order of its own
        "yes, check the fence",
        "yes to the fence, no to the gate",  # both ways
        "the gate one",  # no yes or no
        "no, Zuri",  # a change of agent, maybe (a review: it cancelled Zuri's)
        "yes, Zuri",
        "yes, the gate",  # a short yes names a draft only with to / one / job / 's / an ordinal
        "do the gate",
        "nope, the fence",  # a bare no picks only with "one" / "job"
        "yes to the gate one?",  # a question
        "yes the fourth one",
    ],
)
def test_anything_else_is_no_pick(said: str) -> None:
    assert picked(said, DRAFTS) is None


@given(st.text(max_size=40))
def test_a_pick_names_a_draft_that_is_there(said: str) -> None:
    got = picked(said, DRAFTS)
    assert got is None or got.at is None or 0 <= got.at < len(DRAFTS)


def test_with_one_draft_words_naming_it_pick_it_and_both_picks_nothing() -> None:
    one = DRAFTS[:1]
    assert picked("cancel the gate one", one) == Pick("reject", 0)
    assert picked("cancel the fence", one) is None
    assert picked("confirm both", one) is None
