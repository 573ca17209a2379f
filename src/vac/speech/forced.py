"""Forced decoding: how likely given words are, given the audio.

The name slot, the verb slot, the replies and the per-word evidence of a
beam decoding all ask the model this (docs/stt.md). Two calls into
CTranslate2's Whisper, kept apart from the recogniser that orders them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

_MAX_DECODE_TOKENS = 448  # Whisper's text context


def align(
    model: Any, encoded: Any, prompt: list[int], token_lists: list[list[int]], frames: int
) -> list[list[float]]:
    """Each token's probability given the audio, by forced decoding (one batch)."""
    import ctranslate2

    batch = np.repeat(np.asarray(encoded), len(token_lists), axis=0)
    aligned = model.align(
        ctranslate2.StorageView.from_array(batch),
        prompt,
        token_lists,
        [frames] * len(token_lists),
    )
    return [list(a.text_token_probs) for a in aligned]


def first_tokens(
    model: Any, encoded: Any, prompt: list[int], prefix: list[int], firsts: Sequence[int]
) -> list[float] | None:
    """The log-probability of each token of `firsts` right after `prefix`, from
    one greedy pass forced through it (None if it stopped short)."""
    import ctranslate2

    start = prompt + prefix
    result = model.generate(
        ctranslate2.StorageView.from_array(encoded),
        [start],
        beam_size=1,
        # CTranslate2 runs min(max_length // 2, max_length - start) steps,
        # the forced prefix among them: this gives one or two past it.
        max_length=min(_MAX_DECODE_TOKENS, len(start) + len(prefix) + 2),
        return_logits_vocab=True,
        suppress_blank=False,
    )[0]
    if len(result.logits[0]) <= len(prefix):
        return None
    row = np.asarray(result.logits[0][len(prefix)], dtype=np.float64).ravel()
    log_norm = row.max() + math.log(float(np.exp(row - row.max()).sum()))
    return [float(row[t]) - log_norm for t in firsts]
