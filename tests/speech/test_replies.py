"""The reply-grammar scoring's pure parts (speech/replies.py), with a fake aligner."""

from __future__ import annotations

import math

from vac.intent import reply_phrases
from vac.speech.replies import (
    BATCH,
    candidates,
    ending_as,
    fits,
    score,
    short_enough,
    written,
)


def test_phrases_are_written_as_whisper_writes_them() -> None:
    assert written("never mind") == "Never mind."
    assert written(" yes ") == "Yes."
    got = candidates([("yes", "confirm"), ("Yes", "confirm"), ("no", "reject"), ("x", "other")])
    assert got == (("Yes.", "confirm"), ("No.", "reject"))


def test_only_short_transcripts_and_phrases_of_about_their_length() -> None:
    assert short_enough("Council.") and short_enough("Crap, not.")
    assert short_enough("What time is it?")
    assert not short_enough("Ask Kofi to build a bench.")
    assert not short_enough("…")
    assert fits("Cancel.", "Council.") and fits("Cancel that.", "Council.")
    # A prefix is no reply: "Okay." is not scored against "Okay, what now?".
    assert not fits("Okay.", "Okay, what now?")


def test_score_batches_the_phrases_and_ranks_them() -> None:
    calls: list[list[str]] = []

    def token_probs(texts: list[str]) -> list[list[float]]:
        calls.append(texts)
        # The fake audio says "cancel": a text is likelier the more it says so.
        return [[0.9 if "ancel" in t else 0.1] * max(1, len(t.split())) for t in texts]

    phrases = candidates(reply_phrases())
    got = score("Council.", phrases, token_probs)
    assert all(len(c) <= BATCH for c in calls)
    assert calls[0][0] == "Council."  # the free transcript is scored with them
    assert got[0].text == "Cancel." and got[0].kind == "reject"
    assert math.isclose(got[0].logprob, math.log(0.9))
    heard = next(s for s in got if s.kind == "heard")
    assert heard.text == "Council." and math.isclose(heard.logprob, math.log(0.1))
    scored = {s.text for s in got if s.kind != "heard"}
    assert scored == {t for t, _k in phrases if fits(t, "Council.")}
    assert [s.logprob for s in got] == sorted((s.logprob for s in got), reverse=True)


def test_a_phrase_ends_as_the_transcript_ends_but_for_a_question() -> None:
    # Words are compared, not punctuation: "Yeah" heard without its full stop
    # is scored against "Yes", "Yeah", "No"…, not "Yeah." (4.4 nats apart).
    assert ending_as("Yeah.", "Yeah") == "Yeah"
    assert ending_as("Do it.", "Do it...") == "Do it..."
    assert ending_as("Stop.", "Stop!") == "Stop!"
    assert ending_as("Yes.", "Yeah…") == "Yes…"
    assert ending_as("Yes.", "Yeah.") == "Yes."
    # Asked back ("Yes?", "Sure?!") or cut off ("Okay,"): the phrase keeps its full stop.
    for heard in ("Yes?", "Sure?!", "Okay,", "Crap, Matt.", "Yes? ...", 'Yes?"', "(Yes?)", "Yes？"):
        assert ending_as("Yes.", heard) == "Yes."


def test_scored_phrases_carry_the_transcripts_ending() -> None:
    seen: list[str] = []

    def token_probs(texts: list[str]) -> list[list[float]]:
        seen.extend(texts)
        return [[0.5] for _t in texts]

    got = score("Yeah", candidates(reply_phrases()), token_probs)
    assert "Yeah" in seen and "Yeah." not in seen
    assert {s.text for s in got} >= {"Yeah", "Yes", "No"}
    assert not any(t.endswith(".") for t in seen)
