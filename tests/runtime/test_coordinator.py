"""The TurnCoordinator without sockets: a real pipeline and event log, a
recording transport. The real-socket twins are tests/daemon/test_turns.py
and tests/reliability/test_decision_races.py."""

from __future__ import annotations

import ast
import asyncio
import re
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from vac import intent
from vac.clock import wall_now
from vac.errors import VacError
from vac.protocol.messages import (
    AudioOutputChunk,
    AudioOutputDone,
    AudioOutputPlayed,
    AudioOutputStart,
    Limits,
    Negotiation,
    ObjectiveClarify,
    ObjectiveConfirm,
    ObjectiveConfirmed,
    ObjectiveDraft,
    ObjectiveList,
    ObjectiveListResult,
    ObjectiveReject,
    ObjectiveRejected,
    ObjectiveUpdated,
    OutputFormat,
    SquadSend,
    TextInput,
    TranscriptFinal,
    TurnCancel,
    TurnDone,
)
from vac.protocol.objective_lifecycle import ANSWERS
from vac.runtime.coordinator import TurnCoordinator
from vac.runtime.heard import FinalHeard
from vac.runtime.latency import LatencyTrace
from vac.runtime.pipeline import Engines, Pipeline
from vac.runtime.session import Outbox, Replies, Session
from vac.runtime.store import AsyncEventLog, EventLog, StorageUnavailable
from vac.speech.tts import SynthesizedPhrase
from vac.speech.vad import VadConfig

SRC = Path(__file__).resolve().parents[2] / "src" / "vac"
LIMITS = Limits(
    max_chunk_bytes=8192,
    max_utterance_ms=30_000,
    input_buffer_ms=2000,
    output_queue_chunks=512,
    output_lead_ms=200,
)
DRAFT_TEXT = "ask Kofi to build a bench by the pond by tomorrow"


class RecordingTransport:
    """The port's `Transport`, recording what the runtime sends."""

    limits = LIMITS

    def __init__(self) -> None:
        self.sent: list[Any] = []
        self.errors: list[VacError] = []
        self.sessions: list[Session] = []

    def send(self, session: Session, msg: Any) -> bool:
        if session.connection is None:
            return False
        session.replies.record(msg)
        self.sent.append(msg)
        return True

    def try_send_chunk(self, session: Session, msg: AudioOutputChunk, payload: bytes) -> bool:
        self.sent.append(msg)
        return True

    def drop_chunks(self, session: Session, generation: int) -> int:
        return 0

    def error(self, session: Session, exc: VacError) -> None:
        self.errors.append(exc)
        self.sent.append(exc)

    def attached(self) -> Iterable[Session]:
        return [s for s in self.sessions if s.attached]

    def holds(self, session_id: str) -> bool:
        return any(s.id == session_id for s in self.sessions)

    def of(self, kind: type) -> list[Any]:
        return [m for m in self.sent if isinstance(m, kind)]


class SilentTts:
    """A voice that says a second of silence per phrase, at once."""

    sample_rate_hz = 16000

    def synthesize(self, phrase: str) -> SynthesizedPhrase:
        return SynthesizedPhrase(
            pcm=bytes(32000),
            rate_hz=16000,
            duration_ms=1000,
            cues=[],
            timing="estimated",
            compute_ms=0.0,
        )


def new_session(speak: bool = False) -> Session:
    return Session(
        "s1",
        "alice",
        "test",
        OutputFormat(rate=16000, speak=speak),
        Outbox(max_chunks=512, max_control=4096),
        Replies(window=64),
        connection=b"peer",
    )


@dataclass
class Rig:
    transport: RecordingTransport
    pipeline: Pipeline
    session: Session
    coordinator: TurnCoordinator

    def text(self, msg_id: str, text: str = DRAFT_TEXT) -> None:
        self.coordinator.handle(TextInput(id=msg_id, text=text), None)

    def of(self, kind: type) -> list[Any]:
        return self.transport.of(kind)

    def pending_agents(self) -> list[str]:
        return [e.objective.agent for e in self.pipeline.book.pending("alice", now=wall_now())]

    def slow_commits(self, delay_s: float = 0.05) -> list[Any]:
        """Every decision write takes `delay_s`; returns the steps that landed."""
        real = self.pipeline.commit
        landed: list[Any] = []

        async def slow(step: Any) -> None:
            await asyncio.sleep(delay_s)
            await real(step)
            landed.append(step)

        self.pipeline.commit = slow  # type: ignore[method-assign]
        return landed

    async def settle(self, turns_done: int) -> None:
        """Wait until `turns_done` turns have ended and nothing is being written."""
        for _ in range(400):
            if len(self.of(TurnDone)) >= turns_done and not self.coordinator.writing:
                return
            await asyncio.sleep(0.005)
        raise AssertionError(f"after 2 s: {self.transport.sent}")

    async def until(self, kind: type) -> None:
        for _ in range(400):
            if self.of(kind):
                return
            await asyncio.sleep(0.005)
        raise AssertionError(f"no {kind.__name__} after 2 s: {self.transport.sent}")


