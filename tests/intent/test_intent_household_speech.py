"""Everyday household phrasings found by a review of new sentences: what is
told rather than asked, reminders, typed shorthand, British times and weeks,
a time corrected, an order withdrawn with a reason."""

from __future__ import annotations

import datetime as dt

import intent_factories as factories
import pytest
from hypothesis import given
from hypothesis import strategies as st

from vac.intent import Clarify, Draft, default_roster

NOW = dt.datetime(2026, 12, 4, 10, 0, tzinfo=dt.UTC)  # a Friday
ROSTER = default_roster()
NOT_PASSED_ON = "Okay, I won't pass that on. What should be done?"


def run(text: str) -> Draft | Clarify:
    got: Draft | Clarify = factories.understood(text, now=NOW, roster=ROSTER)
    return got


def draft(text: str) -> Draft:
    got = run(text)
    assert isinstance(got, Draft), got
    return got


@pytest.mark.parametrize(
    "text",
    [
        "Kofi could not fix the gate.",
        "Kofi did not fix the gate.",
        "Kofi will not fix the gate.",
        "Kofi should not fix the gate.",
        "Kofi must not fix the gate.",
        "Kofi can not fix the gate.",
        "Kofi is not going to fix the gate.",
        "Kofi would not fix the gate.",
        "Kofi was able to fix the gate.",
        "Kofi did fix the gate.",
        "Kofi had to fix the gate.",
        "Kofi was going to fix the gate but forgot",
        "Zuri does not need to check the hives.",
        "Kofi no longer needs to fix the gate.",
    ],
)
def test_a_deed_denied_or_reported_is_no_order(text: str) -> None:
    # Before, only the contracted forms ("couldn't", "won't") were asked;
    # "Kofi could not fix the gate" was drafted as "Kofi will repair the gate".
    assert isinstance(run(text), Clarify)


