"""Recognition off the event loop, in worker processes, with a bounded queue.

Each worker process builds its engine once (from a picklable factory, e.g.
`functools.partial(WhisperStt, config, vocabulary=names)`), runs one warm-up
inference and says it is ready. A job is a small msgpack header plus the raw
PCM bytes over a pipe; the reply is a msgpack `Transcript`. Nothing is pickled
after start-up and no audio touches the disk.

Which job runs next is the pure policy of `vac.speech.stt_queue` (finals
before partials, one waiting partial per key, `Busy` when `max_pending` jobs
wait); this module carries out its decisions and manages the processes:
- a superseded or cancelled job's awaiter gets `Superseded`, a refused one `Busy`;
- a worker that dies (native crash, kill, hang past `job_timeout_s`) fails only
  its in-flight job with `ProviderUnavailable` and is replaced.

Blocking pipe I/O runs on a private thread pool (one thread per worker), so the
loop only ever awaits futures.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import multiprocessing.connection
import os
import random
import signal
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any, ClassVar, Final, Literal, TypeVar

import msgspec
import numpy as np

from vac.logs import get_logger
from vac.speech import child_output
from vac.speech.stt import (
    RATE_HZ,
    SttEngine,
    SttError,
    SttModelMissing,
    Transcript,
)
from vac.speech.stt_queue import SttQueue

JobKind = Literal["final", "partial"]
_T = TypeVar("_T")
EngineFactory = Callable[[], SttEngine]

_WARMUP_MS: Final = 1_000
_FIRST_RESTART_S: Final = 0.5
_RESTART_CAP_S: Final = 30.0
_JOIN_TIMEOUT_S: Final = 2.0


class PoolError(SttError):
    """A recognition request that did not produce a transcript.

    `str(exc)` is the reason, for the log; `message` is what a client is
    told (it never carries the reason: that may name a model path).
    """

    def __init__(self, reason: str) -> None:
        super().__init__("speech recognition failed for this utterance")
        self.args = (reason,)
        self.reason = reason


class SttEngineLost(SttError):
    """Raised by an engine whose connection is gone for good (a Ray driver
    whose cluster went away): its worker exits and the pool replaces it."""


class Busy(PoolError):
    """The queue is full; the caller answers `busy` instead of waiting."""

    code = "busy"


class ProviderUnavailable(PoolError):
    """The worker running the job died or hung, or no worker is alive."""

    code = "provider_unavailable"


class Superseded(PoolError):
    """Pending work was dropped: a newer partial or a final for its key, or `cancel(key)`.

    Never sent: whoever superseded the job has its own answer.
    """

    code = "internal"


class SttPoolConfig(msgspec.Struct, frozen=True, kw_only=True):
    """Pool sizing. 2 workers x 1 thread measured best on 2 cores (docs/stt.md)."""

    workers: int = 2  # pair with SttConfig.cpu_threads=1: one core per worker
    max_pending: int = 4  # waiting jobs across all keys, excluding those in flight
    start_timeout_s: float = 120.0  # model load + warm-up of one worker
    job_timeout_s: float = 30.0  # an in-flight job past this means a hung worker
    start_method: Literal["spawn", "forkserver"] = "spawn"

    def __post_init__(self) -> None:
        if self.workers < 1:
            raise ValueError(f"workers must be >= 1, got {self.workers}")
        if self.max_pending < 1:
            raise ValueError(f"max_pending must be >= 1, got {self.max_pending}")


# Pipe messages. Parent -> child: `_Job` then the PCM as a second message.
class _Job(msgspec.Struct, frozen=True):
    final: bool
    reply_expected: bool = False


class _Ready(msgspec.Struct, frozen=True, tag="ready"):
    warmup_ms: float


class _LoadFailed(msgspec.Struct, frozen=True, tag="load_failed"):
    message: str
    model_path: str | None = None  # set when the engine raised SttModelMissing
    reason: str = ""


class _Result(msgspec.Struct, frozen=True, tag="result"):
    transcript: Transcript


class _JobFailed(msgspec.Struct, frozen=True, tag="job_failed"):
    message: str


_Reply = _Ready | _LoadFailed | _Result | _JobFailed


def backoff_s(attempt: int, first_s: float) -> float:
    """The wait before restart `attempt` (0-based): doubling from `first_s` to a
    cap of 30 s, then times a random 1-2, so that the workers of many daemons
    whose cluster went away do not all knock again at the same moment."""
    base_s = min(_RESTART_CAP_S, first_s * 2.0 ** min(attempt, 16))
    return base_s * random.uniform(1.0, 2.0)  # jitter, not a secret


def warmup_pcm() -> np.ndarray:
    # A tone, not silence: silence short-circuits before the model runs.
    t = np.arange(RATE_HZ * _WARMUP_MS // 1000) / RATE_HZ
    return (np.sin(2 * np.pi * 440.0 * t) * 3000).astype(np.int16)


def _worker_main(factory: EngineFactory, conn: multiprocessing.connection.Connection) -> None:
    """Child process: load, warm up, then serve jobs until the pipe closes."""
    # Ctrl-C belongs to the daemon; it closes the pipe, which ends this loop.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    encoder = msgspec.msgpack.Encoder()
    try:
        engine = factory()
        warm = engine.transcribe(warmup_pcm(), final=True)
    except SttModelMissing as exc:
        conn.send_bytes(encoder.encode(_LoadFailed(str(exc), str(exc.path), exc.reason)))
        return
    except Exception as exc:
        conn.send_bytes(encoder.encode(_LoadFailed(f"{type(exc).__name__}: {exc}")))
        return
    conn.send_bytes(encoder.encode(_Ready(warm.compute_ms)))
    decoder = msgspec.msgpack.Decoder(_Job)
    while True:
        try:
            job = decoder.decode(conn.recv_bytes())
            pcm = conn.recv_bytes()
        except (EOFError, OSError):
            return
        reply: _Reply
        try:
            samples = np.frombuffer(pcm, dtype="<i2")
            heard = engine.transcribe(samples, final=job.final, reply_expected=job.reply_expected)
            reply = _Result(heard)
        except SttEngineLost as exc:
            # No reply: the parent sees EOF at once (no exit handlers: a Ray
            # driver's would wait for its lost cluster), fails this job and
            # starts a new worker.
            get_logger(__name__).warning("stt_engine_lost", why=str(exc))
            conn.close()
            child_output.drain()
            os._exit(0)
        except Exception as exc:
            reply = _JobFailed(f"{type(exc).__name__}: {exc}")
        conn.send_bytes(encoder.encode(reply))


class _WorkerDied(Exception):
    pass


def _consume(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()  # retrieved: a dying worker at close is expected


class _Worker:
    """One child process and the parent's end of its pipe. Methods block: call in threads."""

    _decoder: ClassVar = msgspec.msgpack.Decoder(_Reply)
    _encoder: ClassVar = msgspec.msgpack.Encoder()

    def __init__(self, ctx: multiprocessing.context.BaseContext, factory: EngineFactory) -> None:
        parent, child = ctx.Pipe(duplex=True)
        self.conn = parent
        self.process: BaseProcess = ctx.Process(  # type: ignore[attr-defined]
            target=_worker_main, args=(factory, child), daemon=True, name="vac-stt"
        )
        self.process.start()
        # Only the child holds its end now, so its death is EOF on ours.
        child.close()

    def wait_ready(self, timeout_s: float) -> _Ready | _LoadFailed:
        try:
            if not self.conn.poll(timeout_s):
                return _LoadFailed(f"worker not ready within {timeout_s:.0f} s")
            reply = self._decoder.decode(self.conn.recv_bytes())
        except (EOFError, OSError):
            return _LoadFailed(f"worker exited during start (exit code {self.exitcode()})")
        if isinstance(reply, _Ready | _LoadFailed):
            return reply
        return _LoadFailed(f"unexpected start reply {type(reply).__name__}")

    def roundtrip(self, job: _Job, pcm: bytes) -> _Result | _JobFailed:
        try:
            self.conn.send_bytes(self._encoder.encode(job))
            self.conn.send_bytes(pcm)
            reply = self._decoder.decode(self.conn.recv_bytes())
        except (EOFError, OSError) as exc:
            raise _WorkerDied(f"worker died (exit code {self.exitcode()})") from exc
        if isinstance(reply, _Result | _JobFailed):
            return reply
        raise _WorkerDied(f"unexpected reply {type(reply).__name__}")

    def exitcode(self) -> int | None:
        self.process.join(0.2)
        return self.process.exitcode

    def stop(self) -> None:
        """Close the pipe (a healthy child exits on EOF), then make sure it is gone."""
        self.conn.close()
        self.process.join(_JOIN_TIMEOUT_S)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(_JOIN_TIMEOUT_S)

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()


