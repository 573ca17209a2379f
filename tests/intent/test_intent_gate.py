from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from intent_factories import objective_builtins

from vac.intent import (
    DraftBook,
    DraftEntry,
    ObjectiveInvalid,
    ObjectiveUnknown,
    RevisionStale,
    classify_reply,
)
from vac.protocol.objective import Objective
from vac.protocol.objective_lifecycle import TransitionInvalid


def refuse(book: DraftBook, principal: str, oid: str) -> DraftEntry:
    """The agent refuses `principal`'s confirmed objective: offered, refused."""
    book.advance(oid, "offer", principal=principal)
    return book.advance(oid, "refuse")


MakeObjective = Callable[..., Objective]
NOW = dt.datetime(2026, 5, 1, 10, 0, tzinfo=dt.UTC)
HOUR = dt.timedelta(hours=1)


@pytest.mark.parametrize(
    ("text", "reply"),
    [
        ("yes", "confirm"),
        ("Yeah.", "confirm"),
        ("confirm", "confirm"),
        ("Do it!", "confirm"),
        ("go ahead", "confirm"),
        ("yes, please", "confirm"),
        ("okay, do it", "confirm"),
        ("no", "reject"),
        ("No.", "reject"),
        ("nope", "reject"),
        ("cancel", "reject"),
        ("never mind", "reject"),
        ("Stop that.", "reject"),
        ("no thanks", "reject"),
        ("no, tell Kofi to do it", None),
        ("yes and also fix the fence", None),
        ("fix the gate", None),
        ("", None),
        ("do it tomorrow instead", None),
        # Understood when heard, never scored against the audio.
        ("Alright.", "confirm"),
        ("Absolutely!", "confirm"),
        ("Sure thing.", "confirm"),
        ("That works.", "confirm"),
        ("Abort.", "reject"),
        ("That's wrong.", "reject"),
        ("Don't do it.", "reject"),
        ("Not now.", None),  # waits (since the twenty-sixth session)
        # Two of one kind are that reply; two that disagree answer nothing.
        ("Yeah, do it.", "confirm"),
        ("Okay, sounds good.", "confirm"),
        ("Yes, absolutely.", "confirm"),
        ("No, cancel it.", "reject"),
        ("Nope, forget it.", "reject"),
        ("Okay, no.", None),
        ("No, okay.", None),
        ("Yes, cancel.", None),
        ("Alright, fix the gate", None),
        ("Don't cancel it.", None),  # the negation keeps the draft: no answer
        ("No, don't cancel.", None),
        ("Don't stop.", None),
        # Common ways to say it (2026-12-04): the verbs of the gate, and repeats.
        ("Confirm it.", "confirm"),
        ("Please do.", "confirm"),
        ("Approve it.", "confirm"),
        ("Looks good.", "confirm"),
        ("Actually, yes.", "confirm"),
        ("Yes, yes.", "confirm"),
        ("Scratch that.", "reject"),
        ("Reject it.", "reject"),
        ("Discard it.", "reject"),
        ("Never mind that.", "reject"),
        ("That's not right.", "reject"),
        ("No, no, no.", "reject"),
        ("Actually no.", "reject"),
        ("Do not do it.", "reject"),
        ("Do not cancel it.", None),
        ("Scratch net!", "reject"),  # a refusal word and one more
        ("Wait.", None),  # neither: the draft stays pending
        ("Hold on.", None),
        ("Leave it to Kofi.", None),
        ("That's fine, no.", None),
        ("Fine?", None),  # asked back: a yes is never read from a question
        ("Yes?!", None),
        ("Fine, thanks.", None),  # small talk, not a yes
        ("Great.", None),
        ("I confirm.", "confirm"),
        ("Yes, I confirm.", "confirm"),
        ("Agreed.", "confirm"),
        ("Roger that.", "confirm"),
        ("Okay then.", "confirm"),
        ("Forget about it.", "reject"),
        ("I don't want that.", "reject"),
        ("No, I don't want that.", "reject"),
        ("Approve?", None),
        ("No?", "reject"),
        ("Um, yes.", "confirm"),  # a hesitation first
        ("Er, go ahead.", "confirm"),
        ("Erm, no.", "reject"),
        ("Uhm, cancel that.", "reject"),
        # Everyday replies a probe of new typed ones found unread.
        ("hold off", "reject"),
        ("not yet", None),  # waits since the twenty-sixth session (T29c: it rejected)
        ("let's not", "reject"),
        ("wait, no, that's wrong", "reject"),
        ("yeah go on then", "confirm"),
        ("great, send it", "confirm"),
        ("okay, do that then", "confirm"),
        ("looks right to me", "confirm"),
        ("hang on", None),  # a wait: the draft stays pending
        ("great", None),  # small talk alone
    ],
)
def test_classify_reply(text: str, reply: str | None) -> None:
    assert classify_reply(text) == reply


