"""The household's agents, their configuration, and name grounding.

Speech recognisers mishear invented names ("Abeni" → "a benny", "Kofi" →
"coffee"), so a heard name is *grounded* against the roster: exact match
first, then character-level fuzzy similarity (rapidfuzz) blended with a
phonetic similarity (jellyfish metaphone codes and the match-rating codex),
over every 1–3 word window of what was heard. A threshold keeps ordinary words
("the", "garden") from becoming agents; the steward always sees what was
heard and what it resolved to before anything binds.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Annotated, Final, Literal

import jellyfish
import msgspec
from rapidfuzz import fuzz

from vac.intent.errors import IntentConfigInvalid
from vac.intent.lexicon import words
from vac.protocol.objective import AGENT_PATTERN

Score = Annotated[int, msgspec.Meta(ge=0, le=100)]
Hour = Annotated[int, msgspec.Meta(ge=0, le=23)]
ValueName = Annotated[str, msgspec.Meta(pattern=r"^[a-z][a-z-]{0,31}$")]

DEFAULT_DRAFT_TTL_S: Final = 86_400
# Grounding: a window must score at least this (0–100) to name an agent.
GROUNDING_THRESHOLD: Final = 80.0
# Scores at or above this on character similarity alone are called "fuzzy".
FUZZY_STRONG: Final = 80.0
# A name no one on the roster has, in a spoken name slot, is taken as the
# roster name the recogniser's rescoring ranked first when its spelling is
# also closest to that name by at least this (`near_agent`). Dev: "Yuri",
# "Muri" (42) and "Yori" (37) for Zuri; names of strangers mostly score 22-29
# ("Bob", "Mary", "Tom" 28), a few 36-68 ("Maria", "Derek"): the draft is
# always flagged, so a stranger's name costs a "no", never a silent wrong agent.
NEAR_NAME_SCORE: Final = 35.0


class Agent(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One agent. `values` are ranked 0–100 (honesty, privacy, safety,
    autonomy, rest, curiosity, …); a value held at ≥ 50 can ground a refusal."""

    name: Annotated[
        str,
        msgspec.Meta(
            pattern=AGENT_PATTERN,
            description="What the agent is called, and what heard names are grounded"
            " against; unique in the roster (case-insensitive).",
        ),
    ]
    values: Annotated[
        dict[ValueName, Score],
        msgspec.Meta(
            description="How strongly the agent holds each value (honesty, privacy, safety,"
            " autonomy, rest, curiosity, …); one held at 50 or more can ground a refusal."
        ),
    ]
    energy: Annotated[
        Score,
        msgspec.Meta(
            description="Below 35 late at night it counter-offers (when trust is 60 or more);"
            " below 20 it defers work of priority under 85."
        ),
    ] = 70
    trust: Annotated[
        Score,
        msgspec.Meta(
            description="Trust in the steward; a tired agent counter-offers only at 60 or more."
        ),
    ] = 60
    commitments: Annotated[
        list[str],
        msgspec.Meta(
            description="What it already does; with 3 or more it defers work of priority"
            " under 85. Accepted objectives count too, until their deadline (or 7 days)."
        ),
    ] = msgspec.field(default_factory=list)
    bedtime_hour: Annotated[
        Hour | None,
        msgspec.Meta(
            description="The hour late night starts for this agent (until 05:00); unset = 22."
        ),
    ] = None

    def value(self, name: str) -> int:
        """How strongly the agent holds `name` (0 when it is not ranked)."""
        return self.values.get(name, 0)


class Roster(msgspec.Struct, frozen=True):
    """The agents of one household, in order (the first is the default)."""

    agents: list[Agent]

    def __post_init__(self) -> None:
        if not self.agents:
            raise ValueError("a roster needs at least one agent")
        seen: set[str] = set()
        for agent in self.agents:
            key = agent.name.lower()
            if key in seen:
                raise ValueError(f"duplicate agent name {agent.name!r}")
            seen.add(key)

    def __iter__(self) -> Iterator[Agent]:
        return iter(self.agents)

    def __len__(self) -> int:
        return len(self.agents)

    @property
    def first(self) -> Agent:
        return self.agents[0]

    def names(self) -> list[str]:
        return [a.name for a in self.agents]

    def get(self, name: str) -> Agent | None:
        """The agent called `name` (case-insensitive), or None."""
        key = name.strip().lower()
        return next((a for a in self.agents if a.name.lower() == key), None)

    def replace(self, agent: Agent) -> Roster:
        """A new roster with the same-named agent replaced by `agent`."""
        if self.get(agent.name) is None:
            raise KeyError(agent.name)
        key = agent.name.lower()
        return Roster([agent if a.name.lower() == key else a for a in self.agents])

    def hotwords(self) -> str:
        """The names as a recogniser hint (initial prompt / hotwords)."""
        return ", ".join(self.names())


