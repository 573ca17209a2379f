"""A change said to the draft just read back: golden tables, read as the
runtime reads them (`runtime.amend.Reading.changed`, pure: words in, a
draft out), and the words `intent.follow_up` makes of them."""

from __future__ import annotations

import datetime as dt
import time
from typing import NamedTuple

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vac.intent import (
    Clarify,
    Draft,
    Wording,
    classify_reply,
    default_roster,
    follow_up,
    restate,
    understand,
)
from vac.protocol.objective import Objective
from vac.runtime.amend import Reading
from vac.runtime.choices import Clarification

NOW = dt.datetime(2026, 12, 5, 10, 0, tzinfo=dt.UTC)  # a Saturday
ROSTER = default_roster()


def parse(text: str) -> Draft | Clarify:
    return understand(
        text, confidence=1.0, evidence=None, now=NOW, roster=ROSTER, current_agent=None,
        objective_id="o",
    )  # fmt: skip


class Entry(NamedTuple):
    objective: Objective
    wording: Wording | None = None
    counter_of: str | None = None


def changed(source: str, text: str) -> Objective | None:
    pending = parse(source)
    assert isinstance(pending, Draft)
    reading = Reading(NOW, ROSTER, None)
    got = reading.changed(text, 1.0, None, Entry(pending.objective, pending.wording))
    return got.objective if isinstance(got, Draft) else None


GATE = "Kofi, fix the gate"


@pytest.mark.parametrize(
    ("source", "text", "field", "value"),
    [
        # A typed probe's corrections, each said as the next turn: all were
        # "I heard you, but not what to do", and the next "yes" confirmed
        # the draft unchanged.
        ("Zuri, fix the gate", "no, I said Kofi", "agent", "Kofi"),
        ("Zuri, fix the gate", "no, tell Kofi instead", "agent", "Kofi"),
        ("Zuri, fix the gate", "No Kofi", "agent", "Kofi"),
        (GATE, "no, Zuri instead", "agent", "Zuri"),
        (GATE, "actually, Zuri", "agent", "Zuri"),
        (GATE, "Zuri, you do it", "agent", "Zuri"),
        (GATE, "let Zuri do it", "agent", "Zuri"),
        (GATE, "ask Zuri instead", "agent", "Zuri"),
        ("fix the gate", "Zuri", "agent", "Zuri"),  # the default agent's draft
        ("Kofi, fix the gate today", "I meant tomorrow not today", "deadline", "2026-12-06"),
        ("Kofi, fix the gate tomorrow", "actually Friday", "deadline", "2026-12-11"),
        ("Kofi, fix the gate tomorrow", "by Friday", "deadline", "2026-12-11"),
        (GATE, "change it to Friday", "deadline", "2026-12-11"),
        (GATE, "make that Friday", "deadline", "2026-12-11"),
        (GATE, "tomorrow please", "deadline", "2026-12-06"),
        (GATE, "not the gate, the fence", "target", "Fence"),
        (GATE, "the fence not the gate", "target", "Fence"),
        (GATE, "urgent", "priority", 90),
        (GATE, "it's urgent", "priority", 90),
        ("ask Kofi to fix the gate by Friday", "make it urgent", "priority", 90),
        ("ask Kofi to fix the gate by Friday", "yes, and make it urgent", "priority", 90),
        (GATE, "no rush", "priority", 25),
        ("Tariq, guard the barn", "yes please, but make it tomorrow", "deadline", "2026-12-06"),
        (GATE, "use your judgment", "autonomy", "free"),
        (GATE, "check with me first", "autonomy", "direct-tether"),
        (GATE, "no, ask Zuri to map the river instead", "verb", "Map"),
        # A fifth typed probe: West African English ("make am": make it; "abeg":
        # please). The first was a new draft, "Kofi will build am by Saturday".
        ("Kofi, fix the fence by Friday", "make am saturday", "deadline", "2026-12-12"),
        ("Kofi, fix the fence by Friday", "abeg make it saturday", "deadline", "2026-12-12"),
        (GATE, "pls make it urgent", "priority", 90),
        # A typed conversation probe: a new draft, "Kofi will build Zuri do am"
        # ("make Zuri do it" was "Kofi will build Zuri").
        (GATE, "make Zuri do am", "agent", "Zuri"),
        (GATE, "make Zuri do it", "agent", "Zuri"),
    ],
)
def test_a_change_said_next_changes_that_field(
    source: str, text: str, field: str, value: object
) -> None:
    got = changed(source, text)
    assert got is not None, text
    read = {"target": got.target.label}.get(field, getattr(got, field))
    assert read == value, got
    if field not in ("agent", "verb"):  # the rest of the draft stays as it was
        was = parse(source)
        assert isinstance(was, Draft)
        assert (got.agent, got.verb) == (was.objective.agent, was.objective.verb)


@pytest.mark.parametrize("text", ["and don't use the ladder", "but don't use the ladder"])
def test_a_ban_said_next_is_added(text: str) -> None:
    got = changed(GATE, text)
    assert got is not None and "Do not use the ladder" in [f.text for f in got.forbidden_lines]


