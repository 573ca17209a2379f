"""Speaker with a failing engine (fake-backed; the real twin is tests/voice)."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from vac.errors import VacError
from vac.protocol.messages import (
    AudioOutputChunk,
    AudioOutputDone,
    AudioOutputRefused,
    AudioOutputStart,
    AudioOutputVisemes,
    OutputFormat,
)
from vac.runtime.latency import LatencyTrace
from vac.runtime.session import Outbox, OutboxFull, Replies, Session
from vac.runtime.speaker import ReplyOutcome, Speaker
from vac.runtime.synthesis import SynthesisScheduler
from vac.speech.tts import SynthesizedPhrase, TtsError
from vac.speech.visemes import TimedViseme


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
    speaker = Speaker(server, session, BrokenTts(), SynthesisScheduler(1), _gen, 500)  # type: ignore[arg-type]

    async def run() -> None:
        with pytest.raises(RuntimeError):
            await speaker.speak("turn-1", "Hello there, this will not be spoken.", LatencyTrace())

    asyncio.run(run())
    kinds = [type(m) for m in server.sent]
    assert kinds == [AudioOutputStart, AudioOutputDone]
    assert server.sent[-1].reason == "failed" and server.sent[-1].chunks == 0
    assert speaker.current is None


# ------------------------------------------------- the reply table, carried out


class ToneTts:
    """Every phrase is `phrase_ms` of audio at 16 kHz (no resampling), one cue."""

    sample_rate_hz = 16000

    def __init__(self, phrase_ms: int = 200) -> None:
        self.phrase_ms = phrase_ms

    def synthesize(self, phrase: str) -> SynthesizedPhrase:
        pcm = b"\x10\x00" * (16 * self.phrase_ms)
        cues = [TimedViseme(at_ms=0, viseme="aa")]
        return SynthesizedPhrase(pcm, 16000, self.phrase_ms, cues, "estimated", 0.0)


class RoomyServer(RecordingServer):
    """Queues chunks in the session's outbox, which may fill up (§7)."""

    def __init__(self) -> None:
        super().__init__()
        self.errors: list[VacError] = []

    def try_send_chunk(self, session: Session, msg: Any, payload: bytes) -> bool:
        try:
            session.outbox.push(msg, payload)
        except OutboxFull:
            return False
        self.sent.append(msg)
        return True

    def error(self, session: Session, exc: VacError) -> None:
        self.errors.append(exc)


def _session(speak: bool = True, max_chunks: int = 1000, session_id: str = "s") -> Session:
    return Session(
        session_id,
        "alice",
        "t",
        OutputFormat(rate=16000, speak=speak),
        Outbox(max_chunks=max_chunks, max_control=1000),
        Replies(window=8),
        connection=b"x",
    )


def _speaker(server: RoomyServer, session: Session, tts: Any = None) -> Speaker:
    # A long lead: nothing is paced, the tests never sleep.
    return Speaker(server, session, tts or ToneTts(), SynthesisScheduler(1), _gen, 60_000)  # type: ignore[arg-type]


TWO_PHRASES = "Hello there. How are you today?"


def _dones(server: RecordingServer) -> list[AudioOutputDone]:
    return [m for m in server.sent if isinstance(m, AudioOutputDone)]


def test_a_reply_streams_every_phrase_then_one_done_completed() -> None:
    server, session = RoomyServer(), _session()
    speaker = _speaker(server, session)
    outcome = asyncio.run(speaker.speak("turn-1", TWO_PHRASES, LatencyTrace()))
    assert outcome == ReplyOutcome("completed", TWO_PHRASES, TWO_PHRASES)
    kinds = [type(m) for m in server.sent]
    assert kinds[0] is AudioOutputStart and kinds[-1] is AudioOutputDone
    assert kinds.count(AudioOutputVisemes) == 2
    chunks = [m for m in server.sent if isinstance(m, AudioOutputChunk)]
    assert [c.index for c in chunks] == list(range(len(chunks)))
    [done] = _dones(server)
    assert (done.generation, done.reason, done.chunks) == (7, "completed", len(chunks))
    assert speaker.current is None and speaker.last is not None
    assert speaker.last.life.end == "completed"


