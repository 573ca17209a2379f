"""Decisions racing later input, other sessions and failing writes.

Each test here reproduced a bug found in review of the write-then-acknowledge
change; they use a real daemon and real sockets, with the pipeline's commit
wrapped to be slow or to fail like a full disk.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import pytest

from tests.conftest import RunningDaemon
from vac.client.connection import Connection
from vac.protocol.messages import (
    Error,
    ObjectiveConfirm,
    ObjectiveConfirmed,
    ObjectiveDraft,
    ObjectiveList,
    ObjectiveListResult,
    ObjectiveReject,
    OutboundMessage,
    Ping,
    Pong,
    TextInput,
    TranscriptFinal,
    TurnDone,
)
from vac.runtime.store import EventLog, StorageUnavailable

pytestmark = pytest.mark.slow


def until_done(c: Connection) -> list[OutboundMessage]:
    return [m for m, _ in c.recv_until(lambda m: isinstance(m, TurnDone), 10)]


def draft(c: Connection, text: str) -> str:
    c.send(TextInput(id=c.next_id(), text=text))
    return next(m for m in until_done(c) if isinstance(m, ObjectiveDraft)).objective.id


def slow_commits(d: RunningDaemon, *, delay_s: float, fail: bool = False) -> Callable[[], None]:
    """Every decision write takes `delay_s`, and fails like a full disk if `fail`."""
    pipeline: Any = d.server.pipeline
    real = type(pipeline).commit

    async def commit(step: Any) -> None:
        await asyncio.sleep(delay_s)
        if fail:
            raise StorageUnavailable("the event log could not be written (test)")
        await real(pipeline, step)

    d.call(lambda: setattr(pipeline, "commit", commit))
    return lambda: d.call(lambda: pipeline.__dict__.pop("commit", None))


def test_a_draft_behind_a_slow_reject_is_shown_not_left_pending_unseen(
    daemon: RunningDaemon,
) -> None:
    c = daemon.connect()
    c.hello()
    x = draft(c, "ask Kofi to build a bench by the pond by tomorrow")
    y = draft(c, "have Tariq investigate the noise in the barn")
    restore = slow_commits(daemon, delay_s=0.2)
    c.send(ObjectiveReject(id="r0", objective_id=x))
    c.send(TextInput(id="t1", text="tell Zuri to repair the garden gate"))
    c.send(ObjectiveReject(id="r2", objective_id=y))
    got = list(c.drain(1.5))
    restore()
    shown = [m.objective for m in got if isinstance(m, ObjectiveDraft)]
    assert [o.agent for o in shown] == ["Zuri"]  # every draft that exists was shown
    # Its turn announced it before anything after it ended the turn.
    t1_turn = next(m.turn for m in got if isinstance(m, ObjectiveDraft))
    done = [m for m in got if isinstance(m, TurnDone) and m.turn == t1_turn]
    assert got.index(done[0]) > next(i for i, m in enumerate(got) if isinstance(m, ObjectiveDraft))


def test_a_failed_draft_write_is_reported_and_the_same_id_can_be_retried(
    daemon: RunningDaemon,
) -> None:
    c = daemon.connect()
    c.hello()
    restore = slow_commits(daemon, delay_s=0.2, fail=True)
    c.send(TextInput(id="t1", text="ask Kofi to build a bench by the pond by tomorrow"))
    time.sleep(0.05)
    c.send(TextInput(id="t2", text="maybe the weather is nice"))  # held behind the write
    got = list(c.drain(1.5))
    restore()
    errors = [m for m in got if isinstance(m, Error)]
    assert errors and errors[0].code == "provider_unavailable" and errors[0].ref == "t1"
    first_done = next(m for m in got if isinstance(m, TurnDone))
    assert first_done.status == "failed"  # not cancelled by the held t2
    assert got.index(errors[0]) < got.index(first_done)
    c.send(TextInput(id="t1", text="ask Kofi to build a bench by the pond by tomorrow"))
    assert any(isinstance(m, ObjectiveDraft) for m in until_done(c))  # executed now


def test_a_repeated_confirm_id_is_answered_once_with_its_outcome(daemon: RunningDaemon) -> None:
    c = daemon.connect()
    c.hello()
    x = draft(c, "ask Kofi to build a bench by the pond by tomorrow")
    c.send(ObjectiveConfirm(id="c1", objective_id=x))
    until_done(c)
    c.send(ObjectiveConfirm(id="c1", objective_id=x))
    again = list(c.drain(1.0))
    assert sum(isinstance(m, ObjectiveConfirmed) for m in again) == 1, again
    assert sum(isinstance(m, TurnDone) for m in again) == 1, again  # its turn ends again
    c.send(TextInput(id="t1", text="ask Zuri to map the river by Friday"))
    until_done(c)
    c.send(TextInput(id="t1", text="ask Zuri to map the river by Friday"))
    replayed = list(c.drain(1.0))
    assert [type(m) for m in replayed].count(ObjectiveDraft) == 1, replayed
    assert isinstance(replayed[-1], TurnDone) and replayed[-1].status == "parsed"


def test_an_id_sent_twice_back_to_back_is_answered_twice_and_done_once(
    daemon: RunningDaemon,
) -> None:
    """A probe: the same confirm (or text) id sent twice with no gap got one
    answer; the repeat, which came while the outcome was being made, got
    nothing. Now it gets the whole outcome once the first's is complete."""
    c = daemon.connect()
    c.hello()
    x = draft(c, "ask Kofi to build a bench by the pond by tomorrow")
    c.send(ObjectiveConfirm(id="b2b", objective_id=x))
    c.send(ObjectiveConfirm(id="b2b", objective_id=x))
    got = list(c.drain(1.5))
    confirmed = [m for m in got if isinstance(m, ObjectiveConfirmed)]
    assert len(confirmed) == 2 and {m.objective_id for m in confirmed} == {x}, got
    assert len({m.turn for m in confirmed}) == 1  # one effect: the same turn, answered twice
    assert sum(isinstance(m, TurnDone) for m in got) == 2, got
    c.send(TextInput(id="b2b-t", text="ask Zuri to map the river by Friday"))
    c.send(TextInput(id="b2b-t", text="ask Zuri to map the river by Friday"))
    got = list(c.drain(1.5))
    drafts = [m for m in got if isinstance(m, ObjectiveDraft)]
    assert len(drafts) == 2 and len({m.objective.id for m in drafts}) == 1, got
    assert isinstance(got[-1], TurnDone) and got[-1].status == "parsed"


