"""A change said haltingly, said once: "no no no, Thursday. Thursday" →
"no, Thursday"; "no. I said... I said Kofi" → "no. I said Kofi"; "no,
Tarqi" → "no, Tariq".

A conversation probe (T27c, elderly and hesitant speakers) found "no no,
Kofi" and "no no no, Thursday" rejecting the draft (the change lost), and
"no, Tarqi", a name typed a letter out, rejecting it too, where "Koif"
first in an order is Kofi. A name read this way is the roster's as the
recogniser's near names are (`intent.address.resolve_span`), and the read-back
says it. Pure: text in.
"""

from __future__ import annotations

import re
from typing import Final

from vac import intent
from vac.intent import calendar_words as cw
from vac.intent.address import resolve_span
from vac.intent.lexicon import tokenize, words

_NOES: Final = re.compile(r"^\W*(?:no+\W+){2,}(?=\w)", re.IGNORECASE)
_NO_NAME: Final = re.compile(r"^(\W*no\W+)([A-Za-z]+)(\W*)$", re.IGNORECASE)
_PAUSES: Final = re.compile(r"\s*(?:\.{2,}|…|\.(?!\d))\s*")  # not "11.11"
_REPEAT_WORDS_MAX: Final = 3


def said_once(text: str, roster: intent.Roster) -> str:
    """`text` with its repeats said once and a near name spelled as the roster does."""
    text = _NOES.sub("no, ", text)
    parts = [p for p in _PAUSES.split(text.strip()) if p]
    said = [_words(p) for p in parts]  # words, not letters: "no. Now" is no repeat (a review)
    kept = [
        p
        for k, p in enumerate(parts)
        if len(said[k]) > _REPEAT_WORDS_MAX
        or not (
            (k + 1 < len(parts) and said[k + 1][: len(said[k])] == said[k])
            or (k > 0 and said[k - 1][-len(said[k]) :] == said[k])
        )
    ]  # "I said... I said Kofi", "no, Thursday. Thursday"
    if len(kept) < len(parts):
        text = ". ".join(kept)
    named = _NO_NAME.match(text)
    if named is not None:
        res = resolve_span(tokenize(named.group(2)), roster)
        if res is not None and res.method != "exact":
            text = f"{named.group(1)}{res.agent}{named.group(3)}"
    return text


_NO_WHO: Final = re.compile(r"^\W*no\W+([A-Z][a-z]+)\W*$")


def unknown_after_no(text: str, roster: intent.Roster) -> str | None:
    """The name no one has said after "no" ("no, Bob"), or None: the draft's
    agent taken back for someone vac cannot send it to is asked about, not
    a no (it rejected the draft). Not a day, a month, or a word of a reply."""
    said = _NO_WHO.match(text)
    if said is None or resolve_span(tokenize(said.group(1)), roster) is not None:
        return None
    word = said.group(1).lower()
    if word in cw.WEEKDAYS or word in cw.MONTHS or intent.classify_reply(word) is not None:
        return None
    return said.group(1) if word not in _NOT_NAMES else None


_NOT_NAMES: Final = frozenset(
    words("thanks thank sorry never nothing way wait stop thats that this it not today tonight now")
)


def _words(part: str) -> list[str]:
    return re.findall(r"[\w']+", part.lower())


__all__ = ["said_once", "unknown_after_no"]
