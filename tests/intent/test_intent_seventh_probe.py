"""Words from the fourteenth session's closing note and a seventh typed probe
(2026-12-06, the fifteenth session; none from the understanding corpus). Each
was drafted wrong, or its condition dropped without a word, before.
"""

from __future__ import annotations

import datetime as dt

import intent_factories as factories
import pytest

from vac.intent import Clarify, Draft, default_roster
from vac.intent.spoken import of_the_agent

NOW = dt.datetime(2026, 3, 11, 9, 30, tzinfo=dt.UTC)  # a Wednesday morning
ROSTER = default_roster()


def understood(text: str, now: dt.datetime = NOW) -> Draft | Clarify:
    return factories.understood(text, now=now, roster=ROSTER)


def draft(text: str, now: dt.datetime = NOW) -> Draft:
    got = understood(text, now)
    assert isinstance(got, Draft), got
    return got


@pytest.mark.parametrize(
    ("text", "agent", "due"),
    [
        ("please repair the gate Tariq by friday", "Tariq", "2026-03-13"),
        ("fix the gate Kofi by the end of the week", "Kofi", "2026-03-15"),
        ("check the well Zuri tomorrow morning", "Zuri", "2026-03-12"),
        ("fix the gate Kofi on monday", "Kofi", "2026-03-16"),
        ("it's raining on Friday so can you fix the roof Kofi", "Kofi", "2026-03-13"),
    ],
)
def test_a_name_said_last_but_a_time(text: str, agent: str, due: str) -> None:
    """The name before a short time, with no comma, was the thing's ("Abeni
    will repair the gate Tariq by Friday"); after "so can you" it was too."""
    got = draft(text)
    assert got.objective.agent == agent, got
    assert got.objective.target.label in ("Gate", "Well", "Roof"), got
    assert got.objective.deadline == due


@pytest.mark.parametrize(
    "text",
    ["fix the gate Kofi please and the fence", "fix the gate near Kofi by friday"],
)
def test_a_name_inside_the_words_is_not_the_agent(text: str) -> None:
    got = understood(text)
    assert not isinstance(got, Draft) or got.objective.agent != "Kofi", got


def test_a_pronoun_after_so_can_you_is_asked_not_the_name() -> None:
    """It was "Abeni will repair Kofi"."""
    got = understood("the roof leaks so can you fix it Kofi")
    assert isinstance(got, Clarify) or got.objective.target.label != "Kofi", got


@pytest.mark.parametrize(
    ("text", "condition"),
    [
        ("Kofi, fix the gate in case it rains", "in case it rains"),
        ("Zuri, protect the hay just in case it rains", "just in case it rains"),
        ("Kofi fix the gate in case of rain", "in case of rain"),
        ("Kofi, fix the gate should it snow", "should it snow"),
        ("Kofi, guard the car as long as it's parked outside", "as long as it's parked outside"),
        ("Assuming the shop is open, Kofi, check the shop", "assuming the shop is open"),
        ("Kofi, look into the noise if you hear it again", "if you hear it again"),
    ],
)
def test_conditions_of_more_shapes_are_kept(text: str, condition: str) -> None:
    """Each was dropped ("should it snow" was the thing's: "Gate should it snow")."""
    got = draft(text)
    assert ("custom", condition) in [(c.kind, c.value) for c in got.objective.constraints], got
    assert of_the_agent(condition) in got.summary  # "if they hear it again", to the steward
    assert got.objective.target.label in ("Gate", "Hay", "Car", "Shop", "Noise"), got


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, fix the gate if you have time",
        "Kofi, you should fix the gate",
        "Abeni, if you see Kofi, tell him to fix the gate",
    ],
)
def test_no_condition_from_a_courtesy_or_an_errand(text: str) -> None:
    got = draft(text)
    assert not [c for c in got.objective.constraints if c.kind == "custom"], got


def test_a_time_inside_a_condition_is_not_the_deadline() -> None:
    """ "if we're not back by ten" was the deadline, 10 o'clock."""
    got = draft("Tariq, guard the car if we're not back by ten")
    assert got.objective.deadline is None, got
    assert "if you're not back by ten" in got.summary  # the speaker's "we", read back


def test_a_plain_day_in_a_condition_is_still_the_day() -> None:
    got = draft("if it rains tomorrow, Zuri, protect the hay")
    assert got.objective.deadline == "2026-03-12"


