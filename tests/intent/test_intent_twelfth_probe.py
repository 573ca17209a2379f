"""A twelfth round of probes (2026-12-07, the twentieth session; none from
the understanding corpus), and the eleventh probe's leftovers the
nineteenth session's note named."""

from __future__ import annotations

import intent_factories as factories
import pytest

from vac.intent import Clarify, called, default_roster

run = factories.probe_run
draft = factories.probe_draft


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, do you have time to fix the gate, or is the fence more urgent?",
        "Kofi, can you fix the gate or is something else more important?",
        "Kofi, fix the gate, or would the fence be more of a priority?",
        "Zuri, guard the shop or the house, whichever is more urgent",
    ],
)
def test_the_haste_of_an_alternative_is_not_the_orders(text: str) -> None:
    got = draft(text)
    assert got.objective.priority == 55, got.summary
    assert " or is " not in got.objective.target.label


def test_the_orders_own_haste_stays_beside_an_alternative() -> None:
    assert draft("Kofi, fix the gate urgently, or should I ask Tariq?").objective.priority == 90


@pytest.mark.parametrize(
    ("text", "agent", "verb", "label"),
    [
        ("kofi i need the tumble dryer fixed by thurs", "Kofi", "Repair", "Tumble dryer"),
        ("Kofi I want the gate fixed by tonight", "Kofi", "Repair", "Gate"),
        ("tariq keep the kids safe tonight", "Tariq", "Protect", "Kids"),
        ("Zuri keep the shop secure", "Zuri", "Protect", "Shop"),
    ],
)
def test_a_name_without_its_comma_before_a_roundabout_order(
    text: str, agent: str, verb: str, label: str
) -> None:
    got = draft(text)
    assert (got.objective.agent, got.objective.verb, got.objective.target.label) == (
        agent,
        verb,
        label,
    )


@pytest.mark.parametrize("text", ["Kofi and I keep the kids safe", "Kofi or I keep the gate shut"])
def test_a_name_in_a_subject_with_another_is_no_order(text: str) -> None:
    assert isinstance(run(text), Clarify)


@pytest.mark.parametrize(
    ("text", "second"),
    [
        ("Zuri, build a shelf for the books and a rack for the shoes", "a rack for the shoes"),
        (
            "Zuri, build a pen for the goats and a coop for the hens by Friday",
            "a coop for the hens",
        ),
        ("Kofi, fix the door of the shed and the roof of the barn", "the roof of the barn"),
    ],
)
def test_a_second_thing_shaped_as_the_first_is_named(text: str, second: str) -> None:
    got = draft(text)
    assert f'one thing at a time: "{second}" is not in this draft' in got.summary


def test_a_thing_that_joins_two_itself_names_no_second() -> None:
    assert (
        "one thing at a time"
        not in draft("Kofi, map the path from the farm and the village").summary
    )


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        ("Kofi, the radiator in the hall is cold. Can you bleed it?", "Kofi"),
        ("Hey Zuri, the hens look off", "Zuri"),
        ("The radiator is cold", None),
        ("Coffee. Coffee please.", None),  # no name as written
        ("No, Kofi can't, ask Zuri", None),
    ],
)
def test_the_agent_words_are_said_to(text: str, agent: str | None) -> None:
    assert called(text, default_roster()) == agent


@pytest.mark.parametrize(
    ("text", "who"),
    [
        ("Kofi, the radiator in the hall is cold. Can you bleed it?", "Kofi"),
        ("Zuri, the gate", "Zuri"),
        ("maybe the weather is nice", "someone"),
        ("Coffee. Coffee please. Two sugars.", "someone"),  # heard like a name, not one
    ],
)
def test_what_to_do_is_asked_of_the_agent_addressed(text: str, who: str) -> None:
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "no-verb"
    assert got.question.startswith(f"I heard you, but not what to do. Should {who} repair")
