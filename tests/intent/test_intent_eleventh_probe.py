"""An eleventh typed probe (2026-12-07, the nineteenth session; none from
the understanding corpus), and the tenth probe's leftovers the eighteenth
session's note named."""

from __future__ import annotations

import intent_factories as factories
import pytest

from vac.intent import Clarify

NOW = factories.PROBE_NOW  # a Wednesday morning
run = factories.probe_run
draft = factories.probe_draft


@pytest.mark.parametrize(
    ("text", "verb", "label"),
    [
        ("Tariq, mind the kids this afternoon, no sweets before dinner.", "Protect", "Kids"),
        ("Imani, mind my stall while I pop out", "Protect", "Stall"),
        ("Zuri, babysit the twins tonight", "Protect", "Twins"),
        ("Kofi, redo the bathroom tiles", "Repair", "Bathroom tiles"),
    ],
)
def test_minding_and_redoing_are_verbs(text: str, verb: str, label: str) -> None:
    got = draft(text)
    assert (got.objective.verb, got.objective.target.label) == (verb, label)


def test_the_minded_thing_is_read_back_with_its_article() -> None:
    assert "protect the kids" in draft("Tariq, mind the kids").summary


@pytest.mark.parametrize(
    ("text", "agent", "label"),
    [
        ("Never mind the gate, Kofi, fix the fence", "Kofi", "Fence"),
        ("Don't mind the mess, Kofi, fix the shelf", "Kofi", "Shelf"),
        ("Never mind the gate. Zuri, check the hens.", "Zuri", "Hens"),
        ("Kofi, would you mind fixing the gate", "Kofi", "Gate"),
    ],
)
def test_mind_that_keeps_nothing_safe_is_no_order(text: str, agent: str, label: str) -> None:
    got = draft(text).objective
    assert (got.agent, got.target.label) == (agent, label)


def test_a_warning_to_mind_something_is_no_second_order() -> None:
    got = draft("Kofi, fix the gate, and mind the paint")
    assert "one thing at a time" not in got.summary


def test_a_warning_alone_is_no_order() -> None:
    got = run("Kofi, mind the step")
    assert isinstance(got, Clarify) and got.reason == "no-verb"
