"""Pure helpers of household-aware recognition: word evidence, loops, the name slot.

No model, no I/O: `WhisperStt` decodes and aligns, these decide what the
numbers mean. Measured on this machine type (docs/stt.md): the probability
of a name's own tokens tells a right agent from a wrong one far better than
the utterance confidence, and putting each roster name into the name slot
and keeping the one the decoder scores highest turns most misheard names
("coffee", "a mani") into the name that was said.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any, Final, NamedTuple

import msgspec
import numpy as np

from vac.speech.nbest import Alternative

# Words that put a name right after them: "ask Kofi to…", "tell Imani…".
_CUES: Final = frozenset({"ask", "tell", "have", "get", "let", "remind", "and"})
# "Ask" as Whisper sometimes writes it, only as the first word ("as soon as…").
_MISHEARD_ASK: Final = frozenset({"as", "asked", "ass", "tel", "tall"})
# "have a look", "get a go": the cue's own idiom, never "have A. Look".
_HAVE_A: Final = [
    ["a", w] for w in ("look", "go", "think", "word", "chat", "peek", "try", "listen", "check")
]
# Cues Whisper writes fused with the name that follows ("Telsuri", "Askofi").
_FUSABLE: Final = {"tell": "Tell ", "tel": "Tell ", "ask": "Ask "}
# Never a name: "ask the team", "tell everyone", "have it done".
_NOT_NAMES: Final = frozenset(
    {
        "the", "a", "an", "it", "them", "us", "me", "everyone", "everybody", "someone",
        "somebody", "anyone", "all", "team", "squad", "this", "that", "these", "those",
        "my", "our", "your", "their", "his", "to", "for", "about", "if", "whether",
    }
)  # fmt: skip
# Short words Whisper splits a name into ("a mani", "a benny", "him any").
_NAME_ONSETS: Final = frozenset({"a", "an", "him", "her", "i", "you", "your", "are", "is"})
# ... and three more, only right before "to" ("tell me many to…", "get too
# many to…" for Imani).
_SPLIT_ONSETS: Final = frozenset({"me", "the", "too"})
_QUESTION_WORDS: Final = frozenset({"how", "what", "where", "when", "why", "which", "who"})
_WORD: Final = re.compile(r"\S+")
_LETTERS: Final = re.compile(r"[^a-z']")
# A run of this many roster names in a row is the prompt echoed, not speech.
_ECHO_NAMES: Final = 3
# A word n-gram said this many times in a row is a decoding loop.
_LOOP_REPEATS: Final = 3
_LOOP_MAX_N: Final = 4


# Encoder positions (20 ms each) kept past the audio when scoring slots: the padding
# says speech ended ("Forget it." in noise: -20 nats at 0.5 s, -2.4 at 2 s, -1.2 at 10).
_MARGIN_POS: Final = 100


def cut_encoded(encoded: Any, frames: int) -> np.ndarray[Any, np.dtype[np.float32]]:
    """The encoder's output up to 2 s past the audio: the rest is padding, and
    a forced decode of a short utterance is ~2-3x cheaper without it."""
    return np.ascontiguousarray(np.asarray(encoded)[:, : frames // 2 + _MARGIN_POS])


class WordProb(msgspec.Struct, frozen=True, array_like=True):
    """One word of a transcript: its characters [start, end) and how sure the
    decoder was of it (the lowest probability of its tokens)."""

    start: int
    end: int
    prob: float


class NameScore(msgspec.Struct, frozen=True, array_like=True):
    """A roster name in the name slot, with its share of the decoder's belief."""

    name: str
    posterior: float


def bare(word: str) -> str:
    """Lower case, letters and apostrophes only: "Kofi," → "kofi"."""
    return _LETTERS.sub("", word.lower())


