"""Closed streams written in the background (cancelled, failed) are queued
and written in batches like conversation rows: a client starting and
cancelling streams at its message rate (`audio.input.start` costs a token,
`audio.input.cancel` none; 400 a second by default) on a disk with slow
fsyncs never queues one transaction per stream ahead of everyone's
decisions, nor grows the daemon."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.runtime.test_coordinator import new_session
from tests.runtime.test_writes import SlowStore
from vac.protocol.streams import InputStream, StreamState
from vac.runtime.open_stream import OpenStream
from vac.runtime.store import AsyncEventLog, EventLog, Step
from vac.runtime.stream_records import StreamRecords
from vac.runtime.writes import MAX_QUEUED_STREAMS, Writes


class Slow(SlowStore):
    async def call(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        if kwargs:
            return await super().call(lambda log, *a: fn(log, *a, **kwargs), *args)
        return await super().call(fn, *args)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[AsyncEventLog]:
    s = AsyncEventLog(tmp_path / "vac.db")
    yield s
    await s.close()


def cancelled(n: int) -> OpenStream:
    machine = InputStream(f"s{n}", 6400, 30_000, state=StreamState.CANCELLED)
    return OpenStream(machine=machine, mode="push_to_talk", vad=None)


async def test_a_flood_of_cancelled_streams_is_a_few_transactions(store: AsyncEventLog) -> None:
    slow = Slow(store, 0.01)
    writes = Writes(slow)  # type: ignore[arg-type]
    session = new_session()
    records = StreamRecords(store, writes, session)
    for n in range(400):  # one second of starts and cancels
        records.record(cancelled(n))
        if n % 40 == 0:
            await asyncio.sleep(0)
    loop = asyncio.get_running_loop()
    start = loop.time()
    await slow.call(EventLog.commit, Step())  # another principal's decision
    assert loop.time() - start < 0.2  # was 400 transactions of 10 ms ahead of it
    await writes.drain(10)
    rows = await store.call(EventLog.streams_of, session.id, 1024)
    assert [r.stream for r in rows] == [f"s{n}" for n in range(400)]
    assert slow.transactions <= 20


async def test_a_stalled_disk_keeps_the_newest_closed_streams(store: AsyncEventLog) -> None:
    gate = asyncio.Event()

    class Stalled:
        async def call(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
            await gate.wait()
            return await store.call(fn, *args, **kwargs)

    writes = Writes(Stalled())  # type: ignore[arg-type]
    session = new_session()
    records = StreamRecords(store, writes, session)
    for n in range(MAX_QUEUED_STREAMS + 300):
        records.record(cancelled(n))
    await asyncio.sleep(0)
    assert writes.queued_streams <= MAX_QUEUED_STREAMS
    gate.set()
    await writes.drain(10)
    rows = await store.call(EventLog.streams_of, session.id, 100_000)
    assert rows[-1].stream == f"s{MAX_QUEUED_STREAMS + 299}"
