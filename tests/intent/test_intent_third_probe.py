"""Words from the third round of probes (2026-12-06; none from the
understanding corpus): a typed probe of 609 new commands and 150
conversations, and a spoken probe on five new renders. Months, weeks of a
month, days counted from other days, times that only say which one, what is
said not to be needed, priorities and hands said negated, new verbs and
replies. Each was dropped without a word, read into a place, or drafted
wrong before.
"""

from __future__ import annotations

import datetime as dt

import intent_factories as factories
import pytest

from vac.intent import Clarify, Draft, default_roster

NOW = dt.datetime(2026, 12, 7, 14, 10, tzinfo=dt.UTC)  # a Monday afternoon
ROSTER = default_roster()


def draft(text: str, now: dt.datetime = NOW) -> Draft:
    got: Draft | Clarify = factories.understood(text, now=now, roster=ROSTER)
    assert isinstance(got, Draft), got
    return got


def clarify(text: str) -> Clarify:
    got: Draft | Clarify = factories.understood(text, now=NOW, roster=ROSTER)
    assert isinstance(got, Clarify), got
    return got


@pytest.mark.parametrize(
    ("text", "deadline", "said"),
    [
        # a month said as when: by its last day, read back with the date
        ("Kofi, fix the fence in January", "2027-01-31", "in January, by January 31 2027"),
        ("Kofi, fix the fence during january", "2027-01-31", "in January"),
        ("Kofi, fix the fence in jan", "2027-01-31", "in January"),
        ("Kofi, fix the fence in December", "2026-12-31", "in December, by December 31"),
        ("Kofi, fix the fence in May", "2027-05-31", "in May"),
        ("Kofi, fix the fence in the month of June", "2027-06-30", "in June"),
        # a week of a month: days 1-7, 8-14, 15-21, 22-28; the last ends the month
        ("Kofi, fix the gate in the second week of January", "2027-01-14", "second week of"),
        ("Kofi, fix the gate in the 2nd week of January", "2027-01-14", "second week of"),
        ("Kofi, fix the gate in the first week of next month", "2027-01-07", "first week"),
        ("Kofi, fix the gate in the last week of the month", "2026-12-31", "last week of"),
        ("Kofi, fix the gate during the final week of February", "2027-02-28", "last week"),
        # other words for times
        ("Kofi, fix the gate by first light", "2026-12-08", "first light"),
        ("Kofi, fix the gate at 8 sharp", "2026-12-07", "8 o'clock"),
        ("Kofi, fix the gate this arvo", "2026-12-07", "this afternoon"),
        ("Kofi, fix the gate by chrimbo", "2026-12-25", "Christmas"),
        ("Kofi, fix the gate by 20-12-2026", "2026-12-20", "December 20"),
        ("Kofi, fix the gate by 24-12-26", "2026-12-24", "December 24"),
    ],
)
def test_time_words(text: str, deadline: str, said: str) -> None:
    got = draft(text)
    assert got.objective.deadline == deadline
    assert said in got.summary


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, fix the gate by the 2nd week of January",  # was January 2
        "Kofi, fix the gate before the second week of January",
        "Kofi, fix the gate in the fifth week of January",
        "Kofi, fix the gate in the new year",  # was a place
        "Kofi, fix the gate early in the new year",
        "Kofi, fix the gate by 12-11-2026",  # 12 November or December 11?
    ],
)
def test_asked_never_dropped_or_guessed(text: str) -> None:
    got = clarify(text)
    assert got.reason == "unclear-deadline"


def test_a_week_of_this_month_gone_by_is_asked() -> None:
    later = NOW + dt.timedelta(days=2)
    text = "Kofi, fix the gate in the first week of this month"
    assert draft(text).objective.deadline == "2026-12-07"  # said on the 7th: today
    assert isinstance(factories.understood(text, now=later, roster=ROSTER), Clarify)


@pytest.mark.parametrize(
    ("text", "thing"),
    [
        ("Zuri, check the 6 pm cycle on the washer", "6 pm cycle"),
        ("Imani, help grandma with her 10 o'clock pills", "10 o'clock pills"),
        ("Tariq, fix the 5 o'clock alarm", "5 o'clock alarm"),
        ("Abeni, look into the 9 am meeting notes", "9 am meeting notes"),
        ("Tariq, check the 7:15 train times", "7:15 train times"),
    ],
)
def test_a_time_that_says_which_one_is_no_deadline(text: str, thing: str) -> None:
    got = draft(text)
    assert got.objective.deadline is None
    assert thing in got.objective.target.label


