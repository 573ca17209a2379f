"""The recognition queue policy (vac.speech.stt_queue), without processes:
a golden table of scenarios, and a Hypothesis model of any sequence of calls."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from vac.speech.stt_queue import SttQueue


@dataclass(eq=False)
class Job:
    key: str
    final: bool
    name: str
    settled: bool = False
    complete: bool = False
    owner: str = ""

    def __repr__(self) -> str:
        return self.name


def _job(spec: str) -> Job:
    """`F:a` is a final for key a, `P:a` a partial, `S:a` a speculative final (a
    complete partial); `F:a@bob` is bob's; a suffix names repeats (`P:a#2`)."""
    kind, _, rest = spec.partition(":")
    key, _, owner = rest.split("#")[0].partition("@")
    return Job(key, kind == "F", spec, complete=kind == "S", owner=owner)


# Each scenario: max_pending, then steps. A step is `+spec` (offer), `take`,
# or `cancel key`; with what it answers: for an offer, `ok` or `busy`, then
# the names it dropped and why; for a take, the name taken (or None).
GOLDEN: list[tuple[str, int, list[tuple[str, object]]]] = [
    (
        "finals are taken before partials, each kind oldest first",
        4,
        [
            ("+P:a", ("ok", [])),
            ("+P:b", ("ok", [])),
            ("+F:c", ("ok", [])),
            ("+F:d", ("ok", [])),
            ("take", "F:c"),
            ("take", "F:d"),
            ("take", "P:a"),
            ("take", "P:b"),
            ("take", None),
        ],
    ),
    (
        "a speculative final goes before older live partials, after finals",
        4,
        [
            ("+P:a", ("ok", [])),
            ("+P:b", ("ok", [])),
            ("+S:c", ("ok", [])),
            ("+F:d", ("ok", [])),
            ("take", "F:d"),
            ("take", "S:c"),
            ("take", "P:a"),
            ("take", "P:b"),
        ],
    ),
    (
        "finals are served round-robin by owner, each owner's oldest first",
        8,
        [
            ("+F:a1@alice", ("ok", [])),
            ("+F:a2@alice", ("ok", [])),
            ("+F:a3@alice", ("ok", [])),
            ("+F:b1@bob", ("ok", [])),
            ("take", "F:a1@alice"),
            ("take", "F:b1@bob"),
            ("take", "F:a2@alice"),
            ("+F:c1@carol", ("ok", [])),
            ("take", "F:c1@carol"),
            ("take", "F:a3@alice"),
        ],
    ),
    (
        "full: a final evicts a live partial before a speculation",
        2,
        [
            ("+S:a", ("ok", [])),
            ("+P:b", ("ok", [])),
            ("+F:c", ("ok", [("P:b", "evicted by a final")])),
            ("take", "F:c"),
            ("take", "S:a"),
        ],
    ),
    (
        "a newer partial takes its predecessor's place in the line",
        4,
        [
            ("+P:a", ("ok", [])),
            ("+P:b", ("ok", [])),
            ("+P:a#2", ("ok", [("P:a", "newer partial for a")])),
            ("take", "P:a#2"),
            ("take", "P:b"),
        ],
    ),
    (
        "a final for a key drops its waiting partial",
        4,
        [
            ("+P:a", ("ok", [])),
            ("+F:a", ("ok", [("P:a", "final for a")])),
            ("take", "F:a"),
            ("take", None),
        ],
    ),
    (
        "full: a partial is refused, a final evicts the oldest partial",
        2,
        [
            ("+P:a", ("ok", [])),
            ("+P:b", ("ok", [])),
            ("+P:c", ("busy 2", [])),
            ("+P:a#2", ("ok", [("P:a", "newer partial for a")])),  # replacing needs no room
            # a#2 holds a's place, the oldest: it is the one evicted.
            ("+F:x", ("ok", [("P:a#2", "evicted by a final")])),
            ("take", "F:x"),
            ("take", "P:b"),
        ],
    ),
    (
        "full of finals: a final is refused, yet its key's partial is dropped",
        2,
        [
            ("+F:a", ("ok", [])),
            ("+P:c", ("ok", [])),
            ("+F:b", ("ok", [("P:c", "evicted by a final")])),
            ("+P:z", ("busy 2", [])),
            ("+F:z", ("busy 2", [])),
        ],
    ),
    (
        "full of finals with the key's partial waiting: dropped, then room",
        2,
        [
            ("+F:a", ("ok", [])),
            ("+P:b", ("ok", [])),
            ("+F:b", ("ok", [("P:b", "final for b")])),
            ("+F:c", ("busy 2", [])),
        ],
    ),
    (
        "cancel drops a key's waiting jobs, and only those",
        4,
        [
            ("+F:a", ("ok", [])),
            ("+P:a", ("ok", [])),
            ("+F:b", ("ok", [])),
            ("cancel a", ["P:a", "F:a"]),
            ("take", "F:b"),
            ("take", None),
        ],
    ),
]


@pytest.mark.parametrize(("why", "max_pending", "steps"), GOLDEN, ids=[g[0] for g in GOLDEN])
def test_golden(why: str, max_pending: int, steps: list[tuple[str, object]]) -> None:
    queue: SttQueue[Job] = SttQueue(max_pending, slots=1)
    for step, expected in steps:
        if step.startswith("+"):
            admission = queue.offer(_job(step[1:]))
            verdict = "ok" if admission.queued else f"busy {admission.waiting}"
            dropped = [(d.job.name, d.why) for d in admission.dropped]
            assert (verdict, dropped) == expected, step
        elif step == "take":
            job = queue.take()
            assert (job.name if job else None) == expected, step
        else:
            key = step.removeprefix("cancel ")
            assert [j.name for j in queue.cancel(key)] == expected, step


