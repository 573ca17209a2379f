"""A fourteenth round of probes (2026-12-07, the twenty-second session;
none from the understanding corpus): a typed probe (T21, 210 first turns)
and a conversation probe (T21c, 62 conversations)."""

from __future__ import annotations

import intent_factories as factories
import pytest

from vac.intent import Clarify
from vac.intent.reply_words import classify_reply

run = factories.probe_run
draft = factories.probe_draft


@pytest.mark.parametrize(
    ("text", "unknown"),
    [("send Mo to look after the kids tonight", "Mo"), ("Send Bob to fix the gate", "Bob")],
)
def test_send_with_a_name_no_one_has_asks_who(text: str, unknown: str) -> None:
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "unknown-agent", got
    assert f"anyone called {unknown}" in got.question


def test_send_with_no_name_is_no_one_asked_about() -> None:
    assert run("send help to the farm").reason != "unknown-agent"  # type: ignore[union-attr]
    assert draft("send Kofi to fix the gate").objective.agent == "Kofi"


@pytest.mark.parametrize(
    ("text", "line"),
    [
        (
            "Kofi, patch the roof, not on a ladder in the rain, please.",
            "Not on a ladder in the rain",
        ),
        ("Kofi, patch the roof, not on a ladder.", "Not on a ladder"),
        ("Zuri, map the field, not on the tractor", "Not on the tractor"),
        ("Kofi, patch the roof, not from the ladder.", "Not from the ladder"),
        ("Tariq, guard the shop, not with the dog.", "Not with the dog"),
        ("Kofi, fix the tap, not with the kids around.", "Not with the kids around"),
    ],
)
def test_not_on_with_or_from_after_a_comma_is_a_boundary(text: str, line: str) -> None:
    got = draft(text)
    assert [f.text for f in got.objective.forbidden_lines] == [line]
    assert "in the rain" not in {c.value for c in got.objective.constraints}


@pytest.mark.parametrize(
    "text", ["Kofi, fix the tap, not in a hurry", "Kofi, fix the gate, not on a Sunday"]
)
def test_an_idiom_or_a_day_after_not_is_no_boundary_of_a_thing(text: str) -> None:
    got = draft(text)
    assert [f.text for f in got.objective.forbidden_lines] == ["Respect the agent's autonomy"]


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, fix the gate by the school fete",
        "Kofi, fix the gate by the party",
        "Kofi, fix the gate by the vicar's visit",
        "Imani, help Mum by the wedding",
    ],
)
def test_by_an_event_is_asked_when_never_a_place(text: str) -> None:
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "unclear-deadline", got


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, fix the gate by the wedding marquee",
        "Kofi, clean up after the party and check the gate",
    ],
)
def test_a_place_named_after_an_event_is_no_time(text: str) -> None:
    assert draft(text).objective.deadline is None


@pytest.mark.parametrize(
    ("text", "first", "second"),
    [
        ("Tariq, babysit Tobi and Tayo on Friday night.", "Tobi", "Tayo"),
        ("Imani, visit Grandma and Grandpa.", "Grandma", "Grandpa"),
        ("Imani, help Tunde and Kemi.", "Tunde", "Kemi"),
        ("Imani, visit Mrs Patel and Mr Lee", "Mrs Patel", "Mr Lee"),
    ],
)
def test_a_second_person_after_and_is_named_never_dropped(
    text: str, first: str, second: str
) -> None:
    got = draft(text)
    assert got.objective.target.label == first
    assert f'"{second}" is not in this draft' in got.summary


@pytest.mark.parametrize(
    "text",
    [
        "If Imani's back before five, she can visit Mr Lee; if not, Abeni, you go.",
        "If it rains, Kofi, fix the roof; if not, Zuri, check the fence",
        "If Kofi's free he can fix the gate, otherwise Tariq, fix it.",
    ],
)
def test_two_plans_for_a_condition_and_its_other_side_are_asked(text: str) -> None:
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "uncertain-agent", got
    assert "two plans" in got.question or "Who should do it" in got.question


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, fix the roof if it rains",
        "If it rains, Kofi, fix the roof, or else the kitchen floods",
        "If it rains, Kofi, fix the roof",
    ],
)
def test_one_plan_with_its_condition_is_drafted(text: str) -> None:
    assert draft(text).objective.agent == "Kofi"


