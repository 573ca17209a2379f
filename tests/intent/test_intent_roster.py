from __future__ import annotations

import msgspec
import pytest

from vac.intent import (
    Agent,
    IntentConfigInvalid,
    Roster,
    VacIntentConfig,
    config_from_builtins,
    decode_config,
    default_roster,
    resolve_agent,
)

# (heard, agent) — mishearings a small recogniser really produces, and spellings.
GOLDEN = [
    ("Abeni", "Abeni"),
    ("abeni", "Abeni"),
    ("a benny", "Abeni"),
    ("abbey knee", "Abeni"),
    ("a beny", "Abeni"),
    ("Kofi", "Kofi"),
    ("coffee", "Kofi"),
    ("cofe", "Kofi"),
    ("koffi", "Kofi"),
    ("zoo re", "Zuri"),
    ("zori", "Zuri"),
    ("tarik", "Tariq"),
    ("tareek", "Tariq"),
    ("imani", "Imani"),
    ("emani", "Imani"),
    ("hey coffee", "Kofi"),
]
NOT_NAMES = [
    "the",
    "garden",
    "gate",
    "the garden gate",
    "bench",
    "repair",
    "tomorrow",
    "please",
    "weather",
    "maybe the weather is nice",
    "always",
    "sorry",
    "cave",
    "cough",
    "trick",
    "tear",
    "imagine",
    "money",
    "visitors",
    "",
    "a",
]


@pytest.mark.parametrize(("heard", "agent"), GOLDEN)
def test_golden_mishearings_resolve(heard: str, agent: str, roster: Roster) -> None:
    res = resolve_agent(heard, roster)
    assert res is not None, heard
    assert res.agent == agent
    assert res.score >= 80


@pytest.mark.parametrize("heard", NOT_NAMES)
def test_ordinary_words_do_not_resolve(heard: str, roster: Roster) -> None:
    assert resolve_agent(heard, roster) is None


def test_resolution_says_what_was_heard_and_how(roster: Roster) -> None:
    exact = resolve_agent("Kofi", roster)
    assert exact is not None and exact.method == "exact" and exact.score == 100
    heard = resolve_agent("ask a benny to", roster)
    assert heard is not None
    assert (heard.agent, heard.heard_as, heard.method) == ("Abeni", "a benny", "phonetic")
    fuzzy = resolve_agent("emani", roster)
    assert fuzzy is not None and fuzzy.method == "fuzzy"


def test_threshold_is_a_parameter(roster: Roster) -> None:
    assert resolve_agent("coffee", roster, threshold=99) is None


def test_default_roster_has_distinct_values() -> None:
    roster = default_roster()
    assert roster.names()[:5] == ["Abeni", "Kofi", "Zuri", "Tariq", "Imani"]
    values = [tuple(sorted(a.values.items())) for a in roster]
    assert len(set(values)) == len(values)
    # Not everyone holds honesty high enough to refuse a lie.
    assert {a.value("honesty") >= 50 for a in roster} == {True, False}


def test_roster_helpers() -> None:
    roster = default_roster()
    assert roster.get("kofi") is not None and roster.get("Bob") is None
    tired = msgspec.structs.replace(roster.first, energy=5)
    assert roster.replace(tired).first.energy == 5
    with pytest.raises(KeyError):
        roster.replace(Agent("Bob", {}))
    with pytest.raises(ValueError):
        Roster([])
    with pytest.raises(ValueError):
        Roster([Agent("Abeni", {}), Agent("abeni", {})])
    assert roster.hotwords().startswith("Abeni, Kofi")


CONFIG = b"""
draft_ttl_s = 3600

[[agents]]
name = "Ama"
values = { honesty = 80, safety = 40 }
energy = 50
trust = 70
commitments = ["bake bread"]

[[agents]]
name = "Yaw"
values = { autonomy = 90 }
"""


def test_config_decodes_from_toml() -> None:
    config = decode_config(CONFIG)
    assert config.draft_ttl_s == 3600
    roster = config.roster()
    assert roster.names() == ["Ama", "Yaw"]
    assert roster.first.commitments == ["bake bread"]
    assert roster.agents[1].energy == 70  # the default
    assert msgspec.toml.decode(CONFIG, type=VacIntentConfig) == config


def test_absent_config_keys_take_defaults() -> None:
    config = decode_config(b"")
    assert config.draft_ttl_s == 86_400
    assert config.roster().names() == default_roster().names()


@pytest.mark.parametrize(
    ("toml", "key", "problem"),
    [
        (b'[[agents]]\nname = "Ama"\nvalues = {}\nenergy = "high"\n', "agents[0].energy", "int"),
        (b'[[agents]]\nname = "Ama"\nvalues = {}\ntrust = 101\n', "agents[0].trust", "<= 100"),
        (b'[[agents]]\nname = "Ama"\nvalues = {}\nmood = 1\n', "agents[0].mood", "not a known"),
        (b"agents = []\n", "agents", "length >= 1"),
        (b"draft_ttl_s = 0\n", "draft_ttl_s", ">= 60"),
        (b"draft_tl_s = 10\n", "draft_tl_s", "not a known"),
        (b'[[agents]]\nname = "Ama"\nvalues = { Honesty = 3 }\n', "agents[0].values", "bad key"),
    ],
)
def test_config_errors_name_the_key(toml: bytes, key: str, problem: str) -> None:
    with pytest.raises(IntentConfigInvalid) as info:
        decode_config(toml)
    assert info.value.key == key
    assert info.value.message.startswith(f"{key}: ")
    assert problem in info.value.message


def test_config_duplicate_names_and_syntax_errors() -> None:
    dup = b'[[agents]]\nname = "Ama"\nvalues = {}\n[[agents]]\nname = "ama"\nvalues = {}\n'
    with pytest.raises(IntentConfigInvalid) as info:
        decode_config(dup)
    assert info.value.key == "agents"
    with pytest.raises(IntentConfigInvalid) as syntax:
        decode_config(b"agents = [")
    assert syntax.value.key is None
    with pytest.raises(IntentConfigInvalid):
        config_from_builtins({"agents": [{"name": "Ama", "values": {}, "energy": -1}]})
