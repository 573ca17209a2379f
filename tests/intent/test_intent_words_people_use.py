"""Time, priority and hand words from a typed probe of new sentences
(2026-12-06; none from the understanding corpus): each was dropped
silently, misread, or read into the target or the place before."""

from __future__ import annotations

import datetime as dt
import time

import intent_factories as factories
import pytest

from vac.intent import Clarify, Draft, default_roster

NOW = dt.datetime(2026, 12, 7, 14, 10, tzinfo=dt.UTC)  # a Monday afternoon
ROSTER = default_roster()


def draft(text: str) -> Draft:
    got: Draft | Clarify = factories.understood(text, now=NOW, roster=ROSTER)
    assert isinstance(got, Draft), got
    return got


@pytest.mark.parametrize(
    ("text", "deadline", "said"),
    [
        # a hedged or written-short span
        ("Kofi, fix the gate in like 2 hrs", "2026-12-07", "in two hours"),
        ("Kofi, fix the gate in about two hours", "2026-12-07", "in two hours"),
        ("Kofi, fix the gate within roughly a week", "2026-12-14", "within a week"),
        ("Kofi, fix the gate in 2h", "2026-12-07", "in two hours"),
        # o'clock written apart
        ("Kofi, fix the gate by 4 o clock", "2026-12-07", "by 4 o'clock"),
        ("Kofi, fix the gate by 4 oclock", "2026-12-07", "by 4 o'clock"),
        # the start of a week, month or year (it was its end, read back twice)
        ("Kofi, fix the gate by the start of next week", "2026-12-14", "the start of next week"),
        ("Kofi, fix the gate by the beginning of next month", "2027-01-01", "next month"),
        ("Kofi, fix the gate by the start of next year", "2027-01-01", "next year"),
        # midweek (it was dropped)
        ("Kofi, fix the gate by midweek", "2026-12-09", "the middle of the week"),
        ("Kofi, fix the gate by mid week", "2026-12-09", "the middle of the week"),
        ("Kofi, fix the gate by mid-week", "2026-12-09", "the middle of the week"),
    ],
)
def test_time_words(text: str, deadline: str, said: str) -> None:
    got = draft(text)
    assert got.objective.deadline == deadline
    assert said in got.summary
    assert "by the end" not in got.summary


def test_mid_month_is_still_its_fifteenth() -> None:
    assert draft("Kofi, fix the gate by mid-December").objective.deadline == "2026-12-15"


def test_the_start_of_a_week_gone_by_is_asked() -> None:
    tuesday = NOW + dt.timedelta(days=1)
    got = factories.understood(
        "Kofi, fix the gate by the start of the week", now=tuesday, roster=ROSTER
    )
    assert isinstance(got, Clarify) and got.reason == "unclear-deadline", got


@pytest.mark.parametrize(
    ("text", "priority"),
    [
        ("Kofi, fix the gate, medium priority", 55),
        ("Kofi, fix the gate, normal priority", 55),
        ("Kofi, fix the gate, urgent, medium priority", 90),
        ("Kofi, fix the gate, priority one", 90),
        ("Kofi, fix the gate shortly", 78),
        ("Kofi, fix the gate in a bit", 78),
        ("Kofi, fix the gate in a little while", 78),
    ],
)
def test_priority_words(text: str, priority: int) -> None:
    got = draft(text)
    assert got.objective.priority == priority
    assert got.objective.target.label == "Gate"  # "shortly" was in it
    assert not [c for c in got.objective.constraints if c.kind == "location"]  # "in a little"


@pytest.mark.parametrize(
    ("text", "autonomy"),
    [
        ("Kofi, fix the gate, just tell me first", "direct-tether"),
        ("Kofi, fix the gate, let me know before you start", "direct-tether"),
        ("Kofi, fix the gate, ask first", "direct-tether"),
        ("Kofi, fix the gate, check in first", "direct-tether"),
        ("Kofi, fix the gate, don't ask me just do it", "free"),
        ("Kofi, fix the gate, go ahead without asking", "free"),
    ],
)
def test_hand_words(text: str, autonomy: str) -> None:
    got = draft(text)
    assert got.objective.autonomy == autonomy
    assert got.objective.deadline is None  # "before you start" was asked as a time
    assert "ask" not in " ".join(f.text for f in got.objective.forbidden_lines)


