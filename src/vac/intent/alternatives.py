"""When the recogniser's best hypothesis gives no command, its next ones may.

Beam search ends with several hypotheses (`vac.speech.nbest`). The best is
the transcript; when its words leave the parser without a verb, a target or
a known name, a hypothesis close behind it often has them: "Could you have
Tariq passionate roof by Friday?" → "…Tariq patch the roof by Friday?",
"Abeni helped the nurse…, but check with me first." → "Abeni, help the
nurse…". The first that parses to a draft, within `MAX_BEHIND` nats of the
best, is taken, and every word it does not share with the best is unsure:
a verb or a name that came from the beam's second choice is always flagged
(`UNSHARED_WORD_PROB`), so the steward sees it before confirming.

Never for what was said as a question or a report: "Who repaired the
gate." has "To repair the gate." behind it, and "Zuri helped me with the
bags" has "Zuri, help me with the bags" one nat behind it. A question word
first keeps the best hypothesis's answer; so does a verb the parser knows
in the past, unless the order read from the other hypothesis has a
deadline: a report of the past holds no deadline to come ("Abeni helped the
nurse in two days, but check with me first" was an order).

Pure: texts and numbers in, texts and numbers out.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from typing import Final, Literal, Protocol

import msgspec

from vac.intent import lexicon as lx
from vac.intent.wish import becoming
from vac.protocol.objective import UncertainField

# What the best hypothesis's parse must have lacked for the others to be
# tried. A low confidence, an unclear deadline or a choice between names is
# a question about words the parser did read: the beam is not asked.
RETRY_REASONS: Final = frozenset({"no-verb", "no-target", "unknown-agent"})
# The field another hypothesis supplied when the best lacked it: always flagged.
LOST_FIELD: Final[dict[str, UncertainField]] = {"no-verb": "verb", "unknown-agent": "agent"}
# Tuned on the dev half (docs/understanding.md): how far behind the best
# hypothesis (total log-probability, nats) another may be and still be taken.
MAX_BEHIND: Final = 3.0
# The evidence of a word only the taken hypothesis has: under every slot's
# "sure" floor (`intent.evidence`), so the field it carries is flagged.
UNSHARED_WORD_PROB: Final = 0.2
_IRREGULAR_PAST: Final = frozenset(lx.words("built made kept took got told went"))
_WORD: Final = re.compile(r"[A-Za-z0-9']+")
# Every word of every verb cue the parser knows ("repair", "keep", "eye"…).
_VERB_WORDS: Final = frozenset(w for cue, _verb in lx.verb_words() for w in lx.words(cue))


class Alternative(msgspec.Struct, frozen=True, array_like=True):
    """Another hypothesis of the recogniser's beam, and how far behind the best it is."""

    text: str
    behind: float  # nats of total log-probability below the best hypothesis


class _Word(Protocol):
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def prob(self) -> float: ...


def statement_kind(text: str) -> Literal["question", "past", "praise"] | None:
    """Whether `text` reads as a question (its first word asks: "Who…",
    "Did…"), a report of the past (a verb the parser knows, in the past:
    "Zuri helped me…", "Kofi repaired…") or praise ("I think Imani would
    make a great teacher": the beam's "…will make…" drafted a Build, a
    spoken probe), not as an order."""
    toks = lx.tokenize(text)
    if lx.asks([t.low for t in toks]):
        return "question"
    if any(becoming(toks, k) for k in range(len(toks))):
        return "praise"  # not "make a note…", "make a start…": the beam may hold the order
    if any(_past(w.lower()) for w in _WORD.findall(text)):
        return "past"
    return None


def _past(word: str) -> bool:
    """A verb the parser knows, in the past: "helped", "repaired", "mapped", "built"."""
    if word in _IRREGULAR_PAST:
        return True
    if not word.endswith("ed"):
        return False
    stems = {word[:-2], word[:-1]}
    if len(word) > 4 and word[-3] == word[-4]:  # "mapped" → "map"
        stems.add(word[:-3])
    return not stems.isdisjoint(_VERB_WORDS)


def carried(best: str, words: Sequence[_Word], other: str) -> tuple[tuple[int, int, float], ...]:
    """The per-word evidence of `other` (start, end, probability): a word it
    shares with `best`, in the same order, keeps that word's probability; every
    other word gets `UNSHARED_WORD_PROB`."""
    best_spans = [(m.start(), m.end()) for m in _WORD.finditer(best)]
    other_spans = [(m.start(), m.end()) for m in _WORD.finditer(other)]
    matcher = difflib.SequenceMatcher(
        a=[best[s:e].lower() for s, e in best_spans],
        b=[other[s:e].lower() for s, e in other_spans],
        autojunk=False,
    )
    probs = [UNSHARED_WORD_PROB] * len(other_spans)
    for block in matcher.get_matching_blocks():
        for k in range(block.size):
            start, end = best_spans[block.a + k]
            overlapping = [w.prob for w in words if w.start < end and w.end > start]
            probs[block.b + k] = min(overlapping, default=UNSHARED_WORD_PROB)
    return tuple((s, e, p) for (s, e), p in zip(other_spans, probs, strict=True))


__all__ = [
    "LOST_FIELD",
    "MAX_BEHIND",
    "RETRY_REASONS",
    "UNSHARED_WORD_PROB",
    "Alternative",
    "carried",
    "statement_kind",
]
