"""The question a session may be waiting on (runtime/choices.py)."""

from __future__ import annotations

import datetime as dt

from vac import intent
from vac.intent import Clarify
from vac.runtime.choices import PendingChoice

ASKED = Clarify(
    "uncertain-agent",
    "Did you mean Imani or Abeni?",
    "Ask a mani to map the orchard",
    0.6,
    candidates=("Imani", "Abeni"),
    heard_as="a mani",
)


def test_an_answer_naming_one_candidate_rewrites_the_original_words() -> None:
    choice = PendingChoice()
    choice.offer(ASKED)
    assert choice.answer("Abeni") == "Ask Abeni to map the orchard"
    assert choice.answer("Abeni") is None  # asked once, answered once


def test_anything_else_drops_the_question() -> None:
    choice = PendingChoice()
    choice.offer(ASKED)
    assert choice.answer("ask Kofi to build a bench") is None
    assert choice.answer("Imani") is None


def test_a_question_without_candidates_waits_for_nothing() -> None:
    choice = PendingChoice()
    choice.offer(Clarify("no-verb", "What should be done?", "Imani", 0.9))
    assert choice.answer("Imani") is None


def test_a_name_no_one_has_is_answered_with_a_roster_name() -> None:
    choice = PendingChoice()
    roster = ("Abeni", "Kofi", "Zuri", "Tariq", "Imani")
    choice.offer(Clarify("unknown-agent", "Who?", "Tell Yuri to fix the gate", 1.0, roster, "Yuri"))
    assert choice.answer("I meant Zuri") == "Tell Zuri to fix the gate"


def _asked(text: str) -> Clarify:
    now = dt.datetime(2026, 12, 4, 10, tzinfo=dt.UTC)
    got = intent.understand(
        text,
        confidence=1.0,
        evidence=None,
        now=now,
        roster=intent.default_roster(),
        current_agent=None,
        objective_id="o",
    )
    assert isinstance(got, Clarify), got
    return got


def test_a_missing_thing_is_answered_after_the_verb() -> None:
    choice = PendingChoice()
    choice.offer(_asked("Ask Kofi to repair by Friday"))
    assert choice.answer("The gate.") == "Ask Kofi to repair the gate by Friday".replace(
        "the gate", "The gate"
    )


def test_a_deadline_not_understood_is_answered_in_its_place() -> None:
    choice = PendingChoice()
    choice.offer(_asked("Ask Kofi to fix the gate after Friday"))
    assert choice.answer("by Saturday") == "Ask Kofi to fix the gate by Saturday"


def test_an_answer_that_is_an_order_or_a_reply_drops_the_question() -> None:
    for answer in ("ask Zuri to map the river", "never mind", "no", "fix the fence", "what?"):
        choice = PendingChoice()
        choice.offer(_asked("Ask Kofi to repair by Friday"))
        assert choice.answer(answer) is None, answer


def test_a_deed_no_agent_does_is_answered_with_one_they_do() -> None:
    names = intent.default_roster().names()
    choice = PendingChoice()
    choice.offer(_asked("Ask Kofi to water the plants by Friday"))
    assert choice.answer("Take care of the plants.", names) == (
        "Ask Kofi to Take care of the plants by Friday"
    )
    for other in ("ask Zuri to help", "help Zuri with the plants", "yes", "the plants"):
        choice = PendingChoice()
        choice.offer(_asked("Kofi, water the plants"))
        assert choice.answer(other, names) is None, other