@pytest.mark.parametrize(
    "text",
    ["If Kofi's free later, he can repair the gutter", "once Kofi's back he can map the woods"],
)
def test_a_name_with_s_in_a_lead_in_is_asked_about(text: str) -> None:
    """It was the default agent's, Abeni's."""
    got = understood(text)
    assert isinstance(got, Clarify) and got.reason == "uncertain-agent", got
    assert "Kofi" in got.question


def test_someone_s_thing_is_still_the_default_agents() -> None:
    got = draft("Kofi's bike is broken, can you repair the bike")
    assert got.objective.agent == "Abeni"


@pytest.mark.parametrize(
    ("text", "agent", "target"),
    [
        (
            "morning Kofi hope you slept well can you fix the kitchen tap today",
            "Kofi",
            "Kitchen tap",
        ),
        (
            "Kofi how are you doing, listen the gate is hanging off again can you fix it",
            "Kofi",
            "Gate",
        ),
        ("Kofi I'm so tired today. please fix the bedroom door", "Kofi", "Bedroom door"),
        ("Kofi be a dear and fix the gate", "Kofi", "Gate"),
        ("Imani go and visit grandma", "Imani", "Grandma"),
        ("Kofi come and fix the tap", "Kofi", "Tap"),
        ("Kofi biko fix the generator", "Kofi", "Generator"),
        ("Kofi how far, abeg fix the door handle", "Kofi", "Door handle"),
    ],
)
def test_a_first_name_then_small_talk_is_who_is_asked(text: str, agent: str, target: str) -> None:
    """Each was "Who should do it: Kofi or someone else?" (with the comma
    typed after the name, each was drafted)."""
    got = draft(text)
    assert (got.objective.agent, got.objective.target.label) == (agent, target), got


@pytest.mark.parametrize(
    "text",
    [
        "Kofi fixed the gate yesterday, can you check it",
        "Kofi is busy, can you fix the gate",
        "Kofi no longer needs to fix the gate.",
        "Kofi never checks the well, can you do it",
        "Kofi just fixed the gate, can you check the fence",
    ],
)
def test_a_first_name_told_about_is_not_taken_for_the_agent(text: str) -> None:
    got = understood(text)
    assert not isinstance(got, Draft) or got.objective.agent != "Kofi", got


def test_a_name_then_words_of_no_verb_is_asked_of_that_name() -> None:
    """ "I heard you, but not what to do": the follow-up with a verb was then
    the default agent's."""
    got = understood("Kofi water the plants")
    assert isinstance(got, Clarify) and "What should Kofi do?" in got.question, got


@pytest.mark.parametrize(
    "text",
    [
        "Kofi how long would it take to fix the roof",
        "Kofi how much would it cost to fix the roof",
        "Kofi do you know how to fix a boiler",
        "Kofi what time will you fix the gate",
    ],
)
def test_a_question_after_a_name_with_no_question_mark_is_asked(text: str) -> None:
    got = understood(text)
    assert isinstance(got, Clarify) and got.reason == "question", got


@pytest.mark.parametrize(
    ("text", "condition"),
    [
        ("Kofi fix the gutter as soon as the rain stops", "as soon as the rain stops"),
        ("as soon as you get home, check the boiler Kofi", "as soon as you get home"),
        ("after the kids are asleep, Tariq, guard the front door", "after the kids are asleep"),
        ("Kofi fix the car after the mechanic has had a look", "after the mechanic has had a look"),
        ("Tariq guard the house till we get back", "till we get back"),
        ("Kofi, the minute the delivery arrives, check the bed", "the minute the delivery arrives"),
        ("Kofi fix the gutter the moment the rain stops", "the moment the rain stops"),
        ("Kofi, fix the heating on the condition that the parts arrive", "on the condition that"),
        ("Kofi, fix the gate after you get back", "after you get back"),
    ],
)
def test_conditions_that_say_when_to_start(text: str, condition: str) -> None:
    got = draft(text)
    said = [c.value for c in got.objective.constraints if c.kind == "custom"]
    assert len(said) == 1 and said[0].startswith(condition), got
    assert got.objective.target.label in (
        "Gutter",
        "Boiler",
        "Front door",
        "Car",
        "House",
        "Bed",
        "Heating",
        "Gate",
    ), got


@pytest.mark.parametrize(
    ("text", "priority"),
    [
        ("Kofi fix the gutter as soon as possible", 90),
        ("Kofi fix the gutter as soon as you can", 90),
    ],
)
def test_as_soon_as_possible_is_how_soon(text: str, priority: int) -> None:
    got = draft(text)
    assert got.objective.priority == priority
    assert not [c for c in got.objective.constraints if c.kind == "custom"], got


