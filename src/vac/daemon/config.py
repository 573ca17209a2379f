"""`HOME/vac.toml`, decoded with msgspec.

Absent settings take their defaults; a setting that is present but empty is
refused by name (an empty model path is a mistake, not "use the default").
Every decode error names the offending key.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Final, Literal

import msgspec

from vac.errors import VacError

EgressClass = Literal[
    "on-device", "local-network", "named-remote-service", "unofficial-remote-endpoint"
]
DEFAULT_ENDPOINT: Final = "tcp://127.0.0.1:7707"


class ConfigError(VacError):
    """vac.toml is wrong; the message names the key."""


class _Section(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    pass


class DaemonSection(_Section, frozen=True):
    endpoint: Annotated[
        str,
        msgspec.Meta(
            description="Where the daemon listens: `tcp://HOST:PORT` or `ipc://PATH`;"
            " `vac daemon --endpoint` overrides it. Clients on other machines need a LAN"
            " address here (or `tcp://0.0.0.0:7707`)."
        ),
    ] = DEFAULT_ENDPOINT
    heartbeat_ms: Annotated[
        int,
        msgspec.Meta(
            ge=500,
            le=600_000,
            description="Clients send something at least this often; a session silent for"
            " 3 × this is idle (`bye {idle}`, still resumable). Also the ZMQ heartbeat.",
        ),
    ] = 10_000
    max_chunk_bytes: Annotated[
        int,
        msgspec.Meta(
            ge=320,
            le=32_768,
            description="Largest `audio.input.chunk` payload (8192 bytes = 256 ms of"
            " 16 kHz PCM); a larger one is `chunk_invalid`.",
        ),
    ] = 8192
    max_utterance_ms: Annotated[
        int,
        msgspec.Meta(
            ge=1000,
            le=120_000,
            description="An utterance this long is committed by the daemon"
            " (`audio.input.done {auto_committed}`).",
        ),
    ] = 30_000
    input_buffer_ms: Annotated[
        int,
        msgspec.Meta(
            ge=1000,
            le=120_000,
            description="Audio after speech started that recognition has not yet covered;"
            " beyond it the stream fails with `input_overrun`.",
        ),
    ] = 10_000
    output_queue_chunks: Annotated[
        int,
        msgspec.Meta(
            ge=8,
            le=4096,
            description="Reply audio chunks (100 ms each) queued for a session that is not"
            " reading; beyond it the reply is cancelled with `output_overrun`.",
        ),
    ] = 256
    output_lead_ms: Annotated[
        int,
        msgspec.Meta(
            ge=0,
            le=1000,
            description="Reply audio sent at once before the rest is paced at real time.",
        ),
    ] = 500
    continuation_ms: Annotated[
        int,
        msgspec.Meta(
            ge=0,
            le=3000,
            description="`vad` mode: speech that resumes within this long after the last"
            " voiced audio continues the same utterance and turn (a pause mid-command);"
            " the final heard at the pause is sent `provisional`. 0, or no more than"
            " `[vad] endpoint_silence_ms`, turns the window off.",
        ),
    ] = 700
    # Per-principal quotas (PROTOCOL §7).
    messages_per_s: Annotated[
        int,
        msgspec.Meta(
            ge=10,
            le=100_000,
            description="Messages per second per principal (token bucket); over it →"
            " `rate_limited`. Control messages (commit, cancel, confirm, reject, bye) are"
            " exempt.",
        ),
    ] = 400
    text_chars_per_s: Annotated[
        int,
        msgspec.Meta(
            ge=100,
            le=1_000_000,
            description="Typed text understood per second per principal: a text costs its"
            " length in characters plus its length squared over 500 (60 characters ~67,"
            " 2000 characters 10,000), from a bucket of one second's worth (never less than"
            " the longest text's cost); over it → `rate_limited`. Understanding costs CPU"
            " by length: this bounds what one principal's typing takes from everyone"
            " else's turns, and short commands typed back to back never reach it.",
        ),
    ] = 8000
    max_sessions_per_principal: Annotated[
        int,
        msgspec.Meta(
            ge=1,
            le=1000,
            description="Attached sessions per principal; one more `hello` → `rate_limited`.",
        ),
    ] = 8
    max_pending_drafts: Annotated[
        int,
        msgspec.Meta(
            ge=1,
            le=1000,
            description="Drafts awaiting the steward per principal; one more draft →"
            " `rate_limited` (confirm or reject some).",
        ),
    ] = 64
    max_open_objectives: Annotated[
        int,
        msgspec.Meta(
            ge=1,
            le=100_000,
            description="Confirmed objectives not yet settled (offered, accepted, in progress,"
            " countered, deferred, asked about) per principal; a new draft past it →"
            " `rate_limited` (withdraw some, or let agents finish them). They stay in the"
            " daemon's memory until settled: this bounds it.",
        ),
    ] = 1000
    max_remembered_refusals: Annotated[
        int,
        msgspec.Meta(
            ge=1,
            le=100_000,
            description="Refusals remembered per principal, the newest: confirming one of"
            " those objectives again, or a new one with the same agent, verb and target, is"
            " coercion (refused by the daemon without asking the agent, and audited). The"
            " oldest beyond it is forgotten (the event log keeps it): confirming it again is"
            " `objective_unknown`, and an ask like it goes to its agent afresh. Each stays in"
            " memory, and a restart loads this many: this bounds it.",
        ),
    ] = 1000
    offer_timeout_ms: Annotated[
        int,
        msgspec.Meta(
            ge=100,
            le=60_000,
            description="How long a confirmed objective waits for its agent's"
            " `objective.answer` (sent as `answer_by_ms`); then, or at once when no session"
            " of the agent is attached, the built-in negotiator answers (PROTOCOL §9).",
        ),
    ] = 3000
    # Detached sessions kept in memory for a quick resume; older ones resume
    # from the event log.
    max_detached_sessions: Annotated[
        int,
        msgspec.Meta(
            ge=1,
            le=100_000,
            description="Detached sessions kept in memory for a quick resume, all principals"
            " together; older ones still resume from the event log.",
        ),
    ] = 256
    max_detached_per_principal: Annotated[
        int,
        msgspec.Meta(
            ge=1,
            le=10_000,
            description="Detached sessions kept in memory per principal, so one principal's"
            " churn never pushes out another's.",
        ),
    ] = 32
    idempotency_window: Annotated[
        int,
        msgspec.Meta(
            ge=16,
            le=4096,
            description="Message ids per session remembered in memory; a repeated id is"
            " answered with its stored outcome, never executed twice. Written outcomes"
            " (drafts, confirms, rejects, withdrawals, answers) are kept apart, as many"
            " again, so later ids (pings) never push them out; a resumed session reloads"
            " that many from the event log.",
        ),
    ] = 256


# Days to keep a kind of data in the event log; 0 keeps it forever.
RetentionDays = Annotated[int, msgspec.Meta(ge=0, le=36_500)]


class RetentionSection(_Section, frozen=True):
    """How long the event log keeps each kind of data (`EventLog.prune`)."""

    transcripts_days: Annotated[
        RetentionDays,
        msgspec.Meta(description="Conversation rows: what was said and heard."),
    ] = 30
    # Sessions ended or last seen longer ago, with their stored outcomes: a
    # retried message is answered from the log, across restarts, this long.
    sessions_days: Annotated[
        RetentionDays,
        msgspec.Meta(
            description="Sessions ended or last seen longer ago, with their stored outcomes"
            " (idempotency across restarts); attached sessions are never pruned. At most"
            " 1,024 sessions per principal are kept: a new one pushes out the least recently"
            " seen one the daemon does not hold."
        ),
    ] = 30
    # Objectives that never became a command (rejected, expired, withdrawn).
    drafts_days: Annotated[
        RetentionDays,
        msgspec.Meta(
            description="Objectives that never became a command: rejected, expired, withdrawn."
        ),
    ] = 0
    objectives_days: Annotated[
        RetentionDays,
        msgspec.Meta(
            description="Every other objective; pending ones are never deleted (refused ones"
            " are what coercion is judged against)."
        ),
    ] = 0
    audit_days: Annotated[
        RetentionDays,
        msgspec.Meta(
            description="Audit rows of every kind; `auth_failed` rows are also capped at 10,000."
        ),
    ] = 0
    max_outcomes_per_session: Annotated[
        int,
        msgspec.Meta(
            ge=16,
            le=100_000,
            description="Stored outcomes kept per session (the newest N); a resumed session"
            " reloads them after a restart.",
        ),
    ] = 256


class VacConfig(_Section, frozen=True):
    daemon: DaemonSection = msgspec.field(default_factory=DaemonSection)
    retention: RetentionSection = msgspec.field(default_factory=RetentionSection)
    # Sections owned by other layers are decoded by them from the raw table so
    # each layer names its own keys.
    stt: dict[str, Any] = msgspec.field(default_factory=dict)
    tts: dict[str, Any] = msgspec.field(default_factory=dict)
    vad: dict[str, Any] = msgspec.field(default_factory=dict)
    inference: dict[str, Any] = msgspec.field(default_factory=dict)
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
    except intent.IntentConfigInvalid as exc:
        raise ConfigError(f"vac.toml: {exc.message}") from None


def load_config(path: Path) -> VacConfig:
    """`path`'s configuration; the defaults when there is no such file. A
    link to nothing is an error, not "no vac.toml" (an operator probe: the
    daemon ran on the defaults, its endpoint too, with no word)."""
    if not path.exists() and not path.is_symlink():
        return VacConfig()
    try:
        data = path.read_bytes()
    except OSError as exc:
        what = "a link to nothing" if path.is_symlink() and not path.exists() else exc.strerror
        raise ConfigError(
            f"{path}: cannot be read ({what}) — make it a readable file, or remove it"
            " to run on the defaults"
        ) from None
    return decode_config(data, source=str(path))
