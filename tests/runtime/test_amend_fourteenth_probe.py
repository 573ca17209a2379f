"""Changes a twenty-second-session conversation probe (T21c) found not
taken: the next yes confirmed the draft the steward had just changed."""

from __future__ import annotations

import msgspec
import pytest

from tests.runtime.test_amend import NOW, ROSTER, changed, parse
from vac.intent import Draft, DraftEntry, Evidence, WordProb
from vac.protocol.objective import Constraint, ForbiddenLine
from vac.runtime.amend import Reading
from vac.runtime.lifted import lifted

LADDER = "Kofi, fix the roof tomorrow, don't use the ladder"
TWO = "Imani, visit Gran, don't take the car, and don't stay late"


@pytest.mark.parametrize(
    ("source", "text", "left"),
    [
        (LADDER, "oh he can use the ladder after all", ["Respect the agent's autonomy"]),
        (LADDER, "he can use the ladder actually", ["Respect the agent's autonomy"]),
        (LADDER, "forget the ladder bit", ["Respect the agent's autonomy"]),
        (LADDER, "the ladder is fine after all", ["Respect the agent's autonomy"]),
        (LADDER, "ladders are allowed", ["Respect the agent's autonomy"]),
        (TWO, "she can take the car after all", ["Do not stay late"]),
        (TWO, "never mind about the car", ["Do not stay late"]),
    ],
)
def test_a_boundary_lifted_goes_and_the_rest_stays(source: str, text: str, left: list[str]) -> None:
    got = changed(source, text)
    assert got is not None and [f.text for f in got.forbidden_lines] == left, text
    before = changed(source, "make it urgent")
    assert before is not None and got.deadline == before.deadline and got.agent == before.agent


@pytest.mark.parametrize(
    "text",
    [
        "he can use it",  # which line?
        "can he use the ladder?",  # asks
        "the ladder is fine",  # news about the ladder, maybe
        "he can use the ladder and the car",  # more than one line's words
        "forget the roof",
    ],
)
def test_words_that_name_no_one_line_lift_nothing(text: str) -> None:
    lines = [ForbiddenLine("Do not use the ladder", "value:safety")]
    lines.append(ForbiddenLine("Do not take the car", "value:care"))
    assert lifted(text, lines, ["Kofi"]) is None


def test_no_line_the_steward_drew_no_lift() -> None:
    assert changed("Kofi, fix the roof", "he can use the ladder after all") is None


@pytest.mark.parametrize(
    ("source", "text", "field", "value"),
    [
        ("Kofi, fix the tap today", "tomorrow's fine", "deadline", "2026-12-06"),
        ("Kofi, fix the tap by Friday", "next week is fine", "deadline", "2026-12-13"),
        ("Kofi, fix the tap today", "no hurry, tomorrow's fine", "deadline", "2026-12-06"),
        ("Kofi, fix the tap today", "no hurry, tomorrow's fine", "priority", 25),
        ("Kofi, fix the tap today", "urgent, Zuri", "agent", "Zuri"),
        ("Tariq, guard the barn tonight", "ok, let Imani do it instead", "agent", "Imani"),
        ("Tariq, guard the barn tonight", "fine, let Imani do it instead", "agent", "Imani"),
        ("Zuri, guard the barn tonight", "no wait, Tariq was right", "agent", "Tariq"),
        ("Zuri, guard the barn tonight", "go back to Tariq", "agent", "Tariq"),
        ("Zuri, guard the barn tonight", "let's stick with Tariq", "agent", "Tariq"),
        ("Kofi, check the well", "by the end of the week I guess", "deadline", "2026-12-06"),
        (
            "Abeni, map the orchard",
            "they're coming Saturday, so Friday evening please",
            "deadline",
            "2026-12-11",
        ),
        ("Kofi, fix the tap tomorrow", "no, it has to be today", "deadline", "2026-12-05"),
    ],
)
def test_a_change_in_everyday_words_is_the_change(
    source: str, text: str, field: str, value: object
) -> None:
    got = changed(source, text)
    assert got is not None and getattr(got, field) == value, (text, got)


