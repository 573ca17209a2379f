"""A fifteenth round of probes (2026-12-07, the twenty-third session;
none from the understanding corpus): the earlier probes' leftovers, a typed
probe (T22) and a conversation probe (T22c)."""

from __future__ import annotations

import intent_factories as factories
import pytest

run = factories.probe_run
draft = factories.probe_draft


@pytest.mark.parametrize(
    "text",
    [
        "Tariq, watch the kids up to evening",
        "Tariq, watch the kids up until the evening",
        "Tariq, watch the kids up to 6",
        "Tariq, watch the kids up till 6pm",
    ],
)
def test_up_to_or_up_until_a_time_is_until(text: str) -> None:
    got = draft(text).objective
    assert got.deadline is not None and got.target.label == "Kids", got


def test_up_to_no_time_is_no_deadline() -> None:
    got = draft("Kofi, fix the gate, it's up to you when").objective
    assert got.deadline is None and got.autonomy == "free"
    assert draft("Kofi, fix the car, spend up to 3 hours on it").objective.deadline is None


@pytest.mark.parametrize(
    ("text", "verb", "thing"),
    [
        ("Zuri, help me check the aircon", "Investigate", "Aircon"),
        ("Kofi, help us to build a shed by Friday", "Build", "Shed"),
        ("Imani, help me look after the kids tonight", "Protect", "Kids"),
        ("Kofi, help me with the gate", "Support", "Me with the gate"),
    ],
)
def test_help_me_before_a_verb_of_ours_is_that_verb(text: str, verb: str, thing: str) -> None:
    got = draft(text).objective
    assert (got.verb, got.target.label) == (verb, thing)


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, fix the gate by Monday, or Tuesday",
        "Kofi, fix the gate by Monday, or, uh, Tuesday",
        "Kofi, fix the gate by Monday, or maybe Tuesday",
    ],
)
def test_a_day_or_another_after_a_comma_is_due_by_the_later(text: str) -> None:
    assert str(draft(text).objective.deadline).startswith("2026-03-17")


def test_or_before_another_order_keeps_the_first_day() -> None:
    got = draft("Kofi, fix the gate by Monday, or Zuri can do it Tuesday").objective
    assert str(got.deadline).startswith("2026-03-16")
