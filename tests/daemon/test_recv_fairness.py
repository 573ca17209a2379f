"""The receive loop lets other tasks run while messages keep coming (an
adversarial probe: a client flooding past its rate held the loop, and another
principal's turn waited seconds for its write and its reply)."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace
from typing import Any

import pytest

import vac.daemon.server as server_module
from vac.daemon.server import Server
from vac.daemon.wire import RECV_YIELD_AFTER_S, RECV_YIELD_EVERY


class Drained(Exception):
    pass


def test_a_flood_of_queued_messages_never_starves_other_tasks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    read = 0

    async def always_ready(sock: Any) -> tuple[list[Any], None]:
        # A message already queued: returns without yielding to the loop.
        nonlocal read
        read += 1
        if read > 10 * RECV_YIELD_EVERY:
            raise Drained
        return [], None

    monkeypatch.setattr(server_module, "recv_message", always_ready)
    fake = SimpleNamespace(sock=object(), _on_frames=lambda frames, problem: None)

    async def run() -> int:
        seen_at: list[int] = []

        async def other_work() -> None:
            seen_at.append(read)

        other = asyncio.get_running_loop().create_task(other_work())
        with pytest.raises(Drained):
            await Server._recv_loop(fake)  # type: ignore[arg-type]
        await other
        return seen_at[0]

    assert asyncio.run(run()) <= RECV_YIELD_EVERY  # it ran within the first few messages


def test_messages_that_take_long_let_other_tasks_run_after_each(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A typed text is understood on the loop (ms each): eight of one
    principal's in a row held another's turn at every step of it."""
    read = 0

    async def always_ready(sock: Any) -> tuple[list[Any], None]:
        nonlocal read
        read += 1
        if read > 10 * RECV_YIELD_EVERY:
            raise Drained
        return [], None

    def slow(frames: Any, problem: Any) -> None:
        time.sleep(RECV_YIELD_AFTER_S)  # e.g. a long text understood

    monkeypatch.setattr(server_module, "recv_message", always_ready)
    fake = SimpleNamespace(sock=object(), _on_frames=slow)

    async def run() -> list[int]:
        seen_at: list[int] = []

        async def other_work() -> None:
            for _ in range(3):
                seen_at.append(read)
                await asyncio.sleep(0)

        other = asyncio.get_running_loop().create_task(other_work())
        with pytest.raises(Drained):
            await Server._recv_loop(fake)  # type: ignore[arg-type]
        await other
        return seen_at

    assert asyncio.run(run()) == [1, 2, 3]  # one slow message between each step