def test_check_first_is_still_the_verb() -> None:
    # "check first" as a hand took the verb from "check first whether…".
    got = draft("Kofi, check first whether the gate is locked")
    assert (got.objective.verb, got.objective.autonomy) == ("Investigate", "brief")


@pytest.mark.parametrize(
    ("text", "agent", "label"),
    [
        # The trouble told with a negation, then the order (it was asked what to mend).
        ("Kofi, the back gate won't close. Can you mend it?", "Kofi", "Back gate"),
        ("Kofi, the car won't start, can you check it?", "Kofi", "Car"),
        ("the kids can't sleep, Imani, can you help them?", "Imani", "Kids"),
        ("Imani, the dog looks poorly, can you take care of him?", "Imani", "Dog"),
        # "to" after "happened" is the thing's (it was cut: "what happened").
        ("Tell Kofi to find out what happened to the spare keys", "Kofi", "happened to the spare"),
        # A name said last after "go …" (it was the default agent's, the name in the thing).
        ("go fix the gate Kofi", "Kofi", "Gate"),
        ("just check the well Zuri", "Zuri", "Well"),
    ],
)
def test_a_spoken_probes_sentences_typed(text: str, agent: str, label: str) -> None:
    got = draft(text)
    assert got.objective.agent == agent
    assert label in got.objective.target.label


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, the gate won't shut, Zuri will fix it",  # someone else's: no order
        "Kofi, the gate won't shut, don't fix it",
        "Kofi, the gate won't shut, I will fix it",
    ],
)
def test_trouble_told_and_no_plain_order(text: str) -> None:
    got = factories.understood(text, now=NOW, roster=ROSTER)
    assert isinstance(got, Clarify), got


@pytest.mark.parametrize(
    "text",
    [
        "I'll go fix the gate later",
        "I'll go check the hives",
        "I'm going to go check the hives",
        "we'll go fix the fence tomorrow",
        "I could go check the hives",
        "I'll go and fix the gate",
    ],
)
def test_the_speakers_own_plan_with_go(text: str) -> None:
    # Each was the default agent's draft, nothing flagged.
    got = factories.understood(text, now=NOW, roster=ROSTER)
    assert isinstance(got, Clarify) and got.reason == "first-person", got


@pytest.mark.parametrize(
    "text",
    [
        "ask kofi to fix the gate " * 80,
        "no, " * 500,
        "Kofi, the gate is broken, fix it. " * 60,
        "a b c d e f g " * 150,
        "yesterday " * 200,
        # A review (2026-12-06): each cue's scan walked to the end (~150 ms).
        "no need to do it " * 120,
        "don't bother asking " * 100,
        "the day before the day before " * 70,
    ],
)
def test_a_long_text_is_read_in_linear_time(text: str) -> None:
    """An independent client's probe: a legal 2,000-character text.input
    took ~0.4-3 s to read, on the event loop every session shares (every
    cue tried at every word; a day's check read every word before it; a
    take-back walked back over every part before it). Now ~20-80 ms; the
    bound is loose (a slow CI machine), the old figures far over it. The
    better of two reads: a garbage collection or a busy host once took one
    read over the bound (0.31 s, in a full test run beside another)."""
    took_s = []
    for _ in range(2):
        t0 = time.perf_counter()
        factories.understood(text[:2000], now=NOW, roster=ROSTER)
        took_s.append(time.perf_counter() - t0)
    assert min(took_s) < 0.3, text[:20]


