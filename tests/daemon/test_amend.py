"""A change said to the pending draft as the next turn, over real sockets
(the coordinator's twin: tests/runtime/test_coordinator.py)."""

from __future__ import annotations

import datetime as dt
import signal
from pathlib import Path

import pytest

from tests.conftest import RunningDaemon
from tests.reliability.harness import Daemon, free_port, text_only_home
from vac.client.connection import Connection, keys_for
from vac.protocol.messages import (
    ObjectiveClarify,
    ObjectiveConfirmed,
    ObjectiveDraft,
    ObjectiveList,
    ObjectiveListResult,
    ObjectiveReject,
    ObjectiveRejected,
    OutboundMessage,
    TextInput,
    TranscriptFinal,
    TurnDone,
)

pytestmark = pytest.mark.slow


def said(c: Connection, text: str, msg_id: str | None = None) -> list[OutboundMessage]:
    c.send(TextInput(id=msg_id or c.next_id(), text=text))
    return [m for m, _ in c.recv_until(lambda m: isinstance(m, TurnDone), 10)]


def test_a_correction_said_next_replaces_the_draft_and_a_yes_confirms_the_new_one(
    daemon: RunningDaemon,
) -> None:
    c = daemon.connect()
    c.hello()
    old = next(m for m in said(c, "Zuri, fix the gate") if isinstance(m, ObjectiveDraft))
    turn = said(c, "no, I said Kofi", "fix-1")
    assert [type(m) for m in turn] == [TranscriptFinal, ObjectiveDraft, ObjectiveRejected, TurnDone]
    new, gone = turn[1], turn[2]
    assert isinstance(new, ObjectiveDraft) and isinstance(gone, ObjectiveRejected)
    assert new.objective.agent == "Kofi" and new.objective.target.label == "Gate"
    assert gone.objective_id == old.objective.id and new.objective.id != old.objective.id
    assert isinstance(turn[-1], TurnDone) and turn[-1].status == "parsed"
    again = said(c, "no, I said Kofi", "fix-1")  # the same id: its outcome, not a second change
    assert [type(m) for m in again] == [type(m) for m in turn]
    assert again[1].objective.id == new.objective.id  # type: ignore[attr-defined]
    done = said(c, "yes")
    confirmed = [m for m in done if isinstance(m, ObjectiveConfirmed)]
    assert [m.objective_id for m in confirmed] == [new.objective.id]
    c.send(ObjectiveList(id=c.next_id()))
    listed = c.expect(ObjectiveListResult, 5).objectives
    states = {o.id: o.status for o in listed}
    assert states[old.objective.id] == "rejected"


def test_words_that_change_nothing_say_which_draft_is_waiting(daemon: RunningDaemon) -> None:
    c = daemon.connect()
    c.hello()
    said(c, "ask Kofi to fix the gate by Friday")
    asked = [m for m in said(c, "the fence too") if isinstance(m, ObjectiveClarify)]
    assert (
        len(asked) == 1 and "Still waiting for you: Kofi will repair the gate" in asked[0].question
    )
    done = said(c, "yes")  # about the draft the question named
    assert any(isinstance(m, ObjectiveConfirmed) for m in done)


def test_asked_to_wait_the_draft_waits_and_a_wrapped_change_then_changes_it(
    daemon: RunningDaemon,
) -> None:
    """The twenty-first session's conversation probe: "hold on, not yet"
    rejected the draft; "ok but not Kofi, Zuri" was asked again and a yes
    then confirmed Kofi's (twin: tests/runtime/test_amend_thirteenth_probe.py)."""
    c = daemon.connect()
    c.hello()
    said(c, "Kofi, fix the back gate tomorrow")
    waited = said(c, "hold on, not yet")
    asked = [m for m in waited if isinstance(m, ObjectiveClarify)]
    assert len(asked) == 1 and asked[0].question.startswith("Okay, take your time.")
    assert not any(isinstance(m, ObjectiveRejected) for m in waited)
    turn = said(c, "ok but not Kofi, Zuri")
    new = [m for m in turn if isinstance(m, ObjectiveDraft)]
    assert [m.objective.agent for m in new] == ["Zuri"]
    done = said(c, "yes")
    assert [m.objective_id for m in done if isinstance(m, ObjectiveConfirmed)] == [
        new[0].objective.id
    ]


