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


class Stalled:
    """A store whose every write waits until `gate` is set (a disk that stalls)."""

    def __init__(self, store: AsyncEventLog, gate: asyncio.Event) -> None:
        self._store, self._gate = store, gate

    async def call(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        await self._gate.wait()
        return await self._store.call(fn, *args, **kwargs)


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

    writes = Writes(Stalled(store, gate))  # type: ignore[arg-type]
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


async def test_silent_streams_committed_in_a_flood_never_queue_writes(
    store: AsyncEventLog,
) -> None:
    """A silent stream's `no_speech` is written before it is told; started and
    committed at the message rate (a commit costs no token), each was its own
    fsync'd transaction on the store's thread, all of them queued at once."""
    from tests.runtime.test_listener_records import listener_on, start
    from vac.protocol.messages import AudioInputCommit, AudioInputDone

    slow = Slow(store, 0.01)
    session = new_session()
    records = StreamRecords(slow, Writes(slow), session)  # type: ignore[arg-type]
    wire, listener, _ = listener_on(records)
    for n in range(200):
        start(listener, f"s{n}", f"a-s{n}")
        listener.commit(AudioInputCommit(id=f"c{n}", stream=f"s{n}", last_seq=-1))
        if n % 40 == 0:
            await asyncio.sleep(0)
    loop = asyncio.get_running_loop()
    start = loop.time()
    await slow.call(EventLog.commit, Step())  # another principal's decision
    assert loop.time() - start < 0.3  # was 200 transactions of 10 ms ahead of it
    for _ in range(500):
        if len(wire.of(AudioInputDone)) == 200:
            break
        await asyncio.sleep(0.01)
    assert [d.reason for d in wire.of(AudioInputDone)] == ["no_speech"] * 200
    rows = await store.call(EventLog.streams_of, session.id, 1024)
    assert len(rows) == 200 and all(r.outcome for r in rows)  # each durable before told


async def test_a_queue_full_of_awaited_writes_refuses_one_more(store: AsyncEventLog) -> None:
    from vac.runtime.store import StorageUnavailable, StreamRow

    gate = asyncio.Event()

    writes = Writes(Stalled(store, gate))  # type: ignore[arg-type]

    def row(n: int) -> StreamRow:
        return StreamRow(
            session="x", stream=f"s{n}", principal="p", closed_at_ms=n, state="committed"
        )

    waiting = [
        asyncio.ensure_future(writes.stream_written(row(n), keep=8))
        for n in range(MAX_QUEUED_STREAMS + 1)
    ]
    await asyncio.sleep(0)
    with pytest.raises(StorageUnavailable):
        await waiting[-1]  # refused, never queued without end
    assert writes.queued_streams <= MAX_QUEUED_STREAMS
    gate.set()
    await asyncio.gather(*waiting[:-1])  # every other one written
    await writes.drain(10)


class Broken:
    """A store whose first call fails with what it never should (a bug)."""

    def __init__(self) -> None:
        self.calls = 0

    async def call(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        await asyncio.sleep(0)
        if self.calls == 1:
            raise RuntimeError("a bug")


async def test_an_awaited_stream_write_is_answered_when_the_batch_before_it_fails() -> None:
    # A conversation batch that fails unexpectedly ended the flusher: a
    # stream's outcome queued behind it waited (and its repeated commits
    # with it) until some other write started the flusher again.
    from vac.runtime.store import StreamRow

    writes = Writes(Broken())  # type: ignore[arg-type]
    writes.said("s-1", "p", None, "user", "text", "hi", 0)
    row = StreamRow(session="s-1", stream="a", principal="p", closed_at_ms=0, state="committed")
    await asyncio.wait_for(writes.stream_written(row, keep=64), 1.0)
    assert writes.queued_streams == 0