@pytest.mark.parametrize(
    ("text", "deadline", "said"),
    [
        # A clock time and a weekday written short: that day (it was today's hour).
        ("Zuri, check the boiler by 5 pm fri", "2026-12-11", "by 5 pm on Friday"),
        ("Zuri, check the boiler at 10am tues", "2026-12-08", "at 10 am on Tuesday"),
        ("Zuri, check the boiler by cob fri", "2026-12-11", "by the end of Friday"),
        # The hour said after a day is read back (it was dropped).
        ("Zuri, check the boiler by Friday 3 pm", "2026-12-11", "by Friday at 3 pm"),
        # A weekday with its date: read back with it.
        ("Zuri, check the boiler on Friday the 11th", "2026-12-11", "on Friday, December 11"),
        # Holidays (Christmas Eve written "xmas eve" was Christmas; the rest dropped).
        ("Kofi, fix the gate by xmas eve", "2026-12-24", "by Christmas Eve"),
        ("Kofi, fix the gate by st patrick's day", "2027-03-17", "by St Patrick's Day"),
        ("Kofi, fix the gate by valentines", "2027-02-14", "by Valentine's Day"),
        ("Kofi, fix the gate by bonfire night", "2027-11-05", "by Bonfire Night"),
        # Written short, 24-hour, minutes written "min" (all dropped).
        ("Kofi, fix the shower by eom", "2026-12-31", "by the end of the month"),
        ("Kofi, fix the shower by eow", "2026-12-13", "by the end of the week"),
        ("Kofi, fix the gate by month end", "2026-12-31", "by the end of the month"),
        ("Kofi, fix the light by 1700", "2026-12-07", "by 17:00"),
        ("Kofi, fix the light in 5 min", "2026-12-07", "in five minutes"),
        # A part of the day, narrowed or not (asked, or dropped).
        ("Kofi, fix the gate by late afternoon", "2026-12-07", "by late afternoon"),
        ("Kofi, fix the gate by afternoon", "2026-12-07", "by afternoon"),
        ("Kofi, fix the gate by mid-morning", "2026-12-08", "by tomorrow mid-morning"),
        # Typed one slip off (dropped)
        ("Kofi, fix the gate by fridya", "2026-12-11", "by Friday"),
        ("Kofi, fix the tv by decmber 20", "2026-12-20", "by December 20"),
        ("Kofi, fix the gate by tomorrw", "2026-12-08", "by tomorrow"),
        ("Kofi, fix the gate by the weeknd", "2026-12-12", "by the weekend"),
        # "at the latest" is no place (it was one, read back before the time)
        ("Kofi, fix the gate by tomorrow at the latest", "2026-12-08", "repair the gate by"),
    ],
)
def test_more_time_words(text: str, deadline: str, said: str) -> None:
    got = draft(text)
    assert got.objective.deadline == deadline
    assert said in got.summary
    assert not [c for c in got.objective.constraints if c.kind == "location"]


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, put up the tree on Wednesday the 10th",  # Wednesday is the 9th: which?
        "Zuri, check the boiler on Monday December 8",
        "Kofi, build the menorah stand by Hanukkah",  # its date moves: asked, not dropped
        "Zuri, check the boiler by diwali",
        "Kofi, fix the gate by 2030",  # the year, or 20:30?
    ],
)
def test_asked_not_dropped(text: str) -> None:
    got = factories.understood(text, now=NOW, roster=ROSTER)
    assert isinstance(got, Clarify) and got.reason == "unclear-deadline", got


@pytest.mark.parametrize(
    ("text", "priority", "autonomy"),
    [
        ("Kofi, fix the boiler, no need to run it by me", 55, "free"),  # was a tether
        ("Kofi, fix the boiler, you don't have to check with me", 55, "free"),  # a boundary
        ("Kofi, fix the boiler, don't bother checking with me", 55, "free"),
        ("Kofi, fix the boiler dont do anything w/o asking me", 55, "direct-tether"),
        ("Kofi, fix the boiler, ping me before you start", 55, "direct-tether"),  # a deadline
        ("Kofi, fix the gate, ask before buying anything", 55, "direct-tether"),
        ("Kofi, fix the gate, lowest priority", 25, "brief"),  # was 78
        ("Kofi, fix the gate, low prio", 25, "brief"),
        ("Kofi, fix the gate, no stress", 25, "brief"),
        ("Kofi, fix the gate as soon as you can", 90, "brief"),  # was 78
        ("Kofi, fix the leak its urgent", 90, "brief"),  # "Leak its urgent"
        ("Kofi, fix the gate urgnet", 90, "brief"),
    ],
)
def test_more_hand_and_priority_words(text: str, priority: int, autonomy: str) -> None:
    got = draft(text)
    assert (got.objective.priority, got.objective.autonomy) == (priority, autonomy)
    assert got.objective.deadline is None
    assert [f.text for f in got.objective.forbidden_lines] == ["Respect the agent's autonomy"]
    assert got.objective.target.label in ("Boiler", "Gate", "Leak")


