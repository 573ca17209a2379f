"""The verb slot, rescored against the household's verbs when no verb was heard.

tiny.en turns espeak's verbs into other words ("guard" → "God", "build" →
"will", "repair" → "Repamma"): the parser then finds an agent but nothing to
do, and asks again. Right after the agent's name ("ask Zuri to ___ the
orchard", "Zuri, ___ the path") the words that can stand are the lexicon's
verbs: each is put into the slot and force-decoded, as the name slot is
(docs/stt.md). The best verb replaces the heard word unless the decoder is
far surer of what it wrote. Its evidence is capped below the intent layer's
verb threshold, so the draft always flags it: a verb the decoder did not
write is never a sure one.

No model here: `WhisperStt` supplies the forced decoding.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Final, NamedTuple

from vac.speech.replies import total
from vac.speech.slots import WordProb, bare, name_slot

# Keep what the decoder wrote in the slot when it scores this much higher
# (total log-probability) than the best verb (as the name slot: "the team").
KEEP_HEARD_LOGPROB: Final = 4.0
# A rescored verb's evidence, at most: under the intent layer's VERB_SURE
# (0.3), so the preview flags it ("what to do").
RESCORED_VERB_MAX: Final = 0.25
# Words between the name and the verb: "ask Zuri to guard…", "Zuri, please guard…".
_FILLERS: Final = frozenset({"to", "please", "go"})
# A function word in the slot means the verb was dropped, not misheard ("Get
# Imani at the smoke" for "look at"): putting a verb in its place guesses.
_NOT_VERBS: Final = frozenset(
    {"a", "an", "the", "at", "on", "in", "of", "for", "with", "by", "from", "about", "into"}
)
_WORD: Final = re.compile(r"\S+")
_BATCH: Final = 12
# Verbs scored with the whole sentence after the first, short pass.
_FINALISTS: Final = 4


class VerbSlot(NamedTuple):
    start: int
    end: int  # trailing punctuation excluded


class Rescored(NamedTuple):
    text: str
    words: tuple[WordProb, ...]
    heard: str  # the words the verb replaced


def verb_slot(text: str, names: Sequence[str], verbs: Sequence[tuple[str, str]]) -> VerbSlot | None:
    """Where the verb should be, when the transcript has an agent but no verb word."""
    cues = {cue for cue, _verb in verbs}
    spans = [(m.start(), m.end(), bare(m.group())) for m in _WORD.finditer(text)]
    if any(w in cues for _s, _e, w in spans):
        return None  # a verb was heard: the parser finds it
    slot = name_slot(text, names)
    if slot is None:
        return None
    after = [s for s in spans if s[0] >= slot.end and s[2]]
    while after and after[0][2] in _FILLERS:
        after = after[1:]
    said = " ".join(w for _s, _e, w in after) + " "
    if any(said.startswith(cue + " ") for cue, _verb in verbs):
        return None  # a verb of several words where the verb goes: "get to know"
    if len(after) < 2:  # a verb needs something after it to act on
        return None
    start, end, first = after[0]
    if first in {bare(n) for n in names} or first in _NOT_VERBS:
        return None  # "Kofi, Tariq, …": a second name, not a verb
    word = text[start:end]
    return VerbSlot(start, end - (len(word) - len(word.rstrip(",.;:!?"))))


def rescore(
    text: str,
    words: Sequence[WordProb],
    names: Sequence[str],
    verbs: Sequence[tuple[str, str]],
    token_probs: Callable[[list[str]], list[list[float]]],
    next_logprobs: Callable[[str, list[str]], list[float] | None] | None = None,
) -> Rescored | None:
    """The transcript with the best verb in its slot, or None (no slot, or kept).

    `verbs` are the lexicon's (cue, Verb) pairs, the one-word cues the
    candidates; `token_probs(texts)` the forced decoding of each text (called
    with at most 12 at a time); `next_logprobs(prefix, words)`, if given, the
    log-probability of each word's first token right after `prefix`, from one
    decoding step (None: it could not): the first pass then costs one step
    instead of a forced decode per verb.
    """
    slot = verb_slot(text, names, verbs)
    if slot is None:
        return None
    before, after = text[: slot.start], text[slot.end :]
    cues = [(word, verb) for word, verb in verbs if " " not in word]
    if not cues:
        return None
    # First each verb right after the words before it: the decoder is
    # causal, so a verb's own tokens need nothing after them, and these
    # texts are short (or, with `next_logprobs`, only its first token: the
    # rest of a word is nearly certain once it has begun). Then the few best,
    # and what was heard, in full: after a garbled verb the later words still
    # tell ("Repamma Chicken Koop in 3 days": three words of context lost that
    # repair on the dev half).
    alone = None if next_logprobs is None else next_logprobs(before, [w for w, _v in cues])
    if alone is None:  # no one-step scorer, or it stopped short
        alone = _totals(token_probs, [before + w for w, _v in cues])
    order = sorted(range(len(cues)), key=lambda i: alone[i], reverse=True)
    finalists = [cues[i] for i in order[:_FINALISTS]]
    totals = _totals(token_probs, [text, *(before + w + after for w, _v in finalists)])
    share = by_verb(finalists, totals[1:])
    best_verb = max(share, key=lambda v: share[v])
    best = max(
        (i for i, (_w, v) in enumerate(finalists) if v == best_verb), key=lambda i: totals[1 + i]
    )
    if totals[0] - totals[1 + best] > KEEP_HEARD_LOGPROB:
        return None  # the decoder is far surer of what it wrote
    word = finalists[best][0]
    shift = len(word) - (slot.end - slot.start)
    moved = [w for w in words if w.end <= slot.start]
    moved.append(
        WordProb(slot.start, slot.start + len(word), min(share[best_verb], RESCORED_VERB_MAX))
    )
    moved += [
        WordProb(w.start + shift, w.end + shift, w.prob) for w in words if w.start >= slot.end
    ]
    return Rescored(before + word + after, tuple(moved), text[slot.start : slot.end])


def _totals(
    token_probs: Callable[[list[str]], list[list[float]]], texts: Sequence[str]
) -> list[float]:
    """Each text's total log-probability, forced-decoded `_BATCH` at a time."""
    totals: list[float] = []
    for at in range(0, len(texts), _BATCH):
        totals += [total(probs) for probs in token_probs(list(texts[at : at + _BATCH]))]
    return totals


def by_verb(verbs: Sequence[tuple[str, str]], logprobs: Sequence[float]) -> dict[str, float]:
    """Each Verb's share of the decoder's belief: a softmax over the words, summed per Verb."""
    top = max(logprobs)
    weights = [math.exp(lp - top) for lp in logprobs]
    total = sum(weights)
    share: dict[str, float] = defaultdict(float)
    for (_word, verb), w in zip(verbs, weights, strict=True):
        share[verb] += w / total
    return dict(share)
