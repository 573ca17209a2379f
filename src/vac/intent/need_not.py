"""What a sentence says need not be: "it doesn't need to be done right
away", "no need to fix it today", "it needn't be asap". A typed probe
(2026-12-06) found the haste after them read as urgent, the day as the
deadline and "don't have to…" as a boundary.

`need_not_at(clause, at)`: where such words start before word `at` in the
same part of the sentence (never across punctuation: "you don't have to
ask me, do it right away" asks for speed).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from vac.intent.lexicon import PUNCT, Tok, phrase_at, phrases

NEED_NOT: Final = phrases(
    [
        *(
            f"{neg} {need}"
            for neg in ("don't", "doesn't", "do not", "does not", "no")
            for need in ("need to", "have to", "need")
        ),
        "needn't",
        "not necessary",
        "isn't necessary",
    ]
)
# How far back the words may stand: "it doesn't need to be done | right away".
_SPAN_TOKENS: Final = 8


# Between those words and the time or haste, only these: "it doesn't need to
# be done | today", "no need to do it | immediately"; not "no need to wait,
# do it urgently" said without its comma (a review: it was no rush).
_BETWEEN: Final = frozenset(
    {"be", "been", "done", "do", "it", "that", "this", "finished", "fixed", "sorted"}
    | {"happen", "get", "got", "go", "started", "ready", "quite", "so", "all"}
)


def need_not_at(clause: Sequence[Tok], at: int) -> int | None:
    """Where the words that say word `at` need not be start, or None."""
    for k in range(at - 1, max(at - _SPAN_TOKENS, -1), -1):
        if clause[k].low in PUNCT:
            return None
        said = phrase_at(clause, k, NEED_NOT)
        if said is not None:
            between = {t.low for t in clause[k + len(said) : at]}
            return k if between <= _BETWEEN else None
    return None


__all__ = ["NEED_NOT", "need_not_at"]