@pytest.mark.parametrize(
    "text",
    [
        # Replies, questions, new orders and chatter change nothing: the
        # runtime then reads them as before (a yes or no to the draft, a
        # draft of their own, a question).
        "yes", "yes please", "ok", "great", "perfect thanks", "Lovely, ta", "Aye, go on then",
        "no", "no thanks", "no, leave it", "nah, forget it", "no thanks, not today",
        "nope, scrap it", "no, cancel that", "scrap that", "never mind", "not now thanks",
        "wait", "wait, not yet", "hmm", "what did you hear?", "sorry, what?",
        "Zuri, check the hives", "and ask Zuri to check the hives", "Kofi is busy",
        "it's raining", "the fence too", "Zuri too", "thanks", "",
        "Kofi is busy, fix the gate tomorrow", "Kofi, fix it tomorrow",
    ],
)  # fmt: skip
def test_no_change(text: str) -> None:
    assert changed(GATE, text) is None


@pytest.mark.parametrize("text", ["DO:NOT", "and do not", "don't", "never"])
def test_a_ban_with_no_verb_is_no_change(text: str) -> None:
    assert changed(GATE, text) is None  # "do not" alone raised IndexError (Hypothesis)


@given(st.text(max_size=40))
def test_any_words_give_words_that_start_with_the_draft(text: str) -> None:
    said = follow_up(text, GATE, alone_is_order=False, names=ROSTER.names())
    for words in said.words if said else ():
        # + glue, and a weekday written short spelled out ("wed": "Wednesday")
        assert words.startswith(GATE) and len(words) <= len(GATE) + 3 * len(text) + 8


def test_a_low_priority_said_after_is_heard_in_the_read_back() -> None:
    pending = parse(GATE)
    assert isinstance(pending, Draft)
    got = Reading(NOW, ROSTER, None).changed(
        "no rush", 1.0, None, Entry(pending.objective, pending.wording)
    )
    assert isinstance(got, Draft) and got.summary == "Kofi will repair the gate, no rush — confirm?"


D = "Zuri, fix the gate by Friday"
DW = "Kofi, fix the dishwasher"


@pytest.mark.parametrize(
    ("source", "text"),
    [
        # A second typed probe: chatter with a day in it rewrote the
        # deadline, and a new order after "also" / "and" was swallowed.
        (D, "Kofi is busy today"), (D, "Tariq is off sick tomorrow"),
        (D, "mum's visiting on Sunday"), (D, "school starts again Monday"),
        (D, "the weather's awful this week"), (D, "Kofi said he'd do it tomorrow"),
        (D, "ugh the kids need picking up by 5"), (GATE, "I'm off to work now, back at 6"),
        (D, "by the way the Smiths are coming Saturday"),
        (D, "remember Imani is at the doctor's on Friday"),
        (D, "also, Tariq, guard the barn tonight"), (D, "oh and Tariq, guard the barn tonight"),
        (D, "and Kofi should fix the fence by Sunday"),
        (D, "don't forget"), (D, "don't be silly"), (D, "I don't know"), (D, "I don't care"),
        (D, "sorry I'm in a rush"), (D, "and make sure the baby's asleep first"),
    ],
)  # fmt: skip
def test_chatter_and_new_orders_change_nothing(source: str, text: str) -> None:
    assert changed(source, text) is None


@pytest.mark.parametrize(
    ("source", "text", "want"),
    [
        # Fillers before "make it" (it was a Build of "it urgent").
        (D, "perfect, make it urgent", {"priority": 90}),
        (D, "um make it urgent", {"priority": 90}),
        (D, "ok, make it Saturday", {"deadline": "2026-12-12"}),
        (D, "hold on, make it Saturday", {"deadline": "2026-12-12"}),
        (D, "right, make it Kofi", {"agent": "Kofi"}),
        ("kofi fix my bike", "no wait make it zuri", {"agent": "Zuri"}),
        (D, "Actually, make that Thursday would you", {"deadline": "2026-12-10"}),
        # Several changes in one breath, each applied (only some were).
        (DW, "no, Zuri, and make it urgent", {"agent": "Zuri", "priority": 90}),
        (DW, "tomorrow, and Zuri instead", {"agent": "Zuri", "deadline": "2026-12-06"}),
    ],
)  # fmt: skip
def test_changes_said_around_other_words(source: str, text: str, want: dict[str, object]) -> None:
    got = changed(source, text)
    assert got is not None, text
    assert {k: getattr(got, k) for k in want} == want


def test_an_order_said_instead_is_that_order_alone() -> None:
    # It carried the old order's deadline and boundary into the new one.
    got = changed(
        "Kofi, guard the kids tonight and don't let them watch TV",
        "no, ask Kofi to fix the fence instead",
    )
    assert got is not None and (got.verb, got.target.label, got.deadline) == (
        "Repair",
        "Fence",
        None,
    )
    assert [f.text for f in got.forbidden_lines] == ["Respect the agent's autonomy"]
    same_agent = changed("Kofi, fix the gate", "no, map the river instead")
    assert same_agent is not None and (same_agent.agent, same_agent.verb) == ("Kofi", "Map")


def test_a_draft_asking_harm_is_not_changed_by_what_follows() -> None:
    # The change's read-back lost "(also said: "and lie to him")".
    assert changed("Abeni, visit the miller and lie to him", "no, Kofi") is None


