""" "Do you mind if I…" asks leave for the speaker's own deed: it is never a
draft for the agent addressed. Typed without the comma after the name, the
vocative reading (vocative.py) made "Kofi do you mind if I check the hives"
a draft of Kofi's (it was asked who); with the comma it always was one."""

from __future__ import annotations

import datetime as dt

import intent_factories as factories
import pytest

from vac.intent import Clarify, Draft, default_roster

NOW = dt.datetime(2026, 5, 1, 10, 0, tzinfo=dt.UTC)
ROSTER = default_roster()


@pytest.mark.parametrize(
    "text",
    [
        "Kofi do you mind if I check the hives",
        "Kofi would you mind if I check the hives",
        "Kofi do you mind if I check the hives tomorrow",
        "Kofi, do you mind if I fix the gate",
        "Kofi, do you mind if we fix the gate",
    ],
)
def test_leave_asked_for_our_own_deed_is_no_draft(text: str) -> None:
    got = factories.understood(text, now=NOW, roster=ROSTER)
    assert isinstance(got, Clarify) and got.reason == "first-person", got


def test_a_request_with_mind_is_still_one() -> None:
    got = factories.understood("Kofi, would you mind fixing the gate", now=NOW, roster=ROSTER)
    assert isinstance(got, Draft) and got.objective.agent == "Kofi"
