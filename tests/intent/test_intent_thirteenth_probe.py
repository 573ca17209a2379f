"""A thirteenth round of probes (2026-12-07, the twenty-first session; none
from the understanding corpus), and the twelfth probe's leftovers the
twentieth session's note named."""

from __future__ import annotations

import intent_factories as factories
import pytest

from vac.intent import Clarify
from vac.intent.reply_words import classify_reply

run = factories.probe_run
draft = factories.probe_draft


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("Kofi, lock the back door tonight", "Back door"),
        ("lock all the sheds before bed", "All the sheds"),
        ("Kofi please lock the gate", "Gate"),
        ("Kofi, can you lock the shed", "Shed"),
        ("Kofi, can you lock up the shed", "Shed"),
        ("Kofi, can you lock the shed up", "Shed"),
    ],
)
def test_lock_the_thing_keeps_it_safe(text: str, label: str) -> None:
    got = draft(text)
    assert (got.objective.verb, got.objective.target.label) == ("Protect", label)


@pytest.mark.parametrize(
    "text",
    [
        "the lock the landlord fitted is broken, Kofi fix it",
        "Kofi, the bike lock is broken, repair it",
        "I lock the door every night, so check the window, Kofi",
    ],
)
def test_a_lock_that_is_a_thing_or_a_habit_is_no_order_to_lock(text: str) -> None:
    got = run(text)
    assert isinstance(got, Clarify) or got.objective.verb != "Protect", got


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, fix the gate in the next half hour",
        "Kofi, fix the gate within the next half-hour",
    ],
)
def test_the_next_half_hour_is_a_deadline_not_dropped(text: str) -> None:
    got = draft(text)
    assert got.objective.deadline is not None, got.summary
    assert "half" not in got.objective.target.label.lower()


@pytest.mark.parametrize(
    ("text", "reply"),
    [
        ("yes, he's great at that", "confirm"),
        ("yes please, he's the best", "confirm"),
        ("yes thanks, that is brilliant", "confirm"),
        ("ok, she's a star", "confirm"),
        ("yes, Zuri's better at that", None),  # a name: maybe a change of agent
        ("yes, Kofi's great at that", None),
        ("yes but he's great at that", None),
        ("no, he's great at that", None),
    ],
)
def test_praise_after_a_yes_is_the_yes(text: str, reply: str | None) -> None:
    assert classify_reply(text) == reply


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        ("zuri zuri can you check the boiler", "Zuri"),
        ("kofi kofi fix the gate", "Kofi"),
    ],
)
def test_a_name_called_twice_without_commas_is_whom_it_asks(text: str, agent: str) -> None:
    assert draft(text).objective.agent == agent


@pytest.mark.parametrize(
    "text",
    ["Kofi fix the door Monday I mean Tuesday", "Kofi fix the door Monday no Tuesday"],
)
def test_a_bare_day_taken_back_stays_out_of_the_thing(text: str) -> None:
    got = draft(text)
    assert (got.objective.target.label, got.objective.deadline) == ("Door", "2026-03-17")


@pytest.mark.parametrize(
    "text", ["Kofi. Uh. Mend the. The kettle lead.", "Kofi, mend the. The kettle lead."]
)
def test_a_small_word_said_again_after_a_written_stop_is_said_once(text: str) -> None:
    assert draft(text).objective.target.label == "Kettle lead"


def test_a_new_sentence_after_a_stop_is_not_a_stutter() -> None:
    assert draft("Kofi, fix the gate. The fence too.").objective.target.label == "Gate"


@pytest.mark.parametrize(
    ("text", "condition"),
    [
        ("whenever the baby's asleep, Tariq, watch the monitor", "whenever the baby's asleep"),
        ("each time it rains, Zuri, check the cellar for water", "each time it rains"),
        ("Zuri, check the cellar every time it rains", "every time it rains"),
        (
            "Zuri, should the alarm go off again, investigate the garage",
            "should the alarm go off again",
        ),
    ],
)
def test_a_condition_said_so_is_kept(text: str, condition: str) -> None:
    got = draft(text).objective
    assert ("custom", condition) in [(c.kind, c.value) for c in got.constraints]
    assert got.priority == 55
    assert condition not in got.target.label.lower()


def test_a_question_with_should_is_no_condition() -> None:
    assert isinstance(run("Zuri, should the gate be fixed first?"), Clarify)


