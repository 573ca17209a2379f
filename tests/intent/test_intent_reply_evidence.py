"""A spoken yes/no decided on rescoring against the reply grammar
(intent/reply_evidence.py): the golden table of margins, and properties."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vac.intent import Evidence, ReplyChoice, WordProb, classify_reply, reply_phrases, spoken_reply
from vac.intent.reply_evidence import CONFIRM_MARGIN, HEARD_SLACK, REJECT_MARGIN, rescored

WORDS = (WordProb(0, 3, 0.9),)


def scores(heard: float, confirm: float | None, reject: float | None) -> tuple[ReplyChoice, ...]:
    out = [ReplyChoice("heard", "…", heard)]
    if confirm is not None:
        out.append(ReplyChoice("confirm", "Yes.", confirm))
    if reject is not None:
        out.append(ReplyChoice("reject", "Cancel.", reject))
    return tuple(out)


# (heard, best confirm, best reject) in nats → what the rescoring stands behind.
GOLDEN = [
    # The free transcript is itself the phrase: a clear margin acts.
    ((-2.0, -2.0, -2.0 - CONFIRM_MARGIN), "confirm"),
    ((-2.0, -2.0 - REJECT_MARGIN, -2.0), "reject"),
    # "Council." for "cancel": the phrase a little below what was written.
    ((-2.0, -9.0, -2.0 - HEARD_SLACK + 0.1), "reject"),
    # Polarities too close: neither.
    ((-2.0, -2.0, -2.0 - CONFIRM_MARGIN + 0.1), None),
    ((-2.0, -2.0 - REJECT_MARGIN + 0.1, -2.0), None),
    # Every phrase far below the free transcript: a sentence, not a reply.
    ((-1.0, -1.0 - HEARD_SLACK - 0.1, -20.0), None),
    ((-1.0, -20.0, -1.0 - HEARD_SLACK - 0.1), None),
    # Only one polarity fits the transcript's length: it still needs the slack.
    ((-2.0, -2.5, None), "confirm"),
    ((-2.0, None, -2.5), "reject"),
    ((-2.0, -2.0 - HEARD_SLACK - 0.1, None), None),
    # No phrase fits at all.
    ((-2.0, None, None), None),
]


@pytest.mark.parametrize(("nats", "expected"), GOLDEN)
def test_rescoring_golden_table(
    nats: tuple[float, float | None, float | None], expected: str | None
) -> None:
    assert rescored(scores(*nats)) == expected


def test_no_heard_score_means_no_decision() -> None:
    assert rescored((ReplyChoice("confirm", "Yes.", -1.0),)) is None
    assert rescored(()) is None


def evidence(nats: tuple[float, float | None, float | None]) -> Evidence:
    return Evidence(words=WORDS, replies=scores(*nats))


SURE_YES = (-2.0, -2.0, -20.0)
SURE_NO = (-2.0, -20.0, -2.0)
UNDECIDED = (-2.0, -2.0, -2.5)
UNDECIDED_NO_FAR = (-2.0, -2.0, -6.0)  # a yes 4 nats over the no: under the margin


@pytest.mark.parametrize(
    ("text", "confidence", "nats", "expected"),
    [
        # The audio rescues what the words lost: misheard or scored low.
        ("Council.", 0.45, SURE_NO, ("reject", True)),
        ("Crap, not.", 0.3, SURE_NO, ("reject", True)),
        ("Yes.", 0.2, SURE_YES, ("confirm", True)),
        ("Shore.", 0.5, SURE_YES, ("confirm", True)),
        # Words and audio disagree: never acted on.
        ("Yes.", 0.9, SURE_NO, ("confirm", False)),
        ("No.", 0.9, SURE_YES, ("reject", False)),
        # Undecided or no rescoring: the words on their floors, as before.
        ("Yes.", 0.9, UNDECIDED_NO_FAR, ("confirm", True)),
        ("Yes.", 0.2, UNDECIDED_NO_FAR, ("confirm", False)),
        # ... but a yes from the words with a no close behind what was heard
        # is asked again (WORDS_NO_GAP: "Do it." for a slow "don't").
        ("Yes.", 0.9, UNDECIDED, ("confirm", False)),
        ("Council.", 0.9, UNDECIDED, ("reject", True)),  # sounds like "cancel" (gate.py)
        ("Okay, what now?", 0.9, UNDECIDED, None),
        ("What time is it?", 0.9, UNDECIDED, None),
    ],
)
def test_spoken_reply_table(
    text: str,
    confidence: float,
    nats: tuple[float, float | None, float | None],
    expected: tuple[str, bool] | None,
) -> None:
    got = spoken_reply(text, confidence, evidence(nats))
    assert (None if got is None else (got.kind, got.sure)) == expected


def test_without_a_pending_draft_the_audio_scores_are_not_read() -> None:
    # A permission request answered by voice: the words alone decide.
    assert spoken_reply("Go Fed.", 0.5, evidence(SURE_YES), rescored_ok=False) is None
    low = spoken_reply("Yes.", 0.2, evidence(SURE_YES), rescored_ok=False)
    assert low is not None and (low.kind, low.sure) == ("confirm", False)


def test_typed_and_unscored_replies_keep_their_floors() -> None:
    typed = spoken_reply("yes", 1.0, None)
    assert typed is not None and (typed.kind, typed.sure) == ("confirm", True)
    assert spoken_reply("ask Kofi to build a bench", 1.0, None) is None
    unscored = Evidence(words=WORDS)  # no draft pending, or a long utterance
    low = spoken_reply("yes", 0.2, unscored)
    assert low is not None and not low.sure


def test_reply_phrases_are_the_parsers_own() -> None:
    phrases = reply_phrases()
    assert {k for _p, k in phrases} == {"confirm", "reject"}
    assert all(classify_reply(p) == k for p, k in phrases)
    assert ("yes", "confirm") in phrases and ("scrap that", "reject") in phrases


@given(
    heard=st.floats(-30, 0),
    confirm=st.floats(-60, 0) | st.none(),
    reject=st.floats(-60, 0) | st.none(),
)
def test_a_decision_always_has_its_margins(
    heard: float, confirm: float | None, reject: float | None
) -> None:
    got = rescored(scores(heard, confirm, reject))
    if got == "confirm":
        assert confirm is not None and confirm >= heard - HEARD_SLACK
        assert reject is None or confirm - reject >= CONFIRM_MARGIN
    elif got == "reject":
        assert reject is not None and reject >= heard - HEARD_SLACK
        assert confirm is None or reject - confirm >= REJECT_MARGIN


@given(text=st.text(max_size=40), confidence=st.floats(0, 1))
def test_a_non_reply_confirms_only_on_the_audio(text: str, confidence: float) -> None:
    # Without rescoring, only words the parser reads as a reply can act.
    got = spoken_reply(text, confidence, Evidence(words=WORDS))
    if got is not None:
        assert classify_reply(text) == got.kind


def _said(heard: float, yes: tuple[str, float], no: float) -> Evidence:
    replies = (
        ReplyChoice("heard", "…", heard),
        ReplyChoice("confirm", yes[0], yes[1]),
        ReplyChoice("reject", "Cancel.", no),
    )
    return Evidence(WORDS, replies=replies)


@pytest.mark.parametrize(
    ("text", "yes", "margin", "sure"),
    [
        # A yes of two syllables or more heard as said acts at 3.5 nats (it
        # was asked again at the 5 a short "Yeah." needs): fresh voices.
        ("Confirm.", "Confirm.", 4.6, True),
        ("Go ahead.", "Go ahead.", 3.8, True),
        ("Go ahead.", "Go ahead.", 3.4, False),
        # A short yes keeps the 5 nats: an espeak "nah" heard "Yeah." (3.9-4.7).
        ("Yeah.", "Yeah.", 4.7, False),
        ("Sure.", "Sure.", 4.0, False),
        # The words must say yes, and the phrase be what was heard.
        ("Not right.", "That's right.", 4.5, False),
    ],
)
def test_a_long_yes_heard_as_said(text: str, yes: str, margin: float, sure: bool) -> None:
    got = spoken_reply(text, 0.25, _said(-5.0, (yes, -5.0), -5.0 - margin))
    assert (got is not None and got.kind == "confirm" and got.sure) is sure


def test_a_long_yes_far_below_what_was_heard_does_not_act() -> None:
    got = spoken_reply("Confirm.", 0.25, _said(-3.0, ("Confirm.", -4.5), -9.0))
    assert got is not None and not got.sure  # 1.5 nats short of the transcript


@pytest.mark.parametrize(("margin", "sure"), [(6.1, False), (6.6, True)])
def test_yeah_the_other_half_of_nah_needs_more(margin: float, sure: bool) -> None:
    # A fresh espeak voice's "nah" heard "Yeah." 6.1 nats over "No." confirmed the draft.
    got = spoken_reply("Yeah.", 0.23, _said(-2.8, ("Yeah.", -2.8), -2.8 - margin))
    assert got is not None and got.kind == "confirm" and got.sure is sure


@pytest.mark.parametrize(
    ("text", "yes"),
    [
        ("Yeah.", "Yes please."),  # the best yes is not what was written (a review)
        ("Do it.", "Do it."),  # short: close to "don't"; keeps 5 nats
        ("Okay.", "Okay."),
    ],
)
def test_no_lower_margin_for_a_short_or_other_yes(text: str, yes: str) -> None:
    got = spoken_reply(text, 0.2, _said(-5.0, (yes, -5.5), -5.5 - 4.0))
    assert got is None or not got.sure


def test_a_yes_from_the_words_with_a_no_close_behind_is_asked_again() -> None:
    """A slow espeak "don't" written "Do it." (0.41), "Don't." 2.5 nats
    behind: it confirmed the draft (a spoken probe)."""
    from vac.intent.reply_evidence import WORDS_NO_GAP

    close = Evidence(
        words=WORDS,
        replies=(
            ReplyChoice("heard", "Do it.", -4.3),
            ReplyChoice("confirm", "Do it.", -4.3),
            ReplyChoice("reject", "Don't.", -4.3 - WORDS_NO_GAP + 0.2),
        ),
    )
    reply = spoken_reply("Do it.", 0.41, close)
    assert reply is not None and (reply.kind, reply.sure) == ("confirm", False)
    far = Evidence(words=WORDS, replies=(*close.replies[:2], ReplyChoice("reject", "No.", -9.0)))
    reply = spoken_reply("Do it.", 0.41, far)
    assert reply is not None and (reply.kind, reply.sure) == ("confirm", True)


def test_a_rescored_yes_never_acts_on_words_that_say_no() -> None:
    """ "Don't hit it." with "Do it." inside the slack and far over every no:
    the rescoring would confirm; the "don't" it did not score stops it."""
    replies = (
        ReplyChoice("heard", "Don't hit it.", -4.76),
        ReplyChoice("confirm", "Do it.", -5.01),
        ReplyChoice("reject", "No thanks.", -14.9),
    )
    assert rescored(replies) == "confirm"
    assert spoken_reply("Don't hit it.", 0.4, Evidence(words=WORDS, replies=replies)) is None
    yes = (ReplyChoice("heard", "No problem.", -2.0), ReplyChoice("confirm", "No problem.", -2.0))
    got = spoken_reply("No problem.", 0.5, Evidence(words=WORDS, replies=(*yes,)))
    assert got is not None and got.kind == "confirm" and got.sure  # its "no" is its own


@pytest.mark.parametrize(
    ("ok", "confidence", "acts"),
    [
        (-9.76, 0.25, False),  # 2.9 short, heard at 0.25: "After date." for "not today"
        (-7.0, 0.25, True),  # nearly what was heard (0.4 short)
        (-9.76, 0.66, True),  # the words heard surely ("Yes, move it.", 2.9 short)
    ],
)
def test_a_yes_no_word_says_needs_its_phrase_close_or_sure_words(
    ok: float, confidence: float, acts: bool
) -> None:
    """A spoken probe (the sixteenth session): "not today" heard "After
    date." confirmed the draft on the rescoring alone."""
    replies = (
        ReplyChoice("heard", "After date.", -6.88),
        ReplyChoice("confirm", "Okay.", ok),
        ReplyChoice("reject", "Don't.", -18.37),
    )
    assert rescored(replies) == "confirm"
    got = spoken_reply("After date.", confidence, Evidence(words=WORDS, replies=replies))
    assert (got is not None and got.kind == "confirm" and got.sure) == acts
