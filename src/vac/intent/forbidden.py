"""The boundaries the steward drew (`bans.forbidden_spans`), worded as the
objective's forbidden lines."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from vac.intent import bans
from vac.intent import lexicon as lx
from vac.intent.budget import AFTER_AMOUNT, BUDGET
from vac.intent.inflect import NO_DEED, WRITTEN_AS_SAID
from vac.intent.lexicon import Tok
from vac.intent.place import truncate
from vac.protocol.objective import ForbiddenLine

_TEXT_MAX: Final = 200
_LINES_MAX: Final = 24
DEFAULT_FORBIDDEN_LINE: Final = ForbiddenLine(
    "Respect the agent's autonomy", "forbidden-line:respect-agent-autonomy"
)


def forbidden_lines(clause: Sequence[Tok], spans: Sequence[bans.Span]) -> list[ForbiddenLine]:
    """The steward's boundaries as the objective's forbidden lines, worded
    as said ("Avoid lying to visitors", "No power tools", "Stay off the
    roof"), each with the value it protects; none said: respect the agent's
    autonomy."""
    lines: list[ForbiddenLine] = []
    seen: set[str] = set()
    for span in spans:
        body = clause[span.body_start : span.end]
        first = body[0].low
        gerund = first.endswith("ing") or first in ("lying", "dying", "tying")
        rest = " ".join(t.text for t in body[1:])
        if span.marker == BUDGET:  # "…, max budget £150"
            amount_toks = [t for t in body if t.low not in AFTER_AMOUNT]
            # "£1,500" as written: its tokens with no space between them
            amount = "".join(
                ("" if k and amount_toks[k - 1].end == t.start else " ") + t.text
                for k, t in enumerate(amount_toks)
            )
            text = f"Spend no more than {amount.strip()}"
        elif span.marker in (("without",), ("avoid",)) and not gerund:
            text = f"Avoid {' '.join(t.text for t in body)}"
        elif span.marker == (NO_DEED,) and not gerund:  # "…, no power tools"
            text = f"No {' '.join(t.text for t in body)}"
        elif span.marker == ("but", "not"):  # "…, but not in the rain"
            text = f"Not {' '.join(t.text for t in body)}"
        elif " ".join(span.marker) in WRITTEN_AS_SAID:  # "Stay off the roof"
            # "(keep your) hands off the car": "Keep hands off the car" (a read-back verb)
            marker = (
                ("keep", "hands", "off") if span.marker[-2:] == ("hands", "off") else span.marker
            )
            said = " ".join((*marker, *(t.text for t in body)))
            text = said[:1].upper() + said[1:]
        else:
            text = f"Do not {lx.base_form(first)} {rest}".rstrip()
        text = truncate(text, _TEXT_MAX)
        key = text.lower()
        if key in seen or len(lines) >= _LINES_MAX:
            continue
        seen.add(key)
        value = lx.value_of_words([t.low for t in body] + [lx.base_form(first)]) or "respect"
        lines.append(ForbiddenLine(text, f"value:{value}"))
    return lines or [DEFAULT_FORBIDDEN_LINE]


__all__ = ["DEFAULT_FORBIDDEN_LINE", "forbidden_lines"]