async def _rig(tmp_path: Path, tts: Any) -> AsyncIterator[Rig]:
    store = AsyncEventLog(tmp_path / "vac.db")
    transport = RecordingTransport()
    engines = Engines(stt=None, tts=tts, vad=VadConfig())
    pipeline = Pipeline(
        transport, store, engines, intent.config_from_builtins({}), max_pending_drafts=8
    )
    session = new_session(speak=tts is not None)
    yield Rig(transport, pipeline, session, TurnCoordinator(pipeline, session))
    await pipeline.close()
    await store.close()


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[Rig]:
    """A text-only daemon's coordinator."""
    async for r in _rig(tmp_path, None):
        yield r


@pytest.fixture
async def voiced(tmp_path: Path) -> AsyncIterator[Rig]:
    """A coordinator that speaks (silence, paced in real time)."""
    async for r in _rig(tmp_path, SilentTts()):
        yield r


async def test_a_text_draft_is_written_then_announced_then_done(rig: Rig) -> None:
    rig.text("t1")
    await rig.settle(1)
    assert [type(m) for m in rig.transport.sent] == [TranscriptFinal, ObjectiveDraft, TurnDone]
    final, draft, done = rig.transport.sent
    assert final.turn == draft.turn == done.turn and final.ref == "t1"
    assert done.status == "parsed"
    assert rig.coordinator.current_agent == "Kofi"


async def test_refusals_keep_the_code_and_words_they_were_raised_with(rig: Rig) -> None:
    handle = rig.coordinator.handle
    handle(ObjectiveReject(id="r1", objective_id="nope"), None)
    handle(TurnCancel(id="c1", turn="never"), None)
    handle(SquadSend(id="q1", kind="directed-order", text="hello", to="Nobody"), None)
    codes = [(e.code, e.ref, e.message) for e in rig.transport.errors]
    assert codes[0] == ("objective_unknown", "r1", "no such pending objective")
    assert codes[1] == ("turn_unknown", "c1", "no such turn")
    assert codes[2][:2] == ("invalid_message", "q1")
    assert isinstance(rig.transport.errors[0], intent.ObjectiveUnknown)  # not re-made
    assert rig.of(TurnDone) == []


async def test_a_stale_revision_is_objective_invalid_naming_the_field(rig: Rig) -> None:
    rig.text("t1")
    await rig.settle(1)
    oid = rig.of(ObjectiveDraft)[0].objective.id
    rig.coordinator.handle(ObjectiveConfirm(id="c1", objective_id=oid, revision=9), None)
    (err,) = rig.transport.errors
    assert (err.code, err.ref, err.details) == ("objective_invalid", "c1", {"fields": ["revision"]})
    assert err.message.startswith("revision: ")


async def test_a_failed_write_says_provider_unavailable_and_rolls_back(rig: Rig) -> None:
    async def full_disk(step: Any) -> None:
        raise StorageUnavailable("disk full (test)")

    rig.pipeline.commit = full_disk  # type: ignore[method-assign]
    rig.text("t1")
    await rig.settle(1)
    (err,) = rig.transport.errors
    (done,) = rig.of(TurnDone)
    assert (err.code, err.ref, err.turn) == ("provider_unavailable", "t1", done.turn)
    assert err.details == {"provider": "storage", "retry_after_ms": 1000}
    assert done.status == "failed"
    assert rig.pending_agents() == []


async def test_a_question_whose_outcome_is_not_written_is_never_asked(rig: Rig) -> None:
    """Its id's outcome is written first (a restart answers the same id with
    the question, never a decision): a write that fails is never a question."""

    async def full_disk(step: Any) -> None:
        raise StorageUnavailable("disk full (test)")

    rig.pipeline.commit = full_disk  # type: ignore[method-assign]
    rig.text("t1", "the fence too")  # no verb: a question
    await rig.settle(1)
    (err,) = rig.transport.errors
    assert (err.code, err.ref) == ("provider_unavailable", "t1")
    assert not rig.of(ObjectiveClarify) and rig.of(TurnDone)[0].status == "failed"
    assert rig.coordinator.choice.just_asked() is None  # never asked: nothing to answer


async def test_input_behind_a_write_waits_for_it_in_order(rig: Rig) -> None:
    rig.slow_commits()
    rig.text("t1")
    assert rig.coordinator.writing
    rig.text("t2", "have Tariq investigate the noise in the barn")
    assert [type(m) for m in rig.transport.sent] == [TranscriptFinal]  # t2 is held
    await rig.settle(2)
    finals = rig.of(TranscriptFinal)
    assert [m.ref for m in finals] == ["t1", "t2"]
    # t1's draft was announced before t2 began (and cancelled t1's turn).
    sent = rig.transport.sent
    assert sent.index(rig.of(ObjectiveDraft)[0]) < sent.index(finals[1])
    assert rig.of(TurnDone)[0].status == "cancelled"


async def test_a_listing_is_cancelled_on_detach_and_a_decision_is_not(rig: Rig) -> None:
    landed = rig.slow_commits()
    rig.text("t1")
    rig.coordinator.detached("gone")
    rig.session.connection = None
    assert rig.of(TurnDone)[-1].status == "cancelled"
    await rig.coordinator.settled()
    assert len(landed) == 1  # the decision still landed
    assert rig.pending_agents() == ["Kofi"]
    # A listing started before a detach never answers after it.
    rig.session.connection = b"peer"
    rig.coordinator.handle(ObjectiveList(id="l1"), None)
    rig.coordinator.detached("gone")
    await asyncio.sleep(0.05)
    assert rig.of(ObjectiveListResult) == []
    rig.coordinator.handle(ObjectiveList(id="l2"), None)
    await rig.until(ObjectiveListResult)
    assert [m.ref for m in rig.of(ObjectiveListResult)] == ["l2"]


