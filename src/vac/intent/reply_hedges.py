"""A yes or no said with a hedge or a reason around it.

A conversation probe (the twenty-second session) found replies people
give asked again: "yeah I think so", "yes that sounds about right",
"that's the one", "anyway, yes", "not really, no", "sure, why not, he's
got time", "yep, that's spot on thanks", "actually don't bother, she's
coming here". The hedge or the reason answers nothing; the yes or no
does. A reason only with a pronoun for its subject ("he's got time"): with
a name, a time or a number it may be a change ("yes, Zuri's free",
"yes, he's free tomorrow"), and stays a turn of its own. Pure: a
normalised reply in, the reply without its hedge out.
"""

from __future__ import annotations

import re
from typing import Final

# Said whole, each is a yes or a no.
_WHOLE: Final = {
    **dict.fromkeys(
        (
            "that sounds about right",
            "sounds about right",
            "that's about right",
            "that's the one",
            "that's the one yes",
            "that's it",
            "that's it yes",
            "that's spot on",
        ),
        "yes",
    ),
    **dict.fromkeys(("not really", "not really no", "no not really", "not quite"), "no"),
}
# After a yes: "yeah I think so", "yes I guess so" (not "I think so" alone).
_HEDGE_AFTER_YES: Final = re.compile(
    r"^(yes|yeah|yep|yup|ok|okay|sure) (?:i think so|i guess so|i suppose so|i reckon so"
    r"|(?:that )?sounds (?:about )?right|that's (?:about )?right|that's (?:spot on|perfect|grand))"
    r"(?: thanks| thank you| cheers)?$"
)
# Said before the reply: "anyway, yes", "so yes", "right then, yes".
_LEAD: Final = re.compile(r"^(?:anyway|anyhow|so|right then|all right then|alright then) ")
# A reason after it, with a pronoun for its subject and no time, name or number.
_REASON: Final = re.compile(
    r" (?:why not )?(?:he's|she's|they're|it's|he has|she has|they have|he is|she is|they are"
    r"|he'll|she'll|they'll|he can|she can|they can)(?: [a-z']+){1,5}$"
)
_NOT_A_REASON: Final = frozenset(
    (
        *("today", "tonight", "tomorrow", "week", "weekend", "morning", "afternoon"),
        *("evening", "night", "instead", "not", "don't", "can't", "won't", "monday"),
        *("tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"),
        # praise after a no says the opposite ("no, he's great at that"): asked
        *("great", "good", "brilliant", "perfect", "best", "star", "legend", "amazing"),
    )
)
_OPENERS: Final = re.compile(r"^(?:(?:oh|um|uh|er|erm|well|hmm|actually) )+")


def without_hedges(norm: str, replies: frozenset[str]) -> str:
    """`norm` as the reply it hedges, or `norm` unchanged. `replies`: the
    whole reply phrases a reason may follow ("sure why not", "don't bother")."""
    norm = _LEAD.sub("", norm)
    if norm in _WHOLE:
        return _WHOLE[norm]
    if (hedged := _HEDGE_AFTER_YES.match(norm)) is not None:
        return hedged[1]
    reason = _REASON.search(norm)
    why = reason[0].removeprefix(" why not") if reason is not None else ""
    if reason is not None and not set(why.split()) & _NOT_A_REASON:
        said = norm[: reason.start()] + reason[0].removesuffix(why)  # "sure why not"
        if _OPENERS.sub("", said) in replies:
            return said  # its opener is taken off as any reply's is
    return norm


__all__ = ["without_hedges"]
