"""Household commands typed as people write them, from a review of new
sentences (none from the understanding corpus): times said around the day
matchers, a place before the deadline."""

from __future__ import annotations

import datetime as dt

import intent_factories as factories
import pytest

from vac.intent import Clarify, Draft, default_roster

NOW = dt.datetime(2026, 5, 1, 10, 0, tzinfo=dt.UTC)  # a Friday, as in docs/speaking.md
ROSTER = default_roster()


def run(text: str) -> Draft | Clarify:
    got: Draft | Clarify = factories.understood(text, now=NOW, roster=ROSTER)
    return got


def draft(text: str) -> Draft:
    got = run(text)
    assert isinstance(got, Draft), got
    return got


@pytest.mark.parametrize(
    ("text", "deadline", "said"),
    [
        # A clock time with its day after it is that day (it was today's time).
        ("Kofi, fix the gate at 3pm on Friday", "2026-05-08", "at 3 pm on Friday"),
        ("Kofi, fix the gate at 3pm Friday", "2026-05-08", "at 3 pm on Friday"),
        ("Kofi, fix the gate by noon on Saturday", "2026-05-02", "by noon on Saturday"),
        ("Kofi, fix the gate at 10am on the 12th", "2026-05-12", "at 10 am on May 12"),
        ("Kofi, fix the gate by 5pm on Monday", "2026-05-04", "by 5 pm on Monday"),
        # A bare hour after a cue is the next one, as "5 o'clock" is (it was
        # dropped after "at", asked after "by").
        ("Kofi, fix the fence at 3", "2026-05-01", "at 3 o'clock"),
        ("Kofi, fix the gate by 6", "2026-05-01", "by 6 o'clock"),
        ("Kofi, fix the gate by six tomorrow", "2026-05-02", "by 6 o'clock tomorrow"),
        ("Kofi, fix the gate before 9", "2026-05-01", "by 9 o'clock"),
        ("Kofi, fix the fence around 5", "2026-05-01", "by 5 o'clock"),
        ("Kofi, fix the fence at about 4", "2026-05-01", "at 4 o'clock"),
        ("Kofi, fix the gate around noon", "2026-05-01", "by noon"),
        # Meals and bed after a cue (asked, or dropped, before)
        ("Kofi, fix the fence before bed", "2026-05-01", "by bedtime"),
        ("Abeni, make some bread by teatime", "2026-05-01", "by teatime"),
        ("Kofi, fix the fence before tea", "2026-05-01", "by teatime"),
        ("Kofi, fix the fence by lunch time", "2026-05-01", "by lunch"),
        ("Kofi, fix the fence before breakfast", "2026-05-02", "by breakfast tomorrow"),
        # A day said to be good enough
        ("Zuri, check the greenhouse, tomorrow's fine", "2026-05-02", "by tomorrow"),
        ("Kofi, check the hives, Friday's fine", "2026-05-08", "by Friday"),
        ("Kofi, check the hives, Friday is fine", "2026-05-08", "by Friday"),
        # "after work / school" is today, as "after lunch" is
        ("Imani, help Mum after work", "2026-05-01", "after work"),
        ("Kofi, look after the kids after school", "2026-05-01", "after school"),
    ],
)
def test_times_as_people_say_them(text: str, deadline: str, said: str) -> None:
    got = draft(text)
    assert got.objective.deadline == deadline
    assert said in got.summary


@pytest.mark.parametrize(
    ("text", "words"),
    [
        # "after" an event says when to start: never dropped. Since
        # 2026-12-06 it is a condition, kept as said and read back
        # (tests/intent/test_intent_ninth_probe.py); one no word names is asked.
        ("Imani, help Mum after the recital", "after the recital"),
        # a moving feast with "around" (it was a place: "around Easter")
        ("Kofi, fix the shed around Easter", "around Easter"),
    ],
)
def test_a_time_it_cannot_place_is_asked_about(text: str, words: str) -> None:
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "unclear-deadline", got
    assert got.heard_as == words


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, check tomorrow's weather",
        "Kofi, build the fence at 1.20 metres high",
        "Kofi, build 3 benches by the 2 sheds",
        "Kofi, clean up after the party and check the gate",
        "Kofi, put up a fence around the end of the garden",
    ],
)
def test_not_a_time(text: str) -> None:
    assert draft(text).objective.deadline is None