@pytest.mark.parametrize(
    ("text", "deadline", "said", "label"),
    [
        # The hour's part of the day said (read back "by 8 o'clock", as good as 8 am).
        ("Kofi, fix the gate by 8 tonight", "2026-12-07", "by 8 pm", "Gate"),
        ("Kofi, fix the gate by 1 tonight", "2026-12-08", "by 1 am tomorrow", "Gate"),
        ("Kofi, fix the gate by 3 this afternoon", "2026-12-07", "by 3 pm", "Gate"),
        # A bare hour with its day after it (the hour was lost).
        ("Kofi, fix the gate at 6 on Saturday", "2026-12-12", "at 6 o'clock on Saturday", "Gate"),
        # Left in the thing before.
        (
            "Zuri, check the attic the weekend after next",
            "2026-12-26",
            "weekend after next",
            "Attic",
        ),
        ("Kofi, fix the gate fridayish", "2026-12-11", "by Friday", "Gate"),
        ("Zuri, check the attic late tonight", "2026-12-07", "tonight", "Attic"),
        ("Zuri, check the attic ideally by thursday", "2026-12-10", "by Thursday", "Attic"),
        ("Kofi, fix the gate any time before friday", "2026-12-11", "by Friday", "Gate"),
    ],
)
def test_hours_and_days_people_type(text: str, deadline: str, said: str, label: str) -> None:
    got = draft(text)
    assert (got.objective.deadline, got.objective.target.label) == (deadline, label)
    assert said in got.summary


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, fix the gate by 11 this morning",  # 14:10: gone (it was today)
        "Zuri, check the attic the following week",  # after what?
        "Zuri, check the attic the monday after",
        "Abeni, repair the washing machine before 20.12",  # 20:12, or December 20?
        "Kofi, fix the gate by 24.12.",  # it was 24:12, no time at all
    ],
)
def test_more_asked_not_guessed(text: str) -> None:
    got = factories.understood(text, now=NOW, roster=ROSTER)
    assert isinstance(got, Clarify) and got.reason == "unclear-deadline", got


@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        ("Kofi, fix the gate by 12/24", "2026-12-24"),  # only one reading: it was asked
        ("Kofi, fix the gate by 31/12", "2026-12-31"),
        ("Kofi, fix the gate by 24/12/2027", "2027-12-24"),
        ("Kofi, fix the gate by 1/13", "2027-01-13"),
    ],
)
def test_a_slash_date_only_one_reading_allows(text: str, deadline: str) -> None:
    assert draft(text).objective.deadline == deadline


@pytest.mark.parametrize("text", ["Kofi, fix the gate by 12/11", "Kofi, fix the gate by 31/2"])
def test_a_slash_date_either_way_or_none_is_asked(text: str) -> None:
    got = factories.understood(text, now=NOW, roster=ROSTER)
    assert isinstance(got, Clarify) and got.reason == "unclear-deadline", got


def test_a_take_back_after_many_parts_is_still_one() -> None:
    # A review: the walk back was capped at 12 parts, then the order was drafted.
    said = "Kofi, fix the gate, " + "no, " * 14 + "never mind"
    got = factories.understood(said, now=NOW, roster=ROSTER)
    assert isinstance(got, Clarify), got
    t0 = time.perf_counter()
    long_text = "Kofi, fix the gate, " + "no, " * 480 + "never mind"
    factories.understood(long_text, now=NOW, roster=ROSTER)
    # The walk back was quadratic (3 s); linear it takes ~60 ms here. A loose
    # bound: a fresh-clone CI run once took 0.41 s under load (the twenty-first session).
    assert time.perf_counter() - t0 < 1.5


