"""`vac daemon`: pre-flight refusals, the home lock, readiness, signals."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import sqlite3
from collections.abc import Callable

import msgspec
import zmq

from vac.daemon.config import VacConfig, load_config
from vac.daemon.keys import fingerprint, load_public, server_key_problem
from vac.daemon.lock import home_lock
from vac.daemon.server import Server
from vac.endpoints import checked_endpoint
from vac.home import Home, HomeError, check_secret_file
from vac.logs import get_logger
from vac.runtime.port import SessionHandler
from vac.runtime.store import AsyncEventLog
from vac.runtime.store.errors import damaged, unusable

log = get_logger("vac.daemon")
# `ready` is written whatever the log level: scripts, systemd units and the
# test harnesses read the endpoint from it on stderr.
ready_log = get_logger("vac.daemon", always=True)


def preflight_keys(home: Home) -> None:
    if problem := server_key_problem(home):  # names the missing half and a fix that works
        raise HomeError(problem)
    check_secret_file(home.server_secret)


def notify_ready() -> None:
    """Tell systemd we are ready, when it asked (`$NOTIFY_SOCKET`)."""
    addr = os.environ.get("NOTIFY_SOCKET")
    if not addr:
        return
    if addr.startswith("@"):
        addr = "\0" + addr[1:]
    with contextlib.suppress(OSError), socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as s:
        s.connect(addr)
        s.sendall(b"READY=1")


PipelineFactory = Callable[[Server, VacConfig], SessionHandler]


def default_pipeline(server: Server, config: VacConfig) -> SessionHandler:
    """The real pipeline with the providers declared in vac.toml."""
    from vac.daemon.config import intent_config
    from vac.daemon.engines import (
        Providers,
        build_stt,
        build_tts,
        build_vad,
        describe_stt,
        describe_tts,
    )
    from vac.runtime.pipeline import Engines, Pipeline

    providers = Providers.from_config(config)
    intent_cfg = intent_config(config)
    names = intent_cfg.roster().names()
    engines = Engines(
        stt=build_stt(providers.stt, names, providers.inference) if providers.stt.enabled else None,
        tts=build_tts(providers.tts, providers.inference) if providers.tts.enabled else None,
        vad=build_vad(providers.vad),
        partial_interval_ms=providers.stt.partial_interval_ms,
        tts_workers=providers.tts.workers,
        tts_max_pending=providers.tts.max_pending,
        names={
            "stt": describe_stt(providers.stt, providers.inference),
            "tts": describe_tts(providers.tts, providers.inference),
        },
    )
    retention = msgspec.structs.asdict(config.retention)
    return Pipeline(
        server,
        server.store,
        engines,
        intent_cfg,
        max_pending_drafts=config.daemon.max_pending_drafts,
        max_open_objectives=config.daemon.max_open_objectives,
        max_remembered_refusals=config.daemon.max_remembered_refusals,
        retention=retention,
        offer_timeout_ms=config.daemon.offer_timeout_ms,
    )


async def run_daemon(
    home: Home,
    *,
    endpoint: str | None = None,
    config: VacConfig | None = None,
    pipeline: PipelineFactory = default_pipeline,
    stop: asyncio.Event | None = None,
    on_ready: Callable[[Server], None] | None = None,
) -> int:
    """Run until SIGTERM/SIGINT (or `stop`); return the exit code."""
    preflight_keys(home)
    cfg = config or load_config(home.config_file)
    checked_endpoint(endpoint or cfg.daemon.endpoint, bind=True)  # before anything is opened
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    with home_lock(home):
        store = AsyncEventLog(home.db_file)
        try:
            server = Server(home, cfg.daemon, store, lambda s: pipeline(s, cfg), endpoint=endpoint)
            for sig in (signal.SIGTERM, signal.SIGINT):
                with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                    loop.add_signal_handler(sig, stop.set)
            if server.endpoint.startswith("ipc://"):
                from vac.daemon.preflight import probe_endpoint

                # libzmq replaces a socket file another daemon listens on: that
                # daemon would run on, unreachable. Refuse as for a port in use.
                probe_endpoint(server.endpoint)
            try:
                bound = server.bind()
            except zmq.ZMQError as exc:  # one line, not a traceback (exit 2)
                from vac.daemon.preflight import bind_problem

                if server.auth is not None:
                    server.auth.stop()
                raise bind_problem(server.endpoint, exc) from None
            warm = getattr(server.pipeline, "warm_up", None)
            try:
                await warm() if warm is not None else None
            except (sqlite3.DatabaseError, msgspec.DecodeError) as exc:
                if isinstance(exc, sqlite3.OperationalError) and "decode" not in str(exc):
                    raise unusable(home.db_file, exc) from None  # locked, I/O: not damage
                # A row that cannot be read (its words are in the error: never shown).
                raise damaged(home.db_file, "a stored row cannot be read") from None
            describe = getattr(server.pipeline, "describe", None)
            engines = describe() if describe is not None else {}
            ready_log.info(
                "ready",
                endpoint=bound,
                home=str(home.root),
                pid=os.getpid(),
                fingerprint=fingerprint(load_public(home.server_public)),
                stt=engines.get("stt", "unknown"),
                tts=engines.get("tts", "unknown"),
            )
            notify_ready()
            if on_ready is not None:
                on_ready(server)
            try:
                await server.serve(stop)
            finally:
                close = getattr(server.pipeline, "close", None)
                if close is not None:
                    await close()
        finally:
            for sig in (signal.SIGTERM, signal.SIGINT):
                with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                    loop.remove_signal_handler(sig)
            await store.close()
    log.info("stopped")
    return 0