def test_a_place_ends_where_the_deadline_starts() -> None:
    # The place was dropped: "behind the school this weekend" ended in a time.
    got = draft("Zuri, could you map the woods behind the school this weekend?")
    assert ("location", "behind the school") in {
        (c.kind, c.value) for c in got.objective.constraints
    }
    assert got.objective.deadline == "2026-05-02"


@pytest.mark.parametrize(
    "text",
    [
        # The speaker's (or the household's) own plan with no agent named:
        # asked who (these were drafted for the default agent).
        "We should probably fix the gutter at some point",
        "Shall we fix the gate?",
        "should we check the hives tomorrow?",
        "Maybe we could build a bench",
        "let's fix the gate",
        "lets fix the gate tomorrow",
        "we ought to fix the gate",
        "we've got to fix the gate",
    ],
)
def test_our_own_plan_is_asked_who(text: str) -> None:
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "first-person", got


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        ("let's fix the gate, Kofi", "Kofi"),
        ("let's get Zuri to explore the old quarry", "Zuri"),
        ("Kofi, shall we fix the gate?", "Kofi"),
        ("perhaps Zuri should check the hives", "Zuri"),  # was asked who
        ("maybe Kofi could fix the gate", "Kofi"),
        # as "Kofi, we should…" is (these were drafted for Kofi before "we've"
        # and "we'd" were read as our own plan, and then asked who)
        ("Kofi, we've got to fix the gate", "Kofi"),
        ("Kofi, we'd better fix the gate", "Kofi"),
        ("Kofi, we should fix the gate", "Kofi"),
    ],
)
def test_a_plan_with_an_agent_named_is_theirs(text: str, agent: str) -> None:
    assert draft(text).objective.agent == agent


@pytest.mark.parametrize(
    ("text", "priority"),
    [
        ("Abeni, repair the curtain rail if you have time", 25),
        ("Kofi, fix the gate if you get a chance", 25),
        ("if you've got time, Kofi, fix the gate", 25),
        ("Kofi, fix the gate whenever you're free", 25),
        ("Tariq, drop everything and guard the hens", 90),
        ("Kofi, fix the leak pronto", 90),
    ],
)
def test_priorities_as_people_say_them(text: str, priority: int) -> None:
    assert draft(text).objective.priority == priority


@pytest.mark.parametrize(
    ("text", "repeat"),
    [
        ("Zuri, check the rain gauge twice a day", "twice a day"),
        ("Abeni, visit Grandpa every weekday", "every weekday"),
        ("Kofi, check the gutters every couple of days", "every couple of days"),
        ("Tariq, guard the coop every other night", "every other night"),
        ("Kofi, check the boiler once a month", "once a month"),
        ("Zuri, check the hives regularly", "regularly"),
        ("Kofi, check the pump hourly", "hourly"),
    ],
)
def test_how_often_makes_a_standing_order(text: str, repeat: str) -> None:
    got = draft(text)
    assert got.objective.autonomy == "standing-intent"
    assert got.objective.deadline is None
    assert repeat in got.summary and f"{repeat} {repeat}" not in got.summary


@pytest.mark.parametrize(
    ("text", "verb", "label", "deadline"),
    [
        # A phrasal verb said around its thing (these asked what to do)
        ("Zuri, can you sort the shed out this weekend", "Repair", "Shed", "2026-05-02"),
        ("Kofi, set the tent up in the garden", "Build", "Tent", None),
        ("Kofi, please put the shelves up tomorrow", "Build", "Shelves", "2026-05-02"),
        ("Tariq, lock the shed up tonight", "Protect", "Shed", "2026-05-01"),
        ("Imani, cheer Grandpa up", "Support", "Grandpa", None),
        ("Zuri, figure the wifi out", "Investigate", "Wifi", None),
        ("Kofi, put the old wardrobe together", "Build", "Old wardrobe", None),
        # "it" is the thing the statement before was about
        (
            "Kofi, the tap's dripping again, can you sort it out by tonight?",
            "Repair",
            "Tap",
            "2026-05-01",
        ),
    ],
)
def test_a_phrasal_verb_said_around_its_thing(
    text: str, verb: str, label: str, deadline: str | None
) -> None:
    got = draft(text).objective
    assert (got.verb, got.target.label, got.deadline) == (verb, label, deadline)


