"""Open permission-requests (PROTOCOL §9). Real twin: tests/daemon/test_agents.py."""

from __future__ import annotations

import pytest

from vac.errors import VacError
from vac.runtime.permission_desk import MAX_OPEN, OPEN_FOR_S, OpenRequest, PermissionDesk


def req(mid: str, at_s: float = 0.0) -> OpenRequest:
    return OpenRequest(mid, "Kofi", "May I?", at_s)


def test_a_request_is_answered_once_and_reopened_if_the_answer_was_not_written() -> None:
    desk = PermissionDesk()
    desk.open(req("m1"))
    taken = desk.take("m1", 1.0)
    with pytest.raises(VacError) as info:
        desk.take("m1", 1.0)
    assert info.value.code == "invalid_message" and info.value.details == {"message": "m1"}
    desk.reopen(taken)
    assert desk.take("m1", 2.0) == taken


def test_only_a_sole_open_request_is_answered_by_voice() -> None:
    desk = PermissionDesk()
    assert desk.sole(0.0) is None
    desk.open(req("m1"))
    assert desk.sole(0.0) == req("m1")
    desk.open(req("m2"))
    assert desk.sole(0.0) is None  # which one? the steward answers on screen


def test_requests_close_after_a_day_and_are_bounded() -> None:
    desk = PermissionDesk()
    desk.open(req("old", 0.0))
    with pytest.raises(VacError):
        desk.take("old", OPEN_FOR_S + 1)
    for i in range(MAX_OPEN + 5):
        desk.open(req(f"m{i}", 10.0))
    assert len(desk) == MAX_OPEN
    with pytest.raises(VacError):
        desk.take("m0", 11.0)  # the oldest went first