def test_a_time_with_a_cue_is_still_the_deadline() -> None:
    assert draft("Tariq, fix the gate by 7:15").objective.deadline == "2026-12-07"
    assert draft("Tariq, fix the gate at 5 o'clock").objective.deadline == "2026-12-07"


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, fix the lamp on Friday Street",
        "Kofi, fix the lamp by Monday Road",
        "Kofi, fix the lamp on Sunday Lane",
    ],
)
def test_a_street_named_for_a_day_is_no_deadline(text: str) -> None:
    assert draft(text).objective.deadline is None


@pytest.mark.parametrize(
    "text",
    [
        "Tariq, fix the bike the kids got on Tuesday",
        "Tariq, fix the lamp that broke on Monday",
        "Kofi, check the gate he fixed in January",
    ],
)
def test_when_it_happened_is_no_deadline(text: str) -> None:
    assert draft(text).objective.deadline is None


def test_the_deadline_after_when_it_happened_stays() -> None:
    got = draft("Kofi, fix the gate, it broke on Monday, by Friday")
    assert got.objective.deadline == "2026-12-11"


@pytest.mark.parametrize(
    ("text", "autonomy"),
    [
        ("Kofi, fix the bus, it's always late", "brief"),
        ("Kofi, fix the tap that always drips", "brief"),
        ("Kofi, guard the gate, it's always open", "brief"),
        ("Kofi, fix the gate as always", "brief"),
        ("Kofi, make sure the gate is always locked", "standing-intent"),
        ("Kofi, make sure it's always locked", "standing-intent"),
        ("Kofi, protect the hens always", "standing-intent"),
        ("Kofi, always protect the hens", "standing-intent"),
    ],
)
def test_always_that_describes_is_no_standing_order(text: str, autonomy: str) -> None:
    assert draft(text).objective.autonomy == autonomy


def test_the_thing_goes_on_past_always_that_describes() -> None:
    assert draft("Kofi, fix the tap that always drips").objective.target.label == (
        "Tap that always drips"
    )


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, fix the gate, it doesn't need to be done right away",  # was urgent
        "Kofi, fix the gate, no need to do it immediately",
        "Kofi, fix the gate, it needn't be done asap",
    ],
)
def test_a_haste_said_not_to_be_needed_is_no_rush(text: str) -> None:
    assert draft(text).objective.priority == 25


def test_a_haste_after_a_comma_still_counts() -> None:
    got = draft("Kofi, fix the gate, you don't need to ask me, do it right away")
    assert got.objective.priority == 90
    assert got.objective.autonomy == "free"


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, fix the gate, it doesn't need to be done today",  # was due today
        "Kofi, fix the gate, it doesn't have to be today",
        "Kofi, fix the gate, you don't have to do it today",  # was also a boundary
    ],
)
def test_a_day_said_not_to_be_needed_is_asked(text: str) -> None:
    got = clarify(text)
    assert got.reason == "unclear-deadline"
    assert "t" in (got.heard_as or "")  # the words said, quoted back


def test_a_day_said_not_needed_and_another_said_takes_the_other() -> None:
    got = draft("Kofi, fix the gate, doesn't need to be done by Friday, next week is fine")
    assert got.objective.deadline == "2026-12-20"  # the end of next week


def _lines(text: str) -> list[str]:
    lines = draft(text).objective.forbidden_lines
    return [f.text for f in lines if "autonomy" not in f.text]  # the standing one


def test_need_not_is_no_boundary_but_dont_have_the_kids_is() -> None:
    assert _lines("Kofi, fix the gate, you don't have to do it alone") == []
    assert _lines("Kofi, fix the gate, don't have the kids near it") == [
        "Do not have the kids near it"
    ]


def test_a_date_said_with_next_year_is_that_years() -> None:
    got = draft("Kofi, fix the fence by 5 January next year")
    assert got.objective.deadline == "2027-01-05"  # was 2027-12-31, "…on the end of next year"
    assert "end of next year" not in got.summary
    assert draft("Kofi, fix the fence by December 20 this year").objective.deadline == (
        "2026-12-20"
    )


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, fix the fence by December 1, 2026",  # gone: it was drafted so
        "Kofi, fix the fence by January 5th this year",
    ],
)
def test_a_date_with_its_year_already_gone_is_asked(text: str) -> None:
    assert clarify(text).reason == "unclear-deadline"


