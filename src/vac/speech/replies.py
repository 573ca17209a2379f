"""A short utterance scored against the reply grammar, when a reply is expected.

tiny.en mishears one-word replies ("Council" for an espeak "cancel", "Crap,
not" for "scrap that") and scores right ones low. When exactly one draft is
pending, the words that can answer it are a closed set: the parser's confirm
and reject phrases. Each is force-decoded against the audio, as the name
slot is (docs/stt.md), and the intent layer compares the best phrase of each
polarity with the other and with the free transcript
(`vac.intent.reply_evidence`).

A score is a text's total log-probability given the audio. CTranslate2's
forced decoding gives no probability for the end of the text, so a prefix
would score as well as the whole ("Okay." on "Okay, what now?"): a phrase is
only scored when its length in words is within one of the free transcript's.

A phrase ends as the free transcript ends ("Yeah" without a full stop,
"Do it..."): the comparison is of words, not of punctuation. The full stop
Whisper left off an espeak "Yeah" cost its phrase "Yeah." 4.4 nats, more
than the slack the intent layer allows, so a clear yes was asked again. A
question mark is not copied: "Yes?" asked back stays scored as it was.

No model here: `WhisperStt` supplies the two scoring calls.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from typing import Final, Literal

import msgspec

ReplyKind = Literal["confirm", "reject", "heard"]

# Only a short transcript may be a misheard reply: "Council", "Crap, not",
# "Console Met". Anything longer is a sentence, parsed as one.
REPLY_MAX_WORDS: Final = 4
# Phrases force-decoded per batch: the cost of a batch grows faster than its
# size (12 phrases 35 ms, 24 phrases 109 ms, 41 phrases 188 ms on 2 cores).
BATCH: Final = 12
# A phrase this many words longer or shorter than the free transcript is not scored.
WORDS_APART: Final = 1
# Phrases of each polarity force-decoded after the first pass (below): those
# of its likeliest first words. With the free transcript, one batch.
FINALISTS_PER_KIND: Final = 5
_FLOOR: Final = 1e-9
_WORDS: Final = re.compile(r"[A-Za-z0-9']+")
# What follows a transcript's last letter or digit, and the endings copied.
_LAST_WORD_END: Final = re.compile(r"[^\W_]([\W_]*)\Z")
_PLAIN_END: Final = re.compile(r"[.!…]*")


class ReplyScore(msgspec.Struct, frozen=True, array_like=True):
    """A reply phrase (or the free transcript, `heard`) and its score given the audio."""

    kind: str  # ReplyKind
    text: str
    logprob: float  # total log-probability of the text's tokens given the audio


def written(phrase: str) -> str:
    """How Whisper writes a reply phrase: "never mind" → "Never mind."."""
    phrase = phrase.strip()
    return phrase[:1].upper() + phrase[1:] + "."


def candidates(phrases: Sequence[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """(written phrase, kind), one per written form, in the given order.

    `phrases` are the parser's (phrase, "confirm"|"reject") pairs; spellings
    that only differ in case collapse to one.
    """
    seen: set[str] = set()
    out: list[tuple[str, str]] = []
    for phrase, kind in phrases:
        text = written(phrase)
        if text.lower() not in seen and kind in ("confirm", "reject"):
            seen.add(text.lower())
            out.append((text, kind))
    return tuple(out)


def words(text: str) -> int:
    return len(_WORDS.findall(text))


def short_enough(text: str) -> bool:
    """Whether a transcript is short enough to be a misheard reply."""
    return 0 < words(text) <= REPLY_MAX_WORDS


def fits(phrase: str, heard: str) -> bool:
    """Whether `phrase` could be what was heard as `heard`, by its length."""
    return abs(words(phrase) - words(heard)) <= WORDS_APART


def ending_as(phrase: str, heard: str) -> str:
    """`phrase` (written, ending in a full stop) ending as `heard` ends after
    its last letter or digit (spaces after it aside): nothing, "...", "!",
    "…". Any other ending (a question mark anywhere in it, a comma, a quote,
    a bracket, a dash) leaves the full stop."""
    match = _LAST_WORD_END.search(heard.rstrip())
    end = match.group(1) if match is not None else "."
    if not _PLAIN_END.fullmatch(end):
        end = "."
    return phrase.removesuffix(".") + end


def as_heard(phrase: str, heard: str) -> str:
    """`phrase` ending as `heard` ends (`ending_as`) and, when `heard` begins
    with a small letter, beginning with one: Whisper wrote a noisy "approved"
    as "approved.", and its phrase "Approved." scored 3.1 nats under it, the
    same word; its yes was asked again (dev, joe in pink noise)."""
    phrase = ending_as(phrase, heard)
    first = next((c for c in heard if c.isalpha()), "")
    if first.islower():
        return phrase[:1].lower() + phrase[1:]
    return phrase


def total(probs: Sequence[float]) -> float:
    return sum(math.log(max(float(p), _FLOOR)) for p in probs)


def first_word(phrase: str) -> str:
    """The word a phrase begins with, without punctuation: "That's right." → "That's"."""
    found = _WORDS.findall(phrase)
    return found[0] if found else phrase


def finalists(
    kept: Sequence[tuple[str, str]], first_logprobs: Sequence[float]
) -> list[tuple[str, str]]:
    """The phrases worth a forced decoding: for each polarity, those of its
    likeliest first words (`first_logprobs`, one per distinct first word in
    order of appearance), `FINALISTS_PER_KIND` at most; in `kept`'s order."""
    firsts = list(dict.fromkeys(first_word(text) for text, _kind in kept))
    rank = {w: lp for w, lp in zip(firsts, first_logprobs, strict=True)}
    chosen: set[int] = set()
    for polarity in ("confirm", "reject"):
        mine = [i for i, (_t, kind) in enumerate(kept) if kind == polarity]
        # Stable: phrases of one first word stay in the given order.
        mine.sort(key=lambda i: -rank[first_word(kept[i][0])])
        chosen.update(mine[:FINALISTS_PER_KIND])
    return [p for i, p in enumerate(kept) if i in chosen]


