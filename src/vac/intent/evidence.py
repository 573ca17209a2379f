"""Deciding on evidence per slot: a draft, a draft with a field flagged, or a choice.

One utterance confidence cannot say *which* word was misheard, and the
steward confirms every draft anyway: so a spoken draft is weighed by the
recogniser's evidence for the words that carry it — the agent's name, the
verb, the deadline — not refused wholesale. Measured (docs/stt.md): the
probability of a name's own tokens separates right agents from wrong ones
far better than the utterance confidence.

    name sure                               → the draft as parsed
    name unsure, one roster name stands out → the draft, "I'm not sure of the name"
    name very unsure, two names close       → "Did you mean Imani or Abeni?"
    verb or deadline words unsure           → the draft, that field flagged

Pure: the recogniser's numbers in, a `Draft` or `Clarify` out. Typed text has
no evidence and is never weighed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Final

import msgspec

from vac.intent import alternatives as alt
from vac.intent import lexicon as lx
from vac.intent.parser import MIN_CONFIDENCE, Clarify, Draft
from vac.intent.reply_words import REJECT_MIN_CONFIDENCE
from vac.protocol.objective import UncertainField

# Tuned on the dev half of the understanding benchmark (docs/understanding.md).
# Below this, the words of a slot are flagged in the preview.
NAME_SURE: Final = 0.5
VERB_SURE: Final = 0.3
DEADLINE_SURE: Final = 0.3
# A name this unsure, with a second roster name at least this likely, is asked.
NAME_ASK_BELOW: Final = 0.1
SECOND_NAME_AT_LEAST: Final = 0.25
# A spoken "yes" binds an agent: it needs this utterance confidence (a typed
# one needs none). tiny.en scores a right one-word reply low: "Yes." 0.46-0.60
# and "Cancel." 0.55 on the fixtures, multi-word replies 0.54-0.85 on the dev
# half; a reply is only ever read when exactly one draft is pending.
SPOKEN_CONFIRM_MIN_CONFIDENCE: Final = 0.4
SPOKEN_REJECT_MIN_CONFIDENCE: Final = 0.3
# The utterance confidence under which nothing is guessed when words carry
# evidence (typed text and evidence-less transcripts keep `MIN_CONFIDENCE`).
SPOKEN_MIN_CONFIDENCE: Final = 0.35

_FLAG_WORDS: Final[dict[UncertainField, str]] = {
    "agent": "the name",
    "verb": "what to do",
    "deadline": "when",
}
TIME_WORDS: Final = frozenset(
    lx.words(
        "today tonight tomorrow week weekend month morning afternoon evening night noon "
        "midnight day days hour hours monday tuesday wednesday thursday friday saturday "
        "sunday january february march april may june july august september october "
        "november december"
    )
)


class WordProb(msgspec.Struct, frozen=True, array_like=True):
    """A word of the transcript: its characters [start, end) and its probability."""

    start: int
    end: int
    prob: float


class NameChoice(msgspec.Struct, frozen=True, array_like=True):
    """A roster name scored in the name slot, with its share of the decoder's belief."""

    name: str
    posterior: float


class ReplyChoice(msgspec.Struct, frozen=True, array_like=True):
    """A reply phrase (`confirm`/`reject`) or the free transcript (`heard`),
    with its total log-probability given the audio."""

    kind: str
    text: str
    logprob: float


class Evidence(msgspec.Struct, frozen=True):
    """What the recogniser knows about its own transcript."""

    words: tuple[WordProb, ...] = ()
    names: tuple[NameChoice, ...] = ()  # best first; empty when no slot was rescored
    # Best first; empty unless a reply was expected and the utterance was short.
    replies: tuple[ReplyChoice, ...] = ()
    # The words the name slot held as the recogniser wrote them, when `names` were scored.
    name_heard: str | None = None
    # The beam's other hypotheses, best first (`intent.alternatives`).
    alternatives: tuple[alt.Alternative, ...] = ()


def reply_floor(kind: str, *, weighed: bool) -> float:
    """The utterance confidence a yes (`confirm`) or no (`reject`) needs to act.

    `weighed`: the words came with the recogniser's per-word evidence (the
    daemon's own decoding); without it the older, stricter floors hold.
    """
    if kind == "confirm":
        return SPOKEN_CONFIRM_MIN_CONFIDENCE if weighed else MIN_CONFIDENCE
    return SPOKEN_REJECT_MIN_CONFIDENCE if weighed else REJECT_MIN_CONFIDENCE


def span_prob(evidence: Evidence, start: int, end: int) -> float | None:
    """The least sure word overlapping characters [start, end), if any."""
    probs = [w.prob for w in evidence.words if w.start < end and w.end > start]
    return min(probs) if probs else None