@dataclass(eq=False)
class _PendingJob:
    key: str
    final: bool  # queue priority: finals before partials
    pcm: bytes
    future: asyncio.Future[Transcript] = field(repr=False)
    complete: bool = True  # the engine's full decoding (evidence, rescoring)
    reply_expected: bool = False  # one draft pending: score a short final as a reply
    owner: str = ""  # the principal: finals are served round-robin by owner

    @property
    def settled(self) -> bool:
        # Done before it ran: its awaiter was cancelled, or it was superseded.
        return self.future.done()

    def fail(self, exc: PoolError) -> None:
        if not self.future.done():
            self.future.set_exception(exc)


class SttPool:
    """Asyncio face of the recognition workers. `await start()` before use."""

    def __init__(self, factory: EngineFactory, config: SttPoolConfig | None = None) -> None:
        self._factory = factory
        self._config = config or SttPoolConfig()
        self._ctx = multiprocessing.get_context(self._config.start_method)
        self._executor = ThreadPoolExecutor(
            max_workers=self._config.workers, thread_name_prefix="vac-stt-pipe"
        )
        self._workers: list[_Worker | None] = [None] * self._config.workers
        self._queue: SttQueue[_PendingJob] = SttQueue(
            self._config.max_pending, slots=self._config.workers
        )
        self._wakeup: asyncio.Condition | None = None
        self._runners: list[asyncio.Task[None]] = []
        self._started = False
        self._closed = False
        self._down = False  # no worker alive and the last restart failed
        self.warmup_ms: list[float] = []

    @property
    def pending(self) -> int:
        return self._queue.pending

    @property
    def saturated(self) -> bool:
        """No room for another final: new streams are refused `busy` (never queued).

        Waiting partials do not count: a final evicts the oldest of them.
        """
        return self._queue.saturated

    @property
    def alive(self) -> int:
        return sum(w is not None for w in self._workers)

    async def start(self) -> None:
        """Start every worker; returns once each has loaded the model and warmed up.

        Raises `SttModelMissing` (the named preflight refusal) or `ProviderUnavailable`.
        """
        if self._started:
            raise RuntimeError("SttPool.start() called twice")
        self._started = True
        self._wakeup = asyncio.Condition()
        results = await asyncio.gather(
            *(self._spawn() for _ in range(self._config.workers)), return_exceptions=True
        )
        workers = [r for r in results if isinstance(r, _Worker)]
        failure = next((r for r in results if isinstance(r, BaseException)), None)
        if failure is not None:
            await asyncio.gather(*(self._in_thread(w.stop) for w in workers))
            self._executor.shutdown(wait=False)
            self._closed = True
            raise failure
        for slot, worker in enumerate(workers):
            self._workers[slot] = worker
            self._runners.append(asyncio.create_task(self._run(slot), name=f"stt-slot-{slot}"))

    async def transcribe(
        self,
        pcm: bytes,
        *,
        kind: JobKind,
        key: str,
        complete: bool | None = None,
        reply_expected: bool = False,
        owner: str = "",
    ) -> Transcript:
        """Recognise s16le 16 kHz mono `pcm`. Raises Busy, Superseded or ProviderUnavailable.

        `kind` is the job's priority; `complete` asks for the engine's full
        decoding (default: finals only). A speculative final runs at partial
        priority but completely: its result may become the final.
        `reply_expected`: a short complete result is also scored against the
        reply phrases (docs/stt.md). `owner` (the principal) takes its turn
        with the other owners' finals.
        """
        if not self._started or self._closed or self._wakeup is None:
            raise ProviderUnavailable("STT pool is not running")
        if self._down:
            raise ProviderUnavailable("no STT worker is alive")
        job = _PendingJob(key, kind == "final", pcm, asyncio.get_running_loop().create_future())
        job.complete = kind == "final" if complete is None else complete
        job.reply_expected = reply_expected
        job.owner = owner
        self._enqueue(job)
        async with self._wakeup:
            self._wakeup.notify()
        return await job.future

    def cancel(self, key: str) -> None:
        """Drop every waiting job of `key`; an in-flight one's result is discarded."""
        for job in self._queue.cancel(key):
            job.fail(Superseded(f"cancelled: {key}"))

    async def close(self) -> None:
        """Fail what waits, stop the workers, and wait for them to exit."""
        if self._closed:
            return
        self._closed = True
        # One exception per awaiter: whoever reports it sets its own
        # stream and ref on it (see runtime/listener.py).
        for job in [*self._queue.drain(), *self._queue.running()]:
            job.fail(ProviderUnavailable("STT pool closed"))
        for worker in self._workers:
            if worker is not None:
                worker.kill()  # unblocks a pipe thread waiting on a reply
        for task in self._runners:
            task.cancel()
        await asyncio.gather(*self._runners, return_exceptions=True)
        workers = [w for w in self._workers if w is not None]
        self._workers = [None] * len(self._workers)
        await asyncio.gather(*(self._in_thread(w.stop) for w in workers))
        self._executor.shutdown(wait=True)

    # -- internals -------------------------------------------------------------

    def _enqueue(self, job: _PendingJob) -> None:
        admission = self._queue.offer(job)
        for dropped in admission.dropped:
            dropped.job.fail(Superseded(dropped.why))
        if not admission.queued:
            raise Busy(f"{admission.waiting} recognition jobs waiting")

    async def _in_thread(self, fn: Callable[[], _T]) -> _T:
        return await asyncio.get_running_loop().run_in_executor(self._executor, fn)

    async def _spawn(self) -> _Worker:
        worker = await self._in_thread(lambda: _Worker(self._ctx, self._factory))
        reply = await self._in_thread(lambda: worker.wait_ready(self._config.start_timeout_s))
        if isinstance(reply, _Ready):
            self.warmup_ms.append(reply.warmup_ms)
            return worker
        await self._in_thread(worker.stop)
        if reply.model_path is not None:
            raise SttModelMissing(Path(reply.model_path), reply.reason)
        raise ProviderUnavailable(f"STT worker failed to start: {reply.message}")

    async def _run(self, slot: int) -> None:
        assert self._wakeup is not None
        while True:
            async with self._wakeup:
                job = self._queue.take()
                while job is None:
                    await self._wakeup.wait()
                    job = self._queue.take()
            worker = self._workers[slot]
            if worker is None:  # pragma: no cover - a slot only runs with a worker
                job.fail(ProviderUnavailable("no worker"))
                continue
            self._queue.start(slot, job)
            try:
                reply = await self._roundtrip(worker, job)
            except _WorkerDied as exc:
                job.fail(ProviderUnavailable(str(exc)))
                self._workers[slot] = None
                await self._in_thread(worker.stop)
                await self._respawn(slot)
                continue
            finally:
                self._queue.finish(slot)
            if isinstance(reply, _Result):
                if not job.future.done():
                    job.future.set_result(reply.transcript)
            else:
                job.fail(ProviderUnavailable(reply.message))

    async def _roundtrip(self, worker: _Worker, job: _PendingJob) -> _Result | _JobFailed:
        loop = asyncio.get_running_loop()
        header = _Job(job.complete, job.reply_expected)
        call = loop.run_in_executor(self._executor, worker.roundtrip, header, job.pcm)
        try:
            done, _ = await asyncio.wait({call}, timeout=self._config.job_timeout_s)
        except asyncio.CancelledError:
            # close(): the pipe thread ends on its own once the worker is killed.
            call.add_done_callback(_consume)
            raise
        if not done:
            worker.kill()  # a hung worker: its pipe thread then sees EOF
            with contextlib.suppress(_WorkerDied):
                await call
            raise _WorkerDied(f"no reply within {self._config.job_timeout_s:.0f} s")
        return call.result()

    async def _respawn(self, slot: int) -> None:
        attempt = 0
        while not self._closed:
            try:
                self._workers[slot] = await self._spawn()
                self._down = False
                return
            except (ProviderUnavailable, SttModelMissing):
                if self.alive == 0:
                    self._down = True
                    # Nobody can serve what waits: fail it now, not after a timeout.
                    for job in self._queue.drain():
                        job.fail(ProviderUnavailable("no STT worker is alive"))
                await asyncio.sleep(backoff_s(attempt, _FIRST_RESTART_S))
                attempt += 1