def test_confirm_by_own_principal(make_objective: MakeObjective) -> None:
    book = DraftBook()
    entry = book.add("alice", make_objective(), now=NOW, session="s1")
    assert entry.expires_at == NOW + dt.timedelta(hours=24)
    assert [e.objective.id for e in book.pending("alice", now=NOW)] == ["obj-1"]
    done = book.confirm("alice", "obj-1", now=NOW, revision=1)
    assert done.objective.status == "confirmed" and done.objective.confirmed_by_steward
    assert not done.objective.accepted_by_agent
    assert done.entry.state == "confirmed" and not done.edited and not done.prior_refusal
    assert book.pending("alice", now=NOW) == []


def test_another_principal_gets_the_same_error_as_unknown(make_objective: MakeObjective) -> None:
    book = DraftBook()
    book.add("alice", make_objective(), now=NOW)
    with pytest.raises(ObjectiveUnknown) as theirs:
        book.confirm("mallory", "obj-1", now=NOW)
    with pytest.raises(ObjectiveUnknown) as missing:
        book.confirm("mallory", "obj-404", now=NOW)
    assert theirs.value.code == missing.value.code == "objective_unknown"
    assert theirs.value.message.replace("obj-1", "X") == missing.value.message.replace(
        "obj-404", "X"
    )
    with pytest.raises(ObjectiveUnknown):
        book.reject("mallory", "obj-1", now=NOW)
    assert book.pending("mallory", now=NOW) == []
    assert book.get("alice", "obj-1").state == "pending"


def test_confirm_with_edits_makes_a_new_revision(make_objective: MakeObjective) -> None:
    book = DraftBook()
    book.add("alice", make_objective(), now=NOW)
    done = book.confirm("alice", "obj-1", now=NOW, revision=1, edits={"priority": 90})
    assert done.edited and done.objective.revision == 2 and done.objective.priority == 90


def test_stale_revision_is_refused(make_objective: MakeObjective) -> None:
    book = DraftBook()
    book.add("alice", make_objective(revision=3), now=NOW)
    with pytest.raises(RevisionStale) as info:
        book.confirm("alice", "obj-1", now=NOW, revision=2)
    assert info.value.fields == ["revision"]
    assert info.value.message == "revision: 2 is stale; the current revision is 3"
    assert isinstance(info.value, ObjectiveInvalid)
    assert book.get("alice", "obj-1").state == "pending"


def test_a_wrong_revision_names_the_edits_failing_fields_too(make_objective: MakeObjective) -> None:
    """An independent client got only `revision` (said twice, "revision:
    revision: 7 is stale") for a future revision with an out-of-range edit."""
    book = DraftBook()
    book.add("alice", make_objective(), now=NOW)
    with pytest.raises(RevisionStale) as info:
        book.confirm("alice", "obj-1", now=NOW, revision=7, edits={"priority": 300})
    assert info.value.fields == ["revision", "priority"]
    assert info.value.message.startswith(
        "revision: 7 is not a revision of this draft; the current revision is 1; priority: "
    )
    assert book.get("alice", "obj-1").objective.revision == 1  # nothing applied


def test_invalid_edits_name_every_field_and_leave_the_draft(make_objective: MakeObjective) -> None:
    book = DraftBook()
    book.add("alice", make_objective(), now=NOW)
    with pytest.raises(ObjectiveInvalid) as info:
        book.confirm("alice", "obj-1", now=NOW, edits={"priority": 101, "status": "confirmed"})
    assert info.value.fields == ["status", "priority"]
    assert book.get("alice", "obj-1").state == "pending"


def test_pre_confirmed_drafts_are_malformed(make_objective: MakeObjective) -> None:
    book = DraftBook()
    with pytest.raises(ObjectiveInvalid) as info:
        book.add("alice", make_objective(confirmed_by_steward=True), now=NOW)
    assert info.value.fields == ["confirmed_by_steward"]
    with pytest.raises(ObjectiveInvalid):
        book.add("alice", make_objective(accepted_by_agent=True), now=NOW)


