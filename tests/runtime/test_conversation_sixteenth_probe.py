"""What a twenty-fourth-session conversation probe (T23c) found: "no, not
now" said to a draft made it urgent (and the next "yes" confirmed that),
and "no, put your shoes on first", said to someone else in the room,
redrafted the order for April 1. The real daemon's twin:
tests/daemon/test_amend.py."""

from __future__ import annotations

import pytest

from tests.runtime.test_amend import NOW, changed
from tests.runtime.test_coordinator import Rig, rig  # noqa: F401 (the fixture)
from vac import intent
from vac.protocol.messages import ObjectiveClarify, ObjectiveDraft, ObjectiveRejected


@pytest.mark.parametrize("text", ["no, not now", "no, not right now", "not now"])
def test_not_now_changes_nothing(text: str) -> None:
    assert changed("Tariq, map the stream", text) is None


def test_on_first_said_to_someone_else_sets_no_day() -> None:
    got = changed("Imani, build a bench for the garden", "no, put your shoes on first")
    assert got is None or got.deadline is None, got


async def test_no_not_now_keeps_the_draft_waiting_and_drafts_nothing(rig: Rig) -> None:  # noqa: F811
    # It rejected the draft until the twenty-sixth session (T29c: "not yet"
    # dropped a draft the steward meant to confirm a moment later).
    rig.text("t1", "Tariq, map the stream")
    await rig.settle(1)
    rig.text("t2", "no, not now")
    await rig.settle(2)
    assert not rig.of(ObjectiveRejected)
    assert len(rig.of(ObjectiveDraft)) == 1  # nothing drafted again, urgent or not
    assert rig.of(ObjectiveClarify)[-1].question.startswith("Okay, take your time.")


CHECK = "Zuri, check the gate"


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("hmm, Tariq would be better for that", "agent", "Tariq"),
        ("Kofi might be better", "agent", "Kofi"),
        ("Tariq's better at that", "agent", "Tariq"),
        ("leave it with Kofi", "agent", "Kofi"),
        ("no, I want her to fix it, not just look", "verb", "Repair"),
        ("make it repair", "verb", "Repair"),
        ("not look into, repair", "verb", "Repair"),
        ("it's urgent, mind you", "priority", 90),
        ("it's urgent mind", "priority", 90),
        ("tell her it's urgent", "priority", 90),
        ("tell her there's no rush", "priority", 25),
        ("he can do it however he likes", "autonomy", "free"),
        ("let her do it her own way", "autonomy", "free"),
    ],
)
def test_a_change_said_in_everyday_words_is_the_change(
    text: str, field: str, value: object
) -> None:
    got = changed(CHECK, text)
    assert got is not None and getattr(got, field) == value, got


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("she's not to go on the main road", "Do not go on the main road"),
        ("he's not to use the ladder", "Do not use the ladder"),
    ],
)
def test_a_boundary_said_of_them_is_a_boundary(text: str, line: str) -> None:
    got = changed(CHECK, text)
    assert got is not None and line in [f.text for f in got.forbidden_lines], got


@pytest.mark.parametrize(
    "text", ["Zuri's better at that", "Zuri would be better", "make it urgent"]
)
def test_the_agent_or_verb_already_drafted_is_no_change_of_them(text: str) -> None:
    got = changed(CHECK, text)
    assert got is None or (got.agent, got.verb) == ("Zuri", "Investigate"), got


def test_a_pronoun_that_could_mean_someone_else_is_not_the_agents() -> None:
    got = changed("Zuri, help grandma", "she's not to go on the main road")
    assert got is None or not [f for f in got.forbidden_lines if "main road" in f.text], got


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        ("what's Kofi got on?", "Kofi"),
        ("what's on Tariq's plate?", "Tariq"),
        ("how's everyone doing?", None),
        ("who's busy today?", None),
        ("is anything waiting for me?", None),
        ("read that back", None),
        ("say that again", None),
        ("what did I just say?", None),
    ],
)
def test_more_questions_about_what_waits_are_known(text: str, agent: str | None) -> None:
    asked = intent.status_asked(text, ("Kofi", "Tariq", "Zuri"))
    assert asked is not None and asked.agent == agent


