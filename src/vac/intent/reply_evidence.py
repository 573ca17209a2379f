"""A spoken yes or no, decided on the recogniser's rescoring against the reply grammar.

When exactly one draft is pending, the recogniser scores a short utterance
against every confirm and reject phrase the parser knows (`Evidence.replies`,
docs/stt.md). A phrase wins only with a clear margin over the best phrase of
the other polarity, and when it is nearly as likely as what the decoder
wrote freely ("Cancel." against "Council."): a sentence that is no reply
scores far above every phrase. Otherwise the words decide as before, on the
utterance confidence (`reply_floor`).

    rescoring decides, the words agree or say nothing   → that reply, acted on
    rescoring decides, the words say the other polarity  → the words, unsure
    rescoring undecided or absent                        → the words, on their floor

Pure: numbers in, a decision out. Typed text has no evidence.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

import msgspec

from vac.intent.evidence import SPOKEN_MIN_CONFIDENCE, Evidence, ReplyChoice, reply_floor
from vac.intent.reply_words import Reply, classify_reply

# Tuned on the dev half of the understanding benchmark, in process
# (benchmarks/reply_rescoring.py; docs/understanding.md). Nats (total
# log-probability) the best phrase must beat the best phrase of the other
# polarity by. Dev replies were 6.5+ apart when confirming, 2.1+ when
# rejecting; short non-replies up to 4.7. A wrong yes binds an agent, a
# wrong no costs a repetition: the yes needs more. With the dev half's
# one-word replies (`DEV_REPLIES`), an espeak "nah" heard as "Yeah..." had
# "Yeah." 4.4 above "No.": at 5 it is asked again, and no right reply is lost.
# The no's 1 nat and the slack's 4 come from every reply phrase spoken by six
# espeak voices the benchmark does not use (246 replies, 78 short
# non-replies): 212 → 222 replies right ("Scrub mud." for "scrap that" 1.3
# nats apart, "Leave my mind." 3.5 short of its transcript), no reply taken
# the other way that was not before, no non-reply acted on, and on the dev
# half nothing changed.
CONFIRM_MARGIN: Final = 5.0
REJECT_MARGIN: Final = 1.0
# Nats the best phrase may fall short of the free transcript (which the
# decoder chose greedily, so it usually scores highest). Dev replies fell
# short by at most 2.6 ("Low fanks." for "no thanks"), but for one it
# misheard into a sentence ("How is it good?", 11). The closest short
# non-replies on dev: "Imani visited the market." 3.6 over its best phrase
# (a yes, 3.4 above the no: under CONFIRM_MARGIN) and 4.5 over (a no, 4.1
# above the yes): at a slack of 5 that one would cancel the draft.
HEARD_SLACK: Final = 4.0
# The figures above were measured with every phrase ending in a full stop.
# Since 2026-12-04 a phrase ends as the transcript does ("Yeah" against
# "Yes", "Nah"…; speech/replies.py): on the dev half only the espeak "Yeah"
# heard without its stop changed (asked again → confirmed), and nothing on
# the six fresh voices, so the margins stand.


# "Yeah" is "nah" with another first sound: an espeak "nah" on a fresh voice
# was heard "Yeah." 6.1 nats over "No." and confirmed the draft. As the best
# yes it needs this much (fresh voices: that wrong yes gone, two right ones
# asked again, "Yay." for "yeah" at 6.3 and "Yeah..." for "sure" at 5.6;
# dev and the probe's renders unchanged).
NAH_PAIR_MARGIN: Final = 6.5
_NAH_PAIRS: Final = frozenset({"yeah", "yea", "yeh", "ya", "yah"})
# A yes of six letters or more heard as said ("Confirm.", "Go ahead.",
# "Correct."), the rescoring's best phrase the transcript itself: it acts at
# this margin. The 5 nats above guard a short "Yeah." heard for an espeak
# "nah" (3.9-6.1 nats on six fresh voices); no such slip makes a longer
# word. Measured 2026-12-06 on dev (100 replies, 475 non-replies), the six
# fresh voices' reply phrases (246 + 108) and a probe's 168 replies
# on six more renders (`benchmarks/reply_rescoring.py`): "Confirm." (4.6)
# and "Go ahead." (3.8) were asked again and act now; no reply the other
# way, no non-reply acted on, at any margin from 2.5 to 4; 3.5 keeps a nat
# in hand. Nothing else changed on any of the three.
AGREED_MARGIN: Final = 3.5
AGREED_SLACK: Final = 1.0
# Letters, at least: "confirm", "go ahead", "correct", "yes please"; not "do
# it" (close to "don't"), "okay", "sure", "yeah" (a review: short ones keep 5).
AGREED_LETTERS: Final = 6


def _best_of(replies: Sequence[ReplyChoice], kind: str) -> ReplyChoice | None:
    """The best-scored phrase of one polarity ("confirm" / "reject")."""
    return max((r for r in replies if r.kind == kind), key=lambda r: r.logprob, default=None)


def _heard(replies: Sequence[ReplyChoice]) -> float | None:
    """The score of what the transcript says (None: it was not scored)."""
    return next((r.logprob for r in replies if r.kind == "heard"), None)


def _letters(text: str) -> str:
    return re.sub(r"[^a-z]", "", text.lower())


def agreed(text: str, replies: Sequence[ReplyChoice]) -> bool:
    """A yes of `AGREED_LETTERS` or more, written as the transcript says it
    and no more than `AGREED_SLACK` below it, `AGREED_MARGIN` over the best no."""
    heard = _heard(replies)
    yes, no_choice = _best_of(replies, "confirm"), _best_of(replies, "reject")
    no = None if no_choice is None else no_choice.logprob
    if heard is None or yes is None or _letters(yes.text) != _letters(text):
        return False  # the best yes is not what was written (a review: "Yeah." for "Yes please.")
    if len(_letters(yes.text)) < AGREED_LETTERS:
        return False
    return heard - yes.logprob <= AGREED_SLACK and (no is None or yes.logprob - no >= AGREED_MARGIN)


# A word of these in what was heard, not in the yes phrase the rescoring
# chose, keeps that yes from acting: a spoken probe's "don't" was heard
# "Don't hit it.", "Do it." scored within the slack, and the draft was
# confirmed. ("No problem." is a yes phrase: its "no" is its own.)
_NEGATIONS: Final = frozenset(
    {"don't", "dont", "not", "no", "never", "nope", "nah", "can't", "cannot", "won't"}
    | {"stop", "cancel", "didn't", "doesn't", "isn't"}
)


def _denied(text: str, replies: Sequence[ReplyChoice]) -> bool:
    """Whether `text` says a negation the best yes phrase does not."""
    yes = _best_of(replies, "confirm")
    said = set(re.findall(r"[a-z']+", text.lower().replace("’", "'")))
    own = set(re.findall(r"[a-z']+", yes.text.lower())) if yes is not None else set()
    return bool((said - own) & _NEGATIONS)


class HeardReply(msgspec.Struct, frozen=True):
    """A reply to the pending draft: which, and whether it may act."""

    kind: Reply
    sure: bool


def rescored(replies: Sequence[ReplyChoice]) -> Reply | None:
    """The reply the rescoring stands behind, if any (see the module's table)."""
    heard = _heard(replies)
    best = {
        kind: max((r.logprob for r in replies if r.kind == kind), default=None)
        for kind in ("confirm", "reject")
    }
    if heard is None:
        return None
    best_yes = _best_of(replies, "confirm")
    yes_margin = CONFIRM_MARGIN
    if best_yes is not None and re.sub(r"[^a-z]", "", best_yes.text.lower()) in _NAH_PAIRS:
        yes_margin = NAH_PAIR_MARGIN
    for kind, other, margin in (
        ("confirm", "reject", yes_margin),
        ("reject", "confirm", REJECT_MARGIN),
    ):
        mine, theirs = best[kind], best[other]
        if mine is None or mine < heard - HEARD_SLACK:
            continue
        if theirs is None or mine - theirs >= margin:
            return "confirm" if kind == "confirm" else "reject"
    return None


def spoken_reply(
    text: str, confidence: float, evidence: Evidence | None, *, rescored_ok: bool = True
) -> HeardReply | None:
    """What `text` answers, and whether it may act on it.

    `rescored_ok=False` (no draft is pending now, e.g. a permission request is
    answered): the words alone decide; the audio was scored against the reply
    phrases for a draft, not for anything else.
    """
    said = classify_reply(text)
    by_audio = rescored(evidence.replies) if evidence is not None and rescored_ok else None
    replies = () if evidence is None else evidence.replies
    far = _far(replies, confidence)
    if by_audio == "confirm" and said is None and (_denied(text, replies) or far):
        by_audio = None  # "Don't hit it." for "don't", "After date." for "not today": no yes
    if by_audio is None and said == "confirm" and evidence is not None and rescored_ok:
        by_audio = "confirm" if agreed(text, evidence.replies) else None  # "Confirm." as said
    if by_audio is not None and said in (None, by_audio):
        return HeardReply(by_audio, sure=True)
    if said is None:
        return None
    if by_audio is not None:  # the audio says the other polarity: never act on it
        return HeardReply(said, sure=False)
    if said == "confirm" and rescored_ok and evidence is not None and _no_close(evidence.replies):
        return HeardReply(said, sure=False)  # "Do it." with "Don't." 2.5 nats behind
    return HeardReply(said, sure=confidence >= reply_floor(said, weighed=evidence is not None))


# A yes read from the words alone (the rescoring undecided) does not act
# when a no phrase scores within this many nats of what was heard: a spoken
# probe's "don't" (espeak en+f5 at 140 words a minute) was written "Do it."
# at 0.41 with "Don't." 2.5 nats behind, and confirmed the draft. Measured
# on the reply rows of dev, the six fresh voices and a probe's renders
# (`benchmarks/reply_rescoring.py`): every yes acted on from its words had
# a no 3.1 nats or more behind ("That's right."), so none is lost.
WORDS_NO_GAP: Final = 3.0


def _no_close(replies: Sequence[ReplyChoice]) -> bool:
    heard = _heard(replies)
    no = _best_of(replies, "reject")
    return heard is not None and no is not None and heard - no.logprob < WORDS_NO_GAP


# A yes the words do not say acts only when its phrase is nearly what was
# heard, or the recogniser is sure enough of what it heard: a spoken probe's
# "not today" (espeak en-us-nyc) was heard "After date." at 0.25, "Okay."
# 2.9 nats short of it and 8.6 over "Don't." ("not today" is no scored
# phrase), and the draft was confirmed. Every such yes that was right on dev
# and the six fresh voices (`benchmarks/reply_rescoring.py`, 2026-12-06) was
# at most 1.2 nats short, or heard at 0.55 or more ("That is good." 2.1 short,
# "Yes, move it." 2.9); below the spoken floor the recogniser doubts its words.
AUDIO_ALONE_SLACK: Final = 2.0


def _far(replies: Sequence[ReplyChoice], confidence: float) -> bool:
    """Whether the best yes is too far below what was heard, itself heard
    under the spoken floor, to act on without a word of it."""
    heard = _heard(replies)
    yes = _best_of(replies, "confirm")
    if heard is None or yes is None or confidence >= SPOKEN_MIN_CONFIDENCE:
        return False
    return heard - yes.logprob > AUDIO_ALONE_SLACK
