"""The reply-grammar scoring's pure parts (speech/replies.py), with a fake aligner."""

from __future__ import annotations

import math

from vac.intent import reply_phrases
from vac.speech.replies import (
    BATCH,
    FINALISTS_PER_KIND,
    as_heard,
    candidates,
    ending_as,
    finalists,
    first_word,
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


def test_first_words_of_phrases() -> None:
    assert first_word("That's right.") == "That's"
    assert first_word("Don't.") == "Don't"
    assert first_word("Yes, please…") == "Yes"


def test_the_first_pass_keeps_each_polaritys_likeliest_first_words() -> None:
    kept = [
        ("Yes.", "confirm"),
        ("Yes please.", "confirm"),
        ("Okay.", "confirm"),
        ("No.", "reject"),
        ("Nope.", "reject"),
        ("Cancel.", "reject"),
    ]
    likely = {"Yes": -1.0, "Okay": -6.0, "No": -9.0, "Nope": -2.0, "Cancel": -12.0}
    order = list(dict.fromkeys(first_word(t) for t, _k in kept))
    got = finalists(kept, [likely[w] for w in order])
    # Small sets are kept whole; in the given order.
    assert got == kept
    many = [(f"Yes {i}.", "confirm") for i in range(8)] + [("Okay.", "confirm")]
    many += [(f"No {i}.", "reject") for i in range(8)] + [("Nope.", "reject")]
    order = list(dict.fromkeys(first_word(t) for t, _k in many))
    assert order == ["Yes", "Okay", "No", "Nope"]
    got = finalists(many, [-5.0, -1.0, -3.0, -0.5])
    confirm = [t for t, k in got if k == "confirm"]
    reject = [t for t, k in got if k == "reject"]
    # The likeliest first word's phrases first, then the next word's, so
    # that each polarity is represented by its best candidates.
    assert confirm == ["Yes 0.", "Yes 1.", "Yes 2.", "Yes 3.", "Okay."]
    assert reject == ["No 0.", "No 1.", "No 2.", "No 3.", "Nope."]
    assert len(got) == 2 * FINALISTS_PER_KIND


def test_score_decodes_only_the_finalists_in_one_batch() -> None:
    calls: list[list[str]] = []
    asked: list[list[str]] = []

    def token_probs(texts: list[str]) -> list[list[float]]:
        calls.append(texts)
        return [[0.9 if "ancel" in t else 0.1] for t in texts]

    def first_logprobs(words: list[str]) -> list[float]:
        asked.append(words)
        return [-0.1 if w == "Cancel" else -5.0 if w == "Yes" else -9.0 for w in words]

    phrases = candidates(reply_phrases())
    got = score("Council.", phrases, token_probs, first_logprobs)
    assert len(calls) == 1 and len(calls[0]) <= BATCH  # one batch, not four
    assert asked and "Cancel" in asked[0] and len(asked[0]) == len(set(asked[0]))
    assert got[0].text == "Cancel." and got[0].kind == "reject"
    kinds = {s.kind for s in got}
    assert kinds == {"heard", "confirm", "reject"}  # both polarities still compared
    assert {"Cancel.", "Cancel that.", "Cancel it.", "Yes."} <= {s.text for s in got}


def test_score_falls_back_to_every_phrase_without_a_first_pass() -> None:
    seen: list[str] = []

    def token_probs(texts: list[str]) -> list[list[float]]:
        seen.extend(texts)
        return [[0.5] for _t in texts]

    phrases = candidates(reply_phrases())
    score("Council.", phrases, token_probs, lambda words: None)
    assert set(seen) == {"Council."} | {t for t, _k in phrases if fits(t, "Council.")}


def test_a_phrase_begins_as_the_transcript_begins() -> None:
    # "approved." heard in noise is the phrase "Approved.", word for word.
    assert as_heard("Approved.", "approved.") == "approved."
    assert as_heard("Yes please.", "yes, please") == "yes please"
    assert as_heard("Yes.", "Yeah") == "Yes"
    assert as_heard("No.", "...no") == "no"
    assert as_heard("No.", "Nah, 2.") == "No."


def test_a_lower_case_transcript_scores_its_phrase_as_itself() -> None:
    def token_probs(texts: list[str]) -> list[list[float]]:
        # Case costs: the decoder wrote "approved.", not "Approved.".
        return [[0.9 if t.startswith("approved") else 0.05] for t in texts]

    got = score("approved.", candidates(reply_phrases()), token_probs)
    heard = next(s for s in got if s.kind == "heard")
    same = next(s for s in got if s.kind == "confirm" and s.text == "approved.")
    assert same.logprob == heard.logprob
