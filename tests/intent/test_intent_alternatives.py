"""The beam's other hypotheses, tried when the best gives no command
(intent/alternatives.py, `understand`): golden cases and properties.

The real twin is tests/speech/test_stt_real.py
(`test_a_command_the_best_hypothesis_lost_is_drafted_from_the_next`)."""

from __future__ import annotations

import datetime as dt
import re

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from vac.intent import Alternative, Clarify, Draft, Evidence, WordProb, default_roster, understand
from vac.intent import alternatives as alt

ROSTER = default_roster()
NOW = dt.datetime(2026, 12, 2, 10, 0, tzinfo=dt.UTC)
LOST = "Could you have Tariq passionate roof by Friday?"
FOUND = "Could you have Tariq patch the roof by Friday?"


def heard(text: str, *others: tuple[str, float], prob: float = 0.9) -> Evidence:
    words = tuple(WordProb(m.start(), m.end(), prob) for m in re.finditer(r"[\w']+", text))
    return Evidence(words, alternatives=tuple(Alternative(t, b) for t, b in others))


def understood(text: str, evidence: Evidence | None, confidence: float = 0.6) -> Draft | Clarify:
    return understand(
        text,
        confidence=confidence,
        evidence=evidence,
        now=NOW,
        roster=ROSTER,
        current_agent=None,
        objective_id="o-1",
    )


def test_a_verb_the_best_hypothesis_lost_is_taken_from_the_next_and_flagged() -> None:
    got = understood(LOST, heard(LOST, (FOUND, 1.0)))
    assert isinstance(got, Draft), got
    assert got.objective.verb == "Repair" and got.objective.agent == "Tariq"
    assert got.objective.source_text == FOUND
    assert got.uncertain == ("verb",)  # "patch" is not what the decoder wrote first
    assert "not sure of what to do" in got.summary


def test_a_verb_the_best_lacked_is_flagged_even_where_a_shared_word_reads_as_one() -> None:
    # "report" after "the" is a noun to the parser, but the weighing reads
    # the first verb word it finds: sure, since the best hypothesis has it.
    lost = "Kofi, the report passionate roof by Friday."
    found = "Kofi, the report patch the roof by Friday."
    got = understood(lost, heard(lost, (found, 0.5)))
    assert isinstance(got, Draft) and got.objective.verb == "Repair", got
    assert got.uncertain == ("verb",)


def test_the_first_hypothesis_that_parses_is_taken_in_the_beams_order() -> None:
    other = "Could you have Tariq build the roof by Friday?"
    got = understood(
        LOST, heard(LOST, ("Could you have Tariq passion roof?", 0.5), (FOUND, 1.0), (other, 0.2))
    )
    assert isinstance(got, Draft) and got.objective.verb == "Repair"


def test_a_name_no_one_has_may_become_a_roster_name_but_never_a_sure_one() -> None:
    said = "Tell Bob to fix the gate."
    got = understood(said, heard(said, ("Tell Kofi to fix the gate.", 0.8)))
    assert isinstance(got, Draft) and got.objective.agent == "Kofi"
    assert "agent" in got.uncertain


@pytest.mark.parametrize(
    ("text", "evidence", "reason"),
    [
        # too far behind the best
        (LOST, heard(LOST, (FOUND, alt.MAX_BEHIND + 0.5)), "no-verb"),
        # said as a report or a question: the beam's order is not taken
        ("Zuri helped me with the bags.", heard("Zuri helped me with the bags.",
                                                ("Zuri, help me with the bags.", 0.6)), "no-verb"),
        ("Who repaired the gate.", heard("Who repaired the gate.", ("To repair the gate.", 0.5)),
         "question"),
        # no other hypothesis parses
        (LOST, heard(LOST, ("Could you have Tariq passion roof?", 0.5)), "no-verb"),
    ],
)  # fmt: skip
def test_otherwise_the_best_hypothesis_question_stands(
    text: str, evidence: Evidence, reason: str
) -> None:
    got = understood(text, evidence)
    assert isinstance(got, Clarify) and got.reason == reason


def test_only_a_missing_verb_target_or_name_asks_the_beam() -> None:
    # Too unsure to guess at all: "say that again", whatever the beam holds.
    got = understood(LOST, heard(LOST, (FOUND, 0.1)), confidence=0.1)
    assert isinstance(got, Clarify) and got.reason == "low-confidence"


