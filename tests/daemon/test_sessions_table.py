"""The daemon's session table (vac.daemon.sessions), without sockets: the
bookkeeping of the lifecycle's actions, the detached bounds, routing ids."""

from __future__ import annotations

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, invariant, rule

from vac.daemon import sessions as sessions_module
from vac.daemon.sessions import SessionTable
from vac.lifecycle.session import TRANSITIONS, Action, SessionEvent, SessionState
from vac.protocol.messages import OutputFormat, Pong
from vac.runtime.session import Outbox, Replies, Session

Ev = SessionEvent


def new(session_id: str, principal: str = "alice") -> Session:
    return Session(
        session_id,
        principal,
        "test",
        OutputFormat(rate=16000, speak=False),
        Outbox(max_chunks=8, max_control=32),
        Replies(window=8),
    )


def feed(
    table: SessionTable, session: Session, event: SessionEvent, rid: bytes | None = None
) -> list[str]:
    """The server's `_feed` without its I/O: the bookkeeping actions only.
    Returns the ids the pipeline would be told to forget."""
    forgotten: list[str] = []
    for action in table.feed(session, event):
        match action:
            case Action.ATTACH:
                assert rid is not None
                table.attach(session, rid, 1.0)
            case Action.UNBIND:
                for evicted in table.unbind(session):
                    forgotten += feed(table, evicted, Ev.EVICTED)
            case Action.RELEASE:
                table.release(session)
            case Action.FORGET:
                table.forget(session.id)
                forgotten.append(session.id)
    return forgotten


def opened(table: SessionTable, session_id: str, rid: bytes, principal: str = "alice") -> Session:
    session = new(session_id, principal)
    table.add(session)
    feed(table, session, Ev.HELLO_OK, rid)
    return session


def test_a_new_session_is_opening_then_attached() -> None:
    table = SessionTable(max_detached_per_principal=4, max_detached=8)
    session = new("s1")
    assert session.state is SessionState.OPENING and not session.attached
    table.add(session)
    session.outbox.push(Pong(ref="x"))
    feed(table, session, Ev.HELLO_OK, b"r1")
    assert session.attached and session.connection == b"r1" and session.seq == 0
    assert len(session.outbox) == 0  # hello.ok is seq 0: nothing precedes it
    assert table.on(b"r1") is session and table.attached() == [session]
    assert table.owner(b"r1") == "alice"


def test_a_session_made_bound_is_attached() -> None:
    session = Session(
        "s", "alice", "t", OutputFormat(rate=16000, speak=False), Outbox(1, 1), Replies(1), b"x"
    )
    assert session.attached and session.state is SessionState.ATTACHED


def test_detach_keeps_it_for_resume_and_the_owner_of_its_routing_id() -> None:
    table = SessionTable(max_detached_per_principal=4, max_detached=8)
    session = opened(table, "s1", b"r1")
    assert feed(table, session, Ev.IDLE) == []
    assert session.state is SessionState.DETACHED and session.connection is None
    assert table.kept("s1") and table.holds("s1") and table.on(b"r1") is None
    assert table.owner(b"r1") == "alice"
    feed(table, session, Ev.RESUME, b"r2")
    assert session.attached and table.on(b"r2") is session and not table.kept("s1")


def test_a_takeover_moves_the_session_to_the_new_connection() -> None:
    table = SessionTable(max_detached_per_principal=4, max_detached=8)
    session = opened(table, "s1", b"r1")
    session.seq = 5
    actions = table.feed(session, Ev.RESUME)
    assert Action.SEND_BYE in actions and actions[-1] is Action.ATTACH
    table.attach(session, b"r2", 2.0)
    assert table.on(b"r1") is None and table.on(b"r2") is session
    assert session.seq == 0 and session.last_seen_s == 2.0


def test_bye_takes_it_out_of_the_table() -> None:
    table = SessionTable(max_detached_per_principal=0, max_detached=0)
    other = opened(table, "s0", b"r0")
    feed(table, other, Ev.REHELLO)  # over the bound of 0: evicted at once
    assert other.state is SessionState.FORGOTTEN and not table.holds("s0")
    session = opened(table, "s1", b"r1")
    assert feed(table, session, Ev.BYE) == []
    assert session.ended and not table.holds("s1") and not table.kept("s1")
    assert table.on(b"r1") is None and table.owner(b"r1") == "alice"


