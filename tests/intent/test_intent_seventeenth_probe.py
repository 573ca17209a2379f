"""A seventeenth round of probes (2026-12-07, the twenty-fifth session;
none from the understanding corpus): a typed probe (T26) and a
conversation probe (T26c), read as first turns."""

from __future__ import annotations

import intent_factories as factories
import pytest

from vac.intent import Clarify
from vac.intent.ruled_out import ruled_out

run = factories.probe_run
draft = factories.probe_draft
NAMES = ("Kofi", "Tariq", "Imani", "Zuri", "Abeni")


@pytest.mark.parametrize(
    ("text", "name", "said"),
    [
        ("not Tariq, fix the gate", "Tariq", "not Tariq,"),
        ("not you Tariq, fix the gate", "Tariq", "not you Tariq,"),
        ("No, not Kofi — check the coffee machine", "Kofi", "No, not Kofi —"),
    ],
)
def test_the_one_ruled_out_before_the_order(text: str, name: str, said: str) -> None:
    got = ruled_out(text, NAMES)
    assert got is not None and (got.name, got.said) == (name, said)


@pytest.mark.parametrize(
    "text",
    [
        "not Tariq, Kofi, fix the gate",
        "Tariq, fix the gate",
        "not the gate, the fence",
        "not Tariq",
    ],
)
def test_no_one_ruled_out(text: str) -> None:
    assert ruled_out(text, NAMES) is None


@pytest.mark.parametrize(
    "text", ["not Tariq, fix the gate", "not you Tariq, fix the gate", "not Kofi — check the pump"]
)
def test_an_order_after_the_one_ruled_out_asks_who(text: str) -> None:
    """A conversation probe (T26c): "not Tariq, fix the gate" drafted Tariq's repair."""
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "uncertain-agent", got
    assert got.question.startswith("Who should do it, if not ")
    assert got.question.split("if not ")[1].rstrip("?") not in got.candidates
    assert got.heard_as is not None and got.fill_at == 0


def test_an_order_naming_its_agent_after_another_ruled_out_is_theirs() -> None:
    assert draft("not Tariq, Kofi, fix the gate").objective.agent == "Kofi"


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, have a look at the first one",
        "Kofi, fix the other one",
        "Kofi, fix the second one",
        "Kofi, check the usual",
        "Kofi, check the other thing",
        "Kofi, fix the thing we talked about",
    ],
)
def test_which_one_is_asked_not_drafted_as_the_thing(text: str) -> None:
    """A conversation probe (T26c): "the first one" was the thing "First one"."""
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "no-target", got


@pytest.mark.parametrize(
    ("text", "thing"),
    [
        ("Kofi, fix the last fence post", "Last fence post"),
        ("Imani, map the first floor", "First floor"),
        ("Kofi, repair the same gate", "Same gate"),
    ],
)
def test_a_thing_with_such_a_word_is_still_the_thing(text: str, thing: str) -> None:
    assert draft(text).objective.target.label == thing


@pytest.mark.parametrize(
    "text",
    [
        "Make sure nobody goes in the loft until the floor's fixed",
        "Make sure the kids don't go in the garage",
        "Kofi, make sure the kids don't go in the garage",
        "Make sure the dog doesn't get out",
        "Make sure no one eats the cake",
    ],
)
def test_make_sure_of_what_others_do_asks_what_to_do(text: str) -> None:
    """A typed probe (T26): "Abeni will protect the kids, and won't go in the
    garage" (their ban on the agent), "…protect nobody goes"."""
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "no-verb", got


@pytest.mark.parametrize(
    ("text", "verb", "thing"),
    [
        ("Make sure the back door is locked tonight", "Protect", "Back door"),
        ("Kofi, fix the gate, but make sure you don't wake the baby.", "Repair", "Gate"),
        ("Make sure Kofi fixes the gate by Friday", "Repair", "Gate"),
    ],
)
def test_make_sure_of_ours_is_still_the_order(text: str, verb: str, thing: str) -> None:
    got = draft(text).objective
    assert (got.verb, got.target.label) == (verb, thing)