def test_a_decision_outlives_the_window_of_later_ids(daemon: RunningDaemon) -> None:
    """An independent client confirmed with "yes", sent 300 pings, and its
    retried "yes" then confirmed the draft pending by then (§2)."""
    c = daemon.connect()
    c.hello()
    x = draft(c, "ask Kofi to build a bench by the pond by tomorrow")
    c.send(TextInput(id="yes-1", text="yes"))
    first = until_done(c)
    assert [m.objective_id for m in first if isinstance(m, ObjectiveConfirmed)] == [x]
    d = "ask Zuri to map the river by Friday"
    c.send(TextInput(id="draft-1", text=d))
    y = next(m for m in until_done(c) if isinstance(m, ObjectiveDraft)).objective.id
    window = daemon.server.cfg.idempotency_window
    for _ in range(window + 44):  # more ids than the window holds
        c.send(Ping(id=c.next_id()))
        c.expect(Pong, 5)
    z = draft(c, "ask Tariq to guard the gate tonight")  # the one pending now
    c.send(TextInput(id="yes-1", text="yes"))  # a client's late retry
    again = until_done(c)
    assert [m.objective_id for m in again if isinstance(m, ObjectiveConfirmed)] == [x]
    c.send(TextInput(id="draft-1", text=d))
    assert [m.objective.id for m in until_done(c) if isinstance(m, ObjectiveDraft)] == [y]
    c.send(ObjectiveList(id=c.next_id(), state="draft"))
    pending = {o.id for o in c.expect(ObjectiveListResult, 5).objectives}
    assert pending == {y, z}  # nothing confirmed twice, no second draft


def test_rolled_back_refusals_never_turn_into_a_false_coercion(daemon: RunningDaemon) -> None:
    a, b = daemon.connect("alice"), daemon.connect("bob")
    a.hello()
    b.hello()
    x = draft(a, "ask Abeni to support the story and mislead the visitors")
    y = draft(b, "ask Kofi to build a bench by the pond by tomorrow")
    restore = slow_commits(daemon, delay_s=0.3, fail=True)  # both writes fail
    a.send(ObjectiveConfirm(id="ca", objective_id=x))
    time.sleep(0.05)
    b.send(ObjectiveConfirm(id="cb", objective_id=y))
    assert a.expect(Error, 5).code == "provider_unavailable"
    assert b.expect(Error, 5).code == "provider_unavailable"
    restore()
    a.send(ObjectiveConfirm(id="ca", objective_id=x))  # the retry the error asked for
    until_done(a)
    rows = daemon.query(EventLog.audit_rows, "alice")
    assert not any("coercion" in (r["detail"].get("tags") or []) for r in rows), rows


def test_an_old_id_sent_again_during_a_turn_is_answered_after_it(daemon: RunningDaemon) -> None:
    """A client-author probe: the replay of an ended turn came at once,
    between the messages of the turn under way (§5: one active turn)."""
    c = daemon.connect()
    c.hello()
    c.send(TextInput(id="old-1", text="ask Zuri to map the river by Friday"))
    old = until_done(c)
    c.send(TextInput(id="new-1", text="ask Kofi to build a bench by the pond by tomorrow"))
    c.send(TextInput(id="old-1", text="ask Zuri to map the river by Friday"))
    got = list(c.drain(1.5))
    turns = [m.turn for m in got if isinstance(getattr(m, "turn", None), str)]
    new_turn = next(m.turn for m in got if isinstance(m, TranscriptFinal) and m.ref == "new-1")
    first, last = turns.index(new_turn), len(turns) - 1 - turns[::-1].index(new_turn)
    assert set(turns[first : last + 1]) == {new_turn}, got  # nothing of another turn between
    replayed = [m for m in got if isinstance(m, ObjectiveDraft) and m.turn == old[0].turn]
    assert len(replayed) == 1, got  # the old id's outcome, once, after the new turn
    assert isinstance(got[-1], TurnDone) and got[-1].turn == old[0].turn
