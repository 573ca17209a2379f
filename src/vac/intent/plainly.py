"""An objective said plainly, and what of it a change of time leaves alone.

A change said to a draft ("make it 7pm", "no, Kofi") is read against the
draft said as a plain sentence ("Kofi, repair the gate"), and a re-reading
of the steward's words (small talk dropped, an hour moved) must keep every
field but the time. One place for both: the runtime's change readings
(`runtime.amend`, `runtime.hours`, `runtime.counter_changes`) and the
parser's (`intent.reading`). Pure.
"""

from __future__ import annotations

from vac.intent.spoken import VERB_SPOKEN
from vac.protocol.objective import Objective


def said_plainly(o: Objective) -> str:
    """ "Kofi, repair the gate": the order as a plain sentence."""
    return f"{o.agent}, {VERB_SPOKEN[o.verb]} the {o.target.label.lower()}"


def what(o: Objective) -> tuple[str, str, str]:
    """Who does what to which thing (the label as said plainly: small letters)."""
    return (o.agent, o.verb, o.target.label.lower())


def but_when(o: Objective) -> tuple[object, ...]:
    """Every field but the time: the deed, how soon, how free, the other
    constraints (in any order) and the boundaries."""
    said = tuple(sorted((c.kind, c.value) for c in o.constraints if c.kind != "time"))
    lines = tuple(f.text for f in o.forbidden_lines)
    return (*what(o), o.priority, o.autonomy, said, lines)


__all__ = ["but_when", "said_plainly", "what"]