@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        # PROBE_NOW is Wednesday 2026-03-11.
        ("Kofi, fix the gate before the weekend's out", "2026-03-15"),
        ("Kofi, fix the gate before the week is out", "2026-03-15"),
        ("Kofi, fix the gate before the week's over", "2026-03-15"),
        ("Kofi, fix the gate before the day is out", "2026-03-11"),
        ("Kofi, fix the gate before the month is out", "2026-03-31"),
        ("Kofi, fix the gate before the year is out", "2026-12-31"),
        ("Kofi, fix the gate before the weekend is over", "2026-03-15"),
        ("Kofi, fix the gate before next week is out", "2026-03-22"),
    ],
)
def test_before_a_span_is_out_is_its_last_day(text: str, deadline: str) -> None:
    """A typed probe (T26): "…before the weekend's out" was a condition and
    the deadline dropped unsaid; "…before the week is out" was asked."""
    got = draft(text).objective
    assert got.deadline == deadline
    assert not [c for c in got.constraints if c.kind == "custom"]


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        ("Someone should fix the gate, Kofi probably", "Kofi"),
        ("someone should fix the gate, probably Kofi", "Kofi"),
        ("Someone needs to map the loft, ideally Imani", "Imani"),
        ("Fix the gate, I reckon Tariq is best for it", "Tariq"),
        ("Someone needs to repair the kitchen drawer, and I think Zuri is best placed", "Zuri"),
        ("fix the gate, Kofi can do it", "Kofi"),
        ("fix the gate, let Kofi do it", "Kofi"),
        ("fix the gate, Kofi's best at that", "Kofi"),
    ],
)
def test_the_one_put_forward_after_an_order_to_no_one_is_its_agent(text: str, agent: str) -> None:
    """A typed probe (T26): each went to the default agent ("no agent named")."""
    got = draft(text)
    assert got.objective.agent == agent and got.agent_source == "exact", got


def test_an_order_to_someone_named_is_not_put_forward_to_another() -> None:
    # Since the twenty-sixth session, which of the two is asked (it was Kofi's).
    got = run("Kofi, fix the gate, Tariq can do it")
    assert isinstance(got, Clarify) and got.candidates == ("Kofi", "Tariq"), got


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("call that off", "reject"),
        ("actually, call that off", "reject"),
        ("withdraw that", "reject"),
        ("hold off on that", "reject"),
        ("yes, go ahead with that", "confirm"),
        ("go ahead with it", "confirm"),
    ],
)
def test_more_yes_and_no(text: str, kind: str) -> None:
    """A conversation probe (T26c): each was "not what to do"; after a yes,
    a no now points to `vac withdraw`."""
    from vac.intent import classify_reply

    assert classify_reply(text) == kind


@pytest.mark.parametrize(
    ("text", "thing"),
    [
        ("Tariq, guard the vegetable patch so the foxes don't dig it up again", "Vegetable patch"),
        ("Kofi, fix the fence because we don't sleep well", "Fence"),
        ("Kofi, fix the fence as we don't want the dog out", "Fence"),
        ("Kofi, fix the gate so it doesn't squeak", "Gate"),
    ],
)
def test_a_dont_said_of_others_in_a_reason_is_no_ban(text: str, thing: str) -> None:
    """A typed probe (T26): "…, and won't dig it up again", "…won't sleep well"."""
    got = draft(text).objective
    assert got.target.label == thing
    assert [f.text for f in got.forbidden_lines] == ["Respect the agent's autonomy"]


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("Kofi, fix the fence, so don't use the ladder", "Do not use the ladder"),
        ("Kofi, fix the gate but don't use nails", "Do not use nails"),
    ],
)
def test_a_dont_said_to_the_agent_is_still_a_ban(text: str, line: str) -> None:
    assert line in [f.text for f in draft(text).objective.forbidden_lines]


@pytest.mark.parametrize(
    ("text", "verb", "thing"),
    [
        ("Kofi, oil the gate", "Repair", "Gate"),
        ("Kofi, grease the hinges", "Repair", "Hinges"),
        ("Imani, write up the meeting notes", "Report", "Meeting notes"),
        ("Imani, write a report on the roof", "Report", "Roof"),
    ],
)
def test_more_verbs(text: str, verb: str, thing: str) -> None:
    """A typed probe (T26): each was no verb."""
    got = draft(text).objective
    assert (got.verb, got.target.label) == (verb, thing)


def test_oil_as_a_thing_is_still_a_thing() -> None:
    assert draft("Kofi, check the oil").objective.verb == "Investigate"


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        ("k zuri map the attic tmrw", "Zuri"),
        ("omg imani check the shed", "Imani"),
        ("yo kofi fix the wifi thx", "Kofi"),
    ],
)
def test_a_texters_first_word_before_the_name(text: str, agent: str) -> None:
    """A typed probe (T26): each asked "Zuri or someone else?"."""
    assert draft(text).objective.agent == agent