@pytest.mark.parametrize(
    "text",
    [
        "Zuri, every spring, survey the orchard",
        "Kofi, check the boiler pressure on the first Monday of every month",
        "Kofi, check the boiler on the first Monday of each month",
        "Imani, every weekday after school, help Tomi with his homework",
        "Kofi, check the hens every evening after dinner",
        "from tomorrow onwards, Tariq, guard the gate at night",
        "Tariq, check the hens from Monday onwards",
    ],
)
def test_a_repeat_said_so_is_a_standing_order_with_no_deadline(text: str) -> None:
    got = draft(text).objective
    assert (got.autonomy, got.deadline) == ("standing-intent", None), got
    assert "onwards" not in got.target.label


def test_make_it_a_habit_is_no_build() -> None:
    got = draft("Imani, make it a habit to visit Mrs Ade on Fridays").objective
    assert (got.verb, got.target.label, got.autonomy) == ("Befriend", "Mrs Ade", "standing-intent")


def test_the_first_monday_with_no_month_is_asked_not_the_first() -> None:
    assert isinstance(run("Kofi, check the boiler on the first Monday"), Clarify)
    assert draft("Kofi, on the first Monday of April check the boiler").objective.deadline == (
        "2026-04-06"
    )


def test_from_a_place_onwards_is_no_standing_order() -> None:
    assert draft("Kofi, fix the gate from the barn onwards").objective.autonomy == "brief"


@pytest.mark.parametrize(
    ("text", "reply"),
    [
        ("hold on, not yet", None),
        ("wait, not now", None),
        ("not yet", None),  # waits since the twenty-sixth session (T29c: it rejected)
        ("hold on, cancel it", "reject"),
    ],
)
def test_waiting_for_a_while_keeps_the_draft(text: str, reply: str | None) -> None:
    assert classify_reply(text) == reply


@pytest.mark.parametrize(
    "text", ["the two of you, build the treehouse on Saturday", "the pair of you, check the hens"]
)
def test_the_two_of_you_asks_which(text: str) -> None:
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "uncertain-agent", got


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        (
            "ugh, the wifi's gone again, it's the third time today, Zuri can you find out "
            "what's going on with the router",
            "Zuri",
        ),
        ("the kids are driving me mad all day, anyway Tariq, keep an eye on the kids", "Tariq"),
        ("I'll be stuck at work so Abeni could you look after the kids until I'm home", "Abeni"),
        ("Mrs Okafor is poorly, so Imani, maybe pop round to see Mrs Okafor on Friday", "Imani"),
    ],
)
def test_a_name_asked_further_in_is_whom_it_asks(text: str, agent: str) -> None:
    assert draft(text).objective.agent == agent


def test_the_news_before_but_keeps_its_time() -> None:
    got = draft("Kofi, the gate can wait till Monday, but look at the boiler today")
    assert got.objective.deadline == "2026-03-11"


def test_what_is_going_on_with_the_thing_is_the_thing() -> None:
    got = draft("Zuri, find out what's going on with the router")
    assert got.objective.target.label == "Router"


def test_a_clock_span_without_from_is_due_at_its_end() -> None:
    got = draft("tariq guard front door 10pm til 6am")
    assert got.objective.deadline == "2026-03-12"


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, fix the gate, no, just look at it",
        "Kofi, fix the gate, no, check it instead",
        "Kofi, fix the gate, or rather just look at it",
        "Kofi, don't fix the gate yet, just look at it",
        "Kofi, don't fix the gate, but check it",
        "Kofi, don't fix the gate yet, look at it first",
    ],
)
def test_another_deed_on_it_after_one_taken_back_is_the_deed(text: str) -> None:
    got = draft(text).objective
    assert (got.verb, got.target.label) == ("Investigate", "Gate")


def test_a_deed_said_not_to_be_done_then_another_thing_is_the_other() -> None:
    got = draft("Kofi, don't fix the gate, check the fence").objective
    assert (got.verb, got.target.label) == ("Investigate", "Fence")


@pytest.mark.parametrize(
    ("text", "verb", "label"),
    [
        ("Tariq, keep tabs on the kids while I'm in the shower", "Protect", "Kids"),
        ("Zuri, get to the bottom of that rattle in the car", "Investigate", "Rattle"),
        ("Kofi, give the boiler a good service", "Repair", "Boiler"),
        ("Kofi, give the car a checkup", "Investigate", "Car"),
    ],
)
def test_everyday_idioms_of_our_verbs(text: str, verb: str, label: str) -> None:
    got = draft(text).objective
    assert (got.verb, got.target.label) == (verb, label)