async def test_turn_cancel_fences_the_reply_then_ends_the_turn(voiced: Rig) -> None:
    voiced.text("t1")
    await voiced.until(AudioOutputChunk)
    turn = voiced.of(TranscriptFinal)[0].turn
    voiced.coordinator.handle(TurnCancel(id="c1", turn=turn, played_ms=0), None)
    assert [type(m) for m in voiced.transport.sent[-2:]] == [AudioOutputDone, TurnDone]
    assert voiced.of(AudioOutputDone)[0].reason == "cancelled"
    assert voiced.of(TurnDone)[0].status == "cancelled"
    voiced.coordinator.handle(TurnCancel(id="c2", turn=turn), None)  # ended: no error
    assert voiced.transport.errors == []


async def test_barge_in_cuts_a_reply(voiced: Rig) -> None:
    voiced.text("t1")
    await voiced.until(AudioOutputChunk)
    voiced.coordinator.barge_in()
    assert [type(m) for m in voiced.transport.sent[-2:]] == [AudioOutputDone, TurnDone]
    assert voiced.of(TurnDone)[0].status == "cancelled"


async def test_barge_in_mutes_a_turn_still_working(voiced: Rig) -> None:
    voiced.slow_commits()
    voiced.text("t1")
    voiced.coordinator.barge_in()  # still writing: the turn goes on, silent
    await voiced.settle(1)
    assert voiced.of(ObjectiveDraft) and voiced.of(AudioOutputStart) == []
    assert voiced.of(TurnDone)[0].status == "parsed"


# ------------------------------------------------------------- layering

RUNTIME = SRC / "runtime"


def runtime_imports(path: Path) -> set[str]:
    """Every vac.runtime module `path` imports, TYPE_CHECKING blocks included."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "vac.runtime":
                names.update(f"vac.runtime.{a.name}" for a in node.names)
            elif node.module.startswith("vac.runtime."):
                names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names if a.name.startswith("vac.runtime."))
    return {".".join(n.split(".")[:3]) for n in names}


def test_the_coordinator_and_the_pipeline_do_not_import_each_other() -> None:
    assert "vac.runtime.pipeline" not in runtime_imports(RUNTIME / "coordinator.py")
    assert "vac.runtime.coordinator" in runtime_imports(RUNTIME / "pipeline.py")


def test_runtime_modules_import_no_cycle() -> None:
    graph = {
        f"vac.runtime.{p.stem}": runtime_imports(p)
        for p in RUNTIME.glob("*.py")
        if p.stem != "__init__"
    }
    for pkg in RUNTIME.iterdir():
        if pkg.is_dir() and (pkg / "__init__.py").exists():
            deps: set[str] = set()
            for p in pkg.rglob("*.py"):
                deps |= runtime_imports(p)
            graph[f"vac.runtime.{pkg.name}"] = deps - {f"vac.runtime.{pkg.name}"}
    seen: dict[str, int] = {}  # 1: on the path, 2: done

    def visit(mod: str, path: list[str]) -> None:
        if seen.get(mod) == 2:
            return
        assert seen.get(mod) != 1, " -> ".join([*path, mod])
        seen[mod] = 1
        for dep in sorted(graph.get(mod, ())):
            visit(dep, [*path, mod])
        seen[mod] = 2

    for mod in sorted(graph):
        visit(mod, [])


def test_no_untracked_background_task_in_turns_or_pipeline() -> None:
    for name in (
        "coordinator",
        "pipeline",
        "turns",
        "durable",
        "decisions",
        "listing",
        "writes",
        "shared",
    ):
        text = (RUNTIME / f"{name}.py").read_text()
        assert "ensure_future" not in text and "create_task" not in text, name


# ---------------------------------------------------- spoken evidence, weighed


def heard(rig: Rig, text: str, probs: dict[str, float], names: dict[str, float]) -> None:
    """A final transcript with the recogniser's evidence, as the listener hands it over."""
    words = tuple(
        intent.WordProb(m.start(), m.end(), probs.get(m.group(), 0.95))
        for m in re.finditer(r"\S+", text)
    )
    ranked = tuple(intent.NameChoice(n, p) for n, p in sorted(names.items(), key=lambda kv: -kv[1]))
    ev = intent.Evidence(words, ranked)
    rig.coordinator._on_final(FinalHeard("s1", text, 0.55, "transcribed", "c1", LatencyTrace(), ev))


async def test_the_clients_trace_is_kept_to_turn_done(rig: Rig) -> None:
    words = (intent.WordProb(0, 3, 0.9),)
    trace = LatencyTrace(client_trace="c-42")
    rig.coordinator._on_final(
        FinalHeard(
            "s1",
            "ask Kofi to build a bench",
            0.9,
            "transcribed",
            "c1",
            trace,
            intent.Evidence(words),
        )
    )
    await rig.settle(1)
    (done,) = rig.of(TurnDone)
    assert done.trace == "c-42"
    rig.text("t2")
    await rig.settle(2)
    assert rig.of(TurnDone)[1].trace is None  # typed: no client trace


