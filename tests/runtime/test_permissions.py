"""Open permission-requests (PROTOCOL §9). Real twin: tests/daemon/test_agents.py."""

from __future__ import annotations

import msgspec
import pytest

from vac.errors import VacError
from vac.protocol.messages import SquadMessage
from vac.runtime.permission_desk import (
    MAX_OPEN,
    MAX_OPEN_PER_ASKER,
    OPEN_FOR_S,
    OpenRequest,
    PermissionDesk,
    still_open,
)


def req(mid: str, at_s: float = 0.0, asker: str = "kofi") -> OpenRequest:
    return OpenRequest(mid, asker.title(), "May I?", at_s, None, asker)


def test_a_request_is_answered_once_and_reopened_if_the_answer_was_not_written() -> None:
    desk = PermissionDesk()
    desk.open(req("m1"))
    taken = desk.take("m1", 1.0, "granted")
    with pytest.raises(VacError) as info:
        desk.take("m1", 1.0, "denied")
    # Not malformed: no longer open (§6 has no squad code), and what became of it.
    assert info.value.code == "objective_unknown"
    assert info.value.details == {"message": "m1", "status": "granted"}
    assert info.value.message == "that permission-request was answered already: granted"
    desk.reopen(taken)
    assert desk.take("m1", 2.0, "denied") == taken
    with pytest.raises(VacError) as info:
        desk.take("never", 2.0, "denied")
    assert (info.value.code, info.value.details) == ("objective_unknown", {"message": "never"})
    assert info.value.message.startswith("no open permission-request has that id")


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
    with pytest.raises(VacError) as info:
        desk.take("old", OPEN_FOR_S + 1, "granted")
    assert info.value.details == {"message": "old", "status": "expired"}
    assert "expired unanswered" in info.value.message
    for i in range(MAX_OPEN_PER_ASKER + 5):
        desk.open(req(f"m{i}", 10.0))
    assert len(desk) == desk.open_by("kofi") == MAX_OPEN_PER_ASKER
    with pytest.raises(VacError):
        desk.take("m0", 11.0, "granted")  # the oldest went first


def test_one_askers_requests_never_close_anothers() -> None:
    desk = PermissionDesk()
    desk.open(req("kofis", 0.0))
    for i in range(300):
        desk.open(req(f"z{i}", 1.0, "zuri"))
    assert desk.open_by("zuri") == MAX_OPEN_PER_ASKER
    assert desk.take("kofis", 2.0, "granted").message_id == "kofis"
    # Past the daemon-wide bound, whoever has the most open gives way.
    askers = [f"agent{n}" for n in range(MAX_OPEN // MAX_OPEN_PER_ASKER + 1)]
    desk = PermissionDesk()
    desk.open(req("few", 0.0, "few"))
    for asker in askers:
        for i in range(MAX_OPEN_PER_ASKER):
            desk.open(req(f"{asker}-{i}", 1.0, asker))
    assert len(desk) == MAX_OPEN
    assert desk.open_by("few") == 1


def _row(kind: str, mid: str, at_ms: int, principal: str = "kofi") -> dict[str, object]:
    detail = {"message_id": mid, "asked_by": principal.title(), "text": "May I?"}
    return {"kind": kind, "at_ms": at_ms, "principal": principal, "detail": detail}


def test_a_restart_opens_again_what_was_asked_and_not_answered_and_keeps_its_age() -> None:
    day_ms = int(OPEN_FOR_S * 1000)
    now_ms, now_s = 10 * day_ms, 500.0
    rows = [
        _row("permission_requested", "answered", now_ms - 5_000),
        _row("permission_requested", "open", now_ms - 4_000),
        _row("permission_answered", "answered", now_ms - 3_000),
        _row("permission_requested", "stale", now_ms - day_ms - 1),
        {"kind": "permission_requested", "at_ms": now_ms, "detail": {}},  # no id: skipped
    ]
    (request,) = still_open(rows, now_ms, now_s)
    assert (request.message_id, request.asked_by, request.text) == ("open", "Kofi", "May I?")
    assert request.opened_s == now_s - 4.0
    desk = PermissionDesk()
    desk.open(request)
    with pytest.raises(VacError):  # a day after it was asked, not after the restart
        desk.take("open", now_s + OPEN_FOR_S - 3.0, "granted")


def test_a_restart_opens_each_askers_newest_and_reads_row_by_row() -> None:
    rows = [_row("permission_requested", "k", 999, "kofi")]
    rows += [_row("permission_requested", f"m{i}", 1_000 + i, "zuri") for i in range(300)]
    got = still_open(iter(rows), 2_000, 0.0)  # an iterator will do
    assert [r.message_id for r in got[:2]] == ["k", f"m{300 - MAX_OPEN_PER_ASKER}"]
    assert len(got) == 1 + MAX_OPEN_PER_ASKER


def test_the_households_copy_comes_back_from_the_log_or_not_at_all() -> None:
    copy = SquadMessage(
        kind="permission-request",
        sender="Kofi",
        recipients=["steward"],
        text="May I?",
        realm="household",
        time_sensitive=True,
        needs_steward=True,
        duckable=False,
        message_id="m1",
    )
    kept = _row("permission_requested", "m1", 1_000)
    kept["detail"] = {**kept["detail"], "message": msgspec.to_builtins(copy)}  # type: ignore[dict-item]
    broken = _row("permission_requested", "m2", 1_000)
    broken["detail"] = {**broken["detail"], "message": {"kind": 3}}  # type: ignore[dict-item]
    got = {r.message_id: r.message for r in still_open([kept, broken], 2_000, 0.0)}
    assert got == {"m1": copy, "m2": None}  # an unreadable copy never stops the start-up


def test_a_withdrawn_request_stays_closed_after_a_restart_and_says_so_before() -> None:
    rows = [_row("permission_requested", "w", 1_000), _row("permission_withdrawn", "w", 1_500)]
    assert still_open(rows, 2_000, 0.0) == []
    desk = PermissionDesk()
    desk.open(req("w"))
    desk.take("w", 1.0, "withdrawn", lambda r: r.asked_by == "Kofi")
    with pytest.raises(VacError) as info:
        desk.take("w", 1.0, "granted")
    assert info.value.details == {"message": "w", "status": "withdrawn"}
    with pytest.raises(VacError) as info:  # not seen by the one asking: as if never asked
        desk.take("w", 1.0, "withdrawn", lambda r: r.asked_by == "Zuri")
    assert info.value.details == {"message": "w"}
