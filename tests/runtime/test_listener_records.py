"""A session's closed input streams outlive the daemon (PROTOCOL §4): each is
written to a real event log as it closes, its outcome before anyone is told
it, and a new listener (as a restarted daemon makes) reads them back. Real
VAD on a fixture, a scripted recogniser; the real twin over sockets, with a
daemon process stopped and killed, is tests/reliability/test_stream_restart.py."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.runtime.test_coordinator import new_session
from tests.runtime.test_listener_announced import SPEECH, ScriptedStt, Wire, announced
from vac.protocol.errors import ProtocolError
from vac.protocol.messages import (
    AudioInputCancel,
    AudioInputChunk,
    AudioInputCommit,
    AudioInputDone,
    AudioInputStart,
    TranscriptFinal,
)
from vac.runtime.heard import FinalHeard
from vac.runtime.listener import Listener
from vac.runtime.open_stream import OpenStream
from vac.runtime.store import AsyncEventLog, EventLog, StorageUnavailable
from vac.runtime.stream_records import Settled, StreamRecords
from vac.runtime.writes import Writes
from vac.speech.vad import VadConfig

SILENCE_1S = bytes(32 * 1000)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[AsyncEventLog]:
    store = AsyncEventLog(tmp_path / "vac.db")
    yield store
    await store.close()


class Records(StreamRecords):
    """The real records, with a write that fails, or that lands and then
    holds its answer back (a slow fsync, as the listener sees it)."""

    def __init__(self, store: AsyncEventLog) -> None:
        super().__init__(store, Writes(store), new_session())
        self.gate: asyncio.Event | None = None
        self.fail = False

    async def write(self, st: OpenStream, outcome: Settled) -> None:
        if self.fail:
            raise StorageUnavailable("database or disk is full")
        await super().write(st, outcome)
        if self.gate is not None:
            await self.gate.wait()


def listener_on(records: StreamRecords) -> tuple[Wire, Listener, list[FinalHeard]]:
    """A listener as the daemon makes one: `on_final` sends the final it starts a turn with."""
    wire, session, heard = Wire(), new_session(), []

    def on_final(h: FinalHeard) -> TranscriptFinal:
        heard.append(h)
        assert h.turn_id is not None  # named before it was written
        msg = TranscriptFinal(
            ref=h.ref, stream=h.stream, turn=h.turn_id, text=h.text, confidence=h.confidence
        )
        wire.send(session, msg)
        return msg

    listener = Listener(
        wire,  # type: ignore[arg-type]
        session,
        ScriptedStt(),  # type: ignore[arg-type]
        VadConfig(),
        700,
        on_final=on_final,
        on_speech=lambda: None,
        records=records,
    )
    return wire, listener, heard


def start(listener: Listener, stream: str, msg_id: str = "a1") -> None:
    listener.start(
        AudioInputStart(
            id=msg_id, stream=stream, encoding="pcm_s16le", rate=16000, channels=1,
            mode="push_to_talk",
        )
    )  # fmt: skip


async def spoken(listener: Listener, stream: str, pcm: bytes, commit_id: str) -> int:
    start(listener, stream)
    seq = 0
    for at in range(0, len(pcm), 640):
        listener.chunk(
            AudioInputChunk(id=f"{stream}-{seq}", stream=stream, seq=seq), pcm[at : at + 640]
        )
        seq += 1
        await asyncio.sleep(0)
    listener.commit(AudioInputCommit(id=commit_id, stream=stream, last_seq=seq - 1))
    return seq - 1


async def until(wire: Wire, kind: type, n: int = 1) -> list[Any]:
    for _ in range(300):
        if len(got := wire.of(kind)) >= n:
            return got
        await asyncio.sleep(0.01)
    raise AssertionError(f"no {kind.__name__}: {wire.sent}")


async def written(store: AsyncEventLog) -> None:
    """Wait for the writes made in the background (the store keeps their order)."""
    await asyncio.sleep(0.05)
    await store.call(EventLog.streams_of, "s1", 1)


async def test_closed_streams_come_back_after_a_restart(store: AsyncEventLog) -> None:
    wire, listener, heard = listener_on(Records(store))
    last = await spoken(listener, "s1", SPEECH, "commit-1")
    (final,) = await until(wire, TranscriptFinal)
    await spoken(listener, "quiet", SILENCE_1S, "commit-2")
    (quiet,) = await until(wire, AudioInputDone)
    start(listener, "gone")
    listener.cancel(AudioInputCancel(id="x", stream="gone"))
    await written(store)

    # A restarted daemon: a new listener, nothing in memory, the same log.
    wire, listener, heard = listener_on(Records(store))
    await listener.reload()
    assert list(listener.closed) == ["s1", "quiet", "gone"]
    listener.commit(AudioInputCommit(id="again", stream="s1", last_seq=last))
    listener.commit(AudioInputCommit(id="again-quiet", stream="quiet", last_seq=0))
    assert wire.sent == [
        TranscriptFinal(
            ref="again", stream="s1", turn=final.turn, text=final.text, confidence=final.confidence
        ),
        AudioInputDone(ref="again-quiet", stream="quiet", reason="no_speech"),
    ]
    assert quiet.reason == "no_speech" and not heard  # never a second turn
    for stream in ("s1", "quiet", "gone"):
        with pytest.raises(ProtocolError) as exc:
            start(listener, stream)
        assert exc.value.code == "stream_exists"
    for act in (
        lambda: listener.commit(AudioInputCommit(id="c", stream="gone", last_seq=0)),
        lambda: listener.chunk(AudioInputChunk(id="k", stream="s1", seq=99), b"\0\0"),
    ):
        with pytest.raises(ProtocolError) as exc:
            act()
        assert exc.value.code == "stream_closed"


async def test_a_listener_with_streams_keeps_its_own(store: AsyncEventLog) -> None:
    """Resumed within the same daemon: memory is newer than the log."""
    wire, listener, _ = listener_on(Records(store))
    await spoken(listener, "s1", SPEECH, "commit-1")
    await until(wire, TranscriptFinal)
    before = dict(listener.closed)
    await listener.reload()
    assert listener.closed == before


async def test_the_final_is_told_only_once_it_is_written(store: AsyncEventLog) -> None:
    records = Records(store)
    records.gate = asyncio.Event()
    wire, listener, heard = listener_on(records)
    last = await spoken(listener, "s1", SPEECH, "commit-1")
    await asyncio.sleep(0.2)  # recognised long ago: the write holds it
    assert not wire.of(TranscriptFinal) and not heard
    (row,) = await store.call(EventLog.streams_of, "s1", 8)  # durable before it is told
    assert (row.stream, row.state) == ("s1", "committed") and row.outcome
    listener.commit(AudioInputCommit(id="again", stream="s1", last_seq=last))
    assert not wire.of(TranscriptFinal)  # a repeat waits for the outcome too
    records.gate.set()
    first, again = await until(wire, TranscriptFinal, 2)
    assert (first.ref, again.ref, again.turn) == ("commit-1", "again", first.turn)


async def test_a_repeat_past_the_waiting_list_is_told_to_retry_never_left_unanswered(
    store: AsyncEventLog,
) -> None:
    from vac.runtime.listener import MAX_WAITING

    records = Records(store)
    records.gate = asyncio.Event()
    wire, listener, _ = listener_on(records)
    last = await spoken(listener, "s1", SPEECH, "commit-1")
    await asyncio.sleep(0.2)  # recognised; its write held
    for i in range(MAX_WAITING):
        listener.commit(AudioInputCommit(id=f"again-{i}", stream="s1", last_seq=last))
    with pytest.raises(ProtocolError) as raised:  # the daemon sends it as `error busy`
        listener.commit(AudioInputCommit(id="one-more", stream="s1", last_seq=last))
    assert raised.value.code == "busy" and raised.value.retryable
    records.gate.set()
    finals = await until(wire, TranscriptFinal, 1 + MAX_WAITING)
    assert len({f.turn for f in finals}) == 1  # one turn, answered to every waiting id


async def test_a_final_that_cannot_be_written_fails_the_stream(store: AsyncEventLog) -> None:
    records = Records(store)
    records.fail = True
    wire, listener, heard = listener_on(records)
    await spoken(listener, "s1", SPEECH, "commit-1")
    (done,) = await until(wire, AudioInputDone)
    assert (done.reason, done.ref) == ("failed", "commit-1")
    (err,) = wire.errors
    assert (err.code, err.stream, err.ref, err.retryable) == (
        "provider_unavailable",
        "s1",
        "commit-1",
        True,
    )
    assert not heard and not wire.of(TranscriptFinal)  # nothing told, no turn


async def test_turn_cancel_while_the_final_is_written_leaves_its_answer(
    store: AsyncEventLog,
) -> None:
    """The final's write landed, untold; the outcome announced instead
    (`audio.input.done {transcribed}`) is written after it and stays."""
    records = Records(store)
    wire, listener, heard = listener_on(records)
    turn, _seq = await announced(listener, wire)
    assert listener.open is not None and listener.open.window is not None
    records.gate = asyncio.Event()
    listener._window_timer(listener.open, listener.open.window)  # the window closes now
    await asyncio.sleep(0.1)  # recognised and written; not told yet
    (row,) = await store.call(EventLog.streams_of, "s1", 8)
    assert row.outcome and b"transcript.final" in row.outcome
    assert listener.cancel_turn(turn)
    records.gate.set()
    await written(store)
    assert not heard
    wire, listener, _ = listener_on(Records(store))
    await listener.reload()
    listener.commit(AudioInputCommit(id="again", stream="s1", last_seq=0))
    assert wire.sent == [
        AudioInputDone(ref="again", stream="s1", reason="transcribed", turn=turn),
    ]


async def test_a_detach_while_the_final_is_written_fails_the_stream(
    store: AsyncEventLog,
) -> None:
    """The session detaches (`close_all`) while its final is being written:
    no turn opens, so the stream's outcome is `failed`, in memory and in
    the log. A repeated commit after the resume, or after a restart, is
    answered with that, never left waiting nor given a final whose turn
    never ran (and so never ends)."""
    records = Records(store)
    records.gate = asyncio.Event()
    wire, listener, heard = listener_on(records)
    last = await spoken(listener, "s1", SPEECH, "commit-1")
    for _ in range(100):  # recognised, and its final written: not told yet
        if await store.call(EventLog.streams_of, "s1", 8):
            break
        await asyncio.sleep(0.01)
    listener.close_all()  # the session detached
    records.gate.set()
    await written(store)
    assert not heard and not wire.of(TranscriptFinal)

    # Resumed within the same daemon: the repeat is answered, not left waiting.
    listener.commit(AudioInputCommit(id="again", stream="s1", last_seq=last))
    assert wire.of(AudioInputDone) == [
        AudioInputDone(ref="again", stream="s1", reason="failed"),
    ]

    # After a restart: the same answer, never the final of a turn that never ran.
    wire, listener, _ = listener_on(Records(store))
    await listener.reload()
    listener.commit(AudioInputCommit(id="again-2", stream="s1", last_seq=last))
    assert wire.sent == [AudioInputDone(ref="again-2", stream="s1", reason="failed")]
