"""The verb slot's pure parts (speech/verbs.py), with a fake aligner."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from vac.intent import heard_verb_phrases, verb_words
from vac.intent.evidence import VERB_SURE
from vac.speech.slots import WordProb
from vac.speech.verbs import RESCORED_VERB_MAX, _spans, by_verb, rescore, verb_slot

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
    assert verb_slot("Kofi, Tariq, put a fence up.", NAMES, VERBS) is None  # a second name


def test_a_phrase_the_parser_reads_leaves_the_slot_alone() -> None:
    # "sort out" is the parser's (Repair) but never a slot candidate: heard,
    # it is the verb, and no candidate is forced into its place.
    text = "Kofi, sort out the gate."
    assert all(cue != "sort out" for cue, _verb in VERBS)
    assert verb_slot(text, NAMES, VERBS) is not None  # as a slot would see it unaided
    assert verb_slot(text, NAMES, VERBS, heard_verb_phrases()) is None
    assert (
        verb_slot("Tariq, keep me posted on the roof.", NAMES, VERBS, heard_verb_phrases()) is None
    )


def test_a_function_word_is_never_a_verb_alone_but_may_be_half_of_one() -> None:
    text = "Get Imani at the smoke near the barn."  # "look at": "look" dropped
    slot = verb_slot(text, NAMES, VERBS)
    assert slot is not None and slot.least == 2
    assert _spans("guard", slot) == [2] and _spans("look at", slot) == [2, 3]
    assert verb_slot("Get Imani at home.", NAMES, VERBS) is None  # no two words to replace


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


FIRSTS = list(dict.fromkeys(cue.split()[0] for cue, _verb in VERBS))


def test_every_first_word_is_tried_short_and_the_best_fours_cues_in_full() -> None:
    batches: list[list[str]] = []

    def recording(texts: list[str]) -> list[list[float]]:
        batches.append(texts)
        return [[0.9 if t.split()[-1] in ("guard", "repair") else 0.5] for t in texts]

    rescore("Tell Tariq to God the old village by the river.", (), NAMES, VERBS, recording)
    tried = [t for b in batches for t in b]
    assert all(len(b) <= 12 for b in batches)
    assert tried[: len(FIRSTS)] == [f"Tell Tariq to {w}" for w in FIRSTS]  # each once
    full = tried[len(FIRSTS) :]
    assert 5 <= len(full) <= 12 and full[0] == "Tell Tariq to God the old village by the river."
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
    # one call: every first word once, and the heard word's
    assert steps == [("Tell Tariq to ", [*FIRSTS, "God"])]
    tried = [t for b in batches for t in b]
    assert len(batches) == 1 and tried[0] == text  # the heard text and the finalists in full


def test_a_one_step_pass_that_cannot_score_falls_back_to_forced_decodes() -> None:
    batches: list[list[str]] = []

    def recording(texts: list[str]) -> list[list[float]]:
        batches.append(texts)
        return fake(texts)

    got = rescore("Tell Tariq to God the village.", (), NAMES, VERBS, recording, lambda p, w: None)
    assert got is not None and got.text == "Tell Tariq to guard the village."
    tried = [t for b in batches for t in b]
    assert tried[: len(FIRSTS)] == [f"Tell Tariq to {w}" for w in FIRSTS]


def likes(wanted: str) -> Callable[[list[str]], list[list[float]]]:
    """A fake aligner whose audio says `wanted`: every other text loses a token's worth."""

    def token_probs(texts: list[str]) -> list[list[float]]:
        return [[0.9] if wanted.startswith(t.rstrip(".")) or t == wanted else [0.01] for t in texts]

    return token_probs


@pytest.mark.parametrize(
    ("heard", "said", "replaced"),
    [
        ("Zuri, let me on the harvest.", "Zuri, update me on the harvest.", "let me on"),
        ("Zuri, up, let me on the harvest.", "Zuri, update me on the harvest.", "up, let me on"),
        ("Can you have Imani gets to know the new teacher?",
         "Can you have Imani get to know the new teacher?", "gets to know"),
        ("Could you have Tariq put a fence around the garden?",
         "Could you have Tariq put up a fence around the garden?", "put"),
        ("Abeni, in fact, the storm by December 31.",
         "Abeni, inspect, the storm by December 31.", "in fact"),
        ("Get Tariq just count the ridge tonight.", "Get Tariq scout the ridge tonight.",
         "just count"),
    ],
)  # fmt: skip
def test_a_verb_of_several_words_may_replace_several_heard_ones(
    heard: str, said: str, replaced: str
) -> None:
    at = heard.index(replaced)
    words = (WordProb(0, at - 1, 0.9), WordProb(at, at + len(replaced), 0.3))
    words += (WordProb(len(heard) - 8, len(heard), 0.7),)  # the last word, to be moved
    got = rescore(heard, words, NAMES, VERBS, likes(said))
    assert got is not None and got.text == said and got.heard == replaced
    verb = next(w for w in got.words if w.start == at)
    assert said[verb.start : verb.end] in {cue for cue, _v in VERBS}
    assert verb.prob <= RESCORED_VERB_MAX  # flagged, however many words it took
    assert said[got.words[-1].start : got.words[-1].end] == heard[-8:]