async def test_an_unsure_name_is_flagged_in_the_draft_not_refused(rig: Rig) -> None:
    heard(rig, "Ask Imani to map the orchard", {"Imani": 0.3}, {"Imani": 0.8, "Abeni": 0.2})
    await rig.settle(1)
    (draft,) = rig.of(ObjectiveDraft)
    assert draft.objective.agent == "Imani"
    assert draft.preview.uncertain == ["agent"]
    assert "I'm not sure of the name" in draft.preview.summary


async def test_a_toss_up_is_asked_by_name_and_the_answer_drafts_it(rig: Rig) -> None:
    heard(rig, "Ask Imani to map the orchard", {"Imani": 0.05}, {"Imani": 0.5, "Abeni": 0.45})
    await rig.settle(1)
    (asked,) = rig.of(ObjectiveClarify)
    assert asked.reason == "uncertain-agent" and asked.candidates == ["Imani", "Abeni"]
    assert not rig.of(ObjectiveDraft)
    rig.text("t2", "Abeni")
    await rig.settle(2)
    (draft,) = rig.of(ObjectiveDraft)
    assert draft.objective.agent == "Abeni" and draft.preview.uncertain == []
    assert draft.objective.source_text == "Ask Abeni to map the orchard"


async def test_several_agents_typed_at_once_are_asked_and_the_answer_drafts_one(
    rig: Rig,
) -> None:
    rig.text("t1", "ask Kofi and Tariq to guard the gate")
    await rig.settle(1)
    (asked,) = rig.of(ObjectiveClarify)
    assert asked.reason == "uncertain-agent" and asked.candidates == ["Kofi", "Tariq"]
    rig.text("t2", "Tariq")
    await rig.settle(2)
    (draft,) = rig.of(ObjectiveDraft)
    assert draft.objective.agent == "Tariq"
    assert draft.objective.source_text == "ask Tariq to guard the gate"


def heard_reply(rig: Rig, text: str, confirm: float, reject: float) -> None:
    """A short final rescored against the reply phrases (heard at -2 nats)."""
    replies = (
        intent.ReplyChoice("heard", text, -2.0),
        intent.ReplyChoice("confirm", "Yes.", confirm),
        intent.ReplyChoice("reject", "Scrap that.", reject),
    )
    ev = intent.Evidence((intent.WordProb(0, len(text), 0.2),), replies=replies)
    rig.coordinator._on_final(FinalHeard("s1", text, 0.3, "transcribed", "c1", LatencyTrace(), ev))


async def test_a_misheard_reply_rescored_against_the_replies_acts_on_the_sole_draft(
    rig: Rig,
) -> None:
    assert rig.coordinator._sole_pending(wall_now()) is None  # nothing to expect a reply to
    rig.text("t1")
    await rig.settle(1)
    (draft,) = rig.of(ObjectiveDraft)
    assert rig.coordinator._sole_pending(wall_now()) is not None  # the listener's flag
    heard_reply(rig, "Crap, not.", confirm=-12.0, reject=-3.0)  # "scrap that"
    await rig.settle(2)
    assert [r.objective_id for r in rig.of(ObjectiveRejected)] == [draft.objective.id]
    rig.text("t3")
    await rig.settle(3)
    second = rig.of(ObjectiveDraft)[-1]
    heard_reply(rig, "Shore.", confirm=-2.5, reject=-11.0)  # "sure", at confidence 0.3
    await rig.settle(4)
    assert [c.objective_id for c in rig.of(ObjectiveConfirmed)] == [second.objective.id]


async def test_an_undecided_rescoring_does_not_act(rig: Rig) -> None:
    rig.text("t1")
    await rig.settle(1)
    heard_reply(rig, "Go Fed.", confirm=-3.0, reject=-4.0)  # too close to call
    await rig.settle(2)
    assert not rig.of(ObjectiveConfirmed) and not rig.of(ObjectiveRejected)
    assert (
        len(
            rig.coordinator.shared.book.pending(
                rig.session.principal, now=wall_now(), session=rig.session.id
            )
        )
        == 1
    )


async def test_a_yes_right_after_another_question_does_not_confirm_the_pending_draft(
    rig: Rig,
) -> None:
    # A probe: one draft pending (Zuri's well), then a question about other
    # words ("Who should do it: Kofi or someone else?"), then "yes": it
    # confirmed Zuri's well, which the yes was not about.
    rig.text("t1", "ask Zuri to check the well")
    await rig.settle(1)
    rig.text("t2", "Kofi is busy, fix the gate tomorrow")
    await rig.settle(2)
    assert len(rig.of(ObjectiveClarify)) == 1
    rig.text("t3", "yes")
    await rig.settle(3)
    assert not rig.of(ObjectiveConfirmed)
    asked = rig.of(ObjectiveClarify)[-1]
    assert asked.reason == "reply-unclear" and "Zuri will look into the well" in asked.question
    rig.text("t4", "no")  # said again, with no question just asked: the draft's
    await rig.settle(4)
    assert len(rig.of(ObjectiveRejected)) == 1


async def test_after_reply_unclear_the_question_is_still_answered_in_words(rig: Rig) -> None:
    rig.text("t1", "ask Zuri to check the well")
    await rig.settle(1)
    rig.text("t2", "Kofi, fix it tomorrow")  # "What should Kofi repair?"
    await rig.settle(2)
    rig.text("t3", "no")  # neither the question's answer nor the draft's no
    await rig.settle(3)
    assert rig.of(ObjectiveClarify)[-1].reason == "reply-unclear" and not rig.of(ObjectiveRejected)
    rig.text("t4", "the gate")  # the answer it asked for
    await rig.settle(4)
    drafted = rig.of(ObjectiveDraft)[-1].objective
    assert (drafted.agent, drafted.target.label) == ("Kofi", "Gate")


