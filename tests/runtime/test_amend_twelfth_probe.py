"""Changes from a twelfth typed probe's conversations (2026-12-07, the
twentieth session): another thing of the draft's kind said alone, and
another deed on the draft's thing, were asked what to do."""

from __future__ import annotations

import pytest

from tests.runtime import amend_factories as factories
from vac.intent import Draft


@pytest.mark.parametrize("text", ["the garage door", "sorry, the garage door"])
def test_another_thing_of_the_drafts_kind_replaces_it(text: str) -> None:
    got = factories.changed(text, "Kofi, fix the shed door")
    assert isinstance(got, Draft), got
    assert got.objective.target.label == "Garage door"


@pytest.mark.parametrize("text", ["the shed door", "the door is fine", "the gate"])
def test_the_same_thing_or_a_remark_is_no_change(text: str) -> None:
    got = factories.changed(text, "Kofi, fix the shed door")
    assert not isinstance(got, Draft) or got.objective.target.label == "Shed door", got


@pytest.mark.parametrize(
    ("text", "draft", "verb", "label"),
    [
        ("no, visit her", "Imani, check on Grandma", "Befriend", "Grandma"),
        ("no, just check it", "Kofi, fix the gate", "Investigate", "Gate"),
        ("no, look into it instead", "Kofi, fix the gate", "Investigate", "Gate"),
    ],
)
def test_another_deed_on_the_drafts_thing(text: str, draft: str, verb: str, label: str) -> None:
    got = factories.changed(text, draft)
    assert isinstance(got, Draft), got
    assert (got.objective.verb, got.objective.target.label) == (verb, label)
    assert got.objective.agent == draft.split(",")[0]


def test_a_no_with_it_is_no_change_but_a_reply() -> None:
    assert factories.changed("no, leave it", "Kofi, fix the gate") is None  # the reply rejects


def test_a_new_thing_of_the_kind_is_no_change() -> None:
    got = factories.changed("a new door", "Kofi, fix the shed door")
    assert not isinstance(got, Draft), got  # "the door needs replacing", maybe: asked


def test_a_deed_on_someone_reads_back_their_name() -> None:
    got = factories.changed("no, help her", "Kofi, visit Grandma")
    assert isinstance(got, Draft), got
    assert "support Grandma" in got.summary


@pytest.mark.parametrize("text", ["never mind, go ahead", "never mind, yes"])
def test_never_mind_then_a_yes_is_no_no(text: str) -> None:
    got = factories.changed(text, "Kofi, fix the kettle")
    assert got != "reject", got


def test_never_mind_and_news_still_takes_it_back() -> None:
    assert factories.changed("never mind, Zuri did it", "Kofi, fix the kettle") == "reject"


@pytest.mark.parametrize("text", ["cancel it, yes", "forget it, okay", "scrap that, ok"])
def test_a_cancel_said_with_a_yes_is_a_no(text: str) -> None:
    assert factories.changed(text, "Kofi, fix the kettle") == "reject"


@pytest.mark.parametrize(
    ("text", "agent", "deadline"),
    [
        ("how about Kofi does it instead", "Kofi", "2026-03-12"),
        ("can't it be Friday?", "Zuri", "2026-03-13"),
    ],
)
def test_counter_offers_of_the_thirteenth_probe(text: str, agent: str, deadline: str) -> None:
    got = factories.changed(text, "Zuri, check the hens tomorrow")
    assert isinstance(got, Draft), got
    assert (got.objective.agent, got.objective.deadline) == (agent, deadline)