def test_a_yes_with_two_drafts_waiting_asks_which_one(daemon: RunningDaemon) -> None:
    c = daemon.connect()
    c.hello()
    said(c, "Kofi, fix the gate")
    said(c, "Zuri, map the river")
    got = said(c, "yes")
    asked = [m for m in got if isinstance(m, ObjectiveClarify)]
    assert len(asked) == 1 and asked[0].reason == "reply-unclear", got
    assert "Zuri will map the river" in asked[0].question
    assert not any(isinstance(m, ObjectiveConfirmed) for m in got)


def test_a_change_keeps_the_stewards_words_also_after_a_restart(tmp_path: Path) -> None:
    """A probe: after "make it urgent", "by 3 pm tomorrow" was read back as
    "by tomorrow" and "tonight" as "today". The words are kept with the
    draft (its stored entry), so a kill -9 does not lose them either."""
    home = text_only_home(tmp_path / "home")
    daemon = Daemon(home, free_port(), tmp_path / "daemon.log")
    daemon.start()
    try:
        c = Connection(daemon.endpoint, keys_for(home, "alice"))
        session = c.hello().session
        said(c, "Kofi, fix the gate by 3 pm tomorrow")
        turn = said(c, "make it urgent")
        new = next(m for m in turn if isinstance(m, ObjectiveDraft))
        assert (
            new.preview.summary == "Urgent: Kofi will repair the gate by 3 pm tomorrow — confirm?"
        )
        c.close()
        daemon.kill(signal.SIGKILL)
        daemon.start()
        c = Connection(daemon.endpoint, keys_for(home, "alice"))
        assert c.hello(resume=session).resumed
        asked = [m for m in said(c, "the fence too") if isinstance(m, ObjectiveClarify)]
        assert len(asked) == 1 and asked[0].question.endswith(
            "Still waiting for you: Urgent: Kofi will repair the gate by 3 pm tomorrow — confirm?"
        ), asked
        c.close()
    finally:
        daemon.stop()


def test_changes_and_replies_as_people_type_them(daemon: RunningDaemon) -> None:
    """A typed probe: "nah make it zuri" drafted "Kofi will build Zuri" and
    left the gate pending; "no monday" became a boundary; "Please cancel
    that." left the draft pending (the unit tables: tests/runtime/test_amend.py)."""
    c = daemon.connect()
    c.hello()
    said(c, "kofi fix the gate by friday")
    turn = said(c, "nah make it zuri")
    new = next(m for m in turn if isinstance(m, ObjectiveDraft))
    assert (new.objective.agent, new.objective.verb) == ("Zuri", "Repair")
    assert any(isinstance(m, ObjectiveRejected) for m in turn)
    moved = next(m for m in said(c, "no monday") if isinstance(m, ObjectiveDraft))
    assert moved.objective.agent == "Zuri" and "monday" not in str(moved.objective.forbidden_lines)
    deadline = moved.objective.deadline
    assert deadline is not None and dt.date.fromisoformat(deadline[:10]).weekday() == 0
    done = said(c, "Please cancel that.")
    assert [m.objective_id for m in done if isinstance(m, ObjectiveRejected)] == [
        moved.objective.id
    ]


def test_no_deadline_and_the_usual_priority_said_as_changes(daemon: RunningDaemon) -> None:
    """A typed probe: "no deadline" after a draft was the boundary "No
    deadline" (the deadline stayed), and "make it medium priority" was asked
    again. Said to a draft with no deadline, "no deadline" is no no."""
    c = daemon.connect()
    c.hello()
    said(c, "kofi fix the gate urgently by friday")
    turn = said(c, "no deadline")
    new = next(m for m in turn if isinstance(m, ObjectiveDraft))
    assert new.objective.deadline is None and new.objective.priority == 90
    assert [k.kind for k in new.objective.constraints if k.kind == "time"] == []
    assert new.objective.forbidden_lines == [
        f for f in new.objective.forbidden_lines if "deadline" not in f.text.lower()
    ]
    usual = next(m for m in said(c, "make it medium priority") if isinstance(m, ObjectiveDraft))
    assert usual.objective.priority == 55 and usual.objective.deadline is None
    again = said(c, "no deadline")
    assert not any(isinstance(m, ObjectiveRejected) for m in again)
    asked = next(m for m in again if isinstance(m, ObjectiveClarify))
    assert "no deadline" in asked.question


