"""What a twenty-fifth-session conversation probe (T26c, and T25c before it)
found: a time of day said alone as a change ("make it 7pm", "half six", "in
the evening instead", "earlier, say 8") changed nothing, and the next "yes"
confirmed the old hour. The real daemon's twin: tests/daemon/test_amend.py."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.runtime.test_amend import NOW, ROSTER, Entry, parse
from tests.runtime.test_coordinator import Rig, rig  # noqa: F401 (the fixture)
from vac.intent import Draft
from vac.protocol.messages import ObjectiveConfirmed, ObjectiveDraft, ObjectiveRejected
from vac.runtime.amend import Reading
from vac.runtime.hours import hour_only, with_the_day

# NOW is Saturday 2026-12-05, 10:00.
TOMORROW_6PM = "Tariq, guard the gate tomorrow at 6pm"


def reading(source: str, text: str, now: dt.datetime = NOW) -> object:
    pending = parse(source)
    assert isinstance(pending, Draft)
    entry = Entry(pending.objective, pending.wording)
    return Reading(now, ROSTER, None).changed(text, 1.0, None, entry)


@pytest.mark.parametrize(
    ("text", "read_back", "ways"),
    [
        ("make it 7pm", None, ("at 7pm", "7pm")),
        ("half six", "at 6 pm", ("at half six pm", "half six pm")),
        ("in the evening instead", None, ("in the evening",)),
        ("evening", None, ("in the evening",)),
        ("earlier, say 8", "by tomorrow at 6 pm", ("at 8 pm", "8 pm")),
        ("no, make it at 6", "tonight", ("at 6",)),
        ("make it 8", None, ()),  # to a draft with no hour: how many?
        ("make that two", "at 6 pm", ()),  # a count, said in words
        ("make it Friday", None, ()),  # a day
        ("the 5th at 6pm", None, ()),
        ("in two hours", None, ()),  # from now, as said
        ("make it 7pm?", None, ()),  # a question
        ("at the shed", None, ()),  # a place
    ],
)
def test_what_says_an_hour_alone(text: str, read_back: str | None, ways: tuple[str, ...]) -> None:
    assert hour_only(text, read_back) == ways


@pytest.mark.parametrize(
    ("due", "said"),
    [
        (None, "P at 7pm"),
        (dt.date(2026, 12, 5), "P at 7pm"),
        (dt.date(2026, 12, 6), "P tomorrow at 7pm"),
        (dt.date(2026, 12, 9), "P on Wednesday at 7pm"),
        (dt.date(2026, 12, 20), "P on December 20 at 7pm"),
    ],
)
def test_the_hour_is_said_on_the_drafts_day(due: dt.date | None, said: str) -> None:
    assert with_the_day("P", "at 7pm", due, NOW.date()) == said


def test_a_part_of_the_day_is_said_after_the_day() -> None:
    assert with_the_day("P", "in the evening", dt.date(2026, 12, 6), NOW.date()) == (
        "P tomorrow evening"
    )


@pytest.mark.parametrize(
    ("source", "text", "when"),
    [
        (TOMORROW_6PM, "make it 7pm", "by tomorrow at 7 pm"),
        (TOMORROW_6PM, "make it half six", "by tomorrow at 6:30 pm"),
        (TOMORROW_6PM, "no, make it 8", "by tomorrow at 8 pm"),
        (TOMORROW_6PM, "earlier, say 5", "by tomorrow at 5 pm"),
        (TOMORROW_6PM, "at 7 instead", "by tomorrow at 7 pm"),
        (TOMORROW_6PM, "in the evening instead", "tomorrow evening"),
        ("Kofi, fix the gate by Wednesday", "in the afternoon", "by Wednesday afternoon"),
        ("Kofi, fix the gate at 5pm", "make it 6", "at 6 pm"),
        ("Kofi, fix the gate tonight", "make it 7pm", "at 7 pm"),
        ("Kofi, fix the gate", "make it 7pm", "at 7 pm"),  # no day yet: today's 7 pm
    ],
)
def test_an_hour_said_alone_keeps_the_day_and_moves_the_hour(
    source: str, text: str, when: str
) -> None:
    was = parse(source)
    got = reading(source, text)
    assert isinstance(was, Draft) and isinstance(got, Draft), got
    assert got.wording is not None and got.wording.when == when, got.summary
    assert f" {when} — confirm?" in got.summary
    day = was.objective.deadline or NOW.date().isoformat()
    assert got.objective.deadline == day
    assert [c.value for c in got.objective.constraints if c.kind == "time"] == [day]
    assert (got.objective.agent, got.objective.verb) == (was.objective.agent, was.objective.verb)


def test_an_hour_past_today_is_tomorrows_read_back_so() -> None:
    # As said first (a tenth typed probe: "at eight in the morning" at 9:30).
    late = NOW.replace(hour=21)
    got = reading("Kofi, fix the gate tonight", "make it 7pm", late)
    assert isinstance(got, Draft) and got.objective.deadline == "2026-12-06", got
    assert "tomorrow" in got.summary


@pytest.mark.parametrize(
    ("source", "text"),
    [
        ("Kofi, fix the shelves", "make that two"),
        ("Kofi, fix the shelves", "make it 8"),
        (TOMORROW_6PM, "ok tomorrow then"),
    ],
)
def test_a_count_or_the_day_said_again_is_no_new_hour(source: str, text: str) -> None:
    got = reading(source, text)
    assert not isinstance(got, Draft) or got.summary == parse(source).summary, got  # type: ignore[union-attr]


async def test_the_yes_after_an_hour_change_confirms_the_new_one(rig: Rig) -> None:  # noqa: F811
    rig.text("t1", TOMORROW_6PM)
    await rig.settle(1)
    rig.text("t2", "make it half six")
    await rig.settle(2)
    drafts = rig.of(ObjectiveDraft)
    assert [d.preview.summary.split(" gate ")[1] for d in drafts] == [
        "by tomorrow at 6 pm — confirm?",
        "by tomorrow at 6:30 pm — confirm?",
    ]
    rig.text("t3", "yes")
    await rig.settle(3)
    assert [c.objective_id for c in rig.of(ObjectiveConfirmed)] == [drafts[1].objective.id]


@pytest.mark.parametrize(
    ("text", "when"),
    [
        # A third typed probe found these moved "by Friday" to today; they
        # were then no change; now the hour on Friday.
        ("at 3pm", "by Friday at 3 pm"),
        ("make that 3pm", "by Friday at 3 pm"),
        ("oh and by 6", "by Friday at 6 o'clock"),
    ],
)
def test_a_clock_time_alone_keeps_the_day(text: str, when: str) -> None:
    got = reading("Zuri, fix the gate by Friday", text)
    assert isinstance(got, Draft) and got.objective.deadline == "2026-12-11", got
    assert got.wording is not None and got.wording.when == when


def test_an_hour_to_a_draft_with_no_day_is_todays_as_said_first() -> None:
    # "by 5" was no change ("which day?"); "Kofi, fix the gate by 5" said
    # first is today's 5 pm, and so is the change now.
    first = parse("Kofi, fix the gate by 5")
    got = reading("Kofi, fix the gate", "by 5")
    assert isinstance(first, Draft) and isinstance(got, Draft), got
    assert got.objective.deadline == first.objective.deadline == "2026-12-05"
    assert got.summary == first.summary


async def test_not_tariq_then_a_name_drafts_that_ones(rig: Rig) -> None:  # noqa: F811
    # T26c: "not Tariq, fix the gate" drafted Tariq's repair; now who is asked.
    rig.text("t1", "not Tariq, fix the gate")
    await rig.settle(1)
    assert not rig.of(ObjectiveDraft)
    rig.text("t2", "Kofi")
    await rig.settle(2)
    assert [(d.objective.agent, d.objective.target.label) for d in rig.of(ObjectiveDraft)] == [
        ("Kofi", "Gate")
    ]


@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        ("no, the thirtieth", "2026-12-30"),
        ("make it the twentieth", "2026-12-20"),
        ("no, the twenty-first", "2026-12-21"),
        ("the fifteenth", "2026-12-15"),
        ("no, the 30th", "2026-12-30"),
    ],
)
def test_a_day_of_the_month_in_words_is_the_day_not_the_thing(text: str, deadline: str) -> None:
    """T26c: "no, the thirtieth" was the thing ("look into the thirtieth on
    March 13"), and the yes confirmed it."""
    got = reading("Abeni, check the dentist booking on the 13th", text)
    assert isinstance(got, Draft), got
    assert (got.objective.target.label, got.objective.deadline) == ("Dentist booking", deadline)


def test_the_second_said_alone_is_which_one_not_a_day() -> None:
    got = reading("Abeni, check the dentist booking on the 13th", "no, the second")
    assert not isinstance(got, Draft), got


# A review of the hour change and the placeholders (the twenty-fifth session).


def test_an_hour_to_a_standing_order_changes_nothing_unseen() -> None:
    # It read back "…always protect the gate at 11 pm", due today: "every night" lost.
    got = reading("Tariq, guard the gate every night at 10pm", "make it 11pm")
    assert not isinstance(got, Draft), got


@pytest.mark.parametrize(
    ("source", "text", "when"),
    [
        ("Kofi, fix the gate tomorrow at 11am", "make it 12", "by tomorrow at 12 pm"),
        ("Kofi, fix the gate tomorrow at 11am", "make it 1", "by tomorrow at 1 pm"),
        ("Kofi, fix the gate tomorrow at 9am", "make it 10", "by tomorrow at 10 am"),
        ("Kofi, fix the gate tomorrow at 6pm", "make it 8", "by tomorrow at 8 pm"),
    ],
)
def test_an_hour_without_am_or_pm_takes_the_half_nearer_the_drafts(
    source: str, text: str, when: str
) -> None:
    # "make it 12" to 11 am was read back "12 am" (midnight), "make it 1" "1 am".
    got = reading(source, text)
    assert isinstance(got, Draft) and got.wording is not None, got
    assert got.wording.when == when


def test_a_number_to_a_draft_that_counts_is_no_hour() -> None:
    # "make it 3" to "fix 2 shelves tomorrow at 6pm" was read back "…at 3 pm".
    got = reading("Kofi, fix 2 shelves tomorrow at 6pm", "make it 3")
    assert not isinstance(got, Draft) or "3 pm" not in got.summary, got


async def test_an_answer_in_place_of_the_other_one(rig: Rig) -> None:  # noqa: F811
    # "the shed" to "What should Kofi look into?" after "check the other one"
    # drafted the thing "Shed the other one"; "look into the boiler" was Abeni's.
    rig.text("t1", "Kofi, check the other one")
    await rig.settle(1)
    rig.text("t2", "the shed")
    await rig.settle(2)
    rig.text("t3", "Kofi, have a look at the first one")
    await rig.settle(3)
    rig.text("t4", "look into the boiler")
    await rig.settle(4)
    got = [(d.objective.agent, d.objective.target.label) for d in rig.of(ObjectiveDraft)]
    assert got == [("Kofi", "Shed"), ("Kofi", "Boiler")]


# A conversation probe (T27c): halting speech, a name typed a letter out,
# "something" as the thing, a pick said with "drop".


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("no no no, Thursday", "deadline", "2026-12-10"),
        ("no no, Kofi", "agent", "Kofi"),
        ("no. I said... I said Kofi", "agent", "Kofi"),
        ("no, Tarqi", "agent", "Tariq"),
        ("no, Koif", "agent", "Kofi"),
    ],
)
def test_a_change_said_haltingly_is_the_change(text: str, field: str, value: object) -> None:
    # Each rejected the draft (or changed nothing, and the yes confirmed it).
    got = reading("Zuri, check the gate", text)
    assert isinstance(got, Draft) and getattr(got.objective, field) == value, got


