"""vac.intent: words → a steward-gated objective → the agent's own answer.

Sans-IO: no asyncio, no sockets, no clock reads (every `now` is passed in),
no randomness (ids are passed in). See docs/intent.md.
"""

from vac.intent.alternatives import Alternative
from vac.intent.answers import chosen, names_a_thing, names_a_time, says_instead
from vac.intent.change_plainly import named_not_taken
from vac.intent.change_reasons import without_asides
from vac.intent.commitments import OPEN_ENDED_DAYS, with_commitments
from vac.intent.errors import (
    FieldError,
    IntentConfigInvalid,
    IntentError,
    ObjectiveInvalid,
    ObjectiveUnknown,
    RevisionStale,
    SquadMessageInvalid,
    SquadSenderUnauthorized,
)
from vac.intent.evidence import (
    SPOKEN_CONFIRM_MIN_CONFIDENCE,
    SPOKEN_MIN_CONFIDENCE,
    SPOKEN_REJECT_MIN_CONFIDENCE,
    Evidence,
    NameChoice,
    ReplyChoice,
    WordProb,
    reply_floor,
    weigh,
    with_flags,
)
from vac.intent.follow_up import follow_up
from vac.intent.gate import (
    OPEN_HORIZON,
    Checkpoint,
    Confirmed,
    DraftBook,
    DraftEntry,
    DraftState,
)
from vac.intent.grammar import (
    GRAMMAR_FUNCTION_NAME,
    OBJECTIVE_FIELDS,
    grammar_function_schema,
    objective_json_schema,
)
from vac.intent.lexicon import heard_verb_phrases, verb_words
from vac.intent.negotiation import (
    AuditEvent,
    Decision,
    NegotiationOutcome,
    ValueConflict,
    accepted,
    apply_accept,
    counter_offer,
    negotiate,
    value_conflicts,
)
from vac.intent.parser import MIN_CONFIDENCE, Clarify, Draft, ParseResult, parse
from vac.intent.picks import Named, Pick, picked
from vac.intent.reading import understand
from vac.intent.refusals import DEFAULT_MAX_REFUSALS, RefusalMemory
from vac.intent.reply_evidence import HeardReply, spoken_reply
from vac.intent.reply_words import REJECT_MIN_CONFIDENCE, classify_reply, reply_phrases
from vac.intent.roster import (
    DEFAULT_DRAFT_TTL_S,
    GROUNDING_THRESHOLD,
    Agent,
    Resolution,
    Roster,
    RosterConfig,
    VacIntentConfig,
    config_from_builtins,
    decode_config,
    default_roster,
    resolve_agent,
)
from vac.intent.spoken import Wording, kept_wording, restate, summarise
from vac.intent.squad import (
    BANTER_WINDOW_MS,
    SQUAD_KINDS,
    BanterThrottle,
    RoutedMessage,
    ScriptStep,
    SquadPost,
    compare_realm_parity,
    parity_scenario,
    route,
)
from vac.intent.status_asked import StatusAsked, status_asked
from vac.intent.third_person import said_to_them
from vac.intent.validate import (
    agent_counter,
    apply_edits,
    check_draft_ready,
    objective_from_builtins,
    validate_objective,
)

__all__ = [
    "BANTER_WINDOW_MS",
    "DEFAULT_DRAFT_TTL_S",
    "DEFAULT_MAX_REFUSALS",
    "GRAMMAR_FUNCTION_NAME",
    "GROUNDING_THRESHOLD",
    "MIN_CONFIDENCE",
    "OBJECTIVE_FIELDS",
    "OPEN_ENDED_DAYS",
    "OPEN_HORIZON",
    "REJECT_MIN_CONFIDENCE",
    "SPOKEN_CONFIRM_MIN_CONFIDENCE",
    "SPOKEN_MIN_CONFIDENCE",
    "SPOKEN_REJECT_MIN_CONFIDENCE",
    "SQUAD_KINDS",
    "Agent",
    "Alternative",
    "AuditEvent",
    "BanterThrottle",
    "Checkpoint",
    "Clarify",
    "Confirmed",
    "Decision",
    "Draft",
    "DraftBook",
    "DraftEntry",
    "DraftState",
    "Evidence",
    "FieldError",
    "HeardReply",
    "IntentConfigInvalid",
    "IntentError",
    "NameChoice",
    "Named",
    "NegotiationOutcome",
    "ObjectiveInvalid",
    "ObjectiveUnknown",
    "ParseResult",
    "Pick",
    "RefusalMemory",
    "ReplyChoice",
    "Resolution",
    "RevisionStale",
    "Roster",
    "RosterConfig",
    "RoutedMessage",
    "ScriptStep",
    "SquadMessageInvalid",
    "SquadPost",
    "SquadSenderUnauthorized",
    "StatusAsked",
    "VacIntentConfig",
    "ValueConflict",
    "WordProb",
    "Wording",
    "accepted",
    "agent_counter",
    "apply_accept",
    "apply_edits",
    "check_draft_ready",
    "chosen",
    "classify_reply",
    "compare_realm_parity",
    "config_from_builtins",
    "counter_offer",
    "decode_config",
    "default_roster",
    "follow_up",
    "grammar_function_schema",
    "heard_verb_phrases",
    "kept_wording",
    "named_not_taken",
    "names_a_thing",
    "names_a_time",
    "negotiate",
    "objective_from_builtins",
    "objective_json_schema",
    "parity_scenario",
    "parse",
    "picked",
    "reply_floor",
    "reply_phrases",
    "resolve_agent",
    "restate",
    "route",
    "said_to_them",
    "says_instead",
    "spoken_reply",
    "status_asked",
    "summarise",
    "understand",
    "validate_objective",
    "value_conflicts",
    "verb_words",
    "weigh",
    "with_commitments",
    "with_flags",
    "without_asides",
]
