from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.speech.audio import load_fixtures
from vac.speech.vad import (
    Endpoint,
    Endpointer,
    VadConfig,
    VadEvent,
    VadStream,
    VoiceStarted,
    VoiceStopped,
)

# 3 frames to start, 300 ms = 15 frames to stop, 20 ms frames.
FAST = VadConfig(start_frames=3, endpoint_silence_ms=300)


def run(pattern: str, config: VadConfig = FAST) -> list[tuple[int, VadEvent]]:
    """Feed '1' (voiced) / '0' (unvoiced) frames; return (frame index, event) pairs."""
    endpointer = Endpointer(config)
    out: list[tuple[int, VadEvent]] = []
    for i, ch in enumerate(pattern.replace(" ", "")):
        out.extend((i, e) for e in endpointer.feed(ch == "1"))
    return out


GOLDEN: list[tuple[str, list[tuple[int, VadEvent]]]] = [
    ("0000000000", []),
    # Two voiced frames are a click, not speech.
    ("0110 0110 0000", []),
    # Start is dated back to the first voiced frame of the confirming run.
    ("00111 1", [(4, VoiceStarted(at_ms=40))]),
    (
        "0111 " + "0" * 15,
        [
            (3, VoiceStarted(at_ms=20)),
            (18, VoiceStopped(at_ms=80)),
            (18, Endpoint(at_ms=380, last_voiced_ms=80)),
        ],
    ),
    # 14 unvoiced frames are a pause inside the utterance, not its end.
    ("111 " + "0" * 14 + " 1", [(2, VoiceStarted(at_ms=0))]),
    (
        "111 " + "0" * 14 + " 1 " + "0" * 15,
        [
            (2, VoiceStarted(at_ms=0)),
            (32, VoiceStopped(at_ms=360)),
            (32, Endpoint(at_ms=660, last_voiced_ms=360)),
        ],
    ),
    # After an endpoint a new utterance can start.
    (
        "111" + "0" * 15 + "0111",
        [
            (2, VoiceStarted(at_ms=0)),
            (17, VoiceStopped(at_ms=60)),
            (17, Endpoint(at_ms=360, last_voiced_ms=60)),
            (21, VoiceStarted(at_ms=380)),
        ],
    ),
]


@pytest.mark.parametrize(("pattern", "expected"), GOLDEN)
def test_golden_sequences(pattern: str, expected: list[tuple[int, VadEvent]]) -> None:
    assert run(pattern) == expected


def test_defaults_are_60ms_start_and_400ms_endpoint() -> None:
    config = VadConfig()
    assert config.start_frames * config.frame_ms == 60
    assert config.stop_frames == 20
    events = run("111" + "0" * 20, config)
    assert events[-1] == (22, Endpoint(at_ms=460, last_voiced_ms=60))


def test_start_after_one_frame_when_configured() -> None:
    assert run("01", VadConfig(start_frames=1, endpoint_silence_ms=300)) == [
        (1, VoiceStarted(at_ms=20))
    ]


def test_finish_closes_open_speech_without_endpoint() -> None:
    endpointer = Endpointer(FAST)
    for voiced in [True] * 5 + [False] * 3:
        endpointer.feed(voiced)
    assert endpointer.finish() == [VoiceStopped(at_ms=100)]
    assert endpointer.finish() == []


def test_voiced_ms_counts_only_confirmed_speech() -> None:
    endpointer = Endpointer(FAST)
    for ch in "0110 0110 0":
        if ch != " ":
            endpointer.feed(ch == "1")
    assert endpointer.voiced_ms == 0
    for ch in "1111 00 1":
        if ch != " ":
            endpointer.feed(ch == "1")
    assert endpointer.voiced_ms == 5 * 20


@pytest.mark.parametrize(
    "kwargs",
    [
        {"endpoint_silence_ms": 200},
        {"endpoint_silence_ms": 600},
        {"frame_ms": 25},
        {"aggressiveness": 4},
        {"start_frames": 0},
    ],
)
def test_config_is_validated(kwargs: dict[str, int]) -> None:
    with pytest.raises(ValueError):
        VadConfig(**kwargs)


@given(
    st.lists(st.booleans(), max_size=400),
    st.integers(1, 5),
    st.integers(300, 500),
)
def test_events_alternate_and_are_monotonic(
    frames: list[bool], start_frames: int, silence_ms: int
) -> None:
    endpointer = Endpointer(VadConfig(start_frames=start_frames, endpoint_silence_ms=silence_ms))
    events: list[VadEvent] = []
    for voiced in frames:
        events.extend(endpointer.feed(voiced))
    events.extend(endpointer.finish())
    open_ = False
    last_ms = -1
    for event in events:
        match event:
            case VoiceStarted(at_ms=at_ms):
                assert not open_
                open_ = True
                assert at_ms >= last_ms
                last_ms = at_ms
            case VoiceStopped(at_ms=at_ms):
                assert open_, "a stop without a start"
                open_ = False
                assert at_ms > last_ms
                last_ms = at_ms
            case Endpoint(at_ms=at_ms, last_voiced_ms=last_voiced_ms):
                assert not open_  # always right after its VoiceStopped
                assert last_voiced_ms == last_ms
                assert at_ms - last_voiced_ms >= silence_ms
    assert not open_
    assert endpointer.voiced_ms <= sum(frames) * 20


def _fixture(name: str) -> bytes:
    return next(f.pcm for f in load_fixtures() if f.name == name)


def test_stream_endpoints_a_spoken_fixture() -> None:
    stream = VadStream()
    events = stream.feed(_fixture("kofi_build_bench.joe"))
    kinds = [type(e) for e in events]
    assert kinds[0] is VoiceStarted and kinds[-1] is Endpoint
    started = events[0]
    assert isinstance(started, VoiceStarted)
    assert 200 <= started.at_ms <= 450  # 300 ms of leading silence in the file
    endpoint = events[-1]
    assert isinstance(endpoint, Endpoint)
    assert endpoint.at_ms - endpoint.last_voiced_ms >= 400
    assert stream.voiced_ms > 1_500


@pytest.mark.parametrize("name", ["silence_2s", "noise_2s"])
def test_stream_without_speech_has_no_voiced_ms(name: str) -> None:
    stream = VadStream()
    assert stream.feed(_fixture(name)) == []
    assert stream.finish() == []
    assert stream.voiced_ms == 0
    assert stream.processed_ms == 2_000


def test_chunking_does_not_change_events() -> None:
    pcm = _fixture("zuri_protect_path.espeak-en-us")
    whole = VadStream().feed(pcm)
    stream = VadStream()
    rng = random.Random(7)
    chunked: list[VadEvent] = []
    offset = 0
    while offset < len(pcm):
        size = rng.randint(1, 3000)
        chunked.extend(stream.feed(pcm[offset : offset + size]))
        offset += size
    assert chunked == whole
    assert stream.processed_ms == len(pcm) // 640 * 20
