"""What a closed input stream is answered with (PROTOCOL §4), in memory and
in the event log: the listener's half that settles a stream's outcome.

A stream's outcome (its `transcript.final`, or `audio.input.done` when
nothing was heard) is written to the event log before anyone is told it, so
that after a restart a repeated commit is answered with it again and its id
stays used (`stream_records.py`). A write that fails fails the stream
(`provider_unavailable`, `audio.input.done {failed}`): nothing is announced
that a restart would forget. Kept apart from the handling of
`audio.input.*` messages (`listener.py`).
"""

from __future__ import annotations

from collections import OrderedDict

import msgspec

from vac.errors import VacError
from vac.logs import get_logger
from vac.protocol.messages import AudioInputDone, TranscriptFinal
from vac.runtime.open_stream import OpenStream as _Open
from vac.runtime.port import Transport
from vac.runtime.session import Session
from vac.runtime.store import StorageUnavailable
from vac.runtime.stream_records import Settled, StreamRecords

log = get_logger("vac.listener")


class StreamOutcomes:
    """Outcomes for `Listener`, which provides these attributes."""

    session: Session
    transport: Transport
    open: _Open | None
    closed: OrderedDict[str, _Open]
    # None: nothing is written (a listener without an event log, in tests).
    records: StreamRecords | None

    def _send(self, msg: object) -> None:
        raise NotImplementedError  # the listener's

    def _error(self, exc: VacError) -> None:
        raise NotImplementedError  # the listener's

    def _end_announced(self, st: _Open) -> None:
        raise NotImplementedError  # the listener's

    async def _durable(self, st: _Open, outcome: Settled, ref: str | None) -> bool:
        """Write `st` with `outcome` before anyone is told it. False: it could
        not be written, and the stream has failed instead (`_failed`)."""
        if self.records is None:
            return True
        try:
            await self.records.write(st, outcome)
        except StorageUnavailable as exc:
            log.warning("stream_write_failed", session=self.session.id, error=str(exc))
            self._failed(st, exc, ref)
            return False
        return True

    async def _no_speech(self, st: _Open, ref: str | None) -> None:
        done = AudioInputDone(stream=st.id, reason="no_speech", ref=ref)
        if await self._durable(st, done, ref):
            self._settle(st, done)
            self._end_announced(st)

    def _failed(self, st: _Open, exc: VacError, ref: str | None) -> None:
        """No final for `st`: the recogniser failed, or its outcome could not
        be written. The error's code and client message are `exc`'s own;
        `str(exc)`, the reason, stays in the daemon's log."""
        exc.stream, exc.ref = st.id, ref
        self._error(exc)
        self._settle(st, AudioInputDone(stream=st.id, reason="failed", ref=ref))
        self._record(st)
        self._end_announced(st)

    def _cut(self, st: _Open, ref: str | None) -> None:
        """`st`'s final (or no_speech) task was cancelled, the session having
        detached, before anyone was told its outcome: no turn opens for it,
        so it failed. A repeated commit after the resume, or after a restart,
        is answered with that, never left waiting, nor given a final whose
        write may have landed for a turn that never ran. The row is written
        after the one being cancelled (the store keeps the order)."""
        if st.outcome is None:
            st.outcome = AudioInputDone(stream=st.id, reason="failed", ref=ref)
            st.waiting = []  # asked before the detach: the client asks again
            self._record(st)

    def _record(self, st: _Open) -> None:
        """Write `st` as it stands now, in the background: nothing told waits for it."""
        if self.records is not None:
            self.records.record(st)

    def _settle(
        self, st: _Open, outcome: TranscriptFinal | AudioInputDone | None, *, sent: bool = False
    ) -> None:
        """The stream's outcome: sent (unless `sent` already), kept for a
        repeated commit, and sent again to each that waited for it."""
        st.outcome = outcome
        if outcome is not None and not sent:
            self._send(outcome)
        waiting, st.waiting = st.waiting, []
        for ref in waiting:
            if outcome is not None:
                self._send(msgspec.structs.replace(outcome, ref=ref))

    async def reload(self) -> None:
        """The session is resumed by a daemon that did not hold it (it
        restarted, or had forgotten the session): its closed streams come
        back from the event log, so their ids stay used and a repeated
        commit is answered as before. Streams in memory know better."""
        if self.records is None or self.open is not None or self.closed:
            return
        loaded = await self.records.load(self.transport.limits)
        # Read off the loop: a stream may have begun meanwhile (the session
        # attached elsewhere); it stays, newest.
        live = {st.id for st in (self.open, *self.closed.values()) if st is not None}
        kept = OrderedDict((st.id, st) for st in loaded if st.id not in live)
        kept.update(self.closed)
        self.closed = kept
