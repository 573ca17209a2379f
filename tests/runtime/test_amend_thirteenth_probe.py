"""Changes from a thirteenth probe's conversations (2026-12-07, the
twenty-first session): a change wrapped in everyday words ("can we push it
back a day", "ok but not Kofi, Zuri") was asked again, and the next "yes"
confirmed the old draft; "nope, wrong person" asked to say it again."""

from __future__ import annotations

import pytest

from tests.runtime import amend_factories as factories
from vac.intent import Draft
from vac.runtime.change_words import WAITING, WRONG_AGENT, one_each, unwrapped
from vac.runtime.choices import Clarification


@pytest.mark.parametrize(
    ("text", "draft", "field", "value"),
    [
        ("ok but not Kofi, Zuri", "Kofi, fix the back gate", "agent", "Zuri"),
        ("no problem, but make it Zuri", "Tariq, check the hens", "agent", "Zuri"),
        ("can Imani do it instead? Tariq's at work", "Tariq, check the hens", "agent", "Imani"),
        ("Imani should go instead", "Zuri, check the hens", "agent", "Imani"),
        ("have Imani go instead", "Zuri, check the hens", "agent", "Imani"),
        ("send Imani instead please", "Zuri, check the hens", "agent", "Imani"),
        ("any day is fine really", "Kofi, fix the back gate tomorrow", "deadline", None),
    ],
)
def test_a_change_wrapped_in_everyday_words_is_the_change(
    text: str, draft: str, field: str, value: str | None
) -> None:
    got = factories.changed(text, draft)
    assert isinstance(got, Draft), got
    assert getattr(got.objective, field) == value


@pytest.mark.parametrize("text", ["can we push it back a day", "can we move it to saturday"])
def test_a_move_asked_with_can_we_moves_it(text: str) -> None:
    got = factories.changed(text, "Kofi, fix the back gate tomorrow")
    assert isinstance(got, Draft), got
    assert got.objective.deadline in ("2026-03-13", "2026-03-14")  # it was tomorrow, the 12th


@pytest.mark.parametrize(
    "text", ["can you fix the fence too", "maybe later", "let's see", "can we talk later"]
)
def test_an_order_or_chatter_is_no_change(text: str) -> None:
    got = factories.changed(text, "Kofi, fix the back gate on Friday")
    assert not isinstance(got, Draft) or got.objective.target.label == "Fence", got


@pytest.mark.parametrize("text", ["nope, wrong person", "that's the wrong guy", "wrong person"])
def test_the_wrong_agent_asks_who_instead(text: str) -> None:
    got = factories.changed(text, "Kofi, fix the back gate on Friday")
    assert isinstance(got, Clarification), got
    assert got.question.startswith("Who should do it instead of Kofi?")


@pytest.mark.parametrize("text", ["wrong one", "the wrong gate", "nope"])
def test_other_wrongs_are_not_the_agent(text: str) -> None:
    assert not WRONG_AGENT.match(text)


def test_unwrapped_gives_nothing_for_plain_words() -> None:
    assert unwrapped("push it back a day") == ()
    assert unwrapped("can we push it back a day") == ("push it back a day",)


@pytest.mark.parametrize(
    ("text", "draft", "label"),
    [
        ("actually the shed door", "Kofi, fix the back gate tomorrow", "Shed door"),
        ("sorry, the shed door", "Kofi, fix the back gate tomorrow", "Shed door"),
        ("that's wrong, it's the shed roof", "Kofi, fix the shed door tomorrow", "Shed roof"),
    ],
)
def test_a_thing_corrected_another_way_than_no_replaces_it(
    text: str, draft: str, label: str
) -> None:
    got = factories.changed(text, draft)
    assert isinstance(got, Draft), got
    assert got.objective.target.label == label


@pytest.mark.parametrize(
    "text", ["actually the gate is fine", "sorry, the shed door is broken too"]
)
def test_a_remark_after_a_correction_word_is_no_change(text: str) -> None:
    assert not isinstance(factories.changed(text, "Kofi, fix the back gate tomorrow"), Draft)


def test_no_deadline_with_whom_it_suits_takes_it_off() -> None:
    got = factories.changed("no deadline, whenever suits her", "Zuri, check on Grandma tomorrow")
    assert isinstance(got, Draft), got
    assert got.objective.deadline is None


@pytest.mark.parametrize(
    "text", ["hold on, not yet", "wait", "one sec", "hmm, let me think", "ok, hang on a sec"]
)
def test_asked_to_wait_is_waiting(text: str) -> None:
    assert WAITING.match(text)


@pytest.mark.parametrize("text", ["wait, Zuri instead", "not yet, make it Friday", "hold on"])
def test_waiting_with_a_change_is_not_only_waiting(text: str) -> None:
    assert bool(WAITING.match(text)) == (text == "hold on")


@pytest.mark.parametrize(
    ("text", "agent", "deadline"),
    [
        ("no, get Zuri to do it tonight", "Zuri", "2026-03-11"),
        ("get Zuri to do it tonight", "Zuri", "2026-03-11"),
        ("can Zuri do it tomorrow", "Zuri", "2026-03-12"),
    ],
)
def test_another_agent_and_a_time_are_both_changed(text: str, agent: str, deadline: str) -> None:
    got = factories.changed(text, "Tariq, fix the gate")
    assert isinstance(got, Draft), got
    assert (got.objective.agent, got.objective.deadline) == (agent, deadline)


def test_do_it_properly_is_no_agent_and_time() -> None:
    assert one_each("get Zuri to do it properly", ["Zuri"]) == "get Zuri to do it properly"


@pytest.mark.parametrize("text", ["get Zuri to do it then", "get Zuri to do it please"])
def test_have_another_do_it_then_is_still_the_agent(text: str) -> None:
    got = factories.changed(text, "Tariq, fix the gate")
    assert isinstance(got, Draft), got
    assert got.objective.agent == "Zuri"


@pytest.mark.parametrize(
    ("text", "deadline", "priority"),
    [
        ("get Zuri to do it Saturday", "2026-03-14", 55),
        ("get Zuri to do it asap", "2026-03-13", 90),
    ],
)
def test_have_another_do_it_with_a_time_or_haste(text: str, deadline: str, priority: int) -> None:
    got = factories.changed(text, "Kofi, fix the gate by Friday")
    assert isinstance(got, Draft), got
    assert (got.objective.agent, got.objective.deadline, got.objective.priority) == (
        "Zuri",
        deadline,
        priority,
    )


@pytest.mark.parametrize("text", ["get Zuri to do it thank you", "get Zuri to do it tho"])
def test_have_another_do_it_with_thanks_is_still_the_agent(text: str) -> None:
    got = factories.changed(text, "Kofi, fix the gate by Friday")
    assert isinstance(got, Draft), got
    assert got.objective.agent == "Zuri"
