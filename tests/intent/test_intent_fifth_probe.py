"""Words from a fifth typed probe (2026-12-06, a new session; none from the
understanding corpus): 577 first turns and 113 conversations written as
households type. Each was drafted wrong, or dropped without a word, before.
"""

from __future__ import annotations

import datetime as dt

import intent_factories as factories
import pytest

from vac.intent import Clarify, Draft, default_roster

NOW = dt.datetime(2026, 3, 11, 9, 30, tzinfo=dt.UTC)  # a Wednesday morning
ROSTER = default_roster()


def understood(text: str, now: dt.datetime = NOW) -> Draft | Clarify:
    return factories.understood(text, now=now, roster=ROSTER)


def draft(text: str, now: dt.datetime = NOW) -> Draft:
    got = understood(text, now)
    assert isinstance(got, Draft), got
    return got


@pytest.mark.parametrize(
    ("text", "who"),
    [
        ("the plumber is coming to fix the boiler on Monday", "the plumber"),
        ("the landlord is coming to fix the heating on Friday", "the landlord"),
        ("my brother is coming round to fix the car tomorrow", "my brother"),
        ("a man is coming to check the meter at 2", "a man"),
        ("the council are sending someone to repair the road", "the council"),
        ("someone is coming to fix the boiler", "someone"),
        ("my dad used to build boats", "my dad"),
    ],
)
def test_news_of_a_visit_or_a_past_habit_is_asked_about(text: str, who: str) -> None:
    """Each was the default agent's draft ("Abeni will repair the boiler")."""
    got = understood(text)
    assert isinstance(got, Clarify) and got.reason == "uncertain-agent", got
    assert f"news about {who}" in got.question


def test_someone_needed_is_still_an_order_for_the_household() -> None:
    assert draft("someone needs to fix the boiler").objective.verb == "Repair"


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Tariq, you and Kofi guard the barn tonight", ("Tariq", "Kofi")),
        ("Kofi, you and Tariq sort out the shed", ("Kofi", "Tariq")),
    ],
)
def test_you_and_another_name_asks_which_one(text: str, names: tuple[str, ...]) -> None:
    """The second name was dropped without a word."""
    got = understood(text)
    assert isinstance(got, Clarify) and got.reason == "uncertain-agent", got
    assert got.candidates == names


def test_you_and_others_not_on_the_roster_is_the_one_addressed() -> None:
    assert draft("Kofi, you and the kids fix the fence").objective.agent == "Kofi"


@pytest.mark.parametrize(
    ("text", "now", "deadline", "label"),
    [
        ("Kofi fix the car first thing", NOW, "2026-03-12", "Car"),
        # said at night: still the next morning; before 5 am, this morning's
        (
            "Kofi fix the car first thing",
            dt.datetime(2026, 6, 19, 19, 40, tzinfo=dt.UTC),
            "2026-06-20",
            "Car",
        ),
        (
            "Kofi fix the car first thing",
            dt.datetime(2026, 3, 11, 3, 0, tzinfo=dt.UTC),
            "2026-03-11",
            "Car",
        ),
        ("Kofi, fix the lock first thing, it's a priority", NOW, "2026-03-12", "Lock"),
        ("Kofi, fix the gate Monday first thing", NOW, "2026-03-16", "Gate"),
        ("Kofi, fix the fence last thing tonight", NOW, "2026-03-11", "Fence"),
        ("Kofi, fix the fence last thing", NOW, "2026-03-11", "Fence"),
        ("Kofi, fix the gate Tuesday latest", NOW, "2026-03-17", "Gate"),
        ("Kofi, fix the gate Friday max", NOW, "2026-03-13", "Gate"),
        ("Kofi, fix the gate ahead of Friday", NOW, "2026-03-13", "Gate"),
        ("Kofi, fix the gate any day this week", NOW, "2026-03-15", "Gate"),
        ("Kofi, fix the gate by the last day of the month", NOW, "2026-03-31", "Gate"),
        ("Kofi, fix the gate by the last day of next month", NOW, "2026-04-30", "Gate"),
        ("Kofi, fix the gate by the first day of next month", NOW, "2026-04-01", "Gate"),
        ("Kofi, fix the gate by the last day of February", NOW, "2027-02-28", "Gate"),
        ("Kofi, fix the gate tomorrow or the day after", NOW, "2026-03-13", "Gate"),
        ("Kofi, fix the gate next tomorrow", NOW, "2026-03-13", "Gate"),
    ],
)
def test_the_fifth_probes_times(text: str, now: dt.datetime, deadline: str, label: str) -> None:
    o = draft(text, now).objective
    assert (o.deadline, o.target.label) == (deadline, label)


def test_the_first_thing_to_do_is_no_time() -> None:
    o = draft("Kofi, the first thing to fix is the gate").objective
    assert (o.target.label, o.deadline) == ("Gate", None)


