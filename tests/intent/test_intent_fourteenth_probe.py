"""A fourteenth round of probes (2026-12-07, the twenty-second session;
none from the understanding corpus): a typed probe (T21, 210 first turns)
and a conversation probe (T21c, 62 conversations)."""

from __future__ import annotations

import intent_factories as factories
import pytest

from vac.intent import Clarify

run = factories.probe_run
draft = factories.probe_draft


@pytest.mark.parametrize(
    ("text", "unknown"),
    [("send Mo to look after the kids tonight", "Mo"), ("Send Bob to fix the gate", "Bob")],
)
def test_send_with_a_name_no_one_has_asks_who(text: str, unknown: str) -> None:
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "unknown-agent", got
    assert f"anyone called {unknown}" in got.question


def test_send_with_no_name_is_no_one_asked_about() -> None:
    assert run("send help to the farm").reason != "unknown-agent"  # type: ignore[union-attr]
    assert draft("send Kofi to fix the gate").objective.agent == "Kofi"