async def test_a_yes_said_again_after_say_that_again_confirms(rig: Rig) -> None:
    rig.text("t1", "ask Zuri to check the well")
    await rig.settle(1)
    rig.text("t2", "...")  # "I didn't catch anything": asks for it again
    await rig.settle(2)
    rig.text("t3", "yes")
    await rig.settle(3)
    assert len(rig.of(ObjectiveConfirmed)) == 1


# ------------------------------------------------------ the agent's answer, kept


async def test_an_edit_to_an_agent_off_the_roster_is_invalid_and_changes_nothing(
    rig: Rig,
) -> None:
    rig.text("t1")
    await rig.settle(1)
    oid = rig.of(ObjectiveDraft)[0].objective.id
    edit = ObjectiveConfirm(id="c1", objective_id=oid, edits={"agent": "Bob"})
    rig.coordinator.handle(edit, None)
    await rig.settle(1)
    (err,) = rig.transport.errors
    assert err.code == "objective_invalid" and err.details == {"fields": ["agent"]}
    assert not rig.of(ObjectiveConfirmed)
    assert rig.pending_agents() == ["Kofi"]  # still pending, unchanged
    both = ObjectiveConfirm(id="c2", objective_id=oid, edits={"agent": "Bob", "priority": -1})
    rig.coordinator.handle(both, None)
    await rig.settle(1)
    err = rig.transport.errors[-1]  # every failing field named (§5.1), the agent too
    assert err.code == "objective_invalid" and err.details == {"fields": ["agent", "priority"]}
    assert rig.pending_agents() == ["Kofi"]


async def test_an_accepted_objective_says_so_where_it_is_stored_and_sent(rig: Rig) -> None:
    rig.text("t1", "ask Kofi to build a bench by the pond")
    await rig.settle(1)
    oid = rig.of(ObjectiveDraft)[0].objective.id
    rig.coordinator.handle(ObjectiveConfirm(id="c1", objective_id=oid), None)
    await rig.settle(2)
    (negotiation,) = rig.of(Negotiation)
    (confirmed,) = rig.of(ObjectiveConfirmed)
    accepted = negotiation.decision == "accept"
    assert confirmed.objective.accepted_by_agent is accepted
    stored = rig.pipeline.book.get("alice", oid).objective
    assert stored.accepted_by_agent is accepted
    # The stored status is the answer's (the lifecycle table, PROTOCOL §9).
    assert stored.status == ANSWERS[negotiation.decision]


async def test_commitments_are_what_was_accepted_and_survive_a_restart(tmp_path: Path) -> None:
    # Kofi tends the hives (standing) and accepts two asks: the third
    # non-urgent one is deferred — after a restart too, from the event log.
    asks = ("repair the garden gate", "build a bench", "map the orchard")

    async def decide(rig: Rig, n: int, ask: str) -> str:
        rig.text(f"t{n}", f"ask Kofi to {ask} by tomorrow")
        await rig.settle(2 * n - 1)
        oid = rig.of(ObjectiveDraft)[-1].objective.id
        rig.coordinator.handle(ObjectiveConfirm(id=f"c{n}", objective_id=oid), None)
        await rig.settle(2 * n)
        return str(rig.of(Negotiation)[-1].decision)

    async for rig in _rig(tmp_path, None):
        assert [await decide(rig, 1, asks[0]), await decide(rig, 2, asks[1])] == [
            "accept",
            "accept",
        ]
        assert await decide(rig, 3, asks[2]) == "defer"
    async for again in _rig(tmp_path, None):
        await again.pipeline.warm_up()
        assert await decide(again, 1, "support the elders") == "defer"


# ------------------------------------------------- history keeps what was heard


async def spoken_history(rig: Rig) -> list[str]:
    rows = await rig.pipeline.store.call(EventLog.conversation_of, rig.session.id)
    return [r["text"] for r in rows if r["role"] == "agent"]


async def until_turns_done(rig: Rig, n: int) -> None:
    for _ in range(1000):  # replies are paced in real time: up to 10 s
        if len(rig.of(TurnDone)) >= n:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{n} turns not done: {rig.transport.sent}")


async def test_a_completed_reply_keeps_only_what_the_client_played(voiced: Rig) -> None:
    voiced.text("t1", "the weather is nice")  # a clarify: two sentences, two 1 s phrases
    await until_turns_done(voiced, 1)
    (start,) = voiced.of(AudioOutputStart)
    whole = start.text
    # Completed on the wire, but the client says it played only half a second.
    voiced.coordinator.handle(AudioOutputPlayed(id="p1", stream=start.stream, played_ms=500), None)
    voiced.text("t2", "the weather is nice")
    await until_turns_done(voiced, 2)
    await voiced.pipeline.writes.drain(5.0)
    first = (await spoken_history(voiced))[0]
    assert first and whole.startswith(first) and len(first) < len(whole) / 2


async def test_a_reply_played_to_its_end_is_kept_whole(voiced: Rig) -> None:
    voiced.text("t1", "the weather is nice")
    await until_turns_done(voiced, 1)
    (start,) = voiced.of(AudioOutputStart)
    voiced.coordinator.handle(AudioOutputPlayed(id="p1", stream=start.stream, played_ms=2000), None)
    await voiced.pipeline.writes.drain(5.0)
    assert await spoken_history(voiced) == [start.text]