def test_settled_jobs_are_skipped_and_cancel_names_the_running_one() -> None:
    queue: SttQueue[Job] = SttQueue(4, slots=2)
    a, b, c = _job("F:a"), _job("P:b"), _job("P:c")
    for job in (a, b, c):
        assert queue.offer(job).queued
    a.settled = b.settled = True  # their awaiters were cancelled
    taken = queue.take()
    assert taken is c and queue.take() is None and queue.pending == 0
    queue.start(1, c)
    assert queue.running() == [c]
    assert queue.cancel("c") == [c]  # still in its slot: the worker is busy with it
    assert queue.running() == [c]
    queue.finish(1)
    assert queue.running() == [] and queue.cancel("c") == []


def test_saturated_counts_only_finals_and_drain_empties() -> None:
    queue: SttQueue[Job] = SttQueue(2, slots=1)
    queue.offer(_job("P:a"))
    queue.offer(_job("P:b"))
    assert queue.pending == 2 and not queue.saturated
    queue.offer(_job("F:x"))
    queue.offer(_job("F:y"))
    assert queue.saturated
    assert [j.name for j in queue.drain()] == ["F:x", "F:y"]
    assert queue.pending == 0 and queue.take() is None


def test_bounds_are_checked() -> None:
    with pytest.raises(ValueError):
        SttQueue(0, slots=1)
    with pytest.raises(ValueError):
        SttQueue(1, slots=0)


# ------------------------------------------------------------- stateful

KEYS = st.sampled_from(["a", "b", "c", "d"])


class QueueModel(RuleBasedStateMachine):
    """Every offered job ends exactly one way, and the bounds always hold."""

    def __init__(self) -> None:
        super().__init__()
        self.max_pending = 3
        self.queue: SttQueue[Job] = SttQueue(self.max_pending, slots=2)
        self.count = 0
        # Jobs by their unique names: those the model thinks wait, and those
        # that left (dropped, refused, taken, cancelled or drained).
        self.waiting: set[str] = set()
        self.gone: set[str] = set()
        self.slots: list[Job | None] = [None, None]

    def _gone(self, job: Job) -> None:
        assert job.name in self.waiting, f"{job} left the queue twice"
        self.waiting.discard(job.name)
        self.gone.add(job.name)

    @rule(key=KEYS, final=st.booleans(), complete=st.booleans(), owner=st.sampled_from("xy"))
    def offer(self, key: str, final: bool, complete: bool, owner: str) -> None:
        self.count += 1
        kind = "F" if final else ("S" if complete else "P")
        job = Job(
            key,
            final,
            f"{kind}:{key}@{owner}#{self.count}",
            complete=complete and not final,
            owner=owner,
        )
        before = self.queue.pending
        finals_before = sum(j.final for j in self.queue.waiting())
        admission = self.queue.offer(job)
        for dropped in admission.dropped:
            assert not dropped.job.final, "a final is never dropped"
            self._gone(dropped.job)
        if admission.queued:
            self.waiting.add(job.name)
        else:
            self.gone.add(job.name)
            # Refused only when full, and for a final only when no partial is left to evict.
            assert (finals_before if final else before) >= self.max_pending

    @rule()
    def take(self) -> None:
        waiting = self.queue.waiting()
        job = self.queue.take()
        live = [j for j in waiting if not j.settled]
        if not live:
            assert job is None and self.queue.pending == 0
            for skipped in waiting:
                self._gone(skipped)
            return
        # The oldest final if any, else the oldest speculation, else the oldest partial.
        assert job is live[0]
        for skipped in waiting[: waiting.index(job)]:
            self._gone(skipped)
        self._gone(job)
        free = [i for i, s in enumerate(self.slots) if s is None]
        if free:
            self.queue.start(free[0], job)
            self.slots[free[0]] = job

    @rule(slot=st.sampled_from([0, 1]))
    def finish(self, slot: int) -> None:
        self.queue.finish(slot)
        self.slots[slot] = None

    @precondition(lambda self: bool(self.queue.waiting()))
    @rule(data=st.data())
    def settle(self, data: st.DataObject) -> None:
        job = data.draw(st.sampled_from(self.queue.waiting()))
        job.settled = True  # its awaiter gave up

    @rule(key=KEYS)
    def cancel(self, key: str) -> None:
        running = [s for s in self.slots if s is not None and s.key == key]
        out = self.queue.cancel(key)
        assert all(j.key == key for j in out)
        for job in out:
            if job not in running:
                self._gone(job)
        assert [j for j in out if j in running] == running
        assert all(j.key != key for j in self.queue.waiting())

    @rule()
    def drain(self) -> None:
        for job in self.queue.drain():
            self._gone(job)
        assert self.queue.pending == 0

    @invariant()
    def bounds_hold(self) -> None:
        waiting = self.queue.waiting()
        assert self.queue.pending == len(waiting) <= self.max_pending
        partial_keys = [j.key for j in waiting if not j.final]
        assert len(partial_keys) == len(set(partial_keys)), "one waiting partial per key"
        first_partial = next((i for i, j in enumerate(waiting) if not j.final), len(waiting))
        assert all(not j.final for j in waiting[first_partial:]), "finals before partials"
        assert {j.name for j in waiting} == self.waiting
        assert not self.waiting & self.gone
        assert self.queue.running() == [s for s in self.slots if s is not None]


QueueModel.TestCase.settings = settings(max_examples=200, stateful_step_count=40, deadline=None)
test_queue_model = QueueModel.TestCase
