"""A session's closed input streams in the event log (PROTOCOL §4).

Stream ids are never reused within a session, and a repeated commit of a
closed stream is answered with its outcome again — also after the daemon
restarted. The listener remembers its newest `MAX_STREAM_IDS` closed streams
in memory; each is also written here as it closes (its id, its state, and
the one message a repeated commit is answered with), and read back when a
daemon that does not hold the session resumes it. Never audio.

A stream's outcome is written before anyone is told it (`write`, awaited by
the listener); a stream closed without one (cancelled, failed) is written in
the background (`record`), queued and batched with others (`Writes`):
nothing announced depends on that row.
"""

from __future__ import annotations

from typing import Final

from vac.clock import now_ms
from vac.protocol.messages import AudioInputDone, Limits, TranscriptFinal
from vac.protocol.streams import InputStream, StreamState
from vac.runtime.open_stream import OpenStream
from vac.runtime.outcomes import decode_replies, encode_replies
from vac.runtime.session import Session
from vac.runtime.store import AsyncEventLog, EventLog, StreamRow
from vac.runtime.writes import Writes

# Closed streams remembered per session, in memory and in the event log
# alike: the bound of the §4 reuse check and of repeated commits.
MAX_STREAM_IDS: Final = 1024

Settled = TranscriptFinal | AudioInputDone  # what a repeated commit is answered with


class StreamRecords:
    """One session's closed input streams, written to and read from the event log."""

    def __init__(self, store: AsyncEventLog, writes: Writes, session: Session) -> None:
        self._store = store
        self._writes = writes
        self._session = session

    async def write(self, st: OpenStream, outcome: Settled) -> None:
        """Write `st` with `outcome`, durably; raises `StorageUnavailable`."""
        await self._writes.stream_written(self._row(st, outcome), keep=MAX_STREAM_IDS)

    def record(self, st: OpenStream) -> None:
        """Write `st` as it stands, in the background (a failure is logged)."""
        self._writes.stream_closed(self._row(st, st.outcome), keep=MAX_STREAM_IDS)

    async def load(self, limits: Limits) -> list[OpenStream]:
        """The session's newest closed streams, oldest first, as the listener keeps them."""
        rows = await self._store.call(EventLog.streams_of, self._session.id, MAX_STREAM_IDS)
        return [restored(row, limits) for row in rows]

    def _row(self, st: OpenStream, outcome: Settled | None) -> StreamRow:
        return StreamRow(
            session=self._session.id,
            stream=st.id,
            principal=self._session.principal,
            closed_at_ms=now_ms(),
            state=st.machine.state.value,
            outcome=None if outcome is None else encode_replies([outcome]),
        )


def restored(row: StreamRow, limits: Limits) -> OpenStream:
    """A closed stream as it was before the restart: its state (a chunk or a
    cancel is `stream_closed`, a commit of a committed one is answered with
    its outcome), without audio, detector or tasks."""
    try:
        state = StreamState(row.state)
    except ValueError:
        state = StreamState.FAILED  # a newer build's state: closed, at least
    machine = InputStream(row.stream, limits.max_chunk_bytes, limits.max_utterance_ms, state=state)
    replies = decode_replies(row.outcome) if row.outcome is not None else []
    outcome = next((m for m in replies if isinstance(m, Settled)), None)
    return OpenStream(machine=machine, mode="push_to_talk", vad=None, outcome=outcome)