def test_reject_and_double_settlement(make_objective: MakeObjective) -> None:
    book = DraftBook()
    book.add("alice", make_objective(), now=NOW)
    rejected = book.reject("alice", "obj-1", now=NOW)
    assert rejected.state == "rejected" and rejected.objective.status == "rejected"
    with pytest.raises(ObjectiveUnknown):
        book.confirm("alice", "obj-1", now=NOW)
    with pytest.raises(ObjectiveUnknown):
        book.reject("alice", "obj-1", now=NOW)


def test_drafts_expire(make_objective: MakeObjective) -> None:
    book = DraftBook(ttl_s=3600)
    book.add("alice", make_objective(), now=NOW)
    book.add("alice", make_objective(id="obj-2"), now=NOW + HOUR / 2)
    expired = book.expire(NOW + HOUR)
    assert [e.objective.id for e in expired] == ["obj-1"]
    assert expired[0].objective.status == "expired"
    assert [e.objective.id for e in book.pending("alice", now=NOW + HOUR)] == ["obj-2"]
    # A confirm past the deadline finds nothing, even before expire() ran.
    with pytest.raises(ObjectiveUnknown):
        book.confirm("alice", "obj-2", now=NOW + 2 * HOUR)
    assert book.get("alice", "obj-2").state == "expired"


@pytest.mark.parametrize(
    ("deadline", "now", "passed"),
    [
        ("2026-05-01", NOW, False),  # a date: its whole day
        ("2026-05-01", NOW + 14 * HOUR - dt.timedelta(seconds=1), False),
        ("2026-05-01", NOW + 14 * HOUR, True),  # the next day, UTC
        ("2026-05-01T10:30:00+00:00", NOW, False),
        # A date-time at that moment (an independent agent saw one still
        # accepted minutes after it, until its day ended).
        ("2026-05-01T10:30:00+00:00", NOW + HOUR, True),
        ("2026-05-01T12:30:00+02:00", NOW + HOUR, True),  # its offset counts
        ("2026-05-01T12:30:00+02:00", NOW, False),
    ],
)
def test_a_deadline_passes_at_its_moment(
    make_objective: MakeObjective, deadline: str, now: dt.datetime, passed: bool
) -> None:
    book = DraftBook()
    book.add("alice", make_objective(deadline=deadline), now=NOW)
    book.confirm("alice", "obj-1", now=NOW)
    book.advance("obj-1", "offer")
    book.advance("obj-1", "accept")
    expired = book.expire(now)
    assert [e.objective.status for e in expired] == (["expired"] if passed else [])


def test_sole_pending_per_session(make_objective: MakeObjective) -> None:
    book = DraftBook()
    book.add("alice", make_objective(), now=NOW, session="s1")
    assert book.sole_pending("alice", session="s1", now=NOW) is not None
    assert book.sole_pending("alice", session="s2", now=NOW) is None
    book.add("alice", make_objective(id="obj-2"), now=NOW, session="s1")
    assert book.sole_pending("alice", session="s1", now=NOW) is None


def test_refusals_are_remembered_by_id_and_by_content(make_objective: MakeObjective) -> None:
    book = DraftBook()
    book.add("alice", make_objective(), now=NOW)
    book.confirm("alice", "obj-1", now=NOW)
    refuse(book, "alice", "obj-1")
    # Pushing the same id again: allowed through, flagged as coercion.
    again = book.confirm("alice", "obj-1", now=NOW)
    assert again.prior_refusal
    # The same ask under a new id is coercion too.
    book.add("alice", make_objective(id="obj-2"), now=NOW)
    assert book.confirm("alice", "obj-2", now=NOW).prior_refusal
    # A different ask is not.
    other = make_objective(id="obj-3", target={"ref": "prop:fence", "kind": "prop", "label": "F"})
    book.add("alice", other, now=NOW)
    assert not book.confirm("alice", "obj-3", now=NOW).prior_refusal