def test_a_thing_taken_back_must_be_the_drafts() -> None:
    pending = parse("Zuri, check the hives")
    assert isinstance(pending, Draft)
    got = Reading(NOW, ROSTER, None).changed(
        "not the gate, the fence", 1.0, None, Entry(pending.objective, pending.wording)
    )
    assert (
        isinstance(got, Clarification)
        and "Still waiting for you: Zuri will look into the hives" in got.question
    )


@pytest.mark.parametrize("text", ["No, hang on, Imani rather than Tariq", "no, I said Bob"])
def test_a_correction_that_changes_nothing_told_asks_again(text: str) -> None:
    pending = parse("Tariq, keep an eye on the ewes tonight")
    assert isinstance(pending, Draft)
    got = Reading(NOW, ROSTER, None).changed(
        text, 1.0, None, Entry(pending.objective, pending.wording)
    )
    assert isinstance(got, Clarification) and got.reason == "reply-unclear", got


def entry_of(source: str) -> Entry:
    pending = parse(source)
    assert isinstance(pending, Draft)
    return Entry(pending.objective, pending.wording)


def reading(text: str, source: str = D) -> object:
    return Reading(NOW, ROSTER, None).changed(text, 1.0, None, entry_of(source))


@pytest.mark.parametrize(
    "text",
    [
        # A third typed probe: chatter after "actually" or starting with a
        # time rewrote the deadline; a clock time alone lost the day; "don't
        # … me" chatter became a boundary.
        "actually, I'm exhausted today", "actually it's my birthday tomorrow",
        "actually, the plumber comes Monday", "tonight we're out for dinner",
        "tomorrow I am not at home", "next week I'm away",
        "no, Tariq is away Friday",
        "don't get me wrong", "dont judge me lol", "don't laugh",
        "don't tell me it's broken again",
    ],
)  # fmt: skip
def test_more_chatter_changes_nothing(text: str) -> None:
    assert reading(text) is None


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("swap to Kofi", {"agent": "Kofi"}), ("switch it to Kofi", {"agent": "Kofi"}),
        ("give it to Kofi", {"agent": "Kofi"}), ("on second thoughts, Imani", {"agent": "Imani"}),
        ("please change to Abeni", {"agent": "Abeni"}), ("better make it Kofi", {"agent": "Kofi"}),
        ("ugh no, Abeni", {"agent": "Abeni"}), ("push it to Saturday", {"deadline": "2026-12-12"}),
        ("move it to Monday", {"deadline": "2026-12-07"}),
        ("let's say Monday", {"deadline": "2026-12-07"}),
        ("wait, not today, tomorrow", {"deadline": "2026-12-06"}),
        ("no, the shed", {"agent": "Zuri"}),
    ],
)  # fmt: skip
def test_more_ways_to_change(text: str, want: dict[str, object]) -> None:
    got = reading(text)
    assert isinstance(got, Draft), (text, got)
    assert {k: getattr(got.objective, k) for k in want} == want


@pytest.mark.parametrize(
    ("source", "text", "want"),
    [
        # A typed probe of four kinds of writers (2026-12-06). DANGEROUS
        # before: a draft "Kofi will build Zuri", a boundary "No monday".
        (GATE, "nah make it zuri", {"agent": "Zuri", "verb": "Repair"}),
        (GATE, "no make it zuri", {"agent": "Zuri", "verb": "Repair"}),
        (GATE, "Could you make it Imani instead, please?", {"agent": "Imani"}),
        ("Kofi, fix the fence by Friday", "no monday",
         {"deadline": "2026-12-07", "forbidden_lines": ["Respect the agent's autonomy"]}),
        ("Kofi, fix the fence by Friday", "no by thursday", {"deadline": "2026-12-10"}),
        (GATE, "no by tomorrow", {"deadline": "2026-12-06"}),
        (GATE, "check w me first", {"autonomy": "direct-tether", "verb": "Repair"}),
        (GATE, "no tariq", {"agent": "Tariq"}),
        ("Zuri, fix the gate", "nah kofi", {"agent": "Kofi"}),
        # Wrong before: asked about, and the next yes confirmed the old draft.
        ("Kofi, please could you fix the fence by Friday.",
         "Oh, I do apologise, I meant Saturday, not Friday.", {"deadline": "2026-12-12"}),
        ("Could Imani visit Mrs Patel next door on Sunday?",
         "Oh no, I am so sorry, I meant for Abeni to do it, not Imani.",
         {"agent": "Abeni", "deadline": "2026-12-06"}),
        ("Kofi, fix the fence on Wednesday", "Actually, could you make that Tuesday instead?",
         {"deadline": "2026-12-08"}),
        ("Kofi, fix the fence by Friday", "Yes, but could you make it Saturday?",
         {"deadline": "2026-12-12"}),
        (GATE, "Please make it for Tariq.", {"agent": "Tariq"}),
        (GATE, "actually thurs", {"deadline": "2026-12-10"}),
        (GATE, "make it sat", {"deadline": "2026-12-12"}),
        ("Kofi, fix the gate tmrw", "not tmrw, sat", {"deadline": "2026-12-12"}),
        (GATE, "its urgent", {"priority": 90}),
        (GATE, "it's urgent tho", {"priority": 90}),
        (GATE, "make it zuri instead lol", {"agent": "Zuri"}),
        (GATE, "no rush actually", {"priority": 25}),
        ("Kofi, please fix the gate.", "Oh, and please be careful not to wake my husband.",
         {"agent": "Kofi"}),
        # A re-probe (2026-12-06): each was asked about, the next yes
        # confirmed the old draft.
        (GATE, "On second thought, I'd rather Tariq did it.", {"agent": "Tariq"}),
        (GATE, "Actually, would you ask Zuri instead?", {"agent": "Zuri"}),
        (GATE, "Good heavens no, it should be Tariq.", {"agent": "Tariq"}),
        (GATE, "I'd prefer Imani to do it, if you don't mind.", {"agent": "Imani"}),
        (GATE, "jk tariq", {"agent": "Tariq"}),
        (GATE, "nah actually zuri", {"agent": "Zuri"}),
        (GATE, "its kinda urgent", {"priority": 78}),  # hedged: 78 since the fourth probe
        (GATE, "no rush tbh", {"priority": 25}),
        (GATE, "Oh, and there's no rush at all.", {"priority": 25}),
        (GATE, "Oh, and it's rather urgent, actually.", {"priority": 90}),
        ("Kofi, fix the gate urgently", "Please, not urgent", {"priority": 25}),
        ("Kofi, fix the gate by friday", "Perhaps Tuesday would be better.",
         {"deadline": "2026-12-08"}),
        (GATE, "Sorry, I want change to tomorrow", {"deadline": "2026-12-06"}),
        (GATE, "Wait a moment. Make it Monday.", {"deadline": "2026-12-07"}),
    ],
)  # fmt: skip
def test_how_people_type_a_change(source: str, text: str, want: dict[str, object]) -> None:
    got = reading(text, source)
    assert isinstance(got, Draft), (text, got)
    said = {k: getattr(got.objective, k) for k in want}
    if "forbidden_lines" in want:
        said["forbidden_lines"] = [f.text for f in got.objective.forbidden_lines]
    assert said == want, (text, got.summary)