def word_probs(pieces: Sequence[str], probs: Sequence[float]) -> tuple[str, tuple[WordProb, ...]]:
    """The text the token `pieces` spell, and each word's evidence.

    A Whisper token that starts with a space starts a word; a word's
    probability is that of its least certain token (a name misheard in one
    syllable is misheard). Punctuation-only words carry no evidence of their
    own and are skipped.
    """
    text = "".join(pieces)
    lead = len(text) - len(text.lstrip())
    words: list[WordProb] = []
    pos = 0
    start = end = -1
    low = 1.0
    for piece, prob in zip(pieces, probs, strict=True):
        if piece.startswith(" ") or start < 0:
            if start >= 0 and bare(text[start:end]):
                words.append(WordProb(start - lead, end - lead, low))
            start, low = pos + (len(piece) - len(piece.lstrip())), 1.0
        pos += len(piece)
        end = pos
        if bare(piece):
            low = min(low, float(prob))
    if start >= 0 and bare(text[start:end]):
        words.append(WordProb(start - lead, end - lead, low))
    return text.strip(), tuple(words)


def looped(text: str, names: Sequence[str]) -> bool:
    """Whether `text` is a decoding loop or an echo of the name prompt.

    "Ask Kami and Tami, Imani, Imani, Imani…" (a word repeated) and "As Kofi,
    Tariq, Imani, Zuri, Tariq…" (the roster read back) are transcripts no one
    said; the caller decodes again without the prompt.
    """
    ws = [bare(w) for w in _WORD.findall(text)]
    ws = [w for w in ws if w]
    for n in range(1, _LOOP_MAX_N + 1):
        for i in range(len(ws) - n * _LOOP_REPEATS + 1):
            gram = ws[i : i + n]
            if all(ws[i + k * n : i + (k + 1) * n] == gram for k in range(1, _LOOP_REPEATS)):
                return True
    roster = {bare(n) for n in names}
    # The prompt's own "and", between its last two names ("…, Tariq and
    # Imani."), continues an echo; any other "and" ends a run ("Ask Kofi, Zuri
    # and Imani to…" is said, not echoed).
    last_two = [bare(n) for n in names[-2:]] if len(names) >= 2 else None
    run = 0
    for k, w in enumerate(ws):
        if w == "and" and run and last_two == [ws[k - 1], *ws[k + 1 : k + 2]]:
            continue
        run = run + 1 if w in roster else 0
        if run >= _ECHO_NAMES:
            return True
    return False


_SENTENCE: Final = re.compile(r"[^.!?]+[.!?]*")
# A later sentence sharing this share of its words with the first is Whisper
# reading the same audio again ("Never mind. Never mind."), not new speech.
_ECHO_OVERLAP: Final = 0.6


def collapse_repeats(text: str) -> str:
    """`text` without the sentences that repeat its first one.

    Whisper tiny sometimes transcribes a short utterance twice, the second
    time a little worse ("Get a many to guard the orchard. Get a many Tikard
    the orchard."); kept, the copy turns a "yes" into something that is not a
    reply and a command into two targets.
    """
    sentences = [m.group().strip() for m in _SENTENCE.finditer(text) if m.group().strip()]
    if len(sentences) < 2:
        return text
    first = [w for w in (bare(x) for x in sentences[0].split()) if w]
    kept = [sentences[0]]
    for sentence in sentences[1:]:
        ws = [w for w in (bare(x) for x in sentence.split()) if w]
        shared = sum(1 for w in ws if w in first)
        if not ws or shared / max(len(ws), len(first)) < _ECHO_OVERLAP:
            kept.append(sentence)
    return " ".join(kept)


class Slot(NamedTuple):
    """Where the agent's name sits: characters [start, end) of the transcript,
    and the words to put before a name there (a cue fused into the name:
    "Telsuri" → "Tell " + "Zuri")."""

    start: int
    end: int
    lead: str = ""
    # A cue fused with the name ("Telsuri"), or a name split by a short word
    # ("a mani"): the best name always replaces the heard words.
    fused: bool = False
    # "me"/"the" and a word before "to": a name split in two ("the money") or
    # words said ("the kids"); the name must come nearer than for one word
    # (stt.py), and a slot kept as said is no address (speech/verbs.py).
    split: bool = False


