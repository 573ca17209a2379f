"""What "it" or "her" mean when a statement before them brought the
thing or the person in (`it_means.with_antecedent` asks, for a command left
with no target):

- "there's a leak in the bathroom, can you fix it?": a leak in the bathroom;
- "Grandma's lonely, could you visit her?", "Grandma is poorly, help her":
  Grandma (a capitalised name said with how they are).

Pure: word spans in (as `passive.spans_of` gives them), the words meant and
the pronouns that may stand for them out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from vac.intent.lexicon import words
from vac.intent.particles import KIN

_Span = tuple[int, int, str]

_THERE_IS: Final = frozenset({("there's",), ("there", "is"), ("there", "are"), ("there're",)})
_INDEFINITE: Final = frozenset(words("a an some this"))  # "there's this weird smell…"
_THING_WORDS_MAX: Final = 7
# How someone is, said after their name: "Grandma's lonely", "Dad is ill".
_HOW: Final = frozenset(
    words("""lonely sad ill sick poorly unwell upset bored alone tired struggling stressed
    down low scared worried nervous new back home visiting coming arriving stuck busy hurt""")
)
_IS: Final = frozenset(words("is seems looks feels's"))
THING_PRONOUNS: Final = frozenset(words("it them"))
PERSON_PRONOUNS: Final = frozenset(words("her him them"))


def _apart(text: str, left: _Span, right: _Span) -> bool:
    return bool(text[left[1] : right[0]].strip(" "))


def _thing_from(text: str, spans: Sequence[_Span], k: int) -> tuple[str, int] | None:
    """ "a leak in the bathroom" from `k` (an indefinite) to the next break."""
    if k >= len(spans) or spans[k][2] not in _INDEFINITE:
        return None
    end = k
    while end + 1 < len(spans) and end - k < _THING_WORDS_MAX:
        if _apart(text, spans[end], spans[end + 1]):
            break
        end += 1
    if end == k or (end + 1 < len(spans) and not _apart(text, spans[end], spans[end + 1])):
        return None  # nothing after "a", or no break after the thing
    return text[spans[k][0] : spans[end][1]], spans[end][1]


class Introduced(NamedTuple):
    thing: str  # as said after the verb: "a leak in the bathroom", "Grandma"
    pronouns: frozenset[str]  # the words that may mean it
    end: int  # where the statement's words end (an offset into the text)


def introduced(text: str, spans: Sequence[_Span], i: int) -> Introduced | None:
    """The thing or person a statement at word `i` brings in; None when no
    such statement starts there."""
    if _in_condition(text, spans, i):  # "if Gran calls, go and visit her" (a probe: asked whom)
        k = i
        while k + 1 < len(spans) and not _apart(text, spans[k], spans[k + 1]):
            k += 1
        return Introduced(text[spans[i][0] : spans[i][1]], PERSON_PRONOUNS, spans[k][1])
    if i and not _apart(text, spans[i - 1], spans[i]):
        return None  # a statement of its own: after a break or first
    two = tuple(s[2] for s in spans[i : i + 2])
    for there in (two[:1], two):
        if there in _THERE_IS:
            found = _thing_from(text, spans, i + len(there))
            return None if found is None else Introduced(found[0], THING_PRONOUNS, found[1])
    start = spans[i][0]
    if (
        i + 2 < len(spans)
        and text[spans[i + 1][0]].isupper()
        and not _apart(text, spans[i], spans[i + 1])
    ):
        i += 1  # "Auntie Bisi is in hospital": a name of two words
    _s, end, word = spans[i]
    name = word.removesuffix("'s")
    called = text[start].isupper() or name in KIN  # "grandma's feeling low" (a typed probe)
    if not called or name == "i" or i + 1 >= len(spans):
        return None
    how = spans[i + 1][2]
    felt = how in ("feeling", "looking") and i + 2 < len(spans)
    how = spans[i + 1 + felt][2]  # "Grandma's feeling low"
    said_is = name != word or how in _IS
    at = i + 1 + (name == word) + felt
    state = spans[at][2] if at < len(spans) else ""
    if state in ("in", "at") and at + 1 < len(spans) and spans[at + 1][2] in _WHERE_ONE_IS:
        at += 1  # "Grandma's in hospital" (a ninth typed probe: asked whom to visit)
        state = "in"
    if said_is and (how in _HOW or state in _HOW or state == "in"):
        said = text[start : end - (len(word) - len(name))]
        return Introduced(said, PERSON_PRONOUNS, spans[at][1])
    return None


_WHERE_ONE_IS: Final = frozenset(words("hospital bed home hosp"))


# A condition's subject, a person by name: "if Gran calls", "when Auntie comes".
_CONDITIONS: Final = frozenset(words("if when once unless until till after"))
_EVENTS: Final = frozenset(words("calls rings comes arrives visits phones texts gets wakes"))


def _in_condition(text: str, spans: Sequence[_Span], i: int) -> bool:
    """Whether word `i` is a name that a condition is about ("if Gran calls")."""
    if not 0 < i < len(spans) - 1 or spans[i - 1][2] not in _CONDITIONS:
        return False
    return text[spans[i][0]].isupper() and spans[i][2] != "i" and spans[i + 1][2] in _EVENTS