def test_a_verb_of_n_words_takes_n_minus_one_to_n_plus_one_heard_words() -> None:
    text = "Zuri, one two three four five six seven."
    slot = verb_slot(text, NAMES, VERBS)
    assert slot is not None and len(slot.ends) == 5  # one word always left to act on
    assert _spans("update me on", slot) == [2, 3, 4]
    assert _spans("guard", slot) == [1, 2]  # a misheard word, or a verb heard as two
    short = verb_slot("Zuri, one two.", NAMES, VERBS)
    assert short is not None and _spans("update me on", short) == []  # needs 2 words or more
    assert _spans("put up", short) == [1] and _spans("guard", short) == [1]


def test_the_full_pass_is_one_batch_whatever_the_cues() -> None:
    batches: list[list[str]] = []

    def flat(texts: list[str]) -> list[list[float]]:
        batches.append(texts)
        return [[0.5] for _ in texts]

    def many_cues(prefix: str, words: list[str]) -> list[float]:
        # the first words of the most cues: 22 candidate texts in all
        return [-1.0 if w in ("make", "look", "let", "help") else -9.0 for w in words]

    rescore("Zuri, one two three four five six seven.", (), NAMES, VERBS, flat, many_cues)
    assert [len(b) for b in batches] == [12]  # the heard text and 11 finalists


def test_no_full_pass_when_the_heard_word_starts_far_likelier_than_any_verb() -> None:
    batches: list[list[str]] = []

    def recording(texts: list[str]) -> list[list[float]]:
        batches.append(texts)
        return fake(texts)

    def heard_far_ahead(prefix: str, words: list[str]) -> list[float]:
        return [-1.0 if w == "sang" else -6.0 for w in words]  # 5 nats over any verb

    text = "Kofi, sang the story of the village."
    assert rescore(text, (), NAMES, VERBS, recording, heard_far_ahead) is None
    assert batches == []  # not one text force-decoded

    def heard_close(prefix: str, words: list[str]) -> list[float]:
        return [-1.0 if w == "sang" else -4.0 for w in words]  # 3 nats: a verb may fit

    rescore(text, (), NAMES, VERBS, recording, heard_close)
    assert batches and batches[0][0] == text


def test_a_verb_never_swallows_a_name_or_the_next_sentence() -> None:
    text = "Ask Muri, Tom, and Imani, old boat in four days."
    slot = verb_slot(text, NAMES, VERBS)
    assert slot is not None
    assert [text[slot.start : e] for e in slot.ends] == ["Tom", "Tom, and"]
    text = "Kofi, please um. The gate is open now."
    slot = verb_slot(text, NAMES, VERBS)
    assert slot is not None and [text[slot.start : e] for e in slot.ends] == ["um"]


def test_words_kept_in_a_split_name_slot_are_no_address() -> None:
    # "me try" was kept as said (the name slot's margin): no verb slot after it.
    assert verb_slot("Let me try to open the jar.", NAMES, VERBS) is None
    assert verb_slot("Get the kids to clean their room.", NAMES, VERBS) is None


def test_a_text_several_cues_give_counts_for_the_longest() -> None:
    batches: list[list[str]] = []

    def recording(texts: list[str]) -> list[list[float]]:
        batches.append(texts)
        return [[0.9] if "make friends with the new kids" in t else [0.01] for t in texts]

    def make_first(prefix: str, words: list[str]) -> list[float]:
        return [-0.5 if w == "make" else -5.0 for w in words]

    text = "Zuri, mike friends with the new kids."
    got = rescore(text, (), NAMES, VERBS, recording, make_first)
    assert got is not None and got.text == "Zuri, make friends with the new kids."
    assert got.heard == "mike friends with"  # Befriend's cue, not "make" (Build)


def test_a_deeds_form_counts_only_where_the_verb_goes() -> None:
    heard = heard_verb_phrases()
    # A report: the "-ed" form stands where the verb goes.
    assert verb_slot("Kofi fixed the fence yesterday.", NAMES, VERBS, heard) is None
    # "get the gate fixed": the order said about the thing.
    assert verb_slot("Tell Kofi to get the gate fixed.", NAMES, VERBS, heard) is None
    # A noun elsewhere that looks like a form ("building") keeps the slot.
    assert verb_slot("Kofi, fits the building.", NAMES, VERBS, heard) is not None
