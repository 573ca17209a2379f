"""Deciding on evidence per slot (intent/evidence.py): golden cases and properties."""

from __future__ import annotations

import datetime as dt
import re

import intent_factories as factories
import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from vac.intent import (
    SPOKEN_MIN_CONFIDENCE,
    Alternative,
    Clarify,
    Draft,
    Evidence,
    NameChoice,
    WordProb,
    chosen,
    default_roster,
    parse,
    weigh,
)

ROSTER = default_roster()
NOW = dt.datetime(2026, 12, 2, 10, 0, tzinfo=dt.UTC)


def draft(text: str) -> Draft:
    result = parse(
        text,
        confidence=0.6,
        now=NOW,
        roster=ROSTER,
        current_agent=None,
        objective_id="o-1",
        min_confidence=SPOKEN_MIN_CONFIDENCE,
    )
    assert isinstance(result, Draft), result
    return result


def evidence(text: str, probs: dict[str, float], names: dict[str, float] | None = None) -> Evidence:
    """Every word sure (0.95) except those named in `probs`."""
    words = tuple(
        WordProb(m.start(), m.end(), probs.get(m.group().strip(".,"), 0.95))
        for m in re.finditer(r"\S+", text)
    )
    ranked = sorted((names or {}).items(), key=lambda kv: -kv[1])
    return Evidence(words, tuple(NameChoice(n, p) for n, p in ranked))


TEXT = "Ask Imani to map the orchard by tomorrow"


def test_sure_words_leave_the_draft_as_parsed() -> None:
    d = draft(TEXT)
    assert weigh(d, evidence(TEXT, {})) == d


def test_typed_text_has_no_evidence_and_is_never_weighed() -> None:
    d = draft(TEXT)
    assert weigh(d, Evidence()) == d


@pytest.mark.parametrize(
    ("probs", "flags", "says"),
    [
        ({"Imani": 0.3}, ("agent",), "the name"),
        ({"map": 0.1}, ("verb",), "what to do"),
        ({"tomorrow": 0.2}, ("deadline",), "when"),
        ({"Imani": 0.3, "map": 0.1}, ("agent", "verb"), "the name or what to do"),
    ],
)
def test_unsure_slots_are_flagged_in_the_preview(
    probs: dict[str, float], flags: tuple[str, ...], says: str
) -> None:
    d = weigh(draft(TEXT), evidence(TEXT, probs))
    assert isinstance(d, Draft)
    assert d.uncertain == flags
    assert f"? — I'm not sure of {says}. Confirm?" in d.summary
    assert d.objective.agent == "Imani" and d.objective.status == "draft"


def test_a_toss_up_between_two_names_is_asked_by_name() -> None:
    ev = evidence(TEXT, {"Imani": 0.05}, {"Imani": 0.55, "Abeni": 0.4, "Kofi": 0.05})
    asked = weigh(draft(TEXT), ev)
    assert isinstance(asked, Clarify)
    assert asked.reason == "uncertain-agent"
    assert asked.question == "Did you mean Imani or Abeni?"
    assert asked.candidates == ("Imani", "Abeni")
    assert (asked.heard_as or "").lower() == "imani"


def test_a_very_unsure_name_without_a_rival_is_flagged_not_asked() -> None:
    ev = evidence(TEXT, {"Imani": 0.05}, {"Imani": 0.9, "Abeni": 0.05})
    d = weigh(draft(TEXT), ev)
    assert isinstance(d, Draft) and d.uncertain == ("agent",)


def test_a_name_read_from_words_spelled_like_it_is_never_sure() -> None:
    # espeak's "Abeni, inspect…" written "A mani, inspect…": "mani" is read
    # as Imani by its spelling, every word sure; the draft must say so.
    text = "A mani, inspect the storeroom by December 31"
    d = weigh(draft(text), evidence(text, {}))
    assert isinstance(d, Draft) and d.agent_source in ("fuzzy", "phonetic")
    assert d.uncertain == ("agent",)


