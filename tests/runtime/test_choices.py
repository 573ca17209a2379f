"""The question a session may be waiting on (runtime/choices.py)."""

from __future__ import annotations

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