@pytest.mark.parametrize(
    "text",
    [
        # A re-probe and a review (2026-12-06): a day ruled out, who is away
        # when, chatter after "no", a pause: each moved the deadline or
        # became a ban ("with no school monday"), and a yes confirmed it.
        "no chance today", "no time today", "no tariq today", "no kofi tomorrow",
        "No Zuri Monday", "no school monday", "no hold on", "no cap", "no joke its bad",
        "no milk left", "no in that case forget it", "no by the way it's done", "no tomorrow",
        # A second review: a report, chatter, weather.
        "Tariq did it", "zuri did it!", "back to school monday", "back to work tomorrow",
        "it should be sunny tomorrow", "no sun today", "no sun",
    ],
)  # fmt: skip
def test_no_and_more_words_is_no_change(text: str) -> None:
    assert not isinstance(reading(text, "Kofi, fix the gate by Friday"), Draft), text


@pytest.mark.parametrize(
    ("text", "not_said"),
    [
        ("and don't leave it in the sun", "Sunday"),  # "sun" is no Sunday there
        ("make it for the kids", "kids"),  # who it is for, no thing to repair
    ],
)
def test_a_change_reads_only_what_it_says(text: str, not_said: str) -> None:
    got = reading(text, GATE)
    assert not isinstance(got, Draft) or not_said not in got.summary, got


def test_a_time_counted_from_when_it_was_said_is_not_said_again() -> None:
    pending = parse("Kofi, fix the gate in 2 hours")
    assert isinstance(pending, Draft) and "in two hours" in pending.summary
    got = Reading(NOW, ROSTER, None).changed(
        "make it urgent", 1.0, None, Entry(pending.objective, pending.wording)
    )
    assert isinstance(got, Draft) and "in two hours" not in got.summary


def test_many_lead_words_are_read_at_once() -> None:
    """A review: each lead word doubled the time to read a change (a regex
    that could split the space between two ways): 20 "sorry" took 3.9 s on
    the event loop, for every session."""
    for text in (
        *("sorry " * 60 + "hello", "please " * 60, "lol " * 60 + "x", "do it " * 60),
        *("oh dear " * 50 + "hello", "so sorry " * 45 + "hello", "oh my " * 60 + "x"),
    ):  # the last two took minutes: words that overlap tried every split
        t0 = time.perf_counter()
        follow_up(text[:400], GATE, alone_is_order=False, names=ROSTER.names())
        assert time.perf_counter() - t0 < 0.5, text[:20]


def test_a_thing_with_capitals_keeps_them_when_the_agent_changes() -> None:
    got = reading("no, Abeni", "Imani, visit Mrs Patel next door")
    assert isinstance(got, Draft) and got.objective.target.label == "Mrs Patel next door"
    assert got.summary == "Abeni will befriend Mrs Patel next door — confirm?"


def test_a_boundary_said_as_be_careful_not_to() -> None:
    got = reading("Oh, and please be careful not to wake my husband.", GATE)
    assert isinstance(got, Draft)
    assert "Do not wake my husband" in [f.text for f in got.objective.forbidden_lines]


def test_make_it_a_name_with_no_draft_builds_nothing() -> None:
    assert isinstance(parse("make it Imani instead"), Clarify)  # was "Abeni will build Imani"


def test_a_banned_thing_typed_after_is_a_boundary_not_a_no() -> None:
    got = reading("no ladder")  # it rejected the draft ("no" and one more word)
    assert isinstance(got, Draft) and "with no ladder" in got.summary