@pytest.mark.parametrize(
    "text",
    [
        "Kofi fix the gate till six",
        "check the second gate Kofi",
        "Kofi, fix the gate, don't start till I say",
    ],
)
def test_a_time_or_the_stewards_hand_is_no_condition(text: str) -> None:
    got = draft(text)
    assert not [c for c in got.objective.constraints if c.kind == "custom"], got


@pytest.mark.parametrize(
    "text",
    [
        "Kofi fix the boiler unless the engineer is coming on friday",
        "Kofi fix the gate once the parts come on monday",
        "whenever the dog barks at night, Tariq, check the yard",
    ],
)
def test_a_day_inside_a_condition_is_the_conditions(text: str) -> None:
    assert draft(text).objective.deadline is None


@pytest.mark.parametrize(
    ("text", "ban"),
    [
        ("Kofi build the treehouse, just not in the oak", "Not in the oak"),
        ("Kofi build the treehouse but just not in the oak", "Not in the oak"),
        ("Kofi build the pen, only not near the road", "Not near the road"),
        ("Kofi build the pen, but nowhere near the road", "Not near the road"),
        ("Kofi build the shed, ideally not near the hedge", "Not near the hedge"),
        ("Kofi build the pen, not too close to the road", "Not close to the road"),
        ("Zuri check the rooms, except the nursery", "Not the nursery"),
        ("Zuri check all the rooms except the nursery", "Not the nursery"),
        ("Tariq guard the house, though not the garage", "Not the garage"),
        ("Kofi fix the gate, definitely not with nails", "Not with nails"),
        ("Kofi build the pen anywhere but near the road", "Not near the road"),
    ],
)
def test_a_place_to_keep_away_from_is_a_boundary(text: str, ban: str) -> None:
    """Each was dropped, or (the first five) read back as where to work."""
    got = draft(text)
    assert [f.text for f in got.objective.forbidden_lines if "autonomy" not in f.text] == [ban]
    assert not [c for c in got.objective.constraints if c.kind == "location"], got
    assert " " not in got.objective.target.label.strip() or "rooms" in got.objective.target.label


@pytest.mark.parametrize(
    "text",
    ["Kofi, fix the gate, ideally not too late", "Kofi, fix the gate any day other than Tuesday"],
)
def test_a_hedged_time_is_no_boundary(text: str) -> None:
    got = understood(text)
    bans = [] if isinstance(got, Clarify) else got.objective.forbidden_lines
    assert not [f for f in bans if "autonomy" not in f.text], got


@pytest.mark.parametrize(
    ("text", "agent", "target"),
    [
        ("guard the shop till six tariq", "Tariq", "Shop"),
        ("visit grandma on sunday imani", "Imani", "Grandma"),
        ("build a rabbit hutch this weekend Kofi", "Kofi", "Rabbit hutch"),
        ("make sure the back door is locked tonight Tariq", "Tariq", "Back door"),
        ("sort out the shed this weekend yeah Kofi", "Kofi", "Shed"),
        ("visit uncle Ade in hospital tomorrow Imani", "Imani", "Uncle Ade"),
        ("befriend the new family at number 9 Zuri", "Zuri", "New family"),
        ("fix the bathroom light for me kofi yeah", "Kofi", "Bathroom light"),
        ("it'd be great if you could fix the shed door Kofi", "Kofi", "Shed door"),
        ("I need you to check the hens Zuri", "Zuri", "Hens"),
    ],
)
def test_a_name_said_last_after_more_words(text: str, agent: str, target: str) -> None:
    """Each was the default agent's (often with the name in the thing)."""
    got = draft(text)
    assert (got.objective.agent, got.objective.target.label) == (agent, target), got


@pytest.mark.parametrize(
    "text",
    [
        "build a bench for Kofi",
        "help old man Kofi",
        "say hello to Kofi",
        "find out who hurt Kofi",
        "visit my friend Kofi",
        "check on the kids and Kofi",
        "fix the gate and call Kofi",
    ],
)
def test_a_name_the_order_acts_on_stays_in_it(text: str) -> None:
    got = draft(text)
    assert got.objective.agent == "Abeni", got


