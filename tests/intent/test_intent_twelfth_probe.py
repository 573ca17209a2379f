"""A twelfth round of probes (2026-12-07, the twentieth session; none from
the understanding corpus), and the eleventh probe's leftovers the
nineteenth session's note named."""

from __future__ import annotations

import intent_factories as factories
import pytest

from vac.intent import Clarify, default_roster
from vac.intent.reply_words import classify_reply
from vac.runtime.choices import called

run = factories.probe_run
draft = factories.probe_draft


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, do you have time to fix the gate, or is the fence more urgent?",
        "Kofi, can you fix the gate or is something else more important?",
        "Kofi, fix the gate, or would the fence be more of a priority?",
        "Zuri, guard the shop or the house, whichever is more urgent",
    ],
)
def test_the_haste_of_an_alternative_is_not_the_orders(text: str) -> None:
    got = draft(text)
    assert got.objective.priority == 55, got.summary
    assert " or is " not in got.objective.target.label


def test_the_orders_own_haste_stays_beside_an_alternative() -> None:
    assert draft("Kofi, fix the gate urgently, or should I ask Tariq?").objective.priority == 90


@pytest.mark.parametrize(
    ("text", "agent", "verb", "label"),
    [
        ("kofi i need the tumble dryer fixed by thurs", "Kofi", "Repair", "Tumble dryer"),
        ("Kofi I want the gate fixed by tonight", "Kofi", "Repair", "Gate"),
        ("tariq keep the kids safe tonight", "Tariq", "Protect", "Kids"),
        ("Zuri keep the shop secure", "Zuri", "Protect", "Shop"),
    ],
)
def test_a_name_without_its_comma_before_a_roundabout_order(
    text: str, agent: str, verb: str, label: str
) -> None:
    got = draft(text)
    assert (got.objective.agent, got.objective.verb, got.objective.target.label) == (
        agent,
        verb,
        label,
    )


@pytest.mark.parametrize("text", ["Kofi and I keep the kids safe", "Kofi or I keep the gate shut"])
def test_a_name_in_a_subject_with_another_is_no_order(text: str) -> None:
    assert isinstance(run(text), Clarify)


@pytest.mark.parametrize(
    ("text", "second"),
    [
        ("Zuri, build a shelf for the books and a rack for the shoes", "a rack for the shoes"),
        (
            "Zuri, build a pen for the goats and a coop for the hens by Friday",
            "a coop for the hens",
        ),
        ("Kofi, fix the door of the shed and the roof of the barn", "the roof of the barn"),
    ],
)
def test_a_second_thing_shaped_as_the_first_is_named(text: str, second: str) -> None:
    got = draft(text)
    assert f'one thing at a time: "{second}" is not in this draft' in got.summary


def test_a_thing_that_joins_two_itself_names_no_second() -> None:
    assert (
        "one thing at a time"
        not in draft("Kofi, map the path from the farm and the village").summary
    )


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        ("Kofi, the radiator in the hall is cold. Can you bleed it?", "Kofi"),
        ("Hey Zuri, the hens look off", "Zuri"),
        ("Kofi, no, Zuri, the radiator's cold", "Zuri"),  # the name said last, as asked
        ("The radiator is cold", None),
        ("Coffee. Coffee please.", None),  # no name as written
    ],
)
def test_the_agent_a_no_verb_question_is_asked_of(text: str, agent: str | None) -> None:
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "no-verb"
    assert called(got, default_roster()) == agent


@pytest.mark.parametrize(
    ("text", "who"),
    [
        ("Kofi, the radiator in the hall is cold. Can you bleed it?", "Kofi"),
        ("Zuri, the gate", "Zuri"),
        ("maybe the weather is nice", "someone"),
        ("Coffee. Coffee please. Two sugars.", "someone"),  # heard like a name, not one
    ],
)
def test_what_to_do_is_asked_of_the_agent_addressed(text: str, who: str) -> None:
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "no-verb"
    assert got.question.startswith(f"I heard you, but not what to do. Should {who} repair")


