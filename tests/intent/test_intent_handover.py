"""An order handed to another agent after it was given (`intent.handover`):
the order stands and its agent changes; look-alikes are read as before."""

from __future__ import annotations

import datetime as dt

import intent_factories as factories
import pytest
from hypothesis import given
from hypothesis import strategies as st

from vac.intent import Clarify, Draft, default_roster

NOW = dt.datetime(2026, 12, 4, 10, 0, tzinfo=dt.UTC)  # a Friday
ROSTER = default_roster()
NAMES = [a.name for a in ROSTER]


def run(text: str) -> Draft | Clarify:
    got: Draft | Clarify = factories.understood(text, now=NOW, roster=ROSTER)
    return got


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        ("Zuri, fix the gate. No, Kofi, you do it", "Kofi"),
        ("Zuri, fix the gate. No, Kofi should do it.", "Kofi"),
        ("Zuri, fix the gate. Actually, Kofi, you do it.", "Kofi"),
        ("Ask Zuri to fix the gate, sorry, I mean Kofi.", "Kofi"),
        ("Could you have Zuri fix the gate, sorry, I mean Kofi", "Kofi"),
        ("Ask Zuri to fix the gate. No wait, ask Kofi.", "Kofi"),
        ("Tell Zuri to fix the gate. No, Kofi.", "Kofi"),
        ("Zuri fix the gate, actually make that Kofi", "Kofi"),
        ("Zuri, fix the gate. No, Zuri can't, ask Kofi.", "Kofi"),
        ("Zuri, fix the gate. Zuri's busy, ask Kofi.", "Kofi"),
        ("Zuri, fix the gate. Kofi can do it instead.", "Kofi"),
        ("Zuri, fix the gate. Not Zuri, Kofi.", "Kofi"),
        ("Zuri, fix the gate. No, not you, Kofi, you do it.", "Kofi"),
        ("Zuri, could you fix the gate? Actually, Kofi, you do it.", "Kofi"),
        ("zuri fix the gate sorry i mean kofi", "Kofi"),
        ("Zuri, fix the gate. No, you do it, Kofi", "Kofi"),
        ("Zuri, fix the gate. No, Kofi'll do it.", "Kofi"),
        ("Zuri, fix the gate. Wait, Kofi can do it.", "Kofi"),
        ("Zuri, fix the gate. No, Kofi. No, wait, Tariq.", "Tariq"),  # the last one
        ("Zuri, fix the gate. No, coffee, you do it.", "Kofi"),
        ("Fix the gate. No, Kofi, you do it.", "Kofi"),
        ("Kofi, fix the gate — no wait, scratch that, Zuri should do it", "Zuri"),
        ("check the well sorry, I mean Kofi", "Kofi"),
        ("zuri fix the gate no kofi you do it", "Kofi"),
        ("Zuri, please check on the beehives urgently. No, Imani should do it.", "Imani"),
    ],
)
def test_an_order_handed_over_goes_to_the_new_agent(text: str, agent: str) -> None:
    got = run(text)
    assert isinstance(got, Draft), got
    assert got.objective.agent == agent
    assert got.objective.verb in ("Repair", "Investigate")
    assert "kofi" not in got.objective.target.label.lower()  # the hand-over is no thing
    assert "sorry" not in got.objective.target.label.lower()


def test_the_order_keeps_its_last_word_before_the_handover() -> None:
    got = run("Zuri, make a card that says sorry. Actually, Kofi, you do it.")
    assert isinstance(got, Draft) and got.objective.agent == "Kofi"
    assert got.objective.target.label.endswith("sorry")