def test_typed_text_has_no_beam() -> None:
    got = understood(LOST, Evidence(alternatives=(Alternative(FOUND, 0.0),)), confidence=0.9)
    assert isinstance(got, Clarify) and got.reason == "no-verb"


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Zuri helped me with the bags", "past"),
        ("Tariq mapped the river", "past"),
        ("When will Kofi fix the gate", "question"),
        ("When you get a chance, Kofi, fix the gate", None),
        ("Kofi repaired the fence yesterday", "past"),
        ("Abeni built a shelter", "past"),
        ("Who is awake", "question"),
        ("Did Kofi fix the gate", "question"),
        ("Is it going to rain tomorrow", "question"),
        ("Could you have Tariq patch the roof", None),
        ("Can you have Imani get to know the new teacher", None),
        ("Zuri, please will the shelter behind the shed", None),
        ("Tell Kofi to fix the gate", None),
        ("Have Imani repair a bridge", None),
        ("", None),
    ],
)
def test_statement_kind(text: str, kind: str | None) -> None:
    assert alt.statement_kind(text) == kind


def test_a_past_tense_with_a_deadline_to_come_was_an_order() -> None:
    said = "Abeni helped the nurse in two days, but check with me first."
    meant = "Abeni, help the nurse in two days, but check with me first."
    got = understood(said, heard(said, (meant, 1.1)))
    assert isinstance(got, Draft) and got.objective.verb == "Support", got
    assert got.objective.deadline is not None and "verb" in got.uncertain


def test_shared_words_keep_their_evidence_and_the_others_are_unsure() -> None:
    best = "Tell me many to chart in the river."
    words = heard(best, prob=0.7).words
    got = alt.carried(best, words, "Tell the mani to chart the river.")
    by_word = {"Tell the mani to chart the river."[s:e]: p for s, e, p in got}
    assert by_word["Tell"] == by_word["chart"] == by_word["river"] == 0.7
    assert by_word["the"] == 0.7  # "the river" is shared
    assert by_word["mani"] == alt.UNSHARED_WORD_PROB


@given(
    st.lists(st.sampled_from(["Tell", "Kofi", "to", "fix", "the", "gate", "fence"]), max_size=8),
    st.lists(st.sampled_from(["Tell", "Kofi", "to", "mend", "the", "gate", "a"]), max_size=8),
    st.floats(0.0, 1.0),
)
def test_carried_evidence_covers_every_word_of_the_other_hypothesis(
    best_words: list[str], other_words: list[str], prob: float
) -> None:
    best, other = " ".join(best_words), " ".join(other_words)
    got = alt.carried(best, heard(best, prob=prob).words, other)
    assert [other[s:e] for s, e, _p in got] == other_words
    for (_start, _end, p), word in zip(got, other_words, strict=True):
        assert p in (prob, alt.UNSHARED_WORD_PROB)
        if word not in best_words:
            assert p == alt.UNSHARED_WORD_PROB


def test_an_alternative_round_trips_as_evidence() -> None:
    ev = heard(LOST, (FOUND, 1.0))
    assert msgspec.msgpack.decode(msgspec.msgpack.encode(ev), type=Evidence) == ev


# --- a deadline or a standing order only the beam heard (`_said_behind`) ---

NO_TIME = "Tell Tariq to guard the village to hide."
TONIGHT = "Tell Tariq to guard the village tonight."


def test_a_deadline_the_best_hypothesis_lost_is_taken_from_the_next_and_flagged() -> None:
    got = understood(NO_TIME, heard(NO_TIME, (TONIGHT, 1.5)), confidence=0.9)
    assert isinstance(got, Draft), got
    assert (got.objective.agent, got.objective.verb) == ("Tariq", "Protect")
    assert got.objective.deadline is not None
    assert got.objective.deadline[:10] == NOW.date().isoformat()
    assert "deadline" in got.uncertain  # "tonight" is not what the decoder wrote first
    assert "not sure of when" in got.summary


@pytest.mark.parametrize(
    "others",
    [
        ((TONIGHT, alt.MAX_BEHIND + 0.5),),  # too far behind
        (("Tell Kofi to guard the village tonight.", 0.5),),  # another agent
        (("Tell Tariq to map the village tonight.", 0.5),),  # another verb
        (("Tell Tariq to guard the village to height.", 0.5),),  # no deadline either
    ],
)
def test_otherwise_the_best_hypothesis_draft_stands_without_a_deadline(
    others: tuple[tuple[str, float], ...],
) -> None:
    got = understood(NO_TIME, heard(NO_TIME, *others), confidence=0.9)
    assert isinstance(got, Draft) and got.objective.deadline is None, got
    assert got.objective.source_text == " ".join(NO_TIME.split())


