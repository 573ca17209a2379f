"""What a change to a pending draft comes to, once read.

Two things a conversation probe (the twenty-second session) found:
- The draft said again, nothing changed ("ok tomorrow then" to "Tariq will
  protect the barn by tomorrow, after a rest — confirm?"): it was drafted
  anew under a new id, so the agent's own counter-offer was no longer its
  own, and the yes that followed made it counter again, a day later, a
  loop. With agreement said first it is a yes; otherwise nothing changed.
- The rest an agent asked for in its counter-offer is its own: with
  another agent or another time ("let Imani do it instead", "no, tonight")
  the `pace` constraint goes ("Imani will … after a rest", "tonight, after
  a rest" before); and the order's own time comes back with another
  agent (`handed_on`: the counter's later day was kept).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import Final, Literal

import msgspec

from vac import intent
from vac.intent.plainly import said_plainly
from vac.protocol.objective import Objective
from vac.runtime import moved_days as md

# Agreement said first: "ok tomorrow then", "fine, by tomorrow", "sure, tomorrow".
_AGREED: Final = re.compile(
    r"^\W*(?:ok|okay|fine|sure|yes|yeah|yep|alright|all\s+right|great|perfect|that'?s\s+fine)\b",
    re.IGNORECASE,
)

# The rest an agent's counter-offer asked for, agreed to.
# Only that, and agreement: "ok after a rest, but make it urgent" is a change
# (a review: it confirmed the counter and dropped the rest of the words).
_AFTER_REST: Final = re.compile(
    r"^\W*(?:(?:ok|okay|fine|sure|yes|yeah|yep|alright|all\s+right|great|that'?s\s+fine)\W+)+"
    r"(?:(?:after|once)\s+(?:(?:his|her|their|a|the|some)\s+)?(?:rest|sleep|nap|break)"
    r"|(?:he|she|they)\s+can\s+rest\s+first|rest\s+first)"
    r"(?:\W+(?:then|is\s+fine|please|thanks|that'?s\s+fine))*\W*$",
    re.IGNORECASE,
)
# A time said with a change: "let Zuri do it tomorrow", "…by Friday".
_TIMED: Final = re.compile(
    r"\b(?:today|tonight|tomorrow|morning|afternoon|evening|night|week|weekend|month|noon"
    r"|monday|tuesday|wednesday|thursday|friday|saturday|sunday|by|before|until|till|\d+"
    r"|first\s+thing|later|soon|whenever|rush|hurry|next|asap)\b",  # a review: "first thing"
    re.IGNORECASE,
)

Redrafted = Callable[[Objective, Objective, intent.Wording | None], intent.Draft]


def _same(a: Objective, b: Objective) -> bool:
    """The same order: every field a change may touch, constraints in any order."""

    def fields(o: Objective) -> tuple[object, ...]:
        kept = sorted((c.kind, c.value) for c in o.constraints)
        return (
            o.agent,
            o.verb,
            o.target,
            o.deadline,
            o.priority,
            o.autonomy,
            o.forbidden_lines,
            kept,
        )

    return fields(a) == fields(b)


def settled(
    got: intent.Draft | None,
    entry: intent.DraftEntry,
    text: str,
    sure: bool,
    redrafted: Redrafted,
) -> intent.Draft | Literal["confirm", "same"] | None:
    """`got`, the change read, as it stands against `entry`: "confirm" (the
    draft said again after agreement, `sure`: heard as surely as a yes),
    "same" (said again, no agreement: nothing changed), or the draft (the
    counter's rest taken off when its agent or time changed)."""
    if got is None:
        return None
    was = entry.objective
    if _same(got.objective, was) and not _hour_moved(got, entry):
        return "confirm" if sure and _AGREED.match(text) else "same"
    new = got.objective
    if entry.counter_of is None or (new.agent, new.deadline) == (was.agent, was.deadline):
        return got
    if not any(c.kind == "pace" for c in new.constraints):
        return got
    rested = [c for c in new.constraints if c.kind != "pace"]
    return redrafted(msgspec.structs.replace(new, constraints=rested), was, got.wording)


# The words of an hour in a read-back ("by tomorrow at 7 pm", "tomorrow evening").
_HOUR_SAID: Final = re.compile(
    r"\d|\b(?:am|pm|o'clock|noon|midday|midnight|morning|afternoon|evening|night)\b", re.I
)


def _hour_moved(got: intent.Draft, entry: intent.DraftEntry) -> bool:
    """Whether `got`, the same order, is said at another hour of its day
    ("make it 7pm" to "…by tomorrow at 6 pm"): the deadline holds the day,
    the hour is in the words read back (`runtime.hours`)."""
    when = got.wording.when if got.wording else None
    was = entry.wording.when if entry.wording else None
    return when is not None and when != was and bool(_HOUR_SAID.search(when))


def handed_on(new: Objective, was: Objective, original: Objective | None) -> Objective | None:
    """The order's own time given back when another agent takes over an
    agent's counter-offer ("let Zuri do it" to Tariq's "by tomorrow, after a
    rest": Zuri's by tonight, as asked; a conversation probe, T22c, found
    the counter's later day kept), unless a time was said with it. None:
    nothing to give back."""
    if original is None or new.agent == was.agent or new.deadline != was.deadline:
        return None
    change = new.source_text.removeprefix(was.source_text)  # the words of the change
    if original.deadline == was.deadline or _TIMED.search(change):
        return None  # "let Zuri do it tomorrow": the day said
    kept = [c for c in new.constraints if c.kind != "time"]
    times = [c for c in original.constraints if c.kind == "time"]
    return msgspec.structs.replace(new, deadline=original.deadline, constraints=kept + times)


def restated(
    text: str,
    was: Objective,
    now: dt.datetime,
    understood: Callable[[str, float], intent.Draft | intent.Clarify],
) -> bool:
    """Agreement, then the draft's own time said again ("ok tomorrow then",
    "fine, by Friday then"), which reads as no change at all."""
    if not _AGREED.match(text):
        return False
    if _AFTER_REST.match(text) and any(c.kind == "pace" for c in was.constraints):
        return True  # "alright, after his rest then" (a conversation probe, T22c: asked)
    if was.deadline is None:
        return False
    only = md.time_only(text, now)
    if only is None:
        return False
    plain = f"{said_plainly(was)} {only}"
    got = understood(plain, 1.0)
    return isinstance(got, intent.Draft) and got.objective.deadline == was.deadline


__all__ = ["handed_on", "restated", "settled"]
