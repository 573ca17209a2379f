"""Orders said about the thing ("get the gate fixed", "the gate needs fixing"),
`vac.intent.passive` and through `intent.understand`, typed and spoken."""

from __future__ import annotations

import datetime as dt
import re

import intent_factories as factories
import pytest
from hypothesis import given
from hypothesis import strategies as st

from vac.intent import Clarify, Draft, Evidence, WordProb, default_roster
from vac.intent.passive import as_order, with_antecedent
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
        ("Abeni, give grandma a hand with the laundry", "Abeni, help grandma with the laundry"),
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


def _heard(text: str, probs: dict[str, float]) -> Evidence:
    words = tuple(
        WordProb(m.start(), m.end(), probs.get(m.group().strip(".,?"), 0.95))
        for m in re.finditer(r"\S+", text)
    )
    return Evidence(words)


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
