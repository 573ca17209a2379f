"""An order said to no one, then the one put forward for it: "Someone should
fix the gate, Kofi probably", "fix the gate, Kofi can do it", "Someone
needs to map the loft, ideally Imani", "Fix the gate, I reckon Tariq is
best for it", "…, and I think Zuri is best placed".

A typed probe (T26) found each sent to the default agent ("(no agent named
— sending to Abeni)") though a name was said for it. The order is read as
said to that name ("Kofi, fix the gate"). Only when the order before names
no one and the words after say nothing but the name and how sure or how
fit they are. Pure: text in.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

_HEDGE: Final = (
    r"(?:probably|ideally|maybe|perhaps|preferably|i\s+think|i\s+reckon|i\s+guess|i'd\s+say)"
)
_FIT: Final = (
    r"(?:(?:is|'s|would\s+be|will\s+be)\s+(?:the\s+)?best(?:\s+(?:placed|person|one|at\s+that"
    r"|at\s+it|for\s+it|for\s+that|for\s+the\s+job))?"
    r"|(?:can|could|should|will|'ll|might|may)\s+do\s+it"
    r"|(?:is|'s)\s+(?:good|great)\s+at\s+(?:that|it|this)"
    # T28: "— Tariq, would you?", "Kofi, that's you", "Zuri, could you?"
    r"|,?\s*(?:would|could|can|will)\s+you(?:\s+please)?\s*\??|,?\s*that'?s\s+you)"
)
_TAIL: Final = re.compile(
    rf"(?:[,;.?!]|\s[-–—])\s*(?:and\s+|but\s+|so\s+)?(?:{_HEDGE},?\s+)?(?:let\s+)?"
    # "…, and it should be Tariq" (T30: the default agent's)
    rf"(?:(?:it|that)\s+(?:should|ought\s+to|has\s+to|must|can|could|would)\s+be\s+)?"
    rf"(?P<name>[A-Za-z]+)"
    rf"(?:\s+do\s+it)?(?:\s*,?\s+{_HEDGE})?(?:\s*{_FIT})?(?:\s*,?\s+{_HEDGE})?\s*[.!]*\s*$",
    re.IGNORECASE,
)
_NO_ONE: Final = re.compile(
    r"^\W*(?:(?:i\s+wish|if\s+only)\s+)?(?:(?:someone|somebody|one\s+of\s+you|anyone|anybody)"
    r"\s+(?:should|needs?\s+to|has\s+to|must|could|would|ought\s+to|will\s+have\s+to|can)\s+)?",
    re.IGNORECASE,
)


def put_forward(text: str, names: Iterable[str]) -> str | None:
    """The order said to the one put forward for it after it ("Kofi, fix the
    gate"), or None."""
    found = _TAIL.search(text)
    if found is None:
        return None
    spelled = {n.lower(): n for n in names}
    name = spelled.get(found.group("name").lower())
    head = text[: found.start()]
    if name is None or any(w.lower() in spelled for w in re.findall(r"[A-Za-z]+", head)):
        return None
    order = head[_NO_ONE.match(head).end() :].strip()  # type: ignore[union-attr]
    return f"{name}, {order}" if order else None


__all__ = ["put_forward"]
