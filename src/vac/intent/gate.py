"""The steward gate: a draft binds only when its own principal confirms it.

Pure bookkeeping, no I/O: the runtime persists entries and hands them back on
restart (`DraftBook.load`). Every operation takes `now` explicitly.

    pending ──confirm──► confirmed ──offer──► offered ──answer──► accepted | refused | …
       │  ╲                                                     │
       │   reject ──► rejected                confirm again ────┘ (coercion)
       └── expire ──► expired

After the steward's confirm, an objective follows the lifecycle table of
`vac.protocol.objective_lifecycle` (`advance`); an entry's `state` is its
objective's `status`, except that a draft is `pending` in the book.

Another principal's draft is indistinguishable from a missing one: both raise
`ObjectiveUnknown` with the same message.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections import OrderedDict
from collections.abc import Collection, Iterable
from typing import Final, Literal

import msgspec

from vac.intent.commitments import deadline_passed
from vac.intent.errors import FieldError, ObjectiveInvalid, ObjectiveUnknown, RevisionStale
from vac.intent.refusals import DEFAULT_MAX_REFUSALS, RefusalMemory, Signature
from vac.intent.roster import DEFAULT_DRAFT_TTL_S
from vac.intent.spoken import Wording
from vac.intent.validate import apply_edits, check_draft_ready
from vac.protocol.objective import Objective
from vac.protocol.objective_lifecycle import (
    Event,
    Status,
    TransitionInvalid,
    is_final,
    next_status,
)

# "withdrawn": the turn that made the draft ended before the steward saw it,
# or the steward took it back. Past "confirmed": the lifecycle's statuses.
DraftState = Literal[
    "pending",
    "confirmed",
    "rejected",
    "expired",
    "refused",
    "withdrawn",
    "offered",
    "accepted",
    "countered",
    "deferred",
    "clarifying",
    "in-progress",
    "done",
    "failed",
]
# States kept in memory however old: a draft lives out its lifetime and an
# offer waits for its answer. A refused objective is kept while its refusal
# is remembered (`refusals.py`: the newest per principal).
_KEPT_STATES: Final[frozenset[str]] = frozenset({"pending", "offered"})
# Settled objectives (done, failed, rejected, expired, withdrawn) kept in
# memory per principal, the newest: a second confirm of one is told what
# became of it (`details.status`). Older ones are forgotten at once, not
# only after the draft lifetime; one of those is then what it is after a
# restart, plainly unknown. Without it a steward drafting and rejecting in a
# loop (~100 a second) held every one of them for a day (~2 KiB each).
MAX_SETTLED_KEPT: Final = 256
# How long an objective not yet settled is kept, in memory and across a
# restart (the daemon loads those made within it): a year.
OPEN_HORIZON: Final = dt.timedelta(days=366)


def status_of(entry: DraftEntry) -> Status:
    """The lifecycle status of an entry (a book's `pending` is a `draft`)."""
    if entry.state == "pending":
        return "draft"
    if entry.state == "confirmed" and entry.objective.accepted_by_agent:
        return "accepted"  # stored before the lifecycle had its own state
    return entry.state


class DraftEntry(msgspec.Struct, frozen=True):
    """One objective in the book, owned by `principal`, raised in `session`."""

    principal: str
    objective: Objective
    created_at: dt.datetime
    expires_at: dt.datetime
    state: DraftState = "pending"
    session: str = ""
    # The objective this draft counter-offers: the agent's own proposal.
    counter_of: str | None = None
    # The steward's words for its thing and time, to say it again the same way.
    wording: Wording | None = None


class Confirmed(msgspec.Struct, frozen=True):
    """A confirm that went through. `prior_refusal` means the agent already
    refused this objective (same id, or same agent+verb+target): pressing
    on is coercion, and the negotiation must be told."""

    entry: DraftEntry
    objective: Objective  # status confirmed, confirmed_by_steward true
    edited: bool
    prior_refusal: bool
    # The agent's own counter-offer, confirmed as it proposed it: accepted.
    own_proposal: bool = False


class Checkpoint:
    """What `DraftBook.rollback` needs to undo one decision whose write failed.

    Precise, not a snapshot: other sessions' decisions may change the book
    while this one is being written, and undoing this one must not undo
    theirs. It holds the entries this decision replaced, the refusals it
    added (with what each id was remembered as before) and those it pushed
    out of refusal memory (with their entries).
    """

    def __init__(self, entries: dict[str, DraftEntry | None]) -> None:
        self.before = entries
        self.after: dict[str, DraftEntry] = {}
        self.refusals: list[tuple[str, str, Signature | None]] = []
        self.forgotten: list[tuple[str, str, Signature, DraftEntry | None]] = []


class DraftBook:
    """Drafts keyed by objective id, plus the agents' refusals (the newest
    `max_refusals` of each principal: `refusals.py`)."""

    def __init__(
        self, *, ttl_s: int = DEFAULT_DRAFT_TTL_S, max_refusals: int = DEFAULT_MAX_REFUSALS
    ) -> None:
        if ttl_s <= 0:
            raise ValueError("ttl_s must be positive")
        self.ttl = dt.timedelta(seconds=ttl_s)
        self._entries: dict[str, DraftEntry] = {}
        self._refusals = RefusalMemory(max_refusals)
        self.max_refusals = max_refusals
        # Per principal, the settled objectives held, oldest first.
        self._settled: dict[str, OrderedDict[str, None]] = {}
        self._open: list[Checkpoint] = []  # decisions applied, not yet written

    # -- undo ------------------------------------------------------------

    def checkpoint(self, objective_ids: Iterable[str]) -> Checkpoint:
        """Start recording a decision about these objectives (absent ones too).

        A decision is applied here first, then written; when the write fails
        the runtime rolls it back, so nothing is half-applied. `settle` ends
        the recording once the write landed.
        """
        cp = Checkpoint({oid: self._entries.get(oid) for oid in objective_ids})
        self._open.append(cp)
        return cp

    def settle(self, cp: Checkpoint) -> None:
        """The decision is durable: stop recording it."""
        if cp in self._open:
            self._open.remove(cp)

    def rollback(self, cp: Checkpoint) -> None:
        """Undo exactly what `cp` recorded; what others changed since stays."""
        self.settle(cp)
        for oid, before in cp.before.items():
            current = self._entries.get(oid)
            if oid not in cp.after:
                continue  # this decision did not change it: whatever is there is theirs
            if current is not cp.after[oid]:
                continue  # changed again since by another decision: theirs
            if before is None:
                self._entries.pop(oid, None)
            else:
                self._entries[oid] = before
        for principal, oid, was in reversed(cp.refusals):
            self._refusals.undo_add(principal, oid, was)
        for principal, oid, sig, entry in reversed(cp.forgotten):
            self._refusals.restore(principal, oid, sig)
            if entry is not None:
                self._entries.setdefault(oid, entry)

    # -- lifecycle -------------------------------------------------------

    def add(
        self,
        principal: str,
        objective: Objective,
        *,
        now: dt.datetime,
        session: str = "",
        counter_of: str | None = None,
        wording: Wording | None = None,
    ) -> DraftEntry:
        """Admit a parser draft (or an agent's counter-offer of `counter_of`).
        A pre-confirmed/accepted one is malformed."""
        errors = check_draft_ready(objective)
        if errors:
            raise ObjectiveInvalid(errors)
        if objective.id in self._entries:
            raise ValueError(f"objective id {objective.id!r} is already in the book")
        entry = DraftEntry(
            principal, objective, now, now + self.ttl, "pending", session, counter_of, wording
        )
        self._entries[objective.id] = entry
        self._note(entry)
        return entry

    def load(self, entries: Iterable[DraftEntry], *, refused: Iterable[DraftEntry] = ()) -> None:
        """Restore persisted entries and refusals (after a restart); `refused`
        oldest refusal first, so the newest are the ones remembered."""
        for entry in entries:
            self._entries[entry.objective.id] = entry
        for gone in refused:
            self._remember_refusal(gone.principal, gone.objective)

    def get(self, principal: str, objective_id: str) -> DraftEntry:
        entry = self._entries.get(objective_id)
        if entry is None or entry.principal != principal:
            raise ObjectiveUnknown(objective_id)
        return entry

    def _live(self, principal: str, objective_id: str, now: dt.datetime) -> DraftEntry:
        entry = self.get(principal, objective_id)
        if entry.state == "pending" and now >= entry.expires_at:
            entry = self._set(entry, "expired")
        return entry

    def _set(
        self, entry: DraftEntry, state: DraftState, obj: Objective | None = None
    ) -> DraftEntry:
        new = msgspec.structs.replace(entry, state=state, objective=obj or entry.objective)
        self._entries[new.objective.id] = new
        self._note(new)
        if is_final(status_of(new)):
            self._keep_settled(new)
        return new

    def _keep_settled(self, entry: DraftEntry) -> None:
        """The newest settled objective of its principal; past `MAX_SETTLED_KEPT`
        the oldest is forgotten (the event log keeps it), unless a decision
        being written is about it."""
        mine = self._settled.setdefault(entry.principal, OrderedDict())
        mine[entry.objective.id] = None
        mine.move_to_end(entry.objective.id)
        excess = len(mine) - MAX_SETTLED_KEPT
        for oid in list(mine) if excess > 0 else ():
            if excess <= 0:
                break
            if oid == entry.objective.id:
                break  # the newest stays
            old = self._entries.get(oid)
            if old is not None and old.principal == entry.principal and is_final(status_of(old)):
                if any(oid in cp.before for cp in self._open):
                    continue  # a decision being written is about it: forgotten later
                del self._entries[oid]
            del mine[oid]
            excess -= 1

    def _note(self, entry: DraftEntry) -> None:
        """Tell the newest open decision about this objective what it set."""
        for cp in reversed(self._open):
            if entry.objective.id in cp.before:
                cp.after[entry.objective.id] = entry
                return

    def confirm(
        self,
        principal: str,
        objective_id: str,
        *,
        now: dt.datetime,
        revision: int | None = None,
        edits: object = None,
        agents: Collection[str] | None = None,
    ) -> Confirmed:
        """Confirm (optionally editing) a pending draft of `principal`.

        Raises `ObjectiveUnknown` (not theirs, unknown, expired, already
        settled), `RevisionStale` (an old revision), `ObjectiveInvalid` (bad
        edits, every failing field named). Confirming an objective the agent
        refused is allowed through with `prior_refusal=True`: the negotiation
        refuses again and audits the coercion. `agents` (the roster) makes an
        edited agent outside it one of the failing fields.
        """
        entry = self._live(principal, objective_id, now)
        if entry.state not in ("pending", "refused"):
            raise ObjectiveUnknown(objective_id, entry.state)
        obj = entry.objective
        if revision is not None and revision != obj.revision:
            others: list[FieldError] = []
            if edits is not None and entry.state == "pending":
                try:
                    apply_edits(obj, edits, new_revision=obj.revision + 1, agents=agents, now=now)
                except ObjectiveInvalid as exc:
                    others = exc.errors
            raise RevisionStale(objective_id, revision, obj.revision, others)
        edited = False
        if edits is not None and entry.state == "pending":
            edited_obj = apply_edits(
                obj, edits, new_revision=obj.revision + 1, agents=agents, now=now
            )
            edited, obj = edited_obj is not obj, edited_obj
        elif edits:
            raise ObjectiveUnknown(objective_id, "refused objectives cannot be edited")
        prior = self.prior_refusal(principal, obj) or entry.state == "refused"
        obj = msgspec.structs.replace(obj, status="confirmed", confirmed_by_steward=True)
        own = entry.counter_of is not None and not edited and not prior
        return Confirmed(self._set(entry, "confirmed", obj), obj, edited, prior, own)

    def reject(self, principal: str, objective_id: str, *, now: dt.datetime) -> DraftEntry:
        entry = self._live(principal, objective_id, now)
        if entry.state != "pending":
            raise ObjectiveUnknown(objective_id, entry.state)
        obj = msgspec.structs.replace(entry.objective, status="rejected")
        return self._set(entry, "rejected", obj)

    def withdraw(self, principal: str, objective_id: str) -> DraftEntry:
        """A draft its steward never saw (its turn was cancelled first): never
        pending, so no "yes" can confirm it."""
        entry = self.get(principal, objective_id)
        return self._set(entry, "withdrawn")

    def retract(self, principal: str, objective_id: str) -> DraftEntry:
        """The steward withdraws its own objective, in any state not final (§9).

        A settled one (rejected, refused, expired, withdrawn, done, failed)
        cannot be: that is `ObjectiveUnknown` with its state, like a confirm of it.
        """
        entry = self.get(principal, objective_id)
        try:
            return self.advance(objective_id, "withdraw", principal=principal)
        except TransitionInvalid:
            raise ObjectiveUnknown(objective_id, status_of(entry)) from None

    def advance(
        self,
        objective_id: str,
        event: Event,
        *,
        principal: str | None = None,
        said: str | None = None,
    ) -> DraftEntry:
        """Apply one lifecycle event (an offer, the agent's answer or report, a
        withdrawal, an expiry) to the objective; `TransitionInvalid` if it does
        not apply to its status now (nothing changes). With `principal`, only
        that principal's objective is found (`ObjectiveUnknown` otherwise).
        `said` is the report as the agent put it ("blocked"), for the refusal."""
        entry = self._entries.get(objective_id)
        if entry is None or (principal is not None and entry.principal != principal):
            raise ObjectiveUnknown(objective_id)
        status = next_status(objective_id, status_of(entry), event, said)
        accepted = entry.objective.accepted_by_agent or status == "accepted"
        obj = msgspec.structs.replace(entry.objective, status=status, accepted_by_agent=accepted)
        if event == "refuse":
            self._remember_refusal(entry.principal, entry.objective)
        return self._set(entry, "pending" if status == "draft" else status, obj)

    def find(self, objective_id: str) -> DraftEntry | None:
        """Any principal's entry (for the daemon's routing, never for a client)."""
        return self._entries.get(objective_id)

    def expire(self, now: dt.datetime) -> list[DraftEntry]:
        """Expire every pending draft past its lifetime, and every objective
        not yet settled whose deadline passed; returns those."""
        expired: list[DraftEntry] = []
        for entry in list(self._entries.values()):
            if entry.objective.id not in self._entries:
                continue  # forgotten meanwhile: settled long ago
            if entry.state == "pending":
                if now >= entry.expires_at:
                    obj = msgspec.structs.replace(entry.objective, status="expired")
                    expired.append(self._set(entry, "expired", obj))
            elif entry.state not in ("refused", "confirmed") and deadline_passed(
                entry.objective, now
            ):
                with contextlib.suppress(TransitionInvalid):  # final already
                    expired.append(self.advance(entry.objective.id, "expire"))
        return expired

    def open_count(self, principal: str) -> int:
        """`principal`'s objectives confirmed and not yet settled (refused aside)."""
        return sum(
            1
            for e in self._entries.values()
            if e.principal == principal
            and e.state not in ("pending", "refused")
            and not is_final(status_of(e))
        )

    def pending(
        self, principal: str, *, now: dt.datetime, session: str | None = None
    ) -> list[DraftEntry]:
        """`principal`'s live drafts (optionally of one session), oldest first."""
        return sorted(
            (
                e
                for e in self._entries.values()
                if e.principal == principal
                and e.state == "pending"
                and now < e.expires_at
                and (session is None or e.session == session)
            ),
            key=lambda e: e.created_at,
        )

    def sole_pending(self, principal: str, *, session: str, now: dt.datetime) -> DraftEntry | None:
        """The draft a spoken "yes"/"no" applies to: only when exactly one is
        pending in that session (otherwise the words are parsed as a turn)."""
        live = self.pending(principal, now=now, session=session)
        return live[0] if len(live) == 1 else None

    # -- refusals --------------------------------------------------------

    def _remember_refusal(self, principal: str, obj: Objective) -> None:
        """The newest refusal of `principal`'s; past the bound the oldest is
        forgotten, and its objective, still refused, with it (a confirm of it
        is then what a confirm of any settled objective no longer held is)."""
        before, forgotten = self._refusals.add(principal, obj)
        dropped: list[tuple[str, str, Signature, DraftEntry | None]] = []
        for oid, sig in forgotten:
            entry = self._entries.get(oid)
            if entry is not None and entry.state == "refused" and entry.principal == principal:
                del self._entries[oid]
            else:
                entry = None
            dropped.append((principal, oid, sig, entry))
        for cp in reversed(self._open):
            if obj.id in cp.before:
                cp.refusals.append((principal, obj.id, before))
                cp.forgotten += dropped
                return

    def prior_refusal(self, principal: str, objective: Objective) -> bool:
        """Did the agent refuse this objective (by id, or by agent + verb +
        target) when `principal` asked, among the refusals remembered?
        Another principal's refusals never count."""
        return self._refusals.knows(principal, objective)

    def refusals_kept(self, principal: str) -> int:
        """How many of `principal`'s refusals are remembered."""
        return self._refusals.count(principal)

    def forget_principal(self, principal: str) -> int:
        """Drop every entry and refusal of `principal` (data deletion);
        returns how many entries."""
        gone = [k for k, e in self._entries.items() if e.principal == principal]
        for key in gone:
            del self._entries[key]
        self._refusals.forget_principal(principal)
        self._settled.pop(principal, None)
        return len(gone)

    def prune(self, now: dt.datetime, open_for: dt.timedelta = OPEN_HORIZON) -> int:
        """Forget settled entries (done, failed, rejected, expired, withdrawn)
        older than the draft lifetime: memory stays bounded, the event log
        keeps them. A refused objective stays while its refusal is
        remembered (the newest per principal). Objectives not settled (offered,
        accepted, in progress, countered, deferred, clarifying) stay while
        they can still be withdrawn, expire or be reported on (PROTOCOL §9):
        `open_for` after they were made, as a restart loads them."""
        cutoff = now - self.ttl
        gone = [
            k
            for k, e in self._entries.items()
            if e.state not in _KEPT_STATES
            and (
                not self._refusals.holds(e.principal, k)
                if e.state == "refused"
                else e.created_at < cutoff
                and (is_final(status_of(e)) or e.created_at < now - open_for)
            )
        ]
        for key in gone:
            del self._entries[key]
        return len(gone)

    def entries(self) -> list[DraftEntry]:
        return list(self._entries.values())

    def durable_entries(self) -> list[DraftEntry]:
        """Every entry as last written: one a decision is still writing shows
        what it replaced (the oldest such decision's), so a read of memory
        never tells what may yet be rolled back."""
        shown = dict(self._entries)
        for cp in reversed(self._open):
            for oid, before in cp.before.items():
                if oid not in cp.after:
                    continue
                if before is None:
                    shown.pop(oid, None)
                else:
                    shown[oid] = before
        return list(shown.values())
