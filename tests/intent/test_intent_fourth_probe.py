"""Words from the fourth round of probes (2026-12-06, a new session; none
from the understanding corpus): the leftovers of the third round and a
fourth typed probe. Each was dropped without a word, or drafted wrong,
before.
"""

from __future__ import annotations

import datetime as dt

import intent_factories as factories
import pytest

from vac.intent import Clarify, Draft, default_roster

NOW = dt.datetime(2026, 12, 7, 14, 10, tzinfo=dt.UTC)  # a Monday afternoon
ROSTER = default_roster()


def draft(text: str, now: dt.datetime = NOW) -> Draft:
    got: Draft | Clarify = factories.understood(text, now=now, roster=ROSTER)
    assert isinstance(got, Draft), got
    return got


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("Kofi, check the hens in the middle of the night", "in the middle of the night"),
        ("Kofi, check the hens in the dead of night", "in the dead of night"),
    ],
)
def test_the_middle_of_the_night_is_tonight(text: str, said: str) -> None:
    got = draft(text)
    assert got.objective.deadline == "2026-12-07"
    assert said in got.summary


def test_the_middle_of_the_night_shift_is_a_thing_not_a_time() -> None:
    assert draft("Kofi, check the hens in the middle of the night shift").objective.deadline is None


@pytest.mark.parametrize(
    "text",
    [
        "Zuri, fix the tap that always drips at night",
        "Zuri, fix the tap that drips at night",
        "Kofi, fix the light that comes on at 6",
        "Kofi, the fox came at night, guard the hens",  # "at night" was read past the deed
    ],
)
def test_when_the_thing_does_what_it_does_is_no_deadline(text: str) -> None:
    assert draft(text).objective.deadline is None


@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        ("Kofi, fix the tap that drips at night by Friday", "2026-12-11"),
        ("Kofi, check the gate that sticks on Friday", "2026-12-11"),  # a day: when to check
        ("Kofi, fix the tap that leaks by Friday", "2026-12-11"),
    ],
)
def test_the_deadline_after_what_the_thing_does_stays(text: str, deadline: str) -> None:
    assert draft(text).objective.deadline == deadline


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, this May is busy, fix the gate",
        "Kofi, next January will be cold, fix the boiler",
        "Kofi, this December's been mad, fix the gate",
    ],
)
def test_a_month_talked_about_is_no_deadline(text: str) -> None:
    assert draft(text).objective.deadline is None


def test_a_month_said_as_when_is_still_the_deadline() -> None:
    assert draft("Kofi, fix the gate this December, it's cold").objective.deadline == "2026-12-31"


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("Kofi, build a pen for the goats, not near the veggie patch", "Not near the veggie patch"),
        ("Kofi, build a pen for the goats - not behind the barn", "Not behind the barn"),
        ("Kofi, fix the gate, not in the rain", "Not in the rain"),
    ],
)
def test_not_and_a_place_is_where_it_must_not_be(text: str, line: str) -> None:
    got = draft(text).objective
    assert line in [f.text for f in got.forbidden_lines]
    assert not [c for c in got.constraints if c.kind == "location"]


def test_not_in_a_hurry_is_a_priority_not_a_place() -> None:
    got = draft("Kofi, fix the gate, not in a hurry").objective
    assert got.priority == 25 and not [c for c in got.constraints if c.kind == "location"]


