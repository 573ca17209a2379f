"""Resampling of s16le mono PCM (soxr, HQ) and chunking for the wire.

The voice speaks at its own rate (joe-medium: 22050 Hz); a session negotiates
one of `OUTPUT_RATES_HZ`. One `Resampler` per spoken reply carries the
filter state across phrase boundaries, so consecutive phrases join without
the click a fresh filter would make at each start and end.

Chunks: `DEFAULT_CHUNK_MS` = 100 ms of audio per `audio.output.chunk`
payload (9600 bytes at 48 kHz, the largest rate). A message must stay under
libzmq's MAXMSGSIZE of 64 KiB including its header (≤ 8 KiB), so no chunk may
exceed `MAX_CHUNK_BYTES` = 56 KiB. 100 ms bounds how much audio a cancel can
leave in flight and keeps the per-message cost at 10 messages/s per stream.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import soxr

OUTPUT_RATES_HZ: Final[frozenset[int]] = frozenset({16000, 22050, 24000, 48000})
SAMPLE_WIDTH_BYTES: Final = 2
DEFAULT_CHUNK_MS: Final = 100
MAX_CHUNK_BYTES: Final = 64 * 1024 - 8 * 1024
_QUALITY: Final = "HQ"


def resample_pcm16(pcm: bytes, from_hz: int, to_hz: int) -> bytes:
    """Resample a whole s16le mono buffer from `from_hz` to `to_hz` (one of OUTPUT_RATES_HZ)."""
    _check_rates(from_hz, to_hz)
    samples = _samples(pcm)
    if from_hz == to_hz or samples.size == 0:
        return bytes(pcm)
    out = soxr.resample(samples, from_hz, to_hz, quality=_QUALITY)
    return np.asarray(out, dtype="<i2").tobytes()


class Resampler:
    """Streaming s16le mono resampler; feed phrases in order, then `flush()` once.

    soxr holds back the filter's delay, so the output of a `feed` trails its
    input by a few milliseconds; `flush()` emits the tail at the end of the reply.
    """

    def __init__(self, from_hz: int, to_hz: int) -> None:
        _check_rates(from_hz, to_hz)
        self.from_hz: Final = from_hz
        self.to_hz: Final = to_hz
        self._flushed = False
        self._stream: soxr.ResampleStream | None = (
            None
            if from_hz == to_hz
            else soxr.ResampleStream(from_hz, to_hz, 1, dtype="int16", quality=_QUALITY)
        )

    def feed(self, pcm: bytes) -> bytes:
        """Resample the next piece of the signal; returns what is ready so far."""
        return self._process(pcm, last=False)

    def flush(self) -> bytes:
        """End the signal and return the held-back tail. Only `feed` nothing after this."""
        return self._process(b"", last=True)

    def _process(self, pcm: bytes, *, last: bool) -> bytes:
        if self._flushed:
            raise ValueError("Resampler already flushed")
        samples = _samples(pcm)
        self._flushed = last
        if self._stream is None:
            return bytes(pcm)
        out = self._stream.resample_chunk(samples, last=last)
        return np.asarray(out, dtype="<i2").tobytes()


def chunk_bytes_for(rate_hz: int, chunk_ms: int = DEFAULT_CHUNK_MS) -> int:
    """Payload bytes of a full chunk of `chunk_ms` at `rate_hz` (whole samples)."""
    if rate_hz <= 0 or chunk_ms <= 0:
        raise ValueError("rate_hz and chunk_ms must be positive")
    size = max(1, rate_hz * chunk_ms // 1000) * SAMPLE_WIDTH_BYTES
    if size > MAX_CHUNK_BYTES:
        raise ValueError(f"{chunk_ms} ms at {rate_hz} Hz is {size} bytes > {MAX_CHUNK_BYTES}")
    return size


def chunk_pcm(pcm: bytes, rate_hz: int, chunk_ms: int = DEFAULT_CHUNK_MS) -> list[bytes]:
    """Split s16le mono PCM into chunks of `chunk_ms` (the last may be shorter)."""
    _samples(pcm)  # validates whole samples
    size = chunk_bytes_for(rate_hz, chunk_ms)
    return [pcm[i : i + size] for i in range(0, len(pcm), size)]


def _samples(pcm: bytes) -> np.ndarray[tuple[int], np.dtype[np.int16]]:
    if len(pcm) % SAMPLE_WIDTH_BYTES:
        raise ValueError("s16le PCM must have an even number of bytes")
    return np.frombuffer(pcm, dtype="<i2")


def _check_rates(from_hz: int, to_hz: int) -> None:
    if from_hz <= 0:
        raise ValueError(f"from_hz must be positive, got {from_hz}")
    if to_hz not in OUTPUT_RATES_HZ:
        raise ValueError(f"to_hz {to_hz} not in {sorted(OUTPUT_RATES_HZ)}")