def test_one_principals_refusal_never_colours_anothers_ask(make_objective: MakeObjective) -> None:
    # Alice's ask was refused; Bob's same ask is his own, not coercion.
    book = DraftBook()
    book.add("alice", make_objective(id="a-1"), now=NOW)
    book.confirm("alice", "a-1", now=NOW)
    refuse(book, "alice", "a-1")
    book.add("bob", make_objective(id="b-1"), now=NOW)
    assert not book.confirm("bob", "b-1", now=NOW).prior_refusal
    book.add("alice", make_objective(id="a-2"), now=NOW)
    assert book.confirm("alice", "a-2", now=NOW).prior_refusal


def test_load_restores_and_forget_deletes(make_objective: MakeObjective) -> None:
    book = DraftBook()
    book.add("alice", make_objective(), now=NOW)
    book.add("bob", make_objective(id="obj-2"), now=NOW)
    restored = DraftBook()
    old = DraftEntry("alice", make_objective(id="old"), NOW, NOW, "refused")
    restored.load(book.entries(), refused=[old])
    assert restored.get("alice", "obj-1").state == "pending"
    assert restored.prior_refusal("alice", make_objective(id="x"))
    assert not restored.prior_refusal("bob", make_objective(id="x"))
    assert restored.forget_principal("alice") == 1
    with pytest.raises(ObjectiveUnknown):
        restored.get("alice", "obj-1")
    with pytest.raises(ValueError):
        restored.add("bob", make_objective(id="obj-2"), now=NOW)


# --- property: nothing is confirmed without its own principal's confirm -------

_OPS = st.lists(
    st.tuples(
        st.sampled_from(["add", "confirm", "reject", "expire", "refuse"]),
        st.sampled_from(["alice", "bob", "mallory"]),
        st.sampled_from(["o1", "o2", "o3"]),
        st.integers(0, 30),  # hours since NOW
        st.sampled_from([None, 1, 2]),
    ),
    max_size=40,
)


@settings(max_examples=300, deadline=None)
@given(ops=_OPS)
def test_never_confirmed_without_its_principals_confirm(
    ops: list[tuple[str, str, str, int, int | None]],
) -> None:

    book = DraftBook()
    owner: dict[str, str] = {}
    confirmed_by: dict[str, set[str]] = {}
    for op, who, oid, hours, revision in sorted(ops, key=lambda o: o[3]):
        now = NOW + dt.timedelta(hours=hours)
        try:
            if op == "add":
                obj = msgspec.convert(objective_builtins(id=oid), Objective)
                book.add(who, obj, now=now)
                owner[oid] = who
            elif op == "confirm":
                book.confirm(who, oid, now=now, revision=revision)
                confirmed_by.setdefault(oid, set()).add(who)
            elif op == "reject":
                book.reject(who, oid, now=now)
            elif op == "expire":
                book.expire(now)
            else:
                refuse(book, who, oid)
        except (ObjectiveUnknown, ObjectiveInvalid, TransitionInvalid, ValueError):
            pass
    for entry in book.entries():
        oid = entry.objective.id
        if entry.state in ("confirmed", "refused") or entry.objective.confirmed_by_steward:
            assert confirmed_by.get(oid, set()) >= {owner[oid]}
            assert confirmed_by[oid] == {owner[oid]}


@pytest.mark.parametrize(
    ("heard", "kind"),
    [
        ("Cancel note.", "reject"),  # "cancel that", misheard
        ("No Emks.", "reject"),  # "no thanks", misheard
        ("no, tell Kofi instead", None),  # says more: a new turn
        ("Sound good.", "confirm"),
        ("Go Fed.", None),  # a "yes" is never guessed
        ("Council.", "reject"),  # "cancel" as tiny.en hears espeak say it
        ("Console Met.", "reject"),  # "cancel that"
        ("Counsel the elders", None),  # says more: a new turn
        ("now what", None),  # short leads ("no") are never matched by sound
        ("yes, Kofi should build it", None),
    ],
)
def test_misheard_refusals_still_refuse_and_yes_is_never_guessed(
    heard: str, kind: str | None
) -> None:
    from vac.intent import classify_reply

    assert classify_reply(heard) == kind


def test_a_counter_offer_confirmed_unchanged_is_the_agents_own_proposal(
    make_objective: MakeObjective,
) -> None:
    book = DraftBook()
    book.add("alice", make_objective(id="c-1"), now=NOW, counter_of="o-1")
    assert book.confirm("alice", "c-1", now=NOW).own_proposal
    book.add("alice", make_objective(id="c-2"), now=NOW, counter_of="o-1")
    edited = book.confirm("alice", "c-2", now=NOW, edits={"priority": 90})
    assert edited.edited and not edited.own_proposal  # the steward changed it
    book.add("alice", make_objective(id="d-1"), now=NOW)
    assert not book.confirm("alice", "d-1", now=NOW).own_proposal


