"""`objective.list` is bounded whatever the history: it reads the newest
`limit + 1` objectives through an index, and a session has at most
`MAX_LISTINGS` being read (one more is `busy`)."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from tests.intent.intent_factories import objective_builtins
from tests.runtime.rigs import text_pipeline
from tests.runtime.test_coordinator import RecordingTransport, new_session
from vac import intent
from vac.clock import wall_now
from vac.protocol.messages import ObjectiveList, ObjectiveListResult
from vac.protocol.objective import Objective
from vac.runtime.listing import MAX_LISTINGS, list_objectives
from vac.runtime.store import AsyncEventLog, EventLog, ObjectiveRow, Step
from vac.runtime.store.errors import VacError

NOW = wall_now()
SETTLED = ("rejected", "withdrawn", "refused", "done")


def objective(oid: str) -> Objective:
    return msgspec.convert(objective_builtins(id=oid), Objective)


def row(n: int, state: str, *, principal: str = "alice", lifetime_s: int = 86_400) -> ObjectiveRow:
    created = NOW - dt.timedelta(hours=2) + dt.timedelta(milliseconds=n)
    entry = intent.DraftEntry(
        principal,
        objective(f"{principal}-{n:05d}"),
        created,
        created + dt.timedelta(seconds=lifetime_s),
        state,  # type: ignore[arg-type]
    )
    return ObjectiveRow(
        objective_id=entry.objective.id,
        principal=principal,
        session="s1",
        revision=1,
        state=state,
        body=msgspec.json.encode(entry),
        created_at_ms=int(entry.created_at.timestamp() * 1000),
        expires_at_ms=int(entry.expires_at.timestamp() * 1000),
        updated_at_ms=1,
    )


class CountingStore:
    """The event log, counting the rows each call hands back."""

    def __init__(self, store: AsyncEventLog) -> None:
        self.store = store
        self.rows = 0

    async def call(self, fn: Any, *args: Any, **kw: Any) -> Any:
        out = await self.store.call(fn, *args, **kw)
        self.rows += len(out)
        return out


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[AsyncEventLog]:
    s = AsyncEventLog(tmp_path / "vac.db")
    yield s
    await s.close()


async def listed(store: Any, **kw: Any) -> tuple[list[str], bool]:
    result = await list_objectives(store, "alice", ObjectiveList(id="l", **kw))
    return [o.id for o in result.objectives], result.more


async def test_a_long_history_is_never_read_whole(store: AsyncEventLog) -> None:
    rows = [row(n, SETTLED[n % 4]) for n in range(3000)]
    rows += [row(3000, "pending"), row(3001, "pending", lifetime_s=1)]  # the last one expired
    rows += [row(n, "rejected", principal="bob") for n in range(3100, 3200)]
    await store.call(EventLog.commit, Step(objectives=rows))
    counting = CountingStore(store)
    ids, more = await listed(counting, limit=5)
    assert ids == [f"alice-{n:05d}" for n in (3001, 3000, 2999, 2998, 2997)] and more
    assert counting.rows == 6
    counting.rows = 0
    assert await listed(counting, state="rejected", limit=3) == (
        ["alice-02996", "alice-02992", "alice-02988"],
        True,
    )
    assert counting.rows == 4
    assert await listed(counting, state="draft") == (["alice-03000"], False)
    assert await listed(counting, state="expired") == (["alice-03001"], False)
    # Drafts past their lifetime the sweep has not written yet: read apart.
    await store.call(
        EventLog.commit,
        Step(objectives=[row(n, "pending", lifetime_s=1) for n in range(4000, 4500)]),
    )
    counting.rows = 0
    assert await listed(counting, state="draft") == (["alice-03000"], False)
    assert counting.rows == 1
    ids, more = await listed(counting, state="expired", limit=3)
    assert ids == ["alice-04499", "alice-04498", "alice-04497"] and more
    assert counting.rows <= 2 * 4
    assert await listed(counting, state="done", limit=50) == (
        [f"alice-{n:05d}" for n in range(2999, 2799, -4)],
        True,
    )


async def test_before_pages_on_through_the_whole_history(store: AsyncEventLog) -> None:
    rows = [row(n, SETTLED[n % 4]) for n in range(120)]
    rows += [row(n, "rejected", principal="bob") for n in range(200, 210)]
    await store.call(EventLog.commit, Step(objectives=rows))
    seen: list[str] = []
    before = None
    while True:
        counting = CountingStore(store)
        ids, more = await listed(counting, limit=50, before=before)
        assert counting.rows <= 2 + 51  # the cursor (a pair) and one page: never the history
        seen += ids
        if not more:
            break
        before = ids[-1]
    assert seen == [f"alice-{n:05d}" for n in range(119, -1, -1)]  # each once, in order
    assert await listed(store, state="done", limit=2, before="alice-00011") == (
        ["alice-00007", "alice-00003"],
        False,
    )
    assert await listed(store, before="alice-00000") == ([], False)
    for cursor in ("bob-00205", "nobody"):  # another's is as unknown as none
        with pytest.raises(VacError) as refused:
            await listed(store, before=cursor)
        assert refused.value.code == "objective_unknown"


def test_the_newest_are_read_through_an_index(tmp_path: Path) -> None:
    log = EventLog(tmp_path / "vac.db")
    try:
        for state, paged in ((None, False), ("rejected", False), (None, True), ("rejected", True)):
            where = "principal=?" + (" AND state=?" if state else "")
            args: tuple[object, ...] = ("alice", state) if state else ("alice",)
            if paged:  # as `before` pages on: a range of the index, not every newer row
                where += " AND (created_at_ms, id) < (?, ?)"
                args += (5, "x")
            plan = log._db.execute(
                "EXPLAIN QUERY PLAN SELECT id FROM objectives"
                f" WHERE {where} ORDER BY created_at_ms DESC, id DESC LIMIT 5",
                args,
            ).fetchall()
            text = " ".join(str(step[-1]) for step in plan)
            assert "TEMP B-TREE" not in text and "newest" in text, text
            assert not paged or "(created_at_ms,id)<" in text, text
    finally:
        log.close()


async def test_a_session_reading_many_listings_is_told_busy(
    store: AsyncEventLog,
) -> None:
    transport = RecordingTransport()
    pipeline = text_pipeline(transport, store)
    session = new_session()
    transport.sessions.append(session)
    gate = asyncio.Event()
    real = store.call

    async def slow(fn: Any, *args: Any, **kw: Any) -> Any:
        if fn is EventLog.newest_objectives:
            await gate.wait()
        return await real(fn, *args, **kw)

    store.call = slow  # type: ignore[method-assign]
    try:
        await pipeline.on_attached(session, resumed=False)
        for n in range(MAX_LISTINGS + 3):
            pipeline.on_message(session, ObjectiveList(id=f"l{n}"), None)
        await asyncio.sleep(0.05)
        busy = [e for e in transport.errors if isinstance(e, VacError)]
        assert [(e.code, e.ref) for e in busy] == [("busy", f"l{n}") for n in range(2, 5)]
        gate.set()
        for _ in range(100):
            if len(transport.of(ObjectiveListResult)) == MAX_LISTINGS:
                break
            await asyncio.sleep(0.01)
        assert [r.ref for r in transport.of(ObjectiveListResult)] == ["l0", "l1"]
        pipeline.on_message(session, ObjectiveList(id="again"), None)  # room again
        for _ in range(100):
            if len(transport.of(ObjectiveListResult)) == MAX_LISTINGS + 1:
                break
            await asyncio.sleep(0.01)
        assert transport.of(ObjectiveListResult)[-1].ref == "again"
    finally:
        store.call = real  # type: ignore[method-assign]
        await pipeline.close()