def test_the_speakers_own_plan_with_a_name_last_is_asked() -> None:
    got = understood("I will check the well Zuri")
    assert isinstance(got, Clarify) and got.reason == "first-person", got


@pytest.mark.parametrize(
    ("text", "verb", "target"),
    [
        ("Kofi make time to fix the gate", "Repair", "Gate"),
        ("Kofi please can you make time to fix the gate", "Repair", "Gate"),
        ("Kofi make an effort to fix the gate", "Repair", "Gate"),
        ("Kofi make a start on fixing the gate", "Repair", "Gate"),
        ("Kofi make a point of checking the gate", "Investigate", "Gate"),
        ("Zuri make una check the hens", "Investigate", "Hens"),
        ("Kofi make you fix the gate sharp sharp", "Repair", "Gate"),
    ],
)
def test_make_before_the_deed_builds_nothing(text: str, verb: str, target: str) -> None:
    """Each was a Build ("Kofi will build time", "…build a start")."""
    got = draft(text)
    assert (got.objective.verb, got.objective.target.label) == (verb, target), got


def test_make_a_thing_still_builds_it() -> None:
    got = draft("Kofi make a bench")
    assert (got.objective.verb, got.objective.target.label) == ("Build", "Bench")


@pytest.mark.parametrize(
    ("text", "due", "target"),
    [
        ("Kofi fix the gate the day after next", "2026-03-13", "Gate"),
        ("Tariq guard the compound this night", "2026-03-11", "Compound"),
    ],
)
def test_days_said_so(text: str, due: str, target: str) -> None:
    """Each was left in the thing ("Gate the day after next"), no deadline."""
    got = draft(text)
    assert (got.objective.deadline, got.objective.target.label) == (due, target), got


@pytest.mark.parametrize(
    "text",
    [
        "can Kofi fix cars?",
        "can Zuri map rivers?",
        "can Kofi build furniture",
        "Kofi can you repair watches?",
        "can Tariq guard a house on his own?",
        "can Kofi build a shed by himself?",
    ],
)
def test_what_an_agent_can_do_is_asked_not_drafted(text: str) -> None:
    got = understood(text)
    assert isinstance(got, Clarify) and got.reason == "question", got


@pytest.mark.parametrize(
    "text",
    [
        "can Kofi fix the gate?",
        "can you check the hens today",
        "could you check the tyres",
        "can Kofi fix my bikes please",
        "can Kofi build a shed?",
    ],
)
def test_can_before_a_deed_still_asks_for_it(text: str) -> None:
    assert isinstance(understood(text), Draft)


@pytest.mark.parametrize(
    "text",
    [
        "Kofi fix the gate the wind knocked over on monday",
        "Kofi, repair the window the kids smashed at 3 o'clock",
    ],
)
def test_a_time_in_a_clause_about_the_thing_is_when_it_happened(text: str) -> None:
    assert draft(text).objective.deadline is None


def test_a_time_after_a_thing_said_with_a_past_form_is_still_the_deadline() -> None:
    assert draft("Kofi, fix the frozen pipe in January").objective.deadline == "2027-01-31"


# A review of the session's rules: each of these came out wrong on the way.


@pytest.mark.parametrize(
    ("text", "due"),
    [
        ("look after the house", None),  # "after" of "look after" (a "while" is one: eighth)
        ("look after the kids who are off school tomorrow", "2026-03-12"),
        ("fix the gate until the end of the month", "2026-03-31"),
        ("fix the gate till the end of the week", "2026-03-15"),
        ("build a fence as long as the garden by friday", "2026-03-13"),
        ("find out who is providing the food", None),
        ("Kofi fix the gate if it's not too much trouble", None),
        ("Kofi fix the gate if possible", None),
    ],
)
def test_no_condition_from_a_verb_a_time_or_a_courtesy(text: str, due: str | None) -> None:
    got = draft(text)
    assert not [c for c in got.objective.constraints if c.kind == "custom"], got
    assert got.objective.deadline == due


@pytest.mark.parametrize(
    "text",
    [
        "fix the gate with nothing other than glue",
        "fix the gate using no tools other than a hammer",
        "fix the gate, other than that all good",
        "fix the gate, apart from that we're fine",
        "fix the gate except it's stuck",
        "fix the gate, except",
        "check the rooms except",
        "fix the gate, although not everyone agrees",
        "fix the gate, obviously not a big deal",
        "fix the gate, just not in a hurry",
        "fix the gate, though not because I'm worried",
        "fix the gate, although not my idea",
        "fix the gate, though not the one by the road",
        "fix the gate, it's nowhere near done",
    ],
)
def test_no_boundary_from_a_remark(text: str) -> None:
    got = draft(text)
    assert not [f for f in got.objective.forbidden_lines if "autonomy" not in f.text], got