@pytest.mark.parametrize(
    ("text", "agent", "thing"),
    [
        ("If Grandma calls, Kofi, visit her", "Kofi", "Grandma"),
        ("If Grandma calls, Kofi, go and visit her", "Kofi", "Grandma"),
        ("When Dad gets home, Tariq, help him", "Tariq", "Dad"),
    ],
)
def test_her_after_a_condition_and_a_name_is_the_one_in_the_condition(
    text: str, agent: str, thing: str
) -> None:
    """A typed probe (T26): each asked "What should Kofi befriend?"."""
    got = draft(text).objective
    assert (got.agent, got.target.label) == (agent, thing)


def test_find_out_why_asks_what() -> None:
    """T26: the thing was "Why"."""
    got = run("If the smoke alarm goes off again, Imani, find out why")
    assert isinstance(got, Clarify) and got.reason == "no-target", got


# A review of this round's rules (the twenty-fifth session).


@pytest.mark.parametrize(
    ("text", "verb", "line"),
    [
        (
            "Kofi, make sure the gate is fixed, don't use the ladder",
            "Repair",
            "Do not use the ladder",
        ),
        ("Kofi, make sure the shed is built, don't cut the tree", "Build", "Do not cut the tree"),
    ],
)
def test_make_sure_of_ours_then_a_ban_is_the_order_and_the_ban(
    text: str, verb: str, line: str
) -> None:
    got = draft(text).objective
    assert got.verb == verb and line in [f.text for f in got.forbidden_lines], got


@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        ("Kofi, fix the gate before the day is out on Friday", "2026-03-13"),
        ("Kofi, fix the gate before the week is out, by Thursday if you can", "2026-03-12"),
    ],
)
def test_a_day_said_after_the_span_is_out_is_the_day(text: str, deadline: str) -> None:
    assert draft(text).objective.deadline == deadline


def test_before_the_mornings_delivery_is_still_a_condition() -> None:
    got = draft("Kofi, fix the gate before the morning's delivery arrives").objective
    assert got.deadline is None
    assert [c.value for c in got.constraints if c.kind == "custom"] == [
        "before the morning's delivery arrives"
    ]


@pytest.mark.parametrize(
    "text",
    [
        "My neighbour keeps saying someone should check the drains",
        "Dad used to say fix the roof before it rains",
        "He said, and I quote, 'Tariq, map the caves.'",
        "Mum said: 'fix the gate'",
    ],
)
def test_an_order_someone_else_gave_asks_who(text: str) -> None:
    """A typed probe (T27): each drafted, mostly for the default agent."""
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "uncertain-agent", got
    assert got.question.startswith("That sounds like something someone else said")
    assert got.fill_at == 0 and got.heard_as and text.startswith(got.heard_as)


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        ("I said fix the gate", "Abeni"),
        ("like I said, Kofi, fix the gate", "Kofi"),
        ("Kofi build a sign that says bye", "Kofi"),
        ("the plumber told me to check the boiler pressure, can someone do it", "Abeni"),
        ("the landlord said to fix the roof", "Abeni"),  # passed on: an order, as before
    ],
)
def test_the_speakers_own_words_and_an_order_asked_after_are_drafted(text: str, agent: str) -> None:
    assert draft(text).objective.agent == agent


@pytest.mark.parametrize("text", ["✅", "✔️", "☑️", "👍"])
def test_a_tick_is_a_yes(text: str) -> None:
    """A conversation probe (T27c): "✅" was "I didn't catch anything"."""
    from vac.intent import classify_reply

    assert classify_reply(text) == "confirm"


@pytest.mark.parametrize(
    ("text", "call"), [("T, look into the leak", "T"), ("Big Z, map the creek", "Big Z")]
)
def test_a_letter_said_first_is_asked_about_as_a_name(text: str, call: str) -> None:
    """A typed probe (T27): each went to the default agent, "no agent named"."""
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "unknown-agent", got
    assert got.heard_as == call and f"anyone called {call}." in got.question


@pytest.mark.parametrize("text", ["K, fix the gate", "A, fix the gate"])
def test_k_and_a_said_first_are_no_name(text: str) -> None:
    assert draft(text).objective.verb == "Repair"


@pytest.mark.parametrize(
    "text",
    [
        "Imani, check the hives, or the pond if the hives are fine",
        "Kofi, fix the gate, or the shed door if it's raining",
    ],
)
def test_another_thing_instead_on_a_condition_is_asked(text: str) -> None:
    """A typed probe (T27): "look into the hives, if the hives are fine", the pond lost."""
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "uncertain-agent", got


@pytest.mark.parametrize(
    ("text", "thing"),
    [
        ("Zuri, help the farmer twice, Monday and Thursday", "Farmer"),
        ("Kofi, build a birdhouse a week for the next month", "Birdhouse a week"),
    ],
)
def test_twice_and_for_the_next_end_the_thing(text: str, thing: str) -> None:
    """T27: "Farmer twice", "Birdhouse a week for the"."""
    assert draft(text).objective.target.label == thing


