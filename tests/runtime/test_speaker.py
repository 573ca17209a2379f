"""Speaker with a failing engine (fake-backed; the real twin is tests/voice)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from vac.protocol.messages import AudioOutputDone, AudioOutputStart, OutputFormat
from vac.runtime.latency import LatencyTrace
from vac.runtime.session import Outbox, Replies, Session
from vac.runtime.speaker import Speaker
from vac.speech.tts import SynthesizedPhrase


class BrokenTts:
    sample_rate_hz = 22050

    def synthesize(self, phrase: str) -> SynthesizedPhrase:
        raise RuntimeError("the voice model fell over")


class RecordingServer:
    def __init__(self) -> None:
        self.sent: list[Any] = []

    def send(self, session: Session, msg: Any, payload: bytes | None = None) -> bool:
        self.sent.append(msg)
        return True

    def try_send_chunk(self, session: Session, msg: Any, payload: bytes) -> bool:
        self.sent.append(msg)
        return True

    def drop_chunks(self, session: Session, generation: int) -> int:
        return session.outbox.drop_chunks(generation)


async def _gen() -> int:
    return 7


def test_a_synthesis_failure_still_ends_the_output_stream() -> None:
    server = RecordingServer()
    session = Session(
        "s",
        "alice",
        "t",
        OutputFormat(rate=16000, speak=True),
        Outbox(max_chunks=8, max_control=32),
        Replies(window=8),
        connection=b"x",
    )
    speaker = Speaker(server, session, BrokenTts(), ThreadPoolExecutor(1), _gen, 500)  # type: ignore[arg-type]

    async def run() -> None:
        with pytest.raises(RuntimeError):
            await speaker.speak("turn-1", "Hello there, this will not be spoken.", LatencyTrace())

    asyncio.run(run())
    kinds = [type(m) for m in server.sent]
    assert kinds == [AudioOutputStart, AudioOutputDone]
    assert server.sent[-1].reason == "failed" and server.sent[-1].chunks == 0
    assert speaker.current is None
