"""The question a session may be waiting on (runtime/choices.py)."""

from __future__ import annotations

import datetime as dt
import time

import pytest

from vac import intent
from vac.intent import Clarify
from vac.runtime.choices import ANSWER_WINDOW_S, PendingChoice

ASKED = Clarify(
    "uncertain-agent",
    "Did you mean Imani or Abeni?",
    "Ask a mani to map the orchard",
    0.6,
    candidates=("Imani", "Abeni"),
    heard_as="a mani",
)


def test_an_answer_naming_one_candidate_rewrites_the_original_words() -> None:
    choice = PendingChoice()
    choice.offer(ASKED)
    assert choice.answer("Abeni") == "Ask Abeni to map the orchard"
    assert choice.answer("Abeni") is None  # asked once, answered once


def test_anything_else_drops_the_question() -> None:
    choice = PendingChoice()
    choice.offer(ASKED)
    assert choice.answer("ask Kofi to build a bench") is None
    assert choice.answer("Imani") is None


def test_a_question_without_candidates_waits_for_nothing() -> None:
    choice = PendingChoice()
    choice.offer(Clarify("no-verb", "What should be done?", "Imani", 0.9))
    assert choice.answer("Imani") is None


def test_a_name_no_one_has_is_answered_with_a_roster_name() -> None:
    choice = PendingChoice()
    roster = ("Abeni", "Kofi", "Zuri", "Tariq", "Imani")
    choice.offer(Clarify("unknown-agent", "Who?", "Tell Yuri to fix the gate", 1.0, roster, "Yuri"))
    assert choice.answer("I meant Zuri") == "Tell Zuri to fix the gate"


def _understood(text: str, objective_id: str = "o") -> intent.Draft | Clarify:
    now = dt.datetime(2026, 12, 4, 10, tzinfo=dt.UTC)
    return intent.understand(
        text,
        confidence=1.0,
        evidence=None,
        now=now,
        roster=intent.default_roster(),
        current_agent=None,
        objective_id=objective_id,
    )


def _asked(text: str) -> Clarify:
    got = _understood(text)
    assert isinstance(got, Clarify), got
    return got


@pytest.mark.parametrize(
    ("said", "answer", "drafted"),
    [
        ("Kofi is here. Zuri, fix the gate.", "Zuri", "Zuri fix the gate."),
        (
            "Kofi is here. Zuri, fix the gate by Friday.",
            "no, Tariq",
            "Tariq fix the gate by Friday.",
        ),
        ("Leave Kofi alone, Zuri, and repair the roof", "Zuri", "Zuri repair the roof"),
    ],
)
def test_who_should_do_it_is_answered_by_any_agent_in_place_of_the_words_before_the_order(
    said: str, answer: str, drafted: str
) -> None:
    asked = _asked(said)
    assert asked.question.startswith("Who should do it:") and "or someone else?" in asked.question
    assert set(asked.candidates) == set(intent.default_roster().names())
    choice = PendingChoice()
    choice.offer(asked)
    assert choice.answer(answer) == drafted
    assert _drafted(drafted).objective.agent == answer.split()[-1]


def test_a_missing_thing_is_answered_after_the_verb() -> None:
    choice = PendingChoice()
    choice.offer(_asked("Ask Kofi to repair by Friday"))
    assert choice.answer("The gate.") == "Ask Kofi to repair the gate by Friday".replace(
        "the gate", "The gate"
    )


def test_a_deadline_not_understood_is_answered_in_its_place() -> None:
    choice = PendingChoice()
    choice.offer(_asked("Ask Kofi to fix the gate after Friday"))
    assert choice.answer("by Saturday") == "Ask Kofi to fix the gate by Saturday"


def test_an_answer_that_is_an_order_or_a_reply_drops_the_question() -> None:
    for answer in ("ask Zuri to map the river", "never mind", "no", "fix the fence", "what?"):
        choice = PendingChoice()
        choice.offer(_asked("Ask Kofi to repair by Friday"))
        assert choice.answer(answer) is None, answer


