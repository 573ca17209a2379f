"""A turn a provisional final named ends with exactly one `turn.done`
(vac.runtime.listener), also when the user spoke again in the window, or
when the window closed and its final is still being recognised. Real VAD on
a fixture, a scripted recogniser; the real twin over sockets with tiny.en is
tests/voice/test_continuation.py."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import msgspec

from tests.runtime.test_coordinator import RecordingTransport, new_session
from tests.speech.audio import load_fixtures
from vac.protocol.messages import (
    AudioInputCancel,
    AudioInputChunk,
    AudioInputDone,
    AudioInputStart,
    TranscriptFinal,
    TurnDone,
)
from vac.runtime.heard import FinalHeard
from vac.runtime.listener import Listener
from vac.speech.stt import Transcript
from vac.speech.vad import VadConfig

SPEECH = {f.name: f for f in load_fixtures()}["kofi_build_bench.joe"].pcm[:-3200]
SILENCE_600MS = bytes(32 * 600)  # past the endpoint, inside a 3 s window


class Wire(RecordingTransport):
    limits = msgspec.structs.replace(
        RecordingTransport.limits, input_buffer_ms=10_000, continuation_ms=3000
    )


class ScriptedStt:
    saturated = False

    def __init__(self, final_s: float = 0.0) -> None:
        self.final_s = final_s

    async def transcribe(self, pcm: bytes, *, kind: str, key: str, **_kw: Any) -> Transcript:
        await asyncio.sleep(self.final_s if kind == "final" else 0.001)
        return Transcript("ask Kofi to build a bench", 0.9, -0.1, 0.0, len(pcm) // 32, 1.0)

    def cancel(self, key: str) -> None:
        pass


def rig(final_s: float = 0.0) -> tuple[Wire, Listener, list[FinalHeard]]:
    wire, session, heard = Wire(), new_session(), []

    def on_final(h: FinalHeard) -> TranscriptFinal:
        heard.append(h)
        msg = TranscriptFinal(stream=h.stream, turn=h.turn_id or "t", text=h.text, confidence=0.9)
        wire.send(session, msg)
        return msg

    listener = Listener(
        wire,  # type: ignore[arg-type]
        session,
        ScriptedStt(final_s),  # type: ignore[arg-type]
        VadConfig(),
        700,
        on_final=on_final,
        on_speech=lambda: None,
    )
    return wire, listener, heard


async def feed(listener: Listener, pcm: bytes, first_seq: int = 0) -> int:
    seq = first_seq
    for at in range(0, len(pcm), 640):
        listener.chunk(AudioInputChunk(id=f"c{seq}", stream="s1", seq=seq), pcm[at : at + 640])
        seq += 1
        await asyncio.sleep(0)
    return seq


async def announced(listener: Listener, wire: Wire) -> tuple[str, int]:
    """The utterance said, then 600 ms of silence: its provisional final's turn."""
    listener.start(
        AudioInputStart(
            id="a1", stream="s1", encoding="pcm_s16le", rate=16000, channels=1, mode="vad"
        )
    )
    seq = await feed(listener, SPEECH + SILENCE_600MS)
    for _ in range(100):
        await asyncio.sleep(0.01)
        named = [m for m in wire.sent if isinstance(m, TranscriptFinal) and m.provisional]
        if named:
            return named[0].turn, seq
    raise AssertionError("no provisional final")


def turns_done(wire: Wire) -> Counter[str]:
    return Counter(m.turn for m in wire.sent if isinstance(m, TurnDone))


async def test_speech_again_in_the_window_then_cancel_ends_the_turn_once() -> None:
    wire, listener, heard = rig()
    turn, seq = await announced(listener, wire)
    await feed(listener, SPEECH[: 32 * 800], seq)  # the user goes on: no window now
    assert listener.open is not None and listener.open.window is None
    listener.cancel(AudioInputCancel(id="x1", stream="s1"))
    await asyncio.sleep(0.05)
    assert turns_done(wire) == {turn: 1} and not heard


async def test_speech_again_then_turn_cancel_ends_stream_and_turn_and_again_is_a_no_op() -> None:
    wire, listener, heard = rig()
    turn, seq = await announced(listener, wire)
    await feed(listener, SPEECH[: 32 * 800], seq)
    assert listener.cancel_turn(turn)
    assert listener.cancel_turn(turn)  # §5.2: an ended turn: nothing more
    await asyncio.sleep(0.05)
    ends = [m for m in wire.sent if isinstance(m, AudioInputDone)]
    assert [(e.reason, e.turn) for e in ends] == [("transcribed", turn)]
    assert turns_done(wire) == {turn: 1} and not heard


async def test_turn_cancel_while_the_final_is_recognised_ends_it_unheard() -> None:
    wire, listener, heard = rig(final_s=0.3)
    turn, _seq = await announced(listener, wire)
    assert listener.open is not None and listener.open.window is not None
    listener._window_timer(listener.open, listener.open.window)  # the window closes now
    assert listener.open is None
    assert listener.cancel_turn(turn)
    await asyncio.sleep(0.5)
    assert turns_done(wire) == {turn: 1} and not heard  # the final never became a turn
    assert not listener.cancel_turn("another")
