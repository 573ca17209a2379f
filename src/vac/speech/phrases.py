"""Split a spoken reply into phrases for phrase-level TTS.

Rules, in order:
1. Sentences end at `. ! ? …` (plus closing quotes/brackets) followed by
   whitespace, except after a known abbreviation or a single-letter initial.
2. The first phrase is short so the first audio is ready fast: a first
   sentence longer than `first_max_chars` is cut at its last clause boundary
   (`, ; : — –`, or before a conjunction) that leaves a first phrase within
   `first_max_chars`; failing that, at its first clause boundary; failing
   that, it stays whole (a cut mid-clause sounds wrong).
3. Any phrase longer than `max_chars` is cut at the last clause boundary
   within `max_chars`, else at the last space within it. A single word
   longer than `max_chars` stays whole: a phrase is never cut inside a word.

Cuts happen only at whitespace in the input, so joining the phrases gives the
input back, modulo whitespace.
"""

from __future__ import annotations

import re
from typing import Final

_SENTENCE_END: Final = re.compile(r"[.!?…]+[\"'”’)\]]*(?=\s)")
_CLAUSE_PUNCT_END: Final = re.compile(r"[,;:—–]+[\"'”’)\]]*(?=\s)")
# A clause may also start at a conjunction; the cut goes before the word.
_CONJUNCTION: Final = re.compile(
    r"\s(?=(?:and|but|or|so|because|while|which|when|then|unless|until)\s)", re.IGNORECASE
)
_ABBREVIATIONS: Final = frozenset(
    {"mr", "mrs", "ms", "dr", "st", "vs", "etc", "e.g", "i.e", "no", "approx", "cf", "jr", "sr"}
)
_WORD_BEFORE: Final = re.compile(r"(\S+)$")


def split_phrases(text: str, *, first_max_chars: int = 60, max_chars: int = 200) -> list[str]:
    """Phrases of `text` in order: a short first one, none longer than `max_chars`
    unless a single word is. Whitespace-only input gives no phrases."""
    if first_max_chars < 1 or max_chars < first_max_chars:
        raise ValueError("need 1 <= first_max_chars <= max_chars")
    spans: list[tuple[int, int]] = []
    for start, end in _sentence_spans(text):
        if not spans and end - start > first_max_chars:
            cut = _first_cut(text, start, end, first_max_chars)
            if cut is not None:
                spans.extend(_bounded(text, start, cut, max_chars))
                start = _skip_space(text, cut, end)
        spans.extend(_bounded(text, start, end, max_chars))
    return [text[a:b].strip() for a, b in spans if text[a:b].strip()]


def _sentence_spans(text: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    start = _skip_space(text, 0, len(text))
    for match in _SENTENCE_END.finditer(text):
        end = match.end()
        if end <= start or _is_abbreviation(text, start, match.start(), match.group()):
            continue
        spans.append((start, end))
        start = _skip_space(text, end, len(text))
    end = _trim_end(text, start, len(text))
    if end > start:
        spans.append((start, end))
    return spans


def _is_abbreviation(text: str, start: int, dot_at: int, punct: str) -> bool:
    if punct != ".":
        return False
    word = _WORD_BEFORE.search(text, start, dot_at)
    if word is None:
        return False
    token = word.group(1).lower().lstrip("(\"'“‘")
    return token in _ABBREVIATIONS or (len(token) == 1 and token.isalpha())


def _clause_cuts(text: str, start: int, end: int) -> list[int]:
    """Positions right after a clause boundary, each followed by whitespace."""
    cuts = {m.end() for m in _CLAUSE_PUNCT_END.finditer(text, start, end)}
    cuts.update(m.start() for m in _CONJUNCTION.finditer(text, start, end))
    return sorted(c for c in cuts if start < c < end and text[start:c].strip())


def _first_cut(text: str, start: int, end: int, first_max_chars: int) -> int | None:
    cuts = _clause_cuts(text, start, end)
    if not cuts:
        return None
    within = [c for c in cuts if c - start <= first_max_chars]
    return within[-1] if within else cuts[0]


def _bounded(text: str, start: int, end: int, max_chars: int) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    while end - start > max_chars:
        limit = start + max_chars
        clause = [c for c in _clause_cuts(text, start, end) if c <= limit]
        if clause:
            cut = clause[-1]
        else:
            space = max(
                (i for i in range(limit, start, -1) if text[i].isspace()),
                default=None,
            )
            if space is None:
                # One word longer than max_chars: keep it whole, cut after it.
                space = next((i for i in range(limit, end) if text[i].isspace()), end)
            cut = space
        spans.append((start, cut))
        start = _skip_space(text, cut, end)
    if end > start:
        spans.append((start, end))
    return spans


def _skip_space(text: str, at: int, end: int) -> int:
    while at < end and text[at].isspace():
        at += 1
    return at


def _trim_end(text: str, start: int, end: int) -> int:
    while end > start and text[end - 1].isspace():
        end -= 1
    return end