def test_a_deed_no_agent_does_is_answered_with_one_they_do() -> None:
    names = intent.default_roster().names()
    choice = PendingChoice()
    choice.offer(_asked("Ask Kofi to water the plants by Friday"))
    assert choice.answer("Take care of the plants.", names) == (
        "Ask Kofi to Take care of the plants by Friday"
    )
    for other in ("ask Zuri to help", "help Zuri with the plants", "yes", "the plants"):
        choice = PendingChoice()
        choice.offer(_asked("Kofi, water the plants"))
        assert choice.answer(other, names) is None, other


def test_small_talk_a_name_or_a_correction_is_no_thing() -> None:
    names = intent.default_roster().names()
    for answer in ("thanks", "hello", "okay then", "I don't know", "Zuri", "not Kofi",
                   "the gate, no, the fence", "every Monday", "what", ".", "uh huh"):  # fmt: skip
        choice = PendingChoice()
        choice.offer(_asked("Ask Kofi to repair by Friday"))
        assert choice.answer(answer, names) is None, answer


def test_only_a_time_answers_when() -> None:
    for answer in ("thanks", "the gate", "Kofi", ".", "...", "not by Saturday", "42"):
        choice = PendingChoice()
        choice.offer(_asked("Ask Kofi to fix the gate after Friday"))
        assert choice.answer(answer) is None, answer
    choice = PendingChoice()  # the words not understood, where they were said
    choice.offer(_asked("After Friday, ask Kofi to fix the gate after Friday"))
    assert choice.answer("by Saturday") == "by Saturday, ask Kofi to fix the gate after Friday"


def test_a_name_choice_is_a_name_alone() -> None:
    for answer in ("not Kofi", "who is Zuri?", "Zuri, but don't touch the paint", "the latter"):
        choice = PendingChoice()
        choice.offer(_asked("Ask Duri to fix the gate"))
        assert choice.answer(answer) is None, answer
    choice = PendingChoice()  # the name replaced as a whole word, not inside "Please"
    choice.offer(_asked("Please ask Lea to fix the gate"))
    assert choice.answer("I meant Zuri") == "Please ask Zuri to fix the gate"


def test_a_question_waits_a_minute_at_most(monkeypatch: pytest.MonkeyPatch) -> None:
    choice = PendingChoice()
    choice.offer(_asked("Ask Kofi to repair by Friday"))
    later = time.monotonic() + ANSWER_WINDOW_S + 1
    monkeypatch.setattr(time, "monotonic", lambda: later)
    assert choice.answer("the gate") is None


def test_a_spoken_answer_heard_unsurely_answers_nothing() -> None:
    now = dt.datetime(2026, 12, 4, 10, tzinfo=dt.UTC)
    heard = intent.Evidence(words=(intent.WordProb(0, 8, 0.2),))
    choice = PendingChoice()
    choice.offer(_asked("Ask Kofi to repair by Friday"))
    assert choice.answer_heard("the gait", 0.2, heard, now) is None
    choice.offer(_asked("Ask Kofi to repair by Friday"))
    assert (
        choice.answer_heard("the gate", 0.9, heard, now) == "Ask Kofi to repair the gate by Friday"
    )


def test_answers_a_steward_would_give_are_taken() -> None:
    names = intent.default_roster().names()
    cases = [
        ("Ask Kofi to repair by Friday", "the gate, thanks",
         "Ask Kofi to repair the gate by Friday"),
        ("Ask Kofi to repair by Friday", "the old gate near the big barn please",
         "Ask Kofi to repair the old gate near the big barn by Friday"),
        ("Ask Kofi to fix the gate after Friday", "by Saturday evening, please",
         "Ask Kofi to fix the gate by Saturday evening"),
        ("Ask Duri to fix the gate", "no, Zuri", "Ask Zuri to fix the gate"),
        ("Kofi, water the plants", "please take care of the plants",
         "Kofi, please take care of the plants"),
    ]  # fmt: skip
    for question, answer, words in cases:
        choice = PendingChoice()
        choice.offer(_asked(question))
        assert choice.answer(answer, names) == words, answer