@pytest.mark.parametrize(
    ("text", "agent", "verb", "label", "deadline"),
    [
        ("Kofi had better fix the gate by Friday", "Kofi", "Repair", "Gate", "2026-12-11"),
        ("Kofi better fix the gate", "Kofi", "Repair", "Gate", None),
        ("Kofi needs to fix the gate", "Kofi", "Repair", "Gate", None),
        ("Kofi will be able to fix the gate by Friday", "Kofi", "Repair", "Gate", "2026-12-11"),
        # reminders ask for the deed: no boundary "won't forget to"
        (
            "Zuri, don't forget to check the oven tonight",
            "Zuri",
            "Investigate",
            "Oven",
            "2026-12-04",
        ),
        ("Don't forget to fix the gate, Kofi", "Kofi", "Repair", "Gate", None),
        ("Tariq, don't forget to guard the barn tonight", "Tariq", "Protect", "Barn", "2026-12-04"),
        ("Kofi, do not forget to fix the gate", "Kofi", "Repair", "Gate", None),
        ("Kofi, don't fail to fix the gate", "Kofi", "Repair", "Gate", None),
        ("don't forget to ask Kofi to fix the gate", "Kofi", "Repair", "Gate", None),
        # typed shorthand
        ("zuri can u check the loft tmrw", "Zuri", "Investigate", "Loft", "2026-12-05"),
        ("kofi pls fix the tap", "Kofi", "Repair", "Tap", None),
        ("Kofi fix the gate tonite thx", "Kofi", "Repair", "Gate", "2026-12-04"),
        ("Kofi, fix the gate by tomoz", "Kofi", "Repair", "Gate", "2026-12-05"),
        # British times and weeks
        ("Kofi, fix the doorbell by half six", "Kofi", "Repair", "Doorbell", "2026-12-04"),
        ("Zuri, survey the field Monday week", "Zuri", "Map", "Field", "2026-12-14"),
        ("Zuri, survey the field by Friday week", "Zuri", "Map", "Field", "2026-12-18"),
        ("Kofi, repair the bench a week today", "Kofi", "Repair", "Bench", "2026-12-11"),
        ("Kofi, repair the bench a week tomorrow", "Kofi", "Repair", "Bench", "2026-12-12"),
        ("Kofi, repair the bench a week on Monday", "Kofi", "Repair", "Bench", "2026-12-14"),
        ("Kofi, repair the bench two weeks today", "Kofi", "Repair", "Bench", "2026-12-18"),
        ("Kofi, repair the bench the week after next", "Kofi", "Repair", "Bench", "2026-12-20"),
        ("Kofi, fix the hutch the Monday after next", "Kofi", "Repair", "Hutch", "2026-12-14"),
        ("Kofi, fix the hutch this time next week", "Kofi", "Repair", "Hutch", "2026-12-11"),
        # a time taken back for another: the last one
        ("Kofi, fix the fence on Monday, sorry, Tuesday", "Kofi", "Repair", "Fence", "2026-12-08"),
        (
            "Tariq, guard the garage tonight, no wait, tomorrow night",
            "Tariq",
            "Protect",
            "Garage",
            "2026-12-05",
        ),
        ("Kofi, build the shed by the 12th, no, the 19th", "Kofi", "Build", "Shed", "2026-12-19"),
        ("Kofi, fix the fence by Friday, I mean Saturday", "Kofi", "Repair", "Fence", "2026-12-05"),
        (
            "Kofi, fix the fence by Friday, make that Saturday",
            "Kofi",
            "Repair",
            "Fence",
            "2026-12-05",
        ),
        ("Kofi, fix the fence tomorrow, or rather Sunday", "Kofi", "Repair", "Fence", "2026-12-06"),
        (
            "Kofi, fix the fence by Friday, no, Saturday, no, Sunday",
            "Kofi",
            "Repair",
            "Fence",
            "2026-12-06",
        ),
        (
            "Kofi, fix the fence by Friday. Sorry, Saturday.",
            "Kofi",
            "Repair",
            "Fence",
            "2026-12-05",
        ),
        # …but not a remark, a second day, or an hour after a day
        (
            "Kofi, fix the fence on Monday, sorry, Tuesday is better",
            "Kofi",
            "Repair",
            "Fence",
            "2026-12-07",
        ),
        # two days with "and": due by the later, both read back (since
        # 2026-12-06; tests/intent/test_intent_ninth_probe.py)
        ("Kofi, fix the fence tomorrow and Sunday", "Kofi", "Repair", "Fence", "2026-12-06"),
        ("Kofi, fix the fence tomorrow, sorry, at noon", "Kofi", "Repair", "Fence", "2026-12-05"),
        # "no" is a correction when a thing, a time or a new order follows
        ("Kofi, fix the gate, no, the fence", "Kofi", "Repair", "Fence", None),
        ("Kofi, fix the gate, no, tomorrow", "Kofi", "Repair", "Gate", "2026-12-05"),
        ("Kofi, fix the gate, no rush", "Kofi", "Repair", "Gate", None),
        ("Kofi, no, fix the gate", "Kofi", "Repair", "Gate", None),
        ("Kofi, fix the gate, leave it open", "Kofi", "Repair", "Gate", None),
        ("Kofi, fix the gate, then leave it", "Kofi", "Repair", "Gate", None),
        ("Fix the gate. No. Kofi, fix the fence.", "Kofi", "Repair", "Fence", None),
        # asked for again after a take-back: "do it" with no one else to do it
        ("Kofi, fix the gate, never mind, do it.", "Kofi", "Repair", "Gate", None),
        ("Kofi, fix the gate, scratch that, do it anyway.", "Kofi", "Repair", "Gate", None),
        ("Kofi, fix the gate, never mind, no, just do it", "Kofi", "Repair", "Gate", None),
        ("Befriend Zuri, no, befriend Tariq", "Abeni", "Befriend", "Tariq", None),
        ("Kofi, fix the fence, no, the left side.", "Kofi", "Repair", "Fence", None),
        # a second review: insisting is no take-back, "or" alone no correction
        ("Kofi, fix the gate. No, it's urgent.", "Kofi", "Repair", "Gate", None),
        ("Kofi, fix the gate. No, it's not fine", "Kofi", "Repair", "Gate", None),
        ("Kofi, check the hives. No, they're swarming.", "Kofi", "Investigate", "Hives", None),
        ("Kofi, fix the gate. Oh no.", "Kofi", "Repair", "Gate", None),
        ("Kofi, fix the gate. Oh, no.", "Kofi", "Repair", "Gate", None),
        ("Map the river. Leave it, Zuri will.", "Zuri", "Map", "River", None),
        ("Zuri, map the river next week, or tonight", "Zuri", "Map", "River", "2026-12-13"),
        ("Your job will be to fix the gate.", "Abeni", "Repair", "Gate", None),
        ("kofee don't forget to fix the gate", "Kofi", "Repair", "Gate", None),
        ("Tariq don't forget to guard the barn tonight", "Tariq", "Protect", "Barn", "2026-12-04"),
        ("Don't forget to check the oven Zuri", "Zuri", "Investigate", "Oven", None),
        ("Kofi, fix the hutch the Saturday after next", "Kofi", "Repair", "Hutch", "2026-12-19"),
        ("check the Ur file, Kofi", "Kofi", "Investigate", "Ur file", None),
        # a third review: after a bare "no" only a sure let-go takes the order back
        ("Kofi, fix the gate. No, it can't wait.", "Kofi", "Repair", "Gate", None),
        ("Kofi, fix the gate. No, we won't be home.", "Kofi", "Repair", "Gate", None),
        ("Kofi, fix the gate. No, it isn't fixed.", "Kofi", "Repair", "Gate", None),
        ("Kofi, fix the gate. No, you do it.", "Kofi", "Repair", "Gate", None),
        ("Kofi, fix the gate. No, Zuri is busy.", "Kofi", "Repair", "Gate", None),
        ("kofi no fix the gate", "Kofi", "Repair", "Gate", None),
        ("Kofi, fix the gate. No, nobody fixed it", "Kofi", "Repair", "Gate", None),
        # a fifth: nothing less sure does ("really", a timing, a flaw, the agent's merits)
        ("Kofi, fix the gate. No, really do it.", "Kofi", "Repair", "Gate", None),
        ("Kofi, fix the gate. No, when you're done with lunch.", "Kofi", "Repair", "Gate", None),
        ("Kofi, fix the gate. No, Zuri fixed it badly.", "Kofi", "Repair", "Gate", None),
        ("Kofi, fix the gate. No, Kofi is right.", "Kofi", "Repair", "Gate", None),
        ("Kofi, fix the gate. No, Zuri has the keys.", "Kofi", "Repair", "Gate", None),
        ("Kofi, fix the gate. No, get Kofi to help.", "Kofi", "Repair", "Gate", None),
        ("Zuri, check the hives. No, get coffee first.", "Zuri", "Investigate", "Hives", None),
        ("kofi no please fix the gate", "Kofi", "Repair", "Gate", None),
        ("Kofi, fix the gate. No, I'm worried", "Kofi", "Repair", "Gate", None),
        (
            "Kofi, fix the gate. No, ask Zuri to check the hives",
            "Zuri",
            "Investigate",
            "Hives",
            None,
        ),
        ("The coffee was cold, so check the kettle", "Abeni", "Investigate", "Kettle", None),
        ("Kofi, fix the gate, it's been a week today", "Kofi", "Repair", "Gate", "2026-12-04"),
        ("The best plan is to fix the gate", "Abeni", "Repair", "Gate", None),
        ("Grandma will need help with the bags", "Abeni", "Support", "Bags", None),
        # A name said last after "it": who is asked, never the thing.
        ("There's a leak in the bathroom, can you fix it Kofi?", "Kofi", "Repair", "Leak", None),
        ("Grandma is lonely, visit her Imani", "Imani", "Befriend", "Grandma", None),
        # How long something has gone on is no deadline.
        (
            "The shutter's been banging all night, can you fix it Kofi?",
            "Kofi",
            "Repair",
            "Shutter",
            None,
        ),
        (
            "Kofi, the tap has been leaking all week, fix it by Monday",
            "Kofi",
            "Repair",
            "Tap",
            "2026-12-07",
        ),
        # How it is to be done, said after the thing, is no part of it.
        ("Tariq, guard the barn properly", "Tariq", "Protect", "Barn", None),
        ("Kofi, fix the gate properly this time", "Kofi", "Repair", "Gate", None),
        ("Kofi, fix the gate for good", "Kofi", "Repair", "Gate", None),
        ("Kofi, fix the old well", "Kofi", "Repair", "Old well", None),
        ("Kofi, fix the right gate", "Kofi", "Repair", "Right gate", None),
        # An order passed on is the one told's (it was the first name's).
        ("Abeni, tell Kofi to fix the gate", "Kofi", "Repair", "Gate", None),
        ("Zuri, ask Tariq to guard the barn tonight", "Tariq", "Protect", "Barn", "2026-12-04"),
        ("Imani, could you remind Kofi to check the well", "Kofi", "Investigate", "Well", None),
        ("Abeni, if you see Kofi, tell him to fix the gate", "Kofi", "Repair", "Gate", None),
        ("Abeni, if it rains, fix the gate", "Abeni", "Repair", "Gate", None),
        # "the well" said instead (it was ignored: "well" is also a small word).
        ("Zuri, check the hives, wait, no, the well", "Zuri", "Investigate", "Well", None),
        ("Kofi, fix the pump, sorry, I mean the old well", "Kofi", "Repair", "Old well", None),
        # Before the weekend: by its Friday (today is a Friday).
        ("Kofi, fix the gate before the weekend", "Kofi", "Repair", "Gate", "2026-12-04"),
        # Words the household uses.
        ("Tell Zuri to make a map on the cellar tunnels", "Zuri", "Map", "Cellar tunnels", None),
        ("Tariq, report back to me on the perimeter", "Tariq", "Report", "Perimeter", None),
        ("Abeni, give me a update on the launch", "Abeni", "Report", "Launch", None),
        ("Imani, check in on Grandpa tonight", "Imani", "Befriend", "Grandpa", "2026-12-04"),
        ("Imani, look in on Grandpa", "Imani", "Befriend", "Grandpa", None),
        ("Zuri, go and see what the dogs are barking at", "Zuri", "Investigate", "Dogs", None),
        ("Zuri, tell me how the tomatoes are doing", "Zuri", "Report", "Tomatoes", None),
        ("Kofi, see how you can fix the gate", "Kofi", "Repair", "Gate", None),
        ("Kofi, fix the gate that is rusting", "Kofi", "Repair", "Gate that is rusting", None),
        # A holiday said with "for" is its day (it was in the thing).
        ("Kofi, build a swing set for Christmas", "Kofi", "Build", "Swing set", "2026-12-25"),
        ("Kofi, build a table for 3", "Kofi", "Build", "Table for 3", None),
        # Whom the thing is for, said before it, is no part of it ("Me a bench").
        ("Kofi, build me a bench", "Kofi", "Build", "Bench", None),
        ("Kofi, build the kids a treehouse", "Kofi", "Build", "Treehouse", None),
        ("Kofi, build Grandma a new shed", "Kofi", "Build", "New shed", None),
        ("Zuri, check the hives a second time", "Zuri", "Investigate", "Hives a second time", None),
    ],
)
def test_said_the_household_way(
    text: str, agent: str, verb: str, label: str, deadline: str | None
) -> None:
    o = draft(text).objective
    assert (o.agent, o.verb, o.target.label if o.target else None) == (agent, verb, label)
    assert o.deadline == deadline
    assert not any("forget" in line.text.lower() for line in o.forbidden_lines)


