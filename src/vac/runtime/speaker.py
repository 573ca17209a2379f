"""Spoken replies: render gate → phrases → TTS off the loop → paced, fenced chunks.

One `Speaker` per session is the single writer of its `audio.output.*`.
Each reply gets a fresh `generation`. Its rules are the table of
`vac.lifecycle.reply`; this module feeds it events and carries out the
actions it returns. `fence()` runs synchronously when the daemon reads a
cancel: it drops every queued chunk of the reply from the outbox and answers
`audio.output.done {cancelled}`, so no chunk of that generation can be sent
afterwards; the reply task is then cancelled, and if it wakes first, the
table answers its next event with STOP, so it sends nothing more.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from vac.clock import monotonic_ns, monotonic_s
from vac.lifecycle.reply import ReplyAction, ReplyEnd, ReplyEvent, ReplyLife
from vac.protocol.errors import ProtocolError
from vac.protocol.messages import (
    AudioOutputChunk,
    AudioOutputDone,
    AudioOutputRefused,
    AudioOutputStart,
    AudioOutputVisemes,
    VisemeCue,
)
from vac.runtime.history import SpokenPhrase, heard_text
from vac.runtime.latency import LatencyTrace
from vac.runtime.port import Transport
from vac.runtime.session import Session, new_id
from vac.runtime.synthesis import SynthesisScheduler
from vac.speech.phrases import split_phrases
from vac.speech.render import Refused, render_for_speech
from vac.speech.resample import Resampler, chunk_pcm
from vac.speech.tts import SynthesizedPhrase, TtsEngine

# Replies before the last two whose late `audio.output.played` is still
# known (ignored), per session.
OLDER_STREAMS_KEPT = 16

__all__ = ["ReplyEnd", "ReplyOutcome", "Speaker", "SpokenReply"]

_E, _A = ReplyEvent, ReplyAction


@dataclass
class SpokenReply:
    """A reply with an output stream: its lifecycle and its audio bookkeeping."""

    turn: str
    stream: str
    generation: int
    text: str
    life: ReplyLife
    phrases: list[SpokenPhrase] = field(default_factory=list)
    chunks: int = 0
    sent_ms: int = 0
    played_ms: int | None = None

    @property
    def ended(self) -> bool:
        return self.life.ended

    @property
    def duration_ms(self) -> int:
        """How long the reply's audio is (what has been synthesised of it)."""
        return max((p.start_ms + p.duration_ms for p in self.phrases), default=0)


@dataclass(frozen=True)
class ReplyOutcome:
    end: ReplyEnd
    spoken_text: str
    heard_text: str
    # The reply whose stream it was, if it had one (not part of what it said).
    reply: SpokenReply | None = field(default=None, compare=False)


def _outcome(
    life: ReplyLife, spoken_text: str, heard: str, reply: SpokenReply | None = None
) -> ReplyOutcome:
    end = life.end
    assert end is not None, "a reply reports how it ended only once it has"
    return ReplyOutcome(end, spoken_text, heard, reply)