def score(
    heard: str,
    phrases: Sequence[tuple[str, str]],
    token_probs: Callable[[list[str]], list[list[float]]],
    first_logprobs: Callable[[list[str]], list[float] | None] | None = None,
) -> tuple[ReplyScore, ...]:
    """The free transcript and each phrase that `fits` it, scored; best first.

    `token_probs(texts)` gives each text's token probabilities given the
    audio (forced decoding); it is called with at most `BATCH` texts.
    `first_logprobs(words)`, if given, the log-probability of each word's
    first token at the start of the utterance, from one decoding step (None:
    it could not): then only the phrases of each polarity's likeliest first
    words are force-decoded (`finalists`), one batch instead of up to four.
    """
    kept = [(as_heard(text, heard), kind) for text, kind in phrases if fits(text, heard)]
    if first_logprobs is not None and len(kept) > 2 * FINALISTS_PER_KIND:
        firsts = first_logprobs(list(dict.fromkeys(first_word(t) for t, _k in kept)))
        if firsts is not None:
            kept = finalists(kept, firsts)
    texts = [heard, *(text for text, _kind in kept)]
    sums: list[float] = []
    for at in range(0, len(texts), BATCH):
        sums += [total(p) for p in token_probs(texts[at : at + BATCH])]
    scored = [ReplyScore("heard", heard, sums[0])]
    scored += [ReplyScore(kind, text, s) for (text, kind), s in zip(kept, sums[1:], strict=True)]
    return tuple(sorted(scored, key=lambda s: -s.logprob))


__all__ = [
    "REPLY_MAX_WORDS",
    "ReplyKind",
    "ReplyScore",
    "as_heard",
    "candidates",
    "ending_as",
    "finalists",
    "first_word",
    "fits",
    "score",
    "short_enough",
    "written",
]