@pytest.mark.parametrize(
    ("text", "priority"),
    [
        ("Kofi, fix the gate, priority number one", 90),
        ("Kofi, fix the gate, it's a bit urgent", 78),
        ("Kofi, fix the gate, it's kind of urgent", 78),
        ("Kofi, fix the gate sharpish", 78),
        ("Kofi, fix the gate, at your own pace", 25),
        ("Kofi, fix the gate, it's not the end of the world", 25),
        ("Kofi, fix the gate as and when", 25),
    ],
)
def test_a_fourth_probes_priorities(text: str, priority: int) -> None:
    got = draft(text)
    assert got.objective.priority == priority
    assert not [c for c in got.objective.constraints if c.kind == "location"]
    assert got.objective.target.label == "Gate"


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, fix the gate, you don't have to run it past me",
        "Kofi, fix the gate, you don't need to run it past me",
        "Kofi, fix the gate, I'll leave it in your hands",
        "Kofi, fix the gate - your shout",
    ],
)
def test_a_fourth_probes_free_hands(text: str) -> None:
    got = draft(text).objective
    assert got.autonomy == "free" and got.target.label == "Gate"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("Kofi, the vet will check the goats on tuesday, so stay in", "no-verb"),
        ("Kofi, the plumber will fix the boiler on Monday, so be home", "no-verb"),
        ("the neighbour's boy offered to help with the harvest", "uncertain-agent"),
        ("me and the kids will build the snowman", "first-person"),
        ("my wife and I will fix the gate", "first-person"),
        ("me and Zuri will check the hens", "first-person"),  # was Zuri's draft
        ("Kofi and I will fix the gate", "first-person"),
        ("remind me to fix the gate tomorrow", "first-person"),
        ("note to self fix the gate", "first-person"),
        ("should I get Kofi to fix the gate or call a builder?", "question"),
        ("Abeni can you get Kofi or Zuri to fix the gate", "uncertain-agent"),
        ("Abeni, tell Kofi or Zuri to fix the gate", "uncertain-agent"),
    ],
)
def test_news_plans_and_lists_passed_on_are_asked(text: str, reason: str) -> None:
    got: Draft | Clarify = factories.understood(text, now=NOW, roster=ROSTER)
    assert isinstance(got, Clarify) and got.reason == reason, got


def test_the_order_after_the_news_is_the_agents() -> None:
    got = draft("Kofi, the vet will check the goats on Tuesday, so fix the gate").objective
    assert (got.agent, got.verb, got.target.label) == ("Kofi", "Repair", "Gate")


def test_an_order_passed_on_to_one_name_is_still_theirs() -> None:
    assert draft("Abeni can you get Kofi to fix the gate").objective.agent == "Kofi"


@pytest.mark.parametrize(
    ("text", "verb", "thing"),
    [
        ("Kofi, could you have a crack at fixing the gate", "Repair", "Gate"),  # was "Crack"
        ("Kofi, have a go at mending the fence", "Repair", "Fence"),
        ("Kofi, take a stab at building a shelf", "Build", "Shelf"),
        ("Kofi, have a squiz at the hens", "Investigate", "Hens"),
        ("Kofi, give the gate a once-over", "Investigate", "Gate"),
        ("Kofi, give the old gate a good fix", "Repair", "Old gate"),
        ("Kofi, give the hives a quick check", "Investigate", "Hives"),
    ],
)
def test_an_order_said_as_a_try_or_a_look(text: str, verb: str, thing: str) -> None:
    got = draft(text).objective
    assert (got.verb, got.target.label) == (verb, thing)
    assert not [c for c in got.constraints if c.kind in ("location", "custom")]


@pytest.mark.parametrize(
    ("text", "priority", "condition"),
    [
        ("Kofi, check the gutters whenever it rains", 55, "whenever it rains"),  # was 25, dropped
        ("Kofi, check the gutters whenever it's raining", 55, "whenever it's raining"),
        ("Tariq, guard the shed whenever we're away", 55, "whenever we're away"),
        ("Kofi, check the gutters whenever", 25, None),
        ("Kofi, check the gutters whenever you can", 25, None),
    ],
)
def test_whenever_an_event_is_a_condition_not_no_rush(
    text: str, priority: int, condition: str | None
) -> None:
    got = draft(text).objective
    assert got.priority == priority
    assert [c.value for c in got.constraints if c.kind == "custom"] == (
        [condition] if condition else []
    )


@pytest.mark.parametrize(
    ("text", "left"),
    [
        ("Kofi, fix the gate & the fence", "the fence"),
        ("Kofi fix the gate + check the hens", "check the hens"),
    ],
)
def test_and_written_short_is_and(text: str, left: str) -> None:
    got = draft(text)
    assert got.objective.target.label == "Gate"
    assert f'"{left}" is not in this draft' in got.summary


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("Kofi, build a kennel, keep it out of the rain", "Keep it out of the rain"),
        ("Tariq, guard the hens and keep them away from the fox", "Keep them away from the fox"),
    ],
)
def test_keep_it_away_from_is_a_boundary(text: str, line: str) -> None:
    assert line in [f.text for f in draft(text).objective.forbidden_lines]


