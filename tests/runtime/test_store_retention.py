"""Retention: what `EventLog.prune` deletes at a frozen time, and auth failures kept bounded."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from vac.daemon.config import RetentionSection
from vac.runtime.store import EventLog, ObjectiveRow, Outcome, Said, Step, StreamRow

NOW_MS = 1_700_000_000_000
DAY_MS = 86_400_000


def ago(days: int) -> int:
    return NOW_MS - days * DAY_MS


@pytest.fixture
def log(tmp_path: Path) -> Iterator[EventLog]:
    log = EventLog(tmp_path / "vac.db")
    yield log
    log.close()


# id: (created, last seen, ended)
SESSIONS: dict[str, tuple[int, int, int | None]] = {
    "ended_old": (ago(60), ago(40), ago(31)),
    "idle_open": (ago(60), ago(31), None),  # never ended, gone quiet: abandoned
    "open": (ago(100), ago(1), None),
    "ended_recent": (ago(60), ago(40), ago(29)),
    "boundary": (ago(60), ago(30), None),  # exactly 30 days: kept
}
# id: (state, refused, updated)
OBJECTIVES: dict[str, tuple[str, bool, int]] = {
    "pending_old": ("pending", False, ago(400)),
    "rejected_old": ("rejected", False, ago(10)),
    "expired_new": ("expired", False, ago(3)),
    "withdrawn_refused": ("withdrawn", True, ago(10)),
    "confirmed_old": ("confirmed", False, ago(400)),
    "refused_old": ("refused", True, ago(400)),
}


def populate(log: EventLog) -> None:
    for sid, (created, seen, ended) in SESSIONS.items():
        log.session_opened(sid, "alice", "cli", created)
        log.session_seen(sid, seen)
        if ended is not None:
            log.session_ended(sid, ended)
    outcomes = [("ended_old", "a", ago(35)), ("ended_old", "b", ago(32))]
    outcomes += [("idle_open", "c", ago(31)), ("ghost", "g1", ago(31)), ("ghost", "g2", ago(1))]
    outcomes += [("open", f"m{i:02}", ago(50) + i) for i in range(20)]
    objectives = [
        ObjectiveRow(
            objective_id=oid,
            principal="alice",
            session="open",
            revision=1,
            state=state,
            body=b"{}",
            created_at_ms=updated,
            expires_at_ms=updated,
            updated_at_ms=updated,
            refused=refused,
        )
        for oid, (state, refused, updated) in OBJECTIVES.items()
    ]
    said = [
        Said(
            session="open", principal="alice", turn=None, role="user", kind="said", text=t, at_ms=at
        )
        for t, at in [("old", ago(31)), ("boundary", ago(30)), ("new", ago(1))]
    ]
    log.commit(Step(objectives=objectives, said=said))
    for session, msg_id, at_ms in outcomes:
        log.commit(
            Step(
                outcome=Outcome(
                    session=session, msg_id=msg_id, principal="alice", at_ms=at_ms, replies=b""
                )
            )
        )
    log.audit(ago(100), "old", "alice", {})
    log.audit(ago(1), "new", "alice", {})
    streams = [("ended_old", "e1", ago(35)), ("idle_open", "i1", ago(31)), ("open", "o1", ago(50))]
    streams += [("ghost", "x1", ago(31)), ("ghost", "x2", ago(1))]
    for session, stream, at_ms in streams:
        log.stream_closed(
            StreamRow(
                session=session,
                stream=stream,
                principal="alice",
                closed_at_ms=at_ms,
                state="committed",
                outcome=b"",
            ),
            keep=8,
        )


def remaining(log: EventLog) -> dict[str, Any]:
    db = log._db
    return {
        "sessions": {r[0] for r in db.execute("SELECT id FROM sessions")},
        "conversation": [r[0] for r in db.execute("SELECT text FROM conversation ORDER BY id")],
        "objectives": {r[0] for r in db.execute("SELECT id FROM objectives")},
        "audit": [r[0] for r in db.execute("SELECT kind FROM audit ORDER BY id")],
        "outcomes": {
            r[0]: r[1]
            for r in db.execute(
                "SELECT session, group_concat(msg_id) FROM outcomes GROUP BY session"
            )
        },
        "input_streams": {r[0] for r in db.execute("SELECT stream FROM input_streams")},
    }


def test_prune_golden(log: EventLog) -> None:
    populate(log)
    counts = log.prune(
        NOW_MS,
        transcripts_days=30,
        sessions_days=30,
        drafts_days=7,
        objectives_days=0,
        audit_days=0,
        max_outcomes_per_session=16,
    )
    # outcomes: 2 of ended_old, 1 of idle_open, the old ghost, 4 trimmed from open;
    # input streams go with their sessions like outcomes (and an old ghost's)
    assert counts == {
        "conversation": 1,
        "sessions": 2,
        "outcomes": 8,
        "input_streams": 3,
        "objectives": 1,
        "audit": 0,
    }
    after = remaining(log)
    assert after["sessions"] == {"open", "ended_recent", "boundary"}
    assert after["conversation"] == ["boundary", "new"]
    assert after["objectives"] == set(OBJECTIVES) - {"rejected_old"}
    assert after["audit"] == ["old", "new"]
    newest_16 = ",".join(f"m{i:02}" for i in range(4, 20))
    assert sorted(after["outcomes"]["open"].split(",")) == newest_16.split(",")
    assert after["outcomes"] == {"open": after["outcomes"]["open"], "ghost": "g2"}
    assert after["input_streams"] == {"o1", "x2"}

    counts = log.prune(
        NOW_MS,
        transcripts_days=0,
        sessions_days=0,
        drafts_days=0,
        objectives_days=365,
        audit_days=90,
        max_outcomes_per_session=16,
    )
    assert counts == {
        "conversation": 0,
        "sessions": 0,
        "outcomes": 0,
        "input_streams": 0,
        "objectives": 2,
        "audit": 1,
    }
    after = remaining(log)
    # pending never goes; a refused draft is kept for as long as other objectives
    assert after["objectives"] == {"pending_old", "expired_new", "withdrawn_refused"}
    assert after["audit"] == ["new"]
    assert after["conversation"] == ["boundary", "new"]  # 0 keeps forever


def test_config_section_is_prunes_keywords(log: EventLog) -> None:
    populate(log)
    counts = log.prune(NOW_MS, **msgspec.structs.asdict(RetentionSection()))
    assert counts == {
        "conversation": 1,
        "sessions": 2,
        "outcomes": 4,
        "input_streams": 3,
        "objectives": 0,
        "audit": 0,
    }


def test_auth_failures_are_one_bounded_row(log: EventLog) -> None:
    counts = {f"fp{i:02}": i + 1 for i in range(40)}  # fp39 the most frequent
    log.audit(1, "key_enrolled", "alice", {})
    log.auth_failures(5, counts)
    rows = [r for r in log.audit_rows() if r["kind"] == "auth_failed"]
    assert len(rows) == 1
    (row,) = rows
    assert row["principal"] is None and row["at_ms"] == 5
    assert row["detail"]["total"] == sum(range(1, 41))
    assert row["detail"]["distinct_keys"] == 40
    assert set(row["detail"]["keys"]) == {f"fp{i:02}" for i in range(8, 40)}
    log.auth_failures(6, {})  # a quiet interval writes nothing
    assert len(log.audit_rows()) == 2


def test_auth_failures_keep_only_the_newest_rows(log: EventLog) -> None:
    log.audit(1, "key_enrolled", "alice", {})
    for at_ms in range(10, 15):
        log.auth_failures(at_ms, {"fp": 1}, cap_rows=3)
    kept = [(r["kind"], r["at_ms"]) for r in log.audit_rows()]
    assert kept == [
        ("key_enrolled", 1),
        ("auth_failed", 12),
        ("auth_failed", 13),
        ("auth_failed", 14),
    ]
    with pytest.raises(ValueError, match="cap_rows"):
        log.auth_failures(20, {"fp": 1}, cap_rows=0)


def test_session_rows_per_principal_are_bounded(log: EventLog) -> None:
    """A client-author probe: `hello` at 325/s (under the message quota) made
    one session row each, kept 30 days. Past the bound the least recently
    seen of that principal's sessions go, with their stored outcomes; no
    other principal's."""
    from vac.runtime.store.writes import MAX_SESSION_ROWS_PER_PRINCIPAL as cap

    log.session_opened("bob-1", "bob", "cli", 1)
    log.commit(
        Step(outcome=Outcome(session="a0", msg_id="m", principal="alice", at_ms=1, replies=b"x"))
    )
    log.session_opened("a0", "alice", "cli", 10)
    log.session_seen("a0", 10 + cap + 100)  # seen lately: kept though the oldest opened
    for n in range(1, cap + 5):
        log.session_opened(f"a{n}", "alice", "cli", 10 + n)
    assert log.session_row("a0") is not None and log.outcomes_of("a0", 10)
    assert log.session_row("bob-1") is not None
    kept = [n for n in range(cap + 5) if log.session_row(f"a{n}") is not None]
    assert len(kept) == cap and kept[:2] == [0, 6]  # a1…a5 went: least recently seen
    # Sessions the daemon holds (attached, or kept for resume) are never pushed out.
    log.session_opened("a-new", "alice", "cli", 10 + cap + 200, held=["a6"])
    assert log.session_row("a6") is not None  # the oldest, held: kept (one row over the bound)
    log.session_opened("a-newer", "alice", "cli", 10 + cap + 300, held=["a6"])
    assert log.session_row("a6") is not None and log.session_row("a7") is None