@pytest.mark.parametrize(
    "text",
    [
        "The plumber's coming Friday to fix the boiler, Abeni, let him in.",
        "The electrician will come tomorrow to check the wiring, Tariq, open the gate for him.",
        "The vet is coming tomorrow to check the goats, Imani, be home for her.",
    ],
)
def test_someone_elses_deed_in_the_news_is_never_the_agents(text: str) -> None:
    got = run(text)
    assert isinstance(got, Clarify) and got.reason in ("no-verb", "no-target"), got


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        ("I need you to fix the gate, Kofi, by Friday", "Kofi"),
        ("I want you to fix the gate, Kofi, urgently", "Kofi"),
    ],
)
def test_asked_of_you_then_named_is_the_one_named(text: str, agent: str) -> None:
    assert draft(text).objective.agent == agent


@pytest.mark.parametrize(
    ("said", "reply"),
    [
        ("yeah I think so", "confirm"),
        ("yes I guess so", "confirm"),
        ("yes that sounds about right", "confirm"),
        ("that sounds about right", "confirm"),
        ("that's the one", "confirm"),
        ("anyway, yes", "confirm"),
        ("yep, that's spot on thanks", "confirm"),
        ("sure, why not, he's got time", "confirm"),
        ("yeah, he's got the tools", "confirm"),
        ("not really, no", "reject"),
        ("not really", "reject"),
        ("actually don't bother, she's coming here", "reject"),
        ("I think so", None),  # hedged alone: asked
        ("yes, he's free tomorrow", None),  # a time: maybe a change
        ("yes, Zuri's free", None),  # a name: maybe a change
        ("no, he's not coming", None),
        # a third review: a no's own reasons, and a yes's
        ("no, he's busy", "reject"),
        ("no, she's away", "reject"),
        ("No, it's fine", "reject"),
        ("yes, he'll be fine", "confirm"),
        ("yes, they'll manage", "confirm"),
        ("yes, he's busy", None),
        # a review: a change or a no after the reply was lost as a plain yes
        ("yes, he can use the ladder", None),
        ("ok, he can use the ladder", None),
        ("yes it's urgent", None),
        ("yes, he can do it next month", None),
        ("yeah, it's already done", None),
        ("ok it's fixed already", None),
        ("ok, it's no longer needed", None),
        ("no, it's the shed", None),
        ("no no, he can use the ladder", None),
        ("Why not? He's always busy.", None),
    ],
)
def test_a_reply_with_a_hedge_or_a_reason_is_the_reply(said: str, reply: str | None) -> None:
    assert classify_reply(said) == reply


@pytest.mark.parametrize(
    "text",
    [
        "oh and while I remember, Kofi needs to fix the gate tomorrow",
        "oh and before I forget, Kofi needs to fix the gate tomorrow",
        "oh and, Kofi needs to fix the gate tomorrow",
        "while I remember, Kofi needs to fix the gate tomorrow",
    ],
)
def test_a_filler_before_the_name_leaves_it_the_agent(text: str) -> None:
    got = draft(text)
    assert (got.objective.agent, got.objective.deadline) == ("Kofi", "2026-03-12")


@pytest.mark.parametrize(
    ("text", "deadline", "line"),
    [
        # a review: the time after the ban was swallowed into it
        ("Kofi, fix the gate, not with the dog on Friday", "2026-03-13", "Not with the dog"),
        ("Kofi, fix the gate, not on a ladder tonight", "2026-03-11", "Not on a ladder"),
        ("Kofi, fix the gate, not from the ladder tomorrow", "2026-03-12", "Not from the ladder"),
        ("Kofi, fix the gate, not in the garden tonight", "2026-03-11", "Not in the garden"),
        ("guard the barn except from Monday to Friday", None, "Not from Monday to Friday"),
    ],
)
def test_a_time_after_a_ban_is_the_deadline(text: str, deadline: str | None, line: str) -> None:
    got = draft(text)
    assert got.objective.deadline == deadline
    assert [f.text for f in got.objective.forbidden_lines] == [line]


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        ("Don't forget to fix the gate, Kofi, by Friday", "Kofi"),
        ("Try to fix the boiler, Abeni, by Friday", "Abeni"),
        ("Remember to fix the boiler, Abeni, and the gate", "Abeni"),
        ("the plumber came to fix the boiler, so Kofi, check the tap", "Kofi"),
    ],
)
def test_to_before_the_verb_is_news_only_after_a_visit(text: str, agent: str) -> None:
    assert draft(text).objective.agent == agent