@pytest.mark.parametrize(
    "text",
    [
        "Zuri, check the hives every fortnight",
        "Zuri, check the hives from time to time",
        "Kofi, check the water troughs every morning and night",
        "Zuri, check the hives every 2 weeks",
    ],
)
def test_a_fourth_probes_standing_orders(text: str) -> None:
    got = draft(text).objective
    assert got.autonomy == "standing-intent" and got.deadline is None
    assert got.target.label in ("Hives", "Water troughs")


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, fix the gate the kids keep leaving open every day",  # was "always repair"
        "Kofi, fix the gate, it keeps swinging open every night",
    ],
)
def test_a_habit_said_with_keep_ing_describes_the_thing(text: str) -> None:
    assert draft(text).objective.autonomy == "brief"


# A review of the rules above (2026-12-06): each was a wrong draft or a new question.
@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        ("Kofi, the vet will check the goats on Tuesday, so fix the gate today", "2026-12-07"),
        ("Kofi, meet the train that gets in at 5 tomorrow", "2026-12-08"),
        ("Kofi, fix the roof, next March will do", "2027-03-31"),
        ("Kofi, the dog barked in the middle of the night, check the fence", None),
    ],
)
def test_a_reviews_deadlines(text: str, deadline: str | None) -> None:
    assert draft(text).objective.deadline == deadline


@pytest.mark.parametrize(
    ("text", "condition"),
    [
        ("Kofi, fix the roof unless tomorrow is wet", "unless tomorrow is wet"),
        ("Kofi, protect the seedlings if tonight is frosty", "if tonight is frosty"),
        ("Kofi, fix the gate whenever we get a chance", None),
    ],
)
def test_a_reviews_conditions(text: str, condition: str | None) -> None:
    got = [c.value for c in draft(text).objective.constraints if c.kind == "custom"]
    assert got == ([condition] if condition else [])


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, fix the gate now and then check the fence",
        "Kofi, check the hens tomorrow morning and night",
        "Kofi, look for the hens not in the coop",
        "Kofi, check the B & Q order",
        "my wife and I are away this weekend, check the hens",
    ],
)
def test_a_reviews_plain_drafts(text: str) -> None:
    got = draft(text).objective
    assert got.autonomy == "brief"
    assert [f.text for f in got.forbidden_lines] == ["Respect the agent's autonomy"]


@pytest.mark.parametrize(
    ("text", "agent", "verb"),
    [
        ("Kofi abeg fix the gate", "Kofi", "Repair"),  # "abeg": please (asked who before)
        ("abeni cn u visit gran 2moro", "Abeni", "Befriend"),
        ("Kofi, lend the neighbours a hand with the harvest", "Kofi", "Support"),
    ],
)
def test_a_fourth_probes_ways_of_asking(text: str, agent: str, verb: str) -> None:
    got = draft(text).objective
    assert (got.agent, got.verb) == (agent, verb)


@pytest.mark.parametrize(
    ("text", "priority"),
    [
        ("KOFI FIX THE GATE NOW", 90),
        ("Kofi, fix the gate now please", 90),
        ("Kofi, fix the gate for now", 55),
        ("Kofi, you can fix the gate now", 55),
        ("Kofi, fix the gate now, no rush", 25),
    ],
)
def test_now_ending_the_order_is_urgent(text: str, priority: int) -> None:
    assert draft(text).objective.priority == priority


@pytest.mark.parametrize(
    ("text", "verb", "thing"),
    [
        ("Zuri, check if the well is dry", "Investigate", "If the well is dry"),  # was asked
        ("Zuri, let me know if the hens stop laying", "Report", "If the hens stop laying"),
    ],
)
def test_check_if_is_what_to_look_into(text: str, verb: str, thing: str) -> None:
    got = draft(text).objective
    assert (got.verb, got.target.label, got.deadline) == (verb, thing, None)


@pytest.mark.parametrize(
    "text",
    [
        "Zuri, find out if the market is open on monday",  # its day is the question's
        "Zuri, find out if grandma is coming for christmas",
        "Zuri, check if the 24/7 shop on the corner is open",
        "Zuri, check if you can, the well",
    ],
)
def test_check_if_with_a_time_of_its_own_is_still_asked(text: str) -> None:
    got: Draft | Clarify = factories.understood(text, now=NOW, roster=ROSTER)
    assert isinstance(got, Clarify) and got.reason == "no-target"
