"""The full-screen view of `vac talk`: pure state in, exactly `rows` lines out.

Layout (80×24 shown; wider or taller terminals give the log more room):

    vac talk · alice · hands-free · listening              <- status line
    +- draft -------------------------------------------+  <- the pending draft
    | Kofi · Build · Bench                               |     as a card (or a
    | by 2026-12-03 · priority 55 · brief                |     one-line "no draft")
    | not: lie to visitors                               |
    | "Kofi will build a bench by tomorrow — confirm?"   |
    +- [y] confirm  [n] reject  [e] edit  or say yes/no -+
    you: ask Kofi to build a bench by tomorrow             <- the log: what was
    accept: I'll build a bench by tomorrow.                   said, answered and
    update: Kofi · in-progress                                updated, newest last
    … build a bench by tomo                                <- the live partial
    mic [#########.............]  -31 dBFS                 <- the level meter
    [space] talk  [y/n] confirm/reject  [e] edit  [t] type  [q] quit

Every line is cut to the width and padded, so a redraw overwrites the old
screen completely; nothing here knows about terminals or escapes. Daemon
text reaches this module already escaped (`text_safety.escape_for_terminal`).
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field
from typing import Final

from vac.protocol.objective import Objective

LOG_LINES_KEPT: Final = 200
METER_CELLS: Final = 30
METER_FLOOR_DBFS: Final = -60.0
DEFAULT_LINE: Final = "Respect the agent's autonomy"
KEYS_PTT: Final = "[space] talk/send  [y/n] confirm/reject  [e] edit  [t] type  [q] quit"
KEYS_HANDS_FREE: Final = "just speak  [y/n] confirm/reject  [e] edit  [t] type  [q] quit"


@dataclass(frozen=True)
class Card:
    """A pending draft as the card shows it."""

    objective: Objective
    summary: str
    uncertain: tuple[str, ...] = ()


@dataclass
class ScreenState:
    principal: str = ""
    hands_free: bool = False
    status: str = "connecting"
    partial: str = ""
    card: Card | None = None
    level_rms: float = 0.0
    prompt: str | None = None  # the line being typed, after its label
    prompt_label: str = ""
    log: deque[str] = field(default_factory=lambda: deque(maxlen=LOG_LINES_KEPT))

    def add(self, line: str) -> None:
        self.log.append(line)


def dbfs(rms: float) -> float:
    return 20 * math.log10(rms / 32768) if rms > 0 else METER_FLOOR_DBFS


def meter(rms: float, cells: int = METER_CELLS) -> str:
    level = max(METER_FLOOR_DBFS, dbfs(rms))
    filled = round(cells * (level - METER_FLOOR_DBFS) / -METER_FLOOR_DBFS)
    return f"mic [{'#' * filled}{'.' * (cells - filled)}] {level:4.0f} dBFS"


def card_lines(card: Card | None, width: int) -> list[str]:
    if card is None:
        return ["(no draft pending — say or type what should be done)"]
    obj = card.objective
    flags = set(card.uncertain)

    def mark(name: str, text: str) -> str:
        return f"{text}?" if name in flags else text

    head = " · ".join(
        (mark("agent", obj.agent), mark("verb", obj.verb), mark("target", obj.target.label))
    )
    when = mark("deadline", f"by {obj.deadline}" if obj.deadline else "no deadline")
    limits = [line.text for line in obj.forbidden_lines if line.text != DEFAULT_LINE]
    body = [
        head,
        f"{when} · priority {obj.priority} · {obj.autonomy}",
        "not: " + "; ".join(limits) if limits else "no boundaries beyond autonomy",
        f'"{card.summary}"',
    ]
    inner = width - 4
    top = _rule("+- draft ", width)
    bottom = _rule("+- [y] confirm  [n] reject  [e] edit  or say yes / no ", width)
    return [top, *(f"| {_fit(line, inner)} |" for line in body), bottom]


def render(state: ScreenState, cols: int = 80, rows: int = 24) -> list[str]:
    """The whole screen: `rows` lines, each exactly `cols` characters."""
    cols, rows = max(cols, 40), max(rows, 12)
    mode = "hands-free" if state.hands_free else "push-to-talk"
    status = f"vac talk · {state.principal or '…'} · {mode} · {state.status}"
    top = [status, *card_lines(state.card, cols)]
    if state.prompt is not None:
        bottom_last = f"{state.prompt_label}{state.prompt}_"
    else:
        bottom_last = KEYS_HANDS_FREE if state.hands_free else KEYS_PTT
    bottom = [f"… {state.partial}" if state.partial else "", meter(state.level_rms), bottom_last]
    room = rows - len(top) - len(bottom)
    log = list(state.log)[-room:] if room > 0 else []
    log = [""] * (room - len(log)) + log
    return [_fit(line, cols) for line in (*top, *log, *bottom)]


def _fit(line: str, width: int) -> str:
    line = line.replace("\n", " ").replace("\r", " ")
    if len(line) > width:
        return line[: width - 1] + "…"
    return line.ljust(width)


def _rule(label: str, width: int) -> str:
    return (label + "-" * width)[: width - 1] + "+"
