"""Synthesis scheduled, not queued: first phrases first, principals in turn.

Every session's replies share the synthesis workers. A plain FIFO lets one
long reply (ten phrases queued at once) delay another member's first words
by all of them. `FairQueue` (pure) orders the jobs instead:

1. A reply's *first* phrase before any later phrase: it is what the user
   waits for (`first_audio`); later phrases have the first one's playing
   time to be ready.
2. Within a class, principals take turns (round-robin); a principal's own
   jobs stay in order.
3. Each principal may have at most `max_pending` replies' first phrases
   waiting: beyond that `push` refuses, and the caller answers `busy` rather
   than queue forever. A later phrase is never refused (the speaker queues
   one at a time, ahead of playback): refusing it would cut a reply that
   has begun. Jobs cancelled while waiting (`dead`) free their place.

`SynthesisScheduler` runs the queue on `workers` threads. A job cancelled
before a worker takes it never runs (`Future.set_running_or_notify_cancel`).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Final, Generic, TypeVar

from vac.errors import VacError

T = TypeVar("T")
URGENT: Final = 0  # a reply's first phrase
LATER: Final = 1


class SchedulerFull(VacError):
    """The principal already has `max_pending` replies waiting to begin: answer `busy`."""

    code = "busy"


class FairQueue(Generic[T]):
    """Two priority classes; within each, round-robin over principals, FIFO per principal."""

    def __init__(
        self, max_pending: int = 32, dead: Callable[[T], bool] = lambda job: False
    ) -> None:
        self.max_pending = max_pending
        self._dead = dead
        self._classes: tuple[OrderedDict[str, deque[T]], ...] = (OrderedDict(), OrderedDict())

    def __len__(self) -> int:
        return sum(len(jobs) for turns in self._classes for jobs in turns.values())

    def push(self, principal: str, urgent: bool, job: T) -> None:
        if urgent and self._waiting_first(principal) >= self.max_pending:
            raise SchedulerFull(
                "too many replies are waiting to be spoken; try again",
                details={"max_pending": self.max_pending},
            )
        turns = self._classes[URGENT if urgent else LATER]
        turns.setdefault(principal, deque()).append(job)

    def _waiting_first(self, principal: str) -> int:
        """The principal's waiting first phrases, after dropping cancelled ones."""
        turns = self._classes[URGENT]
        jobs = turns.get(principal)
        if not jobs:
            return 0
        live = deque(j for j in jobs if not self._dead(j))
        if live:
            turns[principal] = live
        else:
            del turns[principal]
        return len(live)

    def pop(self) -> T | None:
        for turns in self._classes:
            if not turns:
                continue
            principal, jobs = next(iter(turns.items()))
            job = jobs.popleft()
            del turns[principal]
            if jobs:
                turns[principal] = jobs  # to the back: the others go first
            return job
        return None


@dataclass
class _Job:
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    future: Future[Any]


class SynthesisScheduler:
    """`workers` threads serving a `FairQueue`; `submit` returns a concurrent Future."""

    def __init__(self, workers: int = 1, max_pending: int = 32, name: str = "vac-tts") -> None:
        if workers < 1:
            raise ValueError("workers must be at least 1")
        self.workers = workers
        self._queue: FairQueue[_Job] = FairQueue(max_pending, lambda job: job.future.cancelled())
        self._cv = threading.Condition()
        self._closed = False
        self._threads = [
            threading.Thread(target=self._work, name=f"{name}-{i}", daemon=True)
            for i in range(workers)
        ]
        for t in self._threads:
            t.start()

    def submit(self, principal: str, urgent: bool, fn: Callable[..., T], *args: Any) -> Future[T]:
        """Queue `fn(*args)`; raises `SchedulerFull` when `urgent` (a reply's first
        phrase) and the principal already has `max_pending` replies waiting to begin."""
        future: Future[T] = Future()
        with self._cv:
            if self._closed:
                raise RuntimeError("the synthesis scheduler is shut down")
            self._queue.push(principal, urgent, _Job(fn, args, future))
            self._cv.notify()
        return future

    def pending(self) -> int:
        with self._cv:
            return len(self._queue)

    def shutdown(self, wait_s: float = 0.0) -> None:
        """Stop taking jobs; jobs still waiting are cancelled, running ones finish.

        `wait_s`: how long to wait for them (blocking; the daemon's close
        waits so, off its loop): a phrase still being synthesised when the
        interpreter exits aborts the process in the engine's native code
        (SIGABRT, "terminate called without an active exception": a
        durability probe sent SIGTERM during a spoken reply)."""
        with self._cv:
            self._closed = True
            while (job := self._queue.pop()) is not None:
                job.future.cancel()
            self._cv.notify_all()
        deadline = time.monotonic() + wait_s
        for t in self._threads:
            t.join(max(0.0, deadline - time.monotonic()))

    def _work(self) -> None:
        while True:
            with self._cv:
                while not self._closed and not len(self._queue):
                    self._cv.wait()
                job = self._queue.pop()
                if job is None:  # closed and drained
                    return
            if job.future.set_running_or_notify_cancel():  # False: cancelled while it waited
                try:
                    job.future.set_result(job.fn(*job.args))
                except BaseException as exc:  # handed to the awaiting coroutine
                    job.future.set_exception(exc)
            # An idle worker holds nothing: the job's result and callbacks (a
            # reply's resampler among them) are freed with the reply.
            del job
