"""The `vad`-mode continuation window over real sockets, the real VAD and tiny.en.

A command said with a 500 ms pause in the middle ("Ask Kofi to … build a bench
by tomorrow", `fixtures/audio/kofi_bench_paused.*`) is one utterance and one
turn; the final heard at the pause is sent `provisional`. With the window off
the same audio is two turns, so the window is what joins them.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.conftest import RunningDaemon, start_daemon
from tests.voice.test_voice_input import FIXTURES, TEXT_ONLY_OUT, stream, voice_home
from vac.client.connection import Connection, Timeout
from vac.daemon.config import DaemonSection, VacConfig
from vac.protocol.messages import (
    AudioInputDone,
    HelloOk,
    ObjectiveDraft,
    OutboundMessage,
    TranscriptFinal,
    TurnDone,
)

pytestmark = pytest.mark.slow
SILENCE_1S = bytes(16000 * 2)


def _daemon(tmp: pytest.TempPathFactory, name: str, continuation_ms: int) -> RunningDaemon:
    home = voice_home(tmp.mktemp(name) / "home")
    cfg = VacConfig(daemon=DaemonSection(continuation_ms=continuation_ms), tts=TEXT_ONLY_OUT)
    return start_daemon(home, config=cfg)


@pytest.fixture(scope="module")
def windowed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningDaemon]:
    d = _daemon(tmp_path_factory, "windowed", 700)
    yield d
    d.shutdown()


@pytest.fixture(scope="module")
def unwindowed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningDaemon]:
    d = _daemon(tmp_path_factory, "unwindowed", 0)
    yield d
    d.shutdown()


def _hello(d: RunningDaemon) -> tuple[Connection, HelloOk]:
    c = d.connect()
    return c, c.hello()


def _until_quiet(c: Connection, turns: int, timeout_s: float = 30.0) -> list[OutboundMessage]:
    """Messages until `turns` turn.done arrived, then anything within 1 s more."""
    msgs: list[OutboundMessage] = []
    done = 0
    while done < turns:
        m, _ = c.recv(timeout_s)
        msgs.append(m)
        done += isinstance(m, TurnDone)
    try:
        while True:
            msgs.append(c.recv(1.0)[0])
    except Timeout:
        pass
    return msgs


def test_limits_announce_the_window(windowed: RunningDaemon, unwindowed: RunningDaemon) -> None:
    assert _hello(windowed)[1].limits.continuation_ms == 700
    assert _hello(unwindowed)[1].limits.continuation_ms == 0


@pytest.mark.parametrize("voice", ["joe", "espeak-en-us"])
def test_a_pause_mid_command_is_one_turn(windowed: RunningDaemon, voice: str) -> None:
    fx = FIXTURES[f"kofi_bench_paused.{voice}"]
    c, _ = _hello(windowed)
    # Real time, as a microphone would: the pause's provisional final has time to arrive.
    stream(c, fx.pcm + SILENCE_1S, "p", mode="vad", pace_s=0.02, commit=False)
    msgs = _until_quiet(c, turns=1)
    finals = [m for m in msgs if isinstance(m, TranscriptFinal) and not m.provisional]
    provisional = [m for m in msgs if isinstance(m, TranscriptFinal) and m.provisional]
    dones = [m for m in msgs if isinstance(m, TurnDone)]
    assert len(finals) == 1 and len(dones) == 1, [type(m).__name__ for m in msgs]
    final = finals[0]
    assert "kofi" in final.text.lower() and "tomorrow" in final.text.lower()
    # Heard at the pause: only the first half, under the turn it then became
    # (the end of the command is a pause too, so a second provisional may follow).
    assert provisional, "the pause's final was not sent provisional"
    assert "tomorrow" not in provisional[0].text.lower()
    assert all(p.turn == final.turn for p in provisional)
    assert dones[0].turn == final.turn
    ends = [m for m in msgs if isinstance(m, AudioInputDone)]
    assert [e.reason for e in ends] == ["transcribed"] and ends[0].turn == final.turn
    draft = next(m for m in msgs if isinstance(m, ObjectiveDraft))
    assert draft.objective.agent == "Kofi" and draft.objective.verb == "Build"


def test_without_the_window_the_pause_splits_the_command(unwindowed: RunningDaemon) -> None:
    fx = FIXTURES["kofi_bench_paused.joe"]
    c, _ = _hello(unwindowed)
    stream(c, fx.pcm + SILENCE_1S, "p", mode="vad", pace_s=0.02, commit=False)
    msgs = _until_quiet(c, turns=1, timeout_s=30)
    finals = [m for m in msgs if isinstance(m, TranscriptFinal)]
    assert not any(f.provisional for f in finals)
    # The stream closed at the pause: the rest of the command was never heard.
    assert len(finals) == 1 and "tomorrow" not in finals[0].text.lower()


def test_a_client_that_stops_sending_is_decided_by_the_clock(windowed: RunningDaemon) -> None:
    fx = FIXTURES["kofi_build_bench.joe"]
    c, _ = _hello(windowed)
    # 700 ms of trailing silence in the file; keep 500: the endpoint (400 ms) is
    # reached, the window's 700 ms is not, and then nothing more arrives.
    pcm = fx.pcm[: len(fx.pcm) - 200 * 32]
    stream(c, pcm, "w", mode="vad", commit=False)
    msgs = _until_quiet(c, turns=1)
    done = next(m for m in msgs if isinstance(m, TurnDone))
    final = next(m for m in msgs if isinstance(m, TranscriptFinal) and not m.provisional)
    assert "bench" in final.text.lower() and done.turn == final.turn
    assert done.latency_ms["endpoint"] >= 700
