"""The pure helpers of household-aware recognition (speech/slots.py)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vac.speech.slots import (
    Decoded,
    NameScore,
    WordProb,
    collapse_repeats,
    lookahead,
    looped,
    name_slot,
    one_copy,
    posteriors,
    word_probs,
)

NAMES = ("Abeni", "Kofi", "Zuri", "Tariq", "Imani")


def test_word_probs_joins_tokens_into_words_with_their_least_sure_token() -> None:
    text, words = word_probs(
        [" Ask", " Kof", "i", " to", " build", "."], [0.9, 0.3, 0.8, 1, 0.95, 0.2]
    )
    assert text == "Ask Kofi to build."
    assert words == (
        WordProb(0, 3, 0.9),
        WordProb(4, 8, 0.3),
        WordProb(9, 11, 1.0),
        WordProb(12, 18, 0.95),  # the full stop carries no evidence of its own
    )
    assert [text[w.start : w.end] for w in words] == ["Ask", "Kofi", "to", "build."]


@given(
    st.lists(
        st.tuples(
            st.sampled_from([" ask", " Ko", "fi", ",", " to", "-", " the", "."]), st.floats(0, 1)
        ),
        max_size=12,
    )
)
def test_word_probs_spans_always_lie_on_the_text(pairs: list[tuple[str, float]]) -> None:
    text, words = word_probs([p for p, _ in pairs], [q for _, q in pairs])
    for w in words:
        assert 0 <= w.start < w.end <= len(text)
        assert text[w.start : w.end].strip() == text[w.start : w.end]
        assert 0.0 <= w.prob <= 1.0
    assert all(a.end < b.start for a, b in itertools.pairwise(words))


@pytest.mark.parametrize(
    ("text", "loop"),
    [
        ("Ask Kami and Tami, Imani, Imani, Imani, Imani", True),
        ("As Kofi, Tariq, Imani, Zuri, Tariq, I", True),
        ("Kofi, Tariq and Imani, Tarij, Tari, Tari.", True),  # the prompt's own "and"
        ("Ask Kofi, Zuri and Imani to map the orchard.", False),  # said, not echoed
        ("Kofi and Zuri and Imani, help the fisherman.", False),
        ("map the map the map the orchard", True),
        ("Ask Kofi to build a bench by tomorrow.", False),
        ("Ask Kofi and Zuri to map the orchard.", False),
        ("", False),
    ],
)
def test_loops_and_prompt_echoes_are_seen(text: str, loop: bool) -> None:
    assert looped(text, NAMES) is loop


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("Ask coffee to build a bench.", "coffee"),
        ("Tell a mani to map the orchard", "a mani"),
        ("Kofi, please fix the gate", "Kofi"),
        ("As Imani to repair the gate", "Imani"),
        ("Could you have Tariq, investigate the barn", "Tariq"),
        ("ask the team to help", None),
        ("Tell him to go", None),
        ("Tell everyone to rest", None),
        ("map the grove path", None),
        ("as soon as you can, map it", None),
        # a name split in two where the address goes (espeak's Imani, Abeni)
        ("Tell me many to survey the hills.", "me many"),
        ("Get the money to guard the orchard.", "the money"),
        ("Get too many to guard the orchard.", "too many"),
        # ... only there: a verb, a pronoun, a group, a plain start
        ("Tell me about the harvest.", None),
        ("Let me know about the fence.", None),
        ("Tell the team to rest.", None),
        ("Tell me to rest.", None),
        ("Can you tell me how to fix the gate?", None),
        ("Tell me, Bob, to go.", None),
        ("Let me — to go.", None),
        ("A storm, they say, is coming.", None),
        # "have a look": the cue's idiom (a spoken probe: rescored "have Kofi at…")
        ("Imani have a look at the car battery by Thursday.", None),
        ("Have a mani look at the roof.", "a mani"),
    ],
)
def test_the_name_slot_is_found_where_the_words_put_a_name(text: str, slot: str | None) -> None:
    found = name_slot(text, NAMES)
    assert (None if found is None else text[found[0] : found[1]]) == slot


def test_two_words_before_to_are_a_split_slot_and_a_name_split_by_a_short_word_is_fused() -> None:
    split = name_slot("Get the money to guard the orchard.", NAMES)
    assert split is not None and split.split and not split.fused
    fused = name_slot("Tell a mani to map the orchard", NAMES)
    assert fused is not None and fused.fused and not fused.split


def test_posteriors_are_a_distribution_best_first() -> None:
    scored = posteriors(NAMES, [-3.0, -5.0, -20.0, -18.0, -4.0])
    assert [s.name for s in scored[:3]] == ["Abeni", "Imani", "Kofi"]
    assert abs(sum(s.posterior for s in scored) - 1.0) < 1e-9
    assert scored[0] == NameScore("Abeni", pytest.approx(0.665, abs=1e-3))


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("Never mind. Never mind.", "Never mind."),
        ("Forget it. Forget it.", "Forget it."),
        (
            "Get a many to guard the Orchard. Get a many Tikard the Orchard.",
            "Get a many to guard the Orchard.",
        ),
        (
            "Ask Kofi to build a bench. Then map the orchard.",
            "Ask Kofi to build a bench. Then map the orchard.",
        ),
        ("Yes.", "Yes."),
    ],
)
def test_a_sentence_read_twice_is_kept_once(text: str, kept: str) -> None:
    assert collapse_repeats(text) == kept


@pytest.mark.parametrize(
    ("text", "slot", "lead"),
    [
        ("Telsuri to fix the leaking tap", "Telsuri", "Tell "),
        ("Telco Phi to befriend the shepherd", "Telco Phi", "Tell "),
        ("Telebeni to report on the storm", "Telebeni", "Tell "),
        ("Tell Kofi to go", "Kofi", ""),
        ("Television is broken", None, ""),
    ],
)
def test_a_cue_fused_with_the_name_is_a_slot_with_its_cue_put_back(
    text: str, slot: str | None, lead: str
) -> None:
    found = name_slot(text, NAMES)
    assert (None if found is None else text[found.start : found.end]) == slot
    assert (found.lead if found else "") == lead


@pytest.mark.parametrize(
    ("after", "near"),
    [
        (" to build a bench by Friday.", " to build a"),
        (", build a bench by Friday.", ", build a bench"),  # a lone comma is no word
        (" to go.", " to go."),
        ("", ""),
        ("  to   fix the gate", "  to   fix the"),
    ],
)
def test_the_rescoring_context_is_the_next_three_words(after: str, near: str) -> None:
    assert lookahead(after) == near
    assert after.startswith(near)


def _decoded(pieces: list[str]) -> Decoded:
    return Decoded("".join(pieces).strip(), -1.5, 0.1, list(range(len(pieces))), None)


@pytest.mark.parametrize(
    ("pieces", "kept"),
    [
        ([" Console", " Console", " Console"], "Console"),
        ([" Console", " Console"], "Console"),  # one word: twice is a loop already
        ([" confirm", " confirm", " confirm", " confirm"], "confirm"),
        ([" Nope", " Nope", " Nope"], "Nope"),
        ([" Con", "sole", " Con", "sole"], "Console"),  # never inside a word
        ([" Go", " ahead", " go", " ahead", " go", " ahead"], "Go ahead"),
        ([" Nope", ",", " nope", ",", " nope", "."], "Nope,"),
    ],
)
def test_one_copy_of_a_short_loop(pieces: list[str], kept: str) -> None:
    once = one_copy(_decoded(pieces), pieces, voiced_s=0.6)
    assert once is not None
    assert once.text == kept
    assert once.tokens == list(range(len(once.tokens)))
    assert "".join(pieces[: len(once.tokens)]).strip() == kept


@pytest.mark.parametrize(
    "pieces",
    [
        [" Cancel", "."],  # no loop
        [" Go", " ahead", " go", " ahead"],  # two words said twice: "go ahead, go ahead"
        [" No", ",", " no", ",", " thanks"],  # more than the loop's word
        [" Yes", " no", " yes"],
    ],
)
def test_no_copy_of_what_is_no_loop(pieces: list[str]) -> None:
    assert one_copy(_decoded(pieces), pieces, voiced_s=0.6) is None


def test_no_copy_when_the_voice_lasts_longer_than_one_copy() -> None:
    """ "No, no, no, No, no." for a 2.5 s command: never a "No" (a probe)."""
    pieces = [" No", ",", " no", ",", " no", ",", " No", ",", " no", "."]
    assert one_copy(_decoded(pieces), pieces, voiced_s=2.5) is None
    assert one_copy(_decoded(pieces), pieces, voiced_s=0.9) is not None


def test_a_count_said_twice_is_no_loop() -> None:
    pieces = [" No", ".", " 5", ",", " no", " 5"]
    assert one_copy(_decoded(pieces), pieces, voiced_s=0.6) is None