async def test_an_announcement_waits_for_the_reply_and_interrupts_nothing(voiced: Rig) -> None:
    voiced.text("t1")  # its spoken preview takes a second per phrase
    await voiced.until(AudioOutputStart)
    voiced.coordinator.announcer.say("Kofi finished: build the bench.")
    await until_turns_done(voiced, 2)  # paced in real time: the read-back may be longer
    done = voiced.of(TurnDone)
    assert [d.status for d in done] == ["parsed", "completed"]
    starts = voiced.of(AudioOutputStart)
    assert starts[-1].text == "Kofi finished: build the bench." and starts[-1].turn == done[1].turn
    # Announced after the first reply ended, in a turn of its own.
    sent = voiced.transport.sent
    assert sent.index(done[0]) < sent.index(starts[-1])


async def test_an_answer_said_in_the_confirm_turn_is_not_announced_again(voiced: Rig) -> None:
    """The confirming session gets the change as text; its turn said the
    reply, so "Kofi took on: …" was spoken again after it (`vac talk`'s
    reply was heard twice)."""
    voiced.text("t1")
    await until_turns_done(voiced, 1)
    oid = voiced.of(ObjectiveDraft)[0].objective.id
    voiced.coordinator.handle(ObjectiveConfirm(id="c1", objective_id=oid), None)
    await until_turns_done(voiced, 2)
    await asyncio.sleep(0.5)  # an announcement would start now
    assert [u.objective.id for u in voiced.of(ObjectiveUpdated)] == [oid]  # the text
    said = [s.text for s in voiced.of(AudioOutputStart)]
    assert len(said) == 2 and not any("took on" in t for t in said), said


async def test_an_announcement_taken_back_while_queued_is_not_said(voiced: Rig) -> None:
    """A permission-request answered (or withdrawn) before its turn to be
    spoken: nobody is asked aloud what was settled already."""
    voiced.text("t1")  # its spoken preview takes a second per phrase
    await voiced.until(AudioOutputStart)
    voiced.coordinator.announcer.say("Kofi: may I use the ladder?", about="m1")
    voiced.coordinator.announcer.say("Kofi finished: build the bench.")
    voiced.pipeline.coordinators[voiced.session.id] = voiced.coordinator  # as on_attached
    voiced.pipeline.unannounce("m1")  # what closing the request does
    await until_turns_done(voiced, 2)  # paced in real time: the read-back may be longer
    said = [s.text for s in voiced.of(AudioOutputStart)][1:]
    assert said == ["Kofi finished: build the bench."]


async def test_a_permission_request_answered_before_it_is_spoken_is_not_said(
    voiced: Rig,
) -> None:
    """The whole path: an agent's request is queued to be spoken behind the
    steward's reply, the steward answers it by typing, and it is never said."""
    from tests.runtime.rigs import bound_session
    from vac.protocol.agent_messages import SquadAnswer, SquadAnswered
    from vac.protocol.messages import OutputFormat, SquadMessage

    pipeline = voiced.pipeline
    alice, kofi = bound_session("a", "alice"), bound_session("k", "kofi", "Kofi")
    alice.output = OutputFormat(rate=16000, speak=True)
    voiced.transport.sessions += [alice, kofi]
    for s in (alice, kofi):
        await pipeline.on_attached(s, resumed=False)
    pipeline.on_message(alice, TextInput(id="t1", text=DRAFT_TEXT), None)  # a spoken preview
    await voiced.until(AudioOutputStart)
    request = SquadSend(id="q1", kind="permission-request", text="May I use the ladder?")
    pipeline.on_message(kofi, request, None)
    await voiced.until(SquadMessage)
    asked = voiced.of(SquadMessage)[-1].message_id
    assert asked is not None
    pipeline.on_message(alice, SquadAnswer(id="a1", message=asked, answer="granted"), None)
    await voiced.until(SquadAnswered)
    await asyncio.sleep(2.5)  # the preview's phrases end; a queued request would follow
    said = [start.text for start in voiced.of(AudioOutputStart)]
    assert said and not [text for text in said if "ladder" in text], said


@pytest.mark.parametrize(("over", "status"), [(False, "parsed"), (True, "budget-exceeded")])
async def test_a_turn_over_the_ack_budget_is_budget_exceeded_a_question_too(
    rig: Rig, monkeypatch: pytest.MonkeyPatch, over: bool, status: str
) -> None:
    # §8: over the `ack` budget is never reported as a success, nor as an
    # ordinary question; the draft or the question is still sent.
    from vac.runtime.latency import LatencyTrace

    monkeypatch.setattr(LatencyTrace, "ack_exceeded", property(lambda self: over))
    rig.text("t1")
    await rig.settle(1)
    rig.text("t2", "fix it")  # no agent named, no thing: a question
    await rig.settle(2)
    done = rig.of(TurnDone)
    assert [d.status for d in done] == [status, status if over else "needs-clarification"]
    assert rig.of(ObjectiveDraft) and rig.of(ObjectiveClarify)


# ------------------------------------------------ a change said to the draft


