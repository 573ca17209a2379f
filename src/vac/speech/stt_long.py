"""Audio longer than the fast path's window: faster-whisper's own segmented path.

The fast path (`WhisperStt._decode_window`) encodes one window and decodes it
with the household's slots; a dictated paragraph longer than that goes
through `WhisperModel.transcribe` instead, with the same name prompt, and
carries no per-word evidence (docs/stt.md).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from faster_whisper import WhisperModel


def decode_long(
    model: WhisperModel, audio: npt.NDArray[np.float32], *, beam_size: int, prompt: str | None
) -> tuple[str, float, float]:
    """(text, token-weighted avg_logprob, token-weighted no_speech_prob) of `audio`."""
    segments, _info = model.transcribe(
        audio,
        language="en",
        beam_size=beam_size,
        temperature=0.0,  # no temperature fallback: bounded time, no sampled guesses
        vad_filter=False,
        without_timestamps=True,
        condition_on_previous_text=False,
        initial_prompt=prompt,
        no_speech_threshold=None,  # we drop no-speech ourselves, with a reason
    )
    texts: list[str] = []
    weighted_logprob = 0.0
    weighted_no_speech = 0.0
    total_tokens = 0
    for segment in segments:
        count = max(1, len(segment.tokens))
        texts.append(segment.text.strip())
        weighted_logprob += segment.avg_logprob * count
        weighted_no_speech += segment.no_speech_prob * count
        total_tokens += count
    if total_tokens == 0:
        return "", -math.inf, 1.0
    text = " ".join(t for t in texts if t)
    return text, weighted_logprob / total_tokens, weighted_no_speech / total_tokens