@pytest.mark.parametrize("text", ["Kofi, sort it out", "Imani, cheer him up"])
def test_a_phrasal_verb_on_it_alone_asks_what(text: str) -> None:
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "no-target", got


@pytest.mark.parametrize(
    ("text", "agent", "verb", "deadline"),
    [
        # A request passed on with "he" / "she" (asked who, or "Imani she
        # needs" read as a name, before)
        ("ask Kofi if he can fix the gate by Monday", "Kofi", "Repair", "2026-05-04"),
        ("ask Kofi whether he could possibly fix the gate", "Kofi", "Repair", None),
        ("tell Imani she needs to visit Grandma on Sunday", "Imani", "Befriend", "2026-05-03"),
        ("tell Kofi that he has to fix the gate", "Kofi", "Repair", None),
        ("let Kofi know he needs to fix the gate", "Kofi", "Repair", None),
        (
            "remind Zuri that she needs to check the hives tomorrow",
            "Zuri",
            "Investigate",
            "2026-05-02",
        ),
        ("see if Zuri can check the hives this afternoon", "Zuri", "Investigate", "2026-05-01"),
        ("check if Tariq can guard the barn tonight", "Tariq", "Protect", "2026-05-01"),
    ],
)
def test_a_request_passed_on_by_pronoun(
    text: str, agent: str, verb: str, deadline: str | None
) -> None:
    got = draft(text).objective
    assert (got.agent, got.verb, got.deadline) == (agent, verb, deadline)


@pytest.mark.parametrize(
    "text",
    [
        "ask Kofi if he fixed the gate",  # a question about what was done
        "tell Kofi he can't fix the gate",
        "don't ask Kofi if he can fix the gate",
    ],
)
def test_no_request_passed_on_by_pronoun(text: str) -> None:
    assert isinstance(run(text), Clarify)


@pytest.mark.parametrize(
    ("text", "agent", "verb", "label"),
    [
        # "help" as a remark on the deed after it (asked what to support)
        ("Kofi, it would really help if you could fix the gate", "Kofi", "Repair", "Gate"),
        ("it would help if Kofi could fix the gate", "Kofi", "Repair", "Gate"),
        ("it'd help a lot if Zuri could check the hives", "Zuri", "Investigate", "Hives"),
        ("Kofi, help a neighbour with the fence", "Kofi", "Support", "Neighbour with the fence"),
        # time spent with someone, kept company (asked what to do)
        ("Imani should spend the afternoon with Grandpa", "Imani", "Befriend", "Grandpa"),
        ("Imani, spend some time with Grandpa", "Imani", "Befriend", "Grandpa"),
        ("Imani, keep Grandpa company this afternoon", "Imani", "Befriend", "Grandpa"),
        # What is looked out for is guarded against, not kept safe (2026-12-05).
        ("Tariq, keep an eye out for foxes tonight", "Tariq", "Protect", "Against foxes"),
        ("Tariq, watch out for the kids", "Tariq", "Protect", "Kids"),
        ("Tariq, watch for the fox", "Tariq", "Protect", "Against fox"),
    ],
)
def test_verbs_as_people_say_them(text: str, agent: str, verb: str, label: str) -> None:
    got = draft(text).objective
    assert (got.agent, got.verb, got.target.label) == (agent, verb, label)


def test_company_is_a_verb_only_around_someone() -> None:
    assert isinstance(run("Abeni, keep the company accounts"), Clarify)


