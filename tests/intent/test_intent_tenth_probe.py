"""A tenth typed probe (2026-12-07, the eighteenth session; none from the
understanding corpus), and leftovers the seventeenth session's note named:
"help them with it" read the thing as "Them with" (the last "it" was cut as
if it were "fix the gate it's | a bit urgent")."""

from __future__ import annotations

import intent_factories as factories
import pytest

from vac.intent import Clarify, Draft, default_roster

NOW = factories.PROBE_NOW  # a Wednesday morning
ROSTER = default_roster()
run = factories.probe_run
draft = factories.probe_draft


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("Kofi, help them with it", "support them with it"),
        ("Kofi, help me with it", "support me with it"),
        ("Zuri, help Grandma with it", "support Grandma with it"),
    ],
)
def test_a_last_it_after_with_is_part_of_the_thing(text: str, said: str) -> None:
    assert said in draft(text).summary


def test_a_last_it_before_how_urgent_is_still_cut() -> None:
    got = draft("Kofi, fix the gate it's a bit urgent")
    assert got.objective.target.label == "Gate"


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, look at the boiler, which needs servicing every year",
        "Kofi, check the boiler which needs servicing every year",
        "Zuri, look after the goats that need milking every morning",
    ],
)
def test_a_repeat_said_of_what_the_thing_needs_is_no_standing_order(text: str) -> None:
    assert draft(text).objective.autonomy == "brief"


def test_a_thing_that_needs_doing_every_day_is_still_a_standing_order() -> None:
    assert draft("Kofi, the hens need checking every day").objective.autonomy == "standing-intent"


@pytest.mark.parametrize(
    "text",
    [
        "I was going to ask Kofi to fix the shelf, but I did it myself",
        "I was going to ask Kofi to fix the shelf but it's done now",
        "Kofi, fix the shelf, oh I did it myself",
        "Zuri, check the tyres. Actually, it's sorted.",
        "Kofi, look at the gate, but it's already been done",
    ],
)
def test_an_order_said_to_be_done_already_is_taken_back(text: str) -> None:
    got = run(text)
    assert isinstance(got, Clarify), got
    assert got.question.startswith("Okay, I won't pass that on.")


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, fix the shelf, I did it wrong",
        "Kofi, fix the shelf and tell me when it's done",
        "Kofi, fix the shelf. It's done?",
        "Kofi, fix the shelf, it's done when it's done",
        "Kofi, fix the shelf, make sure it's done",
        "Kofi, fix the shelf, but Zuri already did it",  # a report: the steward decides
    ],
)
def test_done_said_of_something_else_keeps_the_order(text: str) -> None:
    assert draft(text).objective.target.label == "Shelf"


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("Kofi, check the hens morning and evening", "morning and evening"),
        ("Kofi, check the hens morning and night", "morning and night"),
        ("Imani, visit Grandma mornings and evenings", "mornings and evenings"),
    ],
)
def test_morning_and_evening_after_the_thing_is_a_repeat(text: str, said: str) -> None:
    got = draft(text)
    assert got.objective.autonomy == "standing-intent"
    assert f"{said} — confirm?" in got.summary
    assert "morning" not in got.objective.target.label.lower()


@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        ("Kofi, check the hens tomorrow morning and evening", "2026-03-12"),
        ("Kofi, check the hens on Friday morning and night", "2026-03-13"),
        ("Kofi, fix the gate this morning and evening", "2026-03-11"),
    ],
)
def test_morning_and_evening_of_one_day_is_that_day(text: str, deadline: str) -> None:
    got = draft(text)
    assert got.objective.autonomy == "brief"
    assert (got.objective.deadline or "").startswith(deadline)


@pytest.mark.parametrize(
    ("text", "unknown"),
    [
        ("Bola, fix the kitchen blind.", "Bola"),
        ("Bola, could you fix the kitchen blind?", "Bola"),
        ("Chidi mate, build a shelf", "Chidi"),
        ("Hey Siri, check the oven", "Siri"),
        ("Get Esi to visit Grandma", "Esi"),
        ("Remind Yaw to check the hens", "Yaw"),
        ("Ask Kojo, not Kofi, to fix the shelf.", "Kojo"),
    ],
)
def test_a_name_no_one_has_is_asked_about_never_the_default(text: str, unknown: str) -> None:
    got = run(text)
    assert isinstance(got, Clarify), got
    assert got.reason == "unknown-agent"
    assert got.question.startswith(f"I don't know anyone called {unknown}.")


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        ("Honestly, fix the gate", "Abeni"),
        ("Guys, fix the gate", "Abeni"),
        ("Friday, fix the gate", "Abeni"),
        ("Quickly, fix the gate", "Abeni"),
        ("Honey, fix the gate", "Abeni"),
        ("Ask Zuri, not Kofi, to fix the shelf.", "Zuri"),
        ("Get Kofi to fix the blind", "Kofi"),
        ("Get the kids to help with the harvest", "Abeni"),
    ],
)
def test_openers_and_roster_names_are_no_unknown_name(text: str, agent: str) -> None:
    assert draft(text).objective.agent == agent