def test_the_order_keeps_its_time_and_the_question_names_the_new_agent() -> None:
    got = run("Zuri, fix the gate by Friday. Actually, Kofi.")
    assert isinstance(got, Draft) and got.objective.agent == "Kofi"
    assert got.objective.deadline == "2026-12-11"
    asked = run("Kofi, fix it now, no, Zuri")  # no thing yet: Zuri is asked about
    assert isinstance(asked, Clarify) and asked.question == "What should Zuri repair?"


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        ("Zuri, fix the gate. Sorry, Kofi.", "Zuri"),  # an apology
        ("Zuri, fix the gate. Wait, Kofi!", "Zuri"),  # a call
        ("Zuri, fix the gate. Hold on, Kofi.", "Zuri"),
        ("Zuri, fix the gate. Oh no, Kofi!", "Zuri"),
        ("Zuri, fix the gate. No no, Kofi!", "Zuri"),
        ("Zuri, fix the gate. No, Kofi?", "Zuri"),  # a question
        ("Zuri, fix the gate. If not, Kofi can do it instead.", "Zuri"),  # a fallback
        ("Zuri, fix the gate. If you're tired, Kofi can do it instead.", "Zuri"),
        ("Zuri, fix the gate, or if you can't, Kofi can do it instead", "Zuri"),
        ("Zuri, help Kofi with the fence. Not Kofi, Tariq.", "Zuri"),  # which name?
        ("Kofi, help Zuri with the fence. No, Tariq.", "Kofi"),
        ("Kofi, help Zuri, no, Tariq", "Kofi"),
        ("Zuri, make a card for Kofi today. No, make it Tariq.", "Zuri"),
        ("Zuri, fix the gate with Kofi today. Kofi's busy, ask Tariq.", "Zuri"),
        ("Zuri, fix the gate. Kofi, check the well. No, Tariq.", "Zuri"),  # which order?
        ("Zuri, fix the gate. Then check the well. No, Kofi, you do it.", "Zuri"),
        ("Zuri, build a bench. Oh, give it to Kofi.", "Zuri"),  # delivery
        ("Zuri, fix the gate. Not Kofi, Tariq.", "Zuri"),  # Kofi was never asked
        ("Zuri, fix the gate. No, coffee.", "Zuri"),  # "no coffee" may be words
        ("Kofi, guard the barn, no Tariq", "Kofi"),  # "no Tariq (allowed)"?
        ("Ask Kofi to fix the gate, no rush", "Kofi"),
        ("Zuri, fix the gate. Not you, Kofi.", "Zuri"),  # mostly a call
        ("Zuri, fix the gate. No, Kofi!", "Zuri"),
        ("Zuri, make tea. Sorry, I mean coffee.", "Zuri"),  # a word, not a name
        ("Zuri, fix the gate. If you can't, no problem, Kofi can do it instead.", "Zuri"),
        ("Zuri, fix the gate. Failing that, ask Kofi instead.", "Zuri"),
        ("Zuri, check the goats every morning. On weekends, Kofi can do it instead.", "Zuri"),
        ("Zuri, guard the barn with Imani. Imani's busy, ask Tariq instead.", "Zuri"),
        ("Zuri, fix the gate with Kofi today. Kofi can't, ask Tariq instead.", "Zuri"),
        ("Zuri, fix Kofi's bike. No, Tariq.", "Zuri"),
        ("Zuri, fix the gate, so Kofi can do it", "Zuri"),
    ],
)
def test_look_alikes_keep_the_agent(text: str, agent: str) -> None:
    got = run(text)
    assert isinstance(got, Draft), got
    assert got.objective.agent == agent


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        ("I wish Kofi would fix the tap. Tariq, can you do it instead?", "Tariq"),
        ("Kofi should fix the tap. Tariq, can you do it instead?", "Tariq"),
        ("Fix the tap. Tariq, you do it.", "Tariq"),  # no one named before
        ("Fix the tap. Tariq, can you do it?", "Tariq"),
        ("Don't ask Kofi to fix the tap, ask Tariq instead.", "Tariq"),
        ("Don't ask Kofi to fix the tap. No, ask Tariq.", "Tariq"),
        ("Don't ask Kofi to fix the tap. Tariq can do it.", "Tariq"),
    ],
)
def test_a_name_told_to_do_it_after_the_order_takes_it(text: str, agent: str) -> None:
    """A blind probe (T28): "I wish Kofi would fix the tap. Tariq, can you
    do it instead?" was Kofi's; "Don't ask Kofi …, ask Zuri instead" got
    "Okay, I won't pass that on"."""
    got = run(text)
    assert isinstance(got, Draft), got
    assert (got.objective.agent, got.objective.verb, got.objective.target.label) == (
        agent,
        "Repair",
        "Tap",
    )


@pytest.mark.parametrize(
    "text",
    [
        "I wish Kofi would fix the tap. Tariq, can you do it?",
        "Kofi, fix the tap. Tariq, you do it.",
        "Kofi, fix the tap. Tariq can do it.",
        "Kofi, fix the tap. Sorry, ask Tariq.",
        "Kofi, fix the tap. Tariq, could you do it?",
        "Kofi, fix the tap. Or Tariq can do it.",
        "Fix the tap, Kofi. Or Tariq.",
        "Fix the tap, Kofi, or Tariq.",
        "Kofi, fix the tap, or maybe Tariq",
        "Kofi, fix the tap. Or Tariq?",
    ],
)
def test_a_second_name_without_a_correction_asks_which(text: str) -> None:
    """No correction word: the order may still be Kofi's (it was, the
    second name lost); which of the two is asked, and an answer's name goes
    in place of Kofi's in the order's own words."""
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "uncertain-agent", got
    assert got.question == "Who should do it: Kofi or Tariq?"
    assert got.candidates == ("Kofi", "Tariq") and got.heard_as == "Kofi"
    assert "Tariq" not in got.source_text and "tap" in got.source_text


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, fix the tap, or Tariq will be cross",
        "Zuri, fix the gate, or if you can't, Kofi can do it instead",
        "Kofi, fix the tap. Or maybe",
    ],
)
def test_or_and_more_is_no_choice_of_agent(text: str) -> None:
    got = run(text)
    assert isinstance(got, Draft) and got.objective.agent in ("Kofi", "Zuri"), got


def test_a_condition_before_the_order_is_still_asked() -> None:
    got = run("If Zuri can't fix the gate, Kofi can do it instead.")
    assert isinstance(got, Clarify) and got.reason == "uncertain-agent"


_HANDOVERS = [
    "No, {b}, you do it.",
    "Sorry, I mean {b}.",
    "Actually, make that {b}.",
    "No, ask {b} to do it.",
    "{b} can do it instead.",
    "No, {a} can't, ask {b}.",
]


@given(
    st.sampled_from(NAMES),
    st.sampled_from(NAMES),
    st.sampled_from(["fix the gate", "check the hives", "guard the barn", "map the ridge"]),
    st.sampled_from(_HANDOVERS),
    st.sampled_from(["", " by Friday"]),
)
def test_any_handover_moves_only_the_agent(
    a: str, b: str, order: str, handover: str, when: str
) -> None:
    plain = run(f"{a}, {order}{when}.")
    handed = run(f"{a}, {order}{when}. " + handover.format(a=a, b=b))
    assert isinstance(plain, Draft) and isinstance(handed, Draft), handed
    assert handed.objective.agent == b
    keep = ("verb", "target", "deadline", "priority", "autonomy", "constraints")
    for field in keep:
        assert getattr(handed.objective, field) == getattr(plain.objective, field), field
