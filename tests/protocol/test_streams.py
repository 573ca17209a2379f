"""The per-stream input state machine (PROTOCOL §4), driven by tables."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vac.protocol.errors import ProtocolError
from vac.protocol.streams import (
    TRANSITIONS,
    Accepted,
    Cancelled,
    Committed,
    Event,
    Ignored,
    InputStream,
    Report,
    SilenceFilled,
    StreamState,
)

CHUNK = b"\x01\x00" * 320  # 20 ms


def stream(**kw: int) -> InputStream:
    return InputStream(
        "s",
        max_chunk_bytes=kw.get("max_chunk_bytes", 8192),
        max_utterance_ms=kw.get("max_utterance_ms", 30_000),
    )


def kinds(outcomes: list[object]) -> list[str]:
    return [type(o).__name__ for o in outcomes]


# (seqs sent in order) → outcome kinds of the last chunk
SEQ_TABLE = [
    ([0], ["Accepted"]),
    ([0, 1], ["Accepted"]),
    ([0, 0], ["Ignored"]),  # duplicate
    ([0, 1, 2, 1], ["Ignored"]),  # late
    ([0, 2], ["Report", "SilenceFilled", "Accepted"]),  # gap
    ([3], ["Report", "SilenceFilled", "Accepted"]),  # gap at the start
]


@pytest.mark.parametrize(("seqs", "expected"), SEQ_TABLE)
def test_seq_rules(seqs: list[int], expected: list[str]) -> None:
    s = stream()
    out: list[object] = []
    for seq in seqs:
        out = list(s.chunk(seq, CHUNK))
    assert kinds(out) == expected


def test_gap_is_filled_with_previous_chunk_length_and_reported() -> None:
    s = stream()
    s.chunk(0, CHUNK)
    out = s.chunk(3, CHUNK)
    report = out[0]
    assert isinstance(report, Report) and report.error.code == "input_gap"
    assert report.error.details == {"expected": 1, "got": 3}
    fill = out[1]
    assert isinstance(fill, SilenceFilled) and fill.nbytes == 2 * len(CHUNK)
    assert s.expected_seq == 4 and s.gaps == 1


@pytest.mark.parametrize(
    ("payload", "why"), [(b"", "empty"), (b"\x00" * 3, "odd length"), (b"\x00" * 8194, "too large")]
)
def test_invalid_chunks_are_dropped(payload: bytes, why: str) -> None:
    s = stream()
    (out,) = s.chunk(0, payload)
    assert (
        isinstance(out, Report) and out.error.code == "chunk_invalid" and why in out.error.message
    )
    assert s.expected_seq == 0 and s.received_bytes == 0


def test_commit_is_idempotent_and_missing_tail_is_a_gap() -> None:
    s = stream()
    s.chunk(0, CHUNK)
    out = s.commit(last_seq=2)
    assert kinds(out) == ["Report", "SilenceFilled", "Committed"]
    assert out[-1] == Committed(repeat=False, auto=False)
    assert s.commit(last_seq=2) == [Committed(repeat=True, auto=False)]
    assert s.state is StreamState.COMMITTED


@pytest.mark.parametrize("end", ["commit", "cancel", "fail"])
def test_closed_stream_refuses_chunks_and_cancel(end: str) -> None:
    s = stream()
    s.chunk(0, CHUNK)
    {"commit": lambda: s.commit(0), "cancel": s.cancel, "fail": s.fail}[end]()
    with pytest.raises(ProtocolError) as exc:
        s.chunk(1, CHUNK)
    assert exc.value.code == "stream_closed"
    with pytest.raises(ProtocolError):
        s.cancel()


def test_cancel_then_commit_is_closed() -> None:
    s = stream()
    assert s.cancel() == [Cancelled()]
    with pytest.raises(ProtocolError) as exc:
        s.commit(0)
    assert exc.value.code == "stream_closed"


def test_max_utterance_bounds_audio_and_gap_fill() -> None:
    s = stream(max_utterance_ms=1000)
    s.chunk(0, CHUNK)
    out = s.chunk(10**9, CHUNK)  # a hostile jump
    fills = [o for o in out if isinstance(o, SilenceFilled)]
    assert sum(f.nbytes for f in fills) <= 1000 * 32
    assert s.utterance_full and s.received_bytes == 1000 * 32
    assert s.auto_commit() == [Committed(repeat=False, auto=True)]
    assert s.auto_commit() == []


def test_table_covers_only_legal_pairs() -> None:
    for (state, event), nxt in TRANSITIONS.items():
        assert isinstance(state, StreamState) and isinstance(event, Event)
        if state is not StreamState.OPEN:
            assert nxt is state  # nothing re-opens a closed stream


ops = st.lists(
    st.one_of(
        st.tuples(st.just("chunk"), st.integers(0, 12), st.sampled_from([CHUNK, b"", b"\0"])),
        st.tuples(st.just("commit"), st.integers(0, 12), st.just(b"")),
        st.tuples(st.just("cancel"), st.just(0), st.just(b"")),
        st.tuples(st.just("auto"), st.just(0), st.just(b"")),
    ),
    max_size=30,
)


@settings(max_examples=300, deadline=None)
@given(ops)
def test_state_x_message_invariants(sequence: list[tuple[str, int, bytes]]) -> None:
    s = stream(max_utterance_ms=2000)
    committed = 0
    for op, n, payload in sequence:
        before = s.state
        try:
            if op == "chunk":
                out = s.chunk(n, payload)
            elif op == "commit":
                out = s.commit(n)
            elif op == "cancel":
                out = s.cancel()
            else:
                out = s.auto_commit()
        except ProtocolError as exc:
            assert exc.code == "stream_closed" and before is not StreamState.OPEN
            assert s.state is before  # an error changes nothing
            continue
        committed += sum(1 for o in out if isinstance(o, Committed) and not o.repeat)
        accepted = sum(len(o.pcm) for o in out if isinstance(o, Accepted))
        assert accepted % 2 == 0
        assert all(not isinstance(o, Ignored) or o.seq < s.expected_seq for o in out)
        assert s.received_bytes <= 2000 * 32
    assert committed <= 1  # never a second turn from one stream