@pytest.mark.parametrize(
    ("text", "autonomy", "priority", "deadline"),
    [
        ("Imani, visit Grandma on Sundays", "standing-intent", 55, None),  # was asked about
        ("Abeni, check the hives every single morning", "standing-intent", 55, None),
        ("Tariq, lock up the shed every evening at 9", "standing-intent", 55, None),
        ("Tariq, lock up the shed at 9", "brief", 55, "2026-05-01"),
        ("Imani, visit Auntie, no huge rush", "brief", 25, None),
        ("Kofi, fix the gate, not in a hurry", "brief", 25, None),
        ("Kofi, build a bench, however you think best", "free", 55, None),
        ("Kofi, build a bench, you know best", "free", 55, None),
    ],
)
def test_manner_as_people_say_it(
    text: str, autonomy: str, priority: int, deadline: str | None
) -> None:
    got = draft(text).objective
    assert (got.autonomy, got.priority, got.deadline) == (autonomy, priority, deadline)


@pytest.mark.parametrize(
    ("text", "agent", "deadline"),
    [
        # A name first, then a request, typed without the comma (asked who)
        ("Kofi would you be able to patch the roof", "Kofi", None),
        ("Kofi please could you patch the roof", "Kofi", None),
        ("Zuri I need you to check the chickens first thing tomorrow", "Zuri", "2026-05-02"),
        ("Kofi I want you to patch the roof", "Kofi", None),
        (
            "hey Abeni would you be able to check on grandma tomorrow afternoon",
            "Abeni",
            "2026-05-02",
        ),
    ],
)
def test_a_name_then_a_request_without_a_comma(text: str, agent: str, deadline: str | None) -> None:
    got = draft(text).objective
    assert (got.agent, got.deadline) == (agent, deadline)


@pytest.mark.parametrize("text", ["Kofi can fix anything", "Kofi could not fix the gate"])
def test_a_name_then_a_statement_is_no_request(text: str) -> None:
    assert isinstance(run(text), Clarify)


@pytest.mark.parametrize(
    "text", ["Kofi might fix the gate later, who knows", "Zuri might check the hives tomorrow"]
)
def test_a_guess_is_no_order(text: str) -> None:
    # Drafted as "Kofi will repair the gate" before.
    assert isinstance(run(text), Clarify)


@pytest.mark.parametrize(
    ("text", "agent", "verb", "label", "deadline"),
    [
        # "it" / "her" is what a statement just before brought in (asked what)
        ("Kofi, there's a leak in the bathroom, can you fix it?", "Kofi", "Repair", "Leak", None),
        ("there's a leak in the bathroom, Kofi, fix it", "Kofi", "Repair", "Leak", None),
        (
            "Zuri, there's a funny smell in the cellar, can you look into it?",
            "Zuri",
            "Investigate",
            "Funny smell",
            None,
        ),
        (
            "Imani, Grandma's lonely, could you visit her this weekend?",
            "Imani",
            "Befriend",
            "Grandma",
            "2026-05-02",
        ),
        ("Imani, Grandma is lonely, please visit her", "Imani", "Befriend", "Grandma", None),
        # the thing said alone, then a request to "you"
        ("Kofi, the gate, can you fix it?", "Kofi", "Repair", "Gate", None),
        (
            "right, Kofi, the shed roof, can you patch it before Thursday",
            "Kofi",
            "Repair",
            "Shed roof",
            "2026-05-07",
        ),
    ],
)
def test_it_is_what_was_just_said(
    text: str, agent: str, verb: str, label: str, deadline: str | None
) -> None:
    got = draft(text).objective
    assert (got.agent, got.verb, got.target.label, got.deadline) == (agent, verb, label, deadline)


@pytest.mark.parametrize(
    "text", ["Kofi, there's a leak, Zuri will fix it", "Kofi, the gate, could Zuri fix it?"]
)
def test_it_said_of_someone_else_doing_it_is_asked(text: str) -> None:
    assert isinstance(run(text), Clarify)