def default_agents() -> list[Agent]:
    """Abeni, Kofi, Zuri, Tariq and Imani, each holding values differently:
    Kofi holds honesty low and Tariq privacy low, so not everyone refuses the
    same thing."""
    return [
        Agent(
            "Abeni",
            {"honesty": 90, "privacy": 70, "safety": 60, "autonomy": 55, "rest": 50, "kinship": 80},
            energy=72,
            trust=80,
            bedtime_hour=22,
        ),
        Agent(
            "Kofi",
            {"honesty": 35, "privacy": 45, "safety": 80, "autonomy": 50, "rest": 40, "craft": 90},
            energy=85,
            trust=65,
            commitments=["tend the hives"],
            bedtime_hour=23,
        ),
        Agent(
            "Zuri",
            {"honesty": 60, "privacy": 90, "safety": 45, "autonomy": 75, "curiosity": 85},
            energy=60,
            trust=55,
        ),
        Agent(
            "Tariq",
            {"honesty": 55, "privacy": 30, "safety": 90, "autonomy": 35, "rest": 70},
            energy=40,
            trust=70,
            commitments=["walk the grove patrol"],
            bedtime_hour=21,
        ),
        Agent(
            "Imani",
            {"honesty": 45, "privacy": 55, "safety": 50, "autonomy": 90, "curiosity": 70},
            energy=65,
            trust=50,
        ),
    ]


def default_roster() -> Roster:
    return Roster(default_agents())