def test_spoken_a_first_word_before_a_comma_stays_the_evidences() -> None:
    text = "Jerry, sort out the lamp"
    heard = factories.heard_words(text, {})
    got = factories.understood(text, heard, now=NOW, roster=ROSTER)
    assert isinstance(got, Draft), got
    assert "agent" in got.uncertain


@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        (
            "I've had three parcels go missing this month, Tariq, "
            "keep watch on the front step tomorrow.",
            "2026-03-12",
        ),
        ("Okay, the washing line snapped again this morning, Kofi, put up a new one.", None),
        ("The baby monitor keeps cutting out at night, Kofi, can you sort out the monitor?", None),
        # News of what is to come keeps its time when the order has none.
        ("Tunde has his test on Friday, so can you help him practise", "2026-03-13"),
        ("I was wondering if tomorrow Kofi could fix the gate", "2026-03-12"),
        ("Kofi, I'm so tired today. Please fix the bedroom door.", "2026-03-11"),
        ("First thing tomorrow, Kofi, fix the gate", "2026-03-12"),
        # The order points back to the news's time.
        (
            "Right, so we've got people coming Saturday and the patio light's gone, "
            "Kofi, can you fix it before then?",
            "2026-03-14",
        ),
        (
            "We've got the inspection on the fifteenth so, Kofi, repair the banister before then.",
            "2026-03-15",
        ),
    ],
)
def test_the_time_of_news_before_the_order_is_no_deadline(text: str, deadline: str | None) -> None:
    got = draft(text).objective.deadline
    assert (got[:10] if got else None) == deadline


def test_when_said_before_the_order_is_its_condition() -> None:
    # Asked when until the twenty-first session ("you've" was no subject):
    # a thirteenth typed probe counted "after you've had lunch, fix…" asked-when-clear.
    got = draft("Kofi, after you've fixed the gate, check the hens").objective
    assert ("custom", "after you've fixed the gate") in [(c.kind, c.value) for c in got.constraints]


@pytest.mark.parametrize(
    ("text", "priority"),
    [
        ("Kofi, build a ramp by the back door because Grandma's using a wheelchair now.", 55),
        ("Kofi, fix the gate now", 90),
    ],
)
def test_now_in_a_reason_is_no_haste(text: str, priority: int) -> None:
    assert draft(text).objective.priority == priority


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, fix the front gate, no wait, the back gate.",
        "Kofi, fix the front gate, sorry, the back gate.",
        "Kofi, fix the front gate, I mean the back gate.",
    ],
)
def test_a_thing_corrected_to_one_with_a_side_word_is_the_new_one(text: str) -> None:
    assert draft(text).objective.target.label == "Back gate"


@pytest.mark.parametrize(
    "text", ["Kofi, fix the fence, no, the left side.", "Kofi, fix the gate, no, the back"]
)
def test_a_part_of_the_same_thing_is_no_correction(text: str) -> None:
    assert draft(text).objective.target.label in ("Fence", "Gate")


@pytest.mark.parametrize(
    ("text", "line", "said"),
    [
        (
            "Abeni, help with the bake sale, but nothing with nuts.",
            "Nothing with nuts",
            "support the bake sale, but nothing with nuts — confirm?",
        ),
        (
            "Kofi, build a treehouse, nothing higher than two metres.",
            "Nothing higher than two metres",
            "build a treehouse, but nothing higher than two metres — confirm?",
        ),
        (
            "Tariq, watch the kids by the pool, nobody in the deep end.",
            "Nobody in the deep end",
            "but nobody in the deep end — confirm?",
        ),
    ],
)
def test_a_ban_said_without_a_verb_is_kept(text: str, line: str, said: str) -> None:
    got = draft(text)
    assert [f.text for f in got.objective.forbidden_lines] == [line]
    assert said in got.summary


@pytest.mark.parametrize(
    "text",
    ["Kofi, fix the gate, there's nobody in the house", "Kofi, fix the gate, nobody in it is hurt"],
)
def test_news_of_nobody_is_no_ban(text: str) -> None:
    lines = [f.text for f in draft(text).objective.forbidden_lines]
    assert not any(t.startswith("Nobody") for t in lines)


def test_that_day_after_the_thing_is_no_part_of_it() -> None:
    got = draft("So the school's closed Friday for training, Tariq, look after the twins that day.")
    assert got.objective.target.label == "Twins"


@pytest.mark.parametrize(
    ("text", "autonomy"),
    [
        ("Kofi, sort out the drainage in the garden, whatever you think.", "free"),
        ("Kofi, fix the gate, do whatever you think", "free"),
        ("Kofi, fix the gate, whatever you think, by Friday", "free"),
    ],
)
def test_whatever_you_think_ending_its_part_is_a_free_hand(text: str, autonomy: str) -> None:
    assert draft(text).objective.autonomy == autonomy