@pytest.mark.parametrize(
    ("text", "agent", "label", "deadline", "priority"),
    [
        # a priority said first with a colon, then the name (asked who)
        ("Urgent: Kofi, fix the burst pipe", "Kofi", "Burst pipe", None, 90),
        # dashes set apart as pauses (asked who, or what)
        ("Kofi - the back gate - fix it by tomorrow", "Kofi", "Back gate", "2026-05-02", 55),
        ("Zuri — map the meadow — by Thursday", "Zuri", "Meadow", "2026-05-07", 55),
        # a thing of a few words said alone ("back" ended it)
        ("Kofi, the back gate, fix it by tomorrow", "Kofi", "Back gate", "2026-05-02", 55),
    ],
)
def test_breaks_as_people_type_them(
    text: str, agent: str, label: str, deadline: str | None, priority: int
) -> None:
    got = draft(text).objective
    assert (got.agent, got.target.label, got.deadline, got.priority) == (
        agent,
        label,
        deadline,
        priority,
    )


def test_a_word_with_a_hyphen_is_one_word() -> None:
    assert draft("Kofi, fix the well-known gate").objective.target.label == "Well-known gate"


@pytest.mark.parametrize(
    "text",
    [
        "Tariq, lock up the garage every night before bed",  # was due tonight
        "Tariq, guard the barn every night until dawn",
    ],
)
def test_a_standing_orders_time_of_day_is_when_it_repeats(text: str) -> None:
    got = draft(text).objective
    assert (got.autonomy, got.deadline) == ("standing-intent", None)


@pytest.mark.parametrize("text", ["I'm off to check the hives", "I'm heading out to fix the gate"])
def test_where_the_speaker_is_off_to_is_their_plan(text: str) -> None:
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "first-person", got


@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        # "in the next fortnight" was dropped into the thing
        ("Kofi, build a sandpit for the kids in the next fortnight", "2026-05-15"),
        # "make it" takes a time back as "make that" does (the first was kept)
        ("Tariq, guard the coop tonight, actually make it tomorrow night", "2026-05-02"),
        ("Kofi, fix the gate on Friday, make it Saturday", "2026-05-02"),
        # a request asked as "is there any way…" (was taken for a question)
        ("Kofi, is there any way you could fix the gate by Friday?", "2026-05-08"),
    ],
)
def test_more_times_as_people_say_them(text: str, deadline: str) -> None:
    assert draft(text).objective.deadline == deadline


def test_dont_worry_about_it_takes_the_order_back() -> None:
    # Drafted before.
    got = run("Kofi, fix the gate. Actually, don't worry about it.")
    assert isinstance(got, Clarify) and got.reason == "no-verb", got
    assert (
        draft("Kofi, fix the gate, don't worry about it being perfect").objective.verb == "Repair"
    )


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, could you not fix the gate",
        "Kofi could you not fix the gate",
        "Kofi, can you not fix the gate today",
        "Kofi, would you not build the shed",
    ],
)
def test_could_you_not_is_please_dont_never_an_order_to_do_it(text: str) -> None:
    # British English "could you not …" asks the agent not to: drafting the
    # deed would turn a "don't" into a "do" (a review; it was drafted).
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "no-verb", got


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, fix the gate, I told you not to touch the wiring",
        "Kofi, I asked you not to touch the wiring, fix the gate",
        "Kofi, fix the gate, and could you not touch the wiring",
    ],
)
def test_you_not_starts_a_boundary(text: str) -> None:
    got = draft(text)
    assert got.objective.verb == "Repair"
    assert [f.text for f in got.objective.forbidden_lines] == ["Do not touch the wiring"]


@pytest.mark.parametrize("text", ["Kofi, can't you fix the gate", "Kofi, won't you fix the gate"])
def test_a_negative_question_asking_for_it_is_still_the_order(text: str) -> None:
    assert draft(text).objective.verb == "Repair"