def test_a_deadline_heard_is_never_replaced_from_the_beam() -> None:
    said = "Tell Tariq to guard the village tomorrow."
    got = understood(said, heard(said, (TONIGHT, 0.2)), confidence=0.9)
    assert isinstance(got, Draft) and got.objective.deadline is not None
    assert got.objective.deadline[:10] == (NOW.date() + dt.timedelta(days=1)).isoformat()


def test_typed_text_takes_no_deadline_from_anywhere() -> None:
    got = understood(NO_TIME, Evidence(alternatives=(Alternative(TONIGHT, 0.0),)), confidence=1.0)
    assert isinstance(got, Draft) and got.objective.deadline is None


def test_a_standing_order_the_best_hypothesis_lost_is_taken_from_the_next() -> None:
    said = "Get Imani to guard the orch of every eye."
    meant = "Get Imani to guard the orchard every night."
    got = understood(said, heard(said, (meant, 0.2)), confidence=0.9)
    assert isinstance(got, Draft) and got.objective.autonomy == "standing-intent", got
    assert got.objective.source_text == meant


def test_what_the_best_heard_is_kept_and_a_free_hand_never_comes_from_the_beam() -> None:
    said = "Tell Tariq to guard the village tomorrow."
    # Adds "check with me first" but drops "tomorrow": not the same order.
    other = "Tell Tariq to guard the village, but check with me first."
    got = understood(said, heard(said, (other, 0.2)), confidence=0.9)
    assert isinstance(got, Draft) and got.objective.autonomy == "brief"
    free = "Tell Tariq to guard the village tonight, use your judgment."
    got = understood(NO_TIME, heard(NO_TIME, (free, 0.2), (TONIGHT, 0.4)), confidence=0.9)
    assert isinstance(got, Draft) and got.objective.autonomy == "brief"
    assert got.objective.source_text == TONIGHT  # the next hypothesis, without the free hand


def test_a_hypothesis_that_changes_the_priority_is_not_taken() -> None:
    # "check with me fast" behind "check with me first" (a fresh espeak voice).
    said = "Tell Tariq to guard the village."
    other = "Tell Tariq to guard the village tonight, fast."
    got = understood(said, heard(said, (other, 0.2)), confidence=0.9)
    assert isinstance(got, Draft) and got.objective.deadline is None, got


def test_a_hypothesis_without_a_new_time_or_standing_word_is_not_parsed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Each parse cost ~5 ms, and up to four ran on most spoken commands (the
    # real-time `ack` p95 went from 25 to 59 ms): only a hypothesis with a
    # word a deadline or a standing order holds, new to the best, is parsed.
    from vac.intent import reading

    parsed: list[str] = []
    real = reading.parse

    def counting(text: str, **kw: object) -> Draft | Clarify:
        parsed.append(text)
        return real(text, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(reading, "parse", counting)
    names = ("Tell Tarq to guard the village.", "Tell Tariq to guard the villages.")
    got = understood(NO_TIME, heard(NO_TIME, *((t, 0.5) for t in names)), confidence=0.9)
    assert isinstance(got, Draft) and parsed == [NO_TIME]
    parsed.clear()
    understood(NO_TIME, heard(NO_TIME, (TONIGHT, 0.5)), confidence=0.9)
    assert parsed == [NO_TIME, TONIGHT]


@pytest.mark.parametrize("said", ["Thank you very much.", "Thanks a lot.", "Hello there."])
def test_thanks_or_a_greeting_is_answered_in_kind_not_drafted_from_behind(said: str) -> None:
    # A spoken probe: "Thank you very much." drafted "Abeni will look into
    # the minimum tomorrow morning?" from a hypothesis behind it.
    other = "Look into the minimum tomorrow morning."
    got = understood(said, heard(said, (other, 1.0)))
    assert isinstance(got, Clarify) and got.source_text == said, got


def test_praise_is_not_drafted_from_behind() -> None:
    # A spoken probe (2026-12-07): "I think Imani would make a great teacher."
    # heard right asked nothing of anyone; a hypothesis behind it ("…will
    # make…") drafted a Build of "Great teacher" for the default agent.
    said = "I think Imani would make a great teacher."
    assert alt.statement_kind(said) == "praise"
    got = understood(said, heard(said, ("I think any will make a great teacher.", 1.0)))
    assert isinstance(got, Clarify), got


@pytest.mark.parametrize(
    "said", ["Make a note to chuck the boiler.", "Kofi, make a start on the fence."]
)
def test_make_idioms_are_no_praise(said: str) -> None:
    assert alt.statement_kind(said) is None
