"""Orders said about the thing ("get the gate fixed", "the gate needs fixing"),
`vac.intent.passive` and through `intent.understand`, typed and spoken."""

from __future__ import annotations

import datetime as dt

import intent_factories as factories
import pytest
from hypothesis import given
from hypothesis import strategies as st

from vac.intent import Clarify, Draft, Evidence, default_roster
from vac.intent.it_means import with_antecedent
from vac.intent.lexicon import words as lx_words
from vac.intent.passive import as_order
from vac.intent.verb_cues import VERB_CUES

ROSTER = default_roster()
NOW = dt.datetime(2026, 12, 2, 10, 0, tzinfo=dt.UTC)  # a Wednesday


@pytest.mark.parametrize(
    ("said", "order"),
    [
        ("Kofi, can you get the gate fixed by Friday", "Kofi, can you fix the gate by Friday"),
        ("The gate needs fixing by Friday", "fix the gate by Friday"),
        ("Kofi, the gate needs fixing", "Kofi, fix the gate"),
        ("We need the gate fixed", "fix the gate"),
        ("I want the fence mended", "mend the fence"),
        ("Kofi, the roof has to be patched this week", "Kofi, patch the roof this week"),
        ("Tariq, the sheep need watching tonight", "Tariq, watch the sheep tonight"),
        ("Could you have the shed built by Sunday", "Could you build the shed by Sunday"),
        ("Abeni, get the north field mapped", "Abeni, map the north field"),
        ("Kofi, I need the bench made by Saturday", "Kofi, make the bench by Saturday"),
        ("the wall needs rebuilding", "rebuild the wall"),
        ("Tariq, keep the kids safe", "Tariq, protect the kids"),
        ("Kofi, keep the kids safe, no shouting", "Kofi, protect the kids, no shouting"),
        ("Kofi, the gate needs fixing, no rush", "Kofi, fix the gate, no rush"),
        ("Abeni, give grandma a hand with the laundry", "Abeni, help grandma with the laundry"),
        ("Get the well checked out", "check the well"),
        ("Kofi, would you mind fixing the gate", "Kofi, would you mind fix the gate"),
        ("Kofi, how about checking the well", "Kofi, how about check the well"),
        ("Kofi, why don't you fix the gate", "Kofi, fix the gate"),
    ],
)
def test_the_order_it_means(said: str, order: str) -> None:
    found = as_order(said)
    assert found is not None and found.text == order
    s, e = found.verb
    assert found.text[s:e] in VERB_CUES and found.text[e:].startswith(" ")
    s, e = found.said
    assert said[s:e].endswith(("ed", "ing", "built", "made")) or said[s:e] in (
        "fix",
        "keep",
        "give",
    )


@pytest.mark.parametrize(
    "said",
    [
        "Kofi fixed the gate",  # a report
        "Kofi got the gate fixed",
        "We have the gate fixed",
        "The gate is fixed",
        "Have Kofi fix the gate",  # a plain order: the parser reads it
        "get the gate, fixed",  # punctuation ends the thing
        "get the big old wooden garden gate fixed",  # more than five words
        "The gate needs a new hinge",
        "",
    ],
)
def test_no_order_in_it(said: str) -> None:
    assert as_order(said) is None


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz ,.'", max_size=60))
def test_any_words_give_an_order_or_none(said: str) -> None:
    found = as_order(said)
    if found is not None:
        s, e = found.said
        assert said[s:e].isalpha()
        assert found.text[found.verb[0] : found.verb[1]].isalpha()


def understood(text: str, ev: Evidence | None) -> Draft | Clarify:
    got: Draft | Clarify = factories.understood(text, ev, now=NOW, roster=ROSTER)
    return got


def test_typed_it_is_a_draft_that_keeps_what_was_said() -> None:
    text = "Kofi, can you get the gate fixed by Friday?"
    got = understood(text, None)
    assert isinstance(got, Draft), got
    o = got.objective
    assert (o.agent, o.verb, o.target.label, o.deadline) == ("Kofi", "Repair", "Gate", "2026-12-04")
    assert o.source_text == text
    assert got.summary == "Kofi will repair the gate by Friday — confirm?"


def test_the_orders_own_question_is_asked() -> None:
    got = understood("I want the fence mended before the storm", None)
    assert isinstance(got, Clarify) and got.reason == "unclear-deadline"
    assert got.source_text == "I want the fence mended before the storm"


_heard = factories.heard_words