def test_acceptance_is_recorded_on_the_stored_objective(make_objective: MakeObjective) -> None:
    book = DraftBook()
    book.add("alice", make_objective(id="o-1"), now=NOW)
    book.confirm("alice", "o-1", now=NOW)
    with pytest.raises(ObjectiveUnknown):
        book.advance("o-1", "offer", principal="bob")  # not his: unknown
    book.advance("o-1", "offer", principal="alice")
    entry = book.advance("o-1", "accept")
    assert entry.objective.accepted_by_agent and entry.state == "accepted"
    assert entry.objective.status == "accepted"
    with pytest.raises(TransitionInvalid) as moved:
        book.advance("o-1", "refuse")  # answered already
    assert moved.value.details == {"status": "accepted"}


def test_the_steward_withdraws_a_draft_or_a_confirmed_objective_not_a_settled_one(
    make_objective: MakeObjective,
) -> None:
    book = DraftBook()
    book.add("alice", make_objective(id="d"), now=NOW)
    book.add("alice", make_objective(id="c"), now=NOW)
    book.confirm("alice", "c", now=NOW)
    book.add("alice", make_objective(id="r"), now=NOW)
    book.reject("alice", "r", now=NOW)
    for oid in ("d", "c"):
        entry = book.retract("alice", oid)
        assert entry.state == "withdrawn" and entry.objective.status == "withdrawn"
    for oid in ("d", "r"):
        with pytest.raises(ObjectiveUnknown):
            book.retract("alice", oid)
    book.add("alice", make_objective(id="x"), now=NOW)
    with pytest.raises(ObjectiveUnknown):
        book.retract("bob", "x")  # not his: the same answer as unknown


def test_a_refused_objective_says_so_in_its_body(make_objective: MakeObjective) -> None:
    book = DraftBook()
    book.add("alice", make_objective(id="o-1"), now=NOW)
    book.confirm("alice", "o-1", now=NOW)
    entry = refuse(book, "alice", "o-1")
    assert (entry.state, entry.objective.status) == ("refused", "refused")
    # Pushed again (coercion) it is confirmed by the steward, then refused again.
    again = book.confirm("alice", "o-1", now=NOW)
    assert again.prior_refusal and again.objective.status == "confirmed"
    assert refuse(book, "alice", "o-1").objective.status == "refused"


def test_undoing_a_wide_decision_leaves_what_others_changed_meanwhile(
    make_objective: MakeObjective,
) -> None:
    # An expiry sweep checkpoints every id; while its write is in flight a
    # confirm of another draft lands. Undoing the sweep must not undo it.
    book = DraftBook(ttl_s=60)
    old = book.add("alice", make_objective(id="old"), now=NOW)
    book.add("alice", make_objective(id="new"), now=NOW + dt.timedelta(seconds=50))
    sweep = book.checkpoint(["old", "new"])
    assert [e.objective.id for e in book.expire(NOW + dt.timedelta(seconds=61))] == ["old"]
    confirm = book.checkpoint(["new"])
    book.confirm("alice", "new", now=NOW + dt.timedelta(seconds=62))
    book.settle(confirm)
    book.rollback(sweep)
    assert book.get("alice", "old") == old  # the sweep's own change is undone
    assert book.get("alice", "new").state == "confirmed"  # the confirm stays


def test_durable_entries_never_show_a_decision_still_being_written(
    make_objective: MakeObjective,
) -> None:
    book = DraftBook(ttl_s=60)
    kept = book.add("alice", make_objective(id="kept"), now=NOW)
    first = book.checkpoint(["kept", "added"])
    book.confirm("alice", "kept", now=NOW)
    book.add("alice", make_objective(id="added"), now=NOW)
    shown = {e.objective.id: e for e in book.durable_entries()}
    assert shown == {"kept": kept}  # as last written: pending, and no "added"
    book.settle(first)
    assert {e.objective.id: e.state for e in book.durable_entries()} == {
        "kept": "confirmed", "added": "pending",
    }  # fmt: skip


