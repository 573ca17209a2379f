"""The verb slot, rescored against the household's verbs when no verb was heard.

tiny.en turns espeak's verbs into other words ("guard" → "God", "build" →
"will", "repair" → "Repamma"): the parser then finds an agent but nothing to
do, and asks again. Right after the agent's name ("ask Zuri to ___ the
orchard", "Zuri, ___ the path") the words that can stand are the lexicon's
verbs: each is put into the slot and force-decoded, as the name slot is
(docs/stt.md), in place of one heard word or a few ("God" → guard, "let me
on" → update me on). The best verb replaces the heard words unless the
decoder is far surer of what it wrote. Its evidence is capped below the intent layer's
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
from vac.speech.slots import WordProb, bare, name_slot, word_end

# Keep what the decoder wrote in the slot when it scores this much higher
# (total log-probability) than the best verb (as the name slot: "the team").
KEEP_HEARD_LOGPROB: Final = 4.0
# A rescored verb's evidence, at most: under the intent layer's VERB_SURE
# (0.3), so the preview flags it ("what to do").
RESCORED_VERB_MAX: Final = 0.25
# Words between the name and the verb: "ask Zuri to guard…", "Zuri, please guard…".
_FILLERS: Final = frozenset({"to", "please", "go"})
# A function word alone in the slot means the verb was dropped, not misheard
# ("Get Imani at the smoke" for "look at"): putting a verb in its place
# guesses. It may still be the start of a verb heard as two words ("in fact").
_NOT_VERBS: Final = frozenset(
    {"a", "an", "the", "at", "on", "in", "of", "for", "with", "by", "from", "about", "into"}
)
_WORD: Final = re.compile(r"\S+")
_BATCH: Final = 12
# First words whose verbs are scored with the whole sentence after the first,
# short pass.
_FINALISTS: Final = 4
# Texts force-decoded in full, the heard one among them: one batch. Each text
# costs ~6 ms plus ~0.5 ms a token on one core (measured, batches of 8); 16
# rescued one more dev command but put held-out's `ack` p95 at once over 400 ms.
_FULL_TEXTS: Final = 12
# Heard words one verb may replace, at most: the longest cue ("let me know
# about") is 4 words, and n+1 are tried.
_SPAN_MAX: Final = 5
# A word ending a sentence ends the words a verb may replace.
_SENTENCE_END: Final = (".", "?", "!")


class VerbSlot(NamedTuple):
    start: int
    # Where the 1st, 2nd, ... word from `start` ends (punctuation excluded),
    # always leaving one word after for the verb to act on: a verb of several
    # words may stand for several heard ones ("let me on" for "update me on").
    ends: tuple[int, ...]
    # The fewest heard words a verb may replace: 2 when the slot starts with a
    # function word, which is never a misheard verb on its own ("Get Imani at
    # the smoke": "look" was dropped) but may be half of one ("in fact" for
    # "inspect", the dev half's espeak).
    least: int = 1

    @property
    def end(self) -> int:
        """The first word's end, trailing punctuation excluded."""
        return self.ends[0]


class Rescored(NamedTuple):
    text: str
    words: tuple[WordProb, ...]
    heard: str  # the words the verb replaced


def verb_slot(
    text: str,
    names: Sequence[str],
    verbs: Sequence[tuple[str, str]],
    heard_verbs: Sequence[str] = (),
) -> VerbSlot | None:
    """Where the verb should be, when the transcript has an agent but no verb
    word (a candidate's, or one of `heard_verbs`: phrases the parser reads
    that are never tried in the slot, "sort out")."""
    candidates = {cue for cue, _verb in verbs}
    cues = candidates | set(heard_verbs)
    spans = [(m.start(), m.end(), bare(m.group())) for m in _WORD.finditer(text)]
    if any(w in candidates for _s, _e, w in spans):
        return None  # a verb was heard: the parser finds it
    # The parser-only phrases and the verbs' "-ed" / "-ing" forms count only
    # where the verb goes (below): "fits the building" still has its slot.
    slot = name_slot(text, names)
    if slot is None or slot.split:
        # A split slot still here was kept as said ("Let me try to open the
        # jar"): words, not a name; had a name replaced them, it would be a
        # plain slot now.
        return None
    after = [s for s in spans if s[0] >= slot.end and s[2]]
    while after and after[0][2] in _FILLERS:
        after = after[1:]
    said = " ".join(w for _s, _e, w in after) + " "
    if any(said.startswith(cue + " ") for cue in cues):
        return None  # a verb of several words where the verb goes: "get to know"
    if after and after[0][2] in ("get", "have") and any(s[2] in cues for s in after[1:]):
        return None  # "… to get the gate fixed": the order said about the thing
    if len(after) < 2:  # a verb needs something after it to act on
        return None
    roster = {bare(n) for n in names}
    start, _end, first = after[0]
    if first in roster:
        return None  # "Kofi, Tariq, …": a second name, not a verb
    ends: list[int] = []
    for s, e, w in after[: min(_SPAN_MAX, len(after) - 1)]:
        if w in roster:
            break  # a verb never swallows a name ("Ask Muri, Tom, and Imani, …")
        ends.append(word_end(text, s, e))
        if text[s:e].endswith(_SENTENCE_END):
            break  # nor runs into the next sentence
    least = 2 if first in _NOT_VERBS else 1
    if len(ends) < least:
        return None
    return VerbSlot(start, tuple(ends), least)


