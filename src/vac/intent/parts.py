"""The parts of a sentence: its words between two breaks (punctuation, a
dash, a bracket or a quote), by token index."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from vac.intent import lexicon as lx
from vac.intent.lexicon import Tok

_DASHES: Final = ("-", "—", "–", "(", ")", '"')


def part_start(toks: Sequence[Tok], i: int, source: str) -> int:
    """The first index of the part holding toks[i] (after a break)."""
    k = i
    while k > 0 and toks[k - 1].low not in lx.PUNCT and not _dash(toks, k, source):
        k -= 1
    return k


def lead_start(toks: Sequence[Tok], i: int, source: str, lead: frozenset[str]) -> int | None:
    """The start of toks[i]'s part when only `lead` words stand before it
    there, else None (a bounded scan: a 2,000-character text was quadratic)."""
    k = i
    while k > 0 and toks[k - 1].low in lead and not _dash(toks, k, source):
        k -= 1
    return k if k == 0 or toks[k - 1].low in lx.PUNCT or _dash(toks, k, source) else None


def part_end(toks: Sequence[Tok], i: int, source: str) -> int:
    """The index just past the part holding toks[i] (before a break)."""
    k = i + 1
    while k < len(toks) and toks[k].low not in lx.PUNCT and not _dash(toks, k, source):
        k += 1
    return k


def _dash(toks: Sequence[Tok], k: int, source: str) -> bool:
    """Whether a dash, bracket or quote stands right before toks[k]."""
    gap = source[toks[k - 1].end : toks[k].start] if source and k > 0 else ""
    return any(d in gap for d in _DASHES)


def only(toks: Sequence[Tok], start: int, end: int, allowed: frozenset[str]) -> bool:
    return all(toks[k].low in allowed for k in range(start, end))  # no copy: stops at once


__all__ = ["ASKED_ON", "apart_at", "lead_start", "only", "part_end", "part_start"]


# What a name said apart sits between: "Urgent: Kofi, fix the pipe".
_APART: Final = frozenset(",.!?;:")


def apart_at(toks: Sequence[Tok], k: int) -> bool:
    """Whether toks[k] sets a name apart before it: a break, or a "so" right
    before a name and its comma ("…the rabbits keep escaping so Kofi, build…":
    a tenth typed probe, asked who)."""
    low = toks[k].low
    # "…all day, anyway Tariq, keep an eye on them" (a thirteenth typed probe)
    return low in _APART or (low in _LEADS and k + 2 < len(toks) and toks[k + 2].low == ",")


_LEADS: Final = frozenset(("so", "anyway", "now", "and", "but"))
# Between a name said apart further in and the order: "so Imani, maybe pop round…".
ASKED_ON: Final = lx.ASKING_WORDS | frozenset(("maybe", "perhaps", "just", "kindly", "also"))
