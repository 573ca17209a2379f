"""What people type after an order that is no part of its thing: a
sign-off ("thx", "cheers mate", "x", "k thanks bye"), a tag ("innit",
"yeah?", "ok?", the West African "o" and "sha") and a remark that starts a
sentence of its own without a comma ("…the dog that'd be great", "…the
tap its been dripping all night", "…the tap it keeps dripping"). A typed
probe (2026-12-06, the fifth) found each left in the thing ("Gate thx",
"Dog that'd be great", "Tap its been driping all nite"). Pure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from vac.intent.lexicon import Tok, words

# Said last, alone or in a row: never the thing's last word.
_SIGN_OFF: Final = frozenset(
    words("thanks thank thx thnx ty ta cheers x xx xxx o sha innit yeah yea ok okay k kk bye")
    + words("lol please pls plz tnx tanx")
)
# Said after a sign-off: whom it thanks ("cheers mate", "thank you", "ta love").
_TO_WHOM: Final = frozenset(words("mate love dear babe hun bro sis boss pal you u"))
# A remark's first words: "that'd be great", "its been dripping", "it keeps…".
_REMARK_STARTS: Final = (
    ("that'd", "be"),
    ("that", "would", "be"),
    ("that", "will", "be"),
    ("that'll", "be"),
    ("it's", "been"),
    ("its", "been"),
    ("it", "keeps"),
    ("it", "has", "been"),
    ("it", "was"),
    ("it's", "getting"),
    ("its", "getting"),
)


def without_sign_off(words_said: Sequence[Tok]) -> Sequence[Tok]:
    """The thing's words without a sign-off or tag said after them; at
    least one word stays ("help my mate" keeps "mate": no sign-off before it)."""
    out = list(words_said)
    while len(out) > 1:
        last, before = out[-1].low, out[-2].low
        if last in _TO_WHOM and before in _SIGN_OFF and len(out) > 2:
            out = out[:-2]
        elif last in _SIGN_OFF:
            out = out[:-1]
        else:
            break
    return out


def remark_at(clause: Sequence[Tok], j: int) -> bool:
    """Whether a remark of its own starts at `j` ("…the dog | that'd be great")."""
    lows = [t.low for t in clause[j : j + 3]]
    return any(tuple(lows[: len(start)]) == start for start in _REMARK_STARTS)