@pytest.mark.parametrize(
    ("others", "flagged"),
    [
        ((("Turi, fix the bathroom tap.", 1.6),), True),  # another name close behind
        ((("Tariq, fix the bathroom tab.", 0.3),), False),  # the same name behind
        ((("Turi, fix the bathroom tap.", 3.5),), False),  # far behind: no doubt
    ],
)
def test_a_name_the_beam_writes_otherwise_close_behind_is_not_sure(
    others: tuple[tuple[str, float], ...], flagged: bool
) -> None:
    # joe's "Zuri" heard "Tariq," at 0.67 (over the floor), "Turi," 1.6 nats behind (a probe).
    text = "Tariq, fix the bathroom tap."
    ev = msgspec.structs.replace(
        evidence(text, {"Tariq": 0.67}), alternatives=tuple(Alternative(t, b) for t, b in others)
    )
    d = weigh(draft(text), ev)
    assert isinstance(d, Draft) and ("agent" in d.uncertain) is flagged


def test_a_spoken_draft_without_a_heard_name_is_never_sure_of_its_agent() -> None:
    # A name may have been said and lost ("Telco Phi to…"): the draft says so.
    text = "map the orchard by tomorrow"
    d = weigh(draft(text), evidence(text, {}))
    assert isinstance(d, Draft) and d.uncertain == ("agent",)
    assert d.agent_source == "default"


@given(st.floats(0, 1), st.floats(0, 1), st.floats(0, 1))
def test_weighing_never_changes_the_objective(name_p: float, verb_p: float, when_p: float) -> None:
    d = draft(TEXT)
    out = weigh(d, evidence(TEXT, {"Imani": name_p, "map": verb_p, "tomorrow": when_p}))
    if isinstance(out, Draft):
        assert out.objective == d.objective
        assert set(out.uncertain) <= {"agent", "verb", "deadline"}
        assert ("agent" in out.uncertain) == (name_p < 0.5)
        assert ("verb" in out.uncertain) == (verb_p < 0.3)
    else:
        assert out.candidates  # only a named choice replaces a draft


@pytest.mark.parametrize(
    ("answer", "picked"),
    [
        ("Imani", "Imani"),
        ("I meant Imani.", "Imani"),
        ("abeni please", "Abeni"),
        ("the second one", "Abeni"),
        ("Abeni then.", "Abeni"),  # a tenth typed probe (2026-12-07): no-verb
        ("Okay, Imani", "Imani"),
        ("Imani or Abeni", None),
        ("Kofi", None),
        ("ask Imani to map the orchard", None),
        ("", None),
    ],
)
def test_an_answer_picks_one_offered_name(answer: str, picked: str | None) -> None:
    assert chosen(answer, ("Imani", "Abeni")) == picked


def test_a_spoken_reply_with_evidence_may_be_quieter_but_a_yes_stays_stricter() -> None:
    from vac.intent import reply_floor

    assert reply_floor("confirm", weighed=False) == 0.7
    assert reply_floor("reject", weighed=False) == 0.4
    assert reply_floor("reject", weighed=True) < reply_floor("confirm", weighed=True) < 0.7


def understood(text: str, ev: Evidence | None) -> Draft | Clarify:
    got: Draft | Clarify = factories.understood(text, ev, now=NOW, roster=ROSTER)
    return got