@pytest.mark.parametrize(
    "text",
    ["yes do", "fine, yes", "Yes, fine.", "ok, fine", "ok great", "Excellent.", "great, yes"],
)
def test_more_everyday_yeses(text: str) -> None:
    assert classify_reply(text) == "confirm"


@pytest.mark.parametrize("text", ["fine", "great", "Fine, thanks.", "Great, thanks Zuri."])
def test_fine_and_great_alone_stay_small_talk(text: str) -> None:
    assert classify_reply(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "She told me to fix the gate.",
        "My boss asked me to fix the printer today.",
        "The vet told us to check the dog's paw every day.",
        "He wants me to fix the gate",
    ],
)
def test_what_the_speaker_was_asked_to_do_is_asked_about(text: str) -> None:
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "first-person", got


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        ("Kofi, Mum told me to check the hens", "Kofi"),
        ("Mum said to check the hens", "Abeni"),  # relayed, as before: not the speaker's
    ],
)
def test_a_reported_ask_passed_on_is_an_order(text: str, agent: str) -> None:
    assert draft(text).objective.agent == agent


@pytest.mark.parametrize(
    ("text", "who"),
    [
        ("Mrs Owusu, could you check the hedge?", "Mrs Owusu"),
        ("Mr Boateng, please fix the fence", "Mr Boateng"),
    ],
)
def test_someone_called_by_a_title_is_asked_about(text: str, who: str) -> None:
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "unknown-agent"
    assert f"I don't know anyone called {who}." in got.question


@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        ("Kofi fix the fence by Friday no Saturday", "2026-03-14"),
        ("Kofi, check the hens tomorrow night actually tonight", "2026-03-11"),
        ("Kofi, fix the door by Monday sorry Tuesday", "2026-03-17"),
        ("Kofi fix the door on Monday I mean Tuesday", "2026-03-17"),
    ],
)
def test_a_time_taken_back_without_a_break(text: str, deadline: str) -> None:
    assert draft(text).objective.deadline == deadline


@pytest.mark.parametrize(
    "text",
    ["Kofi, fix the fence tonight no rush", "Kofi, fix the fence on Friday no later than noon"],
)
def test_no_before_what_is_no_time_takes_nothing_back(text: str) -> None:
    assert draft(text).objective.deadline is not None


@pytest.mark.parametrize(
    ("text", "subject"),
    [
        ("Zuri's mum will fix the gate tomorrow.", "Zuri's mum"),
        ("Zuri's dad used to fix all the bikes in the village.", "Zuri's dad"),
        ("The landlord should fix the boiler.", "the landlord"),
        ("The council should repair the potholes on our road.", "the council"),
    ],
)
def test_news_of_someone_else_is_asked_about(text: str, subject: str) -> None:
    got = run(text)
    assert isinstance(got, Clarify), got
    assert got.question.startswith(f"That sounds like news about {subject}, not a request.")


@pytest.mark.parametrize(("text", "agent"), [("Kofi should fix the gate", "Kofi")])
def test_an_agent_who_should_is_still_asked(text: str, agent: str) -> None:
    assert draft(text).objective.agent == agent


def test_the_sooner_the_better_is_a_priority() -> None:
    assert draft("Kofi, fix the gate, the sooner the better").objective.priority == 78


def test_no_need_to_ask_about_the_order_is_a_free_hand() -> None:
    got = draft("Kofi, fix the gate and don't bother asking me about it.")
    assert got.objective.autonomy == "free"
    assert not [f for f in got.objective.forbidden_lines if "bother" in f.text]