def test_refused_and_silent_replies_open_no_stream() -> None:
    server, session = RoomyServer(), _session()
    outcome = asyncio.run(
        _speaker(server, session).speak("t", '{"a": 1, "b": [1, 2, 3]}', LatencyTrace())
    )
    assert outcome.end == "refused" and outcome.spoken_text == ""
    assert [type(m) for m in server.sent] == [AudioOutputRefused]

    server, session = RoomyServer(), _session(speak=False)
    outcome = asyncio.run(_speaker(server, session).speak("t", "Fine, thanks.", LatencyTrace()))
    assert outcome == ReplyOutcome("silent", "Fine, thanks.", "Fine, thanks.")
    assert server.sent == []

    # Text it would refuse to speak: a text-only session still hears nothing
    # of `audio.output.*` (§3), not even the refusal.
    server, session = RoomyServer(), _session(speak=False)
    outcome = asyncio.run(
        _speaker(server, session).speak("t", "Fix the <b>gate</b>", LatencyTrace())
    )
    assert outcome.end == "silent" and server.sent == []


def test_a_client_that_does_not_read_gets_an_overrun_and_one_done_failed() -> None:
    server, session = RoomyServer(), _session(max_chunks=3)
    speaker = _speaker(server, session)
    outcome = asyncio.run(speaker.speak("turn-1", TWO_PHRASES, LatencyTrace()))
    assert outcome == ReplyOutcome("overrun", TWO_PHRASES, "")
    [err] = server.errors
    assert (err.code, err.turn) == ("output_overrun", "turn-1")
    assert err.message == "the client is not reading; reply cancelled after 0 chunks"
    [done] = _dones(server)
    assert (done.reason, done.chunks) == ("failed", 0)
    assert session.outbox.chunks == 0  # the generation's queued chunks were dropped
    assert speaker.current is None


class GatedTts(ToneTts):
    """The second phrase is synthesised only once the test opens the gate."""

    def __init__(self) -> None:
        super().__init__()
        self.calls = 0
        self.gate = threading.Event()

    def synthesize(self, phrase: str) -> SynthesizedPhrase:
        self.calls += 1
        if self.calls > 1:
            self.gate.wait(5)
        return super().synthesize(phrase)


def test_a_fence_ends_the_reply_once_and_nothing_of_it_follows() -> None:
    server, session = RoomyServer(), _session()
    tts = GatedTts()
    speaker = _speaker(server, session, tts)

    async def run() -> None:
        task = asyncio.create_task(speaker.speak("turn-1", TWO_PHRASES, LatencyTrace()))
        while not any(isinstance(m, AudioOutputChunk) for m in server.sent):
            await asyncio.sleep(0.001)
        reply = speaker.fence(played_ms=100)
        assert reply is not None and reply.ended and reply.played_ms == 100
        assert speaker.fence() is None  # already ended: a second fence is nothing
        sent_at_fence = len(server.sent)
        tts.gate.set()
        # The task was not cancelled: it wakes, finds the reply ended, and stops.
        with pytest.raises(asyncio.CancelledError):
            await task
        assert len(server.sent) == sent_at_fence

    asyncio.run(run())
    [done] = _dones(server)
    assert done.reason == "cancelled" and done.chunks == 0  # queued chunks dropped
    assert session.outbox.chunks == 0
    assert server.sent[-1] is done
    assert speaker.current is None and speaker.last is not None


def test_played_reports_name_the_current_or_the_last_reply() -> None:
    server, session = RoomyServer(), _session()
    speaker = _speaker(server, session)
    asyncio.run(speaker.speak("turn-1", "Hello there.", LatencyTrace()))
    last = speaker.last
    assert last is not None
    assert speaker.played(last.stream, 120) and last.played_ms == 120
    assert speaker.played(last.stream, 80) and last.played_ms == 120  # never backwards
    assert not speaker.played("another-stream", 50)
    assert speaker.heard(last) == "Hello"  # 120 ms of a 200 ms phrase: its first word
    asyncio.run(speaker.speak("turn-2", "Again.", LatencyTrace()))
    asyncio.run(speaker.speak("turn-3", "And again.", LatencyTrace()))
    # A client that buffers reports the first reply late: known, ignored (it
    # was stream_unknown once two later replies had ended), its history kept.
    assert speaker.played(last.stream, 200) and last.played_ms == 120


class SlowTts:
    """Holds the synthesis worker until released, then fails (nothing to play)."""

    sample_rate_hz = 22050

    def __init__(self) -> None:
        self.release = threading.Event()

    def synthesize(self, phrase: str) -> SynthesizedPhrase:
        self.release.wait(5)
        raise RuntimeError("released")