@pytest.mark.parametrize(
    ("text", "question"),
    [
        ("The builders are going to fix the roof on Monday", "news about the builders"),
        ("Our landlord promised to fix the boiler by Friday", "news about our landlord"),
        ("The kids want to build a snowman if it snows", "news about the kids"),
        ("grandma wants to visit the market", "news about grandma"),
        ("Mrs Patel will visit Grandma on Sunday", "news about Mrs Patel"),
        ("Grandma wants to visit the market.", "news about Grandma"),
        ("Nobody needs to check the smoke alarm this week", "no one needs to do it"),
    ],
)
def test_news_of_someone_else_is_asked_about(text: str, question: str) -> None:
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "uncertain-agent", got
    assert question in got.question
    assert got.candidates == tuple(ROSTER.names())
    answered = run("Kofi " + text[len(got.heard_as or "") :].lstrip())
    assert isinstance(answered, Draft) and answered.objective.agent == "Kofi"


@pytest.mark.parametrize(
    ("text", "verb"),
    [
        ("Grandma needs help with the shopping", "Support"),
        ("Someone will fix the roof", "Repair"),
        ("The team will fix the roof", "Repair"),
        ("Please fix the roof", "Repair"),
    ],
)
def test_a_need_or_an_order_to_anyone_is_still_drafted(text: str, verb: str) -> None:
    assert draft(text).objective.verb == verb


