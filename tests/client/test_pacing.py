"""Chunking, pacing and barge-in arithmetic (pure functions, no clock)."""

from __future__ import annotations

import pytest

from vac.client.pacing import (
    chunk_bytes,
    chunk_due_s,
    pcm_ms,
    played_ms,
    sleep_before_s,
    split_chunks,
)
from vac.client.replies import BargeIn, BargeInSchedule, ReplyCollector


def test_twenty_ms_at_16k_is_640_bytes() -> None:
    assert chunk_bytes() == 640
    assert chunk_bytes(48000, 10) == 960


def test_split_chunks_covers_everything_with_a_short_tail() -> None:
    pcm = bytes(range(256)) * 6  # 1536 bytes
    chunks = split_chunks(pcm, 640)
    assert [len(c) for c in chunks] == [640, 640, 256]
    assert b"".join(chunks) == pcm


def test_split_chunks_of_nothing_is_nothing() -> None:
    assert split_chunks(b"", 640) == []


@pytest.mark.parametrize("size", [0, -2, 641])
def test_split_chunks_refuses_sizes_that_split_samples(size: int) -> None:
    with pytest.raises(ValueError):
        split_chunks(b"\x00" * 1280, size)


def test_split_chunks_refuses_half_a_sample() -> None:
    with pytest.raises(ValueError):
        split_chunks(b"\x00" * 3, 640)


def test_real_time_schedule() -> None:
    assert [chunk_due_s(i) for i in range(4)] == [0.0, 0.02, 0.04, 0.06]
    assert chunk_due_s(50) == pytest.approx(1.0)


def test_sleep_before_catches_up_without_negative_sleeps() -> None:
    assert sleep_before_s(10, elapsed_s=0.15) == pytest.approx(0.05)
    assert sleep_before_s(10, elapsed_s=0.5) == 0.0
    assert sleep_before_s(0, elapsed_s=0.0) == 0.0


def test_pcm_ms() -> None:
    assert pcm_ms(32000, 16000) == 1000
    assert pcm_ms(44100, 22050) == 1000
    assert pcm_ms(640, 16000) == 20


def test_played_ms_is_capped_by_wall_time_and_by_audio() -> None:
    # 1 s of audio arrived (the lead), but it has only played for 300 ms.
    assert played_ms(32000, 16000, since_first_chunk_ms=300) == 300
    # 200 ms arrived, 700 ms went by: nothing more than 200 ms can have been heard.
    assert played_ms(6400, 16000, since_first_chunk_ms=700) == 200
    assert played_ms(0, 16000, since_first_chunk_ms=-5) == 0


def test_reply_collector_numbers_replies_and_orders_chunks_by_index() -> None:
    replies = ReplyCollector()
    replies.start("o1", "t1")
    replies.chunk("o1", 1, b"bb")
    replies.chunk("o1", 0, b"aa")
    replies.start("o2", "t2")
    replies.chunk("o2", 0, b"cc")
    assert [(r.number, r.turn, r.pcm()) for r in replies.replies.values()] == [
        (1, "t1", b"aabb"),
        (2, "t2", b"cc"),
    ]


def test_barge_in_fires_once_after_the_delay() -> None:
    barge = BargeInSchedule(after_ms=300, rate_hz=16000)
    assert barge.next_due_s() is None
    barge.on_chunk("o1", "t1", 16000, now_s=10.0)  # 500 ms arrive at once (the lead)
    assert barge.next_due_s() == pytest.approx(10.3)
    assert barge.due(10.2) == []
    assert barge.due(10.31) == [BargeIn("t1", "o1", 310)]
    assert barge.due(11.0) == [] and barge.next_due_s() is None


def test_barge_in_reports_at_most_what_arrived() -> None:
    barge = BargeInSchedule(after_ms=300, rate_hz=16000)
    barge.on_chunk("o1", "t1", 640, now_s=0.0)
    barge.on_chunk("o1", "t1", 640, now_s=0.02)
    assert barge.due(0.4) == [BargeIn("t1", "o1", 40)]


def test_a_reply_that_ended_is_not_interrupted() -> None:
    barge = BargeInSchedule(after_ms=300, rate_hz=16000)
    barge.on_chunk("o1", "t1", 640, now_s=0.0)
    barge.on_done("o1")
    assert barge.due(1.0) == [] and barge.next_due_s() is None


def test_a_chunk_without_a_turn_schedules_nothing() -> None:
    barge = BargeInSchedule(after_ms=0, rate_hz=16000)
    barge.on_chunk("o1", None, 640, now_s=0.0)
    assert barge.due(1.0) == []