@pytest.mark.parametrize(
    ("text", "agent", "label"),
    [
        ("so like Zuri could you like check the attic today", "Zuri", "Attic"),
        ("so basically Tariq I need you to guard the shop tonight", "Tariq", "Shop"),
        ("like Kofi just fix the gate already", "Kofi", "Gate"),
    ],
)
def test_spoken_fillers_before_the_name(text: str, agent: str, label: str) -> None:
    got = draft(text)
    assert (got.objective.agent, got.objective.target.label) == (agent, label)


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("Kofi fix the uh what's it called the thermostat", "Thermostat"),
        ("Kofi, fix the thingy, the thermostat.", "Thermostat"),
        ("Kofi, fix the, um, what do you call it, the thermostat by Friday", "Thermostat"),
        ("Kofi, fix the thingy", "Thingy"),  # no thing found after it
    ],
)
def test_a_word_searched_for_is_not_the_thing(text: str, label: str) -> None:
    got = draft(text)
    assert got.objective.target.label == label
    assert "repair the " + label.lower() in got.summary


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("No, get rid of it.", None),  # a thing to remove: the draft's deed, maybe (a review)
        ("No, that's wrong. No, that's wrong.", "reject"),
        ("Okay, make it so. Okay.", "confirm"),
        ("yes no yes no", None),  # two kinds, said twice: still nothing
        ("Okay, no. Okay.", None),
    ],
)
def test_replies_a_spoken_probe_asked_again(text: str, kind: str | None) -> None:
    assert classify_reply(text) == kind


@pytest.mark.parametrize(
    "text",
    [
        "Imani, patch up the leaking gutter before it snows.",
        "Kofi, fix the roof before it rains",
    ],
)
def test_before_the_weather_is_a_condition_not_a_deadline(text: str) -> None:
    got = draft(text)
    assert got.objective.deadline is None
    assert any(c.kind == "custom" and "before it" in c.value for c in got.objective.constraints)


@pytest.mark.parametrize(
    "text", ["Kofi, fix the roof before the storm", "Kofi, fix the roof before it's too late"]
)
def test_before_an_event_with_no_date_is_still_asked(text: str) -> None:
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "unclear-deadline"


def test_before_it_gets_dark_is_still_today() -> None:
    assert draft("Kofi, fix the gate before it gets dark.").objective.deadline == "2026-03-11"


@pytest.mark.parametrize(
    ("text", "agent", "priority"),
    [
        ("Fix the gate, Kofi. It's urgent.", "Kofi", 90),
        ("Give me an update on the beehives, Zuri. It's important.", "Zuri", 78),
        ("Fix the gate, Kofi! It's urgent.", "Kofi", 90),
    ],
)
def test_a_name_before_a_full_stop_and_a_remark(text: str, agent: str, priority: int) -> None:
    got = draft(text)
    assert (got.objective.agent, got.objective.priority) == (agent, priority)


def test_a_name_no_one_has_after_and_is_asked_about() -> None:
    got = run("And Manny, survey the paddock by Friday")
    assert isinstance(got, Clarify) and got.reason == "unknown-agent" and "Manny" in got.question


@pytest.mark.parametrize(
    "text", ["I think she would make a great teacher", "I think he'd make a good father"]
)
def test_becoming_is_no_build(text: str) -> None:
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "no-verb"


def test_making_something_good_is_still_a_build() -> None:
    assert draft("Kofi, could you make a good shelf for the books").objective.verb == "Build"


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("Kofi, fix the gate, budget about sixty quid", "Spend no more than sixty quid"),
        ("Kofi, fix the gate, budget of around £60", "Spend no more than £60"),
    ],
)
def test_a_budget_said_roughly(text: str, line: str) -> None:
    assert line in [f.text for f in draft(text).objective.forbidden_lines]


@pytest.mark.parametrize(
    ("text", "verb", "label"),
    [
        ("Kofi, inspect the boiler, no, survey it", "Map", "Boiler"),
        ("Kofi, fix, I mean check the boiler", "Investigate", "Boiler"),
        ("Kofi, survey, sorry, inspect the boiler", "Investigate", "Boiler"),
        ("Kofi, fix the gate, I mean check it by Friday", "Investigate", "Gate"),
    ],
)
def test_a_verb_taken_back_for_another(text: str, verb: str, label: str) -> None:
    got = draft(text)
    assert (got.objective.verb, got.objective.target.label) == (verb, label)