@pytest.mark.parametrize(
    ("text", "condition"),
    [
        ("Kofi, fix the fence before the kids get home", "before the kids get home"),
        ("Kofi, fix the fence before we leave", "before we leave"),
        ("Zuri, kindly inspect the gutters before the rain sets in", "before the rain sets in"),
        ("Kofi, after you've had lunch, fix the wobbly table leg", "after you've had lunch"),
    ],
)
def test_before_or_after_a_clause_is_its_condition(text: str, condition: str) -> None:
    got = draft(text).objective
    assert ("custom", condition) in [(c.kind, c.value) for c in got.constraints]
    assert got.deadline is None


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, fix the gate, let me know before you start",
        "ask Kofi to fix the gate and ask me before you start",
        "Kofi, fix the gate while you're at it",
    ],
)
def test_the_stewards_hand_and_an_idiom_are_no_condition(text: str) -> None:
    assert not [c for c in draft(text).objective.constraints if c.kind == "custom"]


def test_before_the_weekend_is_over_is_still_its_sunday() -> None:
    assert draft("Kofi, fix the gate before the weekend is over").objective.deadline == "2026-03-15"


@pytest.mark.parametrize(
    ("text", "agent", "verb"),
    [
        ("Till Kofi to be friend the dog at number 12.", "Kofi", "Befriend"),
        ("Till Tariq to watch over the baby tonight", "Tariq", "Protect"),
        ("Tariq, try to be friend the shy kid", "Tariq", "Befriend"),
    ],
)
def test_words_as_the_recogniser_writes_them(text: str, agent: str, verb: str) -> None:
    got = draft(text).objective
    assert (got.agent, got.verb) == (agent, verb)


def test_till_a_name_and_a_verb_is_still_a_condition() -> None:
    got = draft("till Kofi gets home, watch the kids, Zuri").objective
    assert ("custom", "till Kofi gets home") in [(c.kind, c.value) for c in got.constraints]


@pytest.mark.parametrize("text", ["No, that's not what I said.", "that's not what I meant"])
def test_not_what_i_said_is_a_no(text: str) -> None:
    assert classify_reply(text) == "reject"


@pytest.mark.parametrize(
    ("text", "agent", "verb", "label"),
    [
        (
            "the plumber came to fix the boiler, so Kofi, check the tap",
            "Kofi",
            "Investigate",
            "Tap",
        ),
        (
            "the landlord's coming on Monday to inspect, so Kofi, repair the tiles",
            "Kofi",
            "Repair",
            "Tiles",
        ),
        (
            "the vet will check the goats on Friday, so Zuri, can you fix the fence",
            "Zuri",
            "Repair",
            "Fence",
        ),
    ],
)
def test_news_of_someone_elses_deed_is_no_order(
    text: str, agent: str, verb: str, label: str
) -> None:
    got = draft(text).objective
    assert (got.agent, got.verb, got.target.label) == (agent, verb, label)


def test_before_then_with_no_time_said_is_asked() -> None:
    got = run("the landlord's coming on Monday, so Kofi, repair the tiles before then")
    assert isinstance(got, Clarify) and got.reason == "unclear-deadline", got
    assert draft("Grandma arrives on Friday, Kofi, fix the banister before then").objective.deadline


# A review of the twenty-first session's rules found each of these wrong.
@pytest.mark.parametrize(
    "text",
    [
        "the boiler's broken, Zuri could you ask Kofi to fix it",
        "it's urgent, Zuri can you ask Kofi to fix the boiler today",
        "the boiler is broken, Zuri can you get Kofi to look at it",
    ],
)
def test_a_name_asked_to_pass_an_order_on_is_not_the_agent(text: str) -> None:
    assert draft(text).objective.agent == "Kofi"


def test_a_relay_keeps_the_haste_said_before_it() -> None:
    assert (
        draft("it's urgent, Zuri can you ask Kofi to fix the boiler today").objective.priority == 90
    )


