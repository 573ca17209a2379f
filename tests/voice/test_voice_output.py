"""Spoken replies over real sockets with the real piper voice."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator

import pytest
import zmq

from tests.conftest import RunningDaemon, start_daemon
from tests.voice.test_voice_input import voice_home
from vac.client.connection import Connection, Timeout
from vac.daemon.config import DaemonSection, VacConfig
from vac.protocol.messages import (
    AudioOutputChunk,
    AudioOutputDone,
    AudioOutputPlayed,
    AudioOutputRefused,
    AudioOutputStart,
    AudioOutputVisemes,
    Error,
    Negotiation,
    ObjectiveAnswer,
    ObjectiveConfirm,
    ObjectiveConfirmed,
    ObjectiveDraft,
    ObjectiveOffer,
    OutboundMessage,
    Ping,
    Pong,
    TextInput,
    TurnCancel,
    TurnDone,
)
from vac.runtime.store import EventLog

pytestmark = pytest.mark.slow
TEXT_ONLY_IN = {"enabled": False}


@pytest.fixture(scope="module")
def speaking(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningDaemon]:
    home = voice_home(tmp_path_factory.mktemp("speak") / "home")
    cfg = VacConfig(daemon=DaemonSection(max_sessions_per_principal=64), stt=TEXT_ONLY_IN)
    d = start_daemon(home, config=cfg)
    yield d
    d.shutdown()


Received = list[tuple[OutboundMessage, bytes | None]]


def until_turn_done(c: Connection, timeout_s: float = 60) -> Received:
    return c.recv_until(lambda m: isinstance(m, TurnDone), timeout_s)


def draft_then_confirm(c: Connection, text: str) -> Received:
    c.send(TextInput(id=c.next_id(), text=text))
    got = until_turn_done(c)
    draft = next(m for m, _ in got if isinstance(m, ObjectiveDraft))
    c.send(ObjectiveConfirm(id=c.next_id(), objective_id=draft.objective.id))
    return got + until_turn_done(c)


def agent_answers(d: RunningDaemon, c: Connection, reply: str) -> str:
    """Kofi (an agent session) answers `c`'s confirmed draft with `reply`,
    which `c` then hears in its confirm turn: long or odd text to speak. (A
    steward's squad message posted as Kofi did this until §1 forbade it.)"""
    from vac.daemon import keys

    if not (d.home.enrolled_dir / "kofi.key").exists():
        keys.enroll(d.home, "kofi", agent="Kofi")
    kofi = d.connect("kofi")
    kofi.hello()  # the latest session of Kofi: the offer comes here
    c.send(TextInput(id=c.next_id(), text="Ask Kofi to build a bench by tomorrow"))
    # Past any spoken update still ending ("Kofi took on: …", a turn of its own).
    draft = c.expect(ObjectiveDraft, 60)
    c.recv_until(lambda m: isinstance(m, TurnDone) and m.turn == draft.turn, 60)
    c.send(ObjectiveConfirm(id=c.next_id(), objective_id=draft.objective.id))
    turn = c.expect(ObjectiveConfirmed, 10).turn
    offer = kofi.expect(ObjectiveOffer, 10)
    kofi.send(
        ObjectiveAnswer(
            id=kofi.next_id(),
            offer=offer.offer,
            decision="accept",
            reply=reply,
            reason="",
            evidence=[],
        )
    )
    return turn  # the confirm's turn: the reply is spoken in it


def turn_of(c: Connection, turn: str, streams: tuple[str, ...] = ()) -> Received:
    """`c`'s messages to the end of `turn`; other turns meanwhile (a spoken
    update of another of alice's objectives, "Kofi took on: …") pass by.
    `streams`: the turn's output streams already read."""
    got = c.recv_until(lambda m: isinstance(m, TurnDone) and m.turn == turn, 60)
    mine = {x.stream for x, _ in got if isinstance(x, AudioOutputStart) and x.turn == turn}
    streams = (*streams, *mine)

    def of_turn(m: OutboundMessage) -> bool:
        if hasattr(m, "turn"):
            return getattr(m, "turn", None) == turn
        # `audio.output.*` without `turn`: of `turn` when its stream began in it.
        return not hasattr(m, "stream") or getattr(m, "stream", None) in streams

    return [(m, p) for m, p in got if of_turn(m)]


@pytest.mark.parametrize("rate", [16000, 48000])
def test_confirm_is_spoken_at_the_negotiated_rate(speaking: RunningDaemon, rate: int) -> None:
    c = speaking.connect()
    c.hello(rate=rate, speak=True)
    got = draft_then_confirm(c, "Tell Kofi to build a wooden bench near the pond by tomorrow")
    msgs = [m for m, _ in got]
    starts = [m for m in msgs if isinstance(m, AudioOutputStart)]
    assert len(starts) == 2  # the draft's spoken preview, then the negotiation reply
    neg = next(m for m in msgs if isinstance(m, Negotiation))
    reply_start = starts[1]
    assert reply_start.rate == rate and reply_start.text.startswith(neg.reply.split(".")[0])
    stream = reply_start.stream
    visemes = [m for m in msgs if isinstance(m, AudioOutputVisemes) and m.stream == stream]
    assert visemes and sum(len(v.cues) for v in visemes) > 8
    chunks = [(m, p) for m, p in got if isinstance(m, AudioOutputChunk) and m.stream == stream]
    done = next(m for m in msgs if isinstance(m, AudioOutputDone) and m.stream == stream)
    assert done.reason == "completed" and done.chunks == len(chunks)
    assert [m.index for m, _ in chunks] == list(range(len(chunks)))
    assert all(m.generation == reply_start.generation for m, _ in chunks)
    # 100 ms chunks at the negotiated rate (the last may be shorter).
    sizes = [len(p or b"") for _, p in chunks]
    assert max(sizes) == rate // 10 * 2
    audio_ms = sum(sizes) * 1000 // (2 * rate)
    assert 1000 < audio_ms < 20000
    first_visemes = msgs.index(visemes[0])
    assert first_visemes < msgs.index(chunks[0][0])  # visemes before their chunks
    turn_done = msgs[-1]
    assert isinstance(turn_done, TurnDone) and turn_done.status == "completed"
    assert {"tts_first", "first_audio"} <= set(turn_done.latency_ms)
    gens = [s.generation for s in starts]
    assert gens[0] < gens[1]


def test_turn_cancel_after_first_chunk_fences_the_reply(speaking: RunningDaemon) -> None:
    c = speaking.connect()
    c.hello(rate=16000, speak=True)
    long_text = (
        "Heads up everyone. The storm is coming in from the west this evening, so please "
        "bring the tools inside, close the barn doors, check on the goats, and make sure "
        "the children are home before the rain starts. I will report back when it passes."
    )
    turn = agent_answers(speaking, c, long_text)
    start = next(
        m
        for m, _ in c.recv_until(lambda m: isinstance(m, AudioOutputStart) and m.turn == turn, 30)
        if isinstance(m, AudioOutputStart) and m.turn == turn
    )
    first = next(
        m
        for m, _ in c.recv_until(
            lambda m: isinstance(m, AudioOutputChunk) and m.stream == start.stream, 30
        )
        if isinstance(m, AudioOutputChunk)
    )
    assert first.stream == start.stream
    c.send(TurnCancel(id="stop", turn=start.turn, played_ms=700))
    rest = turn_of(c, start.turn, (start.stream,))
    done = next(m for m, _ in rest if isinstance(m, AudioOutputDone))
    assert done.reason == "cancelled"
    after_done = rest[[m for m, _ in rest].index(done) :]
    assert not [m for m, _ in after_done if isinstance(m, AudioOutputChunk)]
    received = 1 + sum(1 for m, _ in rest if isinstance(m, AudioOutputChunk))
    assert done.chunks == received
    turn_done = rest[-1][0]
    assert isinstance(turn_done, TurnDone) and turn_done.status == "cancelled"
    # Nothing more of the cancelled reply. Another turn may speak now (the
    # agent's "working on: build the bench" announcement came after the
    # cancel in one CI run): only this stream is fenced.
    later = list(c.drain(1.0))
    assert not [m for m in later if getattr(m, "stream", None) == start.stream], later
    # History keeps only what was heard: 700 ms is a few words, never the tail.
    rows = speaking.query(EventLog.conversation_of, done.session or "")
    agent_rows = [r for r in rows if r["role"] == "agent"]
    assert agent_rows, rows
    heard = agent_rows[-1]["text"]
    assert long_text.startswith(heard) and len(heard) < len(long_text) // 3
    assert "report back" not in heard


def test_markdown_is_spoken_without_code_and_json_is_refused(speaking: RunningDaemon) -> None:
    c = speaking.connect()
    c.hello(rate=16000, speak=True)
    md = "**Heads up:** the gate is open.\n\n```python\nopen_gate(force=True)\n```\n\nClose it."
    got = [m for m, _ in turn_of(c, agent_answers(speaking, c, md))]
    start = next(m for m in got if isinstance(m, AudioOutputStart))
    assert "open_gate" not in start.text and "```" not in start.text and "**" not in start.text
    assert "gate is open" in start.text
    got = [m for m, _ in turn_of(c, agent_answers(speaking, c, '{"gate": "open"}'))]
    refused = next(m for m in got if isinstance(m, AudioOutputRefused))
    assert refused.reason == "json"
    assert not any(isinstance(m, AudioOutputChunk | AudioOutputStart) for m in got)


def test_speak_false_gets_no_audio(speaking: RunningDaemon) -> None:
    c = speaking.connect()
    c.hello(speak=False)
    got = [m for m, _ in draft_then_confirm(c, "Ask Zuri to protect the grove path")]
    assert any(isinstance(m, Negotiation) for m in got)
    assert not [m for m in got if type(m).__name__.startswith("AudioOutput")]
    # Words the speech gate refuses (JSON): not even `audio.output.refused`.
    got = [m for m, _ in turn_of(c, agent_answers(speaking, c, '{"gate": "open"}'))]
    assert not [m for m in got if type(m).__name__.startswith("AudioOutput")], got


def test_played_reports_are_accepted(speaking: RunningDaemon) -> None:
    c = speaking.connect()
    c.hello(speak=True)
    c.send(TextInput(id=c.next_id(), text="Ask Imani to support the harvest"))
    got = [m for m, _ in until_turn_done(c)]
    start = next(m for m in got if isinstance(m, AudioOutputStart))
    c.send(AudioOutputPlayed(id="p", stream=start.stream, played_ms=500))
    c.send(AudioOutputPlayed(id="q", stream="never", played_ms=5))
    err = c.expect(Error)
    assert (err.code, err.ref) == ("stream_unknown", "q")
    for text in ("Ask Kofi to build a bench", "Ask Tariq to map the river"):
        c.send(TextInput(id=c.next_id(), text=text))
        until_turn_done(c)
    # The first reply's report, late (a client that buffers): no error.
    c.send(AudioOutputPlayed(id="late", stream=start.stream, played_ms=900))
    c.send(AudioOutputPlayed(id="q2", stream="never", played_ms=5))
    err = c.expect(Error)
    assert (err.code, err.ref) == ("stream_unknown", "q2")  # the late one had none


def test_non_reading_client_gets_output_overrun_and_others_are_unaffected(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    home = voice_home(tmp_path_factory.mktemp("overrun") / "home")
    cfg = VacConfig(daemon=DaemonSection(output_queue_chunks=8, output_lead_ms=1000),
                    stt=TEXT_ONLY_IN)  # fmt: skip
    d = start_daemon(home, config=cfg)
    try:
        stuck = d.connect("bob")
        stuck.sock.setsockopt(zmq.RCVHWM, 1)
        stuck.sock.setsockopt(zmq.RCVBUF, 4096)
        stuck.hello(rate=48000, speak=True)
        text = " ".join(
            f"Sentence number {i} of a long answer about the weather and the harvest."
            for i in range(7)
        )
        agent_answers(d, stuck, text)  # ~30 s of speech it will never read
        fast = d.connect("alice")
        fast.hello()
        worst_s = 0.0
        deadline = time.monotonic() + 25
        while time.monotonic() < deadline:
            t0 = time.perf_counter()
            fast.send(Ping(id=fast.next_id()))
            fast.expect(Pong, 2.0)
            worst_s = max(worst_s, time.perf_counter() - t0)
            time.sleep(0.1)
            overran = d.call(lambda: _overran(d))
            if overran:
                break
        assert worst_s < 0.5, f"pong took {worst_s:.3f} s while another client stalled"
        assert overran, "the stalled client never overran"
        # Now read what the stalled client got: the error and the failed endings.
        msgs = [m for m, _ in stuck.recv_until(lambda m: isinstance(m, TurnDone), 30)]
        err = next(m for m in msgs if isinstance(m, Error))
        assert err.code == "output_overrun"
        done = next(m for m in msgs if isinstance(m, AudioOutputDone))
        assert done.reason == "failed"
        assert isinstance(msgs[-1], TurnDone) and msgs[-1].status == "failed"
    finally:
        d.shutdown()


def _overran(d: RunningDaemon) -> bool:
    for session in d.server.sessions.values():
        if session.principal == "bob":
            return any(
                isinstance(m, Error) and m.code == "output_overrun" for m, _ in session.outbox.items
            )
    return False


@pytest.fixture(scope="module")
def full(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningDaemon]:
    """Both engines: a new utterance can barge in on a reply."""
    home = voice_home(tmp_path_factory.mktemp("full") / "home")
    d = start_daemon(home, config=VacConfig(daemon=DaemonSection(output_lead_ms=0)))
    yield d
    d.shutdown()


def test_new_utterance_barges_in_without_rejecting_the_draft(full: RunningDaemon) -> None:
    from tests.voice.test_voice_input import FIXTURES

    c = full.connect()
    ok = c.hello(rate=16000, speak=True)
    c.send(TextInput(id="t", text="Ask Kofi to build a wooden bench near the pond by tomorrow"))
    draft = c.expect(ObjectiveDraft, 30)
    start = c.expect(AudioOutputStart, 30)
    c.expect(AudioOutputChunk, 30)
    # The user talks over the spoken preview: a new stream cancels the reply.
    c.stream_pcm("over", FIXTURES["zuri_protect_path.joe"].pcm, commit=False)
    rest = [m for m, _ in c.recv_until(lambda m: isinstance(m, TurnDone), 10)]
    done = next(m for m in rest if isinstance(m, AudioOutputDone))
    assert (done.stream, done.reason) == (start.stream, "cancelled")
    ended = rest[-1]
    assert isinstance(ended, TurnDone) and ended.status == "cancelled"
    after = rest[rest.index(done) :]
    assert not [m for m in after if isinstance(m, AudioOutputChunk) and m.stream == start.stream]
    # Barge-in never rejects: the draft is still pending.
    c2 = full.connect()
    assert draft.objective.id in [p.id for p in c2.hello(resume=ok.session).pending]


def test_an_agents_update_is_spoken_where_the_steward_listens_after_the_reply(
    speaking: RunningDaemon,
) -> None:
    from vac.daemon import keys
    from vac.protocol.messages import ObjectiveProgress, ObjectiveUpdated

    if not (speaking.home.enrolled_dir / "kofi.key").exists():
        keys.enroll(speaking.home, "kofi", agent="Kofi")
    typing, listening, kofi = speaking.connect(), speaking.connect(), speaking.connect("kofi")
    strict = speaking.connect()  # names no addition: updates as text, no turn of their own
    typing.hello()
    listening.hello(speak=True)
    strict.hello(speak=True, features=())
    kofi.hello()
    typing.send(TextInput(id=typing.next_id(), text="ask Kofi to build a bench by tomorrow"))
    oid = typing.expect(ObjectiveDraft, 30).objective.id
    until_turn_done(typing)
    typing.send(ObjectiveConfirm(id=typing.next_id(), objective_id=oid))
    offer = kofi.expect(ObjectiveOffer, 10)
    kofi.send(
        ObjectiveAnswer(
            id="a1", offer=offer.offer, decision="accept", reply="On it.", reason="", evidence=[]
        )
    )
    kofi.expect(ObjectiveUpdated, 10)
    kofi.send(ObjectiveProgress(id="p1", objective_id=oid, state="in-progress", note=""))
    kofi.expect(ObjectiveUpdated, 10)
    kofi.send(ObjectiveProgress(id="p2", objective_id=oid, state="done", note=""))
    got: list[OutboundMessage] = []
    for _ in range(3):  # three updates: taken on, started, finished; each its own turn
        got += [m for m, _ in until_turn_done(listening)]
    updates = [m.objective.status for m in got if isinstance(m, ObjectiveUpdated)]
    assert updates[-3:] == ["accepted", "in-progress", "done"]
    spoken = [m.text for m in got if isinstance(m, AudioOutputStart)]
    assert spoken == [
        "Kofi took on: build the bench.",
        "Kofi started on: build the bench.",
        "Kofi finished: build the bench.",
    ]
    done = [m for m in got if isinstance(m, TurnDone)]
    # Queued, never interrupting: every turn completed, none cancelled.
    assert [d.status for d in done] == ["completed"] * 3
    # A client written to §5 alone: the updates, and no turn no transcript began
    # (an independent client's probe: "announcement-turns" is opt-in).
    seen: list[OutboundMessage] = []
    with contextlib.suppress(Timeout):
        while True:
            seen.append(strict.recv(2.0)[0])
    assert [m.objective.status for m in seen if isinstance(m, ObjectiveUpdated)][-3:] == [
        "accepted",
        "in-progress",
        "done",
    ]
    assert not [m for m in seen if isinstance(m, (AudioOutputStart, TurnDone))], seen
