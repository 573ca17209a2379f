"""A name's "'s" that says "is": "Zuri's free tonight, so she can look
after the baby", "Tariq's back. Let him check the roof". A blind probe
(T30) found both drafted for the default agent: "Zuri's" was read as whose
something is, so "she" and "him" pointed at no one. Only before a word
that says where someone is or how they are ("free", "back", "home",
"busy", "around"…), never before a thing ("Kofi's bike"). The token is
split in two, the name and "is"; their offsets still point into the words
said. Pure: tokens in, tokens out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from vac.intent.tokens import Tok

_STATES: Final = frozenset(
    re.findall(
        r"\w+",
        "free back home here there around about available busy off away out awake asleep finished "
        "coming going working sick ill fine ok okay better still already always never not",
    )
)


_THINGS_TOO: Final = frozenset(
    re.findall(r"\w+", "back home off out sick ill fine better working free ok okay")
)
_AFTER_A_STATE: Final = frozenset(
    re.findall(r"\w+", "so and now today tonight tomorrow again at from for until till this next")
) | {"", ".", ",", "!", "?", ";", ":"}


def is_said(toks: Sequence[Tok]) -> list[Tok]:
    out: list[Tok] = []
    for k, tok in enumerate(toks):
        after = toks[k + 1].low if k + 1 < len(toks) else ""
        named = tok.text[:1].isupper() and tok.low.endswith("'s") and len(tok.low) > 3
        then = toks[k + 2].low if k + 2 < len(toks) else ""
        # "back", "home", "off"… may be a thing's ("Kofi's back gate", "Kofi's back needs…")
        if named and after in _STATES and (after not in _THINGS_TOO or then in _AFTER_A_STATE):
            cut = tok.end - 2
            out += [
                Tok(tok.text[:-2], tok.low[:-2], tok.start, cut),
                Tok(tok.text[-2:], "is", cut, tok.end),
            ]
        else:
            out.append(tok)
    return out


__all__ = ["is_said"]
