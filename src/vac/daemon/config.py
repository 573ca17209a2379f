"""`HOME/vac.toml`, decoded with msgspec.

Absent settings take their defaults; a setting that is present but empty is
refused by name (an empty model path is a mistake, not "use the default").
Every decode error names the offending key.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Final, Literal

import msgspec

from vac.protocol.errors import VacError

EgressClass = Literal[
    "on-device", "local-network", "named-remote-service", "unofficial-remote-endpoint"
]
DEFAULT_ENDPOINT: Final = "tcp://127.0.0.1:7707"


class ConfigError(VacError):
    """vac.toml is wrong; the message names the key."""


class _Section(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    pass


class DaemonSection(_Section, frozen=True):
    endpoint: str = DEFAULT_ENDPOINT
    heartbeat_ms: Annotated[int, msgspec.Meta(ge=500, le=600_000)] = 10_000
    max_chunk_bytes: Annotated[int, msgspec.Meta(ge=320, le=32_768)] = 8192
    max_utterance_ms: Annotated[int, msgspec.Meta(ge=1000, le=120_000)] = 30_000
    input_buffer_ms: Annotated[int, msgspec.Meta(ge=1000, le=120_000)] = 10_000
    output_queue_chunks: Annotated[int, msgspec.Meta(ge=8, le=4096)] = 256
    output_lead_ms: Annotated[int, msgspec.Meta(ge=0, le=1000)] = 500
    # Per-principal quotas (PROTOCOL §7).
    messages_per_s: Annotated[int, msgspec.Meta(ge=10, le=100_000)] = 400
    max_sessions_per_principal: Annotated[int, msgspec.Meta(ge=1, le=1000)] = 8
    max_pending_drafts: Annotated[int, msgspec.Meta(ge=1, le=1000)] = 32
    # Detached sessions kept in memory for a quick resume; older ones resume
    # from the event log.
    max_detached_sessions: Annotated[int, msgspec.Meta(ge=1, le=100_000)] = 256
    max_detached_per_principal: Annotated[int, msgspec.Meta(ge=1, le=10_000)] = 32
    idempotency_window: Annotated[int, msgspec.Meta(ge=16, le=4096)] = 256


# Days to keep a kind of data in the event log; 0 keeps it forever.
RetentionDays = Annotated[int, msgspec.Meta(ge=0, le=36_500)]


class RetentionSection(_Section, frozen=True):
    """How long the event log keeps each kind of data (`EventLog.prune`)."""

    transcripts_days: RetentionDays = 30  # conversation rows
    # Sessions ended or last seen longer ago, with their stored outcomes: a
    # retried message is answered from the log, across restarts, this long.
    sessions_days: RetentionDays = 30
    # Objectives that never became a command (rejected, expired, withdrawn).
    drafts_days: RetentionDays = 0
    objectives_days: RetentionDays = 0  # every other objective but pending ones
    audit_days: RetentionDays = 0  # auth_failed rows are capped by count anyway
    max_outcomes_per_session: Annotated[int, msgspec.Meta(ge=16, le=100_000)] = 256


class VacConfig(_Section, frozen=True):
    daemon: DaemonSection = msgspec.field(default_factory=DaemonSection)
    retention: RetentionSection = msgspec.field(default_factory=RetentionSection)
    # Sections owned by other layers are decoded by them from the raw table so
    # each layer names its own keys.
    stt: dict[str, Any] = msgspec.field(default_factory=dict)
    tts: dict[str, Any] = msgspec.field(default_factory=dict)
    vad: dict[str, Any] = msgspec.field(default_factory=dict)
    intent: dict[str, Any] = msgspec.field(default_factory=dict)
    agents: list[dict[str, Any]] = msgspec.field(default_factory=list)


def _empty_strings(value: Any, path: str) -> list[str]:
    if isinstance(value, str) and not value.strip():
        return [path]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _empty_strings(v, f"{path}.{k}")]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _empty_strings(v, f"{path}[{i}]")]
    return []


def decode_config(data: bytes, *, source: str = "vac.toml") -> VacConfig:
    try:
        raw = msgspec.toml.decode(data)
    except msgspec.DecodeError as exc:
        raise ConfigError(f"{source}: not valid TOML ({exc})") from None
    empty = _empty_strings(raw, "$")
    if empty:
        names = ", ".join(p.removeprefix("$.") for p in empty)
        raise ConfigError(f"{source}: {names} is present but empty — remove it or give a value")
    try:
        return msgspec.convert(raw, VacConfig)
    except msgspec.ValidationError as exc:
        raise ConfigError(f"{source}: {exc}") from None


def intent_config(config: VacConfig) -> Any:
    """The `[intent]` table plus `[[agents]]`, decoded by the intent layer."""
    from vac import intent

    raw: dict[str, Any] = dict(config.intent)
    if config.agents:
        raw["agents"] = config.agents
    try:
        return intent.config_from_builtins(raw)
    except intent.ConfigError as exc:
        raise ConfigError(f"vac.toml: {exc.message}") from None


def load_config(path: Path) -> VacConfig:
    if not path.exists():
        return VacConfig()
    return decode_config(path.read_bytes(), source=str(path))