def test_a_cancel_after_the_confirm_says_how_to_take_it_back(daemon: RunningDaemon) -> None:
    """A typed conversation probe: "yes", then "cancel that", got "I heard you,
    but not what to do" (the steward thought it cancelled)."""
    c = daemon.connect()
    c.hello()
    said(c, "Kofi, fix the gate")
    assert any(isinstance(m, ObjectiveConfirmed) for m in said(c, "yes"))
    for text, hint in (("cancel that", True), ("yes", False)):
        asked = [m for m in said(c, text) if isinstance(m, ObjectiveClarify)]
        assert [m.reason for m in asked] == ["reply-unclear"], asked
        assert asked[0].question.startswith("No draft is waiting for a yes or no here.")
        assert ("vac withdraw" in asked[0].question) == hint


def test_a_yes_asked_which_one_is_asked_again_when_sent_again_after_a_restart(
    tmp_path: Path,
) -> None:
    """A durability probe: the same id's "yes", asked "which one?" before a
    kill -9, confirmed a draft when sent again after it (a question was kept
    in memory only, so the id was run again with one draft left)."""
    home = text_only_home(tmp_path / "home")
    daemon = Daemon(home, free_port(), tmp_path / "daemon.log")
    daemon.start()
    try:
        c = Connection(daemon.endpoint, keys_for(home, "alice"))
        session = c.hello().session
        said(c, "Kofi, fix the gate")
        zuri = next(m for m in said(c, "Zuri, map the river") if isinstance(m, ObjectiveDraft))
        first = [m for m in said(c, "yes", "yes-1") if isinstance(m, ObjectiveClarify)]
        assert [m.reason for m in first] == ["reply-unclear"]
        c.send(ObjectiveReject(id="r", objective_id=zuri.objective.id))  # one draft left
        c.expect(ObjectiveRejected, 5)
        c.close()
        daemon.kill(signal.SIGKILL)
        daemon.start()
        c = Connection(daemon.endpoint, keys_for(home, "alice"))
        assert c.hello(resume=session).resumed
        c.send(TextInput(id="yes-1", text="yes"))
        again = c.expect(ObjectiveClarify, 10)
        assert again.question == first[0].question
        c.send(ObjectiveList(id="l"))
        states = {o.agent: o.status for o in c.expect(ObjectiveListResult, 5).objectives}
        assert states == {"Kofi": "draft", "Zuri": "rejected"}, states
        c.close()
    finally:
        daemon.stop()


def test_with_two_drafts_waiting_a_yes_naming_one_confirms_it(daemon: RunningDaemon) -> None:
    """Twin of the coordinator's: "yes to the gate one", then after "which?" the thing alone."""
    c = daemon.connect()
    c.hello()
    gate = next(m for m in said(c, "Kofi, fix the gate") if isinstance(m, ObjectiveDraft))
    river = next(m for m in said(c, "Zuri, map the river") if isinstance(m, ObjectiveDraft))
    turn = said(c, "yes to the gate one", "pick-1")
    assert [m.objective_id for m in turn if isinstance(m, ObjectiveConfirmed)] == [
        gate.objective.id
    ]
    again = said(c, "yes to the gate one", "pick-1")  # the same id: its outcome again
    assert [m.objective_id for m in again if isinstance(m, ObjectiveConfirmed)] == [
        gate.objective.id
    ]
    said(c, "Imani, check the hens")
    asked = next(m for m in said(c, "no") if isinstance(m, ObjectiveClarify))
    assert "2 drafts are waiting" in asked.question and "Say which" in asked.question
    gone = said(c, "the river one")
    assert [m.objective_id for m in gone if isinstance(m, ObjectiveRejected)] == [
        river.objective.id
    ]


