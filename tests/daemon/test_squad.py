"""The household channel over real sockets (PROTOCOL §9): who a squad
message says it is from, who may answer a permission-request, and its
withdrawal. The request's basics (asked once, answered once, restarts) are
in test_agents.py."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import RunningDaemon, fast_config, start_daemon
from vac.client.connection import Connection
from vac.home import Home
from vac.protocol.messages import (
    Error,
    ObjectiveConfirm,
    SquadAnswer,
    SquadAnswered,
    SquadMessage,
    SquadSend,
    SquadWithdraw,
    SquadWithdrawn,
    TextInput,
    TurnDone,
)
from vac.runtime.permission_desk import MAX_OPEN_PER_ASKER
from vac.runtime.store import EventLog, StorageUnavailable

pytestmark = pytest.mark.slow


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
    # Banter "to" one agent went to all of them, the `to` dropped unseen (a
    # probe): refused, named, and nobody hears it.
    kofi.send(SquadSend(id="k3", kind="inter-agent-banter", text="Nice hat", to="Zuri"))
    err = refused(kofi, "k3")
    assert err.code == "invalid_message" and err.message.startswith("to:")
    assert not [m for m in bob.drain(0.3) if isinstance(m, SquadMessage)]


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


def test_an_agent_answers_a_request_addressed_to_it_and_no_other(daemon: RunningDaemon) -> None:
    # §9: `squad.answer` is "either → daemon". An agent answers what was
    # asked of it (`to`); its own request, or one not addressed to it, gets
    # the answer an unknown id gets: nothing about it leaks.
    alice, bob, kofi, zuri = greeted(daemon, "alice", "bob", "kofi", "zuri")
    kofi.send(
        SquadSend(id="k1", kind="permission-request", text="May I borrow your ladder?", to="zuri")
    )
    asked = zuri.expect(SquadMessage)  # a recipient hears it; the stewards too
    assert (asked.recipients, asked.sender, asked.ref) == (["steward", "Zuri"], "Kofi", None)
    assert alice.expect(SquadMessage).message_id == asked.message_id
    mid = asked.message_id
    assert mid is not None
    kofi.expect(SquadMessage)
    kofi.expect(TurnDone)
    kofi.send(SquadAnswer(id="k2", message=mid, answer="granted"))  # its own
    unknown = refused(kofi, "k2")
    assert (unknown.code, unknown.details) == ("objective_unknown", {"message": mid})
    kofi.send(SquadSend(id="k3", kind="permission-request", text="May I trim the hedge?"))
    steward_only = alice.expect(SquadMessage).message_id
    assert steward_only is not None
    zuri.send(SquadAnswer(id="z1", message=steward_only, answer="granted"))  # not asked of Zuri
    err = refused(zuri, "z1")
    assert (err.code, err.details) == ("objective_unknown", {"message": steward_only})
    assert err.message == unknown.message
    # Another session of Zuri's attaching is told what is open and asked of
    # it (as a steward's is told of every open request), nothing else.
    (zuri_too,) = greeted(daemon, "zuri")
    assert zuri_too.expect(SquadMessage).message_id == mid
    zuri.send(SquadAnswer(id="z2", message=mid, answer="granted", text="Bring it back."))
    mine = zuri.expect(SquadAnswered)
    assert (mine.ref, mine.answer, mine.by, mine.asked_by) == ("z2", "granted", "zuri", "Kofi")
    zuri.expect(TurnDone)
    for other in (alice, bob, kofi, zuri_too):
        heard = other.expect(SquadAnswered)
        assert (heard.message_id, heard.by, heard.ref) == (mid, "zuri", None)
    # Answered: a steward is told so; Zuri again too (it was asked).
    alice.send(SquadAnswer(id="a1", message=mid, answer="denied"))
    assert refused(alice, "a1").details == {"message": mid, "status": "granted"}
    zuri.send(SquadAnswer(id="z3", message=steward_only, answer="denied"))
    assert refused(zuri, "z3").details == {"message": steward_only}  # still not Zuri's
    assert not [m for m in zuri_too.drain(0.2) if isinstance(m, SquadMessage)]


def ask(kofi: Connection, ref: str, text: str, to: str | None = None) -> str:
    """Kofi asks; returns the request's message id once his turn ended."""
    kofi.send(SquadSend(id=ref, kind="permission-request", text=text, to=to))
    mid = kofi.expect(SquadMessage).message_id
    kofi.expect(TurnDone)
    assert mid is not None
    return mid