@pytest.mark.parametrize(
    ("text", "autonomy", "line"),
    [
        # A review: a hand cue matched inside a longer sentence and lost the ban.
        ("Kofi, fix the gate, but don't ask me for money", "brief", "ask me for money"),
        ("Kofi, fix the gate, and feel free to ask me if you need anything", "brief", None),
    ],
)
def test_a_hand_cue_inside_a_longer_ban(text: str, autonomy: str, line: str | None) -> None:
    got = draft(text)
    assert got.objective.autonomy == autonomy
    lines = " ".join(f.text for f in got.objective.forbidden_lines)
    assert line is None or line in lines


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, check the pipe at 1500 mm",  # a review: "at 15:00"
        "Kofi, check the pump at 1200 rpm",
        "Kofi, protect the herd at 1800 feet",
    ],
)
def test_four_digits_with_a_unit_are_no_time(text: str) -> None:
    assert draft(text).objective.deadline is None


@pytest.mark.parametrize(
    ("text", "deadline", "said"),
    [
        ("Kofi, fix the gate in the morning of the 20th", "2026-12-20", "morning of December 20"),
        ("Kofi, fix the gate on the afternoon of Friday", "2026-12-11", "afternoon of Friday"),
        ("Kofi, fix the gate by next Friday the 18th", "2026-12-18", "December 18 —"),
    ],
)
def test_a_part_of_a_named_day(text: str, deadline: str, said: str) -> None:
    got = draft(text)
    assert got.objective.deadline == deadline and said in got.summary
    assert got.summary.count("December 18") <= 1


def test_a_bit_of_a_mess_is_no_haste() -> None:
    assert draft("Kofi, the gate is in a bit of a mess, fix it").objective.priority == 55
    assert draft("Kofi, check the train running late").objective.target.label == (
        "Train running late"
    )


@pytest.mark.parametrize(
    ("text", "said"),
    [
        # A weekday said bare before its hour: it was "Gate Friday" due today 5 pm.
        ("Kofi, fix the gate Friday 5pm", "by Friday at 5 pm"),
        ("Kofi, fix the gate monday noon", "by Monday, December 14 at noon"),
    ],
)
def test_a_bare_weekday_and_its_hour(text: str, said: str) -> None:
    got = draft(text)
    assert got.objective.target.label == "Gate" and said in got.summary


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, do you mind checking the hives?",
        "Hey Kofi, what do you mind checking the hives?",  # tiny.en's "would you mind"
    ],
)
def test_do_you_mind_doing_is_a_request(text: str) -> None:
    got = draft(text)
    assert (got.objective.agent, got.objective.verb) == ("Kofi", "Investigate")


@pytest.mark.parametrize(
    "text", ["Kofi, do you mind if I check the hives?", "Kofi, do you mind the noise?"]
)
def test_do_you_mind_otherwise_is_asked(text: str) -> None:
    assert isinstance(factories.understood(text, now=NOW, roster=ROSTER), Clarify)


@pytest.mark.parametrize(
    ("text", "priority", "autonomy"),
    [
        # A typed re-probe: each was 55 / brief, a boundary, or a question.
        ("Kofi, fix the gate, this is crucial", 90, "brief"),
        ("Kofi, fix the gate, priority 1", 90, "brief"),
        ("Kofi, fix the gate, not pressing", 25, "brief"),
        ("Kofi, fix the gate, mid priority", 55, "brief"),
        ("Kofi, fix the gate at your earliest convenience", 78, "brief"),
        ("Kofi, fix the gate, don't start till I say", 55, "direct-tether"),
        ("Kofi, fix the gate, show me first", 55, "direct-tether"),
        ("Kofi, fix the gate, no need to consult me", 55, "free"),
        ("Kofi, fix the gate, don't need to run it by me", 55, "free"),
        ("Kofi, fix the gate fri 5pm", 55, "brief"),
        # "…first thing" is when, not a hand (a review)
        ("Kofi, fix the gate and tell me first thing tomorrow", 55, "brief"),
    ],
)
def test_a_re_probes_words(text: str, priority: int, autonomy: str) -> None:
    got = draft(text)
    assert (got.objective.priority, got.objective.autonomy) == (priority, autonomy)
    assert got.objective.target.label == "Gate"
    assert not [c for c in got.objective.constraints if c.kind == "location"]