def test_an_unknown_name_asks_no_status() -> None:
    assert intent.status_asked("what's Bob got on?", ("Kofi",)) is None


async def test_read_that_back_reads_the_draft_back(rig: Rig) -> None:  # noqa: F811
    rig.text("t1", "Kofi, fix the gate")
    await rig.settle(1)
    rig.text("t2", "read that back")
    await rig.settle(2)
    said = rig.of(ObjectiveClarify)[-1].question
    # The draft itself since the twenty-sixth session (it was the status list)
    assert said == "Kofi will repair the gate — confirm?", said


async def test_an_order_on_it_after_a_thing_alone_is_on_that_thing(rig: Rig) -> None:  # noqa: F811
    rig.text("t1", "Tariq, the old well")
    await rig.settle(1)
    rig.text("t2", "check it out")
    await rig.settle(2)
    (made,) = rig.of(ObjectiveDraft)
    assert (made.objective.agent, made.objective.verb) == ("Tariq", "Investigate")
    assert made.objective.target.label == "Old well"


@pytest.mark.parametrize("text", ["call it off", "scrap it"])
async def test_call_it_off_after_a_yes_says_how_to_withdraw(rig: Rig, text: str) -> None:  # noqa: F811
    rig.text("t1", "Kofi, fix the gate")
    await rig.settle(1)
    rig.text("t2", "yes")
    await rig.settle(2)
    rig.text("t3", text)
    await rig.settle(3)
    assert "vac withdraw" in rig.of(ObjectiveClarify)[-1].question


@pytest.mark.parametrize(
    "text",
    [
        "Kofi's much better",  # well again, not the job's
        "Tariq could be better",  # a criticism
        "make it secure",  # a state, not a verb
        "he's not to blame",  # no boundary
        "undo that",  # a change undone, not the draft
    ],
)
def test_remarks_like_a_change_change_nothing(text: str) -> None:
    got = changed("Zuri, fix the gate", text)
    assert got is None, got


def test_urgent_if_you_do_not_mind_is_urgent() -> None:
    got = changed("Zuri, fix the gate", "it's urgent, if you don't mind")
    assert got is not None and got.priority == 90


def test_another_name_wanted_is_not_the_drafts_agent_changing_verb() -> None:
    got = changed("Tariq, check the gate", "I want Kofi to check it")
    assert got is None or got.agent == "Kofi", got


def test_a_name_the_draft_holds_is_not_handed_the_job() -> None:
    assert changed("Tariq, fix Zuri's bike", "give it to Zuri") is None


@pytest.mark.parametrize("said", ["forget it", "leave it", "drop it"])
async def test_a_way_out_after_a_thing_alone_is_no_order_on_it(rig: Rig, said: str) -> None:  # noqa: F811
    rig.text("t1", "Tariq, the old well")
    await rig.settle(1)
    rig.text("t2", said)
    await rig.settle(2)
    assert not rig.of(ObjectiveDraft)


async def test_it_after_a_state_told_is_no_thing_alone(rig: Rig) -> None:  # noqa: F811
    rig.text("t1", "Kofi, my back hurts")
    await rig.settle(1)
    rig.text("t2", "check it out")
    await rig.settle(2)
    assert not rig.of(ObjectiveDraft)


async def test_only_the_next_words_are_on_the_thing_said_alone(rig: Rig) -> None:  # noqa: F811
    rig.text("t1", "Tariq, the old well")
    await rig.settle(1)
    rig.text("t2", "forget it")
    await rig.settle(2)
    rig.text("t3", "check it out")
    await rig.settle(3)
    assert not rig.of(ObjectiveDraft)


