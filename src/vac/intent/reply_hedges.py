"""A yes or no said with a hedge or a reason around it.

A conversation probe (the twenty-second session) found replies people
give asked again: "yeah I think so", "yes that sounds about right",
"that's the one", "anyway, yes", "not really, no", "sure, why not, he's
got time", "yep, that's spot on thanks", "actually don't bother, she's
coming here". The hedge or the reason answers nothing; the yes or no
does. A reason only of a few kinds, with a pronoun for its subject ("he's
got time", "she's coming here"): anything else may be a change ("yes, he
can use the ladder", "yes it's urgent") or a no ("yeah, it's already
done"), and stays a turn of its own (a review). Pure: a
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
# A reason after it, one of a few kinds only (a review: an open list let
# "yes, he can use the ladder", "yes it's urgent", "yeah, it's already done"
# be a plain yes, the change lost): someone has the time, is free or
# around, is coming over, or knows how.
_REASON: Final = re.compile(
    r" (?:why not )?(?:(?:he's|she's|they've|they're|he has|she has|they have) got "
    r"(?:the |some |plenty of )?(?:time|tools|a free day)"
    r"|(?:he's|she's|they're|he is|she is|they are) (?:free|around|about|available|home"
    r"|coming (?:here|over|round|anyway))"
    r"|(?:he|she|they) knows? (?:how|the way|what to do)"
    r"|(?:he'll|she'll|they'll) (?:be fine|be ok|be okay|manage|cope))$"
)
# After a no only: the one asked cannot, or it is not needed ("no, he's
# busy", "No, it's fine": a review found them asked again).
_NO_REASON: Final = re.compile(
    r" (?:(?:he's|she's|they're|he is|she is|they are) (?:busy|away|off|sick|ill|poorly|tired"
    r"|out|at work|on holiday|not around|not free)|it's (?:fine|ok|okay|not needed)"
    r"|it can wait)$"
)
_OPENERS: Final = re.compile(r"^(?:(?:oh|um|uh|er|erm|well|hmm|actually) )+")
# Not needed after all: "no I don't think we need that anymore actually,
# forget it" (a conversation probe, T28c: asked again, and the next "yes"
# confirmed the draft just dropped), "we don't need it anymore".
_NOT_NEEDED: Final = re.compile(
    r"^(?:(?:no|nah|nope) )?(?:(?:i )?(?:don't|do not) think (?:we|i)|(?:we|i) (?:don't|do not"
    r"|no longer)) need (?:that|it|this)(?: (?:any ?more|after all|now))?(?: actually)?"
    r"(?: (?:forget it|never ?mind|cancel it|scrap it|cancel that|leave it))?$"
)


def without_hedges(norm: str, replies: frozenset[str], noes: frozenset[str] = frozenset()) -> str:
    """`norm` as the reply it hedges, or `norm` unchanged. `replies`: the
    whole reply phrases a reason may follow ("sure why not", "don't bother");
    `noes`: those of them that say no."""
    norm = _LEAD.sub("", norm)
    if norm in _WHOLE:
        return _WHOLE[norm]
    if _NOT_NEEDED.match(norm) and "no" in noes:
        return "no"
    if (hedged := _HEDGE_AFTER_YES.match(norm)) is not None:
        return hedged[1]
    if (cannot := _NO_REASON.search(norm)) is not None:
        said = norm[: cannot.start()]
        if _OPENERS.sub("", said) in noes:
            return said  # "no, he's busy"
    reason = _REASON.search(norm)
    if reason is not None:
        why = reason[0].removeprefix(" why not")
        said = norm[: reason.start()] + reason[0].removesuffix(why)  # "sure why not"
        if _OPENERS.sub("", said) in replies:
            return said  # its opener is taken off as any reply's is
    return norm


__all__ = ["without_hedges"]
