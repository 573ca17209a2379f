"""Who an order is said to, first, when the words cannot say: after the one
person who should not do it ("not Tariq, fix the gate", "not you Tariq —
fix the gate", "not Kofi — check the coffee machine"), or to a nickname of
a letter ("T, look into the leak", "Big Z, map the creek": `called_short`).

The name said first was read as the address, and the order drafted for the
very agent the steward ruled out (a conversation probe, T26c: "Tariq will
repair the gate — confirm?"). When nobody else is named, vac asks who, with
the others as candidates; the answer takes the place of the words that
ruled them out (`runtime.choices`). "Not Tariq, Kofi, fix the gate" names
its agent and is read as before. A letter said first was no name at all,
and a typed probe (T27) found the order sent to the default agent; it is
asked about as a name no one has ("I don't know anyone called T"), the
answer in its place. Not "I", "A", "O" or "K" ("K, fix the gate": okay).
Pure: text in.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Final, NamedTuple

_NOT_NAME: Final = re.compile(
    r"^\W*(?:no,?\s+)?not\s+(?:you,?\s+)?(?P<name>[A-Za-z]+)\s*(?:[,.;:!]+|\s+[-–—]+)\s*",
    re.IGNORECASE,
)


class RuledOut(NamedTuple):
    name: str  # the roster name as the roster spells it
    said: str  # the words that ruled them out ("not Tariq,")
    rest: str  # the order after them


def ruled_out(text: str, names: Collection[str]) -> RuledOut | None:
    """The agent ruled out before an order that names no one else, or None."""
    found = _NOT_NAME.match(text)
    if found is None:
        return None
    spelled = {n.lower(): n for n in names}
    name = spelled.get(found.group("name").lower())
    rest = text[found.end() :]
    if name is None or not rest.strip():
        return None
    said = {w.lower() for w in re.findall(r"[A-Za-z]+", rest)}
    if said & set(spelled):
        return None  # "not Tariq, Kofi, fix the gate": Kofi's
    return RuledOut(name, text[: found.end()].rstrip(), rest)


_SHORT: Final = re.compile(
    r"^\W*(?P<call>(?:(?:[Bb]ig|[Ll]ittle|[Ll]il|[Oo]ld|[Yy]oung)\s+)?(?P<letter>[A-Z])),\s+\S"
)  # a capital and a comma: not "u, check…" (you), "B: check…" (a list; a review)


def called_short(text: str) -> str | None:
    """The letter (with "Big"…) an order is said to first, or None."""
    found = _SHORT.match(text)
    if found is None or found.group("letter").lower() in ("i", "a", "o", "k"):
        return None
    return found.group("call")


def question(name: str) -> str:
    return f"Who should do it, if not {name}?"


__all__ = ["RuledOut", "called_short", "question", "ruled_out"]