@pytest.mark.parametrize(("fixed_p", "flagged"), [(0.9, ()), (0.1, ("verb",))])
def test_spoken_the_verb_has_the_evidence_of_the_word_it_was_said_as(
    fixed_p: float, flagged: tuple[str, ...]
) -> None:
    text = "Kofi, can you get the gate fixed by Friday?"
    got = understood(text, _heard(text, {"fixed": fixed_p}))
    assert isinstance(got, Draft), got
    assert got.objective.verb == "Repair" and got.uncertain == flagged
    assert got.objective.source_text == text


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        (
            "Kofi, the gate is broken. Can you fix it?",
            "Kofi, the gate is broken. Can you fix the gate?",
        ),
        (
            "The hens are restless, Tariq, guard them",
            "The hens are restless, Tariq, guard the hens",
        ),
        ("Zuri, my bike has a flat, fix it", "Zuri, my bike has a flat, fix my bike"),
        ("the gate looks bad, check it out", "the gate looks bad, check out the gate"),
    ],
)
def test_it_is_the_thing_said_just_before(said: str, meant: str) -> None:
    assert with_antecedent(said) == meant


@pytest.mark.parametrize(
    "said", ["Kofi, fix it", "Kofi, it is broken, fix it", "The gate is broken"]
)
def test_no_thing_said_before(said: str) -> None:
    assert with_antecedent(said) is None


def test_it_read_as_the_thing_drafts_with_what_was_said() -> None:
    text = "Kofi, the gate is broken, fix it by Friday"
    for ev in (None, _heard(text, {})):
        got = understood(text, ev)
        assert isinstance(got, Draft), got
        o = got.objective
        assert (o.agent, o.verb, o.target.label, o.deadline) == (
            "Kofi",
            "Repair",
            "Gate",
            "2026-12-04",
        )
        assert o.source_text == text
    nothing_before = understood("Kofi, fix it", None)
    assert isinstance(nothing_before, Clarify) and nothing_before.reason == "no-target"


@pytest.mark.parametrize(
    "said",
    [
        "Kofi, get the building repaired",  # "building" is the thing, not "build"
        "have the building inspected",
        "the gate doesn't need fixing",  # a negation is no order
        "none of the gates need fixing",
        "the gate needs fixing?",  # a question, not a polite request
        "I don't mind fixing the gate",
        "I was thinking about fixing the gate",
        "Kofi was talking about fixing the gate",
        "why don't you want to fix the gate",
        "they'll have the gate fixed by Friday",  # a plan, not an order
        "Kofi can't keep the kids safe",
        "we keep the kids safe",
        # A second review: reported, hedged, asked about, or no thing at all.
        "Grandma said the roof needs patching",
        "Maybe the roof needs patching",
        "If the roof needs patching, tell me.",
        "They want the gate fixed",
        "Can you believe the gate needs fixing?",
        "Will you ever get the gate fixed?",
        "The roof will need patching",
        "The roof that needs patching is ours",
        "The neighbour says the fence needs mending",
        "Kofi can get the gate fixed",
    ],
)
def test_reports_negations_and_questions_are_no_order(said: str) -> None:
    found = as_order(said)
    if found is not None:  # "the building": the thing, never the verb
        assert not found.text.lower().startswith(("build", "kofi, build"))
        return
    got = understood(said, None)
    assert isinstance(got, Clarify), got


@pytest.mark.parametrize(
    "said",
    [
        "the gate is broken, Kofi can't fix it",
        "the gate is broken, did Kofi fix it?",
        "the gate is broken, who will fix it?",
        "the gate is broken, I will fix it",
        "the wolves are near the kids, protect them",  # which?
    ],
)
def test_it_is_not_guessed_when_the_words_say_otherwise(said: str) -> None:
    assert with_antecedent(said) is None


def test_a_rewrite_that_loses_the_named_agent_is_not_taken() -> None:
    got = understood("the gate is broken Kofi, fix it", None)
    assert isinstance(got, Clarify)


_WORDS = lx_words(
    "Kofi Zuri , . ? ! the a my gate kids fix fixed fixing get have keep safe give hand "
    "with needs need to be is broken it them and then or not don't why you would mind "
    "how about make sure find time see if in two and a half days until morning dark "
    "tomorrow by Friday 12/11 a.s.a.p. stay off without never I we they'll can"
)


@given(st.lists(st.sampled_from(_WORDS), max_size=14))
def test_any_words_are_understood_or_asked_never_a_crash(words: list[str]) -> None:
    text = " ".join(words)
    got = understood(text, None)
    assert isinstance(got, Draft | Clarify)
    if isinstance(got, Draft):
        assert got.objective.source_text == " ".join(text.split())
