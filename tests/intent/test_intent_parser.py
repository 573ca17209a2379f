from __future__ import annotations

import datetime as dt
import itertools

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vac.intent import Clarify, Draft, Roster, default_roster, parse, validate_objective
from vac.intent import lexicon as lx
from vac.intent.forbidden import DEFAULT_FORBIDDEN_LINE
from vac.intent.orders import unknown_deed

NOW = dt.datetime(2026, 5, 1, 10, 0, tzinfo=dt.UTC)  # a Friday
ROSTER = default_roster()


def draft(text: str, *, now: dt.datetime = NOW, current: str | None = None) -> Draft:
    result = parse(
        text, confidence=0.93, now=now, roster=ROSTER, current_agent=current, objective_id="o-1"
    )
    assert isinstance(result, Draft), result
    assert validate_objective(msgspec.to_builtins(result.objective)) == []
    return result


def clarify(text: str, confidence: float = 0.93) -> Clarify:
    result = parse(
        text, confidence=confidence, now=NOW, roster=ROSTER, current_agent=None, objective_id="o"
    )
    assert isinstance(result, Clarify), result
    assert result.question.endswith("?")
    return result


# --- the seed's own cases -----------------------------------------------------


def test_seed_repair_the_garden_gate() -> None:
    d = draft(
        "Ask Abeni to repair the garden gate by tomorrow, without lying to visitors "
        "and keep it gentle"
    )
    o = d.objective
    assert (o.agent, o.verb) == ("Abeni", "Repair")
    assert (o.target.kind, o.target.label, o.target.ref) == (
        "prop",
        "Garden gate",
        "prop:garden-gate",
    )
    assert o.deadline == "2026-05-02"
    assert [c.kind for c in o.constraints] == ["time", "pace"]
    assert o.constraints[0].value == "2026-05-02"
    assert [(f.text, f.value_ref) for f in o.forbidden_lines] == [
        ("Do not lie to visitors", "value:honesty")
    ]
    assert (o.status, o.confirmed_by_steward, o.accepted_by_agent, o.revision) == (
        "draft",
        False,
        False,
        1,
    )
    assert (o.priority, o.autonomy, o.confidence) == (55, "brief", 0.93)
    assert d.resolved_agent == "Abeni" and d.agent_source == "exact"
    assert d.summary == (
        "Abeni will repair the garden gate by tomorrow, gently, and won't lie to visitors"
        " — confirm?"
    )


def test_seed_map_the_grove_path() -> None:
    o = draft(
        "map the grove path and report blockers without crossing private gardens by tomorrow"
    ).objective
    assert o.verb == "Map"
    assert (o.target.kind, o.target.label) == ("ground", "Grove path")
    assert {"time", "safety"} <= {c.kind for c in o.constraints}
    assert o.deadline == "2026-05-02"
    assert [(f.text, f.value_ref) for f in o.forbidden_lines] == [
        ("Do not cross private gardens", "value:privacy")
    ]


def test_seed_low_confidence_clarifies() -> None:
    c = clarify("Ask Abeni to repair the garden gate", confidence=0.41)
    assert c.reason == "low-confidence"
    assert c.confidence == 0.41


def test_seed_no_verb_clarifies() -> None:
    assert clarify("maybe the weather is nice").reason == "no-verb"


@pytest.mark.parametrize(
    "text",
    [
        "Ask Kofi to water the vegetable patch near the barn",  # not Repair
        "Zuri, put the night watch roster on the door",  # not Protect
        "Kofi, clean the security check area",  # not Investigate
        "Ask Imani to paint the garden map",  # not Map
    ],
)
def test_a_verb_word_ending_a_noun_phrase_is_a_noun(text: str) -> None:
    assert clarify(text).reason == "no-verb"


@pytest.mark.parametrize(
    ("text", "verb", "label"),
    [
        ("Have the kids fix the gate", "Repair", "Gate"),  # an object follows
        ("Have the kids help with the harvest", "Support", "Harvest"),
        ("Ask Zuri to find the big garden map", "Investigate", "Big garden map"),
    ],
)
def test_a_verb_after_a_noun_phrase_that_acts_on_something_stays_a_verb(
    text: str, verb: str, label: str
) -> None:
    o = draft(text).objective
    assert (o.verb, o.target.label) == (verb, label)