def test_too_many_replies_waiting_for_synthesis_is_a_busy_error_for_that_turn() -> None:
    """One principal's replies beyond `max_pending` waiting for their first phrase:
    the turn ends `failed` with a retryable `busy` error naming it (not a traceback)."""
    from vac.runtime.turns import TurnRunner

    server = RoomyServer()
    tts = SlowTts()
    scheduler = SynthesisScheduler(1, max_pending=1)

    async def run() -> None:
        # Two other sessions of alice's: one reply on the worker, one waiting.
        one = Speaker(server, _session(session_id="s0"), tts, scheduler, _gen, 60_000)  # type: ignore[arg-type]
        two = Speaker(server, _session(session_id="s1"), tts, scheduler, _gen, 60_000)  # type: ignore[arg-type]
        first = asyncio.ensure_future(one.speak("t1", "First reply.", LatencyTrace()))
        await asyncio.sleep(0.1)  # the worker holds it
        second = asyncio.ensure_future(two.speak("t2", "Second reply.", LatencyTrace()))
        await asyncio.sleep(0.1)
        session = _session(session_id="s2")
        speaker = Speaker(server, session, tts, scheduler, _gen, 60_000)  # type: ignore[arg-type]
        runner = TurnRunner(server, session, speaker, lambda *a: None)  # type: ignore[arg-type]
        turn = runner.open("t3", LatencyTrace())

        async def body(t: Any) -> None:
            await runner.speak(t, "A third reply.")

        runner.begin(turn, body)
        assert turn.task is not None
        await turn.task
        tts.release.set()
        await asyncio.gather(first, second, return_exceptions=True)

    try:
        asyncio.run(run())
    finally:
        scheduler.shutdown()
    assert [e.code for e in server.errors] == ["busy"]
    assert server.errors[0].turn == "t3" and server.errors[0].retryable
    done = [m for m in server.sent if type(m).__name__ == "TurnDone"]
    assert [(d.turn, d.status) for d in done] == [("t3", "failed")]


class UnreachableTts:
    """A voice whose engine is gone (a Ray cluster stopped): `TtsError` by name."""

    sample_rate_hz = 22050

    def synthesize(self, phrase: str) -> SynthesizedPhrase:
        raise TtsError("the synthesis engine is unavailable; reconnecting")


def test_an_unreachable_voice_is_a_named_provider_unavailable_for_the_turn() -> None:
    """The real twin: tests/ray/test_ray_inference.py stops the cluster mid-session."""
    from vac.runtime.turns import TurnRunner

    server = RoomyServer()
    scheduler = SynthesisScheduler(1)

    async def run() -> None:
        session = _session(session_id="s9")
        speaker = Speaker(server, session, UnreachableTts(), scheduler, _gen, 60_000)  # type: ignore[arg-type]
        runner = TurnRunner(server, session, speaker, lambda *a: None)  # type: ignore[arg-type]
        turn = runner.open("t9", LatencyTrace())

        async def body(t: Any) -> None:
            await runner.speak(t, "A reply nobody can voice.")

        runner.begin(turn, body)
        assert turn.task is not None
        await turn.task

    try:
        asyncio.run(run())
    finally:
        scheduler.shutdown()
    assert [(e.code, e.turn) for e in server.errors] == [("provider_unavailable", "t9")]
    ended = [m for m in server.sent if type(m).__name__ in ("AudioOutputDone", "TurnDone")]
    assert [getattr(m, "reason", getattr(m, "status", "")) for m in ended] == ["failed", "failed"]


@pytest.mark.parametrize(
    ("lead_ms", "sent_ms", "wait_ms"),
    [
        (500, 0, 0),  # the first chunks: at once
        (500, 400, 0),  # the fifth: 500 ms held, the lead
        (500, 500, 100),  # the sixth: only once 100 ms have been played
        (500, 1200, 800),
        (0, 100, 100),  # a lead under one chunk still holds one chunk
    ],
)
def test_pacing_holds_at_most_the_lead_ahead(
    monkeypatch: pytest.MonkeyPatch, lead_ms: int, sent_ms: int, wait_ms: int
) -> None:
    from vac.runtime import speaker as speaker_module
    from vac.runtime.speaker import ReplyLife, SpokenReply

    waited: list[float] = []

    async def no_sleep(delay_s: float) -> None:
        waited.append(delay_s)

    monkeypatch.setattr(speaker_module, "monotonic_s", lambda: 10.0)
    monkeypatch.setattr(speaker_module.asyncio, "sleep", no_sleep)
    server, session = RoomyServer(), _session()
    sp = Speaker(server, session, ToneTts(), SynthesisScheduler(1), _gen, lead_ms)  # type: ignore[arg-type]
    reply = SpokenReply("t", "s", 1, "x", ReplyLife(), sent_ms=sent_ms)
    asyncio.run(sp._pace(reply, 10.0, 100))
    assert round(sum(waited) * 1000) == wait_ms
