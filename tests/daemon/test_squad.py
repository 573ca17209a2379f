"""The household channel over real sockets (PROTOCOL §9): who a squad
message says it is from, who may answer a permission-request, and its
withdrawal. The request's basics (asked once, answered once, restarts) are
in test_agents.py."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.conftest import RunningDaemon, fast_config, start_daemon
from vac.client.connection import Connection
from vac.daemon import keys
from vac.home import Home
from vac.protocol.messages import (
    Error,
    ObjectiveConfirm,
    SquadAnswer,
    SquadAnswered,
    SquadMessage,
    SquadSend,
    TurnDone,
)

pytestmark = pytest.mark.slow


@pytest.fixture
def agent_home(home: Home) -> Home:
    keys.enroll(home, "kofi", agent="Kofi")
    keys.enroll(home, "zuri", agent="Zuri")
    return home


@pytest.fixture
def daemon(agent_home: Home) -> Iterator[RunningDaemon]:
    d = start_daemon(agent_home, config=fast_config())
    yield d
    d.shutdown()


def greeted(daemon: RunningDaemon, *principals: str) -> list[Connection]:
    conns = [daemon.connect(p) for p in principals]
    for c in conns:
        c.hello()
    return conns


def refused(c: Connection, ref: str) -> Error:
    err = c.expect(Error)
    assert err.ref == ref
    return err


def test_a_steward_cannot_post_in_an_agents_or_another_principals_name(
    daemon: RunningDaemon,
) -> None:
    # §1: no header field can claim a principal. A steward that named Kofi
    # used to put a request on the channel that Kofi never made.
    alice, bob, kofi = greeted(daemon, "alice", "bob", "kofi")
    for i, (kind, sender) in enumerate(
        [("permission-request", "Kofi"), ("status-report", "kofi"), ("callout", "bob")]
    ):
        alice.send(SquadSend(id=f"a{i}", kind=kind, text="May I take the truck?", sender=sender))  # type: ignore[arg-type]
        err = refused(alice, f"a{i}")
        assert err.code == "unauthorized" and err.message.startswith("sender: ")
    # A request (like a status report or banter) is an agent's to send.
    alice.send(SquadSend(id="a9", kind="permission-request", text="May I?"))
    err = refused(alice, "a9")
    assert err.code == "unauthorized" and err.message.startswith("kind: ")
    assert "permission-request" in err.message and "Squad" not in err.message
    assert not list(bob.drain(0.3)) and not list(kofi.drain(0.1))
    # As itself (no sender, "steward" or its own name): the steward, by alice.
    for i, sender in enumerate([None, "steward", "Alice"]):
        alice.send(SquadSend(id=f"s{i}", kind="callout", text="Storm coming", sender=sender))
        for c in (alice, bob, kofi):
            heard = c.expect(SquadMessage)
            assert (heard.sender, heard.by) == ("steward", "alice")
    # An agent's message is the agent's, by its principal; never another's.
    kofi.send(SquadSend(id="k1", kind="status-report", text="Hives checked", sender="Zuri"))
    assert refused(kofi, "k1").code == "unauthorized"
    kofi.send(SquadSend(id="k2", kind="status-report", text="Hives checked"))
    heard = bob.expect(SquadMessage)
    assert (heard.sender, heard.by) == ("Kofi", "kofi")


def test_an_answer_to_a_request_that_is_not_open_says_what_became_of_it(
    daemon: RunningDaemon,
) -> None:
    # §6 keeps `invalid_message` for malformed messages; these are well formed.
    alice, bob, kofi = greeted(daemon, "alice", "bob", "kofi")
    alice.send(SquadAnswer(id="a1", message="never-asked", answer="granted"))
    err = refused(alice, "a1")
    assert (err.code, err.details) == ("objective_unknown", {"message": "never-asked"})
    assert err.message.startswith("no open permission-request has that id")
    kofi.send(SquadSend(id="k1", kind="permission-request", text="May I trim the hedge?"))
    mid = bob.expect(SquadMessage).message_id
    assert mid is not None and alice.expect(SquadMessage).message_id == mid
    alice.send(SquadAnswer(id="a2", message=mid, answer="denied"))
    alice.expect(SquadAnswered)
    alice.expect(TurnDone)
    bob.expect(SquadAnswered)
    bob.send(SquadAnswer(id="b1", message=mid, answer="granted"))
    err = refused(bob, "b1")
    assert (err.code, err.details) == ("objective_unknown", {"message": mid, "status": "denied"})
    assert err.message == "that permission-request was answered already: denied"
    # Role errors name the message as the wire does, never a class of ours.
    kofi.send(ObjectiveConfirm(id="k2", objective_id="x"))
    err = refused(kofi, "k2")
    assert err.code == "unauthorized" and "objective.confirm" in err.message