@pytest.mark.parametrize(
    "text",
    [
        "Don't have Kofi fix the gate yet",
        "Please don't ask Zuri to map the garden yet",
        "Don't get Tariq to guard the barn just yet",
        "tell kofi not to fix the gate yet",
        "Kofi, build a bench... on second thoughts, don't",
        "Kofi, build a bench. On second thoughts, don't.",
        "Kofi, fix the gate. Oh wait, it's already fixed. Never mind.",
        "Kofi, fix the fence... no, I'll do it myself",
        "Tariq, guard the shed tonight. Actually no, we'll be home.",
        "Kofi, fix the gate. Actually, no.",
        "Kofi, fix the gate. No, forget it, it's fine.",
        "Kofi, fix the gate. Hmm, no, leave it.",
        "Kofi, fix the fence, never mind, the kids will do it",
        "Kofi, fix the gate, never mind, I'll do it",
        "Kofi, fix the gate, never mind, it's fine",
        "Kofi, fix the gate, never mind, it can wait.",
        "Zuri, fix the gate. Never mind, Kofi, do it.",
        "Kofi, fix the gate. No, it's fine.",
        "Kofi, fix the gate, no, I'll do it myself",
        "don't let coffee fix the gate",
        # a fourth review: what surely lets the order go after a bare "no"
        "Kofi, fix the gate. No, let me do it",
        "Kofi, fix the gate. No, dad will do it",
        # (not "No, Kofi can't, ask Zuri": handed to Zuri, test_intent_handover.py)
    ],
)
def test_an_order_withdrawn_or_put_off_is_not_passed_on(text: str) -> None:
    got = run(text)
    assert isinstance(got, Clarify) and got.question == NOT_PASSED_ON, got


def test_no_need_after_a_name_said_without_commas_is_no_order() -> None:
    for text in ("kofi no need to check the hives today", "a mani no need to visit grandma"):
        assert isinstance(run(text), Clarify), text


@pytest.mark.parametrize(
    "text",
    ["I never forget to fix the gate.", "Kofi, you never forget to check the hives."],
)
def test_never_forgetting_said_of_someone_is_no_order(text: str) -> None:
    assert isinstance(run(text), Clarify)


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("coffee could not fix the gate", "Kofi"),
        ("coffee was able to fix the gate", "Kofi"),
        ("tarik could not guard the barn", "Tariq"),
    ],
)
def test_a_misheard_name_whose_deed_is_told_is_asked_about(text: str, named: str) -> None:
    got = run(text)  # never the default agent's draft
    assert isinstance(got, Clarify) and got.reason == "uncertain-agent", got
    assert got.candidates[0] == named


def test_a_detail_said_with_a_negation_still_drafts_the_order() -> None:
    o = draft("I didn't ask Kofi to fix the gate yet, please do").objective
    assert (o.agent, o.verb) == ("Kofi", "Repair")
    assert draft("Kofi, fix the gate and don't forget the hinges.").objective.forbidden_lines


_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


@given(
    today=st.dates(min_value=dt.date(2026, 1, 1), max_value=dt.date(2030, 12, 31)),
    weeks=st.integers(min_value=1, max_value=8),
    day=st.sampled_from(_DAYS),
)
def test_weeks_on_a_weekday_are_that_weekday_that_many_weeks_after_the_coming_one(
    today: dt.date, weeks: int, day: str
) -> None:
    now = dt.datetime.combine(today, dt.time(10), tzinfo=dt.UTC)
    unit = "a week" if weeks == 1 else f"{weeks} weeks"
    got = factories.understood(f"Kofi, fix the gate {unit} on {day}", now=now, roster=ROSTER)
    assert isinstance(got, Draft), got
    due = dt.date.fromisoformat(got.objective.deadline or "")
    assert due.weekday() == _DAYS.index(day)
    assert 7 * weeks < (due - today).days <= 7 * weeks + 7


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        # "it" with nothing before it is asked about, and never Kofi as the
        # thing for the default agent ("Abeni will repair Kofi").
        ("can you fix it Kofi?", "Kofi"),
        ("help her Imani", "Imani"),
        ("Tariq, guard it well", "Tariq"),
        ("Kofi, fix it right", "Kofi"),
    ],
)
def test_it_and_a_name_said_last_asks_what(text: str, agent: str) -> None:
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "no-target", got
    assert agent in got.question


def test_before_the_weekend_said_at_the_weekend_is_next_friday() -> None:
    saturday = dt.datetime(2026, 12, 5, 10, 0, tzinfo=dt.UTC)
    got = factories.understood("Kofi, fix the gate before the weekend", now=saturday, roster=ROSTER)
    assert isinstance(got, Draft) and got.objective.deadline == "2026-12-11"
    assert "by Friday" in got.summary


@pytest.mark.parametrize(
    "text",
    [
        # The speaker's own habit or deed, not a request (each was drafted
        # for the default agent).
        "we used to protect the orchard with nets",
        "I used to fix the fence every spring",
        "we always guard the barn at night",
        "I might not repair the roof",
        "We may not fix the roof this week",
    ],
)
def test_the_speakers_own_habit_is_no_order(text: str) -> None:
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "first-person", got


@pytest.mark.parametrize(
    "text",
    [
        # What others do as a habit, or what an agent would be.
        "The children help with the harvest",
        "The builders fix the roof",
        "The neighbours visit the market on Fridays",
    ],
)
def test_news_and_praise_are_no_order(text: str) -> None:
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "uncertain-agent", got


