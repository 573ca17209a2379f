"""Test-only STT engines for the pool tests; importable by spawned workers."""

from __future__ import annotations

import functools
import os
import signal
import time

import numpy as np
import numpy.typing as npt

from vac.speech.stt import SttEngine, Transcript
from vac.speech.tts import SynthesizedPhrase
from vac.speech.workers import SttEngineLost

# Magic first samples that make a fake worker misbehave (the test-only hooks).
KILL = np.array([0x4B49, 0x4C4C], dtype="<i2").tobytes()  # SIGKILL itself
EXIT = np.array([0x4558, 0x4954], dtype="<i2").tobytes()  # os._exit(3)
HANG = np.array([0x4841, 0x4E47], dtype="<i2").tobytes()  # sleep far past any timeout
LOST = np.array([0x4C4F, 0x5354], dtype="<i2").tobytes()  # raise SttEngineLost


class FakeStt:
    """Says how many samples it got, after `delay_s` of pretend work."""

    def __init__(self, delay_s: float = 0.0) -> None:
        self._delay_s = delay_s

    def transcribe(
        self, pcm: npt.NDArray[np.int16], *, final: bool, reply_expected: bool = False
    ) -> Transcript:
        head = pcm[:2].tobytes()
        if head == KILL:
            os.kill(os.getpid(), signal.SIGKILL)
        if head == EXIT:
            os._exit(3)
        if head == HANG:
            time.sleep(3600)
        if head == LOST:
            raise SttEngineLost("the cluster went away")
        time.sleep(self._delay_s)
        kind = ("reply-" if reply_expected else "") + ("final" if final else "partial")
        return Transcript(f"{kind} {len(pcm)}", 1.0, 0.0, 0.0, len(pcm) // 16, 0.0)


class CrashingStt:
    """Delegates to a real engine but dies on the KILL marker (native-crash stand-in)."""

    def __init__(self, inner: SttEngine) -> None:
        self._inner = inner

    def transcribe(
        self, pcm: npt.NDArray[np.int16], *, final: bool, reply_expected: bool = False
    ) -> Transcript:
        if pcm[:2].tobytes() == KILL:
            os.kill(os.getpid(), signal.SIGKILL)
        return self._inner.transcribe(pcm, final=final, reply_expected=reply_expected)


def fake_factory(delay_s: float = 0.0) -> functools.partial[FakeStt]:
    return functools.partial(FakeStt, delay_s)


def failing_factory() -> SttEngine:
    raise RuntimeError("engine exploded while loading")


def crashing_whisper() -> SttEngine:
    """The real tiny.en engine behind the KILL hook (for the real-model pool test)."""
    from vac.speech.stt import SttConfig, WhisperStt

    return CrashingStt(WhisperStt(SttConfig(), vocabulary=NAMES))


NAMES = ("Abeni", "Kofi", "Zuri", "Tariq", "Imani")


class FakeTts:
    """A `TtsEngine` for the bridge tests: 10 ms of silence per character.

    Phrases starting "die" end the process, "lost" raise `TtsEngineLost`,
    "fail" raise a plain `TtsError`, "oops" a `RuntimeError` with a traceback
    in its text. It will not load while `block` exists (the cluster is down),
    unless `block` says "rate=N": then it loads at N Hz.
    """

    def __init__(self, block: str | None = None) -> None:
        from pathlib import Path

        from vac.speech.tts import TtsError

        self._rate_hz = 16000
        if block is not None and Path(block).exists():
            said = Path(block).read_text()
            if said.startswith("rate="):  # the voice came back at another rate
                self._rate_hz = int(said.removeprefix("rate="))
            else:
                raise TtsError(f"no engine while {block} exists")
        self.name = "fake"

    @property
    def sample_rate_hz(self) -> int:
        return self._rate_hz

    def synthesize(self, phrase: str) -> SynthesizedPhrase:
        from vac.speech.tts import TtsEngineLost, TtsError

        if phrase.startswith("die"):
            os._exit(3)
        if phrase.startswith("lost"):
            raise TtsEngineLost("the cluster went away")
        if phrase.startswith("fail"):
            raise TtsError("this phrase failed")
        if phrase.startswith("oops"):  # what a remote error's text looks like
            raise RuntimeError("Traceback (most recent call last):\n  node 10.0.0.9 ...")
        samples = 160 * len(phrase)
        duration_ms = samples * 1000 // self._rate_hz
        return SynthesizedPhrase(
            b"\0\0" * samples, self._rate_hz, duration_ms, [], "estimated", 0.0
        )
