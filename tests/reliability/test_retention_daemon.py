"""Retention is enforced by the running daemon, not only by `EventLog.prune`."""

from __future__ import annotations

import msgspec
import pytest

from tests.conftest import fast_config, start_daemon
from vac.clock import now_ms
from vac.daemon.config import RetentionSection, VacConfig
from vac.home import Home
from vac.runtime.store import EventLog

pytestmark = pytest.mark.slow
DAY_MS = 86_400_000


def test_daemon_prunes_old_transcripts_and_sessions_at_start(home: Home) -> None:
    old = now_ms() - 40 * DAY_MS
    log = EventLog(home.db_file)
    log.session_opened("old-session", "alice", "t", old)
    log.session_ended("old-session", old)
    log.said("old-session", "alice", "t1", "user", "said", "ancient words", old)
    log.said("old-session", "alice", "t2", "user", "said", "fresh words", now_ms())
    log.close()
    cfg = msgspec.structs.replace(
        fast_config(), retention=RetentionSection(transcripts_days=30, sessions_days=30)
    )
    assert isinstance(cfg, VacConfig)
    d = start_daemon(home, config=cfg)
    try:
        convo = d.query(EventLog.conversation_of, "old-session")
        assert [r["text"] for r in convo] == ["fresh words"]
        assert d.query(EventLog.session_row, "old-session") is None
    finally:
        d.shutdown()


def test_zero_days_keeps_everything(home: Home) -> None:
    old = now_ms() - 400 * DAY_MS
    log = EventLog(home.db_file)
    log.said("s", "alice", "t1", "user", "said", "kept forever", old)
    log.close()
    cfg = msgspec.structs.replace(
        fast_config(), retention=RetentionSection(transcripts_days=0, sessions_days=0)
    )
    d = start_daemon(home, config=cfg)
    try:
        assert [r["text"] for r in d.query(EventLog.conversation_of, "s")] == ["kept forever"]
    finally:
        d.shutdown()