@pytest.mark.parametrize(
    "text",
    ["I'll fix the gate with you, Kofi, on Friday", "I can fix the gate for you, Kofi, tomorrow"],
)
def test_the_speakers_own_deed_with_you_in_it_is_still_asked(text: str) -> None:
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "first-person", got


@pytest.mark.parametrize(
    "text",
    [
        "When you get a chance, Kofi, fix the gate, otherwise it'll blow off",
        "If you can, Kofi, fix the gate today; if not, tomorrow is fine",
    ],
)
def test_a_consequence_or_a_time_after_otherwise_is_one_plan(text: str) -> None:
    assert draft(text).objective.agent == "Kofi"


@pytest.mark.parametrize(
    "text", ["Kofi, set up the table by the barbecue", "Kofi, fix the lamp by the game"]
)
def test_by_a_word_that_may_be_a_place_stays_a_place(text: str) -> None:
    assert draft(text).objective.deadline is None


@pytest.mark.parametrize(
    ("text", "condition"),
    [
        (
            "Zuri, should the river rise, check the sandbags by the back door.",
            "should the river rise",
        ),
        (
            "Zuri, check the sandbags by the back door, should the river rise.",
            "should the river rise",
        ),
        ("Imani, keep Grandma company while Mum's at work.", "while Mum's at work"),
        ("Abeni, watch the toddler while Dad's in the garden.", "while Dad's in the garden"),
        (
            "Tariq, look after the house while we're away, I trust you completely.",
            "while we're away",
        ),
    ],
)
def test_a_condition_said_this_way_is_kept(text: str, condition: str) -> None:
    got = draft(text)
    assert condition in [c.value for c in got.objective.constraints if c.kind == "custom"]


def test_how_long_after_a_pronoun_is_no_thing_and_after_a_thing_is_read_back() -> None:
    got = run("Tariq, never leave the baby alone in the bath, watch her the whole time.")
    assert isinstance(got, Clarify) and got.reason == "no-target", got  # not "Whole time"
    assert "all morning" in draft("Zuri, watch the baby all morning").summary  # kept (a review)


def test_caribbean_fuh_is_for_and_it_is_asked_what() -> None:
    got = run("Kofi, could you fix it fuh me?")
    assert isinstance(got, Clarify) and got.reason == "no-target", got


@pytest.mark.parametrize(
    "text", ["Zuri, that map you made is brilliant.", "Zuri, that map is wrong"]
)
def test_that_and_a_verbs_word_said_of_is_a_noun(text: str) -> None:
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "no-verb", got


@pytest.mark.parametrize(
    ("text", "line"),
    [
        # a review: a place or a time after the thing banned is the ban's
        ("Kofi, fix the gate, not with the dog on the lawn", "Not with the dog on the lawn"),
        ("Kofi, fix the gate, not with the drill on a Sunday", "Not with the drill on a Sunday"),
        ("Kofi, fix the gate, not with the dog until Friday", "Not with the dog until Friday"),
        ("Kofi, fix the gate, not with the ladder by the pond", "Not with the ladder by the pond"),
    ],
)
def test_what_qualifies_a_ban_stays_in_it(text: str, line: str) -> None:
    got = draft(text)
    assert [f.text for f in got.objective.forbidden_lines] == [line]
    assert got.objective.deadline is None


