"""Orders said not to be given: a request negated before it, or taken back after.

- "Don't ask Kofi to fix the gate", "I don't want Zuri to check the hives",
  "no need for Kofi to fix…", "I didn't ask Kofi to…": a negation before a
  frame word ("ask", "tell", "have", "let", "get", "make", "want", "need")
  with someone named after it. The order was drafted as if asked for; the
  steward heard "Kofi will repair the gate — confirm?" after saying not to.
- "Tell Kofi not to fix the gate": the verb after "not to" / "never to".
- "Kofi, fix the gate, never mind", "…, scratch that", "…, actually don't",
  "…, never mind, Zuri did it": the order taken back after it was said.
  Not "never mind the cost", "don't bother the bees", "forget the paint"
  (a thing after the cue: a word on how to do it), nor a take-back before
  the order ("Never mind, Kofi, fix the gate": the order is the new one).

Both give the verbs (by their tokens' start offsets, which survive the
address's cut) that the parser must not read as the order: a verb said
after them still is ("don't ask Kofi, ask Zuri to…", "…, never mind, fix
the fence instead"). Pure: tokens in, offsets out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from vac.intent import lexicon as lx
from vac.intent.correction import states
from vac.intent.lexicon import Tok
from vac.intent.roster import Roster, resolve_agent

_NEGATIONS: Final = lx.phrases(
    [
        "don't",
        "dont",
        "do not",
        "didn't",
        "did not",
        "never",
        "wouldn't",
        "would not",
        "won't",
        "will not",
        "no need",
        "no need to",
        "not necessary",
        "not necessary to",
        "not",
    ]
)
# Frame words a negation may stand before ("don't ask Kofi to…"); "need" and
# "want" take "to" ("we don't need Kofi to…"); "for" follows "no need".
_FRAMES: Final = frozenset(
    lx.words("ask tell have let get make want need needs expect remind send for bother")
)
# Words a negation and its frame may have between them: "don't even ask…",
# "never ever ask…", "no need to go and ask…", "you don't need to ask…".
_BETWEEN: Final = frozenset(lx.words("even ever really just go and need needs have has to"))
_BETWEEN_MAX: Final = 3
# Words that may stand for the one asked: a roster name, or one of these.
_SOMEONE: Final = lx.PRONOUNS | frozenset(lx.words("anyone anybody someone somebody"))

_TAKE_BACKS: Final = lx.phrases(
    [
        "never mind",
        "nevermind",
        "forget it",
        "forget that",
        "forget about it",
        "scratch that",
        "cancel that",
        "belay that",
        "don't bother",
        "don't do it",
        "don't do that",
        "do not do it",
        "don't",
        "on second thought",
        "on second thoughts",
    ]
)
# What may come before a take-back in its part: "…, oh wait, never mind",
# "…, no, actually, don't", "…, but never mind".
_LEAD: Final = lx.PUNCT | frozenset(lx.words("oh wait no actually um uh hmm well sorry ah but"))
# "don't" alone takes the order back only at the end of a sentence: not
# "…, but don't, uh, rush" (a hesitation), "…, don't, Zuri will" (asked).
_SENTENCE_ENDS: Final = frozenset(".!?;")


def unsaid_verbs(toks: Sequence[Tok], roster: Roster) -> frozenset[int]:
    """The start offsets of verbs of ours that are not asked for."""
    verbs = [i for i in range(len(toks)) if lx.phrase_at(toks, i, lx.VERB_PHRASES) is not None]
    out = {toks[i].start for i in verbs if _negated(toks, i, roster)}
    back = _taken_back_at(toks)
    if back is not None:
        out |= {toks[i].start for i in verbs if i < back}
    return frozenset(out)


def _negated(toks: Sequence[Tok], verb: int, roster: Roster) -> bool:
    """Whether the verb at `verb` follows a negated frame and someone: "don't
    ask Kofi to ___", "no need for Zuri to ___", "don't have him ___"."""
    who = verb - 1
    if who >= 0 and toks[who].low in ("to", "too"):
        who -= 1
        if who >= 0 and toks[who].low in ("not", "never"):
            return True  # "tell Kofi not to fix the gate", "I asked him never to…"
    frame = who - 1
    return (
        frame >= 0
        and toks[frame].low in _FRAMES
        and _someone(toks[who], roster)
        and _negation_before(toks, frame)
    )


def _someone(tok: Tok, roster: Roster) -> bool:
    if tok.low in _SOMEONE:
        return True
    res = resolve_agent(tok.text, roster)
    return res is not None and res.method in ("exact", "fuzzy")


def _negation_before(toks: Sequence[Tok], frame: int) -> bool:
    """A negation ending right before the frame word, or up to three words
    of `_BETWEEN` before it ("don't even ask…", "you don't need to ask…")."""
    for j in range(frame, max(frame - _BETWEEN_MAX, 0) - 1, -1):
        if j < frame and toks[j].low not in _BETWEEN:
            break
        for size in (4, 3, 2, 1):
            at = j - size
            said = lx.phrase_at(toks, at, _NEGATIONS) if at >= 0 else None
            if said is not None and at + len(said) == j:
                # "not" alone after "rather" / "better" ("I'd rather not
                # ask…"); not "why not ask…", "could we not have…": suggestions.
                return said != ("not",) or (at > 0 and toks[at - 1].low in ("rather", "better"))
    return False


def _taken_back_at(toks: Sequence[Tok]) -> int | None:
    """The index of a take-back said after an order, in a part of its own
    (after a comma, dash or full stop), ending the utterance or a part: the
    verbs before it are taken back."""
    for i in range(1, len(toks)):
        said = lx.phrase_at(toks, i, _TAKE_BACKS)
        if said is None:
            continue
        k = i
        while k > 0 and toks[k - 1].low in _LEAD:
            k -= 1
        if k == i or not any(t.low in lx.PUNCT for t in toks[k:i]):
            continue  # not a part of its own: "fix the gate and don't bother…"
        after = i + len(said)
        ends = _SENTENCE_ENDS if said == ("don't",) else lx.PUNCT
        if after < len(toks) and toks[after].low not in ends:
            continue  # "never mind the cost", "don't bother the bees"
        if said == ("never", "mind") and _thing_next(toks, after):
            continue  # "fix the fence, never mind, the gate": another thing (correction.py)
        return k
    return None


def _thing_next(toks: Sequence[Tok], at: int) -> bool:
    """A break, then a thing said alone: "…, the gate", not "…, the gate is fine"."""
    if at + 1 >= len(toks) or toks[at + 1].low not in lx.DETERMINERS:
        return False
    end = at + 1
    while end < len(toks) and toks[end].low not in lx.PUNCT:
        end += 1
    return not states(toks, at + 1, end) and lx.find_first(toks[at:end], lx.VERB_PHRASES) is None
