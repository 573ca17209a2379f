"""Words from a sixth typed probe and the closing notes of the sessions before
(2026-12-06, a new session; none from the understanding corpus). Each was
drafted wrong, asked when it was clear, or dropped without a word, before.
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
    ("text", "due", "said"),
    [
        ("ask Kofi to fix the gate by weekend", "2026-03-14", "by the weekend"),
        ("ask Kofi to fix the gate before weekend", "2026-03-13", "before the weekend, by Friday"),
        ("ask Kofi to fix the gate over weekend", "2026-03-15", "over the weekend"),
        ("ask Kofi to fix the gate by weekend after next", "2026-03-28", "after next"),
    ],
)
def test_the_weekend_without_its_article(text: str, due: str, said: str) -> None:
    """ "by weekend" was asked; "over weekend" was left in the thing ("Gate
    over weekend"); "by weekend after next" would have been this weekend."""
    got = draft(text)
    assert got.objective.deadline == due, got
    assert said in got.summary and got.objective.target.label == "Gate"


@pytest.mark.parametrize(
    "text",
    ["Kofi would you mind fixing the gate", "kofi would you mind fixing the gate tomorrow"],
)
def test_a_name_without_its_comma_before_would_you_mind(text: str) -> None:
    """It was asked what to do (with the comma it was drafted)."""
    got = draft(text)
    assert (got.objective.agent, got.objective.verb) == ("Kofi", "Repair")


def test_a_pronoun_before_would_you_mind_is_no_name() -> None:
    assert isinstance(understood("it would you mind fixing"), Clarify)


@pytest.mark.parametrize(
    "text",
    [
        "Kofi fix the gate, hands off the car",
        "Kofi fix the gate but keep your hands off the car",
        "Kofi, fix the gate. Hands off the car please",
    ],
)
def test_hands_off_is_a_boundary(text: str) -> None:
    """It was dropped without a word."""
    got = draft(text)
    assert [f.text for f in got.objective.forbidden_lines] == ["Keep hands off the car"]
    assert "will keep hands off the car" in got.summary


def test_hand_off_the_keys_is_no_boundary() -> None:
    got = draft("Kofi fix the gate, hand off the keys to Zuri after")
    assert all("hand" not in f.text.lower() for f in got.objective.forbidden_lines)


@pytest.mark.parametrize(
    ("text", "ban"),
    [
        ("Kofi, fix the gate, don't do it before Friday", "Do not do it before Friday"),
        ("Kofi, fix the gate, don't start until Monday", "Do not start until Monday"),
    ],
)
def test_when_not_to_start_is_no_deadline(text: str, ban: str) -> None:
    """It was the deadline, read back "by Friday, and won't do it"."""
    got = draft(text)
    assert got.objective.deadline is None
    assert [f.text for f in got.objective.forbidden_lines] == [ban]


@pytest.mark.parametrize(
    "text",
    ["Kofi, don't go and fix the gate", "Imani, don't go and visit Auntie Bisi, she's travelling"],
)
def test_dont_go_and_do_it_is_no_order(text: str) -> None:
    """Each was drafted, with the boundary "Do not go"."""
    assert isinstance(understood(text), Clarify)


@pytest.mark.parametrize(
    ("text", "who"),
    [
        ("the landlord said he'd repair the roof next week", "the landlord"),
        ("the electrician said he'd fix the socket on Friday", "the electrician"),
        ("Mum said she would visit Grandma", "Mum"),
        ("the landlord told me he'll fix the roof", "the landlord"),
        ("the kids helped us build the shed", "the kids"),
        ("my brother helped me fix the car last week", "my brother"),
        ("Dad helped Tunde build a kite", "Dad"),
    ],
)
def test_what_others_said_they_would_do_or_helped_do_is_news(text: str, who: str) -> None:
    """Each was the default agent's draft ("Abeni will repair the roof")."""
    got = understood(text)
    assert isinstance(got, Clarify) and got.reason == "uncertain-agent", got
    assert f"news about {who}" in got.question


def test_what_someone_said_to_do_is_still_an_order() -> None:
    assert draft("the landlord said to fix the roof").objective.verb == "Repair"


@pytest.mark.parametrize(
    "text",
    [
        "Zuri, check the alarm again, it went off at 3am",
        "Zuri, check the alarm again, it went off at 3 am",
        "Kofi, check the smoke alarm, it beeped at 2am",
        "Kofi, check the gate, it was banging at midnight",
        "Tariq, the fox came back on Sunday, guard the hens",
        "Tariq, the foxes were back on Monday, guard the hens",
        "Kofi, the dogs were barking on Sunday, guard the hens",
        "Kofi, the tap was leaking on Tuesday, fix it",
    ],
)
def test_a_time_something_happened_is_no_deadline(text: str) -> None:
    """Each was the deadline ("by 3 am tomorrow", "at midnight", "on Sunday")."""
    assert draft(text).objective.deadline is None


@pytest.mark.parametrize(
    ("text", "due"),
    [
        ("Kofi, meet the train that gets in at 5 tomorrow", "2026-03-12"),
        ("Kofi, I was thinking on Friday you could fix the gate", "2026-03-13"),
        ("the tap was leaking on Tuesday, can you fix it by Friday", "2026-03-13"),
    ],
)
def test_a_deadline_beside_those_stays(text: str, due: str) -> None:
    assert draft(text).objective.deadline == due


@pytest.mark.parametrize("text", ["Kofi, abeg fix am", "Kofi, the gen is not starting, check am"])
def test_am_after_a_verb_is_it(text: str) -> None:
    """West African "am" ("it") was the thing "Am"; now asked, as "it" is."""
    got = understood(text)
    assert isinstance(got, Clarify) and got.reason == "no-target", got


@pytest.mark.parametrize(
    ("text", "priority"),
    [
        ("Kofi fix the gate, this can't wait", 90),
        ("Kofi fix the gate sharp sharp", 90),
        ("Kofi fix the gate, it needs fixing like yesterday", 90),
        ("Kofi fix the gate real quick", 78),
        ("Kofi fix the gate at some point", 25),
        ("Kofi fix the gate when it suits you", 25),
    ],
)
def test_more_priorities(text: str, priority: int) -> None:
    """Each was 55."""
    assert draft(text).objective.priority == priority


@pytest.mark.parametrize(
    ("text", "autonomy"),
    [
        ("Kofi fix the gate, use your common sense", "free"),
        ("Kofi fix the gate, over to you", "free"),
        ("Kofi fix the gate, you're the expert", "free"),
        ("Kofi fix the gate, run the plan past me first", "direct-tether"),
        ("Kofi fix the gate, don't make any decisions without me", "direct-tether"),
    ],
)
def test_more_hands(text: str, autonomy: str) -> None:
    """Each was brief (the last the boundary "Do not make any decisions…")."""
    got = draft(text)
    assert got.objective.autonomy == autonomy
    assert all("decision" not in f.text for f in got.objective.forbidden_lines)


@pytest.mark.parametrize(
    ("text", "ban"),
    [
        ("Kofi fix the gate, steer clear of the money side", "Steer clear of the money side"),
        ("Tariq guard the field, keep clear of the bull", "Keep clear of the bull"),
        ("Kofi fix the gate, you're not allowed to use the ladder", "Do not use the ladder"),
    ],
)
def test_more_boundaries(text: str, ban: str) -> None:
    """Each was dropped without a word."""
    assert [f.text for f in draft(text).objective.forbidden_lines] == [ban]


@pytest.mark.parametrize(
    ("text", "agent", "verb", "target"),
    [
        (
            "Abeni the printer's jammed again and I've got a deadline so please sort it out",
            "Abeni",
            "Repair",
            "Printer",
        ),
        (
            "Tariq listen there have been some break-ins on our street lately so please guard "
            "the house tonight",
            "Tariq",
            "Protect",
            "House",
        ),
        (
            "right Tariq the thing is the neighbours' dog keeps getting into the garden so can "
            "you keep an eye on the chickens this afternoon",
            "Tariq",
            "Protect",
            "Chickens",
        ),
        (
            "Tariq so Mum's coming over with the baby and the dog gets excited so can you "
            "watch the dog while they're here",
            "Tariq",
            "Protect",
            "Dog",
        ),
    ],
)
def test_a_name_then_dictated_news_then_the_ask(
    text: str, agent: str, verb: str, target: str
) -> None:
    """Typed as dictated, without commas: each asked "Who should do it:
    Tariq or someone else?" (with the commas each was drafted)."""
    got = draft(text).objective
    assert (got.agent, got.verb, got.target.label) == (agent, verb, target)


def test_news_that_names_another_after_the_name_is_still_asked() -> None:
    got = understood("Kofi the fence is down and Zuri says can you fix it")
    assert isinstance(got, Clarify)


@pytest.mark.parametrize(
    "text",
    [
        "don't get Zuri to survey the garden, the council will do it",
        "don't ask Kofi to fix the gate, the landlord will do it",
    ],
)
def test_an_order_not_given_because_another_will_do_it(text: str) -> None:
    """Each was drafted (\"will\" read as asking for it, as in \"will you?\")."""
    got = understood(text)
    assert isinstance(got, Clarify) and got.question.startswith("Okay, I won't pass that on")


def test_an_order_not_given_then_asked_for_is_drafted() -> None:
    assert draft("I didn't ask Kofi to fix the gate, will you do it?").objective.agent == "Kofi"


@pytest.mark.parametrize(
    ("text", "due"),
    [
        (
            "Abeni, Tunde has his driving test on Friday and he's really nervous, so can you "
            "help him practise his theory tonight",
            "2026-03-11",
        ),
        ("Kofi, the guests come on Friday, so can you fix the gate by Thursday", "2026-03-12"),
        ("Kofi, the guests come on Friday, so can you fix the gate", "2026-03-13"),
    ],
)
def test_a_time_in_news_before_the_ask_gives_way_to_the_asks(text: str, due: str) -> None:
    """The first two were due Friday, the news's day (the ask's own time lost)."""
    assert draft(text).objective.deadline == due


@pytest.mark.parametrize(
    "text",
    [
        "It would be lovely if Kofi could fix the gate",
        "it would be great if Zuri could check the hives",
        "It'd be really helpful if Imani could visit Auntie Yewande tomorrow",
    ],
)
def test_the_order_asked_politely_is_no_condition_of_itself(text: str) -> None:
    """Each read its own order back as a condition ("…, if Kofi could fix the gate")."""
    got = draft(text)
    assert not [c for c in got.objective.constraints if c.kind == "custom"], got.objective
    assert " if " not in got.summary


def test_a_condition_stops_at_the_orders_verb() -> None:
    got = draft("Kofi, if it rains fix the gate")
    assert [c.value for c in got.objective.constraints if c.kind == "custom"] == ["if it rains"]


@pytest.mark.parametrize(
    "text",
    [
        "I didn't ask Kofi to fix the gate, but please do it",
        "I didn't ask Kofi to fix the gate; please do it",
    ],
)
def test_an_order_not_given_then_please_do_it_is_drafted(text: str) -> None:
    """A review: the rule for "…, the landlord will do it" took these too."""
    assert draft(text).objective.agent == "Kofi"