@pytest.mark.parametrize(
    "text", ["Imani would make a great teacher one day", "Kofi would make a good carpenter"]
)
def test_what_an_agent_would_be_is_no_order(text: str) -> None:
    got = run(text)  # becoming is no Build: what to do is asked (twentieth session)
    assert isinstance(got, Clarify) and got.reason == "no-verb", got


@pytest.mark.parametrize(
    "text",
    [
        "Get Tariq to restore the old rocking chair however he thinks best",
        "Kofi, fix the gate as he sees fit",
        "Ask Zuri to map the valley, it's up to her",
    ],
)
def test_a_free_hand_said_of_the_agent(text: str) -> None:
    o = draft(text).objective
    assert o.autonomy == "free"
    assert o.target is not None and " he " not in f" {o.target.label.lower()} "


def test_a_sec_is_no_rush() -> None:
    o = draft("Kofi, fix the gate when you get a sec").objective
    assert o.priority < 40 and o.target is not None and o.target.label == "Gate"


def test_a_second_order_said_without_a_break_is_named_not_swallowed() -> None:
    got = draft("Kofi fix the gate Zuri check the well")
    assert got.objective.target is not None and got.objective.target.label == "Gate"
    assert 'one thing at a time: "Zuri check the well"' in got.summary


@pytest.mark.parametrize(
    ("text", "condition"),
    [
        # A condition said with the order is kept and read back (it was
        # dropped: the agent would have gone whatever the weather).
        ("if it rains, have Zuri check the hay", "if it rains"),
        ("Imani, visit grandma tomorrow, unless it snows", "unless it snows"),
        ("when the snow melts, Tariq should map the pass", "when the snow melts"),
        ("Kofi, fix the gate once the rain stops", "once the rain stops"),
        ("Kofi, if the gate is broken, fix it", "if the gate is broken"),
    ],
)
def test_a_condition_is_kept_and_read_back(text: str, condition: str) -> None:
    got = draft(text)
    assert [c.value for c in got.objective.constraints if c.kind == "custom"] == [condition]
    assert f", {condition} — confirm?" in got.summary
    assert got.objective.target is not None and condition not in got.objective.target.label


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, fix the gate if you have time",  # a courtesy: no rush
        "Kofi, check the hens once a day",  # how often
        "Kofi, let me know when the gate is fixed",  # what to report
    ],
)
def test_a_courtesy_or_a_count_is_no_condition(text: str) -> None:
    assert not [c for c in draft(text).objective.constraints if c.kind == "custom"]


@pytest.mark.parametrize(
    "text",
    [
        # A haste said not to be is no haste (each was 90 or 78: "Urgent: …").
        "Kofi, fix the heating, not that urgent",
        "Kofi, fix the heating, it isn't urgent",
        "Kofi, fix the heating, nothing urgent",
        "Kofi, fix the heating, not very important",
        "Zuri, check the hives, no massive hurry",
        "Kofi, fix the heating, not high priority",
    ],
)
def test_a_haste_denied_is_no_rush(text: str) -> None:
    got = draft(text)
    assert got.objective.priority < 40 and not got.summary.startswith("Urgent")


def test_a_denial_before_a_break_leaves_the_haste() -> None:
    assert draft("Kofi, it's not safe, fix the gate urgently").objective.priority >= 85


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("Kofi, fix the fence, no power tools", "No power tools"),
        ("Tariq, guard the house while we're out, no visitors", "No visitors"),
        ("Tariq, watch the kids, no sweets before dinner", "No sweets before dinner"),
    ],
)
def test_no_and_a_thing_forbids_it(text: str, line: str) -> None:
    got = draft(text)
    assert [f.text for f in got.objective.forbidden_lines] == [line]
    assert got.objective.deadline is None  # "before dinner" is the ban's
    assert f"with no {line[3:]}" in got.summary


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, fix the tap, no running water",
        "Kofi, fix the tap, no power",
        "Kofi, fix the fence, no huge rush",
        "Kofi, fix the fence, no wait, the gate",
        "Kofi, fix the fence, no problem",
    ],
)
def test_no_and_a_want_or_a_word_is_no_ban(text: str) -> None:
    got = run(text)
    assert not isinstance(got, Draft) or [f.value_ref for f in got.objective.forbidden_lines] == [
        "forbidden-line:respect-agent-autonomy"
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, fix the gate, but don't do anything without my say-so",
        "Kofi, fix the gate, but don't do anything without my permission",
        "Kofi, fix the gate but not without asking me first",
    ],
)
def test_nothing_without_my_say_so_is_a_tether(text: str) -> None:
    got = draft(text)
    assert got.objective.autonomy == "direct-tether"
    assert len(got.objective.forbidden_lines) == 1  # not "Avoid my say"
    assert "checking with you first" in got.summary


def test_a_date_already_past_is_asked_about_not_drafted() -> None:
    got = run("ask Kofi to repair the pump by 2026-12-01")  # today is 2026-12-04
    assert isinstance(got, Clarify) and got.reason == "unclear-deadline"
    assert draft("ask Kofi to repair the pump by 2026-12-04").objective.deadline == "2026-12-04"


@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        ("Kofi, fix the tap by 5ish", "2026-12-04"),
        ("Kofi, fix the tap tomorrowish", "2026-12-05"),
        ("Kofi, fix the tap by tomorow", "2026-12-05"),
    ],
)
def test_typed_hedges_and_typos_of_a_time(text: str, deadline: str) -> None:
    assert draft(text).objective.deadline == deadline