@pytest.mark.parametrize(
    "text",
    [
        "If it rains, Kofi, fix the roof; if not, check the fence",
        "If it rains, Kofi, fix the roof; if not, Zuri's on the fence",
        "If it rains, Kofi, fix the roof; if not, you check the fence",
    ],
)
def test_the_other_plan_with_an_order_or_a_name_is_asked(text: str) -> None:
    got = run(text)
    assert isinstance(got, Clarify) and "two plans" in got.question, got


@pytest.mark.parametrize(
    "text",
    [
        "the plumber needs to fix the boiler, Abeni, let him in",
        "the man is supposed to fix the boiler, Abeni, let him in",
        "the builder's turning up to fix the roof, Kofi, show him round",
    ],
)
def test_someone_elses_deed_with_to_is_news(text: str) -> None:
    assert isinstance(run(text), Clarify)


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, fix the gate by the match",
        "Kofi, fix the gate by her return",
        "Zuri, measure the loft by the Ides of March.",
        "Kofi, fix the gate by the eve of the wedding",  # a fifth review: a place
    ],
)
def test_by_an_event_that_is_no_place_is_asked(text: str) -> None:
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "unclear-deadline", got


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        ("Kofi fixed the tap last week, but Zuri, check the shower head today.", "Zuri"),
        ("Imani said the neighbour's cat is lost, Zuri, search the sheds", "Zuri"),
        ("Abeni did a great job on the shelves, and Kofi, build the matching cupboard", "Kofi"),
        ("Kofi can't come until Friday, so Tariq, secure the greenhouse", "Tariq"),
        ("I know Imani is busy with the baby, Zuri, could you help Grandad", "Zuri"),
        ("Kofi is busy. Zuri, fix the gate.", "Zuri"),
    ],
)
def test_a_name_that_is_the_subject_of_news_leaves_the_one_addressed(text: str, agent: str) -> None:
    assert draft(text).objective.agent == agent


@pytest.mark.parametrize("text", ["Kofi is here. Zuri, fix the gate.", "Kofi, Zuri, fix the gate"])
def test_a_name_said_of_no_news_before_another_is_still_asked(text: str) -> None:
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "uncertain-agent", got


@pytest.mark.parametrize(
    "text",
    [
        # a third review: a pronoun after the address may mean the one in the news
        "Kofi is home, Zuri, tell him to fix the gate",
        "Kofi finished early, Zuri, ask him to fix the gate",
        "Imani is home, Zuri, tell her to check the hives",
        "Kofi was asking, Zuri, should he fix the gate",
        "Kofi is home, Zuri, please tell him to fix the gate",  # a fifth review
        "Kofi is home, Zuri, he should fix the gate",
    ],
)
def test_a_pronoun_after_the_address_keeps_the_name_in_the_news(text: str) -> None:
    got = run(text)
    assert isinstance(got, Clarify) and got.reason == "uncertain-agent", got


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        ("You need to fix the gate, Kofi, before the dogs get out", "Kofi"),
        ("Need you to fix the gate, Kofi, by Friday", "Kofi"),
        ("Someone needs to fix the gate, Kofi, can you do it", "Kofi"),
        ("Want you to check the hives, Zuri, today", "Zuri"),
    ],
)
def test_to_after_you_or_no_one_in_particular_is_an_order(text: str, agent: str) -> None:
    assert draft(text).objective.agent == agent


@pytest.mark.parametrize(
    "text",
    [
        "If it rains, Kofi, fix the roof, otherwise I'll have to repair the ceiling",
        "If you have time, Kofi, fix the gate; if not, no worries, I'll check it later",
    ],
)
def test_the_speakers_own_plan_after_otherwise_is_no_second_plan(text: str) -> None:
    assert draft(text).objective.agent == "Kofi"


def test_a_birthday_after_a_name_is_a_time_asked_not_a_condition() -> None:
    got = run("Kofi, fix the fence before Mum's birthday")
    assert isinstance(got, Clarify) and got.reason == "unclear-deadline", got


def test_a_pronoun_the_order_acts_on_leaves_the_one_addressed() -> None:
    got = draft("Kofi is sick, Zuri, look after him")  # a fourth review: asked who
    assert (got.objective.agent, got.objective.target.label) == ("Zuri", "Kofi")