def test_the_first_day_of_a_month_gone_by_is_the_next_one() -> None:
    """A review: asked, though "the last day of February" rolled on."""
    assert draft("Kofi, fix the gate by the first day of the month").objective.deadline == (
        "2026-04-01"
    )
    assert draft("Kofi, fix the gate by the first day of March").objective.deadline == (
        "2027-03-01"
    )
    got = understood("Kofi, fix the gate by the first day of this month")
    assert isinstance(got, Clarify) and got.reason == "unclear-deadline", got


@pytest.mark.parametrize(
    ("text", "priority"),
    [
        ("Kofi, drop what you're doing and fix the alarm", 90),
        ("Kofi, stop what you're doing and fix the alarm", 90),
        ("Kofi, fix the fence when you're less busy", 25),
    ],
)
def test_the_fifth_probes_priorities(text: str, priority: int) -> None:
    assert draft(text).objective.priority == priority


@pytest.mark.parametrize(
    ("text", "autonomy"),
    [
        ("Kofi, fix the fence and let me approve the plan first", "direct-tether"),
        ("Kofi, fix the gate, let me see the plan first", "direct-tether"),
        ("Kofi, fix the gate, I'm easy how", "free"),
        ("Kofi, fix the gate, do what you need to do", "free"),
        ("Tariq, guard the gate each and every night", "standing-intent"),
        ("Imani, visit grandma every other Sunday", "standing-intent"),
    ],
)
def test_the_fifth_probes_hands(text: str, autonomy: str) -> None:
    o = draft(text).objective
    assert o.autonomy == autonomy
    assert o.target.label in ("Fence", "Gate", "Grandma")
    if autonomy == "standing-intent":
        assert o.deadline is None  # "every other Sunday" was due this Sunday


@pytest.mark.parametrize(
    "tail",
    [
        "thx", "ta", "x", "xx", "thank u", "cheers mate", "o", "sha", "innit", "yeah?", "ok?",
        "k thanks bye",
    ],
)  # fmt: skip
def test_a_sign_off_is_no_part_of_the_thing(tail: str) -> None:
    o = draft(f"Kofi fix the gate {tail}").objective
    assert (o.agent, o.verb, o.target.label) == ("Kofi", "Repair", "Gate")


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("Tariq, if you could keep an eye on the dog that'd be great", "Dog"),
        ("kofi can u fix the tap its been driping all nite", "Tap"),
        ("Zuri, help my mate", "Mate"),  # "mate" with no sign-off before it stays
        ("Kofi, fix the ok button", "Ok button"),
    ],
)
def test_a_remark_after_the_thing_is_no_part_of_it(text: str, label: str) -> None:
    assert draft(text).objective.target.label == label


def test_a_report_after_the_work_is_no_tether() -> None:
    """ "check in with me when you're done" was "checking with you first"."""
    for text in (
        "Kofi, fix the gate, check in with me when you're done",
        "Kofi, fix the gate, check in with me afterwards",
    ):
        assert draft(text).objective.autonomy == "brief", text
    assert draft("Kofi, fix the gate and check in with me").objective.autonomy == "direct-tether"


def test_during_ends_the_thing_and_a_time_said_with_it_is_read() -> None:
    """ "Caves during half term" was the thing; "during the holidays" is
    asked; "during the day" and a past event are no deadline (a review)."""
    for text in (
        "Kofi, fix the fence during the holidays",
        "Zuri, explore the caves during half term",
    ):
        got = understood(text)  # half term asked since the twenty-sixth session (it was none)
        assert isinstance(got, Clarify) and got.reason == "unclear-deadline", got
    assert draft("Kofi, check the hens during the night").objective.deadline == "2026-03-11"
    assert draft("Kofi, fix the gate during the weekend").objective.deadline == "2026-03-15"
    assert draft("Kofi guard the barn during the day").objective.deadline is None
    assert draft("Kofi check what broke during the storm").objective.deadline is None


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, fix the boiler but run it by me before you buy parts",
        "Kofi, mend the roof, but call me first before you go up",
        "Kofi fix the fence but get my go ahead before buying wood",
        "Kofi, fix the gate, but don't start until I've seen a quote",
    ],
)
def test_when_to_ask_is_no_deadline(text: str) -> None:
    """Each was asked "When should it be done?" about its "before …"."""
    o = draft(text).objective
    assert (o.autonomy, o.deadline) == ("direct-tether", None)


def test_asked_before_a_day_keeps_the_day() -> None:
    o = draft("Kofi, fix the gate, check with me before Friday").objective
    assert (o.autonomy, o.deadline) == ("direct-tether", "2026-03-13")


