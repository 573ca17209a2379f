"""Providers are declared, never discovered: `[stt]`, `[tts]`, `[vad]` in vac.toml.

Each provider names its engine and its egress class. A missing model is a
named refusal at start-up (and in `vac preflight`), never a silent fallback.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

import msgspec

from vac.daemon.config import ConfigError, EgressClass, VacConfig
from vac.protocol.errors import VacError

ProviderKind = Literal["stt", "tts", "vad"]
ON_DEVICE: Final = "on-device"


class ProviderMissing(VacError):
    """A declared provider cannot be loaded; the message names it and the fix."""


class SttSection(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    enabled: bool = True
    provider: Literal["faster-whisper"] = "faster-whisper"
    egress: EgressClass = "on-device"
    model_dir: str | None = None
    compute_type: str = "int8"
    # 2 workers x 1 thread measured best for commit -> final on 2 cores
    # (docs/stt.md): two streams at once do not queue behind each other.
    cpu_threads: int = 1
    beam_size: int = 1
    workers: int = 2
    max_pending: int = 4
    partial_interval_ms: int = 700


class TtsSection(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    enabled: bool = True
    provider: Literal["piper"] = "piper"
    egress: EgressClass = "on-device"
    model: str | None = None
    config: str | None = None


class VadSection(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    provider: Literal["webrtcvad"] = "webrtcvad"
    egress: EgressClass = "on-device"
    aggressiveness: int = 2
    start_frames: int = 3
    endpoint_silence_ms: int = 400


def _section(raw: dict[str, Any], cls: type[Any], name: str) -> Any:
    try:
        return msgspec.convert(raw, cls)
    except msgspec.ValidationError as exc:
        text = str(exc).replace("$.", f"{name}.").replace("at `$`", f"in [{name}]")
        raise ConfigError(f"vac.toml: [{name}] {text}") from None


@dataclass(frozen=True)
class Providers:
    stt: SttSection
    tts: TtsSection
    vad: VadSection

    @classmethod
    def from_config(cls, config: VacConfig) -> Providers:
        return cls(
            _section(config.stt, SttSection, "stt"),
            _section(config.tts, TtsSection, "tts"),
            _section(config.vad, VadSection, "vad"),
        )


def refuse_remote(kind: str, egress: str) -> None:
    # Only on-device engines exist in this build; a declared remote egress
    # would be a promise the daemon cannot keep.
    if egress != ON_DEVICE:
        raise ProviderMissing(f"{kind}: egress {egress!r} is not available in this build")


def stt_model_dir(section: SttSection) -> Path:
    from vac.speech.stt import SttConfig, resolve_model_dir

    return resolve_model_dir(SttConfig(model_dir=section.model_dir))


def build_stt(section: SttSection, vocabulary: list[str]) -> Any:
    """The STT worker pool (not started). Raises ProviderMissing for a missing model."""
    from vac.speech.stt import SttConfig, SttModelMissing, WhisperStt
    from vac.speech.workers import SttPool, SttPoolConfig

    refuse_remote("stt", section.egress)
    stt_config = SttConfig(
        model_dir=section.model_dir,
        compute_type=section.compute_type,
        cpu_threads=section.cpu_threads,
        beam_size=section.beam_size,
    )
    try:
        stt_model_dir(section)
    except SttModelMissing as exc:
        raise ProviderMissing(f"stt: {exc}") from None
    factory = functools.partial(WhisperStt, stt_config, vocabulary=tuple(vocabulary))
    return SttPool(factory, SttPoolConfig(workers=section.workers, max_pending=section.max_pending))


def build_tts(section: TtsSection) -> Any:
    from vac.speech.tts import PiperTts, TtsVoiceMissing

    refuse_remote("tts", section.egress)
    try:
        return PiperTts.load(
            Path(section.model) if section.model else None,
            Path(section.config) if section.config else None,
        )
    except TtsVoiceMissing as exc:
        raise ProviderMissing(f"tts: {exc}") from None


def build_vad(section: VadSection) -> Any:
    from vac.speech.vad import VadConfig

    refuse_remote("vad", section.egress)
    try:
        return VadConfig(
            aggressiveness=section.aggressiveness,
            start_frames=section.start_frames,
            endpoint_silence_ms=section.endpoint_silence_ms,
        )
    except ValueError as exc:
        raise ConfigError(f"vac.toml: [vad] {exc}") from None
