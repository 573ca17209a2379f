"""Changes from a typed conversation probe (2026-12-06, 251 conversations):
each was a change applied to the wrong field, an order of its own made of
the change, or a hold read as a boundary."""

from __future__ import annotations

import pytest

from tests.runtime import amend_factories as factories
from vac.intent import Clarify, Draft, classify_reply, understand

NOW, ROSTER = factories.NOW, factories.ROSTER
GATE = "Kofi, fix the gate"


def changed(text: str, source: str = GATE) -> object:
    return factories.changed(text, source)


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        ("Kofi's at a funeral this week, Tariq can do it", "Tariq"),
        ("Kofi's in Lagos till Friday, Zuri can do it", "Zuri"),
        ("Kofi is at a wedding on Saturday, Tariq can do it", "Tariq"),
    ],
)
def test_where_the_agent_is_is_a_reason_not_the_change(text: str, agent: str) -> None:
    """The place and the time were the draft's ("Kofi will repair the gate at a
    funeral by the end of the week"), the new name dropped."""
    got = changed(text)
    assert isinstance(got, Draft), got
    assert got.objective.agent == agent and got.objective.deadline is None, got.objective
    assert got.objective.target.label == "Gate"


def test_a_thing_somewhere_is_no_reason_dropped() -> None:
    assert not isinstance(changed("it's in the shed, make it Friday"), Draft)


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        ("make Tariq run am", "Tariq"),
        ("make Zuri handle am", "Zuri"),
        ("make Imani run it", "Imani"),
        ("let Tariq handle it", "Tariq"),
        ("Tariq can take care of it", "Tariq"),
    ],
)
def test_a_name_that_handles_it_is_the_agent(text: str, agent: str) -> None:
    """Each was an order of its own ("Kofi will build Tariq run am")."""
    got = changed(text)
    assert isinstance(got, Draft), got
    assert (got.objective.agent, got.objective.verb) == (agent, "Repair")


@pytest.mark.parametrize(
    "text", ["don't send it yet", "don't confirm yet", "don't cancel it", "don't do it yet"]
)
def test_a_hold_on_the_draft_is_no_boundary(text: str) -> None:
    """Each became the boundary "Do not send it yet" (a yes then sent it)."""
    assert not isinstance(changed(text), Draft)


@pytest.mark.parametrize(
    "text",
    ["make sure he doesn't touch the wiring", "and make sure he doesn't scratch the car"],
)
def test_make_sure_he_does_not_is_a_boundary(text: str) -> None:
    """Each was an order of its own ("Kofi will protect he doesn't touch the wiring")."""
    got = changed(text)
    assert isinstance(got, Draft), got
    bans = [f.text for f in got.objective.forbidden_lines]
    assert got.objective.verb == "Repair" and any(text.endswith(b[7:]) for b in bans), bans


def test_make_sure_he_does_something_is_no_order_of_its_own() -> None:
    got = understand(
        "make sure he locks it after", confidence=1.0, evidence=None, now=NOW, roster=ROSTER,
        current_agent="Kofi", objective_id="o",
    )  # fmt: skip
    assert isinstance(got, Clarify), got  # was "Kofi will protect he locks it after"


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("yh go ahead", "confirm"),
        ("yes boss", "confirm"),
        ("Kindly proceed", "confirm"),
        ("righto", "confirm"),
        ("no problem, go ahead", "confirm"),
        ("nah not worth it", "reject"),
        ("leave it jare", "reject"),
        ("no need", "reject"),
    ],
)
def test_replies_as_people_type_them(text: str, kind: str) -> None:
    """Each was asked again ("I heard you, but not what to do")."""
    assert classify_reply(text) == kind
