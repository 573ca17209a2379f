"""A report never lands before the answer it follows (PROTOCOL §9).

White-box: the window in which an answer is being written is held open here;
over sockets (tests/daemon/test_agents.py) the same rules run end to end."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from tests.runtime.rigs import bound_session, text_pipeline
from tests.runtime.test_coordinator import RecordingTransport
from vac.protocol.messages import (
    ObjectiveAnswer,
    ObjectiveConfirm,
    ObjectiveDraft,
    ObjectiveOffer,
    ObjectiveProgress,
    ObjectiveUpdated,
    TextInput,
)
from vac.runtime.pipeline import Pipeline
from vac.runtime.session import Session
from vac.runtime.store import AsyncEventLog


async def until(cond: object, what: str) -> None:
    for _ in range(2000):  # 10 s: several fsync'd writes on a loaded machine
        if cond():  # type: ignore[operator]
            return
        await asyncio.sleep(0.005)
    raise AssertionError(what)


@asynccontextmanager
async def offered(
    tmp_path: Path, *, offer_timeout_ms: int
) -> AsyncIterator[tuple[Pipeline, RecordingTransport, Session, str]]:
    """alice confirmed a draft for Kofi, whose session has the offer open."""
    store = AsyncEventLog(tmp_path / "vac.db")
    transport = RecordingTransport()
    pipeline = text_pipeline(transport, store, offer_timeout_ms=offer_timeout_ms)
    alice, kofi = bound_session("a", "alice"), bound_session("k", "kofi", "Kofi")
    transport.sessions += [alice, kofi]
    try:
        for s in (alice, kofi):
            await pipeline.on_attached(s, resumed=False)
        pipeline.on_message(alice, TextInput(id="t1", text="ask Kofi to build a bench"), None)
        await until(lambda: transport.of(ObjectiveDraft), "no draft")
        oid = transport.of(ObjectiveDraft)[0].objective.id
        pipeline.on_message(alice, ObjectiveConfirm(id="c1", objective_id=oid), None)
        await until(lambda: transport.of(ObjectiveOffer), "no offer")
        yield pipeline, transport, kofi, oid
    finally:
        await pipeline.close()
        await store.close()


async def test_a_report_right_behind_its_answer_waits_for_it_from_any_session(
    tmp_path: Path,
) -> None:
    async with offered(tmp_path, offer_timeout_ms=5000) as (pipeline, transport, kofi, oid):
        done = ObjectiveProgress(id="p1", objective_id=oid, state="done", note="")
        pipeline.on_message(kofi, done, None)  # not answered yet: it does not apply
        (early,) = transport.errors
        assert early.code == "objective_invalid" and early.details == {"status": "offered"}
        offer = transport.of(ObjectiveOffer)[0].offer
        answer = ObjectiveAnswer(
            id="a1", offer=offer, decision="accept", reply="ok", reason="", evidence=[]
        )
        pipeline.on_message(kofi, answer, None)
        # Another session of Kofi's, before that answer is written: it waits
        # for the answer too (each was `busy`: a probe).
        phone = bound_session("k2", "kofi", "Kofi")
        transport.sessions.append(phone)
        await pipeline.on_attached(phone, resumed=False)
        aside = ObjectiveProgress(id="q1", objective_id=oid, state="in-progress", note="")
        pipeline.on_message(phone, aside, None)
        # Right behind its answer on the answering session: the same.
        started = ObjectiveProgress(id="p2", objective_id=oid, state="blocked", note="rain")
        pipeline.on_message(kofi, started, None)
        assert pipeline.book.get("alice", oid).state == "offered"

        def acked() -> list[str | None]:
            return [m.ref for m in transport.of(ObjectiveUpdated) if m.ref in ("a1", "q1", "p2")]

        await until(lambda: len(acked()) == 3, "no report acknowledged")
        assert acked() == ["a1", "q1", "p2"]  # the answer first, then in the order sent
        assert [e.code for e in transport.errors] == ["objective_invalid"]
        pipeline.on_message(
            kofi, ObjectiveProgress(id="p4", objective_id=oid, state="done", note=""), None
        )
        await until(lambda: pipeline.book.get("alice", oid).state == "done", "no report")


async def test_an_answer_not_written_keeps_the_offer_open_for_its_retry(tmp_path: Path) -> None:
    """The agent is told `provider_unavailable` (retryable): the same answer
    sent again lands, and the policy never answers in its place."""
    from typing import Any

    from vac.runtime.store import StorageUnavailable

    async with offered(tmp_path, offer_timeout_ms=5000) as (pipeline, transport, kofi, oid):
        write = pipeline.commit

        async def full_disk(step: Any) -> None:
            raise StorageUnavailable("disk full (test)")

        pipeline.commit = full_disk  # type: ignore[method-assign]
        offer = transport.of(ObjectiveOffer)[0].offer
        answer = ObjectiveAnswer(
            id="a1", offer=offer, decision="refuse", reply="not now", reason="", evidence=[]
        )
        pipeline.on_message(kofi, answer, None)
        await until(lambda: transport.errors, "no error")
        (err,) = transport.errors
        assert (err.code, err.ref, err.retryable) == ("provider_unavailable", "a1", True)
        assert pipeline.book.get("alice", oid).state == "offered"
        pipeline.commit = write  # type: ignore[method-assign]
        pipeline.on_message(kofi, answer, None)  # the same id, once the disk has room
        refused = lambda: [  # noqa: E731
            u.by for u in transport.of(ObjectiveUpdated) if u.objective.status == "refused"
        ]
        await until(refused, "not refused")
        assert set(refused()) == {"agent"} and len(transport.errors) == 1
        assert "policy" not in {u.by for u in transport.of(ObjectiveUpdated)}


async def test_a_disk_that_stays_full_does_not_hold_the_turn_open(tmp_path: Path) -> None:
    """After MAX_REOPENS retries that could not be written either, the policy
    answers (its write lands once there is room), so the steward's turn ends."""
    from typing import Any

    from vac.runtime.offers import MAX_REOPENS
    from vac.runtime.store import StorageUnavailable

    async with offered(tmp_path, offer_timeout_ms=60_000) as (pipeline, transport, kofi, oid):
        write = pipeline.commit

        async def full_for_the_agent(step: Any) -> None:
            if step.outcome is not None:  # the agent's answer (the policy's has none)
                raise StorageUnavailable("disk full (test)")
            await write(step)

        pipeline.commit = full_for_the_agent  # type: ignore[method-assign]
        offer = transport.of(ObjectiveOffer)[0].offer
        answer = ObjectiveAnswer(
            id="a1", offer=offer, decision="refuse", reply="not now", reason="", evidence=[]
        )
        for n in range(1, MAX_REOPENS + 2):  # the agent retries each retryable error
            pipeline.on_message(kofi, answer, None)
            await until(lambda n=n: len(transport.errors) >= n, "no error")  # type: ignore[misc]
        assert all(e.code == "provider_unavailable" for e in transport.errors)
        policy = lambda: {u.by for u in transport.of(ObjectiveUpdated)} >= {"policy"}  # noqa: E731
        await until(policy, "the policy never answered")
        assert pipeline.book.get("alice", oid).state != "offered"