@pytest.mark.parametrize(
    "text",
    [
        # "you not" said by someone not asking it: no boundary (each was
        # drafted "Do not use the drill", the very deed meant or allowed)
        "Kofi, fix the gate, it would be silly for you not to use the drill",
        "Kofi, fix the gate, there's no reason for you not to use the drill",
        "Kofi, fix the gate, it makes no sense for you not to use the drill",
        "Kofi, fix the gate, nobody told you not to use the drill",
        "Kofi, fix the gate, I didn't tell you not to use the drill",
        "Kofi, fix the gate, I'm not asking you not to use the drill",
        "Kofi, fix the gate, who told you not to use the drill?",
        "Kofi, fix the gate, Zuri asked you not to use the drill, ignore her, use it",
        "Kofi, fix the gate, it's fine for you not to use the drill",
        # nor where it is no ask at all (a boundary of no deed: "Do not now")
        "Kofi, fix the gate, thank you not now",
        "Kofi, fix the gate, I chose you not Zuri",
        "Kofi, fix the gate, mind you not the drill",
        "Kofi, fix the gate if you not busy",
    ],
)
def test_you_not_is_a_boundary_only_when_asked(text: str) -> None:
    got = draft(text)
    assert got.objective.verb == "Repair"
    assert not [f.text for f in got.objective.forbidden_lines if f.text.startswith("Do not")]


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, fix the gate, I told you not to touch the wiring",
        "Kofi, fix the gate, I've asked you not to touch the wiring",
        "Kofi, fix the gate, I need you not to touch the wiring",
        "Kofi, fix the gate, I'd rather you not touch the wiring",
        "Kofi, fix the gate, we'd prefer you not touch the wiring",
        "Kofi, fix the gate, I'm asking you not to touch the wiring",
        "Kofi, fix the gate, and would you not touch the wiring",
    ],
)
def test_you_not_asked_by_the_speaker_is_a_boundary(text: str) -> None:
    got = draft(text)
    assert [f.text for f in got.objective.forbidden_lines] == ["Do not touch the wiring"]


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, fix the gate, thank you, not today",
        "Kofi, fix the gate but not today",
        "Kofi, fix the gate, not before lunch",
        "Kofi, fix the gate, not until Friday",
        "Kofi, fix the gate, but not tonight",
        "Kofi, fix the gate, except on Sunday",
    ],
)
def test_a_time_said_not_to_be_it_is_never_the_deadline(text: str) -> None:
    # "…, but not today" was drafted due today: the meaning reversed.
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "unclear-deadline", got
    assert got.heard_as is not None and got.heard_as.lower().startswith(("not", "except"))


@pytest.mark.parametrize(
    "text", ["Kofi, fix the gate tomorrow, not today", "Kofi, fix the gate, not today but tomorrow"]
)
def test_another_time_said_wins_over_one_said_not_to_be_it(text: str) -> None:
    deadline = draft(text).objective.deadline
    assert deadline is not None and deadline[:10] == (NOW + dt.timedelta(days=1)).date().isoformat()


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        # A typed probe (2026-12-06): "Who should do it: Kofi or someone else?"
        ("yo kofi fix my bike", "Kofi"),
        ("Hello dear. Would Imani please visit my mother on Sunday?", "Imani"),
        ("Would Kofi be so kind as to mend the fence?", "Kofi"),
        ("Good morning. I wonder if Kofi would be so kind as to mend the fence.", "Kofi"),
        ("Kofi, would you be kind enough to fix the gate", "Kofi"),
    ],
)
def test_greetings_and_kindness_around_the_name(text: str, agent: str) -> None:
    assert draft(text).objective.agent == agent


@pytest.mark.parametrize(
    ("text", "starts"),
    [
        ("thanks", "You're welcome."), ("thx", "You're welcome."),
        ("Thank you ever so much", "You're welcome."),
        ("hello", "Hello. What should someone do?"), ("good morning", "Hello."),
        ("the weather is nice", "I heard you, but not what to do."),
    ],
)  # fmt: skip
def test_thanks_and_hello_are_answered_in_kind(text: str, starts: str) -> None:
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "no-verb"
    assert got.question.startswith(starts), got.question


SATURDAY_NIGHT = dt.datetime(2026, 12, 5, 23, 40, tzinfo=dt.UTC)