def test_whatever_you_think_of_a_thing_is_no_hand() -> None:
    got = run("Kofi, fix whatever you think is broken")
    assert not isinstance(got, Draft) or got.objective.autonomy == "brief"


# A review of the session's rules (2026-12-07) found each of these wrong.
@pytest.mark.parametrize(
    "text",
    [
        "Kofi, fix the shelf. I fixed it myself, but it fell down again",
        "Kofi, check the fuse box. It's sorted now, but just check it",
    ],
)
def test_done_but_not_after_all_keeps_the_order(text: str) -> None:
    draft(text)


@pytest.mark.parametrize(
    ("text", "priority"),
    [
        ("Kofi, since the dog is out, fix the gate now", 90),
        ("Kofi, fix the gate because it's broken, now", 90),
        ("Kofi, the tap's been dripping since Monday, fix it now", 90),
    ],
)
def test_now_ending_the_order_after_a_reason_is_haste(text: str, priority: int) -> None:
    assert draft(text).objective.priority == priority


@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        ("The inspection got moved to Friday, Kofi, fix the fence", "2026-03-13"),
        ("Mum texted that she's arriving on Sunday, Kofi, fix the spare bed", "2026-03-15"),
    ],
)
def test_news_of_a_day_to_come_keeps_its_day(text: str, deadline: str) -> None:
    assert (draft(text).objective.deadline or "")[:10] == deadline


@pytest.mark.parametrize(
    ("word", "priority"),
    [
        ("Important", 78), ("Asap", 90), ("Whenever", 25), ("Mum", 55), ("Dad", 55),
        ("Grandma", 55), ("Boss", 55), ("Otherwise", 55), ("Oops", 55), ("Question", 55),
        ("Attention", 55), ("Nobody", 55),
    ],
)  # fmt: skip
def test_words_that_open_a_sentence_are_no_unknown_name(word: str, priority: int) -> None:
    got = draft(f"{word}, fix the back gate")
    assert got.objective.priority == priority


def test_morning_and_evening_before_a_day_is_that_day() -> None:
    got = draft("Kofi, check the hens morning and evening tomorrow")
    assert got.objective.autonomy == "brief"
    assert (got.objective.deadline or "")[:10] == "2026-03-12"


@pytest.mark.parametrize(
    ("text", "unknown"),
    [
        ("Have the plumber look at the boiler tomorrow.", "the plumber"),
        ("Get the electrician to check the fuse box", "the electrician"),
        ("Ask our neighbour to keep an eye on the house", "our neighbour"),
    ],
)
def test_someone_the_household_hires_is_asked_about(text: str, unknown: str) -> None:
    got = run(text)
    assert isinstance(got, Clarify), got
    assert got.reason == "unknown-agent"
    assert got.heard_as == unknown
    assert got.question.startswith(f"I only pass orders to the household's agents, not {unknown}.")


def test_asking_after_someone_is_no_condition() -> None:
    got = draft("Imani, visit Auntie Adjoa soon, she's been asking after you.")
    assert not [c for c in got.objective.constraints if c.kind == "custom"]
    assert "after they" not in got.summary


def test_excuse_me_before_a_question_keeps_the_order_after_it() -> None:
    # "excuse me" as a greeting was taken back after a review: it swallowed
    # the question before the order (the draft was lost).
    assert draft("Excuse me, what time is it? Kofi, fix the gate").objective.agent == "Kofi"


@pytest.mark.parametrize(
    "text",
    [
        "Basically the rabbit hutch is falling apart and the rabbits keep escaping, "
        "so Kofi, build them a new hutch this weekend.",
        "The rabbits keep escaping so Kofi, build a new hutch",
    ],
)
def test_a_name_after_news_and_so_is_the_agent(text: str) -> None:
    assert draft(text).objective.agent == "Kofi"


def test_another_roster_name_in_the_news_is_still_asked_about() -> None:
    # "Kofi is busy so Zuri, …" is Zuri's since the twenty-second session (a
    # state is news of Kofi); a name said of no news is still asked about
    got = run("Kofi is here so Zuri, fix the gate")
    assert isinstance(got, Clarify) and got.reason == "uncertain-agent", got


# A second review (2026-12-07) of the later rules.
@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        ("The fox comes at night so Kofi, fix the fence by Friday", "2026-03-13"),
        ("The rabbits escaped on Monday so Kofi, build a hutch", None),
    ],
)
def test_the_news_before_so_and_the_name_is_no_part_of_the_order(
    text: str, deadline: str | None
) -> None:
    got = draft(text).objective.deadline
    assert (got[:10] if got else None) == deadline


@pytest.mark.parametrize(
    "text", ["Get the neighbours help with their fence", "Let the plumber check the boiler"]
)
def test_a_trade_is_only_asked_about_when_asked_to_do_the_deed(text: str) -> None:
    draft(text)