def test_a_boundary_lifted_and_an_agent_taken_back_are_changes(daemon: RunningDaemon) -> None:
    """Twin of tests/runtime/test_amend_fourteenth_probe.py, over real sockets."""
    c = daemon.connect()
    c.hello()
    said(c, "Kofi, fix the roof tomorrow, don't use the ladder")
    lift = next(
        m for m in said(c, "oh he can use the ladder after all") if isinstance(m, ObjectiveDraft)
    )
    assert [f.text for f in lift.objective.forbidden_lines] == ["Respect the agent's autonomy"]
    said(c, "make it Zuri")
    back = next(m for m in said(c, "no wait, Kofi was right") if isinstance(m, ObjectiveDraft))
    assert back.objective.agent == "Kofi" and back.objective.deadline == lift.objective.deadline
    done = said(c, "yes")
    assert [m.objective_id for m in done if isinstance(m, ObjectiveConfirmed)] == [
        back.objective.id
    ]


def test_after_a_defer_a_change_is_told_what_waits_and_how_to_go_on(
    daemon: RunningDaemon,
) -> None:
    """Twin of the coordinator's: Tariq with three jobs defers a fourth."""
    c = daemon.connect()
    c.hello()
    for job in ("guard the barn", "mend the coop", "walk the fence", "check the lock"):
        said(c, f"Tariq, {job} by Friday")
        said(c, "yes")
    asked = next(m for m in said(c, "yes") if isinstance(m, ObjectiveClarify))
    assert "waits on you (deferred)" in asked.question
    again = next(
        m for m in said(c, "fine, let Kofi do it instead") if isinstance(m, ObjectiveDraft)
    )
    assert (again.objective.agent, again.objective.target.label) == ("Kofi", "Lock")


def test_a_question_back_keeps_the_question_open(daemon: RunningDaemon) -> None:
    """A conversation probe (T22c): "um, what do you mean?" to "What should
    Kofi repair?" dropped the question; "the gate" next was no answer."""
    c = daemon.connect()
    c.hello()
    said(c, "Kofi, repair")
    back = [m for m in said(c, "um, what do you mean?") if isinstance(m, ObjectiveClarify)]
    assert back and back[0].question.startswith("Say just the thing"), back
    made = [m for m in said(c, "the gate") if isinstance(m, ObjectiveDraft)]
    assert [(d.objective.agent, d.objective.target.label) for d in made] == [("Kofi", "Gate")]


def test_what_is_pending_is_answered_from_the_book(daemon: RunningDaemon) -> None:
    """A conversation probe (T22c): "what's pending?" got "I only pass on
    requests"; another principal's drafts are never listed."""
    bob = daemon.connect("bob")
    bob.hello()
    said(bob, "Zuri, map the river")
    c = daemon.connect()
    c.hello()
    said(c, "Kofi, fix the gate")
    asked = [m for m in said(c, "what's pending?") if isinstance(m, ObjectiveClarify)]
    assert asked and asked[0].question.startswith("Waiting for your yes: Kofi will repair the gate")
    assert "river" not in asked[0].question


def test_a_yes_then_a_change_is_the_change(daemon: RunningDaemon) -> None:
    """A conversation probe (T22c): "yes — oh wait, make it Friday" changed
    nothing, and the yes after it confirmed Thursday."""
    c = daemon.connect()
    c.hello()
    said(c, "Kofi, fix the gate by Thursday")
    made = [m for m in said(c, "yes — oh wait, make it Friday") if isinstance(m, ObjectiveDraft)]
    assert len(made) == 1 and made[0].objective.agent == "Kofi"
    friday = dt.date.fromisoformat(made[0].objective.deadline[:10])  # type: ignore[index]
    assert friday.weekday() == 4


def test_how_free_the_agent_is_said_of_them_changes_the_draft(daemon: RunningDaemon) -> None:
    """A conversation probe (T22c): "tell him to check with me first" changed
    nothing, and the yes after it confirmed the draft without the tether."""
    c = daemon.connect()
    c.hello()
    said(c, "Kofi, fix the gate")
    made = [m for m in said(c, "tell him to check with me first") if isinstance(m, ObjectiveDraft)]
    assert [m.objective.autonomy for m in made] == ["direct-tether"]


