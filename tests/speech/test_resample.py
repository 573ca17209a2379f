"""Resampling (soxr HQ, one-shot and streaming) and chunking."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from vac.speech.resample import (
    DEFAULT_CHUNK_MS,
    MAX_CHUNK_BYTES,
    OUTPUT_RATES_HZ,
    Resampler,
    chunk_bytes_for,
    chunk_pcm,
    resample_pcm16,
)

VOICE_HZ = 22050


def _sine(freq_hz: float, seconds: float, rate_hz: int) -> bytes:
    t = np.arange(int(seconds * rate_hz)) / rate_hz
    return (np.sin(2 * np.pi * freq_hz * t) * 12000).astype("<i2").tobytes()


def _peak_hz(pcm: bytes, rate_hz: int) -> float:
    x = np.frombuffer(pcm, dtype="<i2").astype(np.float64)
    spectrum = np.abs(np.fft.rfft(x * np.hanning(x.size)))
    return float(np.fft.rfftfreq(x.size, 1 / rate_hz)[int(np.argmax(spectrum))])


@pytest.mark.parametrize("to_hz", sorted(OUTPUT_RATES_HZ))
def test_one_shot_length_and_pitch(to_hz: int) -> None:
    pcm = _sine(440.0, 1.0, VOICE_HZ)
    out = resample_pcm16(pcm, VOICE_HZ, to_hz)
    assert len(out) % 2 == 0
    assert abs(len(out) // 2 - to_hz) <= 1
    assert abs(_peak_hz(out, to_hz) - 440.0) < 2.0


def test_same_rate_is_passthrough() -> None:
    pcm = _sine(300.0, 0.1, 16000)
    assert resample_pcm16(pcm, 16000, 16000) == pcm
    stream = Resampler(16000, 16000)
    assert stream.feed(pcm) + stream.flush() == pcm


@pytest.mark.parametrize("to_hz", [16000, 48000])
def test_streaming_matches_one_shot_without_boundary_clicks(to_hz: int) -> None:
    # Three "phrases" of one continuous tone, fed in uneven pieces.
    pcm = _sine(440.0, 0.9, VOICE_HZ)
    cuts = [0, 4410 * 2 + 6, 9000 * 2, len(pcm)]
    stream = Resampler(VOICE_HZ, to_hz)
    out = b"".join(stream.feed(pcm[a:b]) for a, b in itertools.pairwise(cuts))
    out += stream.flush()
    whole = resample_pcm16(pcm, VOICE_HZ, to_hz)
    assert abs(len(out) - len(whole)) <= 2
    y = np.frombuffer(out, dtype="<i2").astype(np.int32)
    # A continuous 440 Hz tone at amplitude 12000 never jumps by more than the
    # sine's own slope per sample; a click at a boundary would.
    max_step = 12000 * 2 * np.pi * 440 / to_hz
    assert np.max(np.abs(np.diff(y[50:-50]))) <= max_step * 1.1


def test_resampler_refuses_use_after_flush() -> None:
    stream = Resampler(VOICE_HZ, 16000)
    stream.flush()
    with pytest.raises(ValueError):
        stream.feed(b"\x00\x00")


@pytest.mark.parametrize(
    ("pcm", "from_hz", "to_hz"),
    [(b"\x00", VOICE_HZ, 16000), (b"", VOICE_HZ, 44100), (b"", 0, 16000)],
)
def test_bad_input_is_refused(pcm: bytes, from_hz: int, to_hz: int) -> None:
    with pytest.raises(ValueError):
        resample_pcm16(pcm, from_hz, to_hz)


def test_empty_input_gives_empty_output() -> None:
    assert resample_pcm16(b"", VOICE_HZ, 48000) == b""
    assert chunk_pcm(b"", 48000) == []


@pytest.mark.parametrize(("rate_hz", "size"), [(16000, 3200), (22050, 4410), (48000, 9600)])
def test_default_chunk_is_100_ms(rate_hz: int, size: int) -> None:
    assert DEFAULT_CHUNK_MS == 100
    assert chunk_bytes_for(rate_hz) == size


def test_chunks_are_bounded_by_the_message_size() -> None:
    assert MAX_CHUNK_BYTES + 8 * 1024 <= 64 * 1024
    with pytest.raises(ValueError):
        chunk_bytes_for(48000, 1000)


@given(
    st.binary(max_size=40000).map(lambda b: b[: len(b) // 2 * 2]),
    st.sampled_from(sorted(OUTPUT_RATES_HZ)),
    st.integers(10, 500),
)
def test_chunks_rejoin_and_are_whole_samples(pcm: bytes, rate_hz: int, chunk_ms: int) -> None:
    chunks = chunk_pcm(pcm, rate_hz, chunk_ms)
    assert b"".join(chunks) == pcm
    size = chunk_bytes_for(rate_hz, chunk_ms)
    assert all(len(c) == size for c in chunks[:-1])
    assert all(0 < len(c) <= min(size, MAX_CHUNK_BYTES) and len(c) % 2 == 0 for c in chunks)
