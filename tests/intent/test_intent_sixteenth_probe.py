"""A sixteenth round of probes (2026-12-07, the twenty-fourth session;
none from the understanding corpus): the fifteenth round's leftovers, a
typed probe (T23) and a conversation probe (T23c)."""

from __future__ import annotations

import intent_factories as factories
import pytest

from vac.intent import Clarify, noun_first
from vac.intent.story_first import clause_last, order_after

run = factories.probe_run
draft = factories.probe_draft
NAMES = ("Kofi", "Tariq", "Imani", "Zuri", "Abeni")


@pytest.mark.parametrize(
    ("text", "thing"),
    [
        ("Zuri, keep the kids safe while they dig the drains", "Kids"),
        ("Zuri, keep the hens safe while we build the coop", "Hens"),
        ("Zuri, keep the foxes away from the hens while we build the coop", "Hens from the foxes"),
    ],
)
def test_keep_safe_is_the_order_not_the_deed_of_the_clause_after(text: str, thing: str) -> None:
    got = draft(text).objective
    assert (got.agent, got.verb, got.target.label) == ("Zuri", "Protect", thing), got


def test_keep_safe_when_another_verb_is_the_order_stays_that_order() -> None:
    got = draft("Kofi, fix the gate and keep the kids safe").objective
    assert (got.verb, got.target.label) == ("Repair", "Gate")


@pytest.mark.parametrize(
    "text",
    [
        "could Kofi fix a gate, in theory?",
        "in theory, could Kofi fix the gate?",
        "hypothetically, could Tariq build a shed",
        "can Zuri theoretically map the woods?",
    ],
)
def test_a_question_in_theory_is_no_order(text: str) -> None:
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "question", got


@pytest.mark.parametrize(
    ("text", "agent", "verb", "thing"),
    [
        (
            "back in my day we'd map the whole farm, but would you map the lower pasture",
            "Abeni",
            "Map",
            "Lower pasture",
        ),
        ("I was going to check the boiler, but can Tariq do it", "Tariq", "Investigate", "Boiler"),
        ("I tried to fix the gate, but Kofi, could you have a go?", "Kofi", "Repair", "Gate"),
        (
            "I fixed the gate last week, but can Kofi check the fence",
            "Kofi",
            "Investigate",
            "Fence",
        ),
        ("we used to build our own sheds, but Tariq, build a shed", "Tariq", "Build", "Shed"),
        ("I'd fix it myself but Kofi, can you fix the gate", "Kofi", "Repair", "Gate"),
    ],
)
def test_the_speakers_story_before_but_is_no_part_of_the_order(
    text: str, agent: str, verb: str, thing: str
) -> None:
    got = draft(text)
    assert (got.objective.agent, got.objective.verb, got.objective.target.label) == (
        agent,
        verb,
        thing,
    )
    assert got.objective.source_text == text  # the words as said are kept


def test_a_story_with_a_habit_lends_the_order_no_habit() -> None:
    got = draft("we always mapped the farm ourselves, but Zuri, map the pasture").objective
    assert (got.agent, got.autonomy) == ("Zuri", "brief")


def test_the_deed_meant_before_but_is_kept_with_its_new_time() -> None:
    got = draft("we meant to repair the fence yesterday, but Zuri, do it today please")
    assert (got.objective.agent, got.objective.verb, got.objective.target.label) == (
        "Zuri",
        "Repair",
        "Fence",
    )
    assert str(got.objective.deadline).startswith("2026-03-11")


@pytest.mark.parametrize(
    "text",
    [
        "I'd like the shed built, but Kofi, check the ground first",  # a wish: an order itself
        "I need the gate fixed, but not today",  # no one addressed after "but"
        "Kofi, fix the gate, but don't use the ladder",  # no story before it
        "I tried to fix the gate, but it's still broken",  # no order after it
        "Kofi was going to fix the gate, but Tariq, do it",  # a name in what came before
    ],
)
def test_no_story_or_no_order_after_it_reads_the_words_as_before(text: str) -> None:
    assert order_after(text, NAMES) is None


def test_the_deed_of_the_story_fills_do_it() -> None:
    assert order_after("I was going to check the boiler, but can Tariq do it", NAMES) == (
        "can Tariq check the boiler"
    )
    assert order_after("I wanted to map the woods myself, but Zuri, do that", NAMES) == (
        "Zuri, map the woods"
    )


@pytest.mark.parametrize(
    ("text", "agent", "thing"),
    [
        ("Tariq, while I fix the gate myself, you help Zuri with the compost", "Tariq", "Zuri"),
        ("While I map the field, Zuri, you fix the gate.", "Zuri", "Gate"),
    ],
)
def test_the_speakers_own_deed_said_first_is_a_condition(text: str, agent: str, thing: str) -> None:
    got = draft(text).objective
    assert got.agent == agent and got.target.label.startswith(thing), got
    assert any(
        c.kind == "custom" and c.value.lower().startswith("while i") for c in got.constraints
    )