@pytest.mark.parametrize(
    ("text", "verb"),
    [
        ("Kofi, fix the gate, sorry, check it's locked", "Repair"),  # a remark, no deed on it
        ("Tariq, guard the coop tonight, actually make it tomorrow night", "Protect"),
    ],
)
def test_no_verb_is_taken_back_without_one_said_instead(text: str, verb: str) -> None:
    assert draft(text).objective.verb == verb


@pytest.mark.parametrize(
    "text",
    [
        "Zuri would love to map the coastline one day.",
        "Kofi could build a rocket if he wanted to.",
        "Kofi could fix the moon if you asked him, ha.",
    ],
)
def test_what_an_agent_would_love_or_could_do_is_asked(text: str) -> None:
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "uncertain-agent", got


@pytest.mark.parametrize(
    "text", ["Kofi, would you like to fix the gate?", "Kofi could fix the gate if he has time"]
)
def test_asked_of_the_agent_it_is_still_an_order(text: str) -> None:
    assert draft(text).objective.agent == "Kofi"


def test_a_place_restarted_after_a_hesitation_is_kept() -> None:
    got = draft("Kofi fix the shelf in the uh in the spare room")
    assert "location=in the spare room" in [
        f"{c.kind}={c.value}" for c in got.objective.constraints
    ]


def test_someone_elses_ask_of_an_agent_is_news() -> None:
    got = run("Imani's neighbour asked her to visit more often.")
    assert isinstance(got, Clarify) and "news about Imani's neighbour" in got.question


def test_you_can_decide_is_a_free_hand() -> None:
    text = "Tariq, mind the shop this afternoon, and you can decide when to close."
    assert draft(text).objective.autonomy == "free"


# A review of the session's rules (2026-12-07): each of these went wrong.


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("Kofi, fix the thingy that keeps beeping", "Thingy that keeps beeping"),
        ("Kofi, fix the thingy the plumber fitted", "Thingy the plumber fitted"),
        ("fix the thingy, the one on the left", "Thingy"),
    ],
)
def test_a_placeholder_with_no_pause_after_it_is_the_thing(text: str, label: str) -> None:
    assert draft(text).objective.target.label == label


def test_a_placeholder_with_a_time_after_it_keeps_the_time() -> None:
    assert draft("Kofi, fix the whatsit this afternoon").objective.deadline == "2026-03-11"


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, fix whichever light is broken asap",
        "Kofi, fix the gate, or are you busy? It's urgent",
        "Kofi, fix the gate or should I call someone, it's urgent",
        "Kofi, check the boiler or is it the radiator, it's urgent",
    ],
)
def test_the_orders_own_haste_beside_a_question(text: str) -> None:
    assert draft(text).objective.priority == 90


@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        ("Kofi, fix the roof before it rains on Friday", "2026-03-13"),
        ("Kofi, fix the roof before it rains tomorrow", "2026-03-12"),
    ],
)
def test_before_the_weather_on_a_day_is_that_day(text: str, deadline: str) -> None:
    assert draft(text).objective.deadline == deadline


def test_a_job_handed_on_after_told_is_an_order() -> None:
    text = "the plumber told me to check the boiler pressure, can someone do it"
    assert draft(text).objective.verb == "Investigate"


def test_a_subject_after_a_name_without_its_comma_is_no_order() -> None:
    assert isinstance(run("Imani we keep the kids safe"), Clarify)


# A thirteenth typed probe (T18, blind, 2026-12-07).


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("yes, no problem", "confirm"),
        ("Yes, good.", "confirm"),
        ("fine, go ahead", "confirm"),
        ("absolutely not", "reject"),
        ("Definitely not!", "reject"),
        ("yeah nah, leave it", "reject"),
        ("absolutely", "confirm"),
        ("no problem", None),
    ],
)
def test_replies_of_the_thirteenth_probe(text: str, kind: str | None) -> None:
    assert classify_reply(text) == kind