def test_said_once() -> None:
    from vac.runtime.said_once import said_once

    assert said_once("no no no, Thursday. Thursday", ROSTER) == "no, Thursday"
    assert said_once("no, Tarqi", ROSTER) == "no, Tariq"
    assert said_once("no, Tariq", ROSTER) == "no, Tariq"
    assert said_once("fix the gate", ROSTER) == "fix the gate"


async def test_an_answer_in_place_of_something_and_drop_picks(rig: Rig) -> None:  # noqa: F811
    rig.text("t1", "Kofi, repair something")
    await rig.settle(1)
    rig.text("t2", "the gate")
    await rig.settle(2)
    rig.text("t3", "Imani, map the field")
    await rig.settle(3)
    rig.text("t4", "drop the field one")
    await rig.settle(4)
    drafts = rig.of(ObjectiveDraft)
    assert [(d.objective.agent, d.objective.target.label) for d in drafts] == [
        ("Kofi", "Gate"),
        ("Imani", "Field"),
    ]
    assert [r.objective_id for r in rig.of(ObjectiveRejected)] == [drafts[1].objective.id]


def test_actually_before_a_change_is_no_part_of_it() -> None:
    # T27c: "actually it's not urgent" was "I couldn't change the draft".
    got = reading("Kofi, fix the gate, it's urgent", "actually it's not urgent")
    assert isinstance(got, Draft) and got.objective.priority == 25, got