def test_typed_could_and_when_in_shorthand() -> None:
    assert draft("Zuri cld u check the hives").objective.agent == "Zuri"
    assert draft("Kofi, fix the gate wen u can").objective.priority < 40


AFTERNOON = dt.datetime(2026, 12, 9, 15, 30, tzinfo=dt.UTC)  # a Wednesday


@pytest.mark.parametrize(
    "text",
    [
        # A time of today already over is asked about (it was tomorrow's, or
        # today's morning read back as if still to come).
        "Zuri, inspect the chimney this morning",
        "Kofi, fix the gate by 10am today",
        "Kofi, fix the gate at lunchtime today",
    ],
)
def test_a_time_of_today_already_over_is_asked(text: str) -> None:
    got = factories.understood(text, now=AFTERNOON, roster=ROSTER)
    assert isinstance(got, Clarify) and got.reason == "unclear-deadline", got


@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        ("Kofi, fix the gate by the end of the day on Friday", "2026-12-11"),
        ("Zuri, check the hives by close of play", "2026-12-09"),
        ("Kofi, fix the gate this afternoon", "2026-12-09"),
        ("Kofi, fix the gate by 5pm today", "2026-12-09"),
    ],
)
def test_the_end_of_a_day_and_times_still_to_come(text: str, deadline: str) -> None:
    got = factories.understood(text, now=AFTERNOON, roster=ROSTER)
    assert isinstance(got, Draft) and got.objective.deadline == deadline


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("great, now I have to fix the gate myself", "first-person"),
        ("guess I'll fix the gate then", "first-person"),
        ("Kofi may fix the gate later", "uncertain-agent"),
    ],
)
def test_the_speakers_sigh_or_a_guess_is_no_order(text: str, reason: str) -> None:
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == reason, got


@pytest.mark.parametrize(
    ("text", "agent", "label"),
    [
        ("Kofi, the gate could do with fixing", "Kofi", "Gate"),
        ("The fence wants mending, Kofi", "Kofi", "Fence"),
        ("Zuri? Could you check the garage?", "Zuri", "Garage"),
    ],
)
def test_needs_said_other_ways_and_a_name_asked(text: str, agent: str, label: str) -> None:
    o = draft(text).objective
    assert (o.agent, o.target.label if o.target else None) == (agent, label)


@pytest.mark.parametrize(
    ("text", "verb", "priority", "autonomy"),
    [
        ("Kofi, fix the gate, top prio", "Repair", 90, "brief"),
        ("Kofi, fix the gate quick as you can", "Repair", 78, "brief"),
        ("Kofi, fix the gate, not a rush job", "Repair", 25, "brief"),
        ("Kofi, fix the gate however you think is right", "Repair", 55, "free"),
        ("Kofi, fix the gate, I'll leave the details to you", "Repair", 55, "free"),
        ("Kofi, knock together a bench", "Build", 55, "brief"),
        ("Zuri, suss out the noise in the barn", "Investigate", 55, "brief"),
        ("Zuri, keep me in the loop on the harvest", "Report", 55, "brief"),
        ("Imani, sit with Grandma tonight", "Befriend", 55, "brief"),
    ],
)
def test_everyday_words_for_haste_hand_and_deed(
    text: str, verb: str, priority: int, autonomy: str
) -> None:
    o = draft(text).objective
    assert (o.verb, o.priority, o.autonomy) == (verb, priority, autonomy)


@pytest.mark.parametrize(
    ("text", "line", "said"),
    [
        ("Kofi, fix the roof tiles but not in the rain", "Not in the rain", "but not in the rain"),
        ("Zuri, check the attic but not the cellar", "Not the cellar", "but not the cellar"),
        (
            "Kofi, fix the roof, but don't do it while it's raining",
            "Do not do it while it's raining",
            "won't do it while it's raining",
        ),
        ("Kofi, fix the door, be careful not to scratch it", "Do not scratch it", "won't scratch"),
        (
            "Kofi, under no circumstances touch the wiring, fix the lamp",
            "Do not touch the wiring",
            "won't touch the wiring",
        ),
    ],
)
def test_bans_said_other_ways(text: str, line: str, said: str) -> None:
    got = draft(text)
    assert [f.text for f in got.objective.forbidden_lines] == [line]
    assert said in got.summary
    assert not [c for c in got.objective.constraints if c.kind == "location"]


@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        ("Kofi, put up the decorations by NYE", "2026-12-31"),
        ("Kofi, build a bird box in 2 wks", "2026-12-23"),
        ("Kofi, fix the gate before the weekend is over", "2026-12-13"),
    ],
)
def test_more_typed_times(text: str, deadline: str) -> None:
    got = factories.understood(text, now=AFTERNOON, roster=ROSTER)
    assert isinstance(got, Draft) and got.objective.deadline == deadline


def test_a_place_said_in_a_clause_of_its_own_is_not_where_to_act() -> None:
    # It was read back as the order's place: "protect the baby in the shower".
    got = draft("tariq keep an eye on the baby while im in the shower")
    assert not [c for c in got.objective.constraints if c.kind == "location"]
    assert "the baby in the shower" not in got.summary  # a condition: "…, while you're in…"
    near = draft("Kofi, fix the gate near the barn while I'm at the shops")
    assert [c.value for c in near.objective.constraints if c.kind == "location"] == [
        "near the barn"
    ]


def test_a_ban_with_without_is_one_ban_not_its_inverse() -> None:
    got = draft(
        "Kofi, please mend the fence, "
        "but you are not to go up the ladder without someone holding it."
    )
    assert [f.text for f in got.objective.forbidden_lines] == [
        "Do not go up the ladder without someone holding it"
    ]
    assert [
        f.text
        for f in draft("Kofi, fix the roof, you mustn't use the ladder").objective.forbidden_lines
    ] == ["Do not use the ladder"]


