"""A fifteenth round of probes (2026-12-07, the twenty-third session;
none from the understanding corpus): the earlier probes' leftovers, a typed
probe (T22) and a conversation probe (T22c)."""

from __future__ import annotations

import intent_factories as factories
import pytest

from vac.intent import Named, picked
from vac.intent.reply_words import classify_reply

run = factories.probe_run
draft = factories.probe_draft


@pytest.mark.parametrize(
    "text",
    [
        "Tariq, watch the kids up to evening",
        "Tariq, watch the kids up until the evening",
        "Tariq, watch the kids up to 6",
        "Tariq, watch the kids up till 6pm",
    ],
)
def test_up_to_or_up_until_a_time_is_until(text: str) -> None:
    got = draft(text).objective
    assert got.deadline is not None and got.target.label == "Kids", got


def test_up_to_no_time_is_no_deadline() -> None:
    got = draft("Kofi, fix the gate, it's up to you when").objective
    assert got.deadline is None and got.autonomy == "free"
    assert draft("Kofi, fix the car, spend up to 3 hours on it").objective.deadline is None


@pytest.mark.parametrize(
    ("text", "verb", "thing"),
    [
        ("Zuri, help me check the aircon", "Investigate", "Aircon"),
        ("Kofi, help us to build a shed by Friday", "Build", "Shed"),
        ("Imani, help me look after the kids tonight", "Protect", "Kids"),
        ("Kofi, help me with the gate", "Support", "Me with the gate"),
    ],
)
def test_help_me_before_a_verb_of_ours_is_that_verb(text: str, verb: str, thing: str) -> None:
    got = draft(text).objective
    assert (got.verb, got.target.label) == (verb, thing)


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, fix the gate by Monday, or Tuesday",
        "Kofi, fix the gate by Monday, or, uh, Tuesday",
        "Kofi, fix the gate by Monday, or maybe Tuesday",
    ],
)
def test_a_day_or_another_after_a_comma_is_due_by_the_later(text: str) -> None:
    assert str(draft(text).objective.deadline).startswith("2026-03-17")


def test_or_before_another_order_keeps_the_first_day() -> None:
    got = draft("Kofi, fix the gate by Monday, or Zuri can do it Tuesday").objective
    assert str(got.deadline).startswith("2026-03-16")


@pytest.mark.parametrize(
    ("text", "thing"),
    [
        ("Kofi, fix the gate, I don't know why it keeps breaking", "Gate"),
        ("Kofi, I never know where the keys are, check the shed", "Shed"),
        ("Imani, map the woods, I don't know", "Woods"),
        ("I don't know, Kofi, maybe check the boiler", "Boiler"),
    ],
)
def test_what_the_speaker_does_not_know_is_no_boundary(text: str, thing: str) -> None:
    got = draft(text).objective
    assert got.target.label == thing
    assert [f.text for f in got.forbidden_lines] == ["Respect the agent's autonomy"]


def test_i_can_never_find_is_neither_a_boundary_nor_the_verb() -> None:
    got = draft("I can never find anything in there, would you draw me a map of the cellar")
    assert got.objective.verb == "Map"
    assert [f.text for f in got.objective.forbidden_lines] == ["Respect the agent's autonomy"]


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("Kofi, fix the gate, we don't use power tools here", "Do not use power tools here"),
        ("Kofi, fix the gate, I don't like the kids near it", "Do not like the kids near it"),
    ],
)
def test_a_house_rule_said_with_we_or_i_is_still_a_boundary(text: str, line: str) -> None:
    assert line in [f.text for f in draft(text).objective.forbidden_lines]


@pytest.mark.parametrize(
    ("text", "verb", "thing"),
    [
        ("Kofi, make the new kid feel welcome", "Befriend", "New kid"),
        ("Imani, make Grandma feel at home this weekend", "Befriend", "Grandma"),
        ("Kofi, make the gate secure tonight", "Protect", "Gate"),
        ("Kofi, make the pump work again", "Repair", "Pump"),
        ("Kofi, make a bench", "Build", "Bench"),
        ("Kofi, make the shed secure enough for the goats", "Build", "Shed secure enough"),
    ],
)
def test_make_of_a_state_is_the_verb_meant(text: str, verb: str, thing: str) -> None:
    got = draft(text).objective
    assert got.verb == verb and got.target.label.startswith(thing), got


@pytest.mark.parametrize(
    "text",
    [
        "make the gate urgent",
        "Kofi, make the gate job a priority",
        "I couldn't make head nor tail of it",
        "Kofi, make do with the old one",
    ],
)
def test_make_of_how_important_or_an_idiom_builds_nothing(text: str) -> None:
    got = run(text)
    assert not hasattr(got, "objective") or got.objective.verb != "Build", got


def test_how_important_after_make_is_still_the_priority() -> None:
    assert draft("Kofi, fix the fence, make the job a priority").objective.priority == 78


