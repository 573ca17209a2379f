"""SttPool with real worker processes and fake engines (tests.speech.fakes)."""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import AsyncIterator

import pytest

from tests.speech.fakes import EXIT, HANG, KILL, LOST, failing_factory, fake_factory
from vac.speech.stt import SttConfig, SttModelMissing, WhisperStt
from vac.speech.workers import Busy, ProviderUnavailable, SttPool, SttPoolConfig, Superseded

pytestmark = pytest.mark.slow

PCM = b"\x01\x00" * 1600  # 100 ms


@pytest.fixture
async def pool() -> AsyncIterator[SttPool]:
    p = SttPool(fake_factory(0.3), SttPoolConfig(workers=1, max_pending=3, job_timeout_s=3))
    await p.start()
    try:
        yield p
    finally:
        await p.close()


async def _occupy(pool: SttPool) -> asyncio.Task[object]:
    """Put one long job in flight so later submissions have to wait."""
    task = asyncio.create_task(pool.transcribe(PCM, kind="final", key="busy"))
    while pool.pending:  # until the worker took it
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.05)
    return task


async def test_transcribes_in_a_worker(pool: SttPool) -> None:
    result = await pool.transcribe(PCM * 2, kind="final", key="s1")
    assert result.text == "final 3200"
    assert pool.warmup_ms and pool.alive == 1


async def test_final_is_served_before_waiting_partials(pool: SttPool) -> None:
    busy = await _occupy(pool)
    done: list[str] = []

    async def submit(kind: str, key: str) -> None:
        await pool.transcribe(PCM, kind=kind, key=key)  # type: ignore[arg-type]
        done.append(f"{kind}:{key}")

    async with asyncio.TaskGroup() as tg:
        tg.create_task(submit("partial", "a"))
        await asyncio.sleep(0.01)
        tg.create_task(submit("partial", "b"))
        await asyncio.sleep(0.01)
        tg.create_task(submit("final", "c"))
    await busy
    assert done == ["final:c", "partial:a", "partial:b"]


async def test_a_speculative_final_waits_like_a_partial_but_decodes_completely(
    pool: SttPool,
) -> None:
    # The engine hears `final` as "decode completely" (fakes.FakeStt says which).
    assert (await pool.transcribe(PCM, kind="partial", key="p")).text == "partial 1600"
    spec = await pool.transcribe(PCM, kind="partial", key="p", complete=True)
    assert spec.text == "final 1600"


async def test_a_reply_expected_reaches_the_engine_with_its_job(pool: SttPool) -> None:
    # One draft pending: the engine may score a short final against the replies.
    got = await pool.transcribe(PCM, kind="final", key="r", reply_expected=True)
    assert got.text == "reply-final 1600"
    spec = await pool.transcribe(PCM, kind="partial", key="r", complete=True, reply_expected=True)
    assert spec.text == "reply-final 1600"
    assert (await pool.transcribe(PCM, kind="final", key="r")).text == "final 1600"


async def test_newer_partial_and_final_supersede_pending_partial(pool: SttPool) -> None:
    busy = await _occupy(pool)
    first = asyncio.create_task(pool.transcribe(PCM, kind="partial", key="s"))
    await asyncio.sleep(0.01)
    second = asyncio.create_task(pool.transcribe(PCM * 2, kind="partial", key="s"))
    await asyncio.sleep(0.01)
    assert pool.pending == 1
    with pytest.raises(Superseded):
        await first
    final = asyncio.create_task(pool.transcribe(PCM * 3, kind="final", key="s"))
    with pytest.raises(Superseded):
        await second
    assert (await final).text == "final 4800"
    await busy