def test_the_agent_that_asked_withdraws_its_request_durably_and_once(
    agent_home: Home,
) -> None:
    # §9: "open until answered, withdrawn, or 24 h"; `squad.withdraw` (an
    # addition) is how. Written first, then told to all the request reached.
    d = start_daemon(agent_home, config=fast_config())
    try:
        alice, bob, zuri = greeted(d, "alice", "bob", "zuri")
        kofi = d.connect("kofi")
        kofi_session = kofi.hello().session
        mid = ask(kofi, "k1", "May I borrow your ladder?", to="Zuri")
        kept = ask(kofi, "k2", "May I trim the hedge?")
        for c in (alice, bob, zuri):
            assert c.expect(SquadMessage).message_id == mid
        # Only the agent that asked may: the asked agent gets what an unknown
        # id gets; a steward answers rather than withdraws (`unauthorized`).
        zuri.send(SquadWithdraw(id="z1", message=mid))
        assert refused(zuri, "z1").details == {"message": mid}
        alice.send(SquadWithdraw(id="a1", message=mid))
        err = refused(alice, "a1")
        assert err.code == "unauthorized" and "squad.withdraw" in err.message
        kofi.send(SquadWithdraw(id="w1", message=mid))
        mine = kofi.expect(SquadWithdrawn)
        assert (mine.ref, mine.message_id, mine.asked_by) == ("w1", mid, "Kofi")
        for c in (alice, bob, zuri):
            told = c.expect(SquadWithdrawn)
            assert (told.ref, told.message_id, told.asked_by) == (None, mid, "Kofi")
        # The same id again: the stored outcome, told to nobody else.
        kofi.send(SquadWithdraw(id="w1", message=mid))
        assert kofi.expect(SquadWithdrawn).ref == "w1"
        assert not [m for m in bob.drain(0.3) if isinstance(m, SquadWithdrawn)]
        kofi.send(SquadWithdraw(id="w2", message=mid))  # a new id: it is withdrawn
        again = refused(kofi, "w2")
        assert (again.code, again.details) == (
            "objective_unknown",
            {"message": mid, "status": "withdrawn"},
        )
        # Nobody can answer it now, by id or by voice ("yes" answers the sole
        # request still open, Kofi's other one).
        bob.send(SquadAnswer(id="b1", message=mid, answer="granted"))
        assert (
            refused(bob, "b1").message
            == "that permission-request was withdrawn by the agent that asked"
        )
        rows = d.query(EventLog.audit_rows, "kofi")
        assert [r["kind"] for r in rows].count("permission_withdrawn") == 1
    finally:
        d.shutdown()
    d = start_daemon(agent_home, config=fast_config())
    try:
        # After a restart the withdrawn request is not asked again; the open one is.
        alice = d.connect()
        alice.hello()
        told = [m for m in alice.drain(0.5) if isinstance(m, SquadMessage)]
        assert [m.message_id for m in told] == [kept]
        kofi = d.connect("kofi")
        assert kofi.hello(resume=kofi_session).resumed
        kofi.send(SquadWithdraw(id="w1", message=mid))  # its outcome survives too
        assert kofi.expect(SquadWithdrawn).ref == "w1"
        alice.send(TextInput(id="a2", text="yes, go ahead"))
        assert alice.expect(SquadAnswered).message_id == kept
    finally:
        d.shutdown()


def test_a_withdrawal_that_was_not_written_is_heard_by_nobody(daemon: RunningDaemon) -> None:
    alice, kofi = greeted(daemon, "alice", "kofi")
    mid = ask(kofi, "k1", "May I trim the hedge?")
    assert alice.expect(SquadMessage).message_id == mid
    pipeline: Any = daemon.server.pipeline

    async def full_disk(step: object) -> None:
        raise StorageUnavailable("the event log could not be written (test)")

    daemon.call(lambda: setattr(pipeline, "commit", full_disk))
    kofi.send(SquadWithdraw(id="w1", message=mid))
    err = refused(kofi, "w1")
    daemon.call(lambda: pipeline.__dict__.pop("commit", None))
    assert err.code == "provider_unavailable" and err.retryable
    assert not [m for m in alice.drain(0.3) if isinstance(m, SquadWithdrawn)]
    alice.send(SquadAnswer(id="a1", message=mid, answer="granted"))  # still open
    assert alice.expect(SquadAnswered).message_id == mid


def test_one_agents_requests_never_close_anothers_and_are_bounded(
    daemon: RunningDaemon,
) -> None:
    """A probe: 300 of zuri's requests in 1.5 s closed kofi's open one
    (daemon-wide bound), so alice's grant of it was `objective_unknown`."""
    alice, kofi, zuri = greeted(daemon, "alice", "kofi", "zuri")
    kofi.send(SquadSend(id="k", kind="permission-request", text="May I borrow the ladder?"))
    asked = kofi.expect(SquadMessage).message_id
    for i in range(MAX_OPEN_PER_ASKER):
        zuri.send(SquadSend(id=f"z{i}", kind="permission-request", text=f"May I take cart {i}?"))
        assert zuri.expect(SquadMessage).ref == f"z{i}"
    zuri.send(SquadSend(id="one-more", kind="permission-request", text="And the barrow?"))
    err = refused(zuri, "one-more")
    assert (err.code, err.retryable) == ("rate_limited", True)
    assert "withdraw some" in err.message
    rows = daemon.query(EventLog.audit_rows, "zuri")
    assert sum(r["kind"] == "permission_requested" for r in rows) == MAX_OPEN_PER_ASKER
    alice.drain(0.5)
    alice.send(SquadAnswer(id="g", message=asked, answer="granted"))
    assert alice.expect(SquadAnswered).message_id == asked


def test_throttled_banter_says_why_in_words_for_people(daemon: RunningDaemon) -> None:
    """§6: `message` is for people; it said only "banter-throttled" (a client probe)."""
    (kofi,) = greeted(daemon, "kofi")
    kofi.send(SquadSend(id="b1", kind="inter-agent-banter", text="Nice hat"))
    assert kofi.expect(SquadMessage).ref == "b1"
    kofi.send(SquadSend(id="b2", kind="inter-agent-banter", text="Nice hat again"))
    err = refused(kofi, "b2")
    assert err.code == "rate_limited" and "banter between agents" in err.message
    assert (
        err.details["reason"] == "banter-throttled" and 0 < err.details["retry_after_ms"] <= 45_000
    )