def name_slot(text: str, names: Sequence[str]) -> Slot | None:
    """Where the agent's name sits, if the words say.

    After a cue ("ask X to", "tell X", "have X") or at the very start before
    a comma ("X, please…"). One word, or two when Whisper split a name into
    a short word and the rest ("a mani" for Imani), or the rest of a cue it
    fused with the name ("Telsuri to…"). None when the words name no one
    there ("ask the team", "tell everyone").
    """
    spans = [(m.start(), m.end(), bare(m.group())) for m in _WORD.finditer(text)]
    if not spans:
        return None
    roster = {bare(n) for n in names}
    fused = _fused_cue(text, spans)
    if fused is not None:
        return fused
    at: int | None = None
    if text[spans[0][0] : spans[0][1]].endswith(",") and spans[0][2] not in _NOT_NAMES:
        at = 0
    else:
        for i, (_s, _e, w) in enumerate(spans[:-1]):
            # "As Imani to…" is "Ask Imani to…"; "as soon as…" is not.
            opening = i == 0 and w in _MISHEARD_ASK and "to" in [x[2] for x in spans[2:4]]
            if opening or (w in _CUES and (w != "and" or spans[i + 1][2] in roster)):
                if [x[2] for x in spans[i + 1 : i + 3]] in _HAVE_A:
                    continue  # "Imani have a look at…": no name (a probe: "have Kofi at…")
                at = i + 1
                break
    if at is None:
        return None
    first = spans[at][2]
    if first in _SPLIT_ONSETS and at + 2 < len(spans) and spans[at + 2][2] == "to":
        second = spans[at + 1][2]
        if (
            not second
            or second in roster | _NOT_NAMES | _QUESTION_WORDS
            or text[spans[at][0] : spans[at][1]].endswith(",")
        ):
            return None  # "tell the team to…", "tell me how to…", "tell me, Bob, to…"
        # "Tell me many to…", "get the money to…": a name split in two
        # before "to" (only there: "tell me about…" is a verb); or words
        # ("tell the kids to…"), which the decoder is far surer of.
        end = word_end(text, spans[at + 1][0], spans[at + 1][1])
        return Slot(spans[at][0], end, split=True)
    if not first or (first in _NOT_NAMES and first not in _NAME_ONSETS):
        return None
    if first in _NAME_ONSETS:
        # "a mani to…": two words; "him to…" alone is a pronoun, not a name.
        word = text[spans[at][0] : spans[at][1]]
        if at + 1 >= len(spans) or spans[at + 1][2] in ("to", "") or word.endswith(","):
            return None
        end = word_end(text, spans[at + 1][0], spans[at + 1][1])
        return Slot(spans[at][0], end, fused=True)
    return Slot(spans[at][0], word_end(text, spans[at][0], spans[at][1]))


def _fused_cue(text: str, spans: list[tuple[int, int, str]]) -> Slot | None:
    """ "Telsuri to…", "Telebeni to…", "Telco Phi to…": the cue and the name as one."""
    word = spans[0][2]
    cue = next((c for c in _FUSABLE if word.startswith(c) and len(word) - len(c) >= 2), None)
    if cue is None or word in _CUES or word in _MISHEARD_ASK:
        return None
    # The name runs to the word before "to" (at most one more word).
    for k in (1, 2):
        if k < len(spans) and spans[k][2] == "to":
            end = word_end(text, spans[k - 1][0], spans[k - 1][1])
            return Slot(spans[0][0], end, lead=_FUSABLE[cue], fused=True)
    return None


def word_end(text: str, start: int, end: int) -> int:
    """Where the word text[start:end] ends without its trailing punctuation."""
    word = text[start:end]
    return end - (len(word) - len(word.rstrip(",.;:!?")))


def lookahead(after: str, words: int = 3) -> str:
    """The text after a slot up to its `words`-th word: the context that tells
    the slot's candidates apart. The decoder is causal, so the words beyond
    are scored alike after every candidate, yet each force-decode would pay
    for all of them (the rescoring's cost grew with the sentence)."""
    ends = [m.end() for m in _WORD.finditer(after) if any(c.isalnum() for c in m.group())]
    return after if len(ends) <= words else after[: ends[words - 1]]