def test_prune_forgets_settled_objectives_and_keeps_open_ones_a_year(
    make_objective: MakeObjective,
) -> None:
    """§9: an objective not settled can still be withdrawn, expire or be
    reported on, however old; a settled one leaves memory after the draft
    lifetime (the store keeps it)."""
    book = DraftBook(ttl_s=60)
    states = {"deferred": "defer", "clarifying": "clarify", "countered": "counter-offer"}
    for n, answer in enumerate([*states.values(), "accept"]):
        oid = f"o{n}"
        book.add("alice", make_objective(id=oid), now=NOW)
        book.confirm("alice", oid, now=NOW, revision=1)
        book.advance(oid, "offer", principal="alice")
        book.advance(oid, answer)
    book.add("alice", make_objective(id="gone"), now=NOW)
    book.reject("alice", "gone", now=NOW)
    book.add("alice", make_objective(id="back"), now=NOW)
    book.confirm("alice", "back", now=NOW, revision=1)
    book.advance("back", "offer", principal="alice")
    book.advance("back", "defer")
    book.retract("alice", "back")
    a_day_on = NOW + dt.timedelta(days=1)
    assert book.prune(a_day_on) == 2  # rejected and withdrawn
    left = {e.objective.id: e.state for e in book.entries()}
    assert left == {"o0": "deferred", "o1": "clarifying", "o2": "countered", "o3": "accepted"}
    assert book.retract("alice", "o0").state == "withdrawn"  # still open to the steward
    assert book.prune(NOW + dt.timedelta(days=367)) == 4  # past the year a restart loads


def test_open_count_is_what_is_confirmed_and_not_settled(make_objective: MakeObjective) -> None:
    book = DraftBook()
    book.add("alice", make_objective(id="draft"), now=NOW)  # a draft: counted apart
    for oid, answer in (("a", "accept"), ("d", "defer"), ("r", "refuse")):
        book.add("alice", make_objective(id=oid), now=NOW)
        book.confirm("alice", oid, now=NOW, revision=1)
        book.advance(oid, "offer", principal="alice")
        book.advance(oid, answer)
    assert book.open_count("alice") == 2 and book.open_count("bob") == 0
    book.retract("alice", "d")
    assert book.open_count("alice") == 1


@pytest.mark.parametrize(
    "edits",
    [
        {"deadline": "2026-04-30"},  # yesterday
        {"deadline": "2026-05-01T09:00:00+00:00"},  # an hour ago
        {"constraints": [{"kind": "time", "value": "1999-01-01"}]},
    ],
)
def test_an_edit_to_a_deadline_already_past_is_invalid_and_changes_nothing(
    make_objective: MakeObjective, edits: dict[str, object]
) -> None:
    # A probe: it was confirmed, then expired within a minute, its question
    # ("That deadline has already passed…") never answerable.
    book = DraftBook()
    book.add("alice", make_objective(), now=NOW)
    with pytest.raises(ObjectiveInvalid) as exc:
        book.confirm("alice", "obj-1", now=NOW, edits=edits)
    assert [e.path for e in exc.value.errors] == ["deadline"]
    assert [e.objective.id for e in book.pending("alice", now=NOW)] == ["obj-1"]
    today = book.confirm("alice", "obj-1", now=NOW, edits={"deadline": "2026-05-01"})
    assert today.objective.deadline == "2026-05-01"


def test_an_edited_agent_is_spelled_as_the_roster_spells_it(make_objective: MakeObjective) -> None:
    book = DraftBook()
    book.add("alice", make_objective(), now=NOW)
    roster = ("Abeni", "Kofi", "Zuri")
    done = book.confirm("alice", "obj-1", now=NOW, edits={"agent": "zURI"}, agents=roster)
    assert done.objective.agent == "Zuri"


@pytest.mark.parametrize(
    ("text", "reply"),
    [
        ("yes pls", "confirm"),
        ("ok thx", "confirm"),
        ("k", "confirm"),
        ("sure why not", "confirm"),
        ("no thx", "reject"),
        # A "no" that means "fine" or "I don't know" is no refusal (it was one).
        ("no problem", None),
        ("no worries", None),
        ("no idea", None),
    ],
)
def test_typed_shorthand_and_no_problem(text: str, reply: str | None) -> None:
    assert classify_reply(text) == reply


