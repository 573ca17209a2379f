"""An order said after the one person who should not do it: "not Tariq, fix
the gate", "not you Tariq — fix the gate", "not Kofi — check the coffee
machine".

The name said first was read as the address, and the order drafted for the
very agent the steward ruled out (a conversation probe, T26c: "Tariq will
repair the gate — confirm?"). When nobody else is named, vac asks who, with
the others as candidates; the answer takes the place of the words that
ruled them out (`runtime.choices`). "Not Tariq, Kofi, fix the gate" names
its agent and is read as before. Pure: text in.
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


def question(name: str) -> str:
    return f"Who should do it, if not {name}?"


__all__ = ["RuledOut", "question", "ruled_out"]