def test_a_count_of_minutes_in_intervals_is_no_deadline() -> None:
    assert draft("Kofi, fix the timer that beeps in 5 min intervals").objective.deadline is None


@pytest.mark.parametrize(
    "text",
    [
        # A typed re-probe: when it happened, or a word of the thing, set the order.
        "Kofi, fix the alarm that went off at 5",
        "Kofi, fix the heater that broke at 6",
        "Zuri, check the hives, they swarmed yesterday at 4",
    ],
)
def test_when_it_happened_is_no_deadline(text: str) -> None:
    assert draft(text).objective.deadline is None


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, fix the priority lane sign",
        "Kofi, look into the emergency exit light",
        "Kofi, find the important letter from the bank",
        "Kofi, fix the fast charger",
    ],
)
def test_a_haste_word_in_the_thing_is_no_priority(text: str) -> None:
    assert draft(text).objective.priority == 55


def test_a_haste_word_said_of_the_order_still_counts() -> None:
    assert draft("Kofi, fix the gate, it's a priority").objective.priority == 78
    assert draft("Kofi, fix the gate, this is urgent").objective.priority == 90
    assert draft("Kofi, fix the gate at 5").objective.deadline == "2026-12-07"


@pytest.mark.parametrize(
    "text",
    [
        # A review: a weekday before a count was the deadline, the thing cut.
        "Kofi, look into the gate, it sat 4 weeks broken",
        "Kofi, report on Black Friday 50 percent deals",
        "Kofi, report on the game Sunday 2 nil",
        "Kofi, fix the gate Friday 13",
    ],
)
def test_a_weekday_before_a_count_is_no_deadline(text: str) -> None:
    assert draft(text).objective.deadline is None


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, do you mind guard duty tonight?",  # a review: "Kofi will protect duty tonight"
        "Kofi, do you mind building work on Friday?",
        "Kofi, what do you mind fixing first, the gate or the fence?",
    ],
)
def test_do_you_mind_a_thing_is_asked(text: str) -> None:
    assert isinstance(factories.understood(text, now=NOW, roster=ROSTER), Clarify)


def test_check_with_me_first_thing_keeps_the_tether_and_no_urgency_is_no_ban() -> None:
    got = draft("Kofi, fix the gate, check with me first thing in the morning")
    assert got.objective.autonomy == "direct-tether"
    calm = draft("Kofi, fix the gate, no urgency")
    assert calm.objective.priority == 25
    assert [f.text for f in calm.objective.forbidden_lines] == ["Respect the agent's autonomy"]
    tree = draft("Kofi, look into the tree, it's pressing against the roof")
    assert tree.objective.priority == 55


@pytest.mark.parametrize(
    "text",
    [
        # A review: an hour written "5 p.m." (as Whisper writes it), "5 tonight",
        # "1700" or "5" said last after a bare weekday lost the day.
        "Kofi, fix the gate Friday 5 p.m.",
        "Kofi, fix the gate Friday 9 a.m.",
        "Kofi, fix the gate Friday 5 tonight",
        "Kofi, fix the gate Friday 1700",
        "Kofi, fix the gate Friday 5",
    ],
)
def test_a_bare_weekday_and_its_hour_written_otherwise(text: str) -> None:
    got = draft(text)
    assert (got.objective.deadline, got.objective.target.label) == ("2026-12-11", "Gate")


def test_a_haste_word_before_a_time_word_is_the_orders() -> None:
    assert draft("Kofi, fix the gate, my priority today").objective.priority == 78
    assert draft("Kofi, do you mind mapping the river?").objective.verb == "Map"