def test_what_only_looks_like_an_answer_is_not_taken() -> None:
    names = intent.default_roster().names()
    cases = [
        ("Ask Kofi to repair by Friday", "the gate tomorrow"),  # a time where a thing goes
        ("Ask Kofi to repair by Friday", "Saturday"),
        ("Kofi, water the plants", "never mind, I'll repair it myself"),
        ("Kofi, water the plants", "he can't fix the gate"),
        ("Kofi, water the plants", "someone should repair the gate"),
        ("Kofi, water the plants", "fix the gate for Duri"),
    ]
    for question, answer in cases:
        choice = PendingChoice()
        choice.offer(_asked(question))
        assert choice.answer(answer, names) is None, answer


def test_a_label_in_another_script_has_a_ref_of_its_own() -> None:
    one, other = _drafted("Ask Kofi to repair 修理"), _drafted("Ask Kofi to repair البوابة")
    assert one.objective.target.ref != other.objective.target.ref
    assert not one.objective.target.ref.endswith(":unnamed")
    assert _drafted("Ask Kofi to visit the café").objective.target.ref.endswith(":cafe")


def _drafted(text: str, objective_id: str = "o") -> intent.Draft:
    got = _understood(text, objective_id)
    assert isinstance(got, intent.Draft), got
    return got


def test_a_thing_said_for_it_takes_its_place() -> None:
    # "Kofi, fix it tomorrow" → "the gate" made "fix the gate it tomorrow".
    choice = PendingChoice()
    choice.offer(_asked("Kofi, fix it tomorrow"))
    assert choice.answer("the gate") == "Kofi, fix the gate tomorrow"


@pytest.mark.parametrize("said", ["Kofi, fix the thing tomorrow", "Kofi, fix the stuff tomorrow"])
def test_a_thing_said_for_a_placeholder_takes_its_place(said: str) -> None:
    # A conversation probe (the twenty-first session): "Garden gate the thing".
    choice = PendingChoice()
    choice.offer(_asked(said))
    assert choice.answer("the gate") == "Kofi, fix the gate tomorrow"


@pytest.mark.parametrize(
    "said", ["oh sorry, I meant the gate", "um, I meant the gate", "I mean the gate"]
)
def test_an_answer_after_oh_or_i_meant_is_the_answer(said: str) -> None:
    # A conversation probe (the twenty-first session): read as a new order.
    choice = PendingChoice()
    choice.offer(_asked("Kofi, fix it tomorrow"))
    assert choice.answer(said) == "Kofi, fix the gate tomorrow"


def test_i_meant_a_name_is_no_thing_to_repair() -> None:
    choice = PendingChoice()
    choice.offer(_asked("Kofi, fix it tomorrow"))
    assert choice.answer("I meant Zuri", intent.default_roster().names()) is None


def test_i_meant_a_name_answers_who() -> None:
    names = intent.default_roster().names()
    choice = PendingChoice()
    asked = intent.understand(
        "Kofi is here. Zuri, fix the gate.",
        confidence=1.0,
        evidence=None,
        now=dt.datetime(2026, 12, 5, 10, 0, tzinfo=dt.UTC),
        roster=intent.default_roster(),
        current_agent=None,
        objective_id="o",
    )
    assert isinstance(asked, intent.Clarify), asked
    choice.offer(asked)
    assert choice.answer("oh sorry, I meant Zuri", names) is not None


def test_a_deflection_is_no_thing() -> None:
    names = intent.default_roster().names()
    for answer in ("you choose", "you decide", "anything", "something", "both", "idk"):
        choice = PendingChoice()
        choice.offer(_asked("Ask Kofi to repair by Friday"))
        assert choice.answer(answer, names) is None, answer


