"""The objective lifecycle table (PROTOCOL §9): a golden table and its laws."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vac.protocol.objective_lifecycle import (
    ANSWERS,
    COMMITTED,
    EVENTS,
    FINAL,
    STATUSES,
    TRANSITIONS,
    TransitionInvalid,
    is_final,
    next_status,
)

# The path every objective takes, written out by hand from §9.
GOLDEN = [
    ("draft", "confirm", "confirmed"),
    ("draft", "reject", "rejected"),
    ("draft", "withdraw", "withdrawn"),
    ("draft", "expire", "expired"),
    ("confirmed", "offer", "offered"),
    ("offered", "accept", "accepted"),
    ("offered", "counter-offer", "countered"),
    ("offered", "defer", "deferred"),
    ("offered", "clarify", "clarifying"),
    ("offered", "refuse", "refused"),
    ("accepted", "in-progress", "in-progress"),
    ("in-progress", "in-progress", "in-progress"),
    ("in-progress", "done", "done"),
    ("in-progress", "failed", "failed"),
    ("accepted", "withdraw", "withdrawn"),
    ("in-progress", "withdraw", "withdrawn"),
    ("deferred", "withdraw", "withdrawn"),
    ("countered", "expire", "expired"),
    ("refused", "confirm", "confirmed"),
]


@pytest.mark.parametrize(("status", "event", "after"), GOLDEN)
def test_golden_transitions(status: str, event: str, after: str) -> None:
    assert next_status("o", status, event) == after  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("status", "event"),
    [
        ("draft", "accept"),  # an agent never answers an unconfirmed draft
        ("draft", "offer"),
        ("confirmed", "accept"),  # answered only once offered
        ("accepted", "accept"),  # an answer is given once
        ("offered", "done"),
        ("accepted", "done"),  # §9: accepted → in-progress → done | failed
        ("accepted", "failed"),
        ("refused", "withdraw"),  # settled for the agent
        ("done", "failed"),
        ("withdrawn", "in-progress"),
    ],
)
def test_what_does_not_apply_is_objective_invalid(status: str, event: str) -> None:
    with pytest.raises(TransitionInvalid) as info:
        next_status("o", status, event)  # type: ignore[arg-type]
    assert info.value.code == "objective_invalid"
    assert info.value.details == {"status": status}


def test_a_report_that_skips_in_progress_says_what_comes_first() -> None:
    with pytest.raises(TransitionInvalid) as info:
        next_status("o", "accepted", "done")
    assert info.value.message == "objective is accepted; it cannot take 'done' now" + (
        " (report 'in-progress' first)"
    )
    with pytest.raises(TransitionInvalid) as info:
        next_status("o", "done", "in-progress", "blocked")  # as the agent said it
    assert info.value.message == "objective is done; it cannot take 'blocked' now"


def test_final_states_have_no_way_out() -> None:
    for (status, _event), _after in TRANSITIONS.items():
        assert not is_final(status)


def test_every_state_not_final_can_be_withdrawn_except_refused() -> None:
    for status in STATUSES:
        if status in FINAL or status == "refused":
            continue
        assert TRANSITIONS[(status, "withdraw")] == "withdrawn"
        assert TRANSITIONS[(status, "expire")] == "expired"


def test_answers_and_commitments_are_states() -> None:
    assert set(ANSWERS.values()) <= set(STATUSES)
    assert set(ANSWERS) <= set(EVENTS)
    assert {"accepted", "in-progress"} == COMMITTED


@given(st.lists(st.sampled_from(EVENTS), max_size=30))
def test_any_event_sequence_stays_in_the_table(events: list[str]) -> None:
    status = "draft"
    for event in events:
        try:
            after = next_status("o", status, event)  # type: ignore[arg-type]
        except TransitionInvalid as exc:
            assert exc.details == {"status": status}
            continue
        assert after in STATUSES
        assert not is_final(status)
        status = after