def test_with_two_drafts_a_name_after_cancel_picks_that_agents(daemon: RunningDaemon) -> None:
    """A conversation probe (T22c): "cancel Zuri" with two drafts was asked which."""
    c = daemon.connect()
    c.hello()
    said(c, "Tariq, guard the barn")
    river = next(m for m in said(c, "Zuri, map the river") if isinstance(m, ObjectiveDraft))
    gone = said(c, "cancel Zuri")
    assert [m.objective_id for m in gone if isinstance(m, ObjectiveRejected)] == [
        river.objective.id
    ]


def test_a_cancel_naming_a_confirmed_job_says_which_id_to_withdraw(daemon: RunningDaemon) -> None:
    """A conversation probe (T22c): "actually, cancel the gate job" after the
    yes got the list of verbs. Another principal's jobs are never named."""
    bob = daemon.connect("bob")
    bob.hello()
    said(bob, "Zuri, map the gate")
    said(bob, "yes")
    c = daemon.connect()
    c.hello()
    made = next(m for m in said(c, "Kofi, fix the gate") if isinstance(m, ObjectiveDraft))
    said(c, "yes")
    asked = [m for m in said(c, "actually, cancel the gate job") if isinstance(m, ObjectiveClarify)]
    assert asked and f"vac withdraw {made.objective.id}" in asked[0].question, asked
    assert "Zuri" not in asked[0].question


def test_no_not_now_waits_and_makes_nothing_urgent(daemon: RunningDaemon) -> None:
    """A conversation probe (T23c): "no, not now" made the draft urgent, and
    the yes after it confirmed it so. Since the twenty-sixth session it
    waits (T29c: "not yet" dropped the draft); the yes then confirms it."""
    c = daemon.connect()
    c.hello()
    (made,) = [m for m in said(c, "Tariq, map the stream") if isinstance(m, ObjectiveDraft)]
    got = said(c, "no, not now")
    assert not [m for m in got if isinstance(m, (ObjectiveRejected, ObjectiveDraft))]
    yes = said(c, "yes")
    assert [m.objective.priority for m in yes if isinstance(m, ObjectiveConfirmed)] == [
        made.objective.priority
    ]


def test_a_change_said_in_everyday_words_changes_the_draft(daemon: RunningDaemon) -> None:
    """A conversation probe (T23c): "Tariq would be better for that" and "he's
    not to use the ladder" changed nothing, and the yes confirmed the old draft."""
    c = daemon.connect()
    c.hello()
    said(c, "Zuri, check the gate")
    made = [
        m for m in said(c, "hmm, Tariq would be better for that") if isinstance(m, ObjectiveDraft)
    ]
    assert [m.objective.agent for m in made] == ["Tariq"]
    bob = daemon.connect("bob")
    bob.hello()
    said(bob, "Kofi, fix the gate")
    made = [m for m in said(bob, "he's not to use the ladder") if isinstance(m, ObjectiveDraft)]
    assert [[f.text for f in m.objective.forbidden_lines][-1] for m in made] == [
        "Do not use the ladder"
    ]


def test_read_back_and_an_order_on_it_after_a_thing_alone(daemon: RunningDaemon) -> None:
    """A conversation probe (T23c): "read that back" got the list of verbs, and
    "check it out" after "Tariq, the old well" asked what to look into."""
    c = daemon.connect()
    c.hello()
    said(c, "Tariq, the old well")
    made = [m for m in said(c, "check it out") if isinstance(m, ObjectiveDraft)]
    assert [(m.objective.agent, m.objective.target.label) for m in made] == [("Tariq", "Old well")]
    asked = [m for m in said(c, "read that back") if isinstance(m, ObjectiveClarify)]
    assert asked and asked[0].question.startswith("Tariq will look into")  # the draft, as read


