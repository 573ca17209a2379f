"""Refusal memory is bounded per principal and keeps what it is for: the
newest refusals of each principal still make a push again coercion."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pytest

from vac.intent import DraftBook, DraftEntry, ObjectiveUnknown
from vac.protocol.objective import Objective

MakeObjective = Callable[..., Objective]
NOW = dt.datetime(2026, 5, 1, 10, 0, tzinfo=dt.UTC)


def target(n: int) -> dict[str, str]:
    return {"ref": f"prop:shed-{n}", "kind": "prop", "label": f"Shed {n}"}


def refused(book: DraftBook, make: MakeObjective, principal: str, oid: str, n: int) -> None:
    """`principal` asks (target n), confirms, and the agent refuses."""
    book.add(principal, make(id=oid, target=target(n)), now=NOW)
    book.confirm(principal, oid, now=NOW)
    book.advance(oid, "offer", principal=principal)
    book.advance(oid, "refuse")


def pushed_again(book: DraftBook, make: MakeObjective, principal: str, oid: str, n: int) -> bool:
    """A new draft of the same ask (a new id), confirmed: is it coercion?"""
    book.add(principal, make(id=oid, target=target(n)), now=NOW)
    return book.confirm(principal, oid, now=NOW).prior_refusal


def test_the_newest_refusals_are_kept_and_the_oldest_forgotten(
    make_objective: MakeObjective,
) -> None:
    book = DraftBook(max_refusals=3)
    for n in range(4):
        refused(book, make_objective, "alice", f"r{n}", n)
    assert book.refusals_kept("alice") == 3
    # The three newest: the same objective again, or the same ask anew, is coercion.
    assert book.confirm("alice", "r3", now=NOW).prior_refusal
    assert pushed_again(book, make_objective, "alice", "again-2", 2)
    assert pushed_again(book, make_objective, "alice", "again-1", 1)
    # The oldest is forgotten with its objective: like any settled one no longer held.
    with pytest.raises(ObjectiveUnknown):
        book.confirm("alice", "r0", now=NOW)
    assert not pushed_again(book, make_objective, "alice", "again-0", 0)


def test_one_principals_refusals_never_push_out_anothers(make_objective: MakeObjective) -> None:
    book = DraftBook(max_refusals=2)
    refused(book, make_objective, "bob", "b0", 0)
    for n in range(50):
        refused(book, make_objective, "alice", f"a{n}", n)
    assert (book.refusals_kept("alice"), book.refusals_kept("bob")) == (2, 1)
    assert pushed_again(book, make_objective, "bob", "b-again", 0)
    assert book.get("bob", "b0").state == "refused"


def test_a_refusal_pushed_again_becomes_the_newest(make_objective: MakeObjective) -> None:
    book = DraftBook(max_refusals=2)
    refused(book, make_objective, "alice", "r0", 0)
    refused(book, make_objective, "alice", "r1", 1)
    # r0 pushed again (the same id): refused again, so it is the newest now.
    assert book.confirm("alice", "r0", now=NOW).prior_refusal
    book.advance("r0", "offer", principal="alice")
    book.advance("r0", "refuse")
    refused(book, make_objective, "alice", "r2", 2)
    assert pushed_again(book, make_objective, "alice", "again-0", 0)
    assert not pushed_again(book, make_objective, "alice", "again-1", 1)


def test_memory_stays_flat_however_many_refusals(make_objective: MakeObjective) -> None:
    book = DraftBook(max_refusals=5)
    for n in range(2000):
        refused(book, make_objective, "alice", f"r{n}", n)
    assert book.refusals_kept("alice") == 5
    assert sorted(e.objective.id for e in book.entries()) == [f"r{n}" for n in range(1995, 2000)]


def test_an_undone_refusal_gives_back_the_one_it_pushed_out(
    make_objective: MakeObjective,
) -> None:
    book = DraftBook(max_refusals=1)
    refused(book, make_objective, "alice", "r0", 0)
    book.add("alice", make_objective(id="r1", target=target(1)), now=NOW)
    book.confirm("alice", "r1", now=NOW)
    book.advance("r1", "offer", principal="alice")
    cp = book.checkpoint(["r1"])
    book.advance("r1", "refuse")  # its write fails:
    assert not book.prior_refusal("alice", make_objective(id="x", target=target(0)))
    book.rollback(cp)
    assert book.get("alice", "r1").state == "offered"
    assert book.get("alice", "r0").state == "refused"
    assert book.prior_refusal("alice", make_objective(id="x", target=target(0)))
    assert not book.prior_refusal("alice", make_objective(id="y", target=target(1)))
    assert book.refusals_kept("alice") == 1


def test_load_keeps_the_newest_and_prune_the_objectives_remembered(
    make_objective: MakeObjective,
) -> None:
    entries = [
        DraftEntry("alice", make_objective(id=f"r{n}", target=target(n)), NOW, NOW, "refused")
        for n in range(4)
    ]
    book = DraftBook(max_refusals=2)
    book.load(entries, refused=entries)  # oldest refusal first
    assert sorted(e.objective.id for e in book.entries()) == ["r2", "r3"]
    assert book.prune(NOW + dt.timedelta(days=400)) == 0  # kept while remembered
    assert pushed_again(book, make_objective, "alice", "again-3", 3)
    assert not pushed_again(book, make_objective, "alice", "again-1", 1)


def test_forgetting_a_principal_forgets_its_refusals(make_objective: MakeObjective) -> None:
    book = DraftBook()
    refused(book, make_objective, "alice", "r0", 0)
    book.forget_principal("alice")
    assert book.refusals_kept("alice") == 0
    assert not pushed_again(book, make_objective, "alice", "again", 0)


def test_at_least_one_refusal_is_kept() -> None:
    with pytest.raises(ValueError):
        DraftBook(max_refusals=0)
