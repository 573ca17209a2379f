"""The verb slot's pure parts (speech/verbs.py), with a fake aligner."""

from __future__ import annotations

import pytest

from vac.intent import verb_words
from vac.intent.evidence import VERB_SURE
from vac.speech.slots import WordProb
from vac.speech.verbs import RESCORED_VERB_MAX, by_verb, rescore, verb_slot

NAMES = ("Abeni", "Kofi", "Zuri", "Tariq", "Imani")
VERBS = verb_words()


def test_the_slot_is_right_after_the_agent_when_no_verb_was_heard() -> None:
    text = "Tell Tariq to God the village tonight."
    slot = verb_slot(text, NAMES, VERBS)
    assert slot is not None and text[slot.start : slot.end] == "God"
    text = "Zuri, please Repamma the fence."
    slot = verb_slot(text, NAMES, VERBS)
    assert slot is not None and text[slot.start : slot.end] == "Repamma"


def test_no_slot_when_a_verb_was_heard_or_no_agent_or_nothing_follows() -> None:
    assert verb_slot("Tell Tariq to guard the village.", NAMES, VERBS) is None
    assert verb_slot("What time is it?", NAMES, VERBS) is None
    assert verb_slot("Ask Kofi to go.", NAMES, VERBS) is None  # nothing to act on
    assert verb_slot("Get Imani at the smoke.", NAMES, VERBS) is None  # "look at" dropped
    assert verb_slot("Kofi, Tariq, put a fence up.", NAMES, VERBS) is None  # a second name


@pytest.mark.parametrize(
    "text",
    [
        "Could you have Imani get to know the new teacher, no rush?",
        "Get Imani to look at the smoke near the barn.",
        "Get Imani to tell me about the new lambs, no rush.",
    ],
)
def test_a_verb_of_several_words_heard_is_a_verb_heard(text: str) -> None:
    # No slot: rescoring these cost 450-610 ms per final for nothing (measured).
    assert verb_slot(text, NAMES, VERBS) is None


def test_a_verb_of_several_words_elsewhere_leaves_the_slot() -> None:
    text = "Ask Kofi to God the fence and let me know about it."
    slot = verb_slot(text, NAMES, VERBS)
    assert slot is not None and text[slot.start : slot.end] == "God"


def test_every_one_word_verb_is_tried_short_and_the_best_four_in_full() -> None:
    batches: list[list[str]] = []

    def recording(texts: list[str]) -> list[list[float]]:
        batches.append(texts)
        return [[0.9 if t.split()[-1] in ("guard", "repair") else 0.5] for t in texts]

    rescore("Tell Tariq to God the old village by the river.", (), NAMES, VERBS, recording)
    tried = [t for b in batches for t in b]
    one_word = [w for w, _v in VERBS if " " not in w]
    assert all(len(b) <= 12 for b in batches)
    assert tried[: len(one_word)] == [f"Tell Tariq to {w}" for w in one_word]
    full = tried[len(one_word) :]
    assert len(full) == 5 and full[0] == "Tell Tariq to God the old village by the river."
    assert {"Tell Tariq to guard the old village by the river.", "Tell Tariq to repair "
            "the old village by the river."} <= set(full)  # fmt: skip


def fake(texts: list[str]) -> list[list[float]]:
    # The fake audio says "guard": texts are likelier the more they say so.
    said = [t.replace(".", " ").split() for t in texts]
    return [[0.9 if "guard" in w else 0.5 if "watch" in w else 0.2] for w in said]


def test_the_best_verb_replaces_the_heard_word_and_is_never_sure() -> None:
    text = "Tell Tariq to God the village."
    words = tuple(WordProb(m, m + len(w), 0.9) for m, w in ((0, "Tell"), (5, "Tariq,")))
    words += (WordProb(14, 17, 0.4), WordProb(22, 30, 0.8))  # "God", "village."
    got = rescore(text, words, NAMES, VERBS, fake)
    assert got is not None
    assert got.text == "Tell Tariq to guard the village." and got.heard == "God"
    verb = next(w for w in got.words if got.text[w.start : w.end] == "guard")
    assert verb.prob <= RESCORED_VERB_MAX < VERB_SURE  # the draft flags it
    village = next(w for w in got.words if got.text[w.start : w.end] == "village.")
    assert village.prob == 0.8


def test_the_heard_word_is_kept_when_the_decoder_is_far_surer_of_it() -> None:
    batches: list[list[str]] = []

    def recording(texts: list[str]) -> list[list[float]]:
        batches.append(texts)
        heard = "Tell Tariq to God the village."
        return [[0.9] if t == heard else [0.001] for t in texts]

    assert rescore("Tell Tariq to God the village.", (), NAMES, VERBS, recording) is None
    assert all(len(b) <= 12 for b in batches)


def test_a_verbs_share_sums_its_words() -> None:
    share = by_verb([("guard", "Protect"), ("watch", "Protect"), ("build", "Build")], [0, 0, 0])
    assert abs(share["Protect"] - 2 / 3) < 1e-9 and abs(share["Build"] - 1 / 3) < 1e-9


def test_a_one_step_first_pass_replaces_the_short_forced_decodes() -> None:
    batches: list[list[str]] = []
    steps: list[tuple[str, list[str]]] = []

    def recording(texts: list[str]) -> list[list[float]]:
        batches.append(texts)
        return fake(texts)

    def one_step(prefix: str, words: list[str]) -> list[float]:
        steps.append((prefix, words))
        return [-0.1 if w == "guard" else -5.0 for w in words]

    text = "Tell Tariq to God the village."
    got = rescore(text, (), NAMES, VERBS, recording, one_step)
    assert got is not None and got.text == "Tell Tariq to guard the village."
    one_word = [w for w, _v in VERBS if " " not in w]
    assert steps == [("Tell Tariq to ", one_word)]  # one call, every one-word verb
    tried = [t for b in batches for t in b]
    assert len(tried) == 5 and tried[0] == text  # only the heard text and four finalists


def test_a_one_step_pass_that_cannot_score_falls_back_to_forced_decodes() -> None:
    batches: list[list[str]] = []

    def recording(texts: list[str]) -> list[list[float]]:
        batches.append(texts)
        return fake(texts)

    got = rescore("Tell Tariq to God the village.", (), NAMES, VERBS, recording, lambda p, w: None)
    assert got is not None and got.text == "Tell Tariq to guard the village."
    one_word = [w for w, _v in VERBS if " " not in w]
    assert len([t for b in batches for t in b]) == len(one_word) + 5
