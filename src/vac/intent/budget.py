"""A spending limit said without "don't": "spend no more than 80 pounds",
"keep it under fifty quid", "max budget £150", "under £40 please", "for
under 300 dollars", "£150 max" (a typed probe: each was dropped without a
word, or left in the thing). It is the steward's boundary, written "Spend
no more than <the amount as said>". "Don't spend more than £200" is a
boundary by its "don't" (`bans`).

Pure: tokens in, a span out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from vac.intent.lexicon import PUNCT, Tok, phrase_at, phrases, words
from vac.intent.numbers import CARDINALS, number_at
from vac.intent.tokens import MONEY_SIGNS
from vac.intent.when_match import word_at

_MONEY_WORDS: Final = frozenset(
    words("""pounds pound quid dollars dollar bucks euros euro naira rupees rupee cedis cedi
    shillings shilling rand pence cents grand""")
)
# Counted after a number, no money: "spend up to 3 hours on it".
_NOT_MONEY: Final = frozenset(
    words("""hours hour hrs minutes minute mins days day weeks week months month years year
    people persons guests kids times goes tries coats percent per nights night afternoons
    mornings evenings sessions pages visits trips lessons rounds miles km metres meters feet
    inches kilos kg litres liters""")
)
# The limit itself: "no more than", "under"…
_LIMITS: Final = phrases(
    [
        *("no more than", "not more than", "nothing more than", "less than", "under"),
        *("below", "at most", "up to", "a max of", "a maximum of", "max", "maximum"),
        *("no over", "not over", "nothing over"),
    ]
)
# Said before the limit, these make a bare number money ("spend no more than 80").
_SPEND: Final = phrases(
    [
        *("spend", "spending", "keep the cost", "keep the costs", "keep costs", "keep the bill"),
        *("keep the price", "keep spending", "it should cost", "costing", "that costs"),
    ]
)
# Said before a limit on money only ("keep it under £50", "for under 300 dollars").
_BEFORE: Final = phrases(["keep it", "keep it all", "for"])
# A budget named: its amount follows, with or without a limit.
_BUDGET: Final = phrases(
    [
        *("max budget", "maximum budget", "budget", "a budget of", "budget of", "budget is"),
        *("on a budget of", "with a budget of", "the budget is", "a max budget of"),
        *("budget's", "the budget's", "your budget is"),
    ]
)
_ROUGHLY: Final = phrases(["about", "around", "roughly", "approximately", "circa", "say"])
# After an amount: "£150 max", "80 quid tops".
AFTER_AMOUNT: Final = frozenset(words("max maximum tops"))
_SCALES: Final = frozenset(words("thousand hundred million k"))
_JOINS: Final = frozenset(words("and but so just"))
# The marker of a budget's span (`bans.Span`).
BUDGET: Final = ("budget",)


_FIRSTS: Final = frozenset(p[0] for table in (_BUDGET, _SPEND, _BEFORE, _LIMITS) for p in table)


class Budget(NamedTuple):
    start: int  # the first word of the limit
    amount: int  # the amount's first token
    amount_end: int  # exclusive
    end: int  # exclusive: the limit's last word ("£150 max")


def _amount_at(toks: Sequence[Tok], k: int) -> tuple[int, bool] | None:
    """Where an amount at `k` ends, and whether it is money by its words."""
    number = number_at(toks, k)
    if number is None or number.ordinal:  # "under the 3rd step": no amount
        return None
    end = _whole(toks, number.end)
    if word_at(toks, end) in _NOT_MONEY:
        return None  # "spend up to 3 hours on it"
    money = toks[k].text[:1] in MONEY_SIGNS
    if word_at(toks, end) in _MONEY_WORDS:
        end, money = end + 1, True
    return end, money


def _whole(toks: Sequence[Tok], end: int) -> int:
    """Past the rest of an amount `number_at` stops inside: "£1,500",
    "£12.99", "£2.5k", "2 thousand", "one hundred and fifty" (a review: the
    limit was "£1", "£12", "one")."""
    while end < len(toks):
        tok, nxt = toks[end], toks[end + 1] if end + 1 < len(toks) else None
        joined = nxt is not None and toks[end - 1].end == tok.start and tok.end == nxt.start
        if tok.low in (",", ".") and joined and nxt is not None and nxt.low[:1].isdigit():
            end += 2  # "1,500", "12.99", "2.5k"
        elif tok.low in _SCALES:
            end += 1  # "2 thousand", "five hundred"
        elif (
            tok.low == "and" and toks[end - 1].low == "hundred" and (n := number_at(toks, end + 1))
        ):
            end = n.end  # "one hundred and fifty"
        else:
            return end
    return end


def _apart(toks: Sequence[Tok], i: int) -> bool:
    """Whether the words at `i` start a part of the sentence (not "purchases
    under £20", which says which purchases: a review invented the limit)."""
    return i == 0 or word_at(toks, i - 1) in PUNCT | _JOINS


def budget_at(toks: Sequence[Tok], i: int) -> Budget | None:
    """A spending limit starting at `i`, or None."""
    low = toks[i].low
    if low not in _FIRSTS and not low[:1].isdigit() and low not in CARDINALS:
        return None  # most words start none (read at every word: no tables tried)
    if (named := phrase_at(toks, i, _BUDGET)) is not None:
        k = i + len(named)
        k += len(phrase_at(toks, k, _LIMITS) or ())
        k += len(phrase_at(toks, k, _ROUGHLY) or ())  # "budget about sixty quid" (a probe: lost)
        found = _amount_at(toks, k)  # money only: not "the budget's 3 biggest costs"
        return None if found is None or not found[1] else Budget(i, k, found[0], found[0])
    spend = phrase_at(toks, i, _SPEND)
    lead = spend or phrase_at(toks, i, _BEFORE) or ()
    limit = phrase_at(toks, i + len(lead), _LIMITS)
    if limit is not None and (lead or _apart(toks, i)):
        k = i + len(lead) + len(limit)
        found = _amount_at(toks, k)
        if found is not None and (found[1] or spend is not None):
            return Budget(i, k, found[0], found[0])
        return None
    found = _amount_at(toks, i)
    after = word_at(toks, found[0]) if found is not None else ""
    if found is not None and found[1] and _apart(toks, i) and after in AFTER_AMOUNT:
        return Budget(i, i, found[0], found[0] + 1)  # "…, £150 max"
    return None


__all__ = ["AFTER_AMOUNT", "BUDGET", "Budget", "budget_at"]
