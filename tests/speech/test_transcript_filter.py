from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from vac.speech.slots import PROMPT_EXAMPLE, roster_sentence
from vac.speech.transcript_filter import (
    confidence,
    drop_reason,
    normalise,
    speech_level_dbfs,
    voiced_seconds,
)
from vac.speech.wer import word_error_rate

NAMES = ["Abeni", "Kofi", "Zuri", "Tariq", "Imani"]
LOUD = -18.0
QUIET = -55.0


@pytest.mark.parametrize(
    ("text", "no_speech_prob", "level_dbfs", "reason"),
    [
        ("Tell Kofi to build a bench.", 0.05, LOUD, None),
        ("Thank you.", 0.1, LOUD, None),  # said out loud, it is speech
        ("Thank you.", 0.1, QUIET, "hallucination"),
        ("Thanks for watching!", 0.2, QUIET, "hallucination"),
        ("you", 0.3, QUIET, "hallucination"),
        ("Bye.", 0.3, QUIET, "hallucination"),
        ("Imani, Zuri.", 0.3, QUIET, "hallucination"),  # an echo of the name prompt
        ("Zuri, protect the path.", 0.3, QUIET, None),
        ("[BLANK_AUDIO]", 0.1, LOUD, "annotation"),
        ("(music)", 0.1, LOUD, "annotation"),
        ("♪ ♪", 0.1, LOUD, "empty"),
        ("...", 0.1, LOUD, "empty"),
        ("", 0.0, LOUD, "empty"),
        ("Map the grove path.", 0.7, LOUD, "no_speech"),
        ("Zuri, " * 30, 0.1, LOUD, "repetition"),
    ],
)
def test_drop_reason(text: str, no_speech_prob: float, level_dbfs: float, reason: str) -> None:
    got = drop_reason(text, no_speech_prob=no_speech_prob, level_dbfs=level_dbfs, vocabulary=NAMES)
    assert got == reason


def test_the_prompts_example_read_back_on_quiet_audio_is_dropped() -> None:
    # The prompt ends with an example command; tiny.en may read it back on
    # near-silence. Said out loud, the same words are a command.
    echo = "Tasks for Kofi. " + PROMPT_EXAMPLE
    for text, level, reason in ((PROMPT_EXAMPLE, QUIET, "hallucination"),
                                (echo, QUIET, "hallucination"),
                                (PROMPT_EXAMPLE, LOUD, None)):  # fmt: skip
        got = drop_reason(
            text,
            no_speech_prob=0.3,
            level_dbfs=level,
            vocabulary=NAMES,
            prompt_example=PROMPT_EXAMPLE,
        )
        assert got == reason, (text, level)


def test_the_prompt_is_the_roster_then_an_example_command() -> None:
    assert roster_sentence([]) is None
    assert roster_sentence(["Kofi"]) == f"Tasks for Kofi. {PROMPT_EXAMPLE}"
    assert roster_sentence(NAMES, example=False) == "Tasks for Abeni, Kofi, Zuri, Tariq and Imani."
    # Its words are no roster name: the example biases the shape, not who.
    assert not set(normalise(PROMPT_EXAMPLE).split()) & {normalise(n) for n in NAMES}


@pytest.mark.parametrize(
    ("avg_logprob", "no_speech_prob", "expected"),
    [
        (0.0, 0.0, 1.0),
        (-0.1, 0.02, math.exp(-0.1) * 0.98),
        (-1.0, 0.5, math.exp(-1.0) * 0.5),
        (-math.inf, 0.0, 0.0),
        (0.3, 0.0, 1.0),  # a positive logprob cannot exist; clamp rather than exceed 1
        (-0.2, 1.2, 0.0),
        (math.nan, 0.1, 0.0),
    ],
)
def test_confidence_formula(avg_logprob: float, no_speech_prob: float, expected: float) -> None:
    assert confidence(avg_logprob, no_speech_prob) == pytest.approx(expected)


@given(st.floats(-50, 0), st.floats(0, 1))
def test_confidence_is_a_probability_and_monotonic(lp: float, nsp: float) -> None:
    value = confidence(lp, nsp)
    assert 0.0 <= value <= 1.0
    assert confidence(lp - 0.1, nsp) <= value
    assert confidence(lp, min(1.0, nsp + 0.1)) <= value


def test_speech_level_dbfs() -> None:
    assert speech_level_dbfs(np.zeros(16_000, dtype=np.int16)) == -120.0
    assert speech_level_dbfs(np.zeros(0, dtype=np.int16)) == -120.0
    full = np.full(16_000, 32767, dtype=np.int16)
    assert speech_level_dbfs(full) == pytest.approx(0.0, abs=0.01)
    # A loud half-second within 2 s of silence still reads as loud.
    burst = np.zeros(32_000, dtype=np.int16)
    burst[8_000:16_000] = 3277  # -20 dBFS
    assert speech_level_dbfs(burst) == pytest.approx(-20.0, abs=0.1)
    assert speech_level_dbfs(np.array([100, -100, 100], dtype=np.int16)) < -40


def test_normalise_and_wer() -> None:
    assert normalise("Zuri, Protect the GROVE path!") == "zuri protect the grove path"
    assert word_error_rate("Map the grove path", "map the grove path.") == 0.0
    assert word_error_rate("Map the grove path", "Map the growth path") == 0.25
    assert word_error_rate("yes", "") == 1.0
    assert word_error_rate("", "") == 0.0
    assert word_error_rate("a b", "a x b y") == 1.0


def test_voiced_seconds_counts_the_loud_frames_only() -> None:
    rng = np.random.default_rng(1)
    tone = 0.3 * np.sin(np.arange(8000) * 2 * np.pi * 220 / 16_000).astype(np.float32)
    quiet = (rng.normal(0, 10 ** (-60 / 20), 16_000)).astype(np.float32)
    audio = np.concatenate([quiet, tone, quiet, tone, quiet])
    assert voiced_seconds(audio) == pytest.approx(1.0, abs=0.04)  # two 0.5 s tones
    assert voiced_seconds(np.zeros(16_000, dtype=np.float32)) == 0.0
    assert voiced_seconds(np.zeros(0, dtype=np.float32)) == 0.0