@pytest.mark.parametrize(
    ("text", "autonomy"),
    [
        ("Kofi, build the shed, let me sign off on the plan", "direct-tether"),
        ("Kofi, build the shed, give him a free hand", "free"),
        ("Kofi, fix the gate and wing it", "free"),
        ("Tariq, map the woods, surprise me", "free"),
    ],
)
def test_more_ways_to_say_how_free(text: str, autonomy: str) -> None:
    """Probes T27 and T27c: each stayed brief."""
    assert draft(text).objective.autonomy == autonomy


@pytest.mark.parametrize(
    ("text", "priority"),
    [
        ("Kofi, fix the gate, it's a five-alarm fire", 90),
        ("Kofi, fix the gate before anything else today", 90),
        ("Kofi, fix the shed, put it on the back burner", 25),
    ],
)
def test_more_ways_to_say_how_soon(text: str, priority: int) -> None:
    """A typed probe (T27): each was the usual priority."""
    assert draft(text).objective.priority == priority


# A second review of this round's rules (the twenty-fifth session).


@pytest.mark.parametrize(
    ("text", "line"),
    [
        (
            "Kofi fix the roof so it doesn't leak don't go up without a harness",
            "Do not go up without a harness",
        ),
        ("Kofi check the boiler as soon as possible don't touch the gas", "Do not touch the gas"),
        (
            "Kofi, fix the fence because I don't want you on the ladder",
            "Do not want you on the ladder",
        ),
    ],
)
def test_a_ban_said_after_a_reason_is_still_a_ban(text: str, line: str) -> None:
    assert line in [f.text for f in draft(text).objective.forbidden_lines]


def test_an_agent_named_after_a_report_is_the_agent() -> None:
    got = draft("The plumber thinks the pipe is cracked. Kofi, fix the pipe tomorrow").objective
    assert (got.agent, got.deadline) == ("Kofi", "2026-03-12")


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, fix the roof, or the ceiling will collapse if it rains",
        "Kofi, fix the gate by Friday, or the weekend if you're busy",
        "Kofi, fix the sink, or the kitchen floods if it rains",
    ],
)
def test_a_warning_or_another_day_is_no_second_plan(text: str) -> None:
    assert draft(text).objective.agent == "Kofi"


@pytest.mark.parametrize(
    ("text", "autonomy", "priority"),
    [
        ("no need to let me sign off on it, just fix the gate, Kofi", "free", 55),
        ("Kofi, I need a free hand to hold the ladder, fix the gate", "brief", 55),
        ("this has been on the back burner too long, Kofi, fix the gate today", "brief", 55),
    ],
)
def test_the_new_cues_said_otherwise(text: str, autonomy: str, priority: int) -> None:
    got = draft(text).objective
    assert (got.autonomy, got.priority) == (autonomy, priority)


@pytest.mark.parametrize("text", ["u, check the fence", "B: check the fence"])
def test_a_small_letter_or_a_list_label_is_no_name(text: str) -> None:
    assert draft(text).objective.verb == "Investigate"


def test_cos_lettuce_is_a_thing() -> None:
    assert draft("Kofi, check the cos lettuce").objective.target.label == "Cos lettuce"


@pytest.mark.parametrize(("text", "kind"), [("✅❌", None), ("no ✅", None), ("❌", "reject")])
def test_a_tick_and_a_cross_together_are_no_reply(text: str, kind: str | None) -> None:
    from vac.intent import classify_reply

    assert classify_reply(text) == kind


@pytest.mark.parametrize(
    ("text", "agent", "deadline"),
    [
        (
            "Hi Tariq, lovely weather on Monday, wasn't it? Please fix the garden gate.",
            "Tariq",
            None,
        ),
        ("I saw your sister on Monday. Fix the gate.", "Abeni", None),
        ("The match is on Saturday. Fix the gate.", "Abeni", "2026-03-14"),  # its day, maybe
        ("Kofi, I'm so tired today. Please fix the bedroom door.", "Kofi", "2026-03-11"),
        ("By Friday. Kofi, fix the gate.", "Kofi", "2026-03-13"),
        (
            "Hi Tariq, lovely weather today, isn't it? Please fix the garden gate tomorrow.",
            "Tariq",
            "2026-03-12",
        ),
    ],
)
def test_a_day_said_in_small_talk_first_is_no_deadline(
    text: str, agent: str, deadline: str | None
) -> None:
    """A typed probe (T28): "…repair the garden gate today"."""
    got = draft(text).objective
    assert (got.agent, got.deadline) == (agent, deadline)


