"""Which recognition job runs next: the pure queue policy of `SttPool`.

Sans-IO: no processes, pipes, futures or clocks. `SttPool` (speech/workers.py)
offers jobs, takes the next one for a free worker slot and carries out what
this module decides: which waiting jobs to answer `Superseded`, and when to
answer `Busy` instead of queueing.

The rules (each one is why a test exists):
- at most `max_pending` jobs wait (in flight ones are not counted); when it is
  full, a final evicts the oldest waiting partial, anything else is refused:
  the caller answers `busy` at once rather than wait behind a backlog;
- finals are taken before partials: partials are droppable, finals start
  turns. Finals are served round-robin by owner (the principal): the owner
  served least recently goes first, each owner's own finals oldest first, so
  one member's many streams cannot hold back another's turn; among partials, a *complete* one (the
  speculative final decoded in a pause, which may become the final) goes
  before the live partials of anyone's stream — measured with 4 sessions
  speaking together, their speculations otherwise waited behind the others'
  partials until after the commit;
- at most one partial waits per key: a newer partial takes its predecessor's
  place in the line, and a final for the key drops it (a stale partial is
  worth nothing once a newer or final answer is coming);
- `cancel(key)` drops every waiting job of the key and names the in-flight
  one, whose result the pool then discards.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar


class QueuedJob(Protocol):
    """What the policy reads of a job; the pool's job adds the PCM and a future."""

    @property
    def key(self) -> str: ...

    @property
    def final(self) -> bool: ...

    @property
    def owner(self) -> str:
        """Whom the job is for (the principal): finals are served round-robin by owner."""
        ...

    @property
    def complete(self) -> bool:
        """Decoded completely: a speculative final, not a live partial."""
        ...

    @property
    def settled(self) -> bool:
        """Already answered, or abandoned by its awaiter: never run it."""
        ...


J = TypeVar("J", bound=QueuedJob)


@dataclass(frozen=True, slots=True)
class Dropped(Generic[J]):
    """A waiting job that will never run; the pool answers it `Superseded(why)`."""

    job: J
    why: str


@dataclass(frozen=True, slots=True)
class Admission(Generic[J]):
    """The answer to `offer`: whether the job waits now, and whom it displaced.

    `dropped` is carried out even when the job is refused: a final for a key
    makes that key's waiting partial stale whether or not the final fits.
    """

    queued: bool
    dropped: tuple[Dropped[J], ...]
    waiting: int  # jobs waiting after the offer (what a refusal reports)


class SttQueue(Generic[J]):
    """Waiting jobs by kind, and what each worker slot is running."""

    def __init__(self, max_pending: int, slots: int) -> None:
        if max_pending < 1 or slots < 1:
            raise ValueError(f"max_pending and slots must be >= 1, got {max_pending}, {slots}")
        self.max_pending = max_pending
        self._finals: deque[J] = deque()
        # Insertion-ordered by key; a superseding partial keeps its key's place.
        self._partials: dict[str, J] = {}
        self._in_flight: list[J | None] = [None] * slots
        # When each owner was last given a final (a counter, not a clock).
        self._served: dict[str, int] = {}
        self._tick = 0

    @property
    def pending(self) -> int:
        """Jobs waiting for a worker (in flight ones not counted)."""
        return len(self._finals) + len(self._partials)

    @property
    def saturated(self) -> bool:
        """No room for another final, even by evicting a partial."""
        return len(self._finals) >= self.max_pending

    def waiting(self) -> list[J]:
        """Every waiting job, in the order `take` would consider them."""
        partials = list(self._partials.values())
        return [
            *self._final_order(),
            *(j for j in partials if j.complete),
            *(j for j in partials if not j.complete),
        ]

    def _final_order(self) -> list[J]:
        """The waiting finals in the order `take` gives them out: round-robin by owner."""
        served = dict(self._served)
        tick = self._tick
        remaining = list(self._finals)
        order: list[J] = []
        while remaining:
            i = min(range(len(remaining)), key=lambda k: (served.get(remaining[k].owner, -1), k))
            job = remaining.pop(i)
            order.append(job)
            tick += 1
            served[job.owner] = tick
        return order

    def running(self) -> list[J]:
        """The jobs in flight, by slot."""
        return [job for job in self._in_flight if job is not None]

    # ------------------------------------------------------------- decisions

    def offer(self, job: J) -> Admission[J]:
        """A new job: queue it, or refuse it; say which waiting jobs it drops."""
        if job.final:
            return self._offer_final(job)
        dropped: tuple[Dropped[J], ...] = ()
        previous = self._partials.get(job.key)
        if previous is not None:
            dropped = (Dropped(previous, f"newer partial for {job.key}"),)
        elif self.pending >= self.max_pending:
            return Admission(False, (), self.pending)
        self._partials[job.key] = job
        return Admission(True, dropped, self.pending)

    def _offer_final(self, job: J) -> Admission[J]:
        dropped: list[Dropped[J]] = []
        previous = self._partials.pop(job.key, None)
        if previous is not None:
            dropped.append(Dropped(previous, f"final for {job.key}"))
        if self.pending >= self.max_pending:
            if not self._partials:
                return Admission(False, tuple(dropped), self.pending)
            # Partials are droppable, finals start turns: make room, with a
            # live partial before a speculation (which may become a final).
            live = [k for k, j in self._partials.items() if not j.complete]
            oldest = self._partials.pop(live[0] if live else next(iter(self._partials)))
            dropped.append(Dropped(oldest, "evicted by a final"))
        self._finals.append(job)
        return Admission(True, tuple(dropped), self.pending)

    def take(self) -> J | None:
        """The next job to run: a final (round-robin by owner, each owner's oldest
        first), else the oldest complete partial (a speculation), else the oldest
        partial."""
        for job in self._final_order():
            self._finals.remove(job)
            if not job.settled:
                self._tick += 1
                self._served[job.owner] = self._tick
                return job
        for key, job in list(self._partials.items()):
            if job.complete:
                del self._partials[key]
                if not job.settled:
                    return job
        while self._partials:
            job = self._partials.pop(next(iter(self._partials)))
            if not job.settled:
                return job
        return None

    def cancel(self, key: str) -> list[J]:
        """Drop every waiting job of `key`; return those and the in-flight one(s).

        The in-flight job stays in its slot until `finish`: the worker is busy
        with it whether or not anyone still wants the answer.
        """
        out: list[J] = []
        partial = self._partials.pop(key, None)
        if partial is not None:
            out.append(partial)
        finals = [j for j in self._finals if j.key == key]
        for job in finals:
            self._finals.remove(job)
        out += finals
        out += [j for j in self._in_flight if j is not None and j.key == key]
        return out

    def drain(self) -> list[J]:
        """Remove every waiting job (the pool closes, or no worker is alive)."""
        out = self.waiting()
        self._finals.clear()
        self._partials.clear()
        return out

    # ------------------------------------------------------------ bookkeeping

    def start(self, slot: int, job: J) -> None:
        """Slot `slot` runs `job` (taken with `take`)."""
        self._in_flight[slot] = job

    def finish(self, slot: int) -> None:
        """Slot `slot` is free again (its job answered, failed or died)."""
        self._in_flight[slot] = None