def test_a_direction_before_to_is_not_part_of_the_target() -> None:
    assert draft("Zuri, map the forest trail up to the waterfall").objective.target.label == (
        "Forest trail"
    )
    assert draft("Zuri, map the road out to the farm").objective.target.label == "Road"
    assert draft("Kofi, fix the back to the sofa").objective.target.label == "Back"
    assert draft("Kofi, fix the hand-me-down to Abeni").objective.target.label == ("Hand-me-down")


def test_a_title_with_a_full_stop_ends_no_sentence() -> None:
    # Whisper writes "Mrs." so; the stop cut the target to "Old Mrs" before.
    o = draft("Imani, visit old Mrs. Okafor and bring her some soup").objective
    assert (o.verb, o.target.label) == ("Befriend", "Old Mrs. Okafor")
    assert draft("Kofi, help Dr. Mensah").objective.target.label == "Dr. Mensah"
    # A title said after a name ends its sentence as any word does.
    assert draft("Kofi, fix the gate for Kwame Sr. Do it by Friday.").objective.target.label == (
        "Gate for Kwame Sr"
    )


@pytest.mark.parametrize("said", ["at your leisure", "at your discretion", "at your convenience"])
def test_a_manner_said_with_at_is_no_place(said: str) -> None:
    o = draft(f"Kofi, fix the gate, {said}").objective
    assert not [c for c in o.constraints if c.kind == "location"], o.constraints


def test_a_command_typed_in_capitals_labels_its_target_as_written_otherwise() -> None:
    assert draft("KOFI, FIX THE GATE BY FRIDAY").objective.target.label == "Gate"
    assert draft("Kofi, fix the TV").objective.target.label == "TV"


@pytest.mark.parametrize(
    ("text", "quoted", "agent"),
    [
        ("Ask Kofi to water the plants", "water the plants", "Kofi"),
        ("Kofi, please go and sweep the porch by Friday", "sweep the porch", "Kofi"),
        (
            "Tell Imani to feed the chickens tonight and collect eggs",
            "feed the chickens",
            "Imani",
        ),
        ("Ask Zuri to God the orchard.", "God the orchard", "Zuri"),  # as the recogniser wrote it
        (
            "Ask Tariq to walk the big old brown shaggy family dog",
            "walk the big old brown shaggy family…",
            "Tariq",
        ),
        ("Zuri, thank you", "thank you", "Zuri"),
    ],
)
def test_an_order_with_no_verb_of_ours_is_quoted_with_its_agent(
    text: str, quoted: str, agent: str
) -> None:
    c = clarify(text)
    assert c.reason == "no-verb"
    assert c.question.startswith(f'I heard "{quoted}" for {agent}, but I only pass on these: ')
    assert c.question.endswith(f"What should {agent} do?")


@pytest.mark.parametrize(
    ("text", "who"),
    [
        ("maybe the weather is nice", "someone"),  # no agent addressed
        ("Kofi, the gate", "Kofi"),  # no deed of its own: asked of whom it was said to
        ("Kofi, I think so", "Kofi"),
        ("Could you have Imani feed the chickens", "someone"),  # no address without a verb
        ("Kofi, after lunch, start on the gate", "Kofi"),  # a when, not a deed
        ("Kofi, when you have a minute", "Kofi"),
    ],
)
def test_no_verb_without_an_addressed_deed_asks_in_general(text: str, who: str) -> None:
    c = clarify(text)
    assert c.reason == "no-verb"
    assert c.question.startswith(f"I heard you, but not what to do. Should {who} repair")


def test_seed_standing_intent_stays_a_draft() -> None:
    o = draft("always protect the grove path").objective
    assert (o.verb, o.autonomy, o.status) == ("Protect", "standing-intent", "draft")
    assert not o.confirmed_by_steward and not o.accepted_by_agent


# --- addressing and grounding -----------------------------------------------


