"""Expiry (PROTOCOL §9): written, then pushed as `objective.updated {by: daemon}`.
Its real twin over sockets is in tests/daemon/test_agents.py."""

from __future__ import annotations

import asyncio
import datetime as dt
from pathlib import Path

from tests.runtime.rigs import text_pipeline
from tests.runtime.test_coordinator import RecordingTransport, new_session
from vac.clock import wall_now
from vac.protocol.messages import ObjectiveDraft, ObjectiveUpdated, TextInput
from vac.runtime.store import AsyncEventLog, EventLog, StorageUnavailable


async def test_an_expired_draft_is_written_then_pushed_and_a_failed_write_undone(
    tmp_path: Path,
) -> None:
    store = AsyncEventLog(tmp_path / "vac.db")
    transport = RecordingTransport()
    pipeline = text_pipeline(transport, store)
    session = new_session()
    transport.sessions.append(session)
    try:
        await pipeline.on_attached(session, resumed=False)
        pipeline.on_message(session, TextInput(id="t1", text="ask Kofi to build a bench"), None)
        for _ in range(200):
            if transport.of(ObjectiveDraft) and not pipeline.coordinators[session.id].writing:
                break
            await asyncio.sleep(0.005)
        oid = transport.of(ObjectiveDraft)[0].objective.id
        later = wall_now() + dt.timedelta(days=2)

        async def failing(step: object) -> None:
            raise StorageUnavailable("disk full")

        real = pipeline.commit
        pipeline.commit = failing  # type: ignore[method-assign,assignment]
        assert await pipeline.expire_due(later) == 0
        assert pipeline.book.get("alice", oid).state == "pending"  # undone
        assert not transport.of(ObjectiveUpdated)
        pipeline.commit = real  # type: ignore[method-assign]
        assert await pipeline.expire_due(later) == 1
        (pushed,) = transport.of(ObjectiveUpdated)
        assert (pushed.by, pushed.objective.status, pushed.ref) == ("daemon", "expired", None)
        rows = await store.call(EventLog.objectives_of, "alice")
        assert [r["state"] for r in rows if r["id"] == oid] == ["expired"]
    finally:
        await pipeline.close()
        await store.close()