def test_a_story_of_the_past_said_first_is_not_moved() -> None:
    assert clause_last("when I was young, Kofi would fix the roof") is None
    assert isinstance(run("when I was young, Kofi would fix the roof"), Clarify)


@pytest.mark.parametrize(
    "text",
    [
        "Tariq can build sheds really well.",
        "Imani is able to repair boilers",
        "Abeni can befriend any animal",
        "Kofi knows how to fix cars",
        "Would Kofi be able to fix a boiler, generally speaking?",
    ],
)
def test_what_someone_is_good_at_is_no_order(text: str) -> None:
    assert isinstance(run(text), Clarify), run(text)


@pytest.mark.parametrize(
    "text", ["Kofi can fix the gate", "Kofi can check the hens, he knows them well"]
)
def test_can_with_a_thing_of_the_house_is_still_an_order(text: str) -> None:
    assert draft(text).objective.agent == "Kofi"


@pytest.mark.parametrize(
    "text",
    [
        "Kofi can fix the gate in an hour",  # a time, not a skill
        "Tariq can build all the shelves",
        "Kofi can check gas",
        "Tariq can support Thomas",
        "Zuri, can you report on the house in general",  # overall, not in theory
    ],
)
def test_a_time_all_a_name_or_in_general_is_still_an_order(text: str) -> None:
    assert draft(text).objective.verb in ("Repair", "Build", "Investigate", "Support", "Report")


@pytest.mark.parametrize(
    ("text", "verb", "thing"),
    [
        ("Imani, you go make map of the field tomorrow", "Map", "Field"),
        ("Zuri, go and make friend with the new dog of neighbour", "Befriend", "New dog"),
        ("Tariq make investigate why the water is cold", "Investigate", "Why the water"),
        ("Zuri make a report about the roof", "Report", "Roof"),
        ("Tariq, make protection for the hens", "Protect", "Hens"),
        ("Kofi make build a shed", "Build", "Shed"),
        ("Zuri, make a sketch of the garden", "Map", "Garden"),
    ],
)
def test_make_before_a_deed_is_that_deed(text: str, verb: str, thing: str) -> None:
    got = draft(text).objective
    assert got.verb == verb and got.target.label.startswith(thing), got


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        ("gate fix pls kofi", "Kofi"),
        ("fence repair please Tariq", "Tariq"),
        ("the gate fix kofi", "Kofi"),
    ],
)
def test_a_note_thing_first_name_last_is_that_names_order(text: str, agent: str) -> None:
    got = draft(text).objective
    assert (got.agent, got.verb) == (agent, "Repair") and got.target.label in ("Gate", "Fence")
    assert got.source_text == text


@pytest.mark.parametrize(
    ("text", "agent", "verb"),
    [
        ("Ask Imani, or actually no, ask Abeni to befriend the new cat", "Abeni", "Befriend"),
        ("Kofi, correction, Zuri, fix the gate", "Zuri", "Repair"),
        ("Kofi, investigate the leak, correction, repair the leak", "Kofi", "Repair"),
        ("Kofi, investigate the leak, sorry, repair the leak", "Kofi", "Repair"),
        ("Kofi, check the roof, actually, fix the roof", "Kofi", "Repair"),
    ],
)
def test_a_correction_said_with_correction_or_or_actually_no(
    text: str, agent: str, verb: str
) -> None:
    got = draft(text).objective
    assert (got.agent, got.verb) == (agent, verb), got


def test_a_bare_ordinal_after_on_is_no_day() -> None:
    got = draft("Imani, build a bench, put your shoes on first").objective
    assert got.deadline is None
    assert str(draft("Kofi, fix the sink on the first").objective.deadline).startswith("2026-04-01")
    assert str(draft("Kofi, fix the sink on 1st").objective.deadline).startswith("2026-04-01")
    assert str(draft("Kofi, fix the sink by first of next month").objective.deadline).startswith(
        "2026-04-01"
    )


def test_not_now_is_no_haste() -> None:
    assert draft("Tariq, map the stream, not now").objective.priority != 90
    assert draft("Tariq, map the stream now").objective.priority == 90


@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        ("I was going to fix the gate today, but Kofi, can you do it", "2026-03-11"),
        ("We'd need the gate fixed by Friday, but Kofi, check the hinge first", "2026-03-13"),
    ],
)
def test_a_story_keeps_its_time_and_a_need_is_no_story(text: str, deadline: str) -> None:
    assert str(draft(text).objective.deadline).startswith(deadline)


