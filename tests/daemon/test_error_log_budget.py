"""`error_sent` lines are bounded per principal and code (vac.daemon.egress):
a client sending bad messages as fast as it may cannot fill the journal."""

from __future__ import annotations

from vac.daemon.egress import ERROR_LINES_PER_MIN, ERROR_LOG_WINDOW_S, ErrorLogBudget


def test_ten_lines_a_minute_then_the_rest_are_counted_and_said_later() -> None:
    now = [0.0]
    budget = ErrorLogBudget(lambda: now[0])
    said = [budget.allow("alice", "chunk_invalid") for _ in range(1000)]
    assert sum(write for write, _ in said) == ERROR_LINES_PER_MIN
    assert all(left_out == 0 for _, left_out in said)
    # Another code and another principal have their own budget.
    assert budget.allow("alice", "stream_closed") == (True, 0)
    assert budget.allow("bob", "chunk_invalid") == (True, 0)
    now[0] += ERROR_LOG_WINDOW_S
    assert budget.allow("alice", "chunk_invalid") == (True, 1000 - ERROR_LINES_PER_MIN)
    assert budget.allow("alice", "chunk_invalid") == (True, 0)


def test_before_hello_the_connection_has_one_budget_per_code() -> None:
    budget = ErrorLogBudget(lambda: 0.0)
    assert [budget.allow(None, "handshake_required")[0] for _ in range(12)].count(True) == 10