async def test_changes_said_one_after_another_each_replace_the_draft(rig: Rig) -> None:
    """A typed probe: "no, I said Kofi", "by Friday", "make it urgent" said
    after a draft were "I heard you, but not what to do", and the next "yes"
    confirmed the draft as it was (twin: tests/daemon/test_amend.py)."""
    rig.text("t1", "Zuri, fix the gate")
    await rig.settle(1)
    for n, change in enumerate(("no, I said Kofi", "by Friday", "make it urgent"), start=2):
        rig.text(f"t{n}", change)
        await rig.settle(n)
    drafts = [m.objective for m in rig.of(ObjectiveDraft)]
    assert [(o.agent, o.deadline is not None, o.priority) for o in drafts] == [
        ("Zuri", False, 55), ("Kofi", False, 55), ("Kofi", True, 55), ("Kofi", True, 90),
    ]  # fmt: skip
    assert [m.objective_id for m in rig.of(ObjectiveRejected)] == [o.id for o in drafts[:3]]
    assert rig.pending_agents() == ["Kofi"]  # one draft, the last
    rig.text("t5", "yes")
    await rig.settle(5)
    assert [m.objective_id for m in rig.of(ObjectiveConfirmed)] == [drafts[-1].id]


async def test_a_change_is_read_back_in_the_stewards_words(rig: Rig) -> None:
    """'tonight' was read back 'today' after 'no, Kofi' (twin:
    tests/daemon/test_amend.py, across a restart)."""
    rig.text("t1", "Tariq, guard the barn tonight")
    await rig.settle(1)
    rig.text("t2", "no, Kofi")
    await rig.settle(2)
    rig.text("t3", "the fence too")  # changes nothing: the draft is said again
    await rig.settle(3)
    said = rig.of(ObjectiveDraft)[-1].preview.summary
    assert said == "Kofi will protect the barn tonight — confirm?"
    assert rig.of(ObjectiveClarify)[-1].question.endswith(f"Still waiting for you: {said}")


async def test_a_no_alone_still_rejects_and_no_rush_is_a_priority(rig: Rig) -> None:
    rig.text("t1", "Kofi, fix the gate")
    await rig.settle(1)
    rig.text("t2", "no rush")  # rejected the draft before
    await rig.settle(2)
    assert rig.of(ObjectiveDraft)[-1].objective.priority < 40
    rig.text("t3", "no")
    await rig.settle(3)
    assert rig.pending_agents() == [] and len(rig.of(ObjectiveRejected)) == 2
    assert len(rig.of(ObjectiveDraft)) == 2  # "no" made no draft


async def test_a_yes_with_two_drafts_waiting_asks_which(rig: Rig) -> None:
    rig.text("t1", "Kofi, fix the gate")
    await rig.settle(1)
    rig.text("t2", "Zuri, map the river")
    await rig.settle(2)
    rig.text("t3", "yes")
    await rig.settle(3)
    asked = rig.of(ObjectiveClarify)[-1]
    assert asked.reason == "reply-unclear" and "2 drafts are waiting" in asked.question
    assert "Kofi will repair the gate" in asked.question and not rig.of(ObjectiveConfirmed)


async def test_a_no_with_no_draft_waiting_says_how_to_take_one_back(rig: Rig) -> None:
    """Twin: tests/daemon/test_amend.py (it got "I heard you, but not what to do")."""
    rig.text("t1", "Kofi, fix the gate")
    await rig.settle(1)
    rig.text("t2", "yes")
    await rig.settle(2)
    rig.text("t3", "cancel that")
    await rig.settle(3)
    asked = rig.of(ObjectiveClarify)[-1]
    assert asked.reason == "reply-unclear" and "vac withdraw" in asked.question
    assert len(rig.of(ObjectiveConfirmed)) == 1 and not rig.of(ObjectiveRejected)


async def test_the_agent_words_were_said_to_is_whom_the_answer_goes_to(rig: Rig) -> None:
    rig.text("t1", "Zuri, the radiator in the hall is cold. Can you bleed it?")
    await rig.settle(1)
    (asked,) = rig.of(ObjectiveClarify)
    assert asked.reason == "no-verb" and "Should Zuri repair" in asked.question
    assert rig.coordinator.current_agent == "Zuri"
    rig.text("t2", "fix the radiator")
    await rig.settle(2)
    (draft,) = rig.of(ObjectiveDraft)
    assert (draft.objective.agent, draft.objective.verb) == ("Zuri", "Repair")
    assert "sending to Zuri" in draft.preview.summary


async def test_a_yes_naming_one_of_two_drafts_confirms_that_one(rig: Rig) -> None:
    """Twin: tests/daemon/test_amend.py (a conversation probe: no words picked one)."""
    rig.text("t1", "Kofi, fix the gate")
    await rig.settle(1)
    rig.text("t2", "Zuri, map the river")
    await rig.settle(2)
    rig.text("t3", "yes to the gate one")
    await rig.settle(3)
    (done,) = rig.of(ObjectiveConfirmed)
    assert done.objective.agent == "Kofi" and rig.pending_agents() == ["Zuri"]


async def test_after_which_one_the_thing_alone_picks_with_the_yes_or_no_asked(rig: Rig) -> None:
    rig.text("t1", "Kofi, fix the gate")
    await rig.settle(1)
    rig.text("t2", "Zuri, map the river")
    await rig.settle(2)
    rig.text("t3", "no")
    await rig.settle(3)
    assert 'Say which ("yes to the gate one"' in rig.of(ObjectiveClarify)[-1].question
    rig.text("t4", "the river one")
    await rig.settle(4)
    assert rig.pending_agents() == ["Kofi"] and len(rig.of(ObjectiveRejected)) == 1
    rig.text("t5", "confirm both")  # one left: no pick, and no reply either
    await rig.settle(5)
    assert not rig.of(ObjectiveConfirmed)


