"""A condition said with an order: "if it rains, have Zuri cover the hay",
"Imani, visit Grandma tomorrow, unless it snows", "fix the gate once the
rain stops". Before, the draft dropped it without a word, and the agent
would have done the job whatever the weather. It is kept as a `custom`
constraint ("if it rains") and read back with the order.

Not a condition: a courtesy said to the agent ("if you have time", "when
you get a chance": priority cues, `manner_cues`), a count ("once a day":
a standing order), or a question ("When will Kofi…?" is asked before
this). Pure: tokens in, the words as said out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from vac.intent.lexicon import PUNCT, Tok, words
from vac.intent.when_match import word_at

_CUES: Final = frozenset(words("if unless once when whenever provided"))
# After these the cue says how often or how much, not on what condition.
_NOT_A_CONDITION: Final = frozenset(
    words("""a an every more again upon you u you're you've you'd you'll your ur please and in
    daily weekly nightly anything so not that""")
)
# "Whenever" is a condition only before an event of its own: "…whenever it
# rains", "…whenever we're away"; not "whenever this week", "whenever it
# suits", "whenever we get a chance" (a priority, `manner_cues`).
_EVENT_SUBJECTS: Final = frozenset(
    words(
        """it there the a an we they he she i someone anyone my our his her their we're
        they're he's she's i'm there's it's its"""
    )
)
_NOT_EVENTS: Final = frozenset(
    words(
        """suits suit works work is 's was convenient ok okay fine good possible easy best get
        gets got has have had fits fit no"""
    )
)


def whenever_event(lows: Sequence[str], k: int) -> bool:
    """Whether "whenever" at `k` starts an event of its own."""
    nxt = lows[k + 1] if k + 1 < len(lows) else ""
    then = lows[k + 2] if k + 2 < len(lows) else ""
    return nxt in _EVENT_SUBJECTS and then not in _NOT_EVENTS and then.isalpha()


# Before the cue, these make it no condition of the order: "even if it rains"
# (whatever the weather), "but not if…" (a ban), "as if…".
_NOT_BEFORE: Final = frozenset(words("even not as"))
# The order's verb asks about what follows: "check with Abeni if the delivery
# came" (up to three words back, no break).
_ASKING_VERBS: Final = frozenset(words("check see ask know find wonder wondering wondered tell"))
# Said after a condition at the end, these leave it the order's: "…, thanks".
_COURTESY: Final = frozenset(words("please thanks thank you cheers"))
_MAX_WORDS: Final = 8
# Before the order's own verb inside "if …", the order asked politely: "it'd be
# lovely if Kofi could fix the gate" (a typed probe: read back "…, if Kofi
# could fix the gate").
_ASKED_SO: Final = frozenset(words("could would can will might"))
# A clause starts after these (or first): not "the day when it rained".
_CLAUSE_STARTS: Final = PUNCT | frozenset(words("but and only"))
# Said anywhere, these join a condition; "if" and "when" only where no verb
# takes them as its object ("check if the well is dry", "tell me when…").
_ANYWHERE: Final = frozenset(words("unless once provided if whenever"))  # "…whenever it rains"
_ASKS_IF: Final = frozenset(
    words("check see ask know out wonder wondering wondered tell me us him her them look find")
)


def condition_of(source: str, toks: Sequence[Tok], verb_at: int) -> str | None:
    """The first condition said ("if it rains"), as written (its first
    letter small), or None. `verb_at` is where the order's verb starts (a
    character offset): a condition said after it must end the order
    ("…, unless it snows"), not lead into more words ("Kofi, fix the gate. If
    it rains, Zuri will cover the hay": Zuri's)."""
    for i, tok in enumerate(toks):
        if tok.low not in _CUES:
            continue
        before = toks[i - 1].low if i else ","
        if before not in _CLAUSE_STARTS and (tok.low not in _ANYWHERE or before in _ASKS_IF):
            continue
        if tok.low == "once" and word_at(toks, i + 1) == "over":
            continue  # "give the gate a once-over"
        if before in _NOT_BEFORE or (tok.low != "whenever" and _asked_of(toks, i)):
            continue  # "check with Abeni if the delivery came"; not "check … whenever it rains"
        if tok.low == "whenever" and not whenever_event([t.low for t in toks], i):
            continue
        provided_that = tok.low == "provided" and word_at(toks, i + 1) == "that"
        if i + 1 >= len(toks) or (
            toks[i + 1].low in _NOT_A_CONDITION | PUNCT and not provided_that
        ):
            continue
        end = i + 1
        while end < len(toks) and toks[end].low not in PUNCT and end - i <= _MAX_WORDS:
            end += 1
        if end - i > _MAX_WORDS:
            continue  # a long clause: not a short condition said with the order
        verb = next((k for k in range(i + 1, end) if toks[k].start == verb_at), None)
        if verb is not None and toks[verb - 1].low in _ASKED_SO:
            continue  # "it would be lovely if Kofi could fix the gate": the order itself
        end = end if verb is None else verb  # "if it rains fix the gate": "if it rains"
        rest = [t.low for t in toks[end:] if t.low not in PUNCT]
        if tok.start > verb_at and not all(w in _COURTESY for w in rest):
            continue
        start = i - (i > 0 and toks[i - 1].low == "only")
        said = source[toks[start].start : toks[end - 1].end]
        return said[:1].lower() + said[1:]
    return None


def _asked_of(toks: Sequence[Tok], i: int) -> bool:
    for k in range(i - 1, max(i - 4, -1), -1):
        if toks[k].low in PUNCT:
            return False
        if toks[k].low in _ASKING_VERBS:
            return True
    return False


__all__ = ["condition_of", "whenever_event"]
