"""The beam's other hypotheses (speech/nbest.py): golden cases and properties."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from vac.speech.nbest import MAX_ALTERNATIVES, Alternative, others, words_of
from vac.speech.slots import looped

NAMES = ("Abeni", "Kofi", "Zuri", "Tariq", "Imani")


def _looped(text: str) -> bool:
    return looped(text, NAMES)


def test_the_others_differ_in_words_and_say_how_far_behind_they_are() -> None:
    got = others(
        [
            "Could you have Tariq passionate roof by Friday?",
            "Could you have Tariq patch the roof by Friday?",
            "Could you have Tariq passionate roof by Friday.",  # only punctuated apart
            "Could you have Tariq patch the roof by Friday!",  # a copy of the one before
            "Kofi, Tariq, Imani, Zuri, Tariq, Imani, Zuri",  # a loop
            "Could you have Tariq passionate roof 5 Friday?",
        ],
        [-10.0, -11.0, -10.5, -11.5, -12.0, -12.25],
        _looped,
    )
    assert got == (
        Alternative("Could you have Tariq patch the roof by Friday?", 1.0),
        Alternative("Could you have Tariq passionate roof 5 Friday?", 2.25),
    )


def test_nothing_from_nothing() -> None:
    assert others([], [], _looped) == ()
    assert others(["Yes."], [-1.0], _looped) == ()


@given(st.lists(st.tuples(st.text(max_size=20), st.floats(-50, 0)), min_size=1, max_size=8))
def test_at_most_four_all_distinct_in_words_none_the_best(
    hyps: list[tuple[str, float]],
) -> None:
    texts, totals = [h[0] for h in hyps], [h[1] for h in hyps]
    got = others(texts, totals, _looped)
    keys = [words_of(a.text) for a in got]
    assert len(got) <= MAX_ALTERNATIVES
    assert len(set(keys)) == len(keys)
    assert words_of(texts[0]) not in keys and all(keys)
