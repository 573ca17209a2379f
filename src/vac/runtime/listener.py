"""Voice input for one session: `audio.input.*` → VAD → partials → one final.

The per-stream rules are the pure state machine of `vac.protocol.streams`;
this module applies its outcomes to a bounded PCM buffer, runs the VAD inline
(it costs microseconds per frame), and hands recognition to the worker pool —
never running inference on the event loop. Partial work is droppable; a final
always wins, and after a cancel nothing more is published for the stream.

A closed stream's outcome is written to the event log before anyone is
told it (`stream_outcomes.py`), so that its id stays used and a repeated
commit is answered with it again, also after a restart.

Every recognition task is the listener's (one `TaskSet`): `close_all` cancels
them, so none outlives the session. A recognition failure is the pool's own
`VacError` (`Busy`, `ProviderUnavailable`): the listener says which stream and
message it is about and hands it to the transport, which alone turns it into
a wire `error`.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Final

import msgspec

from vac.errors import VacError
from vac.logs import get_logger
from vac.protocol.errors import ProtocolError
from vac.protocol.messages import (
    AudioInputCancel,
    AudioInputChunk,
    AudioInputCommit,
    AudioInputDone,
    AudioInputStart,
    InputDoneReason,
    SpeechStarted,
    SpeechStopped,
    TranscriptFinal,
    TurnDone,
)
from vac.protocol.streams import (
    BYTES_PER_MS,
    Accepted,
    Committed,
    InputStream,
    Report,
    SilenceFilled,
    StreamState,
)
from vac.runtime.continuation import Window, window_enabled
from vac.runtime.heard import FinalHeard, evidence_of
from vac.runtime.latency import LatencyTrace
from vac.runtime.open_stream import OpenStream as _Open
from vac.runtime.open_stream import final_key as _final_key
from vac.runtime.open_stream import partial_key as _partial_key
from vac.runtime.port import Transport
from vac.runtime.recognition import StreamRecognition
from vac.runtime.session import Session, new_id
from vac.runtime.stream_outcomes import StreamOutcomes
from vac.runtime.stream_records import MAX_STREAM_IDS, StreamRecords
from vac.runtime.tasks import TaskSet
from vac.speech import vad as vadlib
from vac.speech.workers import PoolError, SttPool, Superseded

log = get_logger("vac.listener")
# `vad` mode: a client that stops sending after speech (its own detector went
# quiet, or it gates silence) is heard as silence after this much wall time,
# so the utterance ends instead of waiting for audio that never comes. Long
# enough that a real-time client's network hiccup is not taken for a pause.
STALL_MS: Final = 1000
MAX_WAITING: Final = 8  # repeated commits answered once the final is known


class Listener(StreamRecognition, StreamOutcomes):
    def __init__(
        self,
        transport: Transport,
        session: Session,
        stt: SttPool,
        vad_config: vadlib.VadConfig,
        partial_interval_ms: int,
        on_final: Callable[[FinalHeard], TranscriptFinal | None],
        on_speech: Callable[[], None],
        reply_expected: Callable[[], bool] = lambda: False,
        records: StreamRecords | None = None,
    ) -> None:
        self.transport = transport
        self.records = records  # closed streams in the event log (`stream_outcomes.py`)
        # Whether one draft is pending now: a short final is then also scored
        # against the reply phrases, in the worker (docs/stt.md).
        self.reply_expected = reply_expected
        self.session = session
        self.stt = stt
        self.vad_config = vad_config
        self.partial_interval_ms = partial_interval_ms
        self.on_final = on_final
        self.on_speech = on_speech
        self.open: _Open | None = None
        # Every stream id this session used, with its closed state (bounded;
        # after a restart, read back from the event log: `reload`).
        self.closed: OrderedDict[str, _Open] = OrderedDict()
        # Turns named by a provisional final that the listener ended (bounded):
        # a `turn.cancel` of one again is a no-op (§5.2).
        self._ended_turns: OrderedDict[str, None] = OrderedDict()
        # Partial, speculative and final recognitions of every stream.
        self._tasks = TaskSet()

    def _send(self, msg: object) -> None:
        self.transport.send(self.session, msg)  # type: ignore[arg-type]

    def _error(self, exc: VacError) -> None:
        self.transport.error(self.session, exc)

    # ----------------------------------------------------------- messages

    def start(self, msg: AudioInputStart) -> None:
        limits = self.transport.limits
        if msg.stream in self.closed or (self.open is not None and self.open.id == msg.stream):
            raise ProtocolError("stream_exists", "stream ids are never reused", stream=msg.stream)
        if (msg.encoding, msg.rate, msg.channels) != ("pcm_s16le", 16000, 1):
            raise ProtocolError(
                "format_unsupported",
                f"input must be pcm_s16le, 16000 Hz, 1 channel; got {msg.encoding}, "
                f"{msg.rate} Hz, {msg.channels} channels",
                stream=msg.stream,
            )
        if self.stt.saturated:
            raise ProtocolError("busy", "recognition is saturated; try again", stream=msg.stream)
        if self.open is not None and self.open.window is not None:
            # Past its endpoint (§4: a `vad` stream closes there): the utterance
            # stands, and its turn goes on while the new stream opens.
            self._close_window(self.open, self.open.window.pause_ms_by_wall())
        elif self.open is not None:
            # At most one open stream: starting another cancels it (§4).
            old = self.open
            self._cancel(old)
            self._end_announced(old)
        self.open = _Open(
            machine=InputStream(msg.stream, limits.max_chunk_bytes, limits.max_utterance_ms),
            mode=msg.mode,
            vad=vadlib.VadStream(self.vad_config),
            client_trace=msg.trace,
        )
        self.on_speech()  # a new utterance barges in on any reply (§5.2)

    def _lookup(self, stream: str) -> _Open:
        if self.open is not None and self.open.id == stream:
            return self.open
        closed = self.closed.get(stream)
        if closed is None:
            raise ProtocolError("stream_unknown", "no such stream", stream=stream)
        return closed

    def chunk(self, msg: AudioInputChunk, payload: bytes) -> None:
        st = self._lookup(msg.stream)
        for outcome in st.machine.chunk(msg.seq, payload):
            match outcome:
                case Accepted(pcm=pcm):
                    self._append(st, pcm)
                case SilenceFilled(nbytes=n):
                    self._append(st, bytes(n))
                case Report(error=err):
                    self._error(err.with_ref(msg.id))
        if st is not self.open:
            return  # the VAD endpoint closed it
        window = st.window
        vad = st.vad
        if (
            window is not None
            and vad is not None
            and window.closed_by_audio(vad.trailing_unvoiced_ms, vad.speech_pending)
        ):
            self._close_window(st, window.pause_ms_by_audio(vad.processed_ms))
            return
        if st.machine.utterance_full:
            self._auto_commit(st, "auto_committed")
            return
        backlog_ms = (len(st.pcm) - st.recognized_bytes) // BYTES_PER_MS
        if st.speech_started and backlog_ms > self.transport.limits.input_buffer_ms:
            self._overrun(st)
            return
        self._maybe_speculate(st)
        self._maybe_partial(st)
        self._watch_stall(st)

    def _watch_stall(self, st: _Open) -> None:
        """`vad` mode, after speech and before an endpoint: no chunk for
        `STALL_MS` of wall time is silence (`_stalled`)."""
        if st.stall is not None:
            st.stall.cancel()
            st.stall = None
        if st.mode == "vad" and st.speech_started and st.window is None:
            st.stall = asyncio.get_running_loop().call_later(STALL_MS / 1000, self._stalled, st)

    def _stalled(self, st: _Open) -> None:
        st.stall = None
        if st is not self.open or st.window is not None or st.vad is None:
            return
        # The silence the client did not send: the detector ends the
        # utterance as if it had (speech.stopped, the endpoint, the window).
        frame_ms = self.vad_config.frame_ms
        self._append(st, bytes((self.vad_config.endpoint_silence_ms + 2 * frame_ms) * BYTES_PER_MS))
        if st is self.open and st.window is None:  # the detector did not end it: end it here
            trace = LatencyTrace()
            trace.record("endpoint", STALL_MS)
            self._auto_commit(st, "transcribed", trace)

    def commit(self, msg: AudioInputCommit) -> None:
        st = self._lookup(msg.stream)
        outcomes = st.machine.commit(msg.last_seq)
        for outcome in outcomes:
            match outcome:
                case Report(error=err):
                    self._error(err.with_ref(msg.id))
                case SilenceFilled(nbytes=n):
                    self._append(st, bytes(n), vad=False)
                case Committed(repeat=True):
                    # Answered with its outcome again, under its own id; never
                    # a second turn. Still being recognised: once it is.
                    if st.outcome is not None:
                        self._send(msgspec.structs.replace(st.outcome, ref=msg.id))
                    elif st.final_task is not None and len(st.waiting) < MAX_WAITING:
                        st.waiting.append(msg.id)
                    else:  # never left unanswered: a client waiting on it would hang
                        raise ProtocolError(
                            "busy",
                            "this stream is still being recognised; commit it again shortly",
                            stream=st.id,
                            details={"retry_after_ms": 200},
                        )
                    return
                case Committed():
                    self._close(st)
                    self._finalize(st, "transcribed", msg.id)

    def cancel(self, msg: AudioInputCancel) -> None:
        st = self._lookup(msg.stream)
        st.machine.cancel()  # raises stream_closed when already closed
        self._cancel(st)
        self._end_announced(st)

    def cancel_turn(self, turn_id: str) -> bool:
        """`turn.cancel` of a turn a provisional final named that has not
        opened yet — its stream still open, or its final still being
        recognised: the stream and the turn end here (`audio.input.done
        {transcribed, turn}`: its utterance was heard; `turn.done
        {cancelled}`); one the listener ended already: nothing (§5.2). False:
        not such a turn (the session's turns decide)."""
        if turn_id in self._ended_turns:
            return True
        st = next(
            (
                s
                for s in (self.open, *self.closed.values())
                if s is not None and s.turn_id == turn_id
            ),
            None,
        )
        if st is None or not st.announced:
            return False
        if st is self.open:
            st.machine.fail()
            self._close(st)
        elif st.final_task is not None:  # the window closed; its final is not a turn yet
            st.final_task.cancel()
            self.stt.cancel(_final_key(self.session, st))
        self._drop_speculation(st)
        st.pcm = bytearray()
        self._settle(st, AudioInputDone(stream=st.id, reason="transcribed", turn=turn_id))
        self._record(st)  # replaces the final, if it was being written
        self._end_announced(st)
        return True

    def _end_announced(self, st: _Open) -> None:
        """The turn a provisional final named for `st`, if it will never open
        now, ends (§5: every turn a `transcript.final` began ends with one
        `turn.done`)."""
        if st.announced and st.turn_id is not None:
            st.announced = False
            self._send(TurnDone(turn=st.turn_id, status="cancelled", latency_ms={}))
            self._ended_turns[st.turn_id] = None
            while len(self._ended_turns) > MAX_STREAM_IDS:
                self._ended_turns.popitem(last=False)

    # ------------------------------------------------------------ internals

    def _append(self, st: _Open, pcm: bytes, *, vad: bool = True) -> None:
        st.pcm += pcm
        if not vad or st.vad is None:
            return
        for event in st.vad.feed(pcm):
            match event:
                case vadlib.VoiceStarted(at_ms=at):
                    if st.window is not None and st.window.resumes(at):
                        st.window.cancel()  # the pause was mid-command: go on
                        st.window = None
                    st.speech_started = True
                    self._send(SpeechStarted(stream=st.id, at_ms=at))
                    self.on_speech()
                case vadlib.VoiceStopped(at_ms=at):
                    self._send(SpeechStopped(stream=st.id, at_ms=at))
                case vadlib.Endpoint(at_ms=at, last_voiced_ms=last):
                    if st.mode == "vad" and st is self.open:
                        self._endpoint(st, at, last)

    def _endpoint(self, st: _Open, at_ms: int, last_voiced_ms: int) -> None:
        """`vad` mode: end the utterance now, or wait for a continuation."""
        continuation_ms = self.transport.limits.continuation_ms
        if not window_enabled(continuation_ms, self.vad_config.endpoint_silence_ms):
            trace = LatencyTrace()
            trace.record("endpoint", at_ms - last_voiced_ms)
            self._auto_commit(st, "transcribed", trace)
            return
        st.turn_id = st.turn_id or new_id()
        window = Window(last_voiced_ms, at_ms, continuation_ms, st.turn_id, time.monotonic())
        window.timer = asyncio.get_running_loop().call_later(
            window.wall_delay_s(), self._window_timer, st, window
        )
        st.window = window
        self._tasks.spawn(self._provisional(st, window))

    def _window_timer(self, st: _Open, window: Window) -> None:
        # The client stopped sending (or is slower than real time): wall time decides.
        if st.window is window and st is self.open:
            self._close_window(st, window.pause_ms_by_wall())

    def _close_window(self, st: _Open, pause_ms: int) -> None:
        """No speech came back: the utterance ends here, as the turn named earlier."""
        if st.window is not None:
            st.window.cancel()
            st.window = None
        trace = LatencyTrace()
        trace.record("endpoint", pause_ms)
        self._auto_commit(st, "transcribed", trace)

    async def _provisional(self, st: _Open, window: Window) -> None:
        """The final as heard at the pause, marked provisional (shown, not acted on)."""
        if st.speculation is None:
            self._maybe_speculate(st)
        spec = st.speculation
        if spec is None:
            return
        try:
            result = await spec.task
        except PoolError:
            return  # the final itself will say what failed
        if "provisional-final" not in self.session.accepts:
            return  # two finals for one turn: only for a client that asked (§4)
        if st.window is window and result.text and st.voiced_ms == spec.voiced_ms:
            st.announced = True
            self._send(
                TranscriptFinal(
                    stream=st.id,
                    turn=window.turn_id,
                    text=result.text,
                    confidence=result.confidence,
                    provisional=True,
                )
            )

    def _auto_commit(
        self, st: _Open, reason: InputDoneReason, trace: LatencyTrace | None = None
    ) -> None:
        if st.machine.auto_commit():
            self._close(st)
            self._finalize(st, reason, None, trace)

    def _close(self, st: _Open, *, publish: bool = True) -> None:
        """`publish` False: cancelled, so nothing more is published for it (§4)."""
        if st.window is not None:
            st.window.cancel()
            st.window = None
        if st.stall is not None:
            st.stall.cancel()
            st.stall = None
        if st.vad is not None:
            for event in st.vad.finish():
                if publish and isinstance(event, vadlib.VoiceStopped):
                    self._send(SpeechStopped(stream=st.id, at_ms=event.at_ms))
            st.voiced_ms_at_close, st.vad = st.vad.voiced_ms, None
        if self.open is st:
            self.open = None
        self.closed[st.id] = st
        while len(self.closed) > MAX_STREAM_IDS:
            self.closed.popitem(last=False)
        if st.machine.state is not StreamState.COMMITTED:
            # Cancelled or failed: its id stays used. A committed stream is
            # written with its outcome (`_durable`).
            self._record(st)
        if st.partial_task is not None:
            st.partial_task.cancel()
        self.stt.cancel(_partial_key(self.session, st))

    def _cancel(self, st: _Open) -> None:
        if st.machine.state.value == "open":
            st.machine.cancel()
        self._close(st, publish=False)
        if st.final_task is not None:
            st.final_task.cancel()
        self.stt.cancel(_final_key(self.session, st))
        self._drop_speculation(st)
        st.pcm = bytearray()

    def _overrun(self, st: _Open) -> None:
        st.machine.fail()
        self._close(st)
        self._drop_speculation(st)
        st.pcm = bytearray()
        self._error(
            ProtocolError(
                "input_overrun",
                f"more than {self.transport.limits.input_buffer_ms} ms of audio waiting",
                stream=st.id,
            )
        )
        self._send(AudioInputDone(stream=st.id, reason="overrun"))
        self._end_announced(st)

    def cancel_open(self, reason: InputDoneReason) -> None:
        """Session idle or detached: the open stream ends (§3)."""
        st = self.open
        if st is None:
            return
        st.machine.fail()
        self._close(st)
        self._drop_speculation(st)
        st.pcm = bytearray()
        self._send(AudioInputDone(stream=st.id, reason=reason))
        self._end_announced(st)

    def close_all(self) -> None:
        """The session ends: every recognition of every stream stops."""
        for st in [self.open, *self.closed.values()]:
            if st is not None:
                self._drop_speculation(st)
        # Also the tasks of streams too old to be remembered in `closed`.
        self._tasks.cancel()

    def _finalize(
        self, st: _Open, reason: InputDoneReason, ref: str | None, trace: LatencyTrace | None = None
    ) -> None:
        trace = trace or LatencyTrace()
        trace.client_trace = st.client_trace
        if st.voiced_ms == 0:
            st.pcm = bytearray()
            # No model to run, but a write: a repeated commit meanwhile waits for it.
            st.final_task = self._tasks.spawn(self._no_speech(st, ref))
        else:
            pcm, st.pcm = bytes(st.pcm), bytearray()
            st.final_task = self._tasks.spawn(self._final(st, pcm, reason, ref, trace))
        # Cancelled by a detach (`close_all`) before its outcome was settled.
        st.final_task.add_done_callback(lambda t: self._cut(st, ref) if t.cancelled() else None)

    async def _final(
        self, st: _Open, pcm: bytes, reason: InputDoneReason, ref: str | None, trace: LatencyTrace
    ) -> None:
        try:
            result = await self._recognise_final(st, pcm)
        except Superseded:
            return
        except PoolError as exc:  # busy, provider_unavailable
            self._failed(st, exc, ref)
            return
        if not result.text:
            await self._no_speech(st, ref)
            return
        trace.since_origin("asr")
        heard = FinalHeard(
            st.id, result.text, result.confidence, reason, ref, trace, evidence_of(result)
        )
        # Its turn is named now, so that the event log holds the final (what
        # a repeated commit is answered with, also after a restart) before
        # the turn opens and anyone is told.
        heard.turn_id = st.turn_id or new_id()
        final = TranscriptFinal(
            ref=ref,
            stream=st.id,
            turn=heard.turn_id,
            text=result.text,
            confidence=result.confidence,
        )
        if await self._durable(st, final, ref):
            st.announced = False  # its turn opens now
            self._settle(st, self.on_final(heard), sent=True)
