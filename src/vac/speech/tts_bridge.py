"""Synthesis through child processes: a `TtsEngine` whose engine lives elsewhere.

With `[inference] engine = "ray"` the voice runs on the cluster, and the Ray
driver that reaches it must live outside the daemon (speech/ray_engine.py
says why). `ProcessTts` keeps `workers` bridge processes, one per synthesis
thread, each built from a picklable factory; `synthesize` sends the phrase
over a pipe and returns the `SynthesizedPhrase`.

A bridge that dies or hangs fails only its phrase (`TtsError`, answered
`provider_unavailable`). A background thread starts its replacement, backing
off between failed starts (`workers.backoff_s`: from `retry_after_s`,
doubling to 30-60 s) until one is ready: while the engine is gone, phrases
fail at once instead of each waiting for a start-up timeout.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import queue
import signal
import threading
import time
from collections.abc import Callable
from multiprocessing.process import BaseProcess
from typing import Final

import msgspec

from vac.logs import configure, get_logger
from vac.speech import child_output
from vac.speech.tts import SynthesizedPhrase, TtsEngine, TtsEngineLost, TtsError
from vac.speech.workers import backoff_s

log = get_logger(__name__)

EngineFactory = Callable[[], TtsEngine]
_JOIN_TIMEOUT_S: Final = 2.0


class _Ready(msgspec.Struct, frozen=True, tag="ready"):
    name: str
    rate_hz: int


class _Failed(msgspec.Struct, frozen=True, tag="failed"):
    message: str


class _Done(msgspec.Struct, frozen=True, tag="done"):
    phrase: SynthesizedPhrase


_Reply = _Ready | _Failed | _Done


class TtsBridgeConfig(msgspec.Struct, frozen=True, kw_only=True):
    workers: int = 1  # one per synthesis thread: a phrase never waits for a bridge
    start_timeout_s: float = 120.0
    call_timeout_s: float = 30.0  # a phrase past this means a hung bridge
    retry_after_s: float = 1.0  # after the first failed start; it grows to `backoff_s`'s cap


def _bridge_main(factory: EngineFactory, conn: multiprocessing.connection.Connection) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C belongs to the daemon
    configure(json=True)  # a spawned child: the daemon's stderr takes JSON lines
    encoder = msgspec.msgpack.Encoder()
    try:
        engine = factory()
        name = str(getattr(engine, "name", type(engine).__name__))
        conn.send_bytes(encoder.encode(_Ready(name, engine.sample_rate_hz)))
    except TtsError as exc:  # vac's own: its message names the cause for the operator
        conn.send_bytes(encoder.encode(_Failed(str(exc))))
        return
    except Exception as exc:
        conn.send_bytes(encoder.encode(_Failed(_named(exc))))
        return
    while True:
        try:
            phrase = conn.recv_bytes().decode("utf-8")
        except (EOFError, OSError):
            # Closed by the daemon: nothing to flush, and a Ray driver's exit
            # handlers would only delay the daemon's own shutdown.
            os._exit(0)
        reply: _Reply
        try:
            reply = _Done(engine.synthesize(phrase))
        except TtsEngineLost as exc:
            # Gone for good: EOF tells the parent at once (no exit handlers).
            log.warning("tts_bridge_engine_lost", why=str(exc))
            conn.close()
            child_output.drain()
            os._exit(0)
        except TtsError as exc:
            reply = _Failed(str(exc))
        except Exception as exc:
            reply = _Failed(_named(exc))
        conn.send_bytes(encoder.encode(reply))


def _named(exc: BaseException) -> str:
    """A failure as a client may hear it: its type (a remote error's cause), never
    its text, which can carry a remote traceback or a cluster's addresses (those
    go to the log)."""
    cause = getattr(exc, "cause", None) or exc
    log.warning("tts_bridge_error", error=type(cause).__name__, why=str(exc)[:2000])
    return f"synthesis failed: {type(cause).__name__}"


class _Bridge:
    """One child and the parent's end of its pipe. Blocking: synthesis threads only."""

    _decoder = msgspec.msgpack.Decoder(_Reply)

    def __init__(self, ctx: multiprocessing.context.BaseContext, factory: EngineFactory) -> None:
        parent, child = ctx.Pipe(duplex=True)
        self.conn = parent
        self.process: BaseProcess = ctx.Process(  # type: ignore[attr-defined]
            target=_bridge_main, args=(factory, child), daemon=True, name="vac-tts-bridge"
        )
        self.process.start()
        child.close()  # only the child holds its end: its death is EOF on ours

    def receive(self, timeout_s: float) -> _Reply:
        if not self.conn.poll(timeout_s):
            raise TtsError(f"synthesis engine gave no answer within {timeout_s:.0f} s")
        return self._decoder.decode(self.conn.recv_bytes())

    def stop(self) -> None:
        self.conn.close()
        self.process.join(_JOIN_TIMEOUT_S)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(_JOIN_TIMEOUT_S)


