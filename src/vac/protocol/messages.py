"""Every VAC/1 message as a frozen msgspec Struct: one tagged union per direction.

Field names are fixed by PROTOCOL.md. Inbound (client → daemon) structs are
strict — unknown fields are refused — because the daemon is strict (§2).
Outbound (daemon → client) structs tolerate unknown fields because clients
are lenient and the daemon may grow.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

import msgspec

# §9's messages live in their own module; re-exported here with the unions.
from vac.protocol.agent_messages import MAX_LISTED_OBJECTIVES as MAX_LISTED_OBJECTIVES
from vac.protocol.agent_messages import AnsweredBy as AnsweredBy
from vac.protocol.agent_messages import Decision as Decision
from vac.protocol.agent_messages import ListedStatus as ListedStatus
from vac.protocol.agent_messages import ObjectiveAnswer as ObjectiveAnswer
from vac.protocol.agent_messages import ObjectiveList as ObjectiveList
from vac.protocol.agent_messages import ObjectiveListResult as ObjectiveListResult
from vac.protocol.agent_messages import ObjectiveOffer as ObjectiveOffer
from vac.protocol.agent_messages import ObjectiveProgress as ObjectiveProgress
from vac.protocol.agent_messages import ObjectiveUpdated as ObjectiveUpdated
from vac.protocol.agent_messages import ObjectiveWithdraw as ObjectiveWithdraw
from vac.protocol.agent_messages import PermissionAnswer as PermissionAnswer
from vac.protocol.agent_messages import ProgressState as ProgressState
from vac.protocol.agent_messages import SquadAnswer as SquadAnswer
from vac.protocol.agent_messages import SquadAnswered as SquadAnswered
from vac.protocol.agent_messages import SquadWithdraw as SquadWithdraw
from vac.protocol.agent_messages import SquadWithdrawn as SquadWithdrawn
from vac.protocol.agent_messages import UpdatedBy as UpdatedBy
from vac.protocol.objective import Objective, UncertainField
from vac.protocol.wire_base import Id as Id
from vac.protocol.wire_base import Inbound as Inbound
from vac.protocol.wire_base import NonNeg as NonNeg
from vac.protocol.wire_base import Outbound as Outbound

PROTOCOL_VERSION: Final = 1
MARKER: Final = b"VAC/1"

OutputRate = Literal[16000, 22050, 24000, 48000]
OUTPUT_RATES_HZ: Final[tuple[int, ...]] = (16000, 22050, 24000, 48000)
InputMode = Literal["push_to_talk", "vad"]
Principal = Annotated[str, msgspec.Meta(pattern=r"^[a-z][a-z0-9_-]{0,31}$")]


# ---------------------------------------------------------------- inbound


class OutputRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    rate: OutputRate
    speak: bool


# Additions to the contract a client takes only by naming them in
# `hello.features` (each changes what a client written to §4/§5 alone sees):
# "provisional-final": the final heard at a pause is sent early with
# `provisional: true`, then the real one (two `transcript.final` for one turn);
# "announcement-turns": a change an agent made is also spoken, in a turn the
# daemon starts (no `transcript.final` begins it).
OPT_IN_FEATURES: tuple[str, ...] = ("provisional-final", "announcement-turns")


class Hello(Inbound, frozen=True, tag="hello"):
    versions: Annotated[list[NonNeg], msgspec.Meta(min_length=1, max_length=16)]
    client: Annotated[str, msgspec.Meta(min_length=1, max_length=128)]
    output: OutputRequest
    resume: Id | None = None
    # An addition: the additions to §4/§5 this client understands
    # (`OPT_IN_FEATURES`); a client that names none gets the contract as written.
    features: Annotated[
        list[Annotated[str, msgspec.Meta(max_length=64)]], msgspec.Meta(max_length=32)
    ] = msgspec.field(default_factory=list)


class Ping(Inbound, frozen=True, tag="ping"):
    pass


class ClientBye(Inbound, frozen=True, tag="bye"):
    pass


class AudioInputStart(Inbound, frozen=True, tag="audio.input.start"):
    stream: Id
    # Checked by the daemon, not the decoder: a wrong format is
    # `format_unsupported`, not `invalid_message`.
    encoding: Annotated[str, msgspec.Meta(max_length=32)]
    rate: NonNeg
    channels: NonNeg
    mode: InputMode
    trace: Id | None = None


class AudioInputChunk(Inbound, frozen=True, tag="audio.input.chunk"):
    stream: Id
    seq: NonNeg


class AudioInputCommit(Inbound, frozen=True, tag="audio.input.commit"):
    stream: Id
    last_seq: NonNeg


class AudioInputCancel(Inbound, frozen=True, tag="audio.input.cancel"):
    stream: Id


class TextInput(Inbound, frozen=True, tag="text.input"):
    text: Annotated[str, msgspec.Meta(min_length=1, max_length=2000)]


class ObjectiveConfirm(Inbound, frozen=True, tag="objective.confirm"):
    objective_id: Id
    revision: NonNeg | None = None
    # Validated by the intent layer so that every bad field is named in
    # `error objective_invalid` (§5.1), not refused wholesale by the decoder.
    edits: dict[str, Any] | None = None


class ObjectiveReject(Inbound, frozen=True, tag="objective.reject"):
    objective_id: Id


class TurnCancel(Inbound, frozen=True, tag="turn.cancel"):
    turn: Id
    played_ms: NonNeg | None = None


class AudioOutputPlayed(Inbound, frozen=True, tag="audio.output.played"):
    stream: Id
    played_ms: NonNeg


SquadKind = Literal[
    "status-report", "callout", "permission-request", "inter-agent-banter", "directed-order"
]


class SquadSend(Inbound, frozen=True, tag="squad.send"):
    """Addition to VAC/1 (docs/protocol.md): a message on the squad channel.

    `sender` can only say who the session is (PROTOCOL §1: no header field
    claims a principal): an agent's session sends as its agent, a steward's
    as the steward. What is addressed to the steward is delivered back, and
    spoken when `speak`.
    """

    kind: SquadKind
    text: Annotated[str, msgspec.Meta(min_length=1, max_length=2000)]
    to: Annotated[str, msgspec.Meta(max_length=48)] | None = None
    sender: Annotated[str, msgspec.Meta(max_length=48)] | None = None


InboundMessage = (
    Hello
    | Ping
    | ClientBye
    | AudioInputStart
    | AudioInputChunk
    | AudioInputCommit
    | AudioInputCancel
    | TextInput
    | ObjectiveConfirm
    | ObjectiveReject
    | TurnCancel
    | AudioOutputPlayed
    | SquadSend
    | ObjectiveList
    | ObjectiveWithdraw
    | ObjectiveAnswer
    | ObjectiveProgress
    | SquadAnswer
    | SquadWithdraw
)

# Messages that §7 says are never rate-limited or dropped.
CONTROL_TYPES: Final[tuple[type[Inbound], ...]] = (
    AudioInputCommit,
    AudioInputCancel,
    TurnCancel,
    ObjectiveConfirm,
    ObjectiveReject,
    ObjectiveWithdraw,
    ObjectiveAnswer,
    ObjectiveProgress,
    SquadAnswer,
    SquadWithdraw,
    ClientBye,
)


# --------------------------------------------------------------- outbound


class InputFormat(msgspec.Struct, frozen=True):
    encoding: Literal["pcm_s16le"] = "pcm_s16le"
    rate: int = 16000
    channels: int = 1


class OutputFormat(msgspec.Struct, frozen=True):
    rate: int
    speak: bool
    encoding: Literal["pcm_s16le"] = "pcm_s16le"
    channels: int = 1


class Limits(msgspec.Struct, frozen=True):
    max_chunk_bytes: int
    max_utterance_ms: int
    input_buffer_ms: int
    output_queue_chunks: int
    output_lead_ms: int
    # An addition (docs/protocol.md): the `vad`-mode continuation window.
    continuation_ms: int = 0


Role = Literal["steward", "agent"]


class HelloOk(Outbound, frozen=True, tag="hello.ok"):
    principal: str
    # PROTOCOL §9: "agent" for a principal enrolled with `--agent`. Required,
    # not defaulted: `Outbound` omits defaults from the wire.
    role: Role
    version: int
    features: list[str]
    input: InputFormat
    output: OutputFormat
    limits: Limits
    heartbeat_ms: int
    resumed: bool
    pending: list[Objective]


class Pong(Outbound, frozen=True, tag="pong"):
    pass


ByeReason = Literal["shutdown", "idle", "replaced", "revoked"]


class ServerBye(Outbound, frozen=True, tag="bye"):
    reason: ByeReason


class Error(Outbound, frozen=True, tag="error"):
    code: str
    message: str
    retryable: bool
    # Required so that it is always present: null when the offending message's
    # id could not be read (§2).
    ref: Id | None
    stream: Id | None = None
    turn: Id | None = None
    details: dict[str, Any] | None = None


class SpeechStarted(Outbound, frozen=True, tag="speech.started"):
    stream: str
    at_ms: int


class SpeechStopped(Outbound, frozen=True, tag="speech.stopped"):
    stream: str
    at_ms: int


class TranscriptPartial(Outbound, frozen=True, tag="transcript.partial"):
    stream: str
    text: str
    revision: int


class TranscriptFinal(Outbound, frozen=True, tag="transcript.final"):
    stream: str | None
    turn: str
    text: str
    confidence: float
    # An addition (docs/protocol.md): heard at a `vad` pause that may still be
    # continued; show it, do not act on it. Its turn may never open.
    provisional: bool = False


# "failed" is an addition (docs/protocol.md): recognition itself failed.
InputDoneReason = Literal["transcribed", "no_speech", "auto_committed", "overrun", "idle", "failed"]


class AudioInputDone(Outbound, frozen=True, tag="audio.input.done"):
    stream: str
    reason: InputDoneReason
    turn: str | None = None


class Preview(msgspec.Struct, frozen=True):
    summary: str
    state: Literal["awaiting-steward-confirmation"] = "awaiting-steward-confirmation"
    uncertain: list[UncertainField] = msgspec.field(default_factory=list)


class ObjectiveDraft(Outbound, frozen=True, tag="objective.draft"):
    turn: str
    objective: Objective
    preview: Preview
    # PROTOCOL §9: the objective this draft counter-offers (the agent's own
    # proposal: confirming it is its acceptance).
    counter_of: str | None = None


class ObjectiveClarify(Outbound, frozen=True, tag="objective.clarify"):
    turn: str
    reason: str
    question: str
    # The choices the question names ("Did you mean Imani or Abeni?"), so a
    # client can offer them as buttons; empty when it names none (an addition).
    candidates: list[str] = msgspec.field(default_factory=list)


class ObjectiveConfirmed(Outbound, frozen=True, tag="objective.confirmed"):
    turn: str
    objective_id: str
    objective: Objective


class ObjectiveRejected(Outbound, frozen=True, tag="objective.rejected"):
    turn: str
    objective_id: str
    objective: Objective


class Negotiation(Outbound, frozen=True, tag="negotiation"):
    turn: str
    objective_id: str
    decision: Decision
    reply: str
    reason: str
    evidence: list[str]
    # PROTOCOL §9: the agent's own session answered, or the built-in
    # negotiator (no agent session, or none within `answer_by_ms`).
    answered_by: AnsweredBy


class AudioOutputStart(Outbound, frozen=True, tag="audio.output.start"):
    turn: str
    stream: str
    generation: int
    rate: int
    text: str
    # Required, not defaulted: `Outbound` omits defaults from the wire, and
    # PROTOCOL §5 lists both fields on every `audio.output.start`.
    encoding: Literal["pcm_s16le"]
    channels: int


class VisemeCue(msgspec.Struct, frozen=True):
    at_ms: int
    viseme: str


class AudioOutputVisemes(Outbound, frozen=True, tag="audio.output.visemes"):
    stream: str
    generation: int
    cues: list[VisemeCue]
    timing: Literal["aligned", "estimated"]


class AudioOutputChunk(Outbound, frozen=True, tag="audio.output.chunk"):
    stream: str
    generation: int
    index: int


class AudioOutputRefused(Outbound, frozen=True, tag="audio.output.refused"):
    """Addition to VAC/1 (docs/protocol.md): a reply that the rendering gate
    would not voice (JSON, HTML, a table, code...). Its text still reached the
    client in the message that carried it; nothing of it is spoken."""

    turn: str
    reason: str
    detail: str


OutputDoneReason = Literal["completed", "cancelled", "failed"]


class AudioOutputDone(Outbound, frozen=True, tag="audio.output.done"):
    stream: str
    generation: int
    reason: OutputDoneReason
    chunks: int


TurnStatus = Literal[
    "parsed", "needs-clarification", "completed", "budget-exceeded", "cancelled", "failed"
]


class TurnDone(Outbound, frozen=True, tag="turn.done"):
    turn: str
    status: TurnStatus
    latency_ms: dict[str, int]
    # The `trace` of the `audio.input.start` that began the turn (an addition).
    trace: str | None = None


class SquadMessage(Outbound, frozen=True, tag="squad.message"):
    """Addition to VAC/1 (docs/protocol.md): a routed squad-channel message."""

    kind: str
    sender: str
    recipients: list[str]
    text: str
    realm: str
    time_sensitive: bool
    needs_steward: bool
    duckable: bool
    turn: str | None = None  # the turn it started, when it was sent in this session
    # An addition: the message's id; a permission-request is answered by it
    # (`squad.answer {message}`).
    message_id: str | None = None
    # An addition: the principal whose session sent it (`sender` names the
    # squad member: the agent, or "steward" for any of the stewards).
    by: str | None = None


OutboundMessage = (
    HelloOk
    | Pong
    | ServerBye
    | Error
    | SpeechStarted
    | SpeechStopped
    | TranscriptPartial
    | TranscriptFinal
    | AudioInputDone
    | ObjectiveDraft
    | ObjectiveClarify
    | ObjectiveConfirmed
    | ObjectiveRejected
    | Negotiation
    | AudioOutputStart
    | AudioOutputVisemes
    | AudioOutputChunk
    | AudioOutputDone
    | AudioOutputRefused
    | TurnDone
    | SquadMessage
    | ObjectiveListResult
    | ObjectiveUpdated
    | ObjectiveOffer
    | SquadAnswered
    | SquadWithdrawn
)

# Outbound messages exempt from the output-queue bound (§7): control, not data.
PAYLOAD_TYPES: Final[tuple[type[Outbound], ...]] = (AudioOutputChunk,)
INBOUND_PAYLOAD_TYPES: Final[tuple[type[Inbound], ...]] = (AudioInputChunk,)


def message_types(union: Any) -> list[type[msgspec.Struct]]:
    """The member Structs of a tagged union, in declaration order."""
    return list(union.__args__)


def tag_of(cls: type[msgspec.Struct]) -> str:
    tag = cls.__struct_config__.tag
    assert isinstance(tag, str)
    return tag
