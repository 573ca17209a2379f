""" "make" said of how a thing or someone should end up, not of building
it: "make the new kid feel welcome" (Befriend), "make the gate secure"
(Protect), "make the pump work again" (Repair), "make the gate urgent" (no
verb: how important, still read as the priority). A typed probe (T22) and
a conversation probe (T22c) found each a Build ("Kofi will build new kid
feel welcome", "…build the gate", urgent). Pure: tokens in, tokens out,
"make" read as the verb meant (or as no verb), and the words of the state
dropped as a hesitation is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

_DETERMINERS: Final = frozenset(
    {"the", "a", "an", "my", "our", "your", "his", "her", "their", "this", "that", "these"}
    | {"those", "it", "them", "him", "her", "me", "us", "everyone", "everybody"}
)
_STOPS: Final = frozenset({".", ",", ";", ":", "!", "?", "and", "but", "then", "by", "before"})


class _State(NamedTuple):
    words: tuple[str, ...]
    verb: str  # the cue the "make" stands for; "" for none (how important)


# Longest first: "feel at home" before "feel".
_STATES: Final = tuple(
    sorted(
        [
            *(
                _State(("feel", *w.split()), "befriend")
                for w in ("welcome", "at home", "wanted", "comfortable", "loved")
            ),
            _State(("welcome",), "befriend"),
            _State(("at", "home"), "befriend"),
            _State(("feel", "safe"), "protect"),
            _State(("safe",), "protect"),
            _State(("secure",), "protect"),
            _State(("work",), "fix"),
            _State(("work", "again"), "fix"),
            _State(("urgent",), ""),
            _State(("a", "priority"), ""),
            _State(("a", "top", "priority"), ""),
            _State(("high", "priority"), ""),
            _State(("top", "priority"), ""),
            _State(("a", "high", "priority"), ""),
            _State(("low", "priority"), ""),
            _State(("a", "low", "priority"), ""),
        ],
        key=lambda s: -len(s.words),
    )
)
# Idioms of "make" that build nothing: "make head nor tail of it", "make a fuss of the cat".
_IDIOMS: Final = (("head", "nor"), ("head", "or"), ("sense", "of"), ("a", "fuss"), ("do",))
# What may follow the state: "make the gate secure tonight", "…safe for the kids".
_THEN: Final = frozenset(
    {"please", "again", "now", "tonight", "today", "tomorrow", "for", "from", "against", "asap"}
    | {"first", "soon", "this", "next", "on", "at", "while", "when", "if", "in", "as"}
)
# After "work": only the end ("make the pump work again"; not "make the
# kids work in the garden": a review read it "repair the kids").
_WORKS_THEN: Final = frozenset({"please", "again", "now", "properly", "today", "tonight"})
_FAMILY: Final = frozenset(
    {"grandma", "grandpa", "granny", "gran", "nan", "nana", "mum", "mom", "dad", "auntie"}
    | {"uncle", "everyone", "everybody"}
)
_REACH: Final = 5  # words of the thing between "make" and its state


def made_as_meant(lows: Sequence[str], texts: Sequence[str]) -> dict[int, str]:
    """Each "make" of a state read as the verb meant: the words (`lows`, and
    as written, `texts`) to read anew, by index."""
    out: dict[int, str] = {}
    for k, low in enumerate(lows):
        if low != "make":
            continue
        after = list(lows[k + 1 : k + 1 + _REACH + 3])
        if any(tuple(after[: len(i)]) == i for i in _IDIOMS):
            out[k] = "make-idiom"  # no verb of ours
            continue
        named = after and (after[0] in _DETERMINERS | _FAMILY or texts[k + 1][:1].isupper())
        if not named:
            continue
        for j in range(1, min(_REACH, len(after))):
            if after[j] in _STOPS or after[j - 1] in ("a", "an"):
                break  # "make a safe for the jewellery", "make us a safe": a thing made
            state = next(
                (s for s in _STATES if tuple(after[j : j + len(s.words)]) == s.words), None
            )
            if state is None:
                continue
            ends = j + len(state.words)
            then = _STOPS | (_THEN if state.verb != "fix" else _WORKS_THEN)
            if ends < len(after) and after[ends] not in then:
                break  # "…secure enough for…", "make the kids work in the garden": as said
            out[k] = state.verb or "make-how"
            for m in range(k + 1 + j, k + 1 + ends) if state.verb else ():
                out[m] = "uh"  # how important stays said ("urgent")
            break
    return out


__all__ = ["made_as_meant"]