class ProcessTts:
    """A `TtsEngine` served by bridge processes. `start()` (blocking) before use."""

    def __init__(self, factory: EngineFactory, config: TtsBridgeConfig | None = None) -> None:
        self._factory = factory
        self._config = config or TtsBridgeConfig()
        self._ctx = multiprocessing.get_context("spawn")
        self._idle: queue.Queue[_Bridge | None] = queue.Queue()
        self._lock = threading.Lock()
        self._spares: list[_Bridge] = []  # started by `_restart` for dead slots
        self._dead = 0  # slots whose bridge died and has no replacement yet
        self._starting = False
        self._closed = False
        self.name = ""
        self._rate_hz = 0

    @property
    def sample_rate_hz(self) -> int:
        return self._rate_hz

    def start(self) -> None:
        """Start every bridge; raises `TtsError` naming why the first one failed."""
        bridges = [_Bridge(self._ctx, self._factory) for _ in range(self._config.workers)]
        try:
            for bridge in bridges:
                ready = self._ready(bridge)
                self.name, self._rate_hz = ready.name, ready.rate_hz
        except TtsError:
            for bridge in bridges:
                bridge.stop()
            raise
        for bridge in bridges:
            self._idle.put(bridge)

    def _ready(self, bridge: _Bridge) -> _Ready:
        try:
            reply = bridge.receive(self._config.start_timeout_s)
        except (EOFError, OSError):
            raise TtsError("synthesis bridge exited during start") from None
        if isinstance(reply, _Ready):
            return reply
        raise TtsError(reply.message if isinstance(reply, _Failed) else "unexpected reply")

    def _spare(self) -> _Bridge | None:
        """A replacement the background has ready for a dead slot, or None."""
        with self._lock:
            if self._spares:
                self._dead -= 1
                return self._spares.pop()
        self._ensure_restarting()
        return None

    def _ensure_restarting(self) -> None:
        with self._lock:
            if self._starting or self._closed:
                return
            self._starting = True
        threading.Thread(target=self._restart, name="vac-tts-restart", daemon=True).start()

    def _restart(self) -> None:
        """Start bridges until every dead slot has a spare; back off between failures."""
        attempt = 0
        try:
            while True:
                with self._lock:
                    # Decided and cleared under one lock: a bridge that dies
                    # after this sees `_starting` False and starts a new thread.
                    if self._closed or self._dead <= len(self._spares):
                        self._starting = False
                        return
                bridge = self._start_one()
                if bridge is None:
                    time.sleep(backoff_s(attempt, self._config.retry_after_s))
                    attempt += 1
                    continue
                attempt = 0
                with self._lock:
                    closed = self._closed
                    if not closed:
                        self._spares.append(bridge)
                if closed:
                    bridge.stop()  # closed while it started: the loop then ends
        except BaseException:
            with self._lock:
                self._starting = False
            raise

    def _start_one(self) -> _Bridge | None:
        """A new bridge that is ready and speaks at this voice's rate, or None."""
        bridge: _Bridge | None = None
        try:
            bridge = _Bridge(self._ctx, self._factory)
            ready = self._ready(bridge)
            if ready.rate_hz == self._rate_hz:
                return bridge
            # Replies already in flight were announced at the old rate.
            log.warning("tts_bridge_refused", rate_hz=ready.rate_hz, expected_hz=self._rate_hz)
        except Exception as exc:  # never end this thread: the slot would stay dead
            log.warning("tts_bridge_restart_failed", error=type(exc).__name__, why=str(exc))
        if bridge is not None:
            bridge.stop()
        return None

    def synthesize(self, phrase: str) -> SynthesizedPhrase:
        bridge = self._idle.get()  # one bridge per synthesis thread: never long
        try:
            if bridge is None:
                bridge = self._spare()
                if bridge is None:
                    raise TtsError("the synthesis engine is unavailable; reconnecting")
            try:
                bridge.conn.send_bytes(phrase.encode("utf-8"))
                reply = bridge.receive(self._config.call_timeout_s)
            except (EOFError, OSError, TtsError):
                bridge.process.kill()
                bridge.stop()
                bridge = None
                with self._lock:
                    self._dead += 1
                self._ensure_restarting()
                raise TtsError("the synthesis engine was lost during a phrase") from None
            if isinstance(reply, _Done):
                return reply.phrase
            raise TtsError(reply.message if isinstance(reply, _Failed) else "unexpected reply")
        finally:
            self._idle.put(bridge)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            spares, self._spares = self._spares, []
        for spare in spares:
            spare.stop()
        for _ in range(self._config.workers):
            try:  # a phrase in flight ends within its own timeout
                slot = self._idle.get(timeout=self._config.call_timeout_s)
            except queue.Empty:
                return  # daemon children: they end with this process
            if slot is not None:
                slot.stop()
