"""Chunking and pacing arithmetic for streamed audio (pure, no clock reads).

The transport sends 20 ms chunks (640 bytes at 16 kHz s16le mono) paced in
real time: chunk `i` is due `i × 20 ms` after the first. Barge-in needs how
much reply audio the listener could have heard, which is the smaller of what
arrived and how long it has been playing.
"""

from __future__ import annotations

from typing import Final

CHUNK_MS: Final = 20
SAMPLE_BYTES: Final = 2


def bytes_per_ms(rate_hz: int) -> float:
    return rate_hz * SAMPLE_BYTES / 1000


def chunk_bytes(rate_hz: int = 16000, chunk_ms: int = CHUNK_MS) -> int:
    """Bytes in one chunk of mono s16le; 640 for 20 ms at 16 kHz."""
    return rate_hz * chunk_ms // 1000 * SAMPLE_BYTES


def split_chunks(pcm: bytes, size_bytes: int) -> list[bytes]:
    """Consecutive chunks of `size_bytes`; the last may be shorter, none is empty.

    `size_bytes` must be even so that no sample is split across chunks (the
    daemon refuses odd-length chunks with `chunk_invalid`).
    """
    if size_bytes <= 0 or size_bytes % SAMPLE_BYTES:
        raise ValueError(f"chunk size must be a positive even number of bytes, not {size_bytes}")
    if len(pcm) % SAMPLE_BYTES:
        raise ValueError("PCM length must be a whole number of 16-bit samples")
    return [pcm[i : i + size_bytes] for i in range(0, len(pcm), size_bytes)]


def chunk_due_s(index: int, chunk_ms: int = CHUNK_MS) -> float:
    """Seconds after the first chunk at which chunk `index` is due in real time."""
    return index * chunk_ms / 1000


def sleep_before_s(index: int, elapsed_s: float, chunk_ms: int = CHUNK_MS) -> float:
    """How long to wait before sending chunk `index`, `elapsed_s` after the first.

    Never negative: a sender that fell behind catches up without sleeping.
    """
    return max(0.0, chunk_due_s(index, chunk_ms) - elapsed_s)


def pcm_ms(n_bytes: int, rate_hz: int) -> int:
    """Duration of `n_bytes` of mono s16le at `rate_hz`, in whole ms."""
    return n_bytes * 1000 // (rate_hz * SAMPLE_BYTES)


def played_ms(received_bytes: int, rate_hz: int, since_first_chunk_ms: int) -> int:
    """What a listener can have heard: audio received, capped by wall time playing."""
    return max(0, min(pcm_ms(received_bytes, rate_hz), since_first_chunk_ms))