def test_the_speakers_own_plan_is_answered_by_who_should_do_it() -> None:
    roster = intent.default_roster()
    now = dt.datetime(2026, 12, 5, 10, 0, tzinfo=dt.UTC)
    asked = intent.understand(
        "I'll fix the gate tomorrow",
        confidence=1.0,
        evidence=None,
        now=now,
        roster=roster,
        current_agent=None,
        objective_id="o",
    )
    assert isinstance(asked, Clarify) and asked.reason == "first-person"
    assert asked.candidates == tuple(roster.names())
    choice = PendingChoice()
    choice.offer(asked)
    assert choice.answer("Kofi", roster.names(), now) == "Kofi fix the gate tomorrow"


def test_a_time_after_this_is_kept() -> None:
    # "Kofi, repair this week" → "the gate" made "repair the gate week".
    choice = PendingChoice()
    choice.offer(_asked("Kofi, repair this week"))
    assert choice.answer("the gate") == "Kofi, repair the gate this week"


def test_a_spoken_question_answered_keeps_the_unsure_slots_flagged() -> None:
    """A spoken probe: "Kofi, the shed door is hanging off, could you fix it
    before Saturday", heard without its name, was asked "What should Abeni
    repair?"; "the shed door" drafted Abeni's repair with nothing flagged."""
    now = dt.datetime(2026, 12, 4, 10, tzinfo=dt.UTC)
    asked = _asked("could you fix it before Saturday")
    assert asked.reason == "no-target"

    def answered(spoken: bool) -> intent.Draft:
        choice = PendingChoice()
        choice.offer(asked, spoken=spoken)
        words = choice.answer("the shed door", now=now)
        assert words is not None
        result = choice.weighed(_understood(words), answered=True)
        assert isinstance(result, intent.Draft)
        return result

    spoken = answered(spoken=True)
    assert spoken.uncertain == ("agent", "verb") and "I'm not sure of" in spoken.summary
    assert answered(spoken=False).uncertain == ()  # typed words are as typed

    # A review: a yes between them asks the question again, still about
    # spoken words (the flag was lost, and the answer drafted unflagged).
    choice = PendingChoice()
    choice.offer(asked, spoken=True)
    pending = _drafted("Kofi, build a bench", "p")
    entry = intent.DraftEntry("p", pending.objective, now, now + dt.timedelta(hours=1))
    yes = intent.spoken_reply("yes", 1.0, None)
    assert yes is not None
    choice.to_the_draft(yes, entry, asked.question, now)
    words = choice.answer("the shed door", now=now)
    assert words is not None
    again = choice.weighed(_understood(words), answered=True)
    assert isinstance(again, intent.Draft) and again.uncertain == ("agent", "verb")


@pytest.mark.parametrize(
    "answer", ["ok then look after the plants", "fine, just look after the plants then"]
)
def test_a_deed_said_after_a_lead_in_answers_what_to_do(answer: str) -> None:
    """A typed conversation probe: read as a new order for the default agent."""
    asked = _asked("Kofi, water the plants")
    assert asked.reason == "no-verb"
    choice = PendingChoice()
    choice.offer(asked)
    words = choice.answer(answer)
    assert words is not None and words.startswith("Kofi, ") and "look after the plants" in words