def posteriors(names: Sequence[str], logprobs: Sequence[float]) -> tuple[NameScore, ...]:
    """Softmax of the decoder's total log-probability per candidate, best first."""
    top = max(logprobs)
    weights = [math.exp(lp - top) for lp in logprobs]
    total = sum(weights)
    scored = [NameScore(n, w / total) for n, w in zip(names, weights, strict=True)]
    return tuple(sorted(scored, key=lambda s: -s.posterior))


def chosen_probs(logits: Sequence[Any], tokens: Sequence[int]) -> list[float]:
    """The probability of each chosen token under its step's distribution."""
    probs: list[float] = []
    for step, token in zip(logits, tokens, strict=False):
        row = np.asarray(step, dtype=np.float64).ravel()
        row = np.exp(row - row.max())
        probs.append(float(row[token] / row.sum()))
    return probs


# After the roster, a command as people say one: tiny.en then writes what it
# hears in that shape (dev half, daemon-equivalent audio: fields 88.7 → 91.1 %,
# WER 0.137 → 0.122; docs/stt.md). Its words must not be the household's:
# an echo of it on quiet audio is dropped (`transcript_filter.drop_reason`).
PROMPT_EXAMPLE: Final = "Please ask someone to fix the fence by tomorrow."


def roster_sentence(names: Sequence[str], *, example: bool = True) -> str | None:
    """ "Tasks for Abeni, Kofi and Imani. Please ask someone to …": the
    roster, and (`example`) a command of the household's shape, as previous text."""
    if not names:
        return None
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return f"Tasks for {listed}. {PROMPT_EXAMPLE}" if example else f"Tasks for {listed}."


class Decoded(NamedTuple):
    """One greedy (or beam) decoding of a window."""

    text: str
    avg_logprob: float
    no_speech_prob: float
    tokens: list[int]
    probs: list[float] | None  # each token's probability, when the decoder gave it
    alternatives: tuple[Alternative, ...] = ()  # the beam's other hypotheses (speech/nbest)


def without_repeats(decoded: Decoded, pieces: Sequence[str]) -> Decoded:
    """`decoded` cut after its first sentence when the rest only repeats it."""
    kept = collapse_repeats(decoded.text)
    if kept == decoded.text:
        return decoded
    text = ""
    for n, piece in enumerate(pieces, start=1):
        text += piece
        if text.strip() == kept:
            probs = None if decoded.probs is None else decoded.probs[:n]
            return decoded._replace(text=kept, tokens=decoded.tokens[:n], probs=probs)
    return decoded  # the tokens do not end where the kept text does: keep all


# A short word said once takes at most this long (espeak at 150 words/min
# says "confirmed" in ~0.55 s), plus a breath: audio with more voice than
# its copies could hold was more than the loop's word ("No, no, no, No, no."
# for a 2.5 s command must not become a "No").
_SECONDS_PER_WORD: Final = 0.7
_SECONDS_SLACK: Final = 0.3


def one_copy(decoded: Decoded, pieces: Sequence[str], voiced_s: float) -> Decoded | None:
    """The first copy of a transcript that is nothing but one word said
    twice or more, or two to four said three times or more ("Console
    Console", "confirm confirm confirm confirm": Whisper looping on a short
    reply, a probe's fresh espeak voice), when `voiced_s` of voice fits one
    copy; else None."""
    if re.search(r"\d", decoded.text):
        return None  # "No. 5, no 5": bare words drop digits; a count is no loop
    ws = [w for w in (bare(x) for x in _WORD.findall(decoded.text)) if w]
    n = next(
        (
            n
            for n in range(1, _LOOP_MAX_N + 1)
            if len(ws) >= n * (2 if n == 1 else _LOOP_REPEATS)
            and all(w == ws[k % n] for k, w in enumerate(ws))
        ),
        None,
    )
    if n is None or voiced_s > n * _SECONDS_PER_WORD + _SECONDS_SLACK:
        return None
    text = ""
    for m, piece in enumerate(pieces, start=1):
        text += piece
        said = [w for w in (bare(x) for x in _WORD.findall(text)) if w]
        if said == ws[:n] and (m == len(pieces) or pieces[m][:1].isspace()):
            probs = None if decoded.probs is None else decoded.probs[:m]
            return decoded._replace(text=text.strip(), tokens=decoded.tokens[:m], probs=probs)
    return None
