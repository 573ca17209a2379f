"""Conversation rows are written in batches, one batch on the store's thread
at a time, from a bounded queue: a flood of them on a slow disk never
queues writes without end ahead of the decisions."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from vac.runtime.store import AsyncEventLog, EventLog, Step
from vac.runtime.writes import MAX_QUEUED_SAID, Writes


class SlowStore:
    """The event log on a disk where each transaction takes a while, and
    how many calls were waiting for its thread at most."""

    def __init__(self, store: AsyncEventLog, delay_s: float) -> None:
        self.store = store
        self.delay_s = delay_s
        self.waiting = 0
        self.most_waiting = 0
        self.transactions = 0
        self.lock = threading.Lock()

    async def call(self, fn: Any, *args: Any) -> Any:
        self.waiting += 1
        self.most_waiting = max(self.most_waiting, self.waiting)
        try:

            def slow(log: EventLog, *a: Any) -> Any:
                with self.lock:
                    self.transactions += 1
                threading.Event().wait(self.delay_s)
                return fn(log, *a)

            return await self.store.call(slow, *args)
        finally:
            self.waiting -= 1


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[AsyncEventLog]:
    s = AsyncEventLog(tmp_path / "vac.db")
    yield s
    await s.close()


def said(writes: Writes, n: int) -> None:
    writes.said("s1", "alice", f"t{n}", "user", "said", f"words {n}", n)


async def test_many_rows_are_a_few_transactions_in_order(store: AsyncEventLog) -> None:
    slow = SlowStore(store, 0.01)
    writes = Writes(slow)  # type: ignore[arg-type]
    for n in range(1000):
        said(writes, n)
        if n % 100 == 0:
            await asyncio.sleep(0)
    await writes.drain(10)
    rows = await store.call(EventLog.conversation_of, "s1")
    assert [r["text"] for r in rows] == [f"words {n}" for n in range(1000)]
    assert slow.transactions <= 20 and slow.most_waiting == 1


async def test_a_decision_waits_behind_one_batch_at_most(store: AsyncEventLog) -> None:
    slow = SlowStore(store, 0.02)
    writes = Writes(slow)  # type: ignore[arg-type]
    for n in range(300):
        said(writes, n)
        await asyncio.sleep(0)
    loop = asyncio.get_running_loop()
    start = loop.time()
    await slow.call(EventLog.commit, Step())  # a decision
    assert loop.time() - start < 0.2  # was 300 transactions of 20 ms ahead of it
    await writes.drain(10)


async def test_a_stalled_disk_drops_the_oldest_history_never_grows(
    store: AsyncEventLog,
) -> None:
    gate = asyncio.Event()

    class Stalled:
        async def call(self, fn: Any, *args: Any) -> Any:
            await gate.wait()
            return await store.call(fn, *args)

    writes = Writes(Stalled())  # type: ignore[arg-type]
    for n in range(MAX_QUEUED_SAID + 600):
        said(writes, n)
    await asyncio.sleep(0)
    assert writes.queued_said <= MAX_QUEUED_SAID
    gate.set()
    await writes.drain(10)
    rows = await store.call(EventLog.conversation_of, "s1")
    assert rows[-1]["text"] == f"words {MAX_QUEUED_SAID + 599}"
    assert len(rows) <= MAX_QUEUED_SAID + 512
