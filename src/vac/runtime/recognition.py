"""The recognitions of one session's input streams: partials while the user
speaks, a speculative final at a pause, the final itself.

The listener's half that talks to the worker pool, kept apart from its
handling of `audio.input.*` messages (`listener.py`). Never runs inference
on the event loop: every recognition is a task of the listener's `TaskSet`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from vac.clock import monotonic_s
from vac.protocol.messages import TranscriptPartial
from vac.protocol.streams import BYTES_PER_MS
from vac.runtime.open_stream import OpenStream as _Open
from vac.runtime.open_stream import Speculation as _Speculation
from vac.runtime.open_stream import final_key as _final_key
from vac.runtime.open_stream import partial_key as _partial_key
from vac.runtime.open_stream import quiet as _quiet
from vac.runtime.open_stream import sent_ahead_ms
from vac.runtime.open_stream import spec_key as _spec_key
from vac.runtime.session import Session
from vac.runtime.tasks import TaskSet
from vac.speech.stt import Transcript
from vac.speech.workers import Busy, PoolError, ProviderUnavailable, SttPool, Superseded

# After this much trailing silence the utterance is probably over: recognise
# it now, so that the commit (typically 300-700 ms later) finds it done.
SPECULATE_AFTER_MS: Final = 200
# Audio this far ahead of the wall clock over the last second was sent faster
# than spoken (a recording): no partials. A live client is a chunk or two ahead.
SENT_AHEAD_MS: Final = 500


class StreamRecognition:
    """Recognition for `Listener`, which provides these attributes."""

    session: Session
    stt: SttPool
    open: _Open | None
    partial_interval_ms: int
    reply_expected: Callable[[], bool]
    _tasks: TaskSet

    def _send(self, msg: object) -> None:
        raise NotImplementedError  # the listener's

    # ---------------------------------------------------------- recognition

    def _maybe_speculate(self, st: _Open) -> None:
        spec = st.speculation
        if spec is not None and st.voiced_ms != spec.voiced_ms:
            self._drop_speculation(st)  # the user went on speaking
            spec = None
        if (
            spec is None
            and st.vad is not None
            and st.vad.trailing_unvoiced_ms >= SPECULATE_AFTER_MS
        ):
            # Partial priority: a guess never crowds out anyone's real final;
            # but decoded completely, as it may become the final.
            pcm, key, reply = bytes(st.pcm), _spec_key(self.session, st), self.reply_expected()
            who = self.session.principal
            job = self.stt.transcribe(
                pcm, kind="partial", key=key, complete=True, reply_expected=reply, owner=who
            )
            task = self._tasks.spawn(job)
            task.add_done_callback(_quiet)
            st.speculation = _Speculation(st.voiced_ms, task)

    def _drop_speculation(self, st: _Open) -> None:
        if st.speculation is not None:
            st.speculation.task.cancel()
            self.stt.cancel(_spec_key(self.session, st))
            st.speculation = None

    async def _recognise_final(self, st: _Open, pcm: bytes) -> Transcript:
        """The final transcript: the pause's speculation when nothing was said since."""
        spec, st.speculation = st.speculation, None
        if spec is not None and st.voiced_ms == spec.voiced_ms:
            try:
                return await spec.task
            except PoolError:
                pass  # fall back to recognising the whole utterance now
            # A CancelledError here is this final being cancelled: it propagates.
        elif spec is not None:
            spec.task.cancel()
            self.stt.cancel(_spec_key(self.session, st))
        key, reply = _final_key(self.session, st), self.reply_expected()
        return await self.stt.transcribe(
            pcm, kind="final", key=key, reply_expected=reply, owner=self.session.principal
        )

    def _maybe_partial(self, st: _Open) -> None:
        if st.vad is None:
            return
        ahead_ms = sent_ahead_ms(st, st.vad.processed_ms, monotonic_s())
        new_ms = (len(st.pcm) - st.partial_audio_bytes) // BYTES_PER_MS
        # Only while the user is speaking, and as fast as spoken: a partial over
        # trailing silence, or of audio sent ahead (stale at once), shows nothing
        # new and holds a worker the final needs (`ack` at once +60 ms at p50).
        if not st.vad.in_speech or new_ms < self.partial_interval_ms or ahead_ms > SENT_AHEAD_MS:
            return
        if st.partial_task is not None and not st.partial_task.done():
            return  # one pending partial per stream, never a queue of them
        st.partial_audio_bytes = len(st.pcm)
        st.partial_task = self._tasks.spawn(self._partial(st, bytes(st.pcm)))

    async def _partial(self, st: _Open, pcm: bytes) -> None:
        try:
            result = await self.stt.transcribe(
                pcm, kind="partial", key=_partial_key(self.session, st)
            )
        except (Busy, Superseded, ProviderUnavailable):
            return  # partials are droppable
        if st is not self.open:
            return  # a final (or cancel) always wins
        st.recognized_bytes = max(st.recognized_bytes, len(pcm))
        if result.text:
            st.partial_revision += 1
            self._send(
                TranscriptPartial(stream=st.id, text=result.text, revision=st.partial_revision)
            )