@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        ("Kofi, fix the gate before they arrive on Friday", "2026-03-13"),
        ("Kofi, fix the gate before they're back on Monday", "2026-03-16"),
        ("Kofi, check the cellar every time it rains this week", "2026-03-15"),
        ("Kofi, till Friday to fix the gate", "2026-03-13"),
        ("Till Tuesday to fix the gate", "2026-03-17"),
    ],
)
def test_a_time_inside_a_clause_is_still_the_deadline(text: str, deadline: str) -> None:
    assert draft(text).objective.deadline == deadline


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, fix the gate, it breaks every time the wind blows",
        "Kofi, going forward with the plan, fix the gate",
    ],
)
def test_a_complaint_or_a_phrase_is_no_condition_nor_standing_order(text: str) -> None:
    got = draft(text).objective
    assert (got.autonomy, [c for c in got.constraints if c.kind == "custom"]) == ("brief", [])


def test_an_order_inside_an_after_clause_is_not_swallowed() -> None:
    got = run("Kofi, fix the gate, after you've done that check the fence")
    assert not (hasattr(got, "objective") and "after you've done that check" in str(got.objective))


def test_i_lock_is_the_speakers_not_an_order() -> None:
    got = draft("Kofi, I'll lock the shed, you check the window").objective
    assert (got.verb, got.target.label) == ("Investigate", "Window")


def test_the_bottom_of_a_place_is_a_place() -> None:
    got = draft("Kofi, get to the bottom of the garden and check the fence").objective
    assert got.target.label == "Fence"


def test_check_it_first_after_a_fix_keeps_the_fix() -> None:
    got = draft("Kofi, fix the gate, no, check it first").objective
    assert got.verb == "Repair"  # "first": the fix after it, as said (a review)


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("Grandad's lonely, Abeni, spend the afternoon with him", "Grandad"),
        (
            "there's this weird smell under the sink, Zuri, investigate it",
            "Weird smell under the sink",
        ),
        (
            "Zuri, the boiler's been making that clanking noise again, can you look into it",
            "Boiler",
        ),
        ("Before I forget, Kofi, fix the gate", "Gate"),
    ],
)
def test_what_it_or_him_means_said_before(text: str, label: str) -> None:
    assert draft(text).objective.target.label == label


def test_do_it_after_a_deed_said_not_to_be_done_is_that_deed() -> None:
    got = draft("Tariq, don't check the cameras today, do it tomorrow").objective
    assert (got.verb, got.target.label, got.deadline) == ("Investigate", "Cameras", "2026-03-12")


@pytest.mark.parametrize(
    ("text", "label", "condition"),
    [
        ("Imani, if Gran calls, go and visit her", "Gran", "if Gran calls"),
        ("Imani, when Grandma arrives, help her", "Grandma", "when Grandma arrives"),
    ],
)
def test_the_person_a_condition_is_about_is_her(text: str, label: str, condition: str) -> None:
    got = draft(text).objective
    assert got.target.label == label
    assert ("custom", condition) in [(c.kind, c.value) for c in got.constraints]


@pytest.mark.parametrize(
    ("text", "conflicts"),
    [
        ("Tariq, guard the shop tonight, no weapons", []),
        ("Tariq, guard the shop tonight and don't use weapons", []),
        ("Tariq, guard the shop tonight with a weapon", ["safety"]),
    ],
)
def test_a_ban_said_with_no_is_no_harm_asked(text: str, conflicts: list[str]) -> None:
    from vac.intent.negotiation import value_conflicts

    got = value_conflicts(draft(text).objective)
    assert [c.value for c in got] == conflicts


# A fourteenth typed probe (T20, the twenty-first session).
@pytest.mark.parametrize(
    ("text", "agent"),
    [
        ("Fix the porch light, Kofi, sorry I mean Zuri, it's flickering.", "Zuri"),
        ("Fix the gate, Kofi, or rather Zuri, by Friday", "Zuri"),
    ],
)
def test_a_name_taken_back_anywhere_is_replaced(text: str, agent: str) -> None:
    assert draft(text).objective.agent == agent


@pytest.mark.parametrize(
    "text",
    [
        "kofi fix the fence nvm zuri did it already",
        "kofi fix the fence never mind i did it already",
    ],
)
def test_never_mind_and_done_without_a_break_takes_it_back(text: str) -> None:
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "no-verb", got


@pytest.mark.parametrize(
    "text",
    [
        "Imani, make a cup of tea for Grandma.",
        "Tariq, make the beds upstairs.",
        "Kofi, make the beds",
    ],
)
def test_a_chore_made_is_no_build(text: str) -> None:
    assert isinstance(run(text), Clarify)