def test_a_priority_under_urgent_is_said() -> None:
    got = reading("high priority")
    assert isinstance(got, Draft) and got.objective.priority == 78
    assert got.summary.endswith(", as a priority — confirm?")
    pending = parse("Zuri, fix the gate soon")  # said the first time too
    assert isinstance(pending, Draft) and pending.summary.endswith(", as a priority — confirm?")


@pytest.mark.parametrize(
    ("source", "text", "said"),
    [
        # A probe: the steward's clock time and "tonight" were lost from
        # the read-back of a change that did not touch the time.
        ("Kofi, fix the gate by 3 pm tomorrow", "make it urgent",
         "Urgent: Kofi will repair the gate by 3 pm tomorrow — confirm?"),
        ("Tariq, guard the barn tonight", "no, Kofi",
         "Kofi will protect the barn tonight — confirm?"),
        ("Kofi, fix the gate by Friday at 3pm", "and don't use the ladder",
         "Kofi will repair the gate by Friday at 3 pm, and won't use the ladder — confirm?"),
        ("Abeni, build a wooden bench near the pond", "no, Kofi",
         "Kofi will build a wooden bench near the pond — confirm?"),
        # A new time is said in the change's words; a new thing in its own.
        ("Kofi, fix the gate by 3 pm tomorrow", "make it Friday",
         "Kofi will repair the gate by Friday — confirm?"),
        ("Kofi, fix the gate tonight", "not the gate, the garden fence",
         "Kofi will repair the garden fence tonight — confirm?"),
    ],
)  # fmt: skip
def test_a_change_keeps_the_stewards_words_that_still_hold(
    source: str, text: str, said: str
) -> None:
    pending = parse(source)
    assert isinstance(pending, Draft)
    got = Reading(NOW, ROSTER, None).changed(
        text, 1.0, None, Entry(pending.objective, pending.wording)
    )
    assert isinstance(got, Draft) and got.summary == said
    # The kept words go on with the new draft: a second change keeps them too.
    again = Reading(NOW, ROSTER, None).changed(
        "use your judgment", 1.0, None, Entry(got.objective, got.wording)
    )
    assert isinstance(again, Draft) and again.objective.autonomy == "free"
    assert again.wording is not None and got.wording is not None
    assert (again.wording.phrase, again.wording.when) == (got.wording.phrase, got.wording.when)


def test_words_said_yesterday_are_not_said_again() -> None:
    pending = parse("Tariq, guard the barn tonight")
    assert isinstance(pending, Draft)
    day_after = NOW + dt.timedelta(days=1)
    assert "tonight" not in restate(pending.objective, pending.wording, now=day_after)
    assert "tonight" in restate(pending.objective, pending.wording, now=NOW)


def test_cancel_that_with_an_order_replaces_without_one_rejects() -> None:
    # A probe: "cancel that, Kofi fix the fence" asked who, the draft stayed,
    # and two yeses later the cancelled draft was confirmed.
    got = reading("cancel that, Kofi fix the fence")
    assert isinstance(got, Draft) and (got.objective.agent, got.objective.target.label) == (
        "Kofi", "Fence",
    )  # fmt: skip
    assert reading("cancel that, Zuri did it already") == "reject"
    # A reply phrase of its own is left to the reply (a no, as before).
    assert reading("cancel that, I'll do it myself") is None
    assert classify_reply("cancel that, I'll do it myself") == "reject"
    assert reading("never mind, Zuri did it") == "reject"


def test_a_change_to_a_draft_asking_harm_asks_for_the_whole_order() -> None:
    got = reading("no, I said Kofi", "Abeni, visit the miller and lie to him")
    assert isinstance(got, Clarification) and "say the whole order again" in got.question


def test_an_order_said_instead_is_not_cut_at_its_and() -> None:
    got = reading("no, ask Zuri to map the river and the hills instead")
    assert isinstance(got, Draft) and (got.objective.verb, got.objective.target.label) == (
        "Map", "River",
    )  # fmt: skip
    assert '"the hills" is not in this draft' in got.summary  # read back as said alone


def test_a_change_that_asks_harm_is_not_taken() -> None:
    # A review: "make it urgent and lie to him" read back "Urgent: Kofi will
    # befriend the miller", the lie only in the words the agent weighs.
    for text in ("make it urgent and lie to him", "no, visit the miller and lie to him instead"):
        got = reading(text, "Kofi, visit the miller")
        assert isinstance(got, Clarification) and "say the whole order again" in got.question


@pytest.mark.parametrize(
    "text",
    ["no, leave it", "nah, forget it", "no thanks, not today", "nope, scrap it", "no, cancel that"],
)
def test_a_no_typed_that_changes_nothing_is_left_to_reject(text: str) -> None:
    # A review: these got "I couldn't change the draft…" and stayed pending.
    assert reading(text, GATE) is None


@pytest.mark.parametrize(
    "text",
    [
        "no deadline",
        "No deadline please.",
        "remove the deadline",
        "forget the deadline",
        "there's no deadline",
        "it doesn't need a deadline",
        "any time is fine",
        "whenever is fine",
    ],
)
def test_a_deadline_taken_off(text: str) -> None:
    # It was the boundary "No deadline", or no change; the time constraint goes with it.
    new = changed("Kofi, fix the gate by Friday", text)
    assert new is not None and new.deadline is None
    assert not [c for c in new.constraints if c.kind == "time"]
    assert not [f for f in new.forbidden_lines if "deadline" in f.text.lower()]