def weigh(
    draft: Draft, evidence: Evidence, *, unsure: UncertainField | None = None
) -> Draft | Clarify:
    """The draft as the evidence supports it (see the module's table);
    `unsure` is flagged whatever its words' evidence."""
    if not evidence.words:
        return draft
    source = draft.objective.source_text
    flags: list[UncertainField] = []
    name_p = _name_prob(draft, evidence, source)
    if name_p is not None and name_p < NAME_SURE:
        choice = _choice(draft, evidence, name_p)
        if choice is not None:
            return choice
        flags.append("agent")
    toks = lx.tokenize(source)
    verb_p = _verb_prob(toks, evidence)
    if verb_p is not None and verb_p < VERB_SURE:
        flags.append("verb")
    if draft.objective.deadline is not None:
        when_p = _min_over(toks, evidence, lambda t: t.low in TIME_WORDS or t.low[:1].isdigit())
        if when_p is not None and when_p < DEADLINE_SURE:
            flags.append("deadline")
    if unsure is not None and unsure not in flags:
        flags = [f for f in _FLAG_WORDS if f in flags or f == unsure]
    if not flags:
        return draft
    return msgspec.structs.replace(
        draft, uncertain=tuple(flags), summary=flagged_summary(draft.summary, flags)
    )


def with_flags(draft: Draft, flags: Sequence[UncertainField]) -> Draft:
    """`draft` with `flags` as its unsure fields, said in its summary; a
    draft flagged already is kept as it is (its summary says so)."""
    if not flags or draft.uncertain:
        return draft
    ordered = [f for f in _FLAG_WORDS if f in flags]
    return msgspec.structs.replace(
        draft, uncertain=tuple(ordered), summary=flagged_summary(draft.summary, ordered)
    )


def flagged_summary(summary: str, flags: Sequence[UncertainField]) -> str:
    """The summary with the unsure fields said: "Imani will map the orchard —
    confirm?" → "Imani will map the orchard? — I'm not sure of the name. Confirm?"."""
    what = " or ".join(_FLAG_WORDS[f] for f in flags)
    head, sep, tail = summary.partition(" — confirm?")
    if not sep:
        return f"{summary} — I'm not sure of {what}."
    return f"{head}? — I'm not sure of {what}. Confirm?{tail}"


def _name_prob(draft: Draft, evidence: Evidence, source: str) -> float | None:
    if draft.agent_source in ("current", "default"):
        # No name was heard: one may have been said and lost ("Telco Phi to…"),
        # so a spoken draft sent to whoever is current is never a sure one.
        return 0.0 if draft.agent_source == "default" else NAME_SURE / 2
    if draft.agent_source == "rescored":
        # A name no one has, taken as the roster name the rescoring preferred
        # and spelled most like it ("Yuri" → Zuri): never a sure one.
        return NAME_SURE / 2
    if draft.heard_as is None:
        return None
    at = source.lower().find(draft.heard_as.lower())
    if at < 0:
        return None
    p = span_prob(evidence, at, at + len(draft.heard_as))
    if p is not None and _beam_doubts(draft.heard_as, evidence):
        # The beam's next hypotheses close behind wrote another name there
        # ("Tariq," over "Tari,", "Turi,": joe's "Zuri", a probe): drafted
        # unflagged for Tariq at 0.54-0.67, over the 0.5 floor.
        return min(p, NAME_SURE / 2)
    if draft.agent_source in ("fuzzy", "phonetic") and p is not None:
        # A name read from words spelled like it ("A mani," → Imani) is no
        # sure one, however sure its words: on dev and six fresh voices 2
        # of 4 unflagged such drafts named the wrong agent (Abeni's).
        return min(p, NAME_SURE / 2)
    return p


def _beam_doubts(heard_as: str, evidence: Evidence) -> bool:
    """Whether a hypothesis within `alt.MAX_BEHIND` nats lacks the name as heard."""
    said = re.compile(rf"\b{re.escape(heard_as)}\b", re.IGNORECASE)
    return any(
        a.behind <= alt.MAX_BEHIND and not said.search(a.text) for a in evidence.alternatives
    )


def _choice(draft: Draft, evidence: Evidence, name_p: float) -> Clarify | None:
    """ "Did you mean Imani or Abeni?" when the name is a near toss-up."""
    names = [n for n in evidence.names if n.posterior >= SECOND_NAME_AT_LEAST]
    if draft.heard_as is None or name_p >= NAME_ASK_BELOW or len(names) < 2:
        return None
    first, second = names[0].name, names[1].name
    return Clarify(
        "uncertain-agent",
        f"Did you mean {first} or {second}?",
        draft.objective.source_text,
        draft.objective.confidence,
        candidates=(first, second),
        heard_as=draft.heard_as,
    )


def _verb_prob(toks: Sequence[lx.Tok], evidence: Evidence) -> float | None:
    hit = lx.find_first(toks, lx.VERB_PHRASES)
    if hit is None:
        return None
    i, phrase = hit
    return span_prob(evidence, toks[i].start, toks[i + len(phrase) - 1].end)


def _min_over(
    toks: Sequence[lx.Tok], evidence: Evidence, pick: Callable[[lx.Tok], bool]
) -> float | None:
    probs = [p for t in toks if pick(t) and (p := span_prob(evidence, t.start, t.end)) is not None]
    return min(probs) if probs else None