@pytest.mark.parametrize(
    ("text", "priority"),
    [
        ("Kofi, fix the gate, this isn't a priority right now", 25),  # was 90
        ("Kofi, fix the gate, it's not urgent right now", 25),
        ("Kofi, fix the gate, it's not important right now", 25),
        ("Kofi, fix the gate, not urgent, do it right now", 90),  # past a comma: said again
        ("Kofi, fix the gate, last priority", 25),  # was 78
        ("Kofi, fix the gate, least priority", 25),
        ("Kofi, fix the gate, moderately urgent", 78),  # was 90
        ("Kofi, fix the gate, chop chop", 90),  # was 55
        ("Kofi, fix the gate, if you're not too busy", 25),
    ],
)
def test_a_third_probes_priorities(text: str, priority: int) -> None:
    assert draft(text).objective.priority == priority


@pytest.mark.parametrize(
    ("text", "autonomy"),
    [
        ("Kofi, fix the gate, it's not up to you", "direct-tether"),  # was free
        ("Kofi, fix the gate, not your call", "direct-tether"),
        ("Kofi, fix the gate, don't use your judgement, ask me", "direct-tether"),
        ("Kofi, fix the gate, but don't just do it", "direct-tether"),  # was a boundary
        ("Kofi, fix the gate, don't bother asking", "free"),  # was a boundary
        ("Kofi, fix the gate, you don't have to ask", "free"),
        ("Kofi, fix the gate, I don't need to approve it", "free"),
        ("Kofi, fix the gate, do it your own way", "free"),
    ],
)
def test_a_third_probes_hands(text: str, autonomy: str) -> None:
    got = draft(text)
    assert got.objective.autonomy == autonomy
    assert not [f for f in got.objective.forbidden_lines if "autonomy" not in f.text]


@pytest.mark.parametrize(
    ("text", "deadline", "said"),
    [
        # a day counted from another (it was the other, or left in the thing)
        ("Kofi, fix the gate the day before Christmas", "2026-12-24", "the day before Christmas"),
        ("Kofi, fix the gate the day after Boxing Day", "2026-12-27", "December 27"),
        ("Kofi, fix the gate two days before the 20th", "2026-12-18", "December 18"),
        ("Kofi, fix the gate the night before Friday", "2026-12-10", "December 10"),
        ("Kofi, fix the gate the day after tomorrow", "2026-12-09", "the day after tomorrow"),
        # weeks on, said other ways
        ("Kofi, fix the gate by Friday after next", "2026-12-25", "the Friday after next"),
        ("Kofi, fix the gate a fortnight on Friday", "2026-12-25", "a fortnight on Friday"),
        # a weekday of a month; a week by its number; a month with its year
        ("Kofi, fix the gate on the first Monday of January", "2027-01-04", "first Monday"),
        ("Kofi, fix the gate by the last Friday of the month", "2026-12-25", "last Friday"),
        ("Kofi, fix the gate in week 2 of January", "2027-01-14", "second week of January"),
        ("Kofi, fix the fence in January 2028", "2028-01-31", "in January 2028"),
        # a day and its alternative: by the later one
        ("Kofi, fix the gate on Wednesday or Thursday", "2026-12-10", "Wednesday or Thursday"),
        ("Kofi, fix the gate today or tomorrow", "2026-12-08", "today or tomorrow"),
        ("Kofi, fix the fence in January or February", "2027-02-28", "in January or February"),
    ],
)
def test_days_said_from_other_days(text: str, deadline: str, said: str) -> None:
    got = draft(text)
    assert got.objective.deadline == deadline
    assert said in got.summary


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, fix the gate by Easter Monday",  # was the coming Monday
        "Kofi, fix the gate by Good Friday",
        "Kofi, fix the gate by Black Friday",
        "Kofi, fix the gate before Super Bowl Sunday",
        "Kofi, fix the gate the week before Christmas",  # which day of it?
        "Kofi, fix the gate on the fifth Monday of February",
        "Kofi, fix the fence in January 2020",
        "Kofi, fix the gate any day but Tuesday",  # was due Tuesday
        "Kofi, fix the gate no earlier than Friday",
        "Kofi, fix the gate Friday at the earliest",
        "Kofi, fix the gate any day other than Tuesday",
    ],
)
def test_days_asked_about(text: str) -> None:
    assert clarify(text).reason == "unclear-deadline"


def test_a_feast_word_said_as_a_thing_is_no_question() -> None:
    assert draft("Kofi, fix the gate, it's a good Friday job").objective.deadline is None


