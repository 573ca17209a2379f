"""Numbers as speech-to-text writes them, over `lexicon.tokenize` tokens.

Recognisers write the same number as "3", "three", "3rd" or "third", and
"twenty-first" arrives as two tokens ("twenty", "first": the tokenizer drops
the hyphen). `number_at` reads any of these; `spoken_number` goes back to
words for read-backs ("in three days").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final, NamedTuple

from vac.intent.lexicon import Tok, words

_UNITS: Final = words(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen "
    "fourteen fifteen sixteen seventeen eighteen nineteen"
)
_UNIT_ORDINALS: Final = words(
    "zeroth first second third fourth fifth sixth seventh eighth ninth tenth eleventh "
    "twelfth thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth"
)
_TENS: Final = words("twenty thirty forty fifty sixty seventy eighty ninety")
_TEN_ORDINALS: Final = words(
    "twentieth thirtieth fortieth fiftieth sixtieth seventieth eightieth ninetieth"
)
CARDINALS: Final[dict[str, int]] = {
    **{w: n for n, w in enumerate(_UNITS)},
    **{w: 20 + 10 * n for n, w in enumerate(_TENS)},
}
ORDINALS: Final[dict[str, int]] = {
    **{w: n for n, w in enumerate(_UNIT_ORDINALS) if n},
    **{w: 20 + 10 * n for n, w in enumerate(_TEN_ORDINALS)},
}
# "24", "24th", "3rd", "1st" (a wrong suffix such as "3th" is still a 3rd).
_DIGITS_RE: Final = re.compile(r"^(\d{1,3})(st|nd|rd|th)?$")


class Number(NamedTuple):
    value: int
    ordinal: bool  # "third", "3rd" (a day of the month), not "three"
    end: int  # index after its last token


def number_at(toks: Sequence[Tok], i: int) -> Number | None:
    """The number starting at token `i` ("24th", "twenty first", "three")."""
    if i >= len(toks):
        return None
    low = toks[i].low
    digits = _DIGITS_RE.match(low)
    if digits:
        return Number(int(digits.group(1)), digits.group(2) is not None, i + 1)
    if low in _TENS:
        tens = CARDINALS[low]
        nxt = toks[i + 1].low if i + 1 < len(toks) else ""
        if 1 <= CARDINALS.get(nxt, 0) <= 9:  # "twenty one"
            return Number(tens + CARDINALS[nxt], False, i + 2)
        if 1 <= ORDINALS.get(nxt, 0) <= 9:  # "twenty first"
            return Number(tens + ORDINALS[nxt], True, i + 2)
        return Number(tens, False, i + 1)
    if low in CARDINALS:
        return Number(CARDINALS[low], False, i + 1)
    if low in ORDINALS:
        return Number(ORDINALS[low], True, i + 1)
    return None


def spoken_number(n: int) -> str:
    """1 → "one", 21 → "twenty-one"; 100 and over stay digits."""
    if 0 <= n < 20:
        return _UNITS[n]
    if 20 <= n < 100:
        tens, unit = _TENS[n // 10 - 2], n % 10
        return tens if unit == 0 else f"{tens}-{_UNITS[unit]}"
    return str(n)


def ordinal_pair(toks: Sequence[Tok], j: int) -> bool:
    """Whether "and" at `j` joins two ordinals: "the 4th and 5th fence
    panels", "the third and fourth steps" (a typed probe: "4th")."""
    before = number_at(toks, j - 1) if j > 0 else None
    after = number_at(toks, j + 1)
    return bool(before and after and before.ordinal and after.ordinal)
