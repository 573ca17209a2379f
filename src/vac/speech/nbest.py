"""The beam's other hypotheses, kept for the parser to fall back on.

Beam search keeps `beam_size` hypotheses to the end; CTranslate2 hands them
all back for nothing (`num_hypotheses = beam_size`: on the dev half, beam 5
took p50 62 ms with five hypotheses against 64 ms with one). The best is the
transcript. When its words give no command the parser can act on (no verb,
no target, a name no one has), the intent layer tries these, best first
(`vac.intent.alternatives`): "Could you have Tariq passionate roof by
Friday?" has "…Tariq patch the roof by Friday?" one nat behind it.

Only what differs in words is kept: the beam often ends in the same words
punctuated twice ("Help the nurse." / "Help the nurse!"), and a loop is no
hypothesis anyone said.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Final

import msgspec

# Alternatives handed on at most (beam 5 gives four besides the best).
MAX_ALTERNATIVES: Final = 4
_WORD: Final = re.compile(r"[a-z0-9']+")


class Alternative(msgspec.Struct, frozen=True, array_like=True):
    """Another hypothesis of the beam: its text and how far behind the best it is."""

    text: str
    behind: float  # nats of total log-probability below the best hypothesis


def words_of(text: str) -> tuple[str, ...]:
    """The words of `text`, lower-case, without punctuation: what tells hypotheses apart."""
    return tuple(_WORD.findall(text.lower().replace("’", "'")))


def others(
    texts: Sequence[str], totals: Sequence[float], looped: Callable[[str], bool]
) -> tuple[Alternative, ...]:
    """Hypotheses after the first, in the beam's order, each distinct in its
    words from the first and from those before it; loops left out.

    `texts[0]`/`totals[0]` is the best hypothesis; `totals` are total
    log-probabilities (nats).
    """
    if not texts:
        return ()
    seen = {words_of(texts[0])}
    out: list[Alternative] = []
    for text, total in zip(texts[1:], totals[1:], strict=True):
        key = words_of(text)
        if not key or key in seen or looped(text):
            continue
        seen.add(key)
        out.append(Alternative(text.strip(), round(totals[0] - total, 3)))
        if len(out) == MAX_ALTERNATIVES:
            break
    return tuple(out)


__all__ = ["MAX_ALTERNATIVES", "Alternative", "others", "words_of"]
