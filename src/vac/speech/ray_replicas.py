"""The Ray Serve replicas: one loaded recogniser or voice, shared by every vac daemon.

These classes run inside the cluster's worker processes (Serve imports them
by name, so every node needs vac installed). They take and return bytes only
— s16le PCM in, msgpack `Transcript` or `SynthesizedPhrase` out — so that
nothing but audio and text crosses the network, and no Ray object is ever
sent back to a daemon.

A daemon's roster travels with each recognition request: households with
different names share a replica, each with its own prompt and name-slot
rescoring (`WhisperStt.for_vocabulary` shares the loaded model).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Final

import msgspec
import numpy as np

from vac.speech.stt import SttConfig, WhisperStt
from vac.speech.tts import PiperTts
from vac.speech.workers import warmup_pcm

# Rosters kept per replica: each one is a prompt and a few token lists.
MAX_ROSTERS: Final = 64


class SttReplica:
    """faster-whisper, loaded once per replica."""

    def __init__(
        self,
        config: bytes,
        replies: tuple[tuple[str, str], ...],
        verbs: tuple[tuple[str, str], ...],
        heard_verbs: tuple[str, ...] = (),
    ) -> None:
        stt_config = msgspec.msgpack.decode(config, type=SttConfig)
        self._engine = WhisperStt(stt_config, replies=replies, verbs=verbs, heard_verbs=heard_verbs)
        self._rosters: OrderedDict[tuple[str, ...], WhisperStt] = OrderedDict()
        # Warm before Serve routes anything here: a cold replica's first
        # decode is several times slower, and the daemons' own warm-up calls
        # reach only the replicas the router happens to pick.
        self._engine.transcribe(warmup_pcm(), final=True)

    def _for(self, vocabulary: tuple[str, ...]) -> WhisperStt:
        engine = self._rosters.get(vocabulary)
        if engine is None:
            engine = self._engine.for_vocabulary(vocabulary)
            self._rosters[vocabulary] = engine
            while len(self._rosters) > MAX_ROSTERS:
                self._rosters.popitem(last=False)
        self._rosters.move_to_end(vocabulary)
        return engine

    def transcribe(
        self, pcm: bytes, final: bool, reply_expected: bool, vocabulary: tuple[str, ...]
    ) -> bytes:
        samples = np.frombuffer(pcm, dtype="<i2")
        heard = self._for(tuple(vocabulary)).transcribe(
            samples, final=final, reply_expected=reply_expected
        )
        return msgspec.msgpack.encode(heard)


class TtsReplica:
    """piper with one voice, loaded once per replica."""

    def __init__(self, model: str | None, config: str | None) -> None:
        from pathlib import Path

        self._tts = PiperTts.load(Path(model) if model else None, Path(config) if config else None)
        self._tts.synthesize("Ready.")  # warm, as SttReplica

    def describe(self) -> tuple[str, int]:
        """The voice's name and sample rate: what a daemon needs before the first reply."""
        return self._tts.name, self._tts.sample_rate_hz

    def synthesize(self, phrase: str) -> bytes:
        return msgspec.msgpack.encode(self._tts.synthesize(phrase))