def test_it_after_the_story_is_the_thing_told_of() -> None:
    got = draft("I was going to build a shelf, but Tariq, you build it").objective
    assert (got.agent, got.verb, got.target.label) == ("Tariq", "Build", "Shelf")


def test_keep_safe_and_another_order_is_not_taken_over() -> None:
    got = draft("Kofi, keep the hens safe, and repair the coop tomorrow").objective
    assert got.verb == "Repair" and str(got.deadline).startswith("2026-03-12")


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Kofi, fix the sink on third", "2026-04-03"),
        ("Kofi, fix the sink by first", "2026-04-01"),
    ],
)
def test_other_bare_ordinals_are_still_days(text: str, day: str) -> None:
    assert str(draft(text).objective.deadline).startswith(day)


def test_why_not_now_is_still_haste() -> None:
    assert draft("Kofi, fix the gate, why not now").objective.priority == 90


@pytest.mark.parametrize("text", ["nice fix kofi", "sorry fix kofi", "great report today zuri"])
def test_praise_before_the_verb_is_no_thing_first_note(text: str) -> None:
    assert noun_first.as_order(text, NAMES) is None


@pytest.mark.parametrize(
    ("text", "agent", "thing"),
    [
        ("Kofi! The tap! Fix it!", "Kofi", "Tap"),
        ("Kofi. The tap. Fix it.", "Kofi", "Tap"),
        ("Broken window. Tariq, repair it.", "Tariq", "Broken window"),
        ("Another leaking tap. Kofi, sort it out.", "Kofi", "Leaking tap"),
        ("Great, another broken window. Tariq, sort it out.", "Tariq", "Broken window"),
    ],
)
def test_an_order_in_fragments_is_read_whole(text: str, agent: str, thing: str) -> None:
    got = draft(text).objective
    assert (got.agent, got.verb, got.target.label) == (agent, "Repair", thing), got
    assert got.source_text == text


@pytest.mark.parametrize(
    "text",
    [
        "Kofi. He's away. Fix the gate.",  # a statement, not a thing: asked whom
        "Wait a moment. Make it Monday.",  # no thing, and "make it" sets
    ],
)
def test_fragments_that_are_no_thing_are_not_joined(text: str) -> None:
    assert isinstance(run(text), Clarify), run(text)


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        ("Since Zuri is away, Imani should map the field", "Imani"),
        ("Zuri is away, so Imani should map the field", "Imani"),
        ("As Zuri is busy, Imani should map the field", "Imani"),
        ("Zuri's off sick, so map the field", "Abeni"),
    ],
)
def test_a_reason_that_rules_someone_out_is_no_part_of_the_order(text: str, agent: str) -> None:
    got = draft(text).objective
    assert (got.agent, got.verb) == (agent, "Map"), got


@pytest.mark.parametrize(
    ("text", "agent", "thing"),
    [
        ("Imani, map the — sorry, Zuri, map the orchard", "Zuri", "Orchard"),
        ("Kofi, fix the — sorry, Tariq, fix the tap", "Tariq", "Tap"),
        ("Zuri, guard the... no wait, Imani, guard the barn", "Imani", "Barn"),
    ],
)
def test_an_order_broken_off_and_said_again_is_the_one_said_again(
    text: str, agent: str, thing: str
) -> None:
    got = draft(text).objective
    assert (got.agent, got.target.label) == (agent, thing), got


def test_haste_taken_back_is_not_urgent() -> None:
    got = draft("Kofi, urgent — well, not urgent, but soon — check the gutters").objective
    assert got.priority != 90
    assert draft("Kofi, check the gutters, not urgent, asap").objective.priority == 90


@pytest.mark.parametrize(
    "text",
    [
        "Good morning. Kofi, fix it.",
        "My bad. Kofi, fix it.",
        "Fox about. Imani, watch it.",
        "Kofi and, um, Tariq, fix the gate",  # both called: asked
    ],
)
def test_a_remark_or_a_filler_is_no_fragment_of_the_order(text: str) -> None:
    assert isinstance(run(text), Clarify), run(text)


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        ("Tariq, sit down — Kofi, fix the tap", "Kofi"),
        ("Kofi, not now. Tariq, fix the gate", "Tariq"),
        ("Kofi fix the — no, not you Tariq, sit down — Kofi fix the tap", "Kofi"),
        ("Kofi, no, not you Tariq, fix the tap", "Kofi"),
        ("Kofi, with Zuri, fix the gate", "Kofi"),
        ("Kofi, no, Zuri, fix the gate", "Zuri"),
    ],
)
def test_the_name_said_right_before_the_order_after_words_to_another(text: str, agent: str) -> None:
    assert draft(text).objective.agent == agent


def test_two_names_called_together_are_asked() -> None:
    assert isinstance(run("Kofi, Zuri, fix the gate"), Clarify)


