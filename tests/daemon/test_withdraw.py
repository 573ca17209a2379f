"""`objective.withdraw` over real sockets (PROTOCOL §9): durable, pushed to
every session of the steward, and the agent's commitment ends with it."""

from __future__ import annotations

import pytest

from tests.conftest import RunningDaemon
from vac.client.connection import Connection
from vac.protocol.messages import (
    Error,
    Negotiation,
    ObjectiveConfirm,
    ObjectiveDraft,
    ObjectiveList,
    ObjectiveListResult,
    ObjectiveUpdated,
    ObjectiveWithdraw,
    TextInput,
    TurnDone,
)

pytestmark = pytest.mark.slow


def draft(c: Connection, text: str) -> str:
    c.send(TextInput(id=c.next_id(), text=text))
    oid = c.expect(ObjectiveDraft).objective.id
    c.expect(TurnDone)
    return oid


def test_a_withdrawal_is_answered_pushed_listed_and_not_repeated(daemon: RunningDaemon) -> None:
    c = daemon.connect()
    c.hello()
    other = daemon.connect()  # the same steward's second session
    other.hello()
    bob = daemon.connect("bob")
    bob.hello()
    oid = draft(c, "ask Kofi to build a bench by tomorrow")
    bob.send(ObjectiveWithdraw(id="b1", objective_id=oid))
    assert bob.expect(Error).code == "objective_unknown"  # not his to withdraw
    c.send(ObjectiveWithdraw(id="w1", objective_id=oid))
    mine = c.expect(ObjectiveUpdated)
    assert (mine.ref, mine.by, mine.objective.status) == ("w1", "steward", "withdrawn")
    pushed = other.expect(ObjectiveUpdated)
    assert pushed.ref is None and pushed.objective.id == oid
    # The same id again is answered from its stored outcome; a new one is refused.
    c.send(ObjectiveWithdraw(id="w1", objective_id=oid))
    assert c.expect(ObjectiveUpdated).ref == "w1"
    c.send(ObjectiveWithdraw(id="w2", objective_id=oid))
    again = c.expect(Error)
    assert again.code == "objective_unknown" and again.details == {"status": "withdrawn"}
    c.send(ObjectiveList(id="l1", state="withdrawn"))
    assert [o.id for o in c.expect(ObjectiveListResult).objectives] == [oid]


def test_withdrawing_an_accepted_objective_ends_the_agents_commitment(
    daemon: RunningDaemon,
) -> None:
    # Kofi tends the hives and accepts two asks: a third waits (defer) until
    # one of them is withdrawn.
    c = daemon.connect()
    c.hello()

    def ask(text: str) -> tuple[str, str]:
        oid = draft(c, text)
        c.send(ObjectiveConfirm(id=c.next_id(), objective_id=oid))
        decision = c.expect(Negotiation).decision
        c.expect(TurnDone)
        return oid, decision

    first, decided = ask("ask Kofi to repair the garden gate by tomorrow")
    assert decided == "accept"
    assert ask("ask Kofi to build a bench by tomorrow")[1] == "accept"
    assert ask("ask Kofi to map the orchard by tomorrow")[1] == "defer"
    c.send(ObjectiveWithdraw(id=c.next_id(), objective_id=first))
    assert c.expect(ObjectiveUpdated).objective.status == "withdrawn"
    assert ask("ask Kofi to support the elders by tomorrow")[1] == "accept"