@pytest.mark.parametrize(
    ("text", "verb", "label"),
    [
        ("Kofi, make the bed frame", "Build", "Bed frame"),
        ("Zuri, make you go check the borehole for me o", "Investigate", "Borehole"),
        ("Kofi, fix the 4th and 5th fence panels", "Repair", "4th and 5th fence panels"),
        ("Kofi, fix the third and fourth steps", "Repair", "Third and fourth steps"),
    ],
)
def test_what_is_made_or_fixed(text: str, verb: str, label: str) -> None:
    got = draft(text).objective
    assert (got.verb, got.target.label) == (verb, label)


def test_a_day_taken_back_with_no_is_no_ban() -> None:
    got = draft("Fix the shed, I mean the garage, by Friday, no Saturday.").objective
    assert got.deadline == "2026-03-14"
    assert "No Saturday" not in [f.text for f in got.forbidden_lines]


def test_patch_am_is_patch_it() -> None:
    got = run("the roof dey leak, abeg patch am today")
    assert not hasattr(got, "objective") or got.objective.target.label != "Am"


def test_keep_well_away_and_dinnae_are_boundaries() -> None:
    got = draft("Tariq, check the cows, and keep well away from the bull").objective
    assert "Keep well away from the bull" in [f.text for f in got.forbidden_lines]
    got = draft("Zuri, watch the bairns, dinnae let them near the burn").objective
    assert "Do not let them near the burn" in [f.text for f in got.forbidden_lines]


def test_a_free_hand_is_free() -> None:
    assert draft("Kofi, build a shed, you have a free hand").objective.autonomy == "free"


def test_while_someones_away_is_a_condition() -> None:
    got = draft("Imani, look after Mrs Ade while her daughter's away").objective
    assert ("custom", "while her daughter's away") in [(c.kind, c.value) for c in got.constraints]


@pytest.mark.parametrize(
    ("text", "verb"),
    [
        ("Kofi, could you attend to the dripping tap in the scullery", "Repair"),
        ("Kofi, see to the broken gate", "Repair"),
        ("Kofi, see to the goats", "Support"),
        ("Kofi, see to the broken-hearted neighbour", "Support"),
    ],
)
def test_seeing_to_a_broken_thing_is_a_repair(text: str, verb: str) -> None:
    assert draft(text).objective.verb == verb


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        ("Can you pass a message to Tariq: guard the shop tonight.", "Tariq"),
        ("Message for Imani: help at the bake sale on Friday.", "Imani"),
    ],
)
def test_a_message_passed_to_a_name_is_theirs(text: str, agent: str) -> None:
    assert draft(text).objective.agent == agent


@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        ("Zuri, check the boiler by tonight, well, tomorrow is fine actually", "2026-03-12"),
        ("Kofi, fix the fence on Monday — Tuesday, sorry", "2026-03-17"),
        ("Kofi, fix the fence on Monday, Tuesday too", "2026-03-16"),
        ("Kofi, fix the fence on Monday, sorry, Tuesday is busy", "2026-03-16"),
    ],
)
def test_a_time_corrected_after_it_is_said(text: str, deadline: str) -> None:
    assert draft(text).objective.deadline == deadline


# A second review of the twenty-first session's rules found each of these wrong.
@pytest.mark.parametrize(
    ("text", "ban"),
    [
        ("Kofi, guard the shop, no Friday", "No Friday"),
        ("Kofi, fix the gate, no Saturday, no Sunday", "No Sunday"),
    ],
)
def test_a_day_ruled_out_is_still_a_ban(text: str, ban: str) -> None:
    assert ban in [f.text for f in draft(text).objective.forbidden_lines]


def test_do_it_with_someone_else_is_still_asked() -> None:
    assert isinstance(run("Kofi, don't fix the gate yourself, do it with Zuri"), Clarify)


@pytest.mark.parametrize(
    "text",
    [
        "Guard the shop, no limits on hurting them",
        "Tariq, guard the shop tonight, no hesitation in hurting him",
        "Tariq, guard the shop, no weapons except poison",
    ],
)
def test_harm_after_a_no_is_still_asked_for(text: str) -> None:
    from vac.intent.negotiation import value_conflicts

    assert [c.value for c in value_conflicts(draft(text).objective)] == ["safety"]


def test_a_name_with_its_own_should_is_no_name_taken_back() -> None:
    got = draft("Kofi, help Imani, actually Zuri should do it").objective
    assert (got.agent, got.target.label) == ("Zuri", "Imani")