@pytest.mark.parametrize(
    ("text", "target", "lines", "priority"),
    [
        # A typed probe (2026-12-06): "rn" and "in a sec" were a target's
        # word and a place. (A ban typed without a comma, "fix the gate no
        # ladder", stays unread: "fix the bike no brakes" tells the trouble.)
        ("kofi fix the bike, no power tools", "Bike", ["No power tools"], 55),
        ("kofi fix the bike no brakes", "Bike no brakes", [], 55),
        ("kofi fix the wifi rn", "Wifi", [], 90),
        ("kofi fix the wifi pronto", "Wifi", [], 90),
        ("kofi fix the gate in a sec", "Gate", [], 78),
        # Not bans: what there is not, a time, a manner.
        ("Kofi, fix the lid, it has no handle", "Lid", [], 55),
        ("kofi fix the gate no later than friday", "Gate", [], 55),
        ("Kofi, fix the gate no rush", "Gate", [], 25),
    ],
)
def test_typed_bans_and_haste_without_commas(
    text: str, target: str, lines: list[str], priority: int
) -> None:
    o = draft(text).objective
    said = [f.text for f in o.forbidden_lines if f.text != "Respect the agent's autonomy"]
    assert (o.target.label, said, o.priority) == (target, lines, priority)
    assert not [c for c in o.constraints if c.kind == "location"]


def test_this_weekend_said_at_the_weekend_is_its_sunday() -> None:
    # A probe: said on Saturday at 23:40, it was due that night.
    got = factories.understood(
        "tariq guard the house this weekend", now=SATURDAY_NIGHT, roster=ROSTER
    )
    assert isinstance(got, Draft) and got.objective.deadline == "2026-12-06"


@pytest.mark.parametrize(
    ("text", "autonomy"),
    [
        # A typed probe (2026-12-06): each was the brief hand, or a deadline question.
        ("Kofi, fix the gate. I shall leave it entirely to his judgement.", "free"),
        ("Kofi fix the gate. Is not necessary to ask me, do like you think.", "free"),
        ("Kofi, fix the gate, and do ring me before you do anything at all", "direct-tether"),
        ("Kofi, fix the heater, please telephone me before touching it.", "direct-tether"),
        ("Kofi, fix the gate, it is not as easy as you think", "brief"),
    ],
)
def test_a_hand_said_the_way_elders_and_learners_say_it(text: str, autonomy: str) -> None:
    assert draft(text).objective.autonomy == autonomy


@pytest.mark.parametrize(
    ("text", "verb", "target"),
    [
        # A typed probe (2026-12-06): "Zuri will build check of the car",
        # "…look into of the car", "keep grandma company" no verb.
        ("Zuri, make a check of the car", "Investigate", "Car"),
        ("Zuri, do a check of the car", "Investigate", "Car"),
        ("I want that Zuri make check of the car before Monday.", "Investigate", "Car"),
        ("Zuri, run a check on the pump", "Investigate", "Pump"),
        ("Kofi, keep grandma company tonight", "Befriend", "Grandma"),
        ("Kofi, cheer grandpa up", "Support", "Grandpa"),
    ],
)
def test_checks_and_company_said_plainly(text: str, verb: str, target: str) -> None:
    o = draft(text).objective
    assert (o.verb, o.target.label) == (verb, target)


@pytest.mark.parametrize(
    ("text", "target"),
    [
        # A typed probe's teen (2026-12-06): the slang was the target's.
        ("kofi can u fix my bike or nah", "Bike"),
        ("kofi fix my phone charger tbh", "Phone charger"),
        ("kofi fix my bike lowkey", "Bike"),
    ],
)
def test_slang_and_a_reason_end_the_target(text: str, target: str) -> None:
    assert draft(text).objective.target.label == target


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, fix the gate, no please",
        "Kofi, fix the gate but no please",
        "Kofi, fix the gate, no then",
    ],
)
def test_no_and_a_courtesy_is_no_ban_and_no_crash(text: str) -> None:
    got = run(text)  # raised IndexError (a review's fuzzing; older code)
    lines = got.objective.forbidden_lines if isinstance(got, Draft) else []
    assert all("please" not in f.text.lower() for f in lines)


def test_a_call_before_a_time_keeps_the_time() -> None:
    o = draft("Kofi, fix the gate, ring me before 5").objective
    assert o.deadline is not None  # "ring me before" took "before 5" as the hand
