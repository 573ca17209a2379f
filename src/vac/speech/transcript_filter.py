"""Pure rules that keep the recogniser from being confidently wrong.

Whisper was trained on subtitles: on silence or faint noise it "hears" the
credits ("Thank you.", "Thanks for watching!") or, with a name prompt, echoes
the prompt ("Imani, Zuri, Zuri..."). These rules decide what is dropped and
how sure a kept transcript is. No model, no I/O: unit-tested directly.
"""

from __future__ import annotations

import math
import re
import zlib
from collections.abc import Iterable
from typing import Final

import numpy as np
import numpy.typing as npt

_FRAME_SAMPLES: Final = 320  # 20 ms at 16 kHz
# The level of an utterance is that of its loud frames, not an average diluted
# by the leading and trailing silence every utterance carries.
_LEVEL_PERCENTILE: Final = 95.0
_FLOOR_DBFS: Final = -120.0
# zlib ratio above which text is a repetition loop (Whisper's own threshold).
_MAX_COMPRESSION_RATIO: Final = 2.4

# Normalised (lower case, letters/digits/apostrophes, single spaces).
SILENCE_HALLUCINATIONS: Final[frozenset[str]] = frozenset(
    {
        "thank you",
        "thank you very much",
        "thank you so much",
        "thanks",
        "thanks for watching",
        "thank you for watching",
        "thanks for listening",
        "thank you for listening",
        "please subscribe",
        "subscribe",
        "like and subscribe",
        "you",
        "bye",
        "bye bye",
        "goodbye",
        "so",
        "okay",
        "oh",
        "uh",
        "um",
        "hmm",
        "the end",
        "subtitles by the amara org community",
    }
)
# "[BLANK_AUDIO]", "(music)", "*applause*": annotations, never words someone said.
_ANNOTATION: Final = re.compile(r"^\s*(?:[\[(*♪♫].*?[\])*♪♫]\s*)+$")
_WORD: Final = re.compile(r"[a-z0-9']+")


def normalise(text: str) -> str:
    """Lower-case words only: what two transcripts are compared on."""
    return " ".join(_WORD.findall(text.lower()))


def speech_level_dbfs(pcm: npt.NDArray[np.int16]) -> float:
    """95th percentile of 20 ms frame RMS, in dBFS (full scale = 0, silence = -120)."""
    if len(pcm) == 0:
        return _FLOOR_DBFS
    usable = len(pcm) - len(pcm) % _FRAME_SAMPLES
    samples = pcm[:usable] if usable else pcm
    frames = samples.astype(np.float64).reshape(-1, min(len(samples), _FRAME_SAMPLES))
    rms = np.sqrt(np.mean(frames * frames, axis=1)) / 32768.0
    level = float(np.percentile(rms, _LEVEL_PERCENTILE))
    if level <= 0.0:
        return _FLOOR_DBFS
    return max(_FLOOR_DBFS, 20.0 * math.log10(level))


# A frame this far under the loudest one is no voice (espeak's and piper's
# pauses fall ~50 dB, a room's noise floor ~35 dB under speech).
_VOICED_BELOW_PEAK_DB: Final = 30.0


def voiced_seconds(audio: npt.NDArray[np.float32]) -> float:
    """How long the voice in `audio` lasts: its 20 ms frames within 30 dB
    of the loudest one, in seconds (the pauses between words included when
    they are loud enough, the silence around the utterance never)."""
    usable = len(audio) - len(audio) % _FRAME_SAMPLES
    if usable == 0:
        return 0.0
    frames = audio[:usable].astype(np.float64).reshape(-1, _FRAME_SAMPLES)
    rms = np.sqrt(np.mean(frames * frames, axis=1))
    peak = float(rms.max())
    if peak <= 0.0:
        return 0.0
    voiced = int(np.count_nonzero(rms >= peak * 10 ** (-_VOICED_BELOW_PEAK_DB / 20)))
    return voiced * _FRAME_SAMPLES / 16_000


def compression_ratio(text: str) -> float:
    raw = text.encode("utf-8")
    return len(raw) / len(zlib.compress(raw)) if raw else 0.0


def drop_reason(
    text: str,
    *,
    no_speech_prob: float,
    level_dbfs: float,
    vocabulary: Iterable[str] = (),
    prompt_example: str | None = None,
    no_speech_threshold: float = 0.6,
    low_energy_dbfs: float = -45.0,
) -> str | None:
    """Why a recognised `text` must be dropped, or None to keep it.

    Order matters only for the reported reason: empty, annotation, no_speech,
    repetition, hallucination (a credits phrase, a bare echo of the name
    prompt or the prompt's example command, on low-energy audio only: said
    loudly, "thank you" is speech).
    """
    words = normalise(text)
    if not words:
        return "empty"  # nothing but punctuation or symbols ("...", "♪")
    if _ANNOTATION.match(text):
        return "annotation"
    if no_speech_prob >= no_speech_threshold:
        return "no_speech"
    if compression_ratio(text) > _MAX_COMPRESSION_RATIO:
        return "repetition"
    if level_dbfs < low_energy_dbfs:
        if words in SILENCE_HALLUCINATIONS:
            return "hallucination"
        names = {normalise(name) for name in vocabulary}
        if names and set(words.split()) <= names:
            return "hallucination"
        if prompt_example and normalise(prompt_example) in words:
            return "hallucination"  # the prompt's example command, read back
    return None


def confidence(avg_logprob: float, no_speech_prob: float) -> float:
    """exp(avg_logprob) * (1 - no_speech_prob), clamped to [0, 1].

    exp(mean token log-probability) is the geometric mean of the decoder's
    token probabilities; multiplying by the probability that the window holds
    speech at all lowers it for near-silent input. A clear joe-voice command
    scores ~0.8, a one-word "cancel" ~0.4 (Whisper is unsure of short inputs).
    """
    if math.isnan(avg_logprob) or math.isnan(no_speech_prob):
        return 0.0
    speech_prob = min(1.0, max(0.0, 1.0 - no_speech_prob))
    return min(1.0, max(0.0, math.exp(min(0.0, avg_logprob)) * speech_prob))
