"""The words that make what follows them a deadline ("by", "before", "due
on", "ahead of"…), how strongly, and what is still today after "after".
Read by `when.resolve`; kept apart so the scan stays one concern."""

from __future__ import annotations

from typing import Final

from vac.intent.lexicon import phrases
from vac.intent.when_said import AFTER_TODAY

# How strongly a cue makes what follows a deadline:
# - "strong": whatever follows is a time ("before the harvest");
# - "by": only when what follows looks like a time ("by the harvest", "by
#   Fooday", "by the thirty-second"), because "by the pond" is a place and
#   "by hand" a manner, and neither may become a question;
# - "on": only a day name or an ordinal ("on the thirty-second"): "report
#   on the harvest" is a report;
# - "at": never asks ("at the harvest" is an event or a place).
CUE_KINDS: Final[dict[str, str]] = {
    "by": "by",
    "till": "by",  # also a noun ("the till drawer")
    "til": "by",
    "before": "strong",
    # "ahead of Friday": before it (a typed probe: left in the thing); only
    # before words about time ("the path ahead of us" is a place: a review).
    "ahead of": "by",
    "in advance of": "by",
    # "during the holidays": asked like "by" ("during the storm", "during
    # the day" are not); "during the weekend" has its own matcher.
    "during": "by",
    "until": "strong",
    "due": "strong",
    "due by": "strong",
    "due on": "strong",
    "no later than": "strong",
    "not later than": "strong",
    "on": "on",
    "at": "at",
    # "around noon", "at about 4" (the time); "around Easter" is asked about
    # and "around the garden" is a place.
    "around": "around",
    "round about": "around",
    "around about": "around",
    "at around": "at",
    "at about": "at",
    "by around": "by",
    "in time for": "strong",  # "in time for the weekend"; "…the party" asked (both dropped)
    "by about": "by",
    # "after lunch" is today (`AFTER_TODAY_WORDS`); "after Friday" says when to
    # start, not when it is due: asked, as "by" asks.
    "after": "after",
    # "for Christmas", "for Friday": that day, read as if said alone (never
    # a bare hour: "a table for 3" is a count).
    "for": "for",
}
# After these it is still today: "fix the gate after lunch".
AFTER_TODAY_WORDS: Final = frozenset(
    {"noon", "midday", "lunch", "lunchtime", "dinner", "dinnertime", "supper", "sunset", "dusk"}
    | {"nightfall", "dark", "breakfast"}
    | AFTER_TODAY
)
CUES: Final = phrases(CUE_KINDS)
