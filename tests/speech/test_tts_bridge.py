"""ProcessTts: synthesis in bridge processes (the Ray mode's shape), with fake engines.

The real twin is tests/ray/test_ray_inference.py: the same bridges to the
cluster's piper replicas, a cluster stopped and started again.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from structlog.testing import capture_logs

from tests.speech.fakes import FakeTts
from vac.speech import tts_bridge
from vac.speech.tts import TtsError
from vac.speech.tts_bridge import ProcessTts, TtsBridgeConfig

pytestmark = pytest.mark.slow


def _bridge(block: Path, workers: int = 1) -> ProcessTts:
    config = TtsBridgeConfig(
        workers=workers, start_timeout_s=60, call_timeout_s=5, retry_after_s=0.2
    )
    return ProcessTts(functools.partial(FakeTts, str(block)), config)


@pytest.fixture
def block(tmp_path: Path) -> Path:
    return tmp_path / "cluster-down"


@pytest.fixture
def bridge(block: Path) -> Iterator[ProcessTts]:
    tts = _bridge(block)
    tts.start()
    try:
        yield tts
    finally:
        tts.close()


def test_a_phrase_is_synthesised_in_the_bridge(bridge: ProcessTts) -> None:
    assert (bridge.name, bridge.sample_rate_hz) == ("fake", 16000)
    phrase = bridge.synthesize("hello")
    assert phrase.rate_hz == 16000 and len(phrase.pcm) == 2 * 800


def test_a_failed_phrase_is_named_and_the_bridge_goes_on(bridge: ProcessTts) -> None:
    with pytest.raises(TtsError, match="this phrase failed"):
        bridge.synthesize("fail now")
    assert bridge.synthesize("again").duration_ms == 50


@pytest.mark.parametrize("phrase", ["die now", "lost now"])
def test_a_dead_bridge_fails_its_phrase_fast_and_is_replaced(
    bridge: ProcessTts, block: Path, phrase: str
) -> None:
    block.touch()  # the engine cannot load again yet
    with pytest.raises(TtsError, match="lost during a phrase"):
        bridge.synthesize(phrase)
    started = time.monotonic()
    with pytest.raises(TtsError, match="unavailable"):
        bridge.synthesize("while it is down")
    assert time.monotonic() - started < 1.0  # no start-up wait per phrase
    block.unlink()  # the engine is back: the background restart succeeds
    deadline = time.monotonic() + 60
    while True:
        try:
            assert bridge.synthesize("back").duration_ms == 40
            break
        except TtsError:
            assert time.monotonic() < deadline, "the bridge never came back"
            time.sleep(0.2)


def test_an_engines_own_error_reaches_the_client_as_its_type_only(bridge: ProcessTts) -> None:
    with pytest.raises(TtsError) as caught:
        bridge.synthesize("oops")
    assert caught.value.message == "synthesis failed: RuntimeError"
    assert bridge.synthesize("again").duration_ms == 50


def _until_back(bridge: ProcessTts, timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            bridge.synthesize("back")
            return
        except TtsError:
            assert time.monotonic() < deadline, "the bridge never came back"
            time.sleep(0.2)


def _until(condition: Callable[[], bool], timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "never happened"
        time.sleep(0.05)


def test_a_replacement_at_another_sample_rate_is_not_used(bridge: ProcessTts, block: Path) -> None:
    block.write_text("rate=22050")  # replies in flight were announced at 16 kHz
    with capture_logs() as logged:
        with pytest.raises(TtsError, match="lost during a phrase"):
            bridge.synthesize("die now")
        _until(lambda: sum(e["event"] == "tts_bridge_refused" for e in logged) >= 2)
        with pytest.raises(TtsError, match="unavailable"):
            bridge.synthesize("still down")
    assert {e.get("rate_hz") for e in logged if e["event"] == "tts_bridge_refused"} == {22050}
    block.unlink()
    _until_back(bridge)
    assert bridge.synthesize("heard at the old rate").rate_hz == 16000


def test_a_restart_that_raises_unexpectedly_keeps_restarting(
    bridge: ProcessTts, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = tts_bridge._Bridge
    failures = [OSError("Too many open files")]

    def flaky(*args: object) -> object:
        if failures:
            raise failures.pop()
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(tts_bridge, "_Bridge", flaky)
    with pytest.raises(TtsError, match="lost during a phrase"):
        bridge.synthesize("die now")
    # The same restart thread meets the error and goes on: a spare appears
    # with no phrase asked (a phrase would start another thread).
    _until(lambda: len(bridge._spares) == 1)
    assert not failures
    assert bridge.synthesize("back").duration_ms == 40


def test_an_engine_that_cannot_load_is_a_named_refusal_at_start(block: Path) -> None:
    block.touch()
    tts = _bridge(block, workers=2)
    with pytest.raises(TtsError, match="no engine while"):
        tts.start()