def test_no_deadline_with_and_another_change() -> None:
    new = changed("Kofi, fix the gate by Friday", "no deadline, and make it urgent")
    assert new is not None and (new.deadline, new.priority) == (None, 90)


@pytest.mark.parametrize(
    "text", ["make it medium priority", "normal priority", "actually, normal priority please"]
)
def test_the_usual_priority_said_as_a_change(text: str) -> None:
    new = changed("Kofi, fix the gate urgently", text)  # it was asked again
    assert new is not None and new.priority == 55


def test_what_the_draft_has_already_is_said_so() -> None:
    pending = parse(GATE)
    assert isinstance(pending, Draft)
    reading = Reading(NOW, ROSTER, None)
    for text, has in (("no deadline", "no deadline"), ("normal priority", "the usual priority")):
        got = reading.changed(text, 1.0, None, Entry(pending.objective, pending.wording))
        assert isinstance(got, Clarification) and f"It has {has}." in got.question


@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        # A typed probe: each was asked again or was no change.
        ("make that the 20th", "2026-12-20"),
        ("no, the 20th", "2026-12-20"),
        ("the 20th", "2026-12-20"),
        ("change the deadline to the 15th", "2026-12-15"),
        ("make it christmas eve", "2026-12-24"),
        ("could you make that Christmas Eve instead?", "2026-12-24"),
        ("push it to the weekend", "2026-12-06"),
        ("bring it forward to wednesday", "2026-12-09"),
        ("nah thurs", "2026-12-10"),
        ("can u do it by wed instead", "2026-12-09"),
        ("can we do tomorrow instead", "2026-12-06"),
    ],
)
def test_a_time_said_as_people_type_a_change(text: str, deadline: str) -> None:
    new = changed("Kofi, fix the gate by Friday", text)
    assert new is not None and (new.deadline, new.target.label) == (deadline, "Gate")
    assert [c.value for c in new.constraints if c.kind == "time"] == [deadline]


@pytest.mark.parametrize(
    "text", ["the weather's awful this week", "the fence", "no sun", "can you do it properly"]
)
def test_a_time_tried_after_by_changes_no_thing(text: str) -> None:
    new = changed("Kofi, fix the gate by Friday", text)
    assert new is None or new.deadline == "2026-12-11"


@pytest.mark.parametrize(
    "text",
    [
        # A review: each changed the draft ("for Zuri" is for whom, "the
        # second" which one; "don't ask me" alone is no hand given).
        "can you do it for Zuri",
        "bring it to Zuri",
        "the second",
        "no, the second",
        "make that the first",
    ],
)
def test_not_a_change_of_time_or_agent(text: str) -> None:
    new = changed("Kofi, fix the gate by Friday", text)
    assert new is None or (new.agent, new.deadline) == ("Kofi", "2026-12-11")


def test_whenevers_fine_takes_the_deadline_off_like_whenever_is_fine() -> None:
    for text in ("whenever's fine", "whenever is fine"):
        new = changed("Kofi, fix the gate by Friday", text)
        assert new is not None and new.deadline is None, text


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        # A typed re-probe: a hand or a haste said whole was no change.
        ("it can wait", "priority", 25),
        ("use your judgment", "autonomy", "free"),
        ("no need to check with me", "autonomy", "free"),
        ("run it by me first", "autonomy", "direct-tether"),
        ("let me know before you start", "autonomy", "direct-tether"),
        ("take the deadline off", "deadline", None),
        ("any day is fine", "deadline", None),
        ("cud u do it by mon instead", "deadline", "2026-12-07"),
    ],
)
def test_a_hand_or_haste_said_whole_as_a_change(text: str, field: str, value: object) -> None:
    new = changed("Kofi, fix the gate by Friday", text)
    assert new is not None and getattr(new, field) == value


def test_make_that_two_is_no_time() -> None:
    # It moved the deadline to 2 o'clock today.
    new = changed("Kofi, fix the gate by Friday", "make that two")
    assert new is None or new.deadline == "2026-12-11"


@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        ("push it back to saturday", "2026-12-12"),
        ("bring it forward to wednesday", "2026-12-09"),
        ("move it up to thursday", "2026-12-10"),
        ("push it back to monday", None),  # the Monday before Friday: which? Asked
        ("move it up to saturday", None),
    ],
)
def test_a_move_said_with_its_direction(text: str, deadline: str | None) -> None:
    new = changed("Kofi, fix the gate by Friday", text)
    assert (new.deadline if new is not None else None) == deadline


@pytest.mark.parametrize(
    "text", ["just do it", "up to you", "as you wish", "you decide", "i trust you"]
)
def test_assent_said_whole_gives_no_free_hand(text: str) -> None:
    # A review: each became a free hand (the old draft replaced) where a yes
    # was as likely meant; "just do it" is a yes (`reply_words`).
    new = changed("Kofi, fix the gate by Friday", text)
    assert new is None or new.autonomy == "brief"