@pytest.mark.parametrize(
    ("text", "agent", "label"),
    [
        # Corrections typed without commas (the first word stood).
        ("kofi fix the gate. actually no zuri do it", "Zuri", "Gate"),
        ("kofi fix the fence sorry the gate", "Kofi", "Gate"),
        ("kofi fix the fence i mean the gate", "Kofi", "Gate"),
        (
            "Zuri, make a card that says sorry. Actually, Kofi, you do it.",
            "Kofi",
            "Card that says sorry",
        ),
    ],
)
def test_corrections_typed_without_commas(text: str, agent: str, label: str) -> None:
    o = draft(text).objective
    assert (o.agent, o.target.label if o.target else None) == (agent, label)


@pytest.mark.parametrize(
    "text",
    [
        # A review of the conditions rule: none of these is the order's condition.
        "Kofi, fix the gate even if it rains",
        "Even if it rains, Kofi, fix the gate",
        "Kofi, fix the gate, but not if it rains",  # a ban
        "Kofi, fix the gate, don't work if it's icy",  # a ban's words
        "Kofi, fix the gate. If it rains, Zuri will cover the hay.",  # another order's
        "Kofi, fix the gate, and when it's done, feed the hens",
        "Kofi, fix the gate at once please",
        "Kofi, fix the gate once and for all",
        "Kofi, check the hens once in a while",
        "Kofi, check with Abeni if the delivery came",
    ],
)
def test_no_condition_of_the_order(text: str) -> None:
    got = run(text)
    if isinstance(got, Draft):
        assert not [c for c in got.objective.constraints if c.kind == "custom"], got.summary
        assert got.objective.target is None or "once" not in got.objective.target.label.lower()


@pytest.mark.parametrize(
    ("text", "priority"),
    [
        # A negation that is no denial of the haste (each was read as 25).
        ("Kofi, fix the gate, there's nothing more urgent", 90),
        ("Kofi, fix the gate, not later but right now", 90),
        ("Kofi, fix the gate today not tomorrow urgently", 90),
        ("Kofi, fix the heating, not in any hurry", 25),
    ],
)
def test_haste_denied_only_right_before_it(text: str, priority: int) -> None:
    assert draft(text).objective.priority == priority


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        ("Kofi, no kidding, fix the gate", []),
        ("Kofi, fix the gate by Friday, no excuses", []),
        ("Kofi, guard the barn, no questions asked", []),
        ("Tariq, watch out for ice on the path", []),
    ],
)
def test_idioms_after_no_are_no_bans(text: str, lines: list[str]) -> None:
    got = draft(text)
    assert [f.text for f in got.objective.forbidden_lines if "autonomy" not in f.text] == lines


def test_a_relay_keeps_you_as_who_was_asked() -> None:
    # "Kofi will support you…" would read as the steward, not Abeni.
    assert draft("Abeni, tell Kofi to help you fix the gate").objective.agent == "Abeni"
    assert draft("Tariq, watch out for ice on the path").objective.target.label == "Against ice"


@pytest.mark.parametrize(
    ("text", "verb", "label"),
    [
        # The deed said as a noun after "make" (each was a Build of the noun).
        (
            "Abeni, please make repair of the washing machine until Friday",
            "Repair",
            "Washing machine",
        ),
        ("Zuri, make the map of the forest", "Map", "Forest"),
        ("Zuri, make a survey of the field", "Map", "Field"),
        ("Kofi, make an inspection of the roof", "Investigate", "Roof"),
        ("Kofi, make a bench", "Build", "Bench"),
    ],
)
def test_a_deed_said_as_a_noun(text: str, verb: str, label: str) -> None:
    o = draft(text).objective
    assert (o.verb, o.target.label if o.target else None) == (verb, label)


@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        # Texting shorthand of a day (each was left in the thing, no date).
        ("imani visit grandma sun", "2026-12-13"),
        ("kofi fix bike b4 sat", "2026-12-12"),
        ("kofi fix gate 2day", "2026-12-09"),
        ("kofi fix gate nxt wk", "2026-12-20"),
    ],
)
def test_texting_shorthand_of_a_day(text: str, deadline: str) -> None:
    got = factories.understood(text, now=AFTERNOON, roster=ROSTER)
    assert isinstance(got, Draft) and got.objective.deadline == deadline


def test_a_short_day_name_is_only_a_day_at_the_end_after_a_thing() -> None:
    got = factories.understood("kofi fix the sat nav", now=AFTERNOON, roster=ROSTER)
    assert isinstance(got, Draft) and got.objective.deadline is None


@pytest.mark.parametrize(
    "text",
    [
        # A plan said with a hedge is news, asked about (it was drafted).
        "Kofi is going to fix the gate tomorrow, so don't worry",
        "Kofi will fix the gate, I think",
        "Kofi will fix the gate anyway",
        "Zuri's going to check the hives tomorrow anyway",  # with "'s" too (was drafted)
        "Kofi's gonna fix it later I think",  # (was the default agent's "repair it later")
    ],
)
def test_a_plan_said_with_a_hedge_is_asked(text: str) -> None:
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "uncertain-agent", got
    assert isinstance(run("Kofi will fix the gate tomorrow"), Draft)