@pytest.mark.parametrize(
    ("text", "thing"),
    [
        ("Tariq, keep the foxes away from the hens", "Hens from the foxes"),
        ("Zuri, keep the cat away from the baby birds tonight", "Baby birds from the cat"),
        ("Kofi, keep the kids away from the pond", "Kids from the pond"),
        ("Kofi, keep the dog away from the road, please", "Dog from the road"),
    ],
)
def test_keep_one_away_from_another_protects_the_one_at_risk(text: str, thing: str) -> None:
    got = draft(text).objective
    assert (got.verb, got.target.label) == ("Protect", thing)


@pytest.mark.parametrize(
    ("text", "thing"),
    [
        ("Kofi, keep the hens away from the fox", "Hens from the fox"),
        ("Kofi, keep the baby away from the stairs", "Baby from the stairs"),
        ("Kofi, keep the boat away from the rocks", "Boat from the rocks"),
        ("Zuri, keep the goats away from the garden", "Garden from the goats"),
    ],
)
def test_the_one_at_risk_is_told_by_a_hazard_or_a_pest(text: str, thing: str) -> None:
    assert draft(text).objective.target.label == thing


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, keep the kids away from the shed, the roof is loose",
        "Kofi, keep the water away from the wiring",
        "Kofi, keep the sheep away from the road and the river",
        "Kofi, keep your hands away from the wiring",
        "Kofi, keep the kids away from the garden while it's sprayed",
    ],
)
def test_which_is_kept_safe_unsaid_is_asked(text: str) -> None:
    assert run(text).reason == "no-verb"  # type: ignore[union-attr]


def test_we_keep_them_away_is_what_we_do() -> None:
    assert run("we keep the foxes away from the hens").reason == "first-person"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "text", ["I guess so", "guess so", "I suppose so", "eh, sure, why not", "yes I guess so"]
)
def test_a_hedged_yes_confirms(text: str) -> None:
    assert classify_reply(text) == "confirm"


@pytest.mark.parametrize("text", ["I guess", "I guess not", "I suppose not"])
def test_a_hedge_alone_or_a_no_is_no_yes(text: str) -> None:
    assert classify_reply(text) != "confirm"


@pytest.mark.parametrize(
    "text", ["that's all", "thanks, bye", "cheers, that's everything for now", "nothing else"]
)
def test_a_closing_is_answered_in_kind(text: str) -> None:
    got = run(text)
    assert got.question.startswith("Okay. Tell me whenever"), got  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("text", "agent", "verb"),
    [
        ("set a task for Kofi: protect the seedlings from the frost", "Kofi", "Protect"),
        ("could you kindly pass to Kofi: report what's wrong with the pump", "Kofi", "Report"),
        ("Kofi's task: fix the gate", "Kofi", "Repair"),
        ("new task for Kofi: fix the gate", "Kofi", "Repair"),
        ("hey google, Imani should look after grandma this afternoon please", "Imani", "Protect"),
        ("I hate to be a nuisance, but could Zuri repair the wobbly chair", "Zuri", "Repair"),
        ("Terribly sorry, but would Tariq mind mapping the loft before Thursday", "Tariq", "Map"),
        ("tariq bro check why the xbox keeps crashing", "Tariq", "Investigate"),
        ("Might I trouble Kofi to look into the damp patch", "Kofi", "Investigate"),
    ],
)
def test_a_preface_before_the_order_is_no_part_of_it(text: str, agent: str, verb: str) -> None:
    got = draft(text).objective
    assert (got.agent, got.verb) == (agent, verb), got


def test_a_preface_keeps_what_it_is_not() -> None:
    assert run("note to self: fix the gate").reason == "first-person"  # type: ignore[union-attr]
    assert run("Hey Siri, check the oven").reason == "unknown-agent"  # type: ignore[union-attr]
    assert "Bro" in draft("kofi help my bro with his homework").objective.target.label
    assert draft("tariq keep my lil sis safe at the park").objective.target.label == "Lil sis"
    assert draft("ayo zuri check the wifi").objective.agent == "Zuri"


# A review of the session's rules (each was right, or harmless, before them).


@pytest.mark.parametrize(
    ("text", "thing"),
    [
        ("Kofi, make a safe for the jewellery", "Safe for the jewellery"),
        ("Kofi, make us a safe", "Safe"),
        ("Kofi, make a safe by Friday", "Safe"),
    ],
)
def test_a_safe_made_is_a_thing_built(text: str, thing: str) -> None:
    got = draft(text).objective
    assert (got.verb, got.target.label) == ("Build", thing)


def test_make_of_someone_at_work_is_no_repair() -> None:
    assert draft("Kofi, make the kids work in the garden").objective.verb != "Repair"


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("Kofi, look after the kids, we don't get them sweets", "Do not get them sweets"),
        ("Kofi, fix the shed, I don't think you should use nails", "Do not think you should"),
        ("Kofi, watch the kids, we don't see them after 7", "Do not see them after 7"),
    ],
)
def test_a_house_rule_or_a_hedged_ban_stays_a_ban(text: str, line: str) -> None:
    assert any(f.text.startswith(line) for f in draft(text).objective.forbidden_lines)