def test_a_question_never_takes_the_deadline_off() -> None:
    new = changed("Kofi, fix the gate by Friday", "any day works?")
    assert new is None or new.deadline == "2026-12-11"


def test_later_today_is_a_change_and_push_back_without_it_is_checked() -> None:
    new = changed("Kofi, fix the gate by Friday", "make it later today")
    assert new is not None and new.deadline == "2026-12-05"  # "later" alone moves nothing back
    assert changed("Kofi, fix the gate by Friday", "push back to thursday") is None


@pytest.mark.parametrize(
    "text", ["in a minute", "in a sec", "one sec", "just a minute", "hang on a sec", "in a bit"]
)
def test_asked_to_wait_is_no_change(text: str) -> None:
    # A review: "in a minute" moved the deadline to today; "in a sec" made it a priority.
    assert changed("Kofi, fix the gate by Friday", text) is None


@pytest.mark.parametrize(
    ("source", "text", "field", "value"),
    [
        # A third typed probe (2026-12-06): each was no change, or asked again.
        ("Kofi, fix the gate by Friday", "yeah sure, do it tomorrow", "deadline", "2026-12-06"),
        ("Kofi, fix the gate by Friday", "do it by next Monday", "deadline", "2026-12-07"),
        ("Kofi, fix the gate, it's urgent", "it's not urgent", "priority", 25),
        ("Kofi, fix the gate, it's urgent", "not urgent anymore", "priority", 25),
        ("Kofi, fix the gate", "it's urgent now", "priority", 90),
    ],
)
def test_a_third_probes_changes(source: str, text: str, field: str, value: object) -> None:
    got = changed(source, text)
    assert got is not None, text
    assert getattr(got, field) == value


@pytest.mark.parametrize("text", ["do it properly", "do it"])
def test_do_it_without_a_time_is_no_change(text: str) -> None:
    assert changed("Kofi, fix the gate by Friday", text) is None


@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        ("push it back a day", "2026-12-12"),  # Friday the 11th; no change before
        ("bring it forward a day", "2026-12-10"),
        ("move it back by two days", "2026-12-13"),
        ("can you push it back a week please", "2026-12-18"),
    ],
)
def test_a_deadline_moved_by_a_span(text: str, deadline: str) -> None:
    got = changed("Kofi, fix the gate by Friday", text)
    assert got is not None and got.deadline == deadline


def test_a_deadline_moved_into_the_past_or_none_to_move_is_asked() -> None:
    for source, text in (
        ("Kofi, fix the gate by Monday", "bring it forward three days"),  # Monday the 7th
        ("Kofi, fix the gate", "push it back a day"),
    ):
        pending = parse(source)
        assert isinstance(pending, Draft)
        got = Reading(NOW, ROSTER, None).changed(
            text, 1.0, None, Entry(pending.objective, pending.wording)
        )
        assert isinstance(got, Clarification), (source, text)


@pytest.mark.parametrize(
    ("source", "text", "deadline"),
    [
        ("Kofi, fix the gate in January", "no, the 10th", "2027-01-10"),  # was December 10
        ("Kofi, fix the gate in January", "make it the 3rd", "2027-01-03"),
        ("Kofi, fix the gate by Friday", "no, the 20th", "2026-12-20"),
    ],
)
def test_a_day_of_the_month_said_alone_is_the_deadlines_month(
    source: str, text: str, deadline: str
) -> None:
    got = changed(source, text)
    assert got is not None and got.deadline == deadline


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        # A question that offers one slot is that change (a typed probe:
        # "can it be Saturday instead?" was asked again).
        ("can it be Saturday instead?", "deadline", "2026-12-12"),
        ("how about Saturday?", "deadline", "2026-12-12"),
        ("can it wait till Monday?", "deadline", "2026-12-07"),
        ("could that be moved to Monday please", "deadline", "2026-12-07"),
        ("would Thursday work?", "deadline", "2026-12-10"),
        ("is Thursday ok?", "deadline", "2026-12-10"),
        ("will Monday do?", "deadline", "2026-12-07"),
        ("how about Zuri?", "agent", "Zuri"),
        ("would Zuri be better?", "agent", "Zuri"),
        ("could it be Zuri instead?", "agent", "Zuri"),
        ("can it be urgent?", "priority", 90),
        ("do it the day after tomorrow", "deadline", "2026-12-07"),
        ("the day after tomorrow", "deadline", "2026-12-07"),
    ],
)
def test_a_question_offering_one_slot_changes_it(text: str, field: str, value: object) -> None:
    got = changed("Kofi, fix the gate by Friday", text)
    assert got is not None, text
    assert getattr(got, field) == value


@pytest.mark.parametrize(
    "text",
    ["will it be done by Monday?", "is Zuri free?", "what about the fence?", "is it done?",
     "is Zuri ok?", "would Kofi do?",
     "the end of the fence"],
)  # fmt: skip
def test_a_question_about_the_work_is_no_change(text: str) -> None:
    assert changed("Kofi, fix the gate by Friday", text) is None


def test_a_part_of_the_day_said_alone_keeps_the_drafts_own_day() -> None:
    # A fourth typed probe: Sunday's visit, "in the afternoon", moved to today.
    # It was then no change; since the twenty-fifth session, Sunday afternoon
    # (tests/runtime/test_conversation_seventeenth_probe.py).
    for text in ("in the afternoon", "and in the evening please"):
        got = changed("Imani, visit grandma on Sunday", text)
        assert got is not None and got.deadline == "2026-12-06", got


