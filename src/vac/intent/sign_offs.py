"""What people type after an order that is no part of its thing: a
sign-off ("thx", "cheers mate", "x", "k thanks bye"), a tag ("innit",
"yeah?", "ok?", the West African "o" and "sha") and a remark that starts a
sentence of its own without a comma ("…the dog that'd be great", "…the
tap its been dripping all night"). A typed
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
    + words("na")  # Indian and Nigerian English: "check it na" (a ninth typed probe: "It na")
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
    ("it", "has", "been"),
    ("it's", "getting"),
    ("its", "getting"),
)
# A thing a remark may follow starts with one of these ("the dog", "my tap"),
# never a question word ("look into why it's been tripping": a review found
# "Why" the thing) nor a pronoun ("fix the one it…").
_THING_STARTS: Final = frozenset(words("the a an my our your his her their this that these those"))


def without_sign_off(words_said: Sequence[Tok]) -> Sequence[Tok]:
    """The thing's words without a sign-off or tag said after them. Never
    all that names the thing ("help my mate" keeps "mate": no sign-off
    before it; "build a thank you" keeps its words), nor a letter written
    as a name ("sector X", "Project K"), nor what a sign says ("a sign that
    says bye"): a review found each cut."""
    out = list(words_said)
    while len(out) > 1:
        last, before = out[-1], out[-2].low
        if before in _SAYS:
            break
        if last.low in _TO_WHOM and before in _SIGN_OFF and len(out) > 2:
            out = out[:-2]
        elif last.low in _SIGN_OFF and (len(last.low) > 2 or last.text == last.low):
            out = out[:-1]
        else:
            break
    if all(t.low in _DETERMINERS for t in out):
        return words_said
    return out


_SAYS: Final = frozenset(words("says say saying said reads read reading"))
_DETERMINERS: Final = frozenset(words("the a an my our your his her their this that some"))


def remark_at(clause: Sequence[Tok], start: int, j: int) -> bool:
    """Whether a remark of its own starts at `j`, after a thing said from
    `start` with its determiner and a word ("…the dog | that'd be great")."""
    if j - start < 2 or clause[start].low not in _THING_STARTS:
        return False
    if any(t.low in _NOT_A_THING for t in clause[start + 1 : j]):
        return False  # "…the one that he said it's been…"
    lows = [t.low for t in clause[j : j + 3]]
    return any(tuple(lows[: len(said)]) == said for said in _REMARK_STARTS)


_NOT_A_THING: Final = frozenset(words("why what how whether if who where when which one ones"))