@pytest.mark.parametrize(
    ("text", "agent", "deadline"),
    [
        # Polite asks that name the agent (they asked "Who should do it?").
        ("Could Kofi possibly fix the gate tomorrow?", "Kofi", "2026-12-10"),
        ("Could Kofi just fix the gate?", "Kofi", None),
        ("I was wondering if Kofi could fix the gate tomorrow", "Kofi", "2026-12-10"),
        ("I was wondering if tomorrow Kofi could fix the gate", "Kofi", "2026-12-10"),
        ("I wonder whether Zuri would check the hives", "Zuri", None),
        ("I wonder if Kofi can fix the gate", "Kofi", None),
        ("Any chance Kofi could fix the gate tomorrow?", "Kofi", "2026-12-10"),
        ("Is there any chance Kofi could fix the gate?", "Kofi", None),
        ("Do you think Kofi could fix the gate?", "Kofi", None),  # (was "a question")
    ],
)
def test_a_polite_ask_naming_the_agent_is_drafted(
    text: str, agent: str, deadline: str | None
) -> None:
    got = factories.understood(text, now=AFTERNOON, roster=ROSTER)
    assert isinstance(got, Draft), got
    assert (got.objective.agent, got.objective.deadline) == (agent, deadline)
    assert not [c for c in got.objective.constraints if c.kind == "custom"]  # no "if…" condition


@pytest.mark.parametrize(
    "text",
    [
        "I wonder if Kofi fixed the gate",  # a question about the past
        "Do you think Kofi will fix the gate?",  # a guess asked
        "Should Kofi fix the gate or the fence first?",  # advice asked (was drafted)
    ],
)
def test_wondering_and_asking_advice_are_not_drafted(text: str) -> None:
    assert isinstance(factories.understood(text, now=AFTERNOON, roster=ROSTER), Clarify)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        # A typed probe: the read-back hid what the agent then weighs (and may
        # refuse): "Kofi will befriend the miller" for "…and lie to him".
        ("Kofi, visit the miller and lie to him", '(also said: "and lie to him")'),
        ("Zuri, check the hives and spy on the neighbours", '"and spy on the neighbours"'),
    ],
)
def test_a_harm_asked_after_the_target_is_read_back(text: str, said: str) -> None:
    got = run(text)
    assert isinstance(got, Draft) and said in got.summary, got


@pytest.mark.parametrize(
    "text", ["Tariq, protect the chickens from harm", "Kofi, fix the gate without hurting anyone"]
)
def test_a_harm_guarded_against_or_banned_is_no_extra(text: str) -> None:
    got = run(text)
    assert isinstance(got, Draft) and "also said" not in got.summary, got


@pytest.mark.parametrize(
    ("text", "agent", "label"),
    [
        # A typed probe: the correction without "no" was missed (Gate).
        ("Kofi, fix the gate, not the gate, the fence", "Kofi", "Fence"),
        ("Kofi, fix the gate. Not the gate, the fence.", "Kofi", "Fence"),
        ("Kofi, fix the gate, not the fence", "Kofi", "Gate"),  # what is not meant: no change
        ("Kofi, fix the gate, not the fence, the hinges are loose", "Kofi", "Gate"),
        # A name, then news, then the ask, typed without commas: it asked
        # "Who should do it: Kofi or someone else?", and "Kofi" could not answer it.
        (
            "Kofi the dishwasher's leaking again can you sort it out before dinner",
            "Kofi",
            "Dishwasher",
        ),
        ("Kofi the gate is broken can you fix it", "Kofi", "Gate"),
    ],
)
def test_typed_corrections_and_news_before_an_ask(text: str, agent: str, label: str) -> None:
    got = run(text)
    assert isinstance(got, Draft), got
    assert (got.objective.agent, got.objective.target.label) == (agent, label)


def test_news_naming_another_before_the_ask_is_still_asked() -> None:
    got = run("Kofi the gate Zuri broke can you fix it")
    assert isinstance(got, Clarify) and got.reason == "uncertain-agent"


@pytest.mark.parametrize(
    "text",
    [
        # A typed probe: the oil was dropped without a word.
        "Zuri, check the car tyres, and also the oil",
        "Zuri, check the car tyres and also the oil",
        "Zuri, check the car tyres, also the oil",
        "Zuri, check the car tyres, plus the oil",
    ],
)
def test_a_second_thing_said_with_also_is_named(text: str) -> None:
    got = run(text)
    assert isinstance(got, Draft) and got.objective.target.label == "Car tyres"
    assert '"the oil" is not in this draft' in got.summary


@pytest.mark.parametrize("text", ["make it urgent", "make that Friday", "Kofi, make it snappy"])
def test_make_it_how_or_when_builds_nothing(text: str) -> None:
    # A probe: "Abeni will build it urgent", "Kofi will build that Thursday".
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "no-verb", got


@pytest.mark.parametrize(
    ("text", "priority"),
    [
        ("Kofi, make it a priority to fix the gate", 78),
        ("Kofi, make it a top priority to fix the gate", 90),
    ],
)
def test_make_it_a_priority_to_is_the_deed_after_it(text: str, priority: int) -> None:
    got = run(text)
    assert isinstance(got, Draft), got
    assert (got.objective.verb, got.objective.target.label) == ("Repair", "Gate")
    assert got.objective.priority == priority
    assert isinstance(run("Kofi, make a bench"), Draft)


def test_a_standing_order_with_a_clock_time_says_how_often() -> None:
    # A probe: "every Monday at 9" was read back "will always … at 9".
    got = run("Tariq, check the shed every Monday at 9")
    assert isinstance(got, Draft) and "every Monday at 9" in got.summary, got


@pytest.mark.parametrize(
    "text", ["hang on, let me check with my wife first", "let me look into my diary"]
)
def test_let_me_is_the_speakers_own(text: str) -> None:
    # A probe: "Zuri will look into my wife first" drafted beside a pending draft.
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "first-person", got
