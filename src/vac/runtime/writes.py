"""Writes nobody is told about: conversation text, last seen, expiry.

The pipeline owns them and drains them before the event log closes. The
store's single thread keeps their order (a task starts, and so submits its
write, in the order it was made). A failure is logged once per write, in
one line: it loses only history, never a decision.
"""

from __future__ import annotations

import asyncio
from typing import Any

from vac.logs import get_logger
from vac.runtime.store import AsyncEventLog, StorageUnavailable
from vac.runtime.tasks import TaskSet

log = get_logger("vac.pipeline")


class Writes:
    def __init__(self, store: AsyncEventLog) -> None:
        self.store = store
        self._tasks = TaskSet()

    def persist(self, fn: Any, *args: Any, **kwargs: Any) -> None:
        """Fire one write of `fn(EventLog, *args, **kwargs)`; never raises."""
        task = self._tasks.spawn(self.store.call(fn, *args, **kwargs))
        task.add_done_callback(_report_write)

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
