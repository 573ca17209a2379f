"""Spoken replies: render gate → phrases → TTS off the loop → paced, fenced chunks.

One `Speaker` per session is the single writer of its `audio.output.*`.
Each reply gets a fresh `generation`. `fence()` runs synchronously when the
daemon reads a cancel: it drops every queued chunk of the reply from the
outbox and answers `audio.output.done {cancelled}`, so no chunk of that
generation can be sent afterwards; the reply task is then cancelled and stops
at its next await without sending anything more.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Literal

from vac.clock import monotonic_ns, monotonic_s
from vac.protocol.messages import (
    AudioOutputChunk,
    AudioOutputDone,
    AudioOutputRefused,
    AudioOutputStart,
    AudioOutputVisemes,
    OutputDoneReason,
    VisemeCue,
)
from vac.runtime.history import SpokenPhrase, heard_text
from vac.runtime.latency import LatencyTrace
from vac.runtime.port import Transport
from vac.runtime.session import Session, new_id
from vac.speech.phrases import split_phrases
from vac.speech.render import Refused, render_for_speech
from vac.speech.resample import Resampler, chunk_pcm
from vac.speech.tts import SynthesizedPhrase, TtsEngine

ReplyEnd = Literal["completed", "cancelled", "failed", "overrun", "refused", "silent"]


@dataclass
class SpokenReply:
    turn: str
    stream: str
    generation: int
    text: str
    phrases: list[SpokenPhrase] = field(default_factory=list)
    chunks: int = 0
    sent_ms: int = 0
    played_ms: int | None = None
    ended: bool = False


@dataclass(frozen=True)
class ReplyOutcome:
    end: ReplyEnd
    spoken_text: str
    heard_text: str


class Speaker:
    def __init__(
        self,
        transport: Transport,
        session: Session,
        tts: TtsEngine,
        executor: Executor,
        next_generation: Callable[[], Awaitable[int]],
        lead_ms: int,
    ) -> None:
        self.transport = transport
        self.session = session
        self.tts = tts
        self.executor = executor
        self.next_generation = next_generation
        self.lead_ms = lead_ms
        self.current: SpokenReply | None = None
        self.last: SpokenReply | None = None

    # ------------------------------------------------------------ control

    def fence(self, played_ms: int | None = None) -> SpokenReply | None:
        """Stop the current reply now (barge-in / cancel). Synchronous."""
        reply = self.current
        if reply is None or reply.ended:
            return None
        if played_ms is not None:
            reply.played_ms = played_ms
        dropped = self.transport.drop_chunks(self.session, reply.generation)
        reply.chunks -= dropped
        self._end(reply, "cancelled")
        return reply

    def played(self, stream: str, played_ms: int) -> bool:
        """`audio.output.played`: remember how much the client has played."""
        for reply in (self.current, self.last):
            if reply is not None and reply.stream == stream:
                reply.played_ms = max(reply.played_ms or 0, played_ms)
                return True
        return False

    def _end(self, reply: SpokenReply, reason: OutputDoneReason) -> None:
        reply.ended = True
        self.transport.send(
            self.session,
            AudioOutputDone(
                stream=reply.stream,
                generation=reply.generation,
                reason=reason,
                chunks=reply.chunks,
            ),
        )
        if self.current is reply:
            self.current, self.last = None, reply

    # -------------------------------------------------------------- speak

    async def speak(self, turn: str, text: str, trace: LatencyTrace) -> ReplyOutcome:
        """Speak `text` for `turn`. Raises CancelledError when fenced."""
        rendered = render_for_speech(text)
        if isinstance(rendered, Refused):
            self.transport.send(
                self.session,
                AudioOutputRefused(turn=turn, reason=rendered.reason, detail=rendered.detail),
            )
            return ReplyOutcome("refused", "", "")
        if not self.session.output.speak:
            return ReplyOutcome("silent", rendered.text, rendered.text)
        text_ready_ns = monotonic_ns()
        reply = SpokenReply(turn, new_id(), await self.next_generation(), rendered.text)
        self.current = reply
        self.transport.send(
            self.session,
            AudioOutputStart(
                turn=turn,
                stream=reply.stream,
                generation=reply.generation,
                rate=self.session.output.rate,
                text=reply.text,
            ),
        )
        try:
            return await self._stream(reply, trace, text_ready_ns)
        except asyncio.CancelledError:
            raise
        except Exception:
            # A synthesis failure still ends the output stream for the client.
            if not reply.ended:
                reply.chunks -= self.transport.drop_chunks(self.session, reply.generation)
                self._end(reply, "failed")
            raise

    async def _stream(
        self, reply: SpokenReply, trace: LatencyTrace, text_ready_ns: int
    ) -> ReplyOutcome:
        out_rate = self.session.output.rate
        resampler = Resampler(self.tts.sample_rate_hz, out_rate)
        phrases = split_phrases(reply.text) or [reply.text]
        loop = asyncio.get_running_loop()
        synth_next = loop.run_in_executor(self.executor, self.tts.synthesize, phrases[0])
        started_s: float | None = None
        try:
            for i, phrase in enumerate(phrases):
                synth: SynthesizedPhrase = await synth_next
                if i + 1 < len(phrases):
                    # Synthesise the next phrase while this one is paced out.
                    synth_next = loop.run_in_executor(
                        self.executor, self.tts.synthesize, phrases[i + 1]
                    )
                if reply.ended:
                    raise asyncio.CancelledError
                pcm = resampler.feed(synth.pcm)
                if i + 1 == len(phrases):
                    pcm += resampler.flush()
                reply.phrases.append(SpokenPhrase(phrase, reply.sent_ms, synth.duration_ms))
                self.transport.send(
                    self.session,
                    AudioOutputVisemes(
                        stream=reply.stream,
                        generation=reply.generation,
                        cues=[
                            VisemeCue(at_ms=c.at_ms + reply.sent_ms, viseme=c.viseme)
                            for c in synth.cues
                        ],
                        timing=synth.timing,
                    ),
                )
                for chunk in chunk_pcm(pcm, out_rate):
                    started_s = await self._pace(reply, started_s)
                    if self.session.connection is None:
                        raise asyncio.CancelledError  # detached: nobody to speak to
                    ok = self.transport.try_send_chunk(
                        self.session,
                        AudioOutputChunk(
                            stream=reply.stream, generation=reply.generation, index=reply.chunks
                        ),
                        chunk,
                    )
                    if not ok:
                        return self._overrun(reply)
                    if reply.chunks == 0:
                        trace.record("tts_first", (monotonic_ns() - text_ready_ns) / 1e6)
                        trace.since_origin("first_audio")
                    reply.chunks += 1
                    reply.sent_ms += len(chunk) * 1000 // (2 * out_rate)
        finally:
            # A queued synthesis that has not started never runs; one that
            # has is left to finish, and its outcome is read and dropped.
            synth_next.cancel()
            synth_next.add_done_callback(_discard)
        self._end(reply, "completed")
        return ReplyOutcome("completed", reply.text, reply.text)

    async def _pace(self, reply: SpokenReply, started_s: float | None) -> float:
        """The first `lead_ms` at once, then no faster than real time (§5.2)."""
        now_s = monotonic_s()
        if started_s is None:
            return now_s
        due_s = started_s + max(0, reply.sent_ms - self.lead_ms) / 1000
        if due_s > now_s:
            await asyncio.sleep(due_s - now_s)
        if reply.ended:
            raise asyncio.CancelledError
        return started_s

    def _overrun(self, reply: SpokenReply) -> ReplyOutcome:
        from vac.protocol.errors import ProtocolError

        dropped = self.transport.drop_chunks(self.session, reply.generation)
        reply.chunks -= dropped
        self.transport.error(
            self.session,
            ProtocolError(
                "output_overrun",
                f"the client is not reading; reply cancelled after {reply.chunks} chunks",
                turn=reply.turn,
            ),
        )
        self._end(reply, "failed")
        return ReplyOutcome("overrun", reply.text, "")

    def heard(self, reply: SpokenReply) -> str:
        """What the user heard of a fenced reply (for the history)."""
        return heard_text(reply.phrases, reply.played_ms or 0)


def _discard(fut: asyncio.Future[SynthesizedPhrase]) -> None:
    if not fut.cancelled():
        fut.exception()