def test_an_edit_of_other_constraints_is_not_refused_for_a_passed_deadline(
    make_objective: MakeObjective,
) -> None:
    # Only a deadline edited to a past moment is refused; editing a place on a
    # draft whose clock-time deadline has just passed is not about it.
    book = DraftBook()
    book.add("alice", make_objective(deadline="2026-05-01"), now=NOW)
    place = [{"kind": "time", "value": "2026-05-01"}, {"kind": "location", "value": "by the pond"}]
    later = NOW + dt.timedelta(hours=20)
    done = book.confirm("alice", "obj-1", now=later, edits={"constraints": place})
    assert done.objective.deadline == "2026-05-01"


@pytest.mark.parametrize(
    ("text", "reply"),
    [
        ("Yes, please do go ahead, dear.", "confirm"),
        ("Splendid, yes.", "confirm"),
        ("Okay, is fine", "confirm"),
        ("ya go ahead", "confirm"),
        ("👍", "confirm"),
        ("yess", "confirm"),
        ("No, I don't think so, thank you.", "reject"),
        ("Perhaps not just now, dear.", "reject"),
        ("noo", "reject"),
    ],
)
def test_replies_as_people_type_them(text: str, reply: str) -> None:
    assert classify_reply(text) == reply


@pytest.mark.parametrize(
    ("edits", "fields"),
    [
        # A client-author probe: only "priority" (or "autonomy") was named;
        # the past deadline was judged only once every other field passed.
        ({"deadline": "2020-01-01", "priority": 101}, ["priority", "deadline"]),
        ({"deadline": "2020-01-01", "autonomy": "x"}, ["autonomy", "deadline"]),
        ({"deadline": "2020-01-01"}, ["deadline"]),
        ({"deadline": "not a date", "priority": 101}, ["deadline", "priority"]),
        # A bad constraint of another kind hid the past deadline too; it is
        # named at the index it was sent at (the time constraint went first).
        (
            {"deadline": "2020-01-01", "constraints": [{"kind": "nope", "value": "x"}]},
            ["constraints[0].kind", "deadline"],
        ),
    ],
)
def test_a_past_deadline_is_named_with_every_other_failing_field(
    make_objective: MakeObjective, edits: dict[str, object], fields: list[str]
) -> None:
    book = DraftBook()
    book.add("alice", make_objective(), now=NOW)
    with pytest.raises(ObjectiveInvalid) as exc:
        book.confirm("alice", "obj-1", now=NOW, edits=edits)
    assert sorted({e.path for e in exc.value.errors}) == sorted(fields)


@pytest.mark.parametrize(
    ("text", "reply"),
    [
        # A typed probe's households: these got "I heard you, but not what to do".
        ("Lovely, ta", "confirm"), ("Aye, go on then", "confirm"), ("aye", "confirm"),
        ("That'll do nicely", "confirm"), ("Spot on, cheers", "confirm"),
        ("Right you are", "confirm"), ("Yes, that's it, cheers love", "confirm"),
        ("yh", "confirm"), ("y", "confirm"), ("yes mate", "confirm"), ("yes it is", "confirm"),
        ("Is good", "confirm"), ("please go ahead", "confirm"), ("all good", "confirm"),
        ("that's perfect", "confirm"), ("perfect thanks", "confirm"),
        ("n", "reject"), ("nvm", "reject"), ("nope, scrap it", "reject"),
        ("no thanks, not today", "reject"),
        # A typed probe (2026-12-06): the draft stayed pending, the user
        # thinking it confirmed or cancelled.
        ("Yes, thank you kindly.", "confirm"), ("Yes, that would be lovely.", "confirm"),
        ("Yes please, that would be wonderful, thank you.", "confirm"), ("yessir", "confirm"),
        ("Please cancel that.", "reject"), ("On reflection, please cancel that.", "reject"),
        ("No, thank you, I have changed my mind.", "reject"), ("nvm i fixed it", "reject"),
        ("naw", "reject"), ("No. I want cancel.", "reject"),
        ("please do", "confirm"), ("please", None),
        # A review: "please" and a statement asked are no reply.
        ("please no rush", None), ("please no ladder", None), ("already done?", None),
        ("i fixed it?", None), ("no wait", None), ("no stress", None), ("bet", "confirm"),
        ("please stop it", "reject"), ("on reflection, stop it", "reject"), ("no rush", None),
        ("please no", "reject"),
        # Small talk stays small talk.
        ("fine", None), ("good", None), ("Great.", None), ("cool", None),
    ],
)  # fmt: skip
def test_household_replies(text: str, reply: str | None) -> None:
    assert classify_reply(text) == reply