async def test_busy_when_saturated_and_final_evicts_a_partial(pool: SttPool) -> None:
    busy = await _occupy(pool)
    waiting = [
        asyncio.create_task(pool.transcribe(PCM, kind="partial", key=f"p{i}")) for i in range(3)
    ]
    await asyncio.sleep(0.01)
    started = time.perf_counter()
    with pytest.raises(Busy):
        await pool.transcribe(PCM, kind="partial", key="late")
    assert time.perf_counter() - started < 0.05  # refused at once, never queued
    final = asyncio.create_task(pool.transcribe(PCM, kind="final", key="f"))
    with pytest.raises(Superseded):
        await waiting[0]  # the oldest partial made room for the final
    assert (await final).text == "final 1600"
    await asyncio.gather(*waiting[1:], busy)
    # Only finals waiting: a final finds no partial to evict and is refused.
    busy = await _occupy(pool)
    finals = [
        asyncio.create_task(pool.transcribe(PCM, kind="final", key=f"f{i}")) for i in range(3)
    ]
    await asyncio.sleep(0.01)
    with pytest.raises(Busy):
        await pool.transcribe(PCM, kind="final", key="f3")
    await asyncio.gather(*finals, busy)


async def test_cancel_drops_waiting_and_in_flight_work(pool: SttPool) -> None:
    running = await _occupy(pool)
    waiting = asyncio.create_task(pool.transcribe(PCM, kind="final", key="busy"))
    other = asyncio.create_task(pool.transcribe(PCM, kind="partial", key="other"))
    await asyncio.sleep(0.01)
    pool.cancel("busy")
    for task in (running, waiting):
        with pytest.raises(Superseded):
            await task
    assert (await other).text == "partial 1600"


# LOST: the engine lost its cluster; the worker exits on purpose and is replaced.
@pytest.mark.parametrize("marker", [KILL, EXIT, LOST])
async def test_worker_crash_fails_only_its_job_and_is_restarted(
    pool: SttPool, marker: bytes
) -> None:
    crash = asyncio.create_task(pool.transcribe(marker + PCM, kind="final", key="x"))
    await asyncio.sleep(0.05)
    queued = asyncio.create_task(pool.transcribe(PCM, kind="final", key="y"))
    with pytest.raises(ProviderUnavailable):
        await crash
    # The job that was waiting survives the crash and runs on the new worker.
    assert (await asyncio.wait_for(queued, 60)).text == "final 1600"
    assert (await pool.transcribe(PCM, kind="partial", key="x")).text == "partial 1600"
    assert pool.alive == 1


async def test_hung_worker_is_killed_after_job_timeout() -> None:
    pool = SttPool(fake_factory(), SttPoolConfig(job_timeout_s=1.0))
    await pool.start()
    try:
        started = time.perf_counter()
        with pytest.raises(ProviderUnavailable):
            await pool.transcribe(HANG + PCM, kind="final", key="h")
        assert time.perf_counter() - started < 5
        assert (await pool.transcribe(PCM, kind="final", key="h")).text == "final 1600"
    finally:
        await pool.close()


async def test_missing_model_is_a_named_refusal_at_start(tmp_path: object) -> None:
    factory = functools.partial(WhisperStt, SttConfig(model_dir="/nonexistent/tiny.en"))
    pool = SttPool(factory)
    with pytest.raises(SttModelMissing) as info:
        await pool.start()
    assert str(info.value.path) == "/nonexistent/tiny.en"
    with pytest.raises(ProviderUnavailable):
        await pool.transcribe(PCM, kind="final", key="k")


async def test_engine_load_failure_is_provider_unavailable() -> None:
    pool = SttPool(failing_factory)
    with pytest.raises(ProviderUnavailable, match="exploded"):
        await pool.start()


async def test_close_fails_waiting_jobs(pool: SttPool) -> None:
    busy = await _occupy(pool)
    waiting = asyncio.create_task(pool.transcribe(PCM, kind="final", key="w"))
    await asyncio.sleep(0.01)
    await pool.close()
    for task in (busy, waiting):
        with pytest.raises(ProviderUnavailable):
            await task
    with pytest.raises(ProviderUnavailable):
        await pool.transcribe(PCM, kind="final", key="w")