@pytest.mark.parametrize(
    ("text", "agent", "heard"),
    [
        ("ask a benny to fix the fence", "Abeni", "a benny"),
        ("tell coffee to build a bench", "Kofi", "coffee"),
        ("have Tariq guard the gate", "Tariq", "Tariq"),
        ("direct zoo re to chart the river", "Zuri", "zoo re"),
        ("get emani to check the well", "Imani", "emani"),
        ("Kofi, make a table", "Kofi", "Kofi"),
        ("hey coffee, make a table", "Kofi", "coffee"),
        ("scout the hill, tarik.", "Tariq", "tarik"),
        ("Zuri visit the market", "Zuri", "Zuri"),
        ("please ask Imani to inspect the roof", "Imani", "Imani"),
    ],
)
def test_addressing_frames(text: str, agent: str, heard: str) -> None:
    d = draft(text)
    assert d.objective.agent == agent == d.resolved_agent
    assert (d.heard_as or "").lower() == heard.lower()
    if heard.lower() != agent.lower():
        assert f'heard "{heard}" as {agent}' in d.summary


def test_no_agent_named_goes_to_current_then_first_and_says_so() -> None:
    d = draft("fix the fence", current="Kofi")
    assert (d.objective.agent, d.agent_source, d.heard_as) == ("Kofi", "current", None)
    assert "(no agent named — sending to Kofi)" in d.summary
    d = draft("fix the fence")
    assert (d.objective.agent, d.agent_source) == ("Abeni", "default")
    assert "(no agent named — sending to Abeni)" in d.summary
    assert draft("fix the fence", current="Nobody").objective.agent == "Abeni"


def test_unknown_addressee_is_asked_not_guessed() -> None:
    c = clarify("ask Bob to fix the gate")
    assert c.reason == "unknown-agent"
    assert "Bob" in c.question and "Abeni" in c.question


# --- verbs, targets, kinds ----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "verb"),
    [
        ("mend the fence", "Repair"),
        ("fix the door", "Repair"),
        ("chart the river", "Map"),
        ("survey the field", "Map"),
        ("scout the ridge", "Map"),
        ("look into the noise", "Investigate"),
        ("inspect the roof", "Investigate"),
        ("check the well", "Investigate"),
        ("watch over the hives", "Protect"),
        ("guard the orchard", "Protect"),
        ("defend the village", "Protect"),
        ("keep an eye on the goats", "Protect"),
        ("keep watch over the orchard tonight", "Protect"),
        ("take care of the new lambs", "Support"),
        ("craft a lantern", "Build"),
        ("construct a shed", "Build"),
        ("make a basket", "Build"),
        ("assist Kofi", "Support"),
        ("help Zuri", "Support"),
        ("make friends with Tariq", "Befriend"),
        ("befriend the new neighbour", "Befriend"),
        ("visit Imani", "Befriend"),
        ("report the damage", "Report"),
        ("tell me about the harvest", "Report"),
    ],
)
def test_verb_synonyms(text: str, verb: str) -> None:
    assert draft(text).objective.verb == verb


@pytest.mark.parametrize(
    ("text", "kind", "label"),
    [
        ("fix the garden gate", "prop", "Garden gate"),
        ("build a wooden bench near the pond", "prop", "Wooden bench"),
        ("map the grove path", "ground", "Grove path"),
        ("protect the gardens", "ground", "Gardens"),
        ("befriend Kofi", "agent", "Kofi"),
        ("support the friendship", "relationship", "Friendship"),
        ("help with the harvest", "activity", "Harvest"),
        ("report on the patrol", "activity", "Patrol"),
        ("investigate the strange noise", "custom", "Strange noise"),
        ("check the kitchen", "place", "Kitchen"),
        ("make coffee", "custom", "Coffee"),
    ],
)
def test_target_kind_and_label(text: str, kind: str, label: str) -> None:
    target = draft(text).objective.target
    assert (target.kind, target.label) == (kind, label)
    assert target.ref.startswith(f"{kind}:")


def test_vague_or_missing_target_is_asked() -> None:
    assert clarify("fix it").reason == "no-target"
    assert clarify("ask Abeni to help").question == "What should Abeni support?"


