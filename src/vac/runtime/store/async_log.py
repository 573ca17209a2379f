"""`AsyncEventLog`: the synchronous `EventLog`, run off the event loop."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from vac.runtime.store.log import EventLog

T = TypeVar("T")


class AsyncEventLog:
    """Runs every `EventLog` call on one dedicated thread, off the event loop.

    One thread keeps SQLite's single-writer rule trivially true and keeps the
    order of writes equal to the order of calls.
    """

    def __init__(self, path: Path) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="vac-db")
        try:
            # .result() re-raises the worker's exception itself: a StoreError
            # reaches the caller as a StoreError.
            self._log: EventLog = self._pool.submit(EventLog, path).result()
        except BaseException:
            self._pool.shutdown(wait=True)  # idle by now: the open has failed
            raise

    async def call(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, lambda: fn(self._log, *args, **kwargs))

    async def close(self) -> None:
        await self.call(EventLog.close)
        self._pool.shutdown(wait=True)