def test_a_second_time_added_is_asked_not_put_in_the_first_ones_place() -> None:
    # "and tomorrow night" to tonight's guard replaced tonight (a probe).
    pending = parse("Tariq, guard the hens tonight")
    assert isinstance(pending, Draft)
    got = Reading(NOW, ROSTER, None).changed(
        "and tomorrow night", 1.0, None, Entry(pending.objective, pending.wording)
    )
    assert isinstance(got, Clarification) and "one deadline" in got.question
    moved = changed("Tariq, guard the hens tonight", "and make it tomorrow night")
    assert moved is not None and moved.deadline == "2026-12-06"


def test_every_day_said_as_a_change_leaves_no_deadline() -> None:
    # "every day actually" read "will always look into the hives by tomorrow".
    got = changed("Zuri, check the hives tomorrow", "every day actually")
    assert got is not None and got.autonomy == "standing-intent" and got.deadline is None
    assert not [c for c in got.constraints if c.kind == "time"]


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        # A fourth typed probe (2026-12-06): each asked again, or no change.
        ("it's urgent btw", "priority", 90),
        ("nah it can wait", "priority", 25),
        ("yep, by thursday though", "deadline", "2026-12-10"),
        ("actually tomorrow is better", "deadline", "2026-12-06"),
        ("no later than Thursday actually", "deadline", "2026-12-10"),
        ("could he do it by wednesday", "deadline", "2026-12-09"),
        ("not Kofi, Zuri", "agent", "Zuri"),
        ("a day earlier", "deadline", "2026-12-10"),
        ("actually the day after", "deadline", "2026-12-12"),
        ("two days later", "deadline", "2026-12-13"),
    ],
)
def test_a_fourth_probes_changes(text: str, field: str, value: object) -> None:
    got = changed("Kofi, fix the gate by Friday", text)
    assert got is not None, text
    assert getattr(got, field) == value


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("tell him not to touch the wiring", "Do not touch the wiring"),
        ("and he mustn't touch the wiring", "Do not touch the wiring"),
        ("and stay off the roof", "Stay off the roof"),
    ],
)
def test_a_ban_said_of_the_agent_is_added(text: str, line: str) -> None:
    got = changed(GATE, text)
    assert got is not None and line in [f.text for f in got.forbidden_lines]


def test_not_another_agent_is_asked() -> None:
    # "not Zuri, Tariq" to Kofi's draft: the one taken back is not the draft's
    pending = parse(GATE)
    assert isinstance(pending, Draft)
    got = Reading(NOW, ROSTER, None).changed(
        "not Zuri, Tariq", 1.0, None, Entry(pending.objective, pending.wording)
    )
    assert isinstance(got, Clarification)


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        # A reason said beside the change (a fourth typed probe: asked again).
        ("Kofi's busy, get Zuri to do it", "agent", "Zuri"),
        ("let Tariq do it, Kofi's away", "agent", "Tariq"),
        ("make it Saturday, she's busy sunday", "deadline", "2026-12-12"),
        ("Friday's no good, Monday", "deadline", "2026-12-07"),
        ("have Imani do it", "agent", "Imani"),
    ],
)
def test_a_change_said_with_its_reason(text: str, field: str, value: object) -> None:
    got = changed("Kofi, fix the gate by Friday", text)
    assert got is not None, text
    assert getattr(got, field) == value


def test_a_reason_alone_is_no_change() -> None:
    assert changed("Kofi, fix the gate by Friday", "Kofi's busy") is None


@pytest.mark.parametrize(
    ("source", "text", "said"),
    [
        ("Imani, visit grandma", "every sunday", "every sunday"),
        ("Kofi, check the tyre pressure", "once a week", "once a week"),
    ],
)
def test_a_repeat_said_next_is_read_back(source: str, text: str, said: str) -> None:
    """A typed conversation probe: "…will always befriend grandma", the
    Sunday gone from the read-back (a first turn keeps it)."""
    pending = parse(source)
    assert isinstance(pending, Draft)
    got = Reading(NOW, ROSTER, None).changed(
        text, 1.0, None, Entry(pending.objective, pending.wording)
    )
    assert isinstance(got, Draft) and got.objective.autonomy == "standing-intent"
    assert said in got.summary


@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        ("they need it done by Thursday", "2026-12-10"),
        ("give him till Monday", "2026-12-07"),
        ("tomorrow's fine, ta", "2026-12-06"),
        ("u can do it by weds", "2026-12-09"),
        ("shud be done by fri", "2026-12-11"),
        ("nah tmrw", "2026-12-06"),
    ],
)
def test_a_time_said_with_words_that_say_nothing_else_is_the_change(
    text: str, deadline: str
) -> None:
    """A typed conversation probe: each was "I didn't change anything"."""
    got = changed(GATE, text)
    assert got is not None and got.deadline == deadline, text


@pytest.mark.parametrize(
    "text",
    ["Tariq is away Friday", "not by Friday", "I'm out Friday", "Zuri has Monday off"],
)
def test_a_time_said_with_other_words_is_no_change(text: str) -> None:
    assert changed(GATE, text) is None, text
