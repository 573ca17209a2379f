"""A set of tasks owned by whoever waits for them.

Every background task the runtime starts belongs to one `TaskSet`, held by
the object whose lifetime bounds it (a turn's work by the session's turns, a
write by the pipeline). The owner cancels the set, or drains it with a
bound, when it ends; nothing runs unowned and nothing is forgotten unawaited.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


class TaskSet:
    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    def __len__(self) -> int:
        return len(self._tasks)

    def spawn(self, coro: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
        """Run `coro` as a task of this set; it leaves the set when it ends."""
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def cancel(self) -> None:
        for task in list(self._tasks):
            task.cancel()

    async def wait(self) -> None:
        """Wait, without a bound and cancelling nothing, until every task
        (and any task one starts as it ends) has ended."""
        while self._tasks:
            await asyncio.wait(set(self._tasks))

    async def drain(self, timeout_s: float) -> int:
        """Wait up to `timeout_s` for every task, then cancel what is left.

        Returns how many were cancelled. Never raises what a task raised:
        each task's owner reads its outcome in a done callback.
        """
        loop = asyncio.get_running_loop()
        deadline_s = loop.time() + timeout_s
        # A task may start another as it ends (a held message after a
        # write): wait again until the set is empty or the time is up.
        while self._tasks and (left_s := deadline_s - loop.time()) > 0:
            await asyncio.wait(set(self._tasks), timeout=left_s)
        late = set(self._tasks)
        for task in late:
            task.cancel()
        if late:
            await asyncio.wait(late)
        return len(late)