class Speaker:
    def __init__(
        self,
        transport: Transport,
        session: Session,
        tts: TtsEngine,
        executor: SynthesisScheduler,
        next_generation: Callable[[], Awaitable[int]],
        lead_ms: int,
    ) -> None:
        self.transport = transport
        self.session = session
        self.tts = tts
        self.executor = executor
        self.next_generation = next_generation
        self.lead_ms = lead_ms
        # The reply being streamed, and the one before it (played reports
        # may still name it after its end).
        self.current: SpokenReply | None = None
        self.last: SpokenReply | None = None
        # Streams of the replies before those two, newest last (bounded).
        self._older: deque[str] = deque(maxlen=OLDER_STREAMS_KEPT)

    # ------------------------------------------------------------ control

    def fence(self, played_ms: int | None = None) -> SpokenReply | None:
        """Stop the current reply now (barge-in / cancel). Synchronous."""
        reply = self.current
        if reply is None or reply.ended:
            return None
        if played_ms is not None:
            reply.played_ms = played_ms
        self._carry(reply, _E.FENCE)
        return reply

    def played(self, stream: str, played_ms: int) -> bool:
        """`audio.output.played`: remember how much the client has played."""
        for reply in (self.current, self.last):
            if reply is not None and reply.stream == stream:
                if _A.NOTE_PLAYED in self._carry(reply, _E.PLAYED):
                    reply.played_ms = max(reply.played_ms or 0, played_ms)
                return True
        # An older reply's late report (a client that buffers): known, its
        # history written already, so nothing to do (it was stream_unknown).
        return stream in self._older

    def heard(self, reply: SpokenReply) -> str:
        """What the user heard of a fenced reply (for the history)."""
        return heard_text(reply.phrases, reply.played_ms or 0)

    def _carry(self, reply: SpokenReply, event: ReplyEvent) -> tuple[ReplyAction, ...]:
        """Feed `event` to the reply's table and carry out the actions that
        need only the reply; return every action, so that the caller carries
        out those that need its data (visemes, a chunk, a played report)."""
        actions = reply.life.feed(event)
        for action in actions:
            match action:
                case _A.STOP:
                    raise asyncio.CancelledError  # fenced while this task awaited
                case _A.SEND_START:
                    self.transport.send(
                        self.session,
                        AudioOutputStart(
                            turn=reply.turn,
                            stream=reply.stream,
                            generation=reply.generation,
                            rate=self.session.output.rate,
                            text=reply.text,
                            encoding="pcm_s16le",
                            channels=1,
                        ),
                    )
                case _A.DROP_CHUNKS:
                    reply.chunks -= self.transport.drop_chunks(self.session, reply.generation)
                case _A.REPORT_OVERRUN:
                    self.transport.error(
                        self.session,
                        ProtocolError(
                            "output_overrun",
                            f"the client is not reading; reply cancelled after {reply.chunks} "
                            "chunks",
                            turn=reply.turn,
                        ),
                    )
                case _A.SEND_DONE:
                    self._send_done(reply)
                case _:
                    pass  # the caller's: it holds the data they need
        return actions

    def _send_done(self, reply: SpokenReply) -> None:
        self.transport.send(
            self.session,
            AudioOutputDone(
                stream=reply.stream,
                generation=reply.generation,
                reason=reply.life.done_reason,
                chunks=reply.chunks,
            ),
        )
        if self.current is reply:
            if self.last is not None:
                self._older.append(self.last.stream)
            self.current, self.last = None, reply

    # -------------------------------------------------------------- speak

    async def speak(self, turn: str, text: str, trace: LatencyTrace) -> ReplyOutcome:
        """Speak `text` for `turn`. Raises CancelledError when fenced."""
        life = ReplyLife()
        rendered = render_for_speech(text)
        if not self.session.output.speak:  # §3: text only, no `audio.output.*` at all
            life.feed(_E.SILENT)
            said = "" if isinstance(rendered, Refused) else rendered.text
            return _outcome(life, said, said)
        if isinstance(rendered, Refused):
            if _A.SEND_REFUSED in life.feed(_E.REFUSED):
                self.transport.send(
                    self.session,
                    AudioOutputRefused(turn=turn, reason=rendered.reason, detail=rendered.detail),
                )
            return _outcome(life, "", "")
        text_ready_ns = monotonic_ns()
        reply = SpokenReply(turn, new_id(), await self.next_generation(), rendered.text, life)
        self.current = reply
        self._carry(reply, _E.STARTED)
        try:
            return await self._stream(reply, trace, text_ready_ns)
        except asyncio.CancelledError:
            raise
        except Exception:
            # A synthesis failure still ends the output stream for the client
            # (the table ignores it if the reply had already ended).
            self._carry(reply, _E.SYNTHESIS_FAILED)
            raise

    async def _stream(
        self, reply: SpokenReply, trace: LatencyTrace, text_ready_ns: int
    ) -> ReplyOutcome:
        out_rate = self.session.output.rate
        resampler = Resampler(self.tts.sample_rate_hz, out_rate)
        phrases = split_phrases(reply.text) or [reply.text]
        synth_next = self._synthesize(phrases[0], first=True)
        started_s: float | None = None
        try:
            for i, phrase in enumerate(phrases):
                synth: SynthesizedPhrase = await synth_next
                is_last = i + 1 == len(phrases)
                if not is_last:
                    # Synthesise the next phrase while this one is paced out.
                    synth_next = self._synthesize(phrases[i + 1], first=False)
                ready = self._carry(reply, _E.PHRASE_READY)  # STOP: fenced meanwhile
                pcm = resampler.feed(synth.pcm)
                if is_last:
                    pcm += resampler.flush()
                reply.phrases.append(SpokenPhrase(phrase, reply.sent_ms, synth.duration_ms))
                if _A.SEND_VISEMES in ready:
                    self._send_visemes(reply, synth)
                for chunk in chunk_pcm(pcm, out_rate):
                    chunk_ms = len(chunk) * 1000 // (2 * out_rate)
                    started_s = await self._pace(reply, started_s, chunk_ms)
                    if self.session.connection is None:
                        raise asyncio.CancelledError  # detached: nobody to speak to
                    due = self._carry(reply, _E.CHUNK_DUE)  # STOP: fenced while pacing
                    if _A.SEND_CHUNK in due and not self._send_chunk(
                        reply, chunk, trace, text_ready_ns
                    ):
                        return _outcome(reply.life, reply.text, "")
                self._carry(reply, _E.DONE if is_last else _E.PHRASE_SENT)
        finally:
            # A queued synthesis that has not started never runs; one that
            # has is left to finish, and its outcome is read and dropped.
            synth_next.cancel()
            synth_next.add_done_callback(_discard)
        return _outcome(reply.life, reply.text, reply.text, reply)

    def _synthesize(self, phrase: str, *, first: bool) -> asyncio.Future[SynthesizedPhrase]:
        """Schedule one phrase: a reply's first before anyone's later ones, principals in turn."""
        # SchedulerFull (`busy`) when this principal already has too many waiting.
        job = self.executor.submit(self.session.principal, first, self.tts.synthesize, phrase)
        return asyncio.wrap_future(job)

    def _send_visemes(self, reply: SpokenReply, synth: SynthesizedPhrase) -> None:
        # Cue times are the phrase's own; the stream's clock starts at its first chunk.
        cues = [VisemeCue(at_ms=c.at_ms + reply.sent_ms, viseme=c.viseme) for c in synth.cues]
        self.transport.send(
            self.session,
            AudioOutputVisemes(
                stream=reply.stream, generation=reply.generation, cues=cues, timing=synth.timing
            ),
        )

    def _send_chunk(
        self, reply: SpokenReply, chunk: bytes, trace: LatencyTrace, text_ready_ns: int
    ) -> bool:
        """Offer one chunk to the transport; False if it had no room (an overrun)."""
        msg = AudioOutputChunk(stream=reply.stream, generation=reply.generation, index=reply.chunks)
        if not self.transport.try_send_chunk(self.session, msg, chunk):
            self._carry(reply, _E.NO_ROOM)
            return False
        if reply.chunks == 0:
            trace.record("tts_first", (monotonic_ns() - text_ready_ns) / 1e6)
            trace.since_origin("first_audio")
        reply.chunks += 1
        reply.sent_ms += len(chunk) * 1000 // (2 * self.session.output.rate)
        self._carry(reply, _E.CHUNK_SENT)
        return True

    async def _pace(self, reply: SpokenReply, started_s: float | None, chunk_ms: int) -> float:
        """The first `lead_ms` at once, then no faster than real time (§5.2):
        a chunk goes when, with it, the client holds at most `lead_ms` ahead
        of what it has played (counted from the reply's first chunk)."""
        now_s = monotonic_s()
        if started_s is None:
            return now_s
        # A lead under one chunk still lets one chunk be held (or the client starves).
        ahead_ms = max(self.lead_ms, chunk_ms)
        due_s = started_s + max(0, reply.sent_ms + chunk_ms - ahead_ms) / 1000
        if due_s > now_s:
            await asyncio.sleep(due_s - now_s)
        return started_s


def _discard(fut: asyncio.Future[SynthesizedPhrase]) -> None:
    if not fut.cancelled():
        fut.exception()