def test_location_constraint() -> None:
    d = draft("ask coffee to build a wooden bench near the pond by tomorrow")
    assert d.summary.startswith(
        "Kofi will build a wooden bench near the pond by tomorrow — confirm?"
    )
    assert ("location", "near the pond") in [(c.kind, c.value) for c in d.objective.constraints]
    o = draft("check the noise in the morning").objective
    assert "location" not in [c.kind for c in o.constraints]


# --- priority, autonomy, deadline -------------------------------------------


@pytest.mark.parametrize(
    ("text", "priority"),
    [
        ("fix the gate urgently", 90),
        ("fix the gate right now", 90),
        ("fix the gate asap", 90),
        ("emergency: fix the gate", 90),
        ("fix the gate as soon as possible", 90),
        ("fix the gate soon", 78),
        ("fix the gate quickly", 78),
        ("it's important, fix the gate", 78),
        ("fix the gate", 55),
        ("fix the gate whenever", 25),
        ("no rush, fix the gate", 25),
        ("fix the gate when you can", 25),
        ("fix the gate but don't hurry", 55),
    ],
)
def test_priority_tiers(text: str, priority: int) -> None:
    assert draft(text).objective.priority == priority


@pytest.mark.parametrize(
    ("text", "autonomy"),
    [
        ("fix the gate exactly as I say", "direct-tether"),
        ("always guard the gate", "standing-intent"),
        ("fix the gate, use your judgment", "free"),
        ("fix the gate", "brief"),
    ],
)
def test_autonomy(text: str, autonomy: str) -> None:
    assert draft(text).objective.autonomy == autonomy


@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        ("fix the gate today", "2026-05-01"),
        ("fix the gate tonight", "2026-05-01"),
        ("fix the gate by tomorrow", "2026-05-02"),
        ("fix the gate this week", "2026-05-03"),  # the coming Sunday
        ("fix the gate next week", "2026-05-10"),
        ("fix the gate by 2026-06-01", "2026-06-01"),
        ("fix the gate by 2026-02-31", None),  # not a date: no deadline
        ("fix the gate", None),
    ],
)
def test_deadlines_resolve_against_now(text: str, deadline: str | None) -> None:
    o = draft(text).objective
    assert o.deadline == deadline
    assert ("time" in [c.kind for c in o.constraints]) == (deadline is not None)


def test_deadline_uses_nows_zone() -> None:
    late = dt.datetime(2026, 5, 1, 23, 30, tzinfo=dt.timezone(dt.timedelta(hours=-5)))
    assert draft("fix the gate by tomorrow", now=late).objective.deadline == "2026-05-02"
    sunday = dt.datetime(2026, 5, 3, 9, 0, tzinfo=dt.UTC)
    assert draft("fix the gate this week", now=sunday).objective.deadline == "2026-05-03"


def test_naive_now_is_refused() -> None:
    with pytest.raises(ValueError):
        parse(
            "fix it",
            confidence=1,
            now=dt.datetime(2026, 5, 1),
            roster=ROSTER,
            current_agent=None,
            objective_id="o",
        )


# --- forbidden lines ----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "line", "value"),
    [
        ("fix the gate without lying to visitors", "Do not lie to visitors", "value:honesty"),
        ("fix the gate and don't deceive anyone", "Do not deceive anyone", "value:honesty"),
        ("fix the gate, never mislead Kofi", "Do not mislead Kofi", "value:honesty"),
        (
            "map the hill, avoid reading secret letters",
            "Do not read secret letters",
            "value:privacy",
        ),
        (
            "map the hill but do not enter private homes",
            "Do not enter private homes",
            "value:privacy",
        ),
        ("guard the gate without hurting anyone", "Do not hurt anyone", "value:safety"),
        ("guard the gate, avoid danger", "Avoid danger", "value:safety"),
        ("fix the gate without waking the baby", "Do not wake the baby", "value:respect"),
        ("fix the gate without stepping on the beds", "Do not step on the beds", "value:respect"),
    ],
)
def test_forbidden_lines(text: str, line: str, value: str) -> None:
    lines = [(f.text, f.value_ref) for f in draft(text).objective.forbidden_lines]
    assert lines == [(line, value)]


