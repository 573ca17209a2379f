"""A pending draft and a change said to it (`Reading.changed`), for the
typed probes' conversation tests: now a Wednesday morning, the default roster."""

from __future__ import annotations

import datetime as dt
from typing import NamedTuple

from vac.intent import Draft, Wording, default_roster, understand
from vac.protocol.objective import Objective
from vac.runtime.amend import Reading

NOW = dt.datetime(2026, 3, 11, 9, 30, tzinfo=dt.UTC)  # a Wednesday morning
ROSTER = default_roster()


class Entry(NamedTuple):
    objective: Objective
    wording: Wording | None = None
    counter_of: str | None = None


def changed(text: str, source: str) -> object:
    """What `text` makes of the draft `source` made (typed, confidence 1)."""
    pending = understand(
        source, confidence=1.0, evidence=None, now=NOW, roster=ROSTER, current_agent=None,
        objective_id="o",
    )  # fmt: skip
    assert isinstance(pending, Draft)
    entry = Entry(pending.objective, pending.wording)
    return Reading(NOW, ROSTER, None).changed(text, 1.0, None, entry)
