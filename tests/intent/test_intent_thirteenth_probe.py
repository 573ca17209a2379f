"""A thirteenth round of probes (2026-12-07, the twenty-first session; none
from the understanding corpus), and the twelfth probe's leftovers the
twentieth session's note named."""

from __future__ import annotations

import intent_factories as factories
import pytest

from vac.intent import Clarify
from vac.intent.reply_words import classify_reply

run = factories.probe_run
draft = factories.probe_draft


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("Kofi, lock the back door tonight", "Back door"),
        ("lock all the sheds before bed", "All the sheds"),
        ("Kofi please lock the gate", "Gate"),
        ("Kofi, can you lock the shed", "Shed"),
        ("Kofi, can you lock up the shed", "Shed"),
        ("Kofi, can you lock the shed up", "Shed"),
    ],
)
def test_lock_the_thing_keeps_it_safe(text: str, label: str) -> None:
    got = draft(text)
    assert (got.objective.verb, got.objective.target.label) == ("Protect", label)


@pytest.mark.parametrize(
    "text",
    [
        "the lock the landlord fitted is broken, Kofi fix it",
        "Kofi, the bike lock is broken, repair it",
        "I lock the door every night, so check the window, Kofi",
    ],
)
def test_a_lock_that_is_a_thing_or_a_habit_is_no_order_to_lock(text: str) -> None:
    got = run(text)
    assert isinstance(got, Clarify) or got.objective.verb != "Protect", got


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, fix the gate in the next half hour",
        "Kofi, fix the gate within the next half-hour",
    ],
)
def test_the_next_half_hour_is_a_deadline_not_dropped(text: str) -> None:
    got = draft(text)
    assert got.objective.deadline is not None, got.summary
    assert "half" not in got.objective.target.label.lower()


@pytest.mark.parametrize(
    ("text", "reply"),
    [
        ("yes, he's great at that", "confirm"),
        ("yes please, he's the best", "confirm"),
        ("yes thanks, that is brilliant", "confirm"),
        ("ok, she's a star", "confirm"),
        ("yes, Zuri's better at that", None),  # a name: maybe a change of agent
        ("yes, Kofi's great at that", None),
        ("yes but he's great at that", None),
        ("no, he's great at that", None),
    ],
)
def test_praise_after_a_yes_is_the_yes(text: str, reply: str | None) -> None:
    assert classify_reply(text) == reply


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        ("zuri zuri can you check the boiler", "Zuri"),
        ("kofi kofi fix the gate", "Kofi"),
    ],
)
def test_a_name_called_twice_without_commas_is_whom_it_asks(text: str, agent: str) -> None:
    assert draft(text).objective.agent == agent


@pytest.mark.parametrize(
    "text",
    ["Kofi fix the door Monday I mean Tuesday", "Kofi fix the door Monday no Tuesday"],
)
def test_a_bare_day_taken_back_stays_out_of_the_thing(text: str) -> None:
    got = draft(text)
    assert (got.objective.target.label, got.objective.deadline) == ("Door", "2026-03-17")


@pytest.mark.parametrize(
    "text", ["Kofi. Uh. Mend the. The kettle lead.", "Kofi, mend the. The kettle lead."]
)
def test_a_small_word_said_again_after_a_written_stop_is_said_once(text: str) -> None:
    assert draft(text).objective.target.label == "Kettle lead"


def test_a_new_sentence_after_a_stop_is_not_a_stutter() -> None:
    assert draft("Kofi, fix the gate. The fence too.").objective.target.label == "Gate"
