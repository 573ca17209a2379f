"""Writes nobody is told about: conversation text, last seen, expiry.

The pipeline owns them and drains them before the event log closes. The
store's single thread keeps their order (a task starts, and so submits its
write, in the order it was made). A failure is logged once per write, in
one line: it loses only history, never a decision.

Conversation rows (`said`) are the many: one or two per turn, and one per
household message. They wait in a bounded queue and are written together,
in order, in one transaction each time the last batch has landed: one of
them is on the store's thread at a time, so a decision never waits behind
more than one batch. One transaction (one fsync) each let a steward's
callouts (300 a second, inside the message rate) on a disk whose fsync
takes 10 ms queue writes without end, ahead of every decision: the
daemon grew ~1 MiB a second and another principal's draft took seconds.
Past `MAX_QUEUED_SAID` rows waiting (a disk that stalls), the oldest are
dropped, counted and logged: history, never a decision.

Closed input streams that told nobody anything (cancelled, failed:
`stream_records.py`) wait the same way, in a queue of their own, written
by the same one batch at a time: a client starting and cancelling streams
at its message rate (a start costs a token, a cancel none) wrote one
fsync'd transaction each, queued without end ahead of every decision. Past
`MAX_QUEUED_STREAMS` the oldest are dropped, counted and logged (their ids
then count as unused after a restart, as after a `kill -9`).
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any, Final

from vac.logs import get_logger
from vac.runtime.store import (
    AsyncEventLog,
    EventLog,
    Said,
    Step,
    StorageUnavailable,
    StreamRow,
)
from vac.runtime.tasks import TaskSet

log = get_logger("vac.pipeline")

MAX_QUEUED_SAID: Final = 4096
MAX_SAID_BATCH: Final = 512
MAX_QUEUED_STREAMS: Final = 4096
MAX_STREAMS_BATCH: Final = 512


class Writes:
    def __init__(self, store: AsyncEventLog) -> None:
        self.store = store
        self._tasks = TaskSet()
        self._said: deque[Said] = deque()
        self._dropped = 0
        # (row, keep, what its writer awaits: None in the background)
        self._streams: deque[tuple[StreamRow, int, asyncio.Future[None] | None]] = deque()
        self._streams_dropped = 0
        self._flushing = False

    def persist(self, fn: Any, *args: Any, **kwargs: Any) -> None:
        """Fire one write of `fn(EventLog, *args, **kwargs)`; never raises."""
        task = self._tasks.spawn(self.store.call(fn, *args, **kwargs))
        task.add_done_callback(_report_write)

    def said(
        self,
        session: str,
        principal: str,
        turn: str | None,
        role: str,
        kind: str,
        text: str,
        at_ms: int,
    ) -> None:
        """A conversation row (as `EventLog.said`), written with those
        waiting, in order; never raises."""
        row = Said(
            session=session,
            principal=principal,
            turn=turn,
            role=role,
            kind=kind,
            text=text,
            at_ms=at_ms,
        )
        self._said.append(row)
        if len(self._said) > MAX_QUEUED_SAID:
            self._said.popleft()
            self._dropped += 1
        self._flush_soon()

    def stream_closed(self, row: StreamRow, *, keep: int) -> None:
        """A closed input stream (as `EventLog.stream_closed`), written with
        those waiting, in order; never raises."""
        self._queue_stream(row, keep, None)

    async def stream_written(self, row: StreamRow, *, keep: int) -> None:
        """`stream_closed`, awaited: returns once the row is durable (written
        in the batch it waited for, one transaction for all of them: a flood
        of silent streams is a few transactions, not one each). Raises
        `StorageUnavailable` when it was not written, or when the queue is
        full of such writes (the disk does not keep up)."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue_stream(row, keep, done)
        await done

    def _queue_stream(self, row: StreamRow, keep: int, done: asyncio.Future[None] | None) -> None:
        self._streams.append((row, keep, done))
        if len(self._streams) > MAX_QUEUED_STREAMS:
            # The oldest written in the background makes room; one awaited never
            # is dropped: the newest is refused instead.
            at = next((k for k, (_, _, d) in enumerate(self._streams) if d is None), None)
            if at is None:
                self._streams.pop()
                _fail(done, StorageUnavailable("the event log is behind: streams wait"))
            else:
                del self._streams[at]
                self._streams_dropped += 1
        self._flush_soon()

    @property
    def queued_said(self) -> int:
        return len(self._said)

    @property
    def queued_streams(self) -> int:
        return len(self._streams)

    def _flush_soon(self) -> None:
        if not self._flushing:
            self._flushing = True
            self._tasks.spawn(self._flush()).add_done_callback(_report_write)

    async def _flush(self) -> None:
        """One batch on the store's thread at a time, until both queues are empty."""
        try:
            while self._said or self._streams:
                if self._said:
                    await self._flush_said()
                if self._streams:
                    await self._flush_streams()
        except BaseException as exc:
            # Cut (shutdown), or a bug: a stream's outcome still queued is
            # never left awaited (its repeated commits would wait with it).
            for _, _, done in self._streams:
                if isinstance(exc, asyncio.CancelledError) and done is not None:
                    done.cancel()
                _fail(done, StorageUnavailable("the event log could not be written"))
            self._streams = deque(s for s in self._streams if s[2] is None)
            raise
        finally:
            self._flushing = False

    async def _flush_said(self) -> None:
        batch = [self._said.popleft() for _ in range(min(len(self._said), MAX_SAID_BATCH))]
        if self._dropped:
            log.warning("history_dropped", rows=self._dropped)
            self._dropped = 0
        try:
            await self.store.call(EventLog.commit, Step(said=batch))
        except StorageUnavailable as exc:
            log.warning("storage_write_failed", error=str(exc), rows=len(batch))
        except Exception as exc:  # a bug: history lost, the streams behind still written
            log.error("write_failed", error=repr(exc), rows=len(batch))

    async def _flush_streams(self) -> None:
        n = min(len(self._streams), MAX_STREAMS_BATCH)
        batch = [self._streams.popleft() for _ in range(n)]
        if self._streams_dropped:
            log.warning("stream_records_dropped", rows=self._streams_dropped)
            self._streams_dropped = 0
        rows, keep = [row for row, _, _ in batch], min(k for _, k, _ in batch)
        try:
            await self.store.call(EventLog.streams_closed, rows, keep=keep)
        except StorageUnavailable as exc:
            log.warning("storage_write_failed", error=str(exc), rows=len(batch))
            for _, _, done in batch:
                _fail(done, StorageUnavailable(str(exc)))
        except BaseException:
            for _, _, done in batch:  # cut (shutdown), or a bug: not written
                if done is not None and not done.done():
                    done.cancel()
            raise
        else:
            for _, _, done in batch:
                if done is not None and not done.done():
                    done.set_result(None)

    async def drain(self, timeout_s: float) -> int:
        """Wait for the writes in flight (bounded); return how many were cut."""
        return await self._tasks.drain(timeout_s)


def _fail(done: asyncio.Future[None] | None, exc: StorageUnavailable) -> None:
    if done is not None and not done.done():
        done.set_exception(exc)


def _report_write(task: asyncio.Future[Any]) -> None:
    if task.cancelled():
        return
    exc = task.exception()
    if isinstance(exc, StorageUnavailable):
        log.warning("storage_write_failed", error=str(exc))
    elif exc is not None:
        log.error("write_failed", error=repr(exc))