@pytest.mark.parametrize(
    "text",
    [
        "guard the house of kofi",
        "look after the children of kofi",
        "protect the kids from the bully kofi",
        "check on my nephew kofi tonight",
        "sit with my dad kofi tonight",
        "meet the new nanny zuri on monday",
        "look for my dog kofi tonight",
        "help the teacher kofi this afternoon",
    ],
)
def test_a_name_someone_has_is_not_the_agent(text: str) -> None:
    assert draft(text).objective.agent == "Abeni"


@pytest.mark.parametrize(
    "text",
    [
        "Kofi ate all the cake can you make another",
        "Kofi fed the dog can you check the cat",
        "Kofi just rang can you check the gate",
    ],
)
def test_news_of_the_one_named_first_is_asked_who(text: str) -> None:
    got = understood(text)
    assert isinstance(got, Clarify) and got.reason == "uncertain-agent", got


@pytest.mark.parametrize(
    "text", ["once Kofi's car arrives, check the gate", "when Kofi's mum arrives, guard the door"]
)
def test_someones_thing_in_a_condition_is_no_agent_asked_about(text: str) -> None:
    got = draft(text)
    assert got.objective.agent == "Abeni" and [
        c for c in got.objective.constraints if c.kind == "custom"
    ], got


def test_a_deed_inside_a_short_condition_is_asked_about() -> None:
    got = understood("after you check the hens fix the gate")
    assert isinstance(got, Clarify) and got.reason == "unclear-deadline", got


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        ("ugh what a day. Abeni help me with the dishes", "Abeni"),
        ("by the way Kofi the porch light is out, fix it tomorrow", "Kofi"),
        ("first thing tomorrow Kofi fix the gate", "Kofi"),
        ("first thing tomorrow kofi fix the gate", "Kofi"),
    ],
)
def test_a_name_after_a_lead_in_or_a_first_sentence(text: str, agent: str) -> None:
    got = draft(text)
    assert got.objective.agent == agent and got.objective.verb in ("Support", "Repair"), got


# A spoken-style probe (transcripts as the recogniser writes them).


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        ("Uh, I mean, Kofi, fix the gate.", "Kofi"),
        ("Um, I mean, Tariq, guard the house.", "Tariq"),
        ("I mean, fix the gate by Friday.", "Abeni"),
        ("Coffee. Fix the gate. By Friday.", "Kofi"),
        ("Tarek! Guard the house!", "Tariq"),
        ("Hey coffee. Fix the gate.", "Kofi"),
        ("Fix the gate, Kofi. By Friday.", "Kofi"),
        ("Check the hives, Zuri. Tomorrow.", "Zuri"),
        ("Visit Grandma, Imani. On Sunday.", "Imani"),
    ],
)
def test_names_as_the_recogniser_writes_them(text: str, agent: str) -> None:
    """ "I mean" was Imani's, over the name said; a name heard otherwise
    before a full stop, and a name before ". By Friday.", the default agent's."""
    got = draft(text)
    assert got.objective.agent == agent, got


@pytest.mark.parametrize(
    ("text", "target", "due"),
    [
        ("Kofi, fix fix the gate.", "Gate", None),
        ("Imani, visit visit Grandma.", "Grandma", None),
        ("Zuri Zuri, explore the cave.", "Cave", None),
        ("Abeni, report on on the harvest.", "Harvest", None),
        ("Zuri, check the hives too morrow.", "Hives", "2026-03-12"),
        ("Kofi, fix the gate 2 morrow.", "Gate", "2026-03-12"),
        ("Kofi, fix the gate buy Friday.", "Gate", "2026-03-13"),
    ],
)
def test_words_as_the_recogniser_writes_them(text: str, target: str, due: str | None) -> None:
    got = draft(text)
    assert (got.objective.target.label, got.objective.deadline) == (target, due), got


def test_a_haste_said_twice_stays_a_haste() -> None:
    assert draft("Kofi, fix the gate, chop chop").objective.priority == 90


