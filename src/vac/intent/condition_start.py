"""When a standing order starts: "from next week", "starting Monday", "as
of the 1st", "from tomorrow onwards" (`conditions`). Kept as said, no
deadline (a ninth typed probe: "from next week, check the post every day"
was due by the end of next week). Pure: tokens in, where the words end out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from vac.intent import calendar_words as cw
from vac.intent.lexicon import PUNCT, Tok, phrases, words
from vac.intent.when_match import word_at

STARTS: Final = phrases(
    ["from", "starting", "starting from", "beginning", "beginning from", "as of", "as from"]
)
_START_TIMES: Final = frozenset(
    words("""next this the week weekend month year tomorrow today tonight january february
    march april may june july august september october november december""")
) | frozenset(cw.WEEKDAYS)
_REPEAT_WORDS: Final = frozenset(
    words("day days night nights morning mornings evening evenings week weekend month daily")
)
_REPEATS: Final = frozenset(words("every each daily nightly weekly monthly always onwards"))
_SPAN_ENDS: Final = frozenset(words("until till til to through thru and"))
_NTH: Final = re.compile(r"\d{1,2}(?:st|nd|rd|th)$")  # "as of the 1st"


def start_end(toks: Sequence[Tok], i: int, width: int) -> int:
    """Where "from next week", "starting Monday"… at `i` ends, or 0: when a
    standing order starts, no deadline (a ninth typed probe: "from next
    week, check the post every day" was due by the end of next week). Only
    first in its part or after a repeat's word ("every day from Monday";
    not "the parcel from Monday"); no span ("from Monday to Friday": due
    Friday, `when`)."""
    onwards = any(t.low == "onwards" for t in toks[i + width : i + width + 5])
    if word_at(toks, i - 1) not in PUNCT | _REPEAT_WORDS | {""} and not onwards:
        return 0  # "the car not starting this morning" (a review: "Car not")
    if not any(t.low in _REPEATS for t in toks):
        return 0  # a one-off "from next week" is due then (a review: "at night" was tonight)
    k = end = i + width
    while (word_at(toks, end) in _START_TIMES or _NTH.match(word_at(toks, end))) and end - k < 3:
        end += 1
    said = [t.low for t in toks[k:end]]
    if not said or set(said) <= {"next", "this", "the"}:
        return 0
    end += word_at(toks, end) == "onwards"  # "from tomorrow onwards" (a typed probe: a one-off)
    return 0 if word_at(toks, end) in _SPAN_ENDS else end
