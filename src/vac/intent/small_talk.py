"""Small talk before the order's own sentence.

- A day said in a story of the past is not the deadline: "I saw your sister
  on Monday. Fix the gate" (a typed probe, T28, found "…by Monday": next
  Monday). Only a sentence told in the past, holding no need or deadline
  of its own ("The deadline is Friday.", "It has to be done by Friday."),
  and an order that does not point back to it ("…, fix the gate then",
  "…before he arrives": a review) — `order_said_after`.
- An order after a greeting to a name, or a question of small talk ending
  with one, is theirs: "Morning Kofi! Hope you slept well. Could you check
  the boiler?", "How's your back, Kofi? Could you map the field?" (T28:
  asked who, or taken for a question) — `greeted_first`. Only the name
  greeted, with no other name after it, no "instead", and small talk
  between that says no time and no ban ("Hi! Kofi is busy. Could you…",
  "Where's Kofi? Could you…", "Hi Kofi! Do it by Friday. …": a review).

Pure: text in.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from vac.intent import calendar_words as cw
from vac.intent import lexicon as lx
from vac.intent.when_match import past_form

_SENTENCES: Final = re.compile(r"(?<=[.?!])\s+")
# A sentence that says a need or a deadline, or the order pointing back to one.
_NEEDS: Final = frozenset(
    lx.words("""deadline need needs needed must has have got by before until till latest
    later than due ready in time will 'll going gonna""")
)
_BACK: Final = frozenset(lx.words("then before in time that day for it while after by"))
# Small talk that says when or forbids: not to be dropped.
_SAYS_WHEN: Final = _NEEDS | frozenset(
    (*cw.WEEKDAYS, *lx.words("today tonight tomorrow don't not never no"))
)
_WAS: Final = frozenset(lx.words("was wasn't were weren't did didn't had hadn't"))
_GREETING: Final = re.compile(  # "Morning Kofi!", "Hi Tariq, how was your weekend?"
    r"^\W*(?:(?:good\s+)?(?:morning|afternoon|evening)|hi|hello|hey|hiya|howdy)\W+"
    r"(?P<name>[A-Za-z]+)(?:\W*$|\s*,\s*[^.!?]*\?$)",
    re.IGNORECASE,
)
_ASKED_OF: Final = re.compile(r",\s*(?P<name>[A-Za-z]+)\s*\?$")


def _order_at(parts: list[str]) -> int | None:
    return next(
        (k for k, p in enumerate(parts) if lx.find_first(lx.tokenize(p), lx.VERB_PHRASES)), None
    )


def _words(part: str) -> list[str]:
    return [t.low for t in lx.tokenize(part) if t.low not in lx.PUNCT]


def order_said_after(text: str, names: Iterable[str], *, past: bool = True) -> str | None:
    """`text` with a story of the past before the order's sentence reduced
    to the roster names it holds, or None. `past` False: any small talk that
    says no need ("lovely weather today, isn't it? Please fix the gate
    tomorrow": the order's own time, read alone, wins)."""
    parts = _SENTENCES.split(text.strip())
    order = _order_at(parts)
    if not order:
        return None
    spelled = {n.lower(): n for n in names}
    kept: list[str] = []
    for part in parts[:order]:
        words = _words(part)
        told = not past or any(past_form(w) or w in _WAS for w in words)
        if not told or set(words) & _NEEDS:
            return None  # "The deadline is Friday.", "The party's on Saturday."
        kept += [spelled[w] for w in words if w in spelled]
    if set(_words(" ".join(parts[order:]))) & _BACK:
        return None  # "…, fix the gate then", "…before he arrives"
    said = " ".join(parts[order:])
    return f"{', '.join(dict.fromkeys(kept))}, {said}" if kept else said


def greeted_first(text: str, names: Iterable[str]) -> str | None:
    """The order said to the one greeted first ("Kofi, could you check the
    boiler?"), or None."""
    parts = _SENTENCES.split(text.strip())
    order = _order_at(parts)
    if not order:
        return None
    spelled = {n.lower(): n for n in names}
    hello = _GREETING.match(parts[0]) or _ASKED_OF.search(parts[0])
    name = spelled.get(hello.group("name").lower()) if hello is not None else None
    if name is None or sum(w in spelled for w in _words(parts[0])) != 1:
        return None
    between = [w for p in parts[:order] for w in _words(p) if w != name.lower()]
    if set(between) & (_SAYS_WHEN | set(spelled)) or any(w[:1].isdigit() for w in between):
        return None  # "Hi Kofi! Do it by Friday. …", "Hi! Kofi is busy. …"
    rest = _words(" ".join(parts[order:]))
    if set(rest) & set(spelled) or "instead" in rest:
        return None  # "Morning Kofi! Could Tariq fix the gate?"
    return f"{name}, {' '.join(parts[order:])}"


__all__ = ["greeted_first", "order_said_after"]