def _spans(cue: str, slot: VerbSlot) -> list[int]:
    """How many heard words a cue may replace: a one-word verb one or two
    (a misheard word, or a verb heard as two: "just count" for "scout"), a
    verb of n words n-1 to n+1 ("up, let me on" for "update me on", "gets to
    know" for "get to know"; n+2 rescued one more dev command, "tell me I'm
    out of", for a second batch); never fewer than the slot's `least`."""
    n = len(cue.split())
    wanted = range(1, 3) if n == 1 else range(n - 1, n + 2)
    return [k for k in wanted if slot.least <= k <= len(slot.ends)]


def rescore(
    text: str,
    words: Sequence[WordProb],
    names: Sequence[str],
    verbs: Sequence[tuple[str, str]],
    token_probs: Callable[[list[str]], list[list[float]]],
    next_logprobs: Callable[[str, list[str]], list[float] | None] | None = None,
    *,
    heard_verbs: Sequence[str] = (),
) -> Rescored | None:
    """The transcript with the best verb in its slot, or None (no slot, or kept).

    `verbs` are the lexicon's (cue, Verb) pairs, the candidates;
    `token_probs(texts)` the forced decoding of each text (called with at
    most 12 at a time); `next_logprobs(prefix, words)`, if given, the
    log-probability of each word's first token right after `prefix`, from one
    decoding step (None: it could not): the first pass then costs one step
    instead of a forced decode per first word.
    """
    slot = verb_slot(text, names, verbs, heard_verbs)
    if slot is None or not verbs:
        return None
    before = text[: slot.start]
    # First each cue's first word right after the words before it: the
    # decoder is causal, so a word needs nothing after it, and these texts
    # are short (or, with `next_logprobs`, only its first token: the rest of
    # a word is nearly certain once it has begun). Then the cues of the few
    # best first words, and what was heard, in full: after a garbled verb the
    # later words still tell ("Repamma Chicken Koop in 3 days": three words
    # of context lost that repair on the dev half).
    firsts = list(dict.fromkeys(cue.split()[0] for cue, _verb in verbs))
    heard_first = text[slot.start : slot.end]
    alone = None if next_logprobs is None else next_logprobs(before, [*firsts, heard_first])
    if alone is not None and alone[-1] - max(alone[:-1]) > KEEP_HEARD_LOGPROB:
        # The decoder is far surer of the heard word's start than of any
        # verb's: the full pass would keep it (dev: 2 of the 4 slots it kept,
        # 7.9 and 5.5 nats; every replaced verb was within 1.8), at ~200 ms.
        return None
    if alone is None:  # no one-step scorer, or it stopped short
        alone = _totals(token_probs, [before + w for w in firsts])
    order = sorted(range(len(firsts)), key=lambda i: alone[i], reverse=True)[:_FINALISTS]
    finalists = _finalists(text, slot, verbs, [firsts[i] for i in order])
    if not finalists:
        return None
    totals = _totals(token_probs, [text, *(f.text for f in finalists)])
    share = by_verb([(f.cue, f.verb) for f in finalists], totals[1:])
    best_verb = max(share, key=lambda v: share[v])
    best = max(
        (i for i, f in enumerate(finalists) if f.verb == best_verb), key=lambda i: totals[1 + i]
    )
    if totals[0] - totals[1 + best] > KEEP_HEARD_LOGPROB:
        return None  # the decoder is far surer of what it wrote
    cue, end = finalists[best].cue, finalists[best].end
    shift = len(cue) - (end - slot.start)
    moved = [w for w in words if w.end <= slot.start]
    moved.append(
        WordProb(slot.start, slot.start + len(cue), min(share[best_verb], RESCORED_VERB_MAX))
    )
    moved += [WordProb(w.start + shift, w.end + shift, w.prob) for w in words if w.start >= end]
    return Rescored(before + cue + text[end:], tuple(moved), text[slot.start : end])


class _Finalist(NamedTuple):
    text: str  # the transcript with `cue` in place of the heard words up to `end`
    cue: str
    verb: str
    end: int


def _finalists(
    text: str, slot: VerbSlot, verbs: Sequence[tuple[str, str]], firsts: Sequence[str]
) -> list[_Finalist]:
    """The cues of the best first words, one per distinct text, as many as
    `_FULL_TEXTS` allows with the heard text (each costs ~15 ms): every
    cue in as many heard words as it has first (best first word first), then
    one more, then one fewer."""
    ranked: list[tuple[tuple[bool, bool, int, int], _Finalist]] = []
    for rank, first in enumerate(firsts):
        for cue, verb in verbs:
            n = len(cue.split())
            if cue.split()[0] != first:
                continue
            for k in _spans(cue, slot):
                end = slot.ends[k - 1]
                candidate = _Finalist(text[: slot.start] + cue + text[end:], cue, verb, end)
                # its own length first, then longer, then shorter; then the
                # better first word; then the longer cue, so that a text
                # several cues give ("make friends" in 2 words, "make" in 1)
                # counts for the cue that says the most.
                ranked.append(((k != n, k < n, rank, -n), candidate))
    out: dict[str, _Finalist] = {}
    for _key, candidate in sorted(ranked, key=lambda r: r[0]):
        if candidate.text != text:
            out.setdefault(candidate.text, candidate)
    return list(out.values())[: _FULL_TEXTS - 1]


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
