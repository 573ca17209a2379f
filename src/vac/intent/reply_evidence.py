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

from collections.abc import Sequence
from typing import Final

import msgspec

from vac.intent.evidence import Evidence, ReplyChoice, reply_floor
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


class HeardReply(msgspec.Struct, frozen=True):
    """A reply to the pending draft: which, and whether it may act."""

    kind: Reply
    sure: bool


def rescored(replies: Sequence[ReplyChoice]) -> Reply | None:
    """The reply the rescoring stands behind, if any (see the module's table)."""
    heard = next((r.logprob for r in replies if r.kind == "heard"), None)
    best = {
        kind: max((r.logprob for r in replies if r.kind == kind), default=None)
        for kind in ("confirm", "reject")
    }
    if heard is None:
        return None
    for kind, other, margin in (
        ("confirm", "reject", CONFIRM_MARGIN),
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
    if by_audio is not None and said in (None, by_audio):
        return HeardReply(by_audio, sure=True)
    if said is None:
        return None
    if by_audio is not None:  # the audio says the other polarity: never act on it
        return HeardReply(said, sure=False)
    return HeardReply(said, sure=confidence >= reply_floor(said, weighed=evidence is not None))