@pytest.mark.parametrize("text", ["that was right", "Friday is fine", "ok, thanks then"])
def test_agreement_is_no_change(text: str) -> None:
    assert changed("Kofi, fix the tap by Friday", text) is None


def _counter(source: str) -> tuple[DraftEntry, Reading]:
    pending = parse(source)
    assert isinstance(pending, Draft)
    rest = [*pending.objective.constraints, Constraint("pace", "rest first")]
    objective = msgspec.structs.replace(pending.objective, constraints=rest)
    entry = DraftEntry("alice", objective, NOW, NOW, counter_of="o-0", wording=pending.wording)
    return entry, Reading(NOW, ROSTER, None)


def test_the_counter_said_again_after_agreement_is_a_yes_and_without_it_no_change() -> None:
    entry, reading = _counter("Tariq, guard the barn by tomorrow")
    assert reading.changed("ok tomorrow then", 1.0, None, entry) == "confirm"
    assert reading.changed("fine, by tomorrow then", 1.0, None, entry) == "confirm"
    assert reading.changed("tomorrow then", 1.0, None, entry) is None  # no agreement said
    assert not isinstance(reading.changed("ok Friday then", 1.0, None, entry), str)  # a change
    heard = Evidence(words=(WordProb(0, 2, 0.9),))
    assert reading.changed("ok tomorrow then", 0.2, heard, entry) != "confirm"  # heard unsurely


@pytest.mark.parametrize(
    ("text", "agent"), [("let Imani do it instead", "Imani"), ("no, tonight", "Tariq")]
)
def test_the_agents_rest_goes_with_another_agent_or_time(text: str, agent: str) -> None:
    entry, reading = _counter("Tariq, guard the barn by tomorrow")
    got = reading.changed(text, 1.0, None, entry)
    assert isinstance(got, Draft) and got.objective.agent == agent
    assert "pace" not in {c.kind for c in got.objective.constraints}
    assert "after a rest" not in got.summary


@pytest.mark.parametrize(
    "text",
    [
        # a review: each lifted "Stay off the ladder"
        "no one can use the ladder",
        "nobody can touch the ladder",
        "no ladders are allowed",
        "he could fall off the ladder",
        "skip the ladder",
        "remove the ladder",
        "he can stay off the ladder",
        "the kids can use the ladder",
        "actually Tariq can use the ladder",  # a review: another's permission
        "he could use the ladder",
    ],
)
def test_words_that_keep_or_restate_the_boundary_lift_nothing(text: str) -> None:
    got = changed("Kofi, fix the roof, stay off the ladder", text)
    assert got is None or [f.text for f in got.forbidden_lines] == ["Stay off the ladder"], text


def test_a_spoken_lift_needs_every_word_heard_surely() -> None:
    entry, reading = _counter("Kofi, fix the roof, don't use the ladder")
    unsure = Evidence(words=(WordProb(0, 2, 0.9), WordProb(3, 6, 0.3)))
    assert not isinstance(reading.changed("he can use the ladder", 0.9, unsure, entry), Draft)
    sure = Evidence(words=(WordProb(0, 2, 0.9), WordProb(3, 6, 0.8)))
    got = reading.changed("he can use the ladder", 0.9, sure, entry)
    assert isinstance(got, Draft) and "ladder" not in str(got.objective.forbidden_lines)


def test_a_change_not_taken_is_quoted_as_said() -> None:
    """A probe's rerun: "nah, get zuri to do it innit" was quoted "nah, zuri, and innit"."""
    got = Reading(NOW, ROSTER, None).changed(
        "nah, get zuri to do it innit", 1.0, None, _counter("Kofi, fix the gate by Friday")[0]
    )
    assert not isinstance(got, Draft | str) and got is not None
    assert '"nah, get zuri to do it innit"' in got.question