@pytest.mark.parametrize(
    ("question", "answer", "words"),
    [
        # a conversation probe (T20c) and variants: each was read as a new order with no verb
        ("Kofi, fix the gate before then", "sometime next week is fine",
         "Kofi, fix the gate next week"),
        ("Kofi, fix the gate before then", "let's say Thursday morning",
         "Kofi, fix the gate Thursday morning"),
        ("Kofi, fix the gate before then", "hmm, Friday at the latest if he can",
         "Kofi, fix the gate Friday"),
        ("Kofi, fix the gate before then", "yes, tomorrow would be great",
         "Kofi, fix the gate tomorrow"),
        ("Kofi, fix the gate before then", "oh whenever, no rush",
         "Kofi, fix the gate whenever, no rush"),
        ("Kofi, fix the gate before then", "any time", "Kofi, fix the gate any time"),
        ("Ask Kofi to repair by Friday", "oh the gate", "Ask Kofi to repair the gate by Friday"),
        ("Ask Kofi to repair by Friday", "it's the gate",
         "Ask Kofi to repair the gate by Friday"),
        ("Ask Kofi to repair by Friday", "the gate I think",
         "Ask Kofi to repair the gate by Friday"),
        ("Ask Duri to fix the gate", "I suppose Tariq could", "Ask Tariq to fix the gate"),
        ("Ask Duri to fix the gate", "let Tariq do it", "Ask Tariq to fix the gate"),
        ("Ask Duri to fix the gate", "Tariq can take it", "Ask Tariq to fix the gate"),
        # the twenty-first conversation probe (T21c): a remark after the answer
        ("Kofi, fix the gate before then", "sometime next week would do",
         "Kofi, fix the gate next week"),
        ("Ask Duri to fix the gate", "Zuri I think, Kofi's got enough on",
         "Ask Zuri to fix the gate"),
        ("Ask Kofi to repair by Friday", "the wobbly shelf, it's driving me mad",
         "Ask Kofi to repair the wobbly shelf by Friday"),
        ("Imani, visit her on Sunday", "my gran", "Imani, visit my gran on Sunday"),
        ("Ask Kofi to repair by Friday", "the gate, it's not closing",
         "Ask Kofi to repair the gate by Friday"),
        ("Ask Kofi to repair by Friday", "the gate, it's by the shed",  # a fifth review
         "Ask Kofi to repair the gate by Friday"),
        ("Ask Kofi to repair by Friday", "the gate, he's not busy",
         "Ask Kofi to repair the gate by Friday"),
        ("Imani, visit her on Sunday", "my gran, she lives down the lane",
         "Imani, visit my gran on Sunday"),
    ],
)  # fmt: skip
def test_an_answer_said_in_a_whole_sentence_is_taken(
    question: str, answer: str, words: str
) -> None:
    choice = PendingChoice()
    choice.offer(_asked(question))
    now = dt.datetime(2026, 3, 11, 9, 30, tzinfo=dt.UTC)
    assert choice.answer(answer, intent.default_roster().names(), now) == words


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("Kofi, fix the gate before then", "no, not before Friday"),
        ("Kofi, fix the gate before then", "say Friday, and don't use the ladder"),
        ("Kofi, fix the gate before then", "maybe the fence too"),
        ("Ask Kofi to repair by Friday", "that's all"),
        ("Ask Kofi to repair by Friday", "it's fine"),
        ("Ask Kofi to repair by Friday", "that one"),
        ("Ask Duri to fix the gate", "Tariq can't, Kofi"),
        ("Ask Duri to fix the gate", "Tariq could, or Kofi"),
        ("Ask Kofi to repair by Friday", "the gate, it's broken again, and the fence"),
        ("Ask Kofi to repair by Friday", "the gate, Bob's gate"),
        # a review: the remark held the order's time or haste
        ("Ask Kofi to repair by Friday", "the gate, it's urgent"),
        ("Ask Kofi to repair by Friday", "the gate, he's got till Friday"),
        ("Kofi, fix the gate before then", "Friday, it's urgent"),
        ("Ask Kofi to repair by Friday", "the gate, it's needed before dinner"),  # a review
        ("Ask Kofi to repair by Friday", "the gate, he's not to use the ladder"),
    ],
)
def test_a_sentence_around_more_than_an_answer_is_its_own_words(question: str, answer: str) -> None:
    choice = PendingChoice()
    choice.offer(_asked(question))
    now = dt.datetime(2026, 3, 11, 9, 30, tzinfo=dt.UTC)
    assert choice.answer(answer, intent.default_roster().names(), now) is None