@pytest.mark.parametrize(
    ("heard", "best", "agent"),
    [
        ("Tell Yuri to befriend the fox beside the river", "Zuri", "Zuri"),
        ("Tell Muri to support the elder every day", "Zuri", "Zuri"),
        ("Tell Yori to befriend the fox", "Zuri", "Zuri"),
        ("Duri, please build a shelter behind the shed", "Zuri", "Zuri"),  # said first
        # The spelling and the rescoring disagree, or a stranger's name: asked.
        ("Tell Yuri to befriend the fox", "Kofi", None),
        ("Tell Bob to fix the gate", "Abeni", None),
        ("Tell Anna to fix the gate", "Imani", None),  # as close to Abeni: no guess
    ],
)
def test_a_spoken_name_no_one_has_is_the_rescored_name_only_if_spelled_like_it(
    heard: str, best: str, agent: str | None
) -> None:
    words = heard.replace(",", "").split()
    slot = words[0] if heard.split()[0].endswith(",") else words[1]  # the name slot's word
    ev = msgspec.structs.replace(evidence(heard, {}, {best: 0.6, "Tariq": 0.2}), name_heard=slot)
    result = understood(heard, ev)
    if agent is None:
        assert isinstance(result, Clarify) and result.reason == "unknown-agent"
        return
    assert isinstance(result, Draft), result
    assert result.objective.agent == agent and result.agent_source == "rescored"
    assert result.uncertain[:1] == ("agent",)  # never a sure name
    assert "I'm not sure of the name" in result.summary


def test_typed_text_with_a_name_no_one_has_is_still_asked() -> None:
    result = understood("Tell Yuri to befriend the fox", None)
    assert isinstance(result, Clarify) and result.reason == "unknown-agent"
    typed = parse(
        "Tell Yuri to befriend the fox",
        confidence=1.0,
        now=NOW,
        roster=ROSTER,
        current_agent=None,
        objective_id="o-1",
        near=("Yuri", "Zuri"),  # ignored: typed words mean what they say
    )
    assert isinstance(typed, Clarify) and typed.reason == "unknown-agent"


@pytest.mark.parametrize(
    ("heard", "slot", "best"),
    [
        ("Tell no one to fix the fence", "no", "Imani"),  # not a name, and two words
        ("Ask me to fix the fence", "me", "Imani"),
        # The recogniser rescored another slot ("and Zuri"): its ranking is not Yuri's.
        ("Direct Yuri to help Kofi and Zuri", "Zuri", "Zuri"),
        ("Tell Yuri to befriend the fox", None, "Zuri"),  # no slot text: no guess
        ("Sorry, fix the gate", "Sorry", "Zuri"),  # not spelled like Zuri
    ],
)
def test_a_name_is_only_guessed_for_the_word_the_recogniser_rescored(
    heard: str, slot: str | None, best: str
) -> None:
    ev = msgspec.structs.replace(evidence(heard, {}, {best: 0.7}), name_heard=slot)
    result = understood(heard, ev)
    assert not (isinstance(result, Draft) and result.agent_source == "rescored"), result


def test_evidence_without_words_is_typed_text() -> None:
    heard = "Tell Yuri to befriend the fox"
    ev = Evidence(names=(NameChoice("Zuri", 0.9),), name_heard="Yuri")
    result = understood(heard, ev)
    assert isinstance(result, Clarify) and result.reason == "low-confidence"  # the 0.7 floor


@pytest.mark.parametrize(
    ("heard", "label"),
    [
        ("Have Imani repair on a bridge by December 24.", "Bridge"),
        ("Could you have Tariq help, the fisherman at the dock by Saturday?", "Fisherman"),
        ("Zuri, please check on the behind virgin fleet.", "Virgin fleet"),
    ],
)
def test_a_spoken_target_after_a_misheard_article_or_pause_is_found(heard: str, label: str) -> None:
    spoken = understood(heard, evidence(heard, {}))
    assert isinstance(spoken, Draft), spoken
    assert spoken.objective.target.label == label
    typed = understood(heard, None)  # typed words mean what they say: asked
    assert isinstance(typed, Clarify) and typed.reason == "no-target"


