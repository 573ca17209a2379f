"""What "make sure" says someone else does or does not do.

"Make sure nobody goes in the loft until the floor's fixed", "make sure the
kids don't go in the garage", "make sure the dog doesn't get out": a typed
probe (T26) found them drafted as the default agent's guard of "Nobody
goes" or "Dog doesn't get out", and "…the kids, and won't go in the
garage": the kids' ban put on the agent. No deed of ours is said: vac asks
what to do. Not "make sure you don't wake the baby" (a boundary of the
agent's), nor "make sure the gate is locked" (a state: `intent.describing`).
Pure: words in.
"""

from __future__ import annotations

from typing import Final

from vac.intent.lexicon import words

_NOT_DONE: Final = frozenset(words("don't doesn't won't can't dont doesnt wont cant never"))


def their_deed(lows: list[str]) -> bool:
    """Whether the words after "make sure" (`lows`, a few, in small letters)
    say what someone else does or not ("nobody goes in the loft", "the dog
    doesn't get out"); not "you"."""
    cut = next((k for k, w in enumerate(lows) if not any(c.isalnum() for c in w)), len(lows))
    lows = lows[:cut]  # "make sure the gate is fixed, don't use the ladder": ours (a review)
    if lows[:1] in (["nobody"], ["noone"], ["none"]) or lows[:2] == ["no", "one"]:
        return True
    negated = next((k for k, w in enumerate(lows) if w in _NOT_DONE), None)
    return negated is not None and negated > 0 and "you" not in lows[:negated]


__all__ = ["their_deed"]