def test_the_day_not_due_and_the_day_due() -> None:
    got = draft("Kofi, fix the gate any day but Tuesday, by Friday")
    assert got.objective.deadline == "2026-12-11"


@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        ("Kofi, fix the gate by 12-20", "2026-12-20"),  # was today's 12:20
        ("Kofi, fix the gate by 24-12", "2026-12-24"),
        ("Kofi, fix the gate by 12.12.2026", "2026-12-12"),  # was today's 12:12
        ("Kofi, help gran on 12/12", "2026-12-12"),  # both readings are one day
        ("Kofi, fix the gate in 3-4 days", "2026-12-11"),  # was dropped
        ("Kofi, fix the gate in 3 to 4 days", "2026-12-11"),
        ("Kofi, fix the gate in two or three days", "2026-12-10"),
        ("Kofi, fix the gate Tues 10:30", "2026-12-08"),  # was today's 10:30
    ],
)
def test_dates_and_spans_written_short(text: str, deadline: str) -> None:
    assert draft(text).objective.deadline == deadline


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, fix the clock that's stuck at 3",  # was today's 3 o'clock
        "Kofi, fix the clock, it's stuck on 12",
        "Kofi, look into the noise we heard at 3am",
        "Kofi, fix the door that slammed at midnight",
    ],
)
def test_when_it_happened_at_an_hour_is_no_deadline(text: str) -> None:
    assert draft(text).objective.deadline is None


def test_an_hour_said_as_when_is_still_the_deadline() -> None:
    assert draft("Kofi, fix the door at midnight").objective.deadline == "2026-12-07"


@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        ("Kofi, fix the gate, then check the boiler on Monday", None),  # was the gate's
        ("Kofi, fix the fence and Zuri, check the hives tomorrow", None),
        ("Kofi, fix the gate by Friday, then check the boiler on Monday", "2026-12-11"),
    ],
)
def test_a_time_said_of_the_second_order_is_not_the_firsts(text: str, deadline: str | None) -> None:
    got = draft(text)
    assert got.objective.deadline == deadline
    assert "one thing at a time" in got.summary


@pytest.mark.parametrize(
    ("text", "verb", "thing"),
    [
        ("Kofi, glue the chair leg back on", "Repair", "Chair leg"),  # no verb, typed too
        ("Tariq, keep me informed about the river level", "Report", "River level"),
        ("Zuri, send me an update about the hens", "Report", "Hens"),
        ("Abeni, pay a visit to Mrs Okafor", "Befriend", "Mrs Okafor"),  # "What should…?"
    ],
)
def test_verbs_people_use(text: str, verb: str, thing: str) -> None:
    got = draft(text)
    assert (got.objective.verb, got.objective.target.label) == (verb, thing)


def test_back_is_still_a_thing_after_the() -> None:
    assert draft("Kofi, fix the back").objective.target.label == "Back"


@pytest.mark.parametrize(
    "text", ["alright then", "all right then", "sounds good to me", "right, go on then"]
)
def test_yes_said_other_ways(text: str) -> None:
    from vac.intent import classify_reply

    assert classify_reply(text) == "confirm"


def test_may_after_a_subject_is_no_month() -> None:
    """tiny.en wrote "check with me first" as "check we may first": it was May 1."""
    got = factories.understood("Kofi, check the shed, we may first.", now=NOW, roster=ROSTER)
    assert not isinstance(got, Draft) or got.objective.deadline is None
    assert draft("Kofi, check the shed by May first").objective.deadline == "2027-05-01"


@pytest.mark.parametrize(
    "text",
    [
        "Tariq, guard the barn day and night",  # was "the barn day", brief
        "Tariq, guard the barn 24/7",
        "Tariq, guard the barn at all times",  # the words were dropped
        "Tariq, guard the barn round the clock",
        "Tariq, guard the barn until further notice",
    ],
)
def test_always_said_other_ways_is_a_standing_order(text: str) -> None:
    assert draft(text).objective.autonomy == "standing-intent"


def test_a_lasting_fix_is_no_standing_order() -> None:
    assert draft("Tariq, fix the gate for good").objective.autonomy == "brief"


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("forget I said anything", "reject"),  # no reply before
        ("leave it for now", "reject"),
        ("actually don't worry about it", "reject"),
        ("don't worry about the ladder", None),
    ],
)
def test_no_said_other_ways(text: str, kind: str | None) -> None:
    from vac.intent import classify_reply

    assert classify_reply(text) == kind