@pytest.mark.parametrize(
    "text",
    [
        "The cat's been scratching the new sofa, Kofi, fix it",
        "The cat's been making a mess, Kofi, fix it",
        "The boiler's been making that noise and the tap's leaking, fix it",
    ],
)
def test_what_it_means_is_still_asked_when_unclear(text: str) -> None:
    assert isinstance(run(text), Clarify)


@pytest.mark.parametrize(
    "text", ["Imani, attend to Gran's broken arm", "Kofi, tend to the broken heart of the widow"]
)
def test_seeing_to_someone_hurt_is_support(text: str) -> None:
    assert draft(text).objective.verb == "Support"


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, fix the fence, never mind Imani, she already sorted her own",
        "Kofi fix the fence never mind I already did the gate",
    ],
)
def test_never_mind_another_deed_done_keeps_the_order(text: str) -> None:
    assert draft(text).objective.target.label == "Fence"


# A third review (of the last batch) found each of these wrong.
@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        ("Kofi, don't fix the gate today, do it next week.", "2026-03-22"),
        ("Don't check the cameras on Friday, do it on Saturday", "2026-03-14"),
        ("Kofi, don't check the cameras tonight, do it in the morning", "2026-03-12"),
        ("Kofi, don't fix the gate in the garden today, do it tomorrow", "2026-03-12"),
    ],
)
def test_do_it_at_another_time_is_that_time(text: str, deadline: str) -> None:
    assert draft(text).objective.deadline == deadline


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, look after the kids, no playing with weapons",
        "Kofi, watch the kids, no swimming in the dangerous river",
        "Kofi, look after the kids, no snooping in my diary",
    ],
)
def test_a_thing_banned_after_no_asks_no_harm(text: str) -> None:
    from vac.intent.negotiation import value_conflicts

    assert value_conflicts(draft(text).objective) == []


@pytest.mark.parametrize(
    ("text", "verb"),
    [
        ("Kofi, see to the old broken gate", "Repair"),
        ("Kofi, see to Zuri's broken bike", "Repair"),
        ("Kofi, see to the broken back door", "Repair"),
        ("Kofi, see to the broken arm of the sofa", "Repair"),
    ],
)
def test_seeing_to_a_broken_thing_said_more_fully_is_a_repair(text: str, verb: str) -> None:
    assert draft(text).objective.verb == verb


@pytest.mark.parametrize(
    ("text", "ban"),
    [
        ("Kofi, fix the gate by Friday morning, no Saturday.", None),
        ("Kofi, fix the gate on Friday, no wait, no Saturday", None),
        ("Kofi, fix the gate, no Saturday, no Sunday", "No Sunday"),
    ],
)
def test_a_day_taken_back_after_more_words_is_no_ban(text: str, ban: str | None) -> None:
    lines = [f.text for f in draft(text).objective.forbidden_lines]
    assert (ban in lines) if ban else not any(line.startswith("No ") for line in lines)


def test_the_damp_getting_worse_is_the_thing() -> None:
    got = draft("Kofi, the damp's getting worse in the bathroom, look into it").objective
    assert got.target.label == "Damp"


# A fourth review (of the commit before) found each of these wrong.
@pytest.mark.parametrize(
    ("text", "conflict"),
    [
        ("Kofi, protect the house, no limits on weapons", "safety"),
        ("Kofi, check on Zuri, no shame in a little spying", "privacy"),
        ("Kofi, sort out the neighbour's dog, no half measures with the poison", "safety"),
    ],
)
def test_harm_after_no_limits_or_no_shame_is_asked_for(text: str, conflict: str) -> None:
    from vac.intent.negotiation import value_conflicts

    assert conflict in [c.value for c in value_conflicts(draft(text).objective)]


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, don't fix the gate today, do it for Gran tomorrow",
        "Kofi, don't fix the gate today, do it tomorrow with Zuri",
        "Kofi, don't fix the gate today, do it properly",
    ],
)
def test_do_it_with_more_than_a_time_is_asked(text: str) -> None:
    assert isinstance(run(text), Clarify)


def test_a_time_word_inside_the_thing_stays_in_it() -> None:
    got = draft("Kofi, don't fix the night light today, do it tomorrow").objective
    assert (got.target.label, got.deadline) == ("Night light", "2026-03-12")


@pytest.mark.parametrize(
    "text", ["Kofi, see to the cat stuck in the tree", "Kofi, see to Gran who is stuck in the bath"]
)
def test_seeing_to_someone_stuck_is_support(text: str) -> None:
    assert draft(text).objective.verb == "Support"
