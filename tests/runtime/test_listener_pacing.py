"""Partials are for audio heard as it is spoken: a recording sent at once gets
none (they would be stale at once and hold a worker its final needs).

A recording STT stands in for the worker pool, the VAD is the real one on a
real fixture; the real-model twin is tests/voice/test_voice_input.py (a
stream at once ends in its final and draft, with no partial)."""

from __future__ import annotations

import asyncio
from typing import Any

import msgspec
import pytest

import vac.runtime.recognition as recognition_module
from tests.runtime.test_coordinator import RecordingTransport, new_session
from tests.speech.audio import load_fixtures
from vac.protocol.messages import AudioInputChunk, AudioInputStart
from vac.runtime.listener import Listener
from vac.speech.stt import Transcript
from vac.speech.vad import VadConfig

CHUNK_BYTES = 640  # 20 ms
FIXTURE = {f.name: f for f in load_fixtures()}["kofi_build_bench.joe"]


class Transport(RecordingTransport):
    # The daemon's default: a recording of a few seconds sent at once fits.
    limits = msgspec.structs.replace(RecordingTransport.limits, input_buffer_ms=10_000)


class RecordingStt:
    saturated = False

    def __init__(self) -> None:
        self.keys: list[str] = []

    async def transcribe(self, pcm: bytes, *, kind: str, key: str, **_kw: Any) -> Transcript:
        self.keys.append(key)
        return Transcript("partial words", 0.9, -0.1, 0.0, len(pcm) // 32, 1.0)

    def cancel(self, key: str) -> None:
        pass


async def partials_for(
    paced_ms: float, monkeypatch: pytest.MonkeyPatch, *, at_once_first: int = 0
) -> int:
    """Stream the fixture with a wall clock advancing `paced_ms` per 20 ms chunk
    (after the first `at_once_first` chunks, which come at once)."""
    clock = [1000.0]
    monkeypatch.setattr(recognition_module, "monotonic_s", lambda: clock[0])
    stt = RecordingStt()
    listener = Listener(
        Transport(),  # type: ignore[arg-type]
        new_session(),
        stt,  # type: ignore[arg-type]
        VadConfig(),
        700,
        on_final=lambda heard: None,
        on_speech=lambda: None,
    )
    start = AudioInputStart(
        id="a0", stream="s1", encoding="pcm_s16le", rate=16000, channels=1, mode="push_to_talk"
    )
    listener.start(start)
    pcm = FIXTURE.pcm
    for seq, at in enumerate(range(0, len(pcm), CHUNK_BYTES)):
        listener.chunk(
            AudioInputChunk(id=f"c{seq}", stream="s1", seq=seq), pcm[at : at + CHUNK_BYTES]
        )
        clock[0] += paced_ms / 1000 if seq >= at_once_first else 0.0
        await asyncio.sleep(0)  # the receive loop lets the recognition tasks run
    listener.close_all()
    # The speculative final also runs at partial priority; only live partials count.
    return sum(key.endswith("/partial") for key in stt.keys)


async def test_audio_in_real_time_gets_partials(monkeypatch: pytest.MonkeyPatch) -> None:
    assert await partials_for(20.0, monkeypatch) >= 2


async def test_audio_sent_at_once_gets_none(monkeypatch: pytest.MonkeyPatch) -> None:
    assert await partials_for(0.0, monkeypatch) == 0


async def test_audio_a_little_ahead_still_gets_partials(monkeypatch: pytest.MonkeyPatch) -> None:
    # 20 ms of audio every 18 ms: a client's buffer drifting ahead, still live.
    assert await partials_for(18.0, monkeypatch) >= 2


async def test_a_buffered_start_then_live_audio_gets_partials(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A client that sends the second it buffered before the stream opened,
    # then streams live: live again once that second is past.
    assert await partials_for(20.0, monkeypatch, at_once_first=50) >= 2