async def test_both_is_asked_one_at_a_time_and_a_spoken_pick_heard_unsurely_is_none(
    rig: Rig,
) -> None:
    rig.text("t1", "Kofi, fix the gate")
    await rig.settle(1)
    rig.text("t2", "Zuri, map the river")
    await rig.settle(2)
    rig.text("t3", "yes to both")
    await rig.settle(3)
    assert rig.of(ObjectiveClarify)[-1].question.startswith("One at a time, please")
    heard(rig, "yes to the gate one", {"gate": 0.2}, {})  # the thing unsure: no pick
    await rig.settle(4)
    assert not rig.of(ObjectiveConfirmed) and len(rig.pending_agents()) == 2


async def _deferred(rig: Rig) -> None:
    """Tariq with three jobs accepted defers a fourth."""
    for n, job in enumerate(
        ("guard the barn", "mend the coop", "walk the fence", "check the lock")
    ):
        rig.text(f"d{n}", f"Tariq, {job} by Friday")
        await rig.settle(2 * n + 1)
        rig.text(f"y{n}", "yes")
        await rig.settle(2 * n + 2)


async def test_words_after_an_agent_defers_say_what_waits_and_how_to_go_on(rig: Rig) -> None:
    """Twin: tests/daemon/test_amend.py (it got the verb menu, or "No draft is waiting")."""
    await _deferred(rig)
    rig.text("t1", "yes")
    await rig.settle(9)
    asked = rig.of(ObjectiveClarify)[-1].question
    assert "waits on you (deferred)" in asked and "say the whole order again" in asked
    rig.text("t2", "make it urgent then")  # a change to it: a new draft of it, changed
    await rig.settle(10)
    again = rig.of(ObjectiveDraft)[-1].objective
    assert (again.agent, again.priority) == ("Tariq", 90) and again.target.label == "Lock"
    rig.text("t3", "yes")
    await rig.settle(11)
    assert rig.of(ObjectiveConfirmed)[-1].objective.status == "accepted"  # urgent: not deferred


async def test_after_a_defer_a_later_confirm_is_what_a_no_is_about(rig: Rig) -> None:
    """A review: "cancel that" after confirming Kofi's gate pointed at Tariq's deferral."""
    await _deferred(rig)
    rig.text("k1", "Kofi, fix the gate")
    await rig.settle(9)
    rig.text("k2", "yes")
    await rig.settle(10)
    rig.text("k3", "cancel that")
    await rig.settle(11)
    asked = rig.of(ObjectiveClarify)[-1].question
    assert "vac withdraw" in asked and "Tariq answered" not in asked


async def test_words_that_answer_no_question_asked_get_it_asked_again_once(rig: Rig) -> None:
    """A conversation probe: "whoever's free" to "Who should do it?" dropped
    the question ("I heard you, but not what to do"); "Abeni then" was lost."""
    rig.text("t1", "Ask Duri to check the boiler tomorrow")
    await rig.settle(1)
    rig.text("t2", "whoever's free")
    await rig.settle(2)
    again = rig.of(ObjectiveClarify)[-1]
    assert again.reason == "unknown-agent" and again.question.startswith("I didn't catch an answer")
    rig.text("t3", "Abeni then")
    await rig.settle(3)
    assert rig.of(ObjectiveDraft)[-1].objective.agent == "Abeni"


async def test_a_question_is_asked_again_only_once(rig: Rig) -> None:
    rig.text("t1", "Ask Kofi to repair by Friday")
    await rig.settle(1)
    for n, said in enumerate(("whoever", "whoever"), start=2):
        rig.text(f"t{n}", said)
        await rig.settle(n)
    asked = [m.question for m in rig.of(ObjectiveClarify)]
    assert sum(q.startswith("I didn't catch an answer") for q in asked) == 1, asked


async def test_with_one_draft_words_naming_it_act_on_it(rig: Rig) -> None:
    rig.text("t1", "Zuri, check the hives")
    await rig.settle(1)
    rig.text("t2", "cancel the fence one")  # names no draft: no pick
    await rig.settle(2)
    assert not rig.of(ObjectiveRejected)
    rig.text("t3", "cancel the hives one")
    await rig.settle(3)
    assert len(rig.of(ObjectiveRejected)) == 1 and rig.pending_agents() == []


async def test_after_a_defer_only_the_next_words_may_change_it_and_never_to_wait(
    rig: Rig,
) -> None:
    """A fourth review: an answer to a later question changed the deferred
    objective; "it can wait" redrafted it."""
    await _deferred(rig)
    drafts = len(rig.of(ObjectiveDraft))
    rig.text("t1", "it can wait")  # agreeing to wait: no new draft
    await rig.settle(9)
    rig.text("t2", "Kofi and Zuri, fix the fence")
    await rig.settle(10)
    assert rig.of(ObjectiveClarify)[-1].question.startswith("One agent at a time")
    rig.text("t3", "make it urgent then")  # not the next words: not the deferred one's
    await rig.settle(11)
    assert len(rig.of(ObjectiveDraft)) == drafts