@pytest.mark.parametrize(
    "text",
    [
        "Kofi I don't know how you'll do it but fix the gate by Friday",
        "I don't know who's free but someone fix the gate",
    ],
)
def test_an_order_after_the_speakers_own_words_is_read(text: str) -> None:
    assert draft(text).objective.verb == "Repair"


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Kofi, check the hens today, or maybe tomorrow Zuri can do it", "2026-03-11"),
        ("Kofi, fix the gate by Friday, or, uh, Monday Imani will do it", "2026-03-13"),
    ],
)
def test_a_day_of_the_next_clause_after_or_is_not_the_deadline(text: str, day: str) -> None:
    assert str(draft(text).objective.deadline).startswith(day)


@pytest.mark.parametrize(
    "text",
    [
        "Imani, report on what the kids got up to Monday",
        "Kofi, check the gutters, the water came up to the evening mark",
    ],
)
def test_up_to_after_a_verb_is_no_time(text: str) -> None:
    assert draft(text).objective.deadline is None


def test_help_me_protect_myself_supports_the_speaker() -> None:
    got = draft("Zuri, help me protect myself from the neighbour's dog").objective
    assert got.verb == "Support"


@pytest.mark.parametrize(
    ("text", "thing"),
    [
        ("the dog's hurt, Kofi, help him", "Dog"),
        ("the baby's crying, Imani, go and comfort her", "Baby"),
        ("grandma's feeling low, Imani, go and cheer her up", "Grandma"),
        ("Kofi, the dog's been acting weird, check on him", "Dog"),
    ],
)
def test_how_someone_alive_is_brings_them_in_for_him_or_her(text: str, thing: str) -> None:
    assert draft(text).objective.target.label == thing


def test_a_mess_made_is_still_no_thing_for_it() -> None:
    assert run("the cat's been making a mess, fix it").reason == "no-target"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("text", "thing"),
    [
        ("Kofi, build a 1.5 m gate", "1.5 m gate"),
        ("Kofi, build a 2.5 metre fence", "2.5 metre fence"),
    ],
)
def test_a_number_with_a_point_before_a_unit_is_one_number(text: str, thing: str) -> None:
    assert draft(text).objective.target.label == thing


def test_tn_and_rn_typed_small_are_tonight_and_now() -> None:
    assert draft("kofi check the hens tn").objective.deadline is not None
    assert draft("Kofi, fix the gate rn").objective.priority == 90


def test_a_plan_passed_on_with_he_told_me_is_news() -> None:
    got = run("Tariq is going to build a shed next month, he told me")
    assert not hasattr(got, "objective"), got


# A second review of the session's rules.


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        ("sorry Kofi, but fix the gate", "Kofi"),
        ("Kofi, sorry to bother you, but fix the gate", "Kofi"),
        ("Kofi, I know you're busy, but fix the gate", "Kofi"),
        ("Tariq, I hate to ask, but guard the orchard tonight", "Tariq"),
        ("Imani, sorry, but the roof needs mending", "Imani"),
    ],
)
def test_an_apology_keeps_the_name_said_with_it(text: str, agent: str) -> None:
    assert draft(text).objective.agent == agent


def test_a_ban_with_bother_stays_a_ban() -> None:
    got = draft("Kofi, don't bother with the fence, but fix the gate").objective
    assert "Do not bother with the fence" in [f.text for f in got.forbidden_lines]


@pytest.mark.parametrize(
    "text",
    ["please don't trouble Kofi to fix the gate", "don't bother Kofi to fix the gate"],
)
def test_someone_spared_is_not_asked(text: str) -> None:
    assert not hasattr(run(text), "objective")


@pytest.mark.parametrize(
    ("text", "thing"),
    [("Imani, help sis with her homework", "Sis"), ("Tariq, visit fam in town tomorrow", "Fam")],
)
def test_a_buddy_word_later_is_the_thing(text: str, thing: str) -> None:
    assert draft(text).objective.target.label.startswith(thing)


def test_forget_a_name_picks_no_draft() -> None:
    assert picked("forget Kofi", [Named("Kofi", "Gate"), Named("Zuri", "Fence")]) is None


@pytest.mark.parametrize(
    ("text", "verb"),
    [
        ("Tariq, see to the gutter", "Repair"),
        ("Kofi, tend to the boiler today", "Repair"),
        ("Kofi, see to the goats", "Support"),
        ("Kofi, see to the roof garden party", "Support"),
    ],
)
def test_see_to_a_fixture_of_the_house_is_a_repair(text: str, verb: str) -> None:
    assert draft(text).objective.verb == verb
