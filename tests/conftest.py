"""Shared fixtures: a real home with real keys, and a real daemon on a random port."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from vac.client.connection import ClientKeys, Connection, keys_for
from vac.daemon import keys
from vac.daemon.config import DaemonSection, VacConfig
from vac.daemon.main import PipelineFactory, default_pipeline, run_daemon
from vac.daemon.server import Server
from vac.home import Home

# No per-example deadline: a property is about what comes out, never how
# fast (timing is `vac bench`'s). A property without settings of its own had
# Hypothesis's 200 ms default, which a loaded 2-core host can exceed.
settings.register_profile("vac", deadline=None)
settings.load_profile("vac")


@pytest.fixture
def home(tmp_path: Path) -> Home:
    h = Home(tmp_path / "home")
    keys.init_server(h)
    keys.enroll(h, "alice")
    keys.enroll(h, "bob")
    return h


def client_keys(home: Home, principal: str) -> ClientKeys:
    return keys_for(home, principal)


@dataclass
class RunningDaemon:
    home: Home
    endpoint: str
    server: Server
    loop: asyncio.AbstractEventLoop
    stop: asyncio.Event
    thread: threading.Thread
    clients: list[Connection] = field(default_factory=list)

    def connect(self, principal: str = "alice") -> Connection:
        conn = Connection(self.endpoint, client_keys(self.home, principal))
        self.clients.append(conn)
        return conn

    def call(self, fn: Callable[[], Any]) -> Any:
        """Run fn on the daemon's loop and return its result (for white-box checks)."""
        fut = asyncio.run_coroutine_threadsafe(_call(fn), self.loop)
        return fut.result(timeout=5)

    def query(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run an EventLog read on the daemon's own database thread."""
        fut = asyncio.run_coroutine_threadsafe(self.server.store.call(fn, *args), self.loop)
        return fut.result(timeout=5)

    def shutdown(self) -> None:
        for c in self.clients:
            c.close()
        self.loop.call_soon_threadsafe(self.stop.set)
        self.thread.join(timeout=15)
        assert not self.thread.is_alive(), "daemon did not stop"


async def _call(fn: Callable[[], Any]) -> Any:
    return fn()


def start_daemon(
    home: Home,
    *,
    config: VacConfig | None = None,
    pipeline: PipelineFactory = default_pipeline,
    timeout_s: float = 120.0,
) -> RunningDaemon:
    ready = threading.Event()
    box: dict[str, Any] = {}

    def on_ready(server: Server) -> None:
        box["server"] = server
        box["loop"] = asyncio.get_running_loop()
        ready.set()

    def runner() -> None:
        async def main() -> None:
            box["stop"] = asyncio.Event()
            try:
                await run_daemon(
                    home,
                    endpoint="tcp://127.0.0.1:*",
                    config=config,
                    pipeline=pipeline,
                    stop=box["stop"],
                    on_ready=on_ready,
                )
            except BaseException as exc:  # surface start-up failures to the test
                box["error"] = exc
                ready.set()
                raise

        asyncio.run(main())

    thread = threading.Thread(target=runner, name="vac-daemon", daemon=True)
    thread.start()
    assert ready.wait(timeout_s), "daemon did not become ready"
    if "error" in box:
        raise box["error"]
    server: Server = box["server"]
    return RunningDaemon(home, server.bound_endpoint, server, box["loop"], box["stop"], thread)


TEXT_ONLY: dict[str, Any] = {"enabled": False}


def fast_config(**daemon: Any) -> VacConfig:
    """A text-only daemon (voice engines disabled) for protocol-level tests."""
    return VacConfig(daemon=DaemonSection(**daemon), stt=TEXT_ONLY, tts=TEXT_ONLY)


@pytest.fixture
def daemon(home: Home) -> Iterator[RunningDaemon]:
    d = start_daemon(home, config=fast_config())
    yield d
    d.shutdown()