def test_default_forbidden_line_when_none_given() -> None:
    lines = draft("fix the gate").objective.forbidden_lines
    assert lines == [DEFAULT_FORBIDDEN_LINE]
    assert lines[0].value_ref == "forbidden-line:respect-agent-autonomy"


def test_boundaries_are_not_verbs_or_idioms() -> None:
    # The verb inside a boundary is not the command.
    assert clarify("never fix the gate").reason == "no-verb"
    # "never mind" is not a boundary.
    o = draft("never mind, fix the fence").objective
    assert o.forbidden_lines == [DEFAULT_FORBIDDEN_LINE]


def test_duplicate_boundaries_collapse() -> None:
    o = draft("fix the gate without lying, never lie").objective
    assert [f.text for f in o.forbidden_lines] == ["Do not lie"]


# --- empties and limits -------------------------------------------------------


@pytest.mark.parametrize("text", ["", "   ", "...", "?!"])
def test_empty_clarifies(text: str) -> None:
    assert clarify(text).reason == "empty"


def test_too_long_clarifies() -> None:
    assert clarify("fix the gate " * 200).reason == "too-long"


def test_long_words_are_truncated_to_the_schema() -> None:
    d = draft("fix the " + "x" * 300 + " without " + "y" * 300)
    assert len(d.objective.target.label) <= 120
    assert len(d.objective.forbidden_lines[0].text) <= 200


# --- property: every parse output validates -----------------------------------

_VOCAB = (
    "ask tell have Abeni Kofi coffee a benny to fix repair map build the gate grove path "
    "without lying never don't avoid by tomorrow today tonight this week urgently always "
    "exactly as I say use your judgment near at in , . carefully report blockers private "
    "help make friends with 2026-05-09 2026-13-40 it and Zuri, , Tariq"
)
_WORDS = st.sampled_from(_VOCAB.split())
_TEXT = st.one_of(
    st.text(max_size=300),
    st.lists(_WORDS, max_size=30).map(" ".join),
    st.lists(st.one_of(_WORDS, st.text(max_size=12)), max_size=20).map(" ".join),
)


@settings(max_examples=400, deadline=None)
@given(
    text=_TEXT,
    confidence=st.floats(min_value=0.0, max_value=1.0),
    current=st.sampled_from([None, "Kofi", "Nobody"]),
    hour=st.integers(0, 23),
)
def test_parse_never_raises_and_every_draft_validates(
    text: str, confidence: float, current: str | None, hour: int
) -> None:
    now = NOW.replace(hour=hour)
    result = parse(
        text,
        confidence=confidence,
        now=now,
        roster=ROSTER,
        current_agent=current,
        objective_id="p-1",
    )
    if isinstance(result, Draft):
        raw = msgspec.to_builtins(result.objective)
        assert validate_objective(raw, agents=ROSTER.names()) == []
        assert result.objective.status == "draft"
        assert not result.objective.confirmed_by_steward
        assert not result.objective.accepted_by_agent
        assert confidence >= 0.7
        assert result.summary.endswith("?") or result.summary.endswith(")")
    else:
        assert result.question


def test_roster_fixture_is_the_default(roster: Roster) -> None:
    assert roster.names() == ROSTER.names()


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("abc xyz,.!? Kofi"), max_size=40))
def test_a_quoted_deed_is_always_words_the_user_said(tail: str) -> None:
    toks = lx.tokenize(tail)
    deed = unknown_deed(tail, toks, ROSTER)
    if deed is not None:
        said = deed.removesuffix("…")
        assert said and said in tail
        assert len(said.split()) <= 7


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["the", "uh", "um", ",", "to", "gate", "fix", "."]), max_size=12))
def test_fluent_tokens_still_point_into_the_source(said: list[str]) -> None:
    text = " ".join(said)
    toks = lx.tokenize(text)
    assert all(text[t.start : t.end].lower() == t.low for t in toks)
    assert not any(t.low in ("uh", "um") for t in toks)
    assert not any(a.low == b.low == "the" for a, b in itertools.pairwise(toks))