@pytest.mark.parametrize(
    "text",
    [
        "Abeni, build the bird box, not on Monday or Tuesday",
        "Tariq, check the roof, not Saturday or Sunday",
        "Kofi, fix the gate, but wait until Friday",
    ],
)
def test_days_it_is_not_due_or_may_start_are_asked(text: str) -> None:
    """T28: "by Tuesday", "by Sunday", "by Friday"."""
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "unclear-deadline", got


def test_it_can_wait_until_is_a_deadline() -> None:
    assert draft("Kofi, fix the gate, it can wait until Friday").objective.deadline == "2026-03-13"


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        ("I wish someone would fix that door — Tariq, would you?", "Tariq"),
        ("If only someone would watch the baby for an hour. Zuri, could you?", "Zuri"),
        ("Someone needs to help Grandad with his garden. Kofi, that's you.", "Kofi"),
    ],
)
def test_the_one_asked_after_a_wish_is_the_agent(text: str, agent: str) -> None:
    """A typed probe (T28): each went to the default agent."""
    assert draft(text).objective.agent == agent


@pytest.mark.parametrize(
    ("text", "thing"),
    [
        ("Tariq, build a 6-by-4 shed by Sunday", "6-by-4 shed"),
        ("Tariq, build a 6 by 4 foot shed", "6 by 4 foot shed"),
        ("Kofi, repair the 3-by-2 rug", "3-by-2 rug"),
    ],
)
def test_a_size_of_bare_numbers_is_the_things(text: str, thing: str) -> None:
    """T28: the thing was "6"."""
    assert draft(text).objective.target.label == thing


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        ("Morning Kofi! Hope you slept well. Could you check the boiler?", "Kofi"),
        ("Hi Tariq, how was your weekend? Can you fix the gate?", "Tariq"),
        ("How's your back, Kofi? Could you map the field today?", "Kofi"),
    ],
)
def test_an_order_after_a_greeting_and_small_talk_is_the_one_greeted(text: str, agent: str) -> None:
    """A typed probe (T28): asked who, or taken for a question."""
    assert draft(text).objective.agent == agent


@pytest.mark.parametrize(
    "text",
    [
        "Kofi is busy. Could you check the boiler?",
        # A review: each drafted for the one mentioned.
        "Morning Kofi! Could Tariq fix the gate?",
        "Where's Kofi? Could you fix the gate?",
        "Hi! Kofi is busy. Could you check the boiler?",
        "Did Kofi say he'd do it? Could you fix the gate instead?",
        "Hi, Kofi here. Could you fix the gate?",
        "Hi Kofi! Do it by Friday. Could you check the boiler?",
    ],
)
def test_news_of_someone_then_an_order_is_still_asked(text: str) -> None:
    assert isinstance(run(text), Clarify)


@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        # A review: each lost its deadline to the small-talk rule.
        ("The deadline is Friday. Kofi, fix the gate.", "2026-03-13"),
        ("It has to be done by Friday. Kofi, fix the gate.", "2026-03-13"),
        ("I'll be away on Monday. Kofi, fix the gate then.", "2026-03-16"),
        ("The inspector comes on Friday. Kofi, fix the gate before he arrives.", "2026-03-13"),
        ("Kofi, by Friday. Fix the gate.", "2026-03-13"),
        ("The match was on Saturday. Fix the gate.", None),
    ],
)
def test_a_day_said_before_the_order_as_its_time_is_kept(text: str, deadline: str | None) -> None:
    assert draft(text).objective.deadline == deadline


@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        ("Kofi, fix the gate, it won't wait until Friday", "2026-03-13"),
        ("Kofi, fix the gate, not Monday and Friday at the latest.", "2026-03-13"),
    ],
)
def test_waiting_and_days_said_otherwise_keep_the_deadline(text: str, deadline: str) -> None:
    assert draft(text).objective.deadline == deadline


def test_a_number_then_by_then_a_number_is_no_size_of_a_thing_named_before() -> None:
    assert draft("Kofi, fix gate 6 by 4 mate.").objective.target.label == "Gate 6"


def test_another_agent_who_said_something_is_news_not_a_second_agent() -> None:
    """T26: "One agent at a time: Imani or Zuri?" for what Zuri said."""
    assert draft("Kofi, Tariq told me the gate is broken, fix it").objective.agent == "Kofi"
    got = run("Imani, Zuri says the shed door is stuck — can you fix it?")
    assert not (isinstance(got, Clarify) and got.question.startswith("One agent at a time")), got