@pytest.mark.parametrize(
    ("text", "label"),
    [
        # A review of this round: each was cut to its first word ("Why").
        ("Kofi look into why it keeps tripping", "Why it keeps tripping"),
        ("Kofi check whether it was the fox", "Whether it was the fox"),
        ("Kofi report on how long it's been leaking", "How long it's been leaking"),
        ("Kofi fix the thing it keeps breaking", "Thing it keeps breaking"),
        # Letters written as names, what a sign says, a thing of sign-off words.
        ("Kofi map sector X", "Sector X"),
        ("Kofi look into Project K", "Project K"),
        ("Kofi build a sign that says bye", "Sign that says bye"),
        ("Kofi build a thank you", "Thank you"),
        ("Kofi, check the first thing on the list", "First thing"),
        ("Kofi map the path ahead of us", "Path ahead of us"),
    ],
)
def test_words_that_look_like_a_sign_off_or_a_remark_but_are_the_thing(
    text: str, label: str
) -> None:
    o = draft(text).objective
    assert (o.target.label, o.deadline) == (label, None)


@pytest.mark.parametrize(
    ("text", "deadline", "autonomy"),
    [
        ("Kofi fix the gate, last thing I want is the dog escaping", None, "brief"),
        ("Kofi, first thing you do is fix the gate", None, "brief"),
        ("Kofi check the hives first thing every morning", None, "standing-intent"),
        ("Kofi report on what's next tomorrow", "2026-03-12", "brief"),
        ("Kofi fix the gate ahead of time", None, "brief"),
    ],
)
def test_time_words_in_other_senses_set_no_deadline(
    text: str, deadline: str | None, autonomy: str
) -> None:
    """A review: each was given a deadline (or a wrong one)."""
    o = draft(text).objective
    assert (o.deadline, o.autonomy) == (deadline, autonomy)


@pytest.mark.parametrize(
    ("said", "reply"),
    [
        ("yes ma", "confirm"),
        ("yes o", "confirm"),
        ("Yes, exactly right.", "confirm"),
        ("yes, that's what I said", "confirm"),
        ("no wahala, go ahead", "confirm"),
        ("thanks, yes", "confirm"),
        ("hold off for now", "reject"),
        ("let's leave it for now", "reject"),
        ("nope, not needed anymore", "reject"),
        ("hmm no, cancel the whole thing", "reject"),
        ("no o, leave am", "reject"),
        ("oya cancel am", "reject"),
        ("thanks", None),
        ("thank you", None),
        ("great thanks", None),  # small talk as often as a yes
    ],
)
def test_a_sixth_probes_replies(said: str, reply: str | None) -> None:
    """A typed conversation probe: each was "I heard you, but not what to do"."""
    from vac.intent import classify_reply

    assert classify_reply(said) == reply


@pytest.mark.parametrize(
    "text",
    ["Abeni is going to visit her mother on Sunday", "Zuri is going to help her friend move"],
)
def test_an_agents_own_plan_for_its_people_is_asked_about(text: str) -> None:
    """A spoken probe: drafted as a Befriend of "Mother", typed and spoken."""
    got = understood(text)
    assert isinstance(got, Clarify) and got.reason == "uncertain-agent", got


def test_an_agent_told_what_it_will_do_is_still_an_order() -> None:
    assert draft("Kofi will fix the gate tomorrow").objective.verb == "Repair"


def test_not_that_one_is_scored_against_the_audio() -> None:
    """A spoken probe: with no "not that" to score, "not that one" heard
    "That's that one." was 5.3 nats nearer "That's right." than any no, and
    confirmed the draft. In process with it scored: dev's 575 utterances
    decide as before; on the probe's 100 fresh replies the wrong confirm is
    asked again and another "not that one" rejects (68 → 69 right, 1 → 0 wrong)."""
    from vac.intent import reply_phrases

    assert {("not that", "reject"), ("not that one", "reject")} <= set(reply_phrases())


@pytest.mark.parametrize(
    ("said", "reply"),
    [
        ("okay, sounds fine", "confirm"),
        ("don't do that", "reject"),
        ("hold on, no", "reject"),
        ("hold on", None),  # asks to wait: the draft stays pending
        ("wait", None),
        # A review: a lead-in strips only before a whole reply ("thanks, no,
        # Zuri" is a change, it rejected the draft), "wait" only before a no.
        ("thanks, no, Zuri", None),
        ("oya no, Monday", None),
        ("wait, no, fence", None),
        ("hold on, yes", None),
        ("wait, ok", None),
        ("already fixed?", None),  # asked back, not answered
        ("already fixed", "reject"),
    ],
)
def test_a_spoken_probes_replies_typed(said: str, reply: str | None) -> None:
    """A spoken probe: asked again on all five voices, and typed too."""
    from vac.intent import classify_reply

    assert classify_reply(said) == reply