@pytest.mark.parametrize(
    "heard",
    [
        "Kofi, please repair, it.",
        "Kofi, report in the morning.",  # a time said on purpose, not a target
        "Kofi, report at night.",
        "Kofi, repair on the morning.",
        "Kofi, build near the well.",  # a place said on purpose
        "Kofi, build by the pond.",
        "Kofi, help, thanks.",
    ],
)
def test_a_spoken_place_or_time_said_on_purpose_is_still_asked_for_a_target(heard: str) -> None:
    result = understood(heard, evidence(heard, {}))
    assert isinstance(result, Clarify) and result.reason == "no-target", result


@pytest.mark.parametrize(
    ("text", "names", "span"),
    [
        ("Ask Kofi, Zuri and Imani to map the orchard.", ("Kofi", "Zuri", "Imani"),
         "Kofi, Zuri and Imani"),
        ("Kofi and Zuri, build a bench", ("Kofi", "Zuri"), "Kofi and Zuri"),
        ("hey Kofi and Tariq, guard the gate", ("Kofi", "Tariq"), "Kofi and Tariq"),
    ],
)  # fmt: skip
def test_several_agents_named_at_once_are_asked_one_at_a_time(
    text: str, names: tuple[str, ...], span: str
) -> None:
    for ev in (None, evidence(text, {})):  # typed and spoken alike
        result = understood(text, ev)
        assert isinstance(result, Clarify) and result.reason == "uncertain-agent", result
        assert result.candidates == names and result.heard_as == span
        assert result.source_text[: len(text)].find(span) >= 0  # the words a choice replaces
        assert all(n in result.question for n in names)


@pytest.mark.parametrize(
    "text", ["Kofi, help Zuri build a bench", "ask Kofi to build a bench", "Kofi, build a bench"]
)
def test_one_agent_with_another_named_later_is_not_a_list(text: str) -> None:
    assert isinstance(understood(text, None), Draft)


@pytest.mark.parametrize(
    ("text", "others"),
    [
        ("Tell Kofi and the team to fix the gate", "the team"),
        ("ask Kofi and the kids to build a bench", "the kids"),
        ("Kofi and the kids, build a bench", "the kids"),
        ("have Kofi and me to build a bench", "me"),
    ],
)
def test_an_agent_named_with_people_off_the_roster_does_it_alone_and_is_told(
    text: str, others: str
) -> None:
    # Once: sent to the default agent, "no agent named", though Kofi was.
    for ev in (None, evidence(text, {})):  # typed and spoken alike
        result = understood(text, ev)
        assert isinstance(result, Draft), result
        assert result.objective.agent == "Kofi" and result.agent_source == "exact"
        assert f"(Kofi alone, not {others})" in result.summary


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        # "Yuri" may be a misheard Zuri: asked, not dropped
        ("Tell Kofi and Yuri to fix the gate", "unknown-agent"),
    ],
)
def test_a_word_written_like_a_name_is_never_dropped_as_someone_else(
    text: str, reason: str
) -> None:
    result = understood(text, None)
    assert isinstance(result, Clarify) and result.reason == reason, result


@pytest.mark.parametrize(
    "text",
    ["Have Kofi and the kids get to know the teacher", "Tell Kofi and ask him to fix the gate"],
)
def test_a_verb_or_a_frame_after_and_is_no_one_else(text: str) -> None:
    result = understood(text, None)
    # Never "Kofi alone, not ask him…"; Kofi named before the verb is asked about.
    assert not (isinstance(result, Draft) and "alone" in result.summary), result


def test_spoken_no_and_a_word_is_no_ban() -> None:
    # tiny.en writes espeak's "no hurry" as "no ferry": typed, "…, no power
    # tools" forbids them; heard, "no <thing>" draws no line.
    text = "Tell Zuri to map the cellar tunnels, no ferry."
    got = factories.understood(text, evidence(text, {}), now=NOW, roster=ROSTER)
    assert isinstance(got, Draft)
    assert [f.value_ref for f in got.objective.forbidden_lines] == [
        "forbidden-line:respect-agent-autonomy"
    ]
