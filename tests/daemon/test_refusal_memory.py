"""Refusal memory over real sockets: each principal's newest refusals are
kept (`max_remembered_refusals`), in memory and across a restart; pushing
one of those again is coercion, refused and audited; an older one is
forgotten, as any settled objective the daemon no longer holds."""

from __future__ import annotations

import pytest

from tests.conftest import RunningDaemon, fast_config, start_daemon
from vac.client.connection import Connection
from vac.home import Home
from vac.protocol.messages import (
    Error,
    Negotiation,
    ObjectiveConfirm,
    ObjectiveDraft,
    TextInput,
    TurnDone,
)
from vac.runtime.store import EventLog

pytestmark = pytest.mark.slow


def refused(c: Connection, n: int) -> str:
    """A value-crossing ask (a new target each time), confirmed: refused."""
    c.send(TextInput(id=c.next_id(), text=f"ask Abeni to support the story {n} and mislead them"))
    oid = c.expect(ObjectiveDraft).objective.id
    c.expect(TurnDone)
    assert pushed(c, oid) == "refuse"
    return oid


def pushed(c: Connection, oid: str) -> str:
    """Confirm `oid`: the negotiation's decision, or the error's code."""
    c.send(ObjectiveConfirm(id=c.next_id(), objective_id=oid))
    while True:
        msg, _ = c.recv(timeout_s=10)
        if isinstance(msg, Error):
            return msg.code
        if isinstance(msg, Negotiation):
            c.expect(TurnDone)
            return msg.decision


def coercions(daemon: RunningDaemon) -> int:
    rows = daemon.query(EventLog.audit_rows, "alice")
    return sum("coercion" in r["detail"].get("tags", []) for r in rows)


def kept(daemon: RunningDaemon) -> int:
    return int(daemon.call(lambda: daemon.server.pipeline.book.refusals_kept("alice")))


def test_the_newest_refusals_are_kept_across_a_restart(home: Home) -> None:
    config = fast_config(max_remembered_refusals=2)
    d = start_daemon(home, config=config)
    try:
        alice = d.connect()
        alice.hello()
        oids = [refused(alice, n) for n in range(3)]
        assert kept(d) == 2
        assert pushed(alice, oids[0]) == "objective_unknown"  # forgotten: not held
        assert pushed(alice, oids[2]) == "refuse"
        assert coercions(d) == 1  # pushed again: coercion, audited
    finally:
        d.shutdown()
    d = start_daemon(home, config=config)
    try:
        assert kept(d) == 2
        alice = d.connect()
        alice.hello()
        assert pushed(alice, oids[1]) == "refuse"
        assert coercions(d) == 2
        assert pushed(alice, oids[0]) == "objective_unknown"
    finally:
        d.shutdown()
