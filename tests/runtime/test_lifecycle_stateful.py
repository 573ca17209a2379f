"""Three stewards and three agents through hundreds of turns (PROTOCOL §9).

A Hypothesis state machine drives the real pipeline (real SQLite event log,
real negotiator, real offer desk; a recording transport instead of sockets):
asks, confirms with and without edits, agents' answers (accept, defer,
refuse, counter-offer, clarify, silence), the built-in negotiator when the
agent is away, counter-offers confirmed, refusals pushed again, withdrawals,
progress reports and restarts. It checks, at every message:

- every change is durable before it is announced (the event log already
  says what the message says);
- every audit names the steward who pushed;
- coercion is judged only on the pusher's own history;
- an agent defers for a full plate only when its plate is full: its
  commitments end when the work is done, failed or withdrawn.

tests/daemon/test_agents.py is the same contract over real sockets.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import sqlite3
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import event as hypothesis_event
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from tests.runtime.rigs import bound_session, text_pipeline
from vac.errors import VacError
from vac.intent.negotiation import STACKED_COMMITMENTS, commitment_of
from vac.protocol.messages import (
    AudioOutputChunk,
    Limits,
    Negotiation,
    ObjectiveAnswer,
    ObjectiveConfirm,
    ObjectiveConfirmed,
    ObjectiveDraft,
    ObjectiveOffer,
    ObjectiveProgress,
    ObjectiveUpdated,
    ObjectiveWithdraw,
    TextInput,
)
from vac.protocol.objective_lifecycle import ANSWERS
from vac.runtime.pipeline import Pipeline
from vac.runtime.session import Session
from vac.runtime.store import AsyncEventLog

pytestmark = pytest.mark.slow

STEWARDS = ("alice", "bob", "carol")
AGENTS = ("Kofi", "Zuri", "Abeni")
TASKS = (
    "build a bench by the pond",
    "repair the garden gate",
    "map the orchard",
    "investigate the barn and lie to the visitors",  # crosses honesty for most
)
LIMITS = Limits(8192, 30_000, 2000, 512, 200)
OPEN = frozenset({"accepted", "in-progress"})


class Wire:
    """The transport: records what each session is sent, and checks on the
    spot that every announced state is already in the event log."""

    limits = LIMITS

    def __init__(self, db: Path) -> None:
        self.db = db
        self.sessions: list[Session] = []
        self.inbox: dict[str, list[Any]] = {}
        self.errors: list[tuple[str, VacError]] = []

    def stored(self, oid: str) -> str | None:
        with contextlib.closing(sqlite3.connect(f"file:{self.db}?mode=ro", uri=True)) as db:
            rows = db.execute("SELECT state FROM objectives WHERE id=?", (oid,)).fetchall()
        row = rows[0] if rows else None
        return None if row is None else str(row[0])

    def send(self, session: Session, msg: Any) -> bool:
        if session.connection is None:
            return False
        # Write, then announce: the log says it before anyone hears it.
        if isinstance(msg, ObjectiveUpdated | ObjectiveConfirmed):
            status = msg.objective.status
            assert self.stored(msg.objective.id) == status, (msg, self.stored(msg.objective.id))
        if isinstance(msg, Negotiation):
            assert self.stored(msg.objective_id) == ANSWERS[msg.decision], msg
        if isinstance(msg, ObjectiveDraft):
            assert self.stored(msg.objective.id) == "pending", msg
        session.replies.record(msg)
        self.inbox.setdefault(session.id, []).append(msg)
        return True

    def try_send_chunk(self, session: Session, msg: AudioOutputChunk, payload: bytes) -> bool:
        return True

    def drop_chunks(self, session: Session, generation: int) -> int:
        return 0

    def error(self, session: Session, exc: VacError) -> None:
        self.errors.append((session.id, exc))

    def attached(self) -> Iterable[Session]:
        return [s for s in self.sessions if s.attached]

    def holds(self, session_id: str) -> bool:
        return any(s.id == session_id for s in self.sessions)

    def take(self, session: Session) -> list[Any]:
        return self.inbox.pop(session.id, [])


def event(name: str) -> None:
    """A Hypothesis statistics event (`--hypothesis-show-statistics`)."""
    with contextlib.suppress(Exception):  # outside a test run: nothing to count
        hypothesis_event(name)


def pick(data: st.DataObject, items: list[str]) -> str:
    """One of `items` (in the order they were made). Drawn as an index, so
    that the draw does not depend on how many there are: the ids are random
    and the outcomes timing-dependent, and Hypothesis replays draws."""
    return items[data.draw(st.integers(0, 1_000_000)) % len(items)]


class Household(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.dir = Path(tempfile.mkdtemp(prefix="vac-stateful-"))
        self.loop = asyncio.new_event_loop()
        self.wire = Wire(self.dir / "vac.db")
        self.pipeline: Pipeline | None = None
        self.store: AsyncEventLog | None = None
        self.ids = 0
        # The model, built only from what was announced.
        self.owner: dict[str, str] = {}  # objective -> steward
        self.agent_of: dict[str, str] = {}  # objective -> agent
        self.status: dict[str, str] = {}
        self.counter: dict[str, str] = {}  # counter draft -> the objective it answers
        self.refused_by: dict[str, set[tuple[str, str]]] = {p: set() for p in STEWARDS}
        self.task_of: dict[str, str] = {}
        self.present = {a: True for a in AGENTS}
        self.turns = 0
        self.run(self._start())

    # ---------------------------------------------------------- plumbing

    def run(self, coro: Any) -> Any:
        return self.loop.run_until_complete(coro)

    async def _start(self) -> None:
        self.store = AsyncEventLog(self.dir / "vac.db")
        self.pipeline = text_pipeline(
            self.wire, self.store, max_pending_drafts=64, offer_timeout_ms=60
        )
        await self.pipeline.warm_up()
        self.wire.sessions = [
            bound_session(f"s-{p}", p, None, max_control=100_000) for p in STEWARDS
        ]
        self.wire.sessions += [
            bound_session(f"s-{a.lower()}", a.lower(), a, max_control=100_000)
            for a in AGENTS
            if self.present[a]
        ]
        for s in self.wire.sessions:
            await self.pipeline.on_attached(s, resumed=False)

    async def _stop(self) -> None:
        assert self.pipeline is not None and self.store is not None
        await self.pipeline.close()
        await self.store.close()

    def teardown(self) -> None:
        event(f"objectives per run: {len(self.status) // 10 * 10}+")
        self.run(asyncio.wait_for(self._stop(), 10))  # bounded: a hang fails the test
        self.loop.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def session(self, who: str) -> Session:
        return next(s for s in self.wire.sessions if s.principal == who.lower())

    def hand(self, session: Session, msg: Any) -> None:
        """Hand `msg` to the pipeline on its loop (as the server does)."""
        assert self.pipeline is not None
        pipeline = self.pipeline

        async def on_loop() -> None:
            pipeline.on_message(session, msg, None)

        self.run(on_loop())

    def next_id(self) -> str:
        self.ids += 1
        return f"m{self.ids}"

    async def _settle(self) -> None:
        assert self.pipeline is not None
        for _ in range(2000):
            await asyncio.sleep(0.002)
            busy = any(c.writing for c in self.pipeline.coordinators.values())
            if not busy and not len(self.pipeline.offers.tasks):
                await asyncio.sleep(0.002)
                return
        writing = [c.session.id for c in self.pipeline.coordinators.values() if c.writing]
        raise AssertionError(f"not settled: {writing} {len(self.pipeline.offers.tasks)}")

    def deliver(self, who: str, msg: Any) -> list[Any]:
        """Hand `msg` to the pipeline as `who`'s session; answer offers as the
        agents' rules say; return what `who` was sent meanwhile."""
        assert self.pipeline is not None
        session = self.session(who)
        self.hand(session, msg)
        self.run(self._settle())
        got = self.wire.take(session)
        self.observe(got, session.principal)
        return got

    def observe(self, msgs: list[Any], principal: str) -> None:
        for msg in msgs:
            match msg:
                case (
                    ObjectiveDraft(objective=o, counter_of=of)
                    | ObjectiveUpdated(objective=o, counter_of=str() as of)
                ):
                    # A counter-offer's draft reaches the steward's other
                    # sessions (and an ended turn's) as an update naming it.
                    self.owner[o.id], self.agent_of[o.id] = principal, o.agent
                    self.status[o.id] = "draft"
                    self.task_of[o.id] = self.task_of.get(of or "", "")
                    if of is not None:
                        self.counter[o.id] = of
                case ObjectiveConfirmed(objective=o) | ObjectiveUpdated(objective=o):
                    self.status[o.id] = o.status
                case Negotiation():
                    event(f"negotiation answered by {msg.answered_by}: {msg.decision}")
                    self.check_negotiation(msg, principal)
                    self.status[msg.objective_id] = ANSWERS[msg.decision]
                    if msg.decision == "refuse":
                        self.refused_by[principal].add(self.signature(msg.objective_id))

    def signature(self, oid: str) -> tuple[str, str]:
        return self.agent_of[oid].lower(), self.task_of.get(oid, oid)

    def open_commitments(self, agent: str) -> int:
        assert self.pipeline is not None
        standing = self.pipeline.roster.get(agent)
        assert standing is not None
        taken = [
            oid
            for oid, s in self.status.items()
            if s in OPEN and self.agent_of[oid].lower() == agent.lower()
        ]
        book = self.pipeline.book
        fresh = [
            oid
            for oid in taken
            if (e := book.find(oid)) is not None
            and commitment_of(e.objective) not in standing.commitments
        ]
        return len(standing.commitments) + len(fresh)

    def check_negotiation(self, msg: Negotiation, principal: str) -> None:
        if "coercion:prior-refusal" in msg.evidence:
            # Only the pusher's own refusals count (§9, per principal).
            assert self.signature(msg.objective_id) in self.refused_by[principal], msg
        stacked = any(e.startswith("commitments:") for e in msg.evidence)
        if msg.answered_by == "policy" and msg.decision == "defer" and stacked:
            # Never stuck: a full plate is a real one.
            agent = self.agent_of[msg.objective_id]
            assert self.open_commitments(agent) >= STACKED_COMMITMENTS, msg

    def answer_offers(self, choice: str) -> int:
        """Every agent present answers its pending offers with `choice`;
        returns how many offers were seen (silence included)."""
        seen = 0
        for agent in AGENTS:
            if not self.present[agent]:
                continue
            session = self.session(agent)
            for msg in self.wire.take(session):
                if not isinstance(msg, ObjectiveOffer):
                    continue
                seen += 1
                if choice == "silence":
                    continue
                counter = {"priority": 30} if choice == "counter-offer" else None
                answer = ObjectiveAnswer(
                    id=self.next_id(),
                    offer=msg.offer,
                    decision=choice,  # type: ignore[arg-type]
                    reply=f"{agent} says {choice}.",
                    counter=counter,
                    reason="",
                    evidence=[],
                )
                self.hand(session, answer)
        return seen

    # -------------------------------------------------------------- rules

    @rule(
        who=st.sampled_from(STEWARDS),
        agent=st.sampled_from(AGENTS),
        task=st.sampled_from(TASKS),
    )
    def ask(self, who: str, agent: str, task: str) -> None:
        got = self.deliver(who, TextInput(id=self.next_id(), text=f"ask {agent} to {task}"))
        for msg in got:
            if isinstance(msg, ObjectiveDraft):
                self.task_of[msg.objective.id] = task

    @rule(
        who=st.sampled_from(STEWARDS),
        agent=st.sampled_from(AGENTS),
        task=st.sampled_from(TASKS),
        answer=st.sampled_from(["accept", "accept", "refuse", "counter-offer", "silence"]),
    )
    def ask_and_confirm(self, who: str, agent: str, task: str, answer: str) -> None:
        before = set(self.status)
        self.ask(who, agent, task)
        made = [o for o in self.status if o not in before and self.status[o] == "draft"]
        for oid in made:
            self._confirm(oid, answer, urgent=False)

    def _confirmable(self, who: str | None = None) -> list[str]:
        return [
            oid
            for oid, s in self.status.items()
            if s in ("draft", "refused") and (who is None or self.owner[oid] == who)
        ]

    @precondition(lambda self: self._confirmable())
    @rule(
        data=st.data(),
        answer=st.sampled_from(
            ["accept", "defer", "refuse", "counter-offer", "clarify", "silence"]
        ),
        urgent=st.booleans(),
    )
    def confirm(self, data: st.DataObject, answer: str, urgent: bool) -> None:
        self._confirm(pick(data, self._confirmable()), answer, urgent)

    def _confirm(self, oid: str, answer: str, urgent: bool) -> None:
        who = self.owner[oid]
        edits = {"priority": 90} if urgent and self.status[oid] == "draft" else None
        session = self.session(who)
        self.hand(session, ObjectiveConfirm(id=self.next_id(), objective_id=oid, edits=edits))
        # The offer goes out once the confirm is durable: wait while it is
        # written (a busy host's fsync took longer than a fixed 15 ms, and
        # the offer went unanswered: a flaky example), up to 2 s.
        assert self.pipeline is not None
        for step in range(400):
            self.run(asyncio.sleep(0.005))
            if self.answer_offers(answer):
                break
            writing = any(c.writing for c in self.pipeline.coordinators.values())
            if step >= 2 and not writing:
                break
        self.run(self._settle())
        self.observe(self.wire.take(session), who)
        self.turns += 1

    @precondition(lambda self: any(s not in ("withdrawn",) for s in self.status.values()))
    @rule(data=st.data())
    def withdraw(self, data: st.DataObject) -> None:
        oid = pick(data, list(self.status))
        self.deliver(self.owner[oid], ObjectiveWithdraw(id=self.next_id(), objective_id=oid))

    @precondition(lambda self: any(s in OPEN for s in self.status.values()))
    @rule(data=st.data(), state=st.sampled_from(["in-progress", "done", "failed", "blocked"]))
    def progress(self, data: st.DataObject, state: str) -> None:
        oid = pick(data, [o for o, s in self.status.items() if s in OPEN])
        agent = self.agent_of[oid]
        if not self.present.get(agent, False) or agent not in AGENTS:
            return
        report = ObjectiveProgress(id=self.next_id(), objective_id=oid, state=state, note="")  # type: ignore[arg-type]
        skips = self.status[oid] == "accepted" and state in ("done", "failed")
        got = self.deliver(agent, report)
        if skips:  # §9: accepted → in-progress → done | failed; nothing changes
            (refused,) = [e for _sid, e in self.wire.errors if e.ref == report.id]
            assert (refused.code, refused.details) == ("objective_invalid", {"status": "accepted"})
            return
        (ack,) = [m for m in got if isinstance(m, ObjectiveUpdated) and m.ref == report.id]
        self.status[oid] = ack.objective.status
        event(f"progress: {ack.objective.status}")

    @rule(agent=st.sampled_from(AGENTS))
    def agent_comes_or_goes(self, agent: str) -> None:
        assert self.pipeline is not None
        if self.present[agent]:
            session = self.session(agent)
            session.connection = None
            pipeline = self.pipeline

            async def detach() -> None:
                pipeline.on_detached(session, "bye")

            self.run(detach())
            self.wire.sessions.remove(session)
        else:
            sid = f"s-{agent.lower()}-{self.next_id()}"
            session = bound_session(sid, agent.lower(), agent, max_control=100_000)
            self.wire.sessions.append(session)
            self.run(self.pipeline.on_attached(session, resumed=False))
        self.present[agent] = not self.present[agent]
        self.run(self._settle())
        for s in self.wire.sessions:
            self.observe(self.wire.take(s), s.principal)

    @rule()
    def restart(self) -> None:
        event("restart")
        self.run(self._stop())
        self.wire.inbox.clear()
        self.run(self._start())
        # Offers the shutdown cut were answered at start, unannounced: the
        # log is the truth for them. Nothing announced was lost.
        for oid in list(self.status):
            stored = self.wire.stored(oid)
            assert stored is not None, f"{oid} was announced but is not in the log"
            if self.status[oid] == "offered" or stored != self.status[oid]:
                assert self.status[oid] in ("offered", "draft") or stored == self.status[oid]
                self.status[oid] = "draft" if stored == "pending" else stored

    # --------------------------------------------------------- invariants

    @invariant()
    def audits_name_the_pusher(self) -> None:
        db = self.dir / "vac.db"
        if not db.exists():
            return
        with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
            rows = conn.execute(
                "SELECT principal, detail FROM audit WHERE kind='ObjectiveRefused'"
            ).fetchall()
        for principal, detail in rows:
            oid = json.loads(detail)["objective_id"]
            assert self.owner.get(oid, principal) == principal

    @invariant()
    def nothing_unexpected_was_refused(self) -> None:
        unexpected = [
            (sid, e)
            for sid, e in self.wire.errors
            if e.code not in ("objective_unknown", "objective_invalid", "rate_limited")
        ]
        assert not unexpected, unexpected


Household.TestCase.settings = settings(
    max_examples=60,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
TestHousehold = Household.TestCase