@pytest.mark.parametrize(
    ("text", "deadline", "said"),
    [
        ("Kofi, fix the gate in late January", "2027-01-31", "the end of January"),
        ("Kofi, fix the gate in mid January", "2027-01-15", "mid-January"),
        ("Kofi, fix the gate in the middle of January", "2027-01-15", "mid-January"),  # a place
        ("Kofi, fix the gate this December", "2026-12-31", "this December"),  # in the thing
        ("Kofi, fix the gate next January", "2027-01-31", "next January"),
        ("Kofi, fix the gate by last light", "2026-12-07", "last light"),  # dropped
        ("Kofi, fix the gate at the crack of dawn", "2026-12-08", "dawn"),  # a place
        ("Kofi, fix the gate by chrissy", "2026-12-25", "Christmas"),
        ("Kofi, fix the gate by Hogmanay", "2026-12-31", "Hogmanay"),
        ("Kofi, fix the gate by Guy Fawkes", "2027-11-05", "Bonfire Night"),
        ("Kofi, fix the gate by 18h00", "2026-12-07", "18:00"),
        ("Kofi, fix the gate before brekkie", "2026-12-08", "breakfast"),
        ("Kofi, fix the gate in time for Christmas", "2026-12-25", "by Christmas"),
    ],
)
def test_silent_drops_of_the_third_probe(text: str, deadline: str, said: str) -> None:
    got = draft(text)
    assert got.objective.deadline == deadline
    assert said in got.summary


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, fix the gate in early February",  # which day?
        "Kofi, fix the gate in the spring",  # was a place
        "Kofi, fix the gate at the start of the new year",
    ],
)
def test_vague_parts_are_asked(text: str) -> None:
    assert clarify(text).reason == "unclear-deadline"


def test_this_may_is_no_month() -> None:
    assert draft("Kofi, fix the gate, this may hurt").objective.deadline is None
    assert draft("Kofi, fix the gate soonish").objective.priority == 78


@pytest.mark.parametrize(
    "text", ["Imani and Abeni went to the market", "Kofi and Zuri fixed the gate yesterday"]
)
def test_news_of_two_people_is_no_question_of_whom(text: str) -> None:
    """A spoken probe: "One agent at a time, please: should Imani or Abeni do it?"."""
    got = clarify(text)
    assert got.reason != "uncertain-agent"


def test_two_names_asked_to_act_are_still_asked_whom() -> None:
    assert clarify("Kofi and Zuri, fix the gate").reason == "uncertain-agent"


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        ("Kofi mate can ya fix the dunny door this arvo", "Kofi"),  # asked who
        ("oi Tariq, watch the ute tonight", "Tariq"),
        ("hey Kofi mate can you fix the door", "Kofi"),
        ("Kofi can ya fix the door", "Kofi"),
    ],
)
def test_the_agent_addressed_casually(text: str, agent: str) -> None:
    assert draft(text).objective.agent == agent


def test_a_month_and_its_day() -> None:
    assert draft("Kofi, fix the gate in January, by the 10th").objective.deadline == "2027-01-10"
    got = draft("Kofi, fix the gate in January, on the 3rd floor")  # a floor, not a day
    assert got.objective.deadline == "2027-01-31"
    assert clarify("Kofi, fix the gate in December, by the 2nd").reason == "unclear-deadline"


# A review of the change (2026-12-06): rules that misfired on ordinary sentences.


@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        ("Kofi, fix the cracked window tomorrow", "2026-12-08"),  # a past word before a thing
        ("Kofi, fix the stuck gate on Friday", "2026-12-11"),
        ("Kofi, look for the lost dog today", "2026-12-07"),
        ("Kofi, fix the frozen pipe in January", "2027-01-31"),
    ],
)
def test_a_past_word_that_describes_the_thing_keeps_the_deadline(text: str, deadline: str) -> None:
    assert draft(text).objective.deadline == deadline


@pytest.mark.parametrize(
    "text",
    ["Kofi, help April or June", "Kofi, fix the gate, April or June can help"],
)
def test_names_that_are_months_are_no_deadline(text: str) -> None:
    assert draft(text).objective.deadline is None