@pytest.mark.parametrize(
    ("text", "ban"),
    [
        ("Kofi, fix the roof. No power tools.", "No power tools"),
        ("Imani, help Mum with dinner. No peanuts.", "No peanuts"),
    ],
)
def test_a_boundary_said_as_its_own_sentence(text: str, ban: str) -> None:
    got = draft(text)
    assert [f.text for f in got.objective.forbidden_lines if "autonomy" not in f.text] == [ban]


@pytest.mark.parametrize(
    "text", ["Kofi, fix the roof. No rush.", "Zuri, fix the gate. No no, Kofi!"]
)
def test_no_boundary_from_a_no_said_alone(text: str) -> None:
    got = understood(text)
    bans = [] if isinstance(got, Clarify) else got.objective.forbidden_lines
    assert not [f for f in bans if "autonomy" not in f.text], got


@pytest.mark.parametrize("text", ["Have Yori comfort the sick child.", "have Bob fix the gate"])
def test_a_name_no_one_has_after_have_is_asked_about(text: str) -> None:
    """Each was the default agent's."""
    got = understood(text)
    assert isinstance(got, Clarify) and got.reason == "unknown-agent", got


def test_a_name_after_and_said_about_is_read_as_said() -> None:
    """The lead-in rule set "And" apart and asked who (a benchmark transcript,
    the verb rescored: it was Tariq's Map before)."""
    got = draft("And Tariq can map the forest trail, check with me first.")
    assert (got.objective.agent, got.objective.verb) == ("Tariq", "Map"), got


@pytest.mark.parametrize(
    ("text", "noted"),
    [
        ("Kofi. Fix the gate. And the fence.", "the fence"),
        ("Tariq. Guard the barn. And the shed.", "the shed"),
    ],
)
def test_a_second_thing_after_a_full_stop_is_named(text: str, noted: str) -> None:
    """It was dropped without a word."""
    got = draft(text)
    assert f'one thing at a time: "{noted}"' in got.summary, got.summary


@pytest.mark.parametrize(
    "text",
    [
        "Could you make me a cup of tea?",
        "Kofi, can you make me a coffee?",
        "Can you make me a sandwich?",
        "Can Kofi fix the gate? I'm just wondering.",
        "Can Zuri check the hives? Just curious.",
    ],
)
def test_a_drink_or_a_question_is_no_draft(text: str) -> None:
    assert isinstance(understood(text), Clarify)


def test_a_table_for_lunch_is_still_built() -> None:
    got = draft("Kofi make us a table for lunch")
    assert got.objective.verb == "Build"


# A review of the spoken-style rules: each of these came out wrong on the way.


@pytest.mark.parametrize(
    ("text", "agent", "target"),
    [
        ("Imani, support Grandma, Grandma is lonely", "Imani", "Grandma"),
        ("Zuri, help Tariq, Tariq is overwhelmed", "Zuri", "Tariq"),
        ("support Kofi, Tariq, Imani. Tomorrow.", "Abeni", "Kofi"),
        ("Zero. Fix the gate.", "Abeni", "Gate"),
        ("Coffee? Can you fix the gate?", "Abeni", "Gate"),
        ("have Dad fix the gate, Kofi", "Kofi", "Gate"),
        ("anyway Kofi, fix the gate", "Kofi", "Gate"),
        ("by the way Kofi. Fix the gate.", "Kofi", "Gate"),
    ],
)
def test_what_the_spoken_style_rules_leave_alone(text: str, agent: str, target: str) -> None:
    got = draft(text)
    assert (got.objective.agent, got.objective.target.label) == (agent, target), got


@pytest.mark.parametrize(
    ("text", "due"),
    [
        ("Kofi, fix the gate, then buy Friday tickets", None),
        ("Kofi, fix the gate by two two", None),
    ],
)
def test_buy_and_a_number_said_twice_are_no_deadline(text: str, due: str | None) -> None:
    assert draft(text).objective.deadline == due


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, fix the gate. No joke.",
        "Kofi, fix the gate. No wonder the dog got out.",
        "Kofi, fix the gate. No Tariq.",
        "Kofi, fix the gate. No damage to the paint.",
    ],
)
def test_a_no_sentence_that_is_no_boundary(text: str) -> None:
    got = understood(text)
    bans = [] if isinstance(got, Clarify) else got.objective.forbidden_lines
    assert not [f for f in bans if "autonomy" not in f.text], got


def test_the_thing_to_buy_is_kept_in_the_question() -> None:
    got = understood("Tariq buy 3 tickets")
    assert isinstance(got, Clarify) and '"buy 3 tickets"' in got.question, got