@pytest.mark.parametrize(
    "text",
    [
        "yeah right, like Imani's going to build a swimming pool",
        "oh yeah, like Abeni's gonna repair the car",
        "oh sure, Kofi will fix the gate, when pigs fly",
        "honestly, someone should fix this country",
        "somebody ought to sort out the government",
    ],
)
def test_irony_and_the_worlds_ills_are_no_order(text: str) -> None:
    assert isinstance(run(text), Clarify), run(text)


@pytest.mark.parametrize(
    "text",
    [
        "yeah sure, Kofi, fix the gate",
        "oh right, Kofi, fix the gate",
        "Zuri, map the country lanes",
    ],
)
def test_an_agreement_before_an_order_is_no_irony(text: str) -> None:
    assert draft(text).objective.agent in ("Kofi", "Zuri")


@pytest.mark.parametrize(
    ("text", "agent", "verb", "thing"),
    [
        (
            "Zuri, help — not now, honey — help Grandma with her shopping",
            "Zuri",
            "Support",
            "Grandma with her shopping",
        ),
        ("Imani, map out — hang on, the phone — map out the loft", "Imani", "Map", "Loft"),
        ("Tariq! Tariq. Look at the boiler.", "Tariq", "Investigate", "Boiler"),
    ],
)
def test_an_order_said_again_after_an_aside_or_a_name_said_twice(
    text: str, agent: str, verb: str, thing: str
) -> None:
    got = draft(text).objective
    assert (got.agent, got.verb, got.target.label) == (agent, verb, thing), got


@pytest.mark.parametrize(
    ("text", "thing"),
    [
        ("Kofi, build a 2 metre by 3 metre chicken run", "2 metre by 3 metre chicken run"),
        ("Kofi, build a 2m by 3m run", "2m by 3m run"),
    ],
)
def test_a_size_by_a_size_is_the_things(text: str, thing: str) -> None:
    got = draft(text).objective
    assert got.target.label == thing and got.deadline is None
    assert str(draft("Kofi, build a 6 foot by 4 shed by Friday").objective.deadline).startswith(
        "2026-03-13"
    )


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        ("Tariq, protect the tomatoes, looks like it's gonna freeze", "Tariq"),
        ("Oh right, Tariq, check the boiler, we'll need hot water", "Tariq"),
        ("As if the day wasn't busy enough, Kofi, fix the gate", "Kofi"),
        ("Kofi, fix the system", "Kofi"),
        ("repair the country kitchen table", "Abeni"),
        ("fix the economy setting on the dishwasher", "Abeni"),
    ],
)
def test_orders_with_words_like_irony_or_the_worlds_ills_are_orders(text: str, agent: str) -> None:
    assert draft(text).objective.agent == agent


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("Kofi, tomorrow morning, Tariq, fix the gate", "deadline", "2026-03-12"),
        ("Kofi, it's urgent, Zuri, fix the gate", "priority", 90),
    ],
)
def test_words_of_the_order_between_two_names_are_kept(
    text: str, field: str, value: object
) -> None:
    got = draft(text).objective
    assert str(getattr(got, field)).startswith(str(value)), got


@pytest.mark.parametrize(
    "text",
    [
        "Zuri, help — sorry, I mean Imani — help Grandma",  # the aside names someone
        "Zuri, help — don't use the car — help Grandma",  # the aside bans
    ],
)
def test_an_aside_that_says_something_of_the_order_is_not_left_out(text: str) -> None:
    assert isinstance(run(text), Clarify), run(text)


@pytest.mark.parametrize(
    ("text", "agent", "thing"),
    [
        ("Imani, map the — um, Zuri, map the orchard", "Zuri", "Orchard"),
        ("Night light. Kofi, fix it.", "Kofi", "Night light"),
        ("Bad hinge. Kofi, fix it.", "Kofi", "Bad hinge"),
    ],
)
def test_fillers_after_an_article_and_things_with_remark_words(
    text: str, agent: str, thing: str
) -> None:
    got = draft(text).objective
    assert (got.agent, got.target.label) == (agent, thing), got


@pytest.mark.parametrize(
    ("text", "verb"),
    [
        ("Kofi, whip up a chook shed", "Build"),
        ("Zuri, have a swatch at the boiler", "Investigate"),
    ],
)
def test_more_everyday_and_regional_verbs(text: str, verb: str) -> None:
    assert draft(text).objective.verb == verb


@pytest.mark.parametrize(
    "text", ["Kofi, the radiator's cold, fix it please", "the fence is bent, fix it"]
)
def test_it_after_a_thing_in_trouble_is_that_thing(text: str) -> None:
    assert draft(text).objective.target.label in ("Radiator", "Fence")