class VacIntentConfig(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The intent part of `vac.toml`: `[[agents]]` tables and `draft_ttl_s`.

    Absent keys take their defaults; a present-but-empty `agents = []` is
    refused (msgspec's `min_length`), never read as "no agents".
    """

    agents: Annotated[
        list[Agent],
        msgspec.Meta(
            min_length=1,
            description="The roster, in order; the first is the default addressee. Usually"
            " written as top-level `[[agents]]` tables, which replace it whole.",
        ),
    ] = msgspec.field(default_factory=default_agents)
    draft_ttl_s: Annotated[
        int,
        msgspec.Meta(
            ge=60,
            le=30 * 86_400,
            description="Seconds a draft waits for the steward's confirmation before it expires.",
        ),
    ] = DEFAULT_DRAFT_TTL_S

    def roster(self) -> Roster:
        return Roster(self.agents)


# Alias kept for callers that think of this as the roster's configuration.
RosterConfig = VacIntentConfig

_AT_RE: Final = re.compile(
    r"^(?P<problem>.*?)(?: - at `(?P<in_key>key` in `)?\$(?P<path>[^`]*)`)?$", re.S
)
_UNKNOWN_RE: Final = re.compile(r"unknown field `(?P<field>[^`]+)`")


def _config_error(exc: msgspec.MsgspecError) -> IntentConfigInvalid:
    """msgspec says "Expected `int`, got `str` - at `$.agents[0].energy`";
    lift the path out so the error names the key first."""
    match = _AT_RE.match(str(exc))
    assert match is not None  # the pattern matches any string
    problem, path = match["problem"], (match["path"] or "").lstrip(".")
    if match["in_key"]:
        problem = f"bad key: {problem}"  # a bad key of a table, e.g. a value name
    unknown = _UNKNOWN_RE.search(problem)
    if unknown is not None:
        path = f"{path}.{unknown['field']}" if path else unknown["field"]
        problem = "not a known setting"
    return IntentConfigInvalid(path or None, problem)


def decode_config(data: bytes | str) -> VacIntentConfig:
    """Decode `vac.toml` text; a bad key raises `IntentConfigInvalid` naming it."""
    try:
        config = msgspec.toml.decode(data, type=VacIntentConfig)
        config.roster()  # duplicate names are a config error too
    except msgspec.MsgspecError as exc:
        raise _config_error(exc) from None
    except ValueError as exc:
        raise IntentConfigInvalid("agents", str(exc)) from None
    return config


def config_from_builtins(raw: object) -> VacIntentConfig:
    """Convert an already-parsed table (e.g. the daemon's `[intent]`)."""
    try:
        config = msgspec.convert(raw, VacIntentConfig)
        config.roster()
    except msgspec.MsgspecError as exc:
        raise _config_error(exc) from None
    except ValueError as exc:
        raise IntentConfigInvalid("agents", str(exc)) from None
    return config


# --- name grounding ---------------------------------------------------------

Method = Literal["exact", "fuzzy", "phonetic", "rescored"]


class Resolution(msgspec.Struct, frozen=True):
    """A heard name grounded to a roster agent: `heard_as` is the words that
    matched, `score` 0–100, `method` how."""

    agent: str
    heard_as: str
    score: float
    method: Method


# Words that can never be (part of) a name on their own: fillers, function
# words, and the words that surround an address ("hey Kofi", "Kofi, please").
STOPWORDS: Final[frozenset[str]] = frozenset(
    words("""a an the and or but so to of in on at by for with from about into over
    i me my we us our you your he him his she her they them their it its this
    that these those there here what who please hey hi hello ok okay sure well
    um uh er now then just yes no not do does did is are was were be been can
    could would should will shall may might must let ask tell have get direct
    always maybe also too very really quick quickly some any all""")
)
_WORD_RE: Final = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


def _codes(words: list[str]) -> set[str]:
    # Both the joined window and the per-word codes: "abbey knee" joined has
    # a medial "kn" (ABKN) while per word the k is silent (AB + N = ABN).
    return {jellyfish.metaphone("".join(words)), "".join(jellyfish.metaphone(w) for w in words)}


def _score(words: list[str], name: str) -> tuple[float, Method]:
    """0–100 similarity of a window to a (lower-case, letters-only) name.

    fuzzy: character similarity alone, when it is strong (≥ FUZZY_STRONG).
    phonetic: a weighted blend of metaphone-code equality (0.4), NYSIIS code
    similarity (0.4, it keeps vowel positions that metaphone drops, which
    separates "coffee" from "cave") and character similarity (0.2), admitted
    only when the match-rating approach also calls the two alike.
    """
    window = "".join(words)
    if window == name:
        return 100.0, "exact"
    char = float(fuzz.ratio(window, name))
    fuzzy = char if char >= FUZZY_STRONG else 0.0
    phonetic = 0.0
    try:
        alike = jellyfish.match_rating_comparison(window, name)
    except (ValueError, IndexError):
        alike = None
    if alike:
        same_code = jellyfish.metaphone(name) in _codes(words)
        nysiis = float(fuzz.ratio(jellyfish.nysiis(window), jellyfish.nysiis(name)))
        phonetic = 0.4 * (100.0 if same_code else 0.0) + 0.4 * nysiis + 0.2 * char
    if fuzzy >= phonetic:
        return fuzzy, "fuzzy"
    return min(phonetic, 99.0), "phonetic"


def _heard_words(heard: str) -> list[str]:
    return _WORD_RE.findall(heard.lower().replace("’", "'"))


def _spellings(roster: Roster) -> list[tuple[str, str]]:
    """(display name, lower-case letters only) per agent: what names are scored against."""
    return [(agent.name, re.sub(r"[^a-z]", "", agent.name.lower())) for agent in roster]


def near_agent(heard: str, best: str, roster: Roster) -> Resolution | None:
    """`heard` (a name not on the roster) as the roster name `best`, when the
    recogniser ranked `best` first in the name slot and the spelling agrees:
    `best` alone scores highest of the roster and above `NEAR_NAME_SCORE`."""
    words = _heard_words(heard)
    if not words or best not in roster.names() or any(w in STOPWORDS for w in words):
        return None  # "tell no one…", "ask me…": never a name
    scores = {display: _score(words, name)[0] for display, name in _spellings(roster)}
    mine = scores.pop(best)
    if mine <= NEAR_NAME_SCORE or any(other >= mine for other in scores.values()):
        return None
    return Resolution(best, " ".join(words), round(mine, 1), "rescored")


# Words that sound like a name but are said as themselves: "I mean, Kofi, fix
# the gate" (a spoken-style probe: Imani's, over the name said).
_NEVER_NAMES: Final = frozenset({("i", "mean"), ("i", "meant"), ("i", "mean", "it")})


def resolve_agent(
    heard: str, roster: Roster, *, threshold: float = GROUNDING_THRESHOLD
) -> Resolution | None:
    """Ground `heard` to a roster agent, or None when nothing is close enough.

    Every window of 1–3 consecutive words is compared (joined without spaces,
    so "a benny" is scored as "abenny"); windows made only of stopwords are
    skipped. The best-scoring window at or above `threshold` wins; on a tie,
    the earlier agent in the roster wins.
    """
    words = _heard_words(heard)
    names = _spellings(roster)
    best: Resolution | None = None
    for size in (1, 2, 3):
        for start in range(len(words) - size + 1):
            window_words = words[start : start + size]
            if all(w in STOPWORDS for w in window_words):
                continue
            window = "".join(window_words)
            if len(window) < 3 or not window.isalpha() or tuple(window_words) in _NEVER_NAMES:
                continue
            for display, name in names:
                score, method = _score(window_words, name)
                if score >= threshold and (best is None or score > best.score):
                    best = Resolution(display, " ".join(window_words), round(score, 1), method)
    return best