@pytest.mark.parametrize(
    "text", ["Kofi, fix the kettle, no wonder it broke", "Kofi, fix the kettle, no surprise there"]
)
def test_no_wonder_is_no_boundary(text: str) -> None:
    assert not draft(text).objective.forbidden_lines[1:]  # only the autonomy line


@pytest.mark.parametrize(
    ("text", "place"),
    [
        ("Kofi, replace the two broken slats on the garden bench", "on the garden bench"),
        ("Zuri, check the tyre pressures on both cars", "on both cars"),
        ("Kofi, in the kitchen, fix the tap", "in the kitchen"),
        ("In the kitchen, Zuri, check the fridge seal", "in the kitchen"),
    ],
)
def test_places_kept(text: str, place: str) -> None:
    got = draft(text)
    assert f"location={place}" in [f"{c.kind}={c.value}" for c in got.objective.constraints]


@pytest.mark.parametrize(
    "text", ["Kofi, fix the gate, no hurry at all", "In the morning, Kofi, fix the tap"]
)
def test_no_place_in_these(text: str) -> None:
    got = draft(text)
    assert not [c for c in got.objective.constraints if c.kind == "location"]


def test_the_speakers_habit_is_no_standing_order() -> None:
    got = draft("Tariq, lock up the garage tonight i always forget")
    assert got.objective.autonomy != "standing-intent" and got.objective.deadline == "2026-03-11"


@pytest.mark.parametrize(
    "text",
    ["Make sure you always check the hens before bed", "Kofi, you always check the hens at night"],
)
def test_you_always_is_still_a_standing_order(text: str) -> None:
    assert draft(text).objective.autonomy == "standing-intent"


def test_no_doing_while_something_is_a_boundary() -> None:
    got = draft("Kofi, fix the shelf, no hammering while the baby naps")
    assert "Do not hammer" in [f.text for f in got.objective.forbidden_lines]


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("Kofi, fix all the doors that don't close properly", "All the doors that don't close"),
        (
            "Kofi, mend the fence between number 6 and number 8",
            "Fence between number 6 and number 8",
        ),
        ("the gate won't fix itself, Kofi", "Gate"),
        ("Kofi, the hives won't check themselves", "Hives"),
    ],
)
def test_things_of_the_thirteenth_probe(text: str, label: str) -> None:
    got = draft(text)
    assert got.objective.target.label == label
    assert not got.objective.forbidden_lines[1:]


# A second review (2026-12-07): each of these went wrong in the session's rules.


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("fix the gate but don't surprise the kids", "Do not surprise the kids"),
        ("fix the gate, no surprise visits", "No surprise visits"),
    ],
)
def test_idioms_of_no_are_only_idioms_before_a_clause(text: str, line: str) -> None:
    assert line in [f.text for f in draft(text).objective.forbidden_lines]


def test_no_heating_when_cold_is_the_trouble_not_a_ban() -> None:
    assert not draft("fix the boiler, no heating when it's cold").objective.forbidden_lines[1:]


@pytest.mark.parametrize(
    "text",
    [
        "In the long run, fix the tap",
        "In that case, fix the tap",
        "In the next few days, fix the gate",
    ],
)
def test_a_phrase_first_that_names_no_room_is_no_place(text: str) -> None:
    got = draft(text)
    assert not [c for c in got.objective.constraints if c.kind == "location"], got.summary


def test_between_does_not_swallow_a_second_order() -> None:
    got = draft("map the strip between the houses and repair the fence")
    assert got.objective.target.label == "Strip between the houses"
    assert '"repair the fence" is not in this draft' in got.summary


@pytest.mark.parametrize(
    "text", ["the gate by the barn won't fix itself", "that leak under the sink won't fix itself"]
)
def test_a_thing_with_a_place_that_wont_fix_itself_is_asked(text: str) -> None:
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "no-target", got


def test_that_dont_after_a_verb_is_no_thing() -> None:
    assert isinstance(run("Kofi, fix that don't use the hammer"), Clarify)


def test_bruh_is_a_filler() -> None:
    assert draft("bruh kofi the wifi is dead again fix it asap").objective.agent == "Kofi"
