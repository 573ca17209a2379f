"""`objective.list` (PROTOCOL §9) over real sockets, and `vac objectives`."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import RunningDaemon
from vac.client.connection import Connection
from vac.protocol.messages import (
    Error,
    ObjectiveConfirm,
    ObjectiveDraft,
    ObjectiveList,
    ObjectiveListResult,
    ObjectiveReject,
    TextInput,
    TurnDone,
)

pytestmark = pytest.mark.slow


def draft(c: Connection, text: str) -> str:
    c.send(TextInput(id=c.next_id(), text=text))
    found = [m for m, _ in c.recv_until(lambda m: isinstance(m, TurnDone), 10)]
    return next(m.objective.id for m in found if isinstance(m, ObjectiveDraft))


def listing(c: Connection, **kw: object) -> ObjectiveListResult:
    c.send(ObjectiveList(id=c.next_id(), **kw))  # type: ignore[arg-type]
    return c.expect(ObjectiveListResult, 5)


def test_lists_only_the_principals_own_objectives_by_state(daemon: RunningDaemon) -> None:
    alice, bob = daemon.connect("alice"), daemon.connect("bob")
    alice.hello()
    bob.hello()
    a1 = draft(alice, "ask Kofi to build a bench by the pond")
    a2 = draft(alice, "tell Zuri to repair the garden gate")
    a3 = draft(alice, "have Tariq investigate the noise in the barn")
    b1 = draft(bob, "ask Abeni to map the grove path")
    alice.send(ObjectiveReject(id="r", objective_id=a2))
    alice.recv_until(lambda m: isinstance(m, TurnDone), 10)
    alice.send(ObjectiveConfirm(id="c", objective_id=a3))
    alice.recv_until(lambda m: isinstance(m, TurnDone), 10)

    everything = listing(alice)
    ids = [o.id for o in everything.objectives]
    assert set(ids) == {a1, a2, a3} and b1 not in ids  # newest first, hers only
    assert ids[0] == a3 and not everything.more
    assert [o.id for o in listing(alice, state="draft").objectives] == [a1]
    assert [o.id for o in listing(alice, state="rejected").objectives] == [a2]
    assert [o.id for o in listing(bob).objectives] == [b1]
    limited = listing(alice, limit=1)
    assert len(limited.objectives) == 1 and limited.more
    page2 = listing(alice, limit=2, before=limited.objectives[0].id)
    assert [o.id for o in page2.objectives] == ids[1:] and not page2.more
    alice.send(ObjectiveList(id="theirs", before=b1))
    refused = alice.expect(Error, 5)
    assert refused.code == "objective_unknown"  # as for an id no one has
    alice.send(ObjectiveList(id="bad", limit=51))
    assert alice.expect(Error, 5).code == "invalid_message"


def test_vac_objectives_cli(daemon: RunningDaemon) -> None:
    c = daemon.connect("alice")
    c.hello()
    oid = draft(c, "ask Kofi to build a bench by the pond")
    base = [sys.executable, "-m", "vac.cli", "objectives", "--home", str(daemon.home.root)]
    base += ["--key", str(daemon.home.clients_dir / "alice.key_secret")]
    env = {**os.environ, "VAC_CONNECT": daemon.endpoint}

    res = subprocess.run(
        [*base, "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert res.returncode == 0, res.stderr
    rows = [json.loads(line) for line in res.stdout.splitlines()]
    assert [r["id"] for r in rows] == [oid]
    human = subprocess.run(
        [*base, "--state", "draft"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert human.returncode == 0 and oid in human.stdout and "Traceback" not in human.stderr
    newer = draft(c, "tell Zuri to repair the garden gate")
    first = subprocess.run(
        [*base, "--limit", "1"], capture_output=True, text=True, timeout=60, env=env
    )
    assert newer in first.stdout and oid not in first.stdout
    key = daemon.home.clients_dir / "alice.key_secret"
    hint = f"vac objectives --limit 1 --home {daemon.home.root} --key {key} --before {newer}"
    assert hint in first.stderr, first.stderr  # how to see the older ones
    rest = subprocess.run(
        [*base, "--limit", "1", "--before", newer],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert rest.returncode == 0 and oid in rest.stdout and "older ones" not in rest.stderr