@pytest.mark.parametrize(
    ("text", "verb"),
    [
        ("Kofi, get some glue for the chair", None),  # a thing, not a Repair
        ("Kofi, use glue to fix the chair", "Repair"),
        ("Kofi, glue it back together", "Repair"),
    ],
)
def test_glue_is_a_verb_only_before_what_it_acts_on(text: str, verb: str | None) -> None:
    got = factories.understood(text, now=NOW, roster=ROSTER)
    # "glue it back together" is asked what to repair (since the sixteenth
    # session: it was "Kofi will repair it back together")
    asked = isinstance(got, Clarify) and got.question == "What should Kofi repair?"
    assert (got.objective.verb if isinstance(got, Draft) else "Repair" if asked else None) == verb


@pytest.mark.parametrize(
    ("text", "thing"),
    [("Kofi, fix the seat back", "Seat back"), ("Kofi, fix the shed out back", "Shed out back")],
)
def test_back_stays_in_the_thing(text: str, thing: str) -> None:
    assert draft(text).objective.target.label == thing


@pytest.mark.parametrize(
    ("text", "priority"),
    [
        ("Kofi, fix the gate, it's not a matter of life or death", 25),  # was 90
        ("Kofi, check the gate on the double doors", 55),
        ("Kofi, fix the gate, milk is first on the list", 55),
        ("Kofi, fix the gate, not urgent, asap", 90),  # said again after a comma
        ("Kofi, fix the gate no need to wait do it urgently", 90),  # was 25
    ],
)
def test_haste_words_in_a_review(text: str, priority: int) -> None:
    assert draft(text).objective.priority == priority


@pytest.mark.parametrize(
    ("text", "autonomy"),
    [
        ("Kofi, fix the pump, it's been running day and night", "brief"),  # was standing
        ("Kofi, check the shop, it is closed until further notice", "brief"),
        ("Tariq, make sure the gate is locked at all times", "standing-intent"),
        ("Kofi, fix the gate, don't bother asking Zuri", "brief"),  # was free
        ("Kofi, fix the gate, don't just do it halfway", "brief"),  # was a tether
    ],
)
def test_hands_and_repeats_in_a_review(text: str, autonomy: str) -> None:
    assert draft(text).objective.autonomy == autonomy


def test_a_free_hand_said_of_someone_else_is_a_boundary_again() -> None:
    assert _lines("Kofi, fix the gate, don't bother asking Zuri") == ["Do not bother asking Zuri"]


@pytest.mark.parametrize(
    "text",
    ["Kofi, fix the gate 20 days before Christmas", "Kofi, fix the gate in time for the party"],
)
def test_asked_in_a_review(text: str) -> None:
    assert clarify(text).reason == "unclear-deadline"


def test_a_short_weekday_after_a_comma_before_its_hour() -> None:
    assert draft("Kofi, fix the gate, Tues 10:30").objective.deadline == "2026-12-08"


@pytest.mark.parametrize(
    ("text", "autonomy"),
    [
        ("Kofi, fix the gate, the kids use it every day", "brief"),  # was standing
        ("Tariq, guard the barn, the foxes come every night", "brief"),
        ("Kofi, fix the gate we use every morning", "brief"),
        ("Kofi, fix the clock that chimes every hour", "brief"),
        ("Kofi, check the hens every day", "standing-intent"),
        ("Kofi, the hens need checking every day", "standing-intent"),
        ("Kofi, check that gate every day", "standing-intent"),
        ("I want you to check the hens every day, Kofi", "standing-intent"),
    ],
)
def test_a_habit_of_the_thing_is_no_standing_order(text: str, autonomy: str) -> None:
    assert draft(text).objective.autonomy == autonomy


def test_a_time_after_a_second_thing_is_the_drafts() -> None:
    """Only a second order keeps its time: "fix the gate and the fence
    tomorrow" is due tomorrow (a re-read: it had lost the deadline)."""
    got = draft("Kofi, fix the gate and the fence tomorrow")
    assert got.objective.deadline == "2026-12-08"
    assert "the fence" in got.summary  # named, not dropped


def test_a_second_thing_after_the_time_is_named() -> None:
    got = draft("Kofi, fix the gate tomorrow and the fence")
    assert got.objective.deadline == "2026-12-08"
    assert '"the fence" is not in this draft' in got.summary


def test_a_re_read_of_probe_sentences() -> None:
    """Every earlier probe's first turns read by the code before and after
    this change (1,757 sentences): the changes that were no improvement."""
    assert draft("Abeni, visit the couple at 12 Friday Street").objective.deadline is None
    got = draft("Kofi, fix the gate when you're back on Thursday")
    assert "back" in got.objective.target.label and got.objective.deadline == "2026-12-10"
    assert draft("Kofi, fix the gate, you don't need to ask").objective.autonomy == "free"
