"""Synthesis scheduling: first phrases first, principals in turn, bounded, cancellable."""

from __future__ import annotations

import threading
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vac.runtime.synthesis import FairQueue, SchedulerFull, SynthesisScheduler


def drain(q: FairQueue[str]) -> list[str]:
    out = []
    while (job := q.pop()) is not None:
        out.append(job)
    return out


def test_first_phrases_go_before_later_ones_and_principals_take_turns() -> None:
    q: FairQueue[str] = FairQueue()
    # Alice's long reply is queued whole before Bob's and Carol's replies begin.
    for i in range(4):
        q.push("alice", i == 0, f"a{i}")
    q.push("bob", True, "b0")
    q.push("bob", False, "b1")
    q.push("carol", True, "c0")
    assert drain(q) == ["a0", "b0", "c0", "a1", "b1", "a2", "a3"]


def test_a_principal_over_its_bound_is_refused_with_busy_and_others_are_not() -> None:
    dead: set[str] = set()
    q: FairQueue[str] = FairQueue(max_pending=2, dead=lambda job: job in dead)
    q.push("alice", True, "a0")
    q.push("alice", True, "a1")
    with pytest.raises(SchedulerFull) as refused:
        q.push("alice", True, "a2")  # a third reply waiting to begin
    assert refused.value.code == "busy"
    q.push("alice", False, "a0+")  # a reply that has begun is never cut
    q.push("bob", True, "b0")  # Bob is not slowed by Alice
    dead.add("a1")  # cancelled while it waited: its place is free again
    q.push("alice", True, "a3")
    assert drain(q) == ["a0", "b0", "a3", "a0+"]


@given(
    st.lists(st.tuples(st.sampled_from(["a", "b", "c"]), st.booleans()), min_size=0, max_size=40)
)
def test_every_job_comes_out_once_urgent_first_and_each_principal_in_order(
    pushes: list[tuple[str, bool]],
) -> None:
    q: FairQueue[tuple[str, bool, int]] = FairQueue(max_pending=100)
    for n, (who, urgent) in enumerate(pushes):
        q.push(who, urgent, (who, urgent, n))
    out = []
    while (job := q.pop()) is not None:
        out.append(job)
    assert sorted(out, key=lambda j: j[2]) == [(w, u, n) for n, (w, u) in enumerate(pushes)]
    urgency = [u for _, u, _ in out]
    assert urgency == sorted(urgency, reverse=True)  # all urgent ones first
    for who in "abc":
        for urgent in (True, False):
            order = [n for w, u, n in out if w == who and u == urgent]
            assert order == sorted(order)
    assert len(q) == 0


def test_the_scheduler_runs_jobs_on_its_workers_in_the_queue_order() -> None:
    gate = threading.Event()
    ran: list[str] = []

    def job(name: str) -> str:
        gate.wait(5)
        ran.append(name)
        return name.upper()

    sched = SynthesisScheduler(workers=1)
    try:
        blocker = sched.submit("alice", True, job, "a0")  # occupies the only worker
        while sched.pending():  # until the worker has taken it
            time.sleep(0.005)
        later = [sched.submit("alice", False, job, f"a{i}") for i in (1, 2)]
        first = sched.submit("bob", True, job, "b0")
        gate.set()
        assert first.result(5) == "B0"
        assert [f.result(5) for f in later] == ["A1", "A2"]
        assert blocker.result(5) == "A0"
        assert ran == ["a0", "b0", "a1", "a2"]
    finally:
        sched.shutdown()


def test_a_cancelled_job_never_runs_and_errors_reach_the_caller() -> None:
    gate = threading.Event()
    ran: list[str] = []

    def job(name: str) -> str:
        gate.wait(5)
        ran.append(name)
        if name == "boom":
            raise ValueError("synthesis failed")
        return name

    sched = SynthesisScheduler(workers=1)
    try:
        sched.submit("alice", True, job, "first")
        while sched.pending():  # until the worker has taken it
            time.sleep(0.005)
        dropped = sched.submit("alice", False, job, "dropped")
        failing = sched.submit("alice", False, job, "boom")
        assert dropped.cancel()
        gate.set()
        with pytest.raises(ValueError, match="synthesis failed"):
            failing.result(5)
        assert "dropped" not in ran
    finally:
        sched.shutdown()


def test_shutdown_cancels_what_waits_and_refuses_more() -> None:
    gate, started = threading.Event(), threading.Event()

    def job(timeout_s: float) -> bool:
        started.set()
        return gate.wait(timeout_s)

    sched = SynthesisScheduler(workers=1)
    running = sched.submit("alice", True, job, 5)
    assert started.wait(5)  # the worker holds it: shutdown cannot cancel it
    waiting = sched.submit("alice", False, job, 5)
    sched.shutdown()
    gate.set()
    assert waiting.cancelled()
    assert running.result(5) is True
    with pytest.raises(RuntimeError, match="shut down"):
        sched.submit("alice", True, job, 0)
