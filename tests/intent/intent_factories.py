"""Builders for valid objectives (a uniquely named module, importable from
tests without clashing with other directories' conftest modules)."""

from __future__ import annotations

import datetime as dt
from typing import Any


def objective_builtins(**overrides: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "id": "obj-1",
        "revision": 1,
        "agent": "Abeni",
        "verb": "Repair",
        "target": {"ref": "prop:garden-gate", "kind": "prop", "label": "Garden gate"},
        "constraints": [{"kind": "time", "value": "2026-05-02"}],
        "priority": 55,
        "deadline": "2026-05-02",
        "forbidden_lines": [{"text": "Do not lie to visitors", "value_ref": "value:honesty"}],
        "autonomy": "brief",
        "status": "draft",
        "confirmed_by_steward": False,
        "accepted_by_agent": False,
        "source_text": "ask Abeni to repair the garden gate by tomorrow without lying to visitors",
        "confidence": 0.93,
    }
    base.update(overrides)
    return base


def understood(
    text: str, evidence: Any = None, *, now: Any, roster: Any, current_agent: str | None = None
) -> Any:
    """`vac.intent.understand` as the daemon calls it: typed text (no
    evidence) at confidence 1.0, spoken words at 0.6."""
    from vac.intent import understand

    return understand(
        text,
        confidence=0.6 if evidence is not None else 1.0,
        evidence=evidence,
        now=now,
        roster=roster,
        current_agent=current_agent,
        objective_id="o-1",
    )


def heard_words(text: str, probs: dict[str, float], default: float = 0.95) -> Any:
    """Spoken evidence for `text`: each word (punctuation stripped) at its
    probability in `probs`, else `default`."""
    import re

    from vac.intent import Evidence, WordProb

    words = tuple(
        WordProb(m.start(), m.end(), probs.get(m.group().strip(".,?"), default))
        for m in re.finditer(r"\S+", text)
    )
    return Evidence(words)


# The typed probes' clock (a Wednesday morning) and their first turns.
PROBE_NOW = dt.datetime(2026, 3, 11, 9, 30, tzinfo=dt.UTC)


def probe_run(text: str) -> Any:
    """A typed probe's first turn, with the default roster."""
    from vac.intent import default_roster

    return understood(text, now=PROBE_NOW, roster=default_roster())


def probe_draft(text: str) -> Any:
    """`probe_run`, which must draft."""
    from vac.intent import Draft

    got = probe_run(text)
    assert isinstance(got, Draft), got
    return got