@pytest.mark.parametrize("text", ["good, yes", "yse"])
def test_more_yes(text: str) -> None:
    from vac.intent import classify_reply

    assert classify_reply(text) == "confirm"


@pytest.mark.parametrize(
    ("source", "text", "check"),
    [
        ("Zuri, check the gate", "no. Now", lambda g: g.objective.priority == 90),
        ("Kofi, fix the gate tomorrow at 9am", "at 11.11", lambda g: "11:11" in g.summary),
        ("Kofi, fix the gate tomorrow at 6pm", "make it 12", lambda g: "12 pm" in g.summary),
    ],
)
def test_a_second_review(source: str, text: str, check: object) -> None:
    # "no. Now" cancelled the draft, "at 11.11" became 11 am, "make it 12" to 6 pm midnight.
    got = reading(source, text)
    assert isinstance(got, Draft) and check(got), got  # type: ignore[operator]


def test_a_name_then_a_day_weighed_is_no_choice() -> None:
    # "Tariq? Saturday" drafted Kofi's on Saturday, Tariq dropped.
    got = reading("Kofi, fix the gate", "Tariq? Saturday")
    assert not isinstance(got, Draft) or got.objective.agent != "Kofi", got


@pytest.mark.parametrize(
    ("source", "text", "thing"),
    [
        ("Kofi, fix the shed door", "no, the big one", "Big shed door"),
        ("Kofi, fix the back gate", "no, the side one", "Side gate"),
        ("Kofi, fix the kitchen window", "the left one", "Left kitchen window"),
    ],
)
def test_which_one_keeps_the_kind_of_thing(source: str, text: str, thing: str) -> None:
    # T27c: "no, the big one" to the shed door drafted the "Big door".
    got = reading(source, text)
    assert isinstance(got, Draft) and got.objective.target.label == thing, got


def test_no_and_a_name_no_one_has_is_asked_not_a_no() -> None:
    # "no, Bob" rejected the draft (T27c's "no, <name>" family).
    got = reading("Zuri, check the gate", "no, Bob")
    assert not isinstance(got, Draft) and got is not None, got
    assert "No one's called Bob" in got.question  # type: ignore[union-attr]


@pytest.mark.parametrize("text", ["no, Friday", "No, Thanks"])
def test_no_and_a_day_or_thanks_is_as_before(text: str) -> None:
    from vac.runtime.said_once import unknown_after_no

    assert unknown_after_no(text, ROSTER) is None
