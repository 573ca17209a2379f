"""Settled objectives are held per principal, the newest `MAX_SETTLED_KEPT`:
a steward drafting and rejecting in a loop never grows the book."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pytest

from vac.intent import DraftBook, ObjectiveUnknown
from vac.intent.gate import MAX_SETTLED_KEPT
from vac.protocol.objective import Objective

MakeObjective = Callable[..., Objective]
NOW = dt.datetime(2026, 5, 1, 10, 0, tzinfo=dt.UTC)


def test_drafts_rejected_in_a_loop_never_grow_the_book(make_objective: MakeObjective) -> None:
    book = DraftBook()
    book.add("bob", make_objective(id="bob-1"), now=NOW)
    book.reject("bob", "bob-1", now=NOW)
    for n in range(3 * MAX_SETTLED_KEPT):
        book.add("alice", make_objective(id=f"a{n}"), now=NOW)
        if n % 2:
            book.reject("alice", f"a{n}", now=NOW)
        else:
            book.withdraw("alice", f"a{n}")
    assert len(book.entries()) == MAX_SETTLED_KEPT + 1
    # The newest are still told what became of them; the oldest are unknown.
    last = f"a{3 * MAX_SETTLED_KEPT - 1}"
    with pytest.raises(ObjectiveUnknown, match="rejected"):
        book.confirm("alice", last, now=NOW)
    with pytest.raises(ObjectiveUnknown) as plain:
        book.confirm("alice", "a0", now=NOW)
    assert plain.value.detail is None
    # One principal's churn never pushes out another's.
    with pytest.raises(ObjectiveUnknown, match="rejected"):
        book.confirm("bob", "bob-1", now=NOW)


def test_open_and_pending_objectives_are_never_pushed_out(make_objective: MakeObjective) -> None:
    book = DraftBook()
    book.add("alice", make_objective(id="open"), now=NOW)
    book.confirm("alice", "open", now=NOW)
    book.advance("open", "offer", principal="alice")
    book.advance("open", "accept")
    book.add("alice", make_objective(id="draft"), now=NOW)
    for n in range(MAX_SETTLED_KEPT + 10):
        book.add("alice", make_objective(id=f"a{n}"), now=NOW)
        book.reject("alice", f"a{n}", now=NOW)
    assert book.get("alice", "open").state == "accepted"
    assert book.get("alice", "draft").state == "pending"


def test_a_settled_objective_a_decision_is_about_stays_until_it_is_written(
    make_objective: MakeObjective,
) -> None:
    book = DraftBook()
    book.add("alice", make_objective(id="first"), now=NOW)
    book.reject("alice", "first", now=NOW)
    sweep = book.checkpoint(["first"])  # e.g. an expiry sweep being written
    for n in range(MAX_SETTLED_KEPT):
        book.add("alice", make_objective(id=f"a{n}"), now=NOW)
        book.reject("alice", f"a{n}", now=NOW)
    assert book.get("alice", "first").state == "rejected"
    book.settle(sweep)
    book.add("alice", make_objective(id="later"), now=NOW)
    book.reject("alice", "later", now=NOW)
    with pytest.raises(ObjectiveUnknown):
        book.get("alice", "first")
    assert len(book.entries()) == MAX_SETTLED_KEPT