def test_say_that_again_after_a_question_asks_it_again(daemon: RunningDaemon) -> None:
    """A review: "say that again" after vac's question got "Nothing is waiting for your yes"."""
    c = daemon.connect()
    c.hello()
    said(c, "Kofi, repair")
    asked = [m for m in said(c, "say that again") if isinstance(m, ObjectiveClarify)]
    assert asked and asked[0].question.startswith("What should Kofi repair?")
    made = [m for m in said(c, "the gate") if isinstance(m, ObjectiveDraft)]
    assert [(m.objective.agent, m.objective.target.label) for m in made] == [("Kofi", "Gate")]


def test_an_hour_said_alone_moves_the_hour_of_the_drafts_day(daemon: RunningDaemon) -> None:
    """Conversation probes (T25c, T26c): "make it half six" to "…tomorrow at
    6pm" changed nothing, and the next "yes" confirmed 6 pm."""
    c = daemon.connect()
    c.hello()
    said(c, "Tariq, guard the gate tomorrow at 6pm")
    made = [m for m in said(c, "make it half six") if isinstance(m, ObjectiveDraft)]
    assert [m.preview.summary for m in made] == [
        "Tariq will protect the gate by tomorrow at 6:30 pm — confirm?"
    ]


def test_the_one_ruled_out_is_asked_about_not_drafted(daemon: RunningDaemon) -> None:
    """A conversation probe (T26c): "not Tariq, fix the gate" drafted Tariq's."""
    c = daemon.connect()
    c.hello()
    asked = [m for m in said(c, "not Tariq, fix the gate") if isinstance(m, ObjectiveClarify)]
    assert [m.question for m in asked] == ["Who should do it, if not Tariq?"]
    made = [m for m in said(c, "Kofi") if isinstance(m, ObjectiveDraft)]
    assert [m.objective.agent for m in made] == ["Kofi"]


def test_call_that_off_after_a_yes_points_to_withdraw(daemon: RunningDaemon) -> None:
    """A conversation probe (T26c): "actually, call that off" after the yes
    got the list of verbs, with no word of how to take it back."""
    c = daemon.connect()
    c.hello()
    said(c, "Tariq, check the fence")
    said(c, "yes")
    asked = [m for m in said(c, "actually, call that off") if isinstance(m, ObjectiveClarify)]
    assert asked and "vac withdraw" in asked[0].question


def test_a_change_said_haltingly_changes_the_draft(daemon: RunningDaemon) -> None:
    """A conversation probe (T27c): "no no, Kofi" and "no, Tarqi" rejected the draft."""
    c = daemon.connect()
    c.hello()
    said(c, "Zuri, check the gate")
    made = [m for m in said(c, "no no, Kofi") if isinstance(m, ObjectiveDraft)]
    assert [m.objective.agent for m in made] == ["Kofi"]
    made = [m for m in said(c, "no, Tarqi") if isinstance(m, ObjectiveDraft)]
    assert [m.objective.agent for m in made] == ["Tariq"]


def test_a_second_name_told_to_do_it_is_asked_about(daemon: RunningDaemon) -> None:
    """The twenty-sixth session: "Kofi, fix the tap. Tariq, you do it" was
    Kofi's draft, Tariq lost."""
    c = daemon.connect()
    c.hello()
    said_ = said(c, "Kofi, fix the tap. Tariq, you do it.")
    asked = [m for m in said_ if isinstance(m, ObjectiveClarify)]
    assert [m.question for m in asked] == ["Who should do it: Kofi or Tariq?"]
    made = [m for m in said(c, "Tariq") if isinstance(m, ObjectiveDraft)]
    assert [(m.objective.agent, m.objective.target.label) for m in made] == [("Tariq", "Tap")]


def test_just_another_deed_on_it_changes_the_verb(daemon: RunningDaemon) -> None:
    """T28c (the twenty-sixth session): "just look at it for now" drafted a
    second objective, a look into "It for now"."""
    c = daemon.connect()
    c.hello()
    said(c, "Tariq, repair the chimney")
    made = [m for m in said(c, "just look at it for now") if isinstance(m, ObjectiveDraft)]
    assert [m.preview.summary for m in made] == ["Tariq will look into the chimney — confirm?"]
    made = [m for m in said(c, "no, Kofi by Friday") if isinstance(m, ObjectiveDraft)]
    assert [(m.objective.agent, m.objective.verb) for m in made] == [("Kofi", "Investigate")]
