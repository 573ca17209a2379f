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
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any, Final

from vac.logs import get_logger
from vac.runtime.store import AsyncEventLog, EventLog, Said, Step, StorageUnavailable
from vac.runtime.tasks import TaskSet

log = get_logger("vac.pipeline")

MAX_QUEUED_SAID: Final = 4096
MAX_SAID_BATCH: Final = 512


class Writes:
    def __init__(self, store: AsyncEventLog) -> None:
        self.store = store
        self._tasks = TaskSet()
        self._said: deque[Said] = deque()
        self._dropped = 0
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
        if not self._flushing:
            self._flushing = True
            self._tasks.spawn(self._flush_said()).add_done_callback(_report_write)

    @property
    def queued_said(self) -> int:
        return len(self._said)

    async def _flush_said(self) -> None:
        try:
            while self._said:
                batch = [self._said.popleft() for _ in range(min(len(self._said), MAX_SAID_BATCH))]
                if self._dropped:
                    log.warning("history_dropped", rows=self._dropped)
                    self._dropped = 0
                try:
                    await self.store.call(EventLog.commit, Step(said=batch))
                except StorageUnavailable as exc:
                    log.warning("storage_write_failed", error=str(exc), rows=len(batch))
        finally:
            self._flushing = False

    async def drain(self, timeout_s: float) -> int:
        """Wait for the writes in flight (bounded); return how many were cut."""
        return await self._tasks.drain(timeout_s)


def _report_write(task: asyncio.Future[Any]) -> None:
    if task.cancelled():
        return
    exc = task.exception()
    if isinstance(exc, StorageUnavailable):
        log.warning("storage_write_failed", error=str(exc))
    elif exc is not None:
        log.error("write_failed", error=repr(exc))
