"""A yes with praise after it: "yes, he's great at that", "yes thanks,
that's brilliant" (a twelfth typed probe: asked again). The praise answers
nothing; the yes does. Only pronouns and "that / it": a name after a yes
("yes, Zuri's great at that") may be a change of agent, so it stays a turn
of its own. Pure: a normalised reply in, the reply without its praise out.
"""

from __future__ import annotations

import re
from typing import Final

_PRAISE: Final = re.compile(
    r" (?:he's|she's|they're|that's|it's|he is|she is|they are|that is|it is)"
    r" (?:really |so |just |always )?"
    r"(?:great|good|brilliant|perfect|lovely|ideal|fantastic|excellent|wonderful|amazing"
    r"|the best|spot on|a star|a legend"
    # "yes, that's exactly what I want, thanks" (a conversation probe, T28c: asked again)
    r"|(?:exactly |just )?what (?:i|we) (?:want|wanted|need|needed|meant|asked for))"
    r"(?: (?:at|with|for) (?:that|it|this|the job|those|these))?"
    r"(?: (?:thanks|thank you|cheers))?$"
)


_LEAD_MAX: Final = 3  # "yes thanks", "yes please then": the yes and its courtesy


def without_praise(norm: str, yeses: frozenset[str]) -> str:
    """`norm` without a praise after a few words led by a yes in `yeses`
    (the rest is read as any reply is: "yes but" answers nothing)."""
    found = _PRAISE.search(norm)
    said = norm[: found.start()].split() if found is not None else []
    if found is None or not said or said[0] not in yeses or len(said) > _LEAD_MAX:
        return norm
    return norm[: found.start()]
