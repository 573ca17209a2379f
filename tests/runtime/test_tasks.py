"""TaskSet: background work owned by whoever waits for it."""

from __future__ import annotations

import asyncio

from vac.runtime.tasks import TaskSet


async def test_a_finished_task_leaves_the_set() -> None:
    tasks = TaskSet()
    task = tasks.spawn(asyncio.sleep(0))
    assert len(tasks) == 1
    await task
    await asyncio.sleep(0)  # done callbacks run on the next turn of the loop
    assert len(tasks) == 0


async def test_cancel_stops_every_task() -> None:
    tasks = TaskSet()
    spawned = [tasks.spawn(asyncio.sleep(10)) for _ in range(3)]
    tasks.cancel()
    await asyncio.wait(spawned)
    assert all(t.cancelled() for t in spawned)
    assert len(tasks) == 0


async def test_drain_waits_within_its_bound_then_cancels_the_rest() -> None:
    tasks = TaskSet()
    quick = tasks.spawn(asyncio.sleep(0.01))
    stuck = tasks.spawn(asyncio.sleep(10))
    assert await tasks.drain(0.1) == 1
    assert quick.done() and not quick.cancelled()
    assert stuck.cancelled()
    assert await tasks.drain(0.1) == 0


async def test_drain_and_wait_follow_tasks_started_as_others_end() -> None:
    tasks = TaskSet()
    order: list[str] = []

    async def second() -> None:
        await asyncio.sleep(0.01)
        order.append("second")

    async def first() -> None:
        await asyncio.sleep(0.01)
        order.append("first")
        tasks.spawn(second())  # like a held message run after a write

    tasks.spawn(first())
    await tasks.wait()
    assert order == ["first", "second"]
    tasks.spawn(first())
    assert await tasks.drain(1.0) == 0
    assert order == ["first", "second", "first", "second"]
