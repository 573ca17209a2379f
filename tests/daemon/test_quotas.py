"""Rates and the session quota (vac.daemon.quotas), with a clock passed in."""

from __future__ import annotations

import pytest

from vac.daemon import quotas
from vac.daemon.quotas import (
    EarlyGates,
    Full,
    MakeRoom,
    PrincipalBuckets,
    Room,
    SessionQuota,
    TokenBucket,
    retry_after_ms,
)
from vac.protocol.messages import OutputFormat
from vac.runtime.session import Outbox, Replies, Session


def test_a_bucket_bursts_one_second_then_refills() -> None:
    bucket = TokenBucket.full(4.0, now_s=0.0)
    assert [bucket.take(0.0) for _ in range(4)] == [0.0] * 4
    assert bucket.take(0.0) == pytest.approx(0.25)
    assert bucket.take(0.25) == 0.0


def test_retry_after_is_never_zero() -> None:
    assert retry_after_ms(0.0001) == 1
    assert retry_after_ms(0.25) == 250


def test_an_early_flood_gets_one_refusal_then_silence_until_it_pauses() -> None:
    gates = EarlyGates(rate_per_s=2.0)
    assert gates.admit(b"r", 0.0) == 0.0
    assert gates.admit(b"r", 0.0) == 0.0
    assert gates.admit(b"r", 0.0) == pytest.approx(0.5)  # answered once
    assert gates.admit(b"r", 0.1) is None  # then dropped
    assert gates.admit(b"other", 0.1) == 0.0  # per connection
    assert gates.admit(b"r", 1.1) == 0.0  # refilled: the client paused
    assert gates.admit(b"r", 1.1) == 0.0
    assert gates.admit(b"r", 1.1) == pytest.approx(0.5)


def test_early_gates_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(quotas, "MAX_TRACKED_CONNECTIONS", 2)
    gates = EarlyGates(rate_per_s=1.0)
    for rid in (b"a", b"b", b"c"):
        assert gates.admit(rid, 0.0) == 0.0
    assert len(gates._gates) == 2 and b"a" not in gates._gates


def test_principal_refusal_is_a_retryable_rate_limited() -> None:
    buckets = PrincipalBuckets(1.0)
    assert buckets.refusal("alice", "m1", 0.0) is None
    refusal = buckets.refusal("alice", "m2", 0.0)
    assert refusal is not None and refusal.code == "rate_limited" and refusal.retryable
    assert refusal.ref == "m2" and refusal.details == {"retry_after_ms": 1000}
    assert buckets.refusal("bob", "m3", 0.0) is None  # per principal


def session(last_seen_s: float) -> Session:
    return Session(
        f"s{last_seen_s}",
        "alice",
        "t",
        OutputFormat(rate=16000, speak=False),
        Outbox(1, 1),
        Replies(1),
        b"r",
        last_seen_s=last_seen_s,
    )


def test_the_quota_counts_hellos_in_flight() -> None:
    quota = SessionQuota(max_per_principal=2, heartbeat_s=1.0)
    assert quota.check("alice", [], 0.0) == Room()
    quota.reserve("alice")
    quota.reserve("alice")
    assert quota.check("alice", [], 0.0) == Full()  # all of it is hellos in flight
    quota.release("alice")
    assert quota.opening == {"alice": 1}
    quota.release("alice")
    assert quota.opening == {}


def test_at_the_quota_a_silent_session_makes_room() -> None:
    quota = SessionQuota(max_per_principal=2, heartbeat_s=1.0)
    old, new = session(0.0), session(5.0)
    assert quota.check("alice", [old, new], 0.5) == Full()  # heard from within a heartbeat
    assert quota.check("alice", [old, new], 5.5) == MakeRoom(old)


def test_typed_text_is_charged_by_its_length_per_principal() -> None:
    """An adversarial probe stalled every principal with 2000-character texts
    well inside the message rate: understanding costs the loop by length."""
    from vac.daemon.quotas import PrincipalBuckets, TextBudget, refusal
    from vac.protocol.messages import ObjectiveReject, TextInput

    budget = TextBudget(1000.0)  # holds the longest text's cost: 10,000
    rate = PrincipalBuckets(400.0)
    long = TextInput(id="t", text="x" * 2000)
    assert refusal(rate, budget, "alice", long, 0.0) is None
    third = refusal(rate, budget, "alice", long, 0.0)
    assert third is not None and third.code == "rate_limited" and third.ref == "t"
    assert third.details == {"retry_after_ms": 10_000}  # a cost of 10,000 at 1000 a second
    assert "too much text" in third.message
    assert refusal(rate, budget, "bob", long, 0.0) is None  # another principal's own budget
    assert refusal(rate, budget, "alice", TextInput(id="s", text="yes"), 0.1) is None  # refilled
    never = ObjectiveReject(id="r", objective_id="o")  # control: no budget at all
    assert all(refusal(rate, budget, "alice", never, 0.1) is None for _ in range(1000))


def test_the_longest_text_always_fits_a_small_budget_in_time() -> None:
    """A review: at 100 characters a second the bucket held 400, and a text of
    2000 was refused, "retryable", forever."""
    from vac.daemon.quotas import TextBudget

    budget = TextBudget(100.0)
    assert budget.refusal("alice", "a", 2000, 0.0) is None  # the bucket holds the longest
    again = budget.refusal("alice", "b", 2000, 0.0)
    assert again is not None and again.details == {"retry_after_ms": 100_000}
    assert budget.refusal("alice", "b", 2000, 100.0) is None  # as the retry said


def test_short_commands_typed_back_to_back_are_never_refused() -> None:
    """A harness typing 60-character commands at 100 a second (the default
    budget), while long texts are held to about one a second."""
    from vac.daemon.quotas import TextBudget

    budget = TextBudget(8000.0)
    assert all(budget.refusal("h", f"c{i}", 60, i / 100) is None for i in range(3000))
    assert TextBudget.cost(60) < 70 and TextBudget.cost(2000) == 10_000