def test_detached_sessions_are_bounded_per_principal_then_overall() -> None:
    table = SessionTable(max_detached_per_principal=2, max_detached=3)
    alice = [opened(table, f"a{i}", f"ra{i}".encode()) for i in range(3)]
    bob = opened(table, "b0", b"rb0", "bob")
    assert feed(table, alice[0], Ev.IDLE) == []
    assert feed(table, alice[1], Ev.IDLE) == []
    # Alice's third detached session pushes out her oldest, never Bob's.
    assert feed(table, alice[2], Ev.IDLE) == ["a0"]
    assert feed(table, bob, Ev.IDLE) == []
    assert [s.id for s in table._kept()] == ["a1", "a2", "b0"]
    carol = opened(table, "c0", b"rc0", "carol")
    # Overall bound: the oldest of anyone's goes.
    assert feed(table, carol, Ev.UNREACHABLE) == ["a1"]
    assert alice[0].state is SessionState.FORGOTTEN
    # Forgotten sessions resume from the event log; an evicted one whose
    # resume was under way is put back.
    feed(table, alice[0], Ev.RESUME, b"ra9")
    assert table.holds("a0") and alice[0].attached


def test_a_failed_hello_forgets_only_what_it_made() -> None:
    table = SessionTable(max_detached_per_principal=4, max_detached=8)
    fresh = new("s1")
    table.add(fresh)
    assert feed(table, fresh, Ev.ABANDONED) == ["s1"]
    assert not table.holds("s1")
    kept = opened(table, "s2", b"r2")
    feed(table, kept, Ev.REHELLO)
    assert feed(table, kept, Ev.ABANDONED) == [] and table.kept("s2")


def test_owners_and_silenced_ids_are_bounded() -> None:
    table = SessionTable(max_detached_per_principal=4, max_detached=8)
    n = sessions_module.MAX_TRACKED_CONNECTIONS
    for i in range(n + 10):
        assert table.owner_of(i.to_bytes(4, "big"), "alice", None) == "alice"
    assert table.owner((0).to_bytes(4, "big")) is None  # least recently used: out
    assert table.owner_of(b"x", "alice", None) == "alice"
    assert table.owner_of(b"x", "bob", None) == "alice"  # the first principal owns it
    for i in range(sessions_module.MAX_SILENCED + 1):
        table.silence(i.to_bytes(4, "big"))
    assert not table.silenced((0).to_bytes(4, "big"))
    assert table.silenced((1).to_bytes(4, "big"))


# -------------------------------------------------------- hypothesis model

PRINCIPALS = st.sampled_from(["alice", "bob"])
RIDS = st.sampled_from([b"r0", b"r1", b"r2", b"r3"])


class SessionTableMachine(RuleBasedStateMachine):
    """Any events on any sessions, carried out as the server does: the
    table's maps always agree with the sessions' states and its bounds."""

    sessions = Bundle("sessions")

    def __init__(self) -> None:
        super().__init__()
        self.table = SessionTable(max_detached_per_principal=2, max_detached=3)
        self.made: list[Session] = []
        self.forgotten: list[str] = []

    @rule(target=sessions, principal=PRINCIPALS)
    def make(self, principal: str) -> Session:
        session = new(f"s{len(self.made)}", principal)
        self.table.add(session)
        self.made.append(session)
        return session

    @rule(session=sessions, event=st.sampled_from(SessionEvent), rid=RIDS)
    def event(self, session: Session, event: SessionEvent, rid: bytes) -> None:
        if (session.state, event) not in TRANSITIONS:
            return  # the shell never feeds these (tested in tests/lifecycle)
        if event in (Ev.HELLO_OK, Ev.RESUME):
            # As the handshake does: whoever holds the connection said hello again.
            other = self.table.on(rid)
            if other is not None and other is not session:
                self.forgotten += feed(self.table, other, Ev.REHELLO)
        if event is Ev.EVICTED and not self.table.kept(session.id):
            return  # only the table's own bound evicts
        self.forgotten += feed(self.table, session, event, rid)

    @invariant()
    def connections_match_states(self) -> None:
        for session in self.made:
            assert (session.connection is not None) == session.attached
            if session.attached:
                assert self.table.on(session.connection or b"") is session
        assert all(s.attached for s in self.table.by_conn.values())
        assert len(set(map(id, self.table.by_conn.values()))) == len(self.table.by_conn)

    @invariant()
    def the_table_holds_the_live_ones(self) -> None:
        live = {SessionState.OPENING, SessionState.ATTACHED, SessionState.DETACHED}
        assert {s.id for s in self.made if s.state in live} == set(self.table.by_id)
        kept = {s.id for s in self.made if s.state is SessionState.DETACHED}
        assert kept == set(self.table._detached)

    @invariant()
    def detached_sessions_are_bounded(self) -> None:
        kept = self.table._kept()
        assert len(kept) <= 3
        for principal in ("alice", "bob"):
            assert sum(s.principal == principal for s in kept) <= 2

    @invariant()
    def the_pipeline_forgets_what_the_table_forgot(self) -> None:
        for sid in self.forgotten:
            session = next(s for s in self.made if s.id == sid)
            assert session.state is not SessionState.FORGOTTEN or not self.table.holds(sid)


TestSessionTableMachine = SessionTableMachine.TestCase
TestSessionTableMachine.settings = settings(max_examples=150, stateful_step_count=40, deadline=None)