async def test_a_greeting_before_the_name_and_the_thing(rig: Rig) -> None:  # noqa: F811
    rig.text("t1", "Hey Kofi, the gate")
    await rig.settle(1)
    rig.text("t2", "fix it")
    await rig.settle(2)
    (made,) = rig.of(ObjectiveDraft)
    assert (made.objective.agent, made.objective.target.label) == ("Kofi", "Gate")


async def test_say_that_again_after_a_question_asks_it_again(rig: Rig) -> None:  # noqa: F811
    rig.text("t1", "Kofi, repair")
    await rig.settle(1)
    rig.text("t2", "say that again")
    await rig.settle(2)
    asked = rig.of(ObjectiveClarify)
    assert asked[-1].question == asked[0].question == "What should Kofi repair?"
    rig.text("t3", "the gate")  # still the answer to it
    await rig.settle(3)
    (made,) = rig.of(ObjectiveDraft)
    assert (made.objective.agent, made.objective.target.label) == ("Kofi", "Gate")


@pytest.mark.parametrize(
    ("source", "text", "deadline"),
    [
        ("Kofi, fix the gate by the 5th", "not the 5th, the 15th", "2026-12-15"),
        ("Kofi, fix the gate by Monday", "no, not Monday — Wednesday", "2026-12-09"),
    ],
)
def test_a_day_said_instead_is_the_change(source: str, text: str, deadline: str) -> None:
    got = changed(source, text)
    assert got is not None and str(got.deadline).startswith(deadline), got


def test_a_dash_after_no_is_a_comma() -> None:
    got = changed("Abeni, map the woods", "no — Tariq, and it's urgent")
    assert got is not None and (got.agent, got.priority) == ("Tariq", 90), got


@pytest.mark.parametrize(
    "text",
    [
        "give it to Imani instead, and Monday's fine, no rush",
        "no, Imani, and Monday's fine, no rush",
        "no, Imani, the hens, tomorrow night",
    ],
)
def test_a_change_never_drops_a_name_said(text: str) -> None:
    got = changed("Zuri, report on the garden by tomorrow", text)
    assert got is None or got.agent == "Imani", got


def test_news_of_another_agent_with_a_change_is_the_change() -> None:
    got = changed("Tariq, fix the gate", "Kofi's away, so make it Friday")
    assert got is not None and got.agent == "Tariq" and got.deadline is not None


@pytest.mark.parametrize("text", ["make it 7pm", "make it half six", "make that the 20th"])
def test_make_it_a_clock_time_builds_nothing(text: str) -> None:
    from vac.intent import default_roster, understand

    got = understand(
        text,
        confidence=1.0,
        evidence=None,
        now=NOW,
        roster=default_roster(),
        current_agent=None,
        objective_id="o",
    )
    assert not isinstance(got, intent.Draft), got


async def test_make_sure_it_is_early_after_a_counter_drafts_no_protect(rig: Rig) -> None:  # noqa: F811
    rig.text("t1", "that's fine, but make sure it's first thing in the morning")
    await rig.settle(1)
    assert not rig.of(ObjectiveDraft)


@pytest.mark.parametrize(
    "text",
    [
        "make it Friday, Kofi needs the van till Thursday",
        "make it urgent, Imani keeps tripping over it",
        "make it tomorrow morning, Zuri needs the drive later",
    ],
)
def test_a_change_that_mentions_another_for_a_reason_is_the_change(text: str) -> None:
    got = changed("Tariq, fix the gate", text)
    assert got is not None and got.agent == "Tariq", got


def test_not_urgent_then_a_day_is_not_a_day_said_instead() -> None:
    got = changed("Tariq, fix the gate", "not urgent, tomorrow")
    assert got is None or got.priority == 25, got


@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        ("make sure it's done by Friday", "2026-12-11"),
        ("and make sure it's finished before the weekend", "2026-12-1"),
        ("make sure it's ready for Monday", "2026-12-07"),
    ],
)
def test_make_sure_it_is_done_by_a_day_is_that_day(text: str, deadline: str) -> None:
    got = changed("Kofi, fix the gate", text)
    assert got is not None and str(got.deadline).startswith(deadline), got
