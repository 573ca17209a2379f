"""Write, then announce: one session's decisions, in order, as critical steps.

Every decision a client is told about is applied to the draft book (by
planning), written to the event log in one transaction with the message
id's outcome, and only then announced. While a write is in flight the
session's later input is held and run after it, in order: a decision is one
atomic step that no later message can cancel or overtake.

A step is never cancelled by a turn, nor by a detach: cancelling the await
of a write that may still land would roll back a book the log already
holds. Its owner drains the steps (bounded) before the event log closes.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from typing import Final, Protocol

from vac import intent
from vac.clock import now_ms
from vac.logs import get_logger
from vac.protocol.messages import Outbound
from vac.runtime.decisions import Plan
from vac.runtime.outcomes import encode_replies
from vac.runtime.session import Session
from vac.runtime.store import Outcome, Step, StorageUnavailable
from vac.runtime.tasks import TaskSet

log = get_logger("vac.turns")
# Input held while a decision is being written (normally a few ms of fsync).
# Bounded: past it the session is answered `busy` until the disk catches up.
MAX_HELD_MESSAGES: Final = 512


class DecisionSteps:
    """The decisions being written for one session, and the input behind them."""

    def __init__(
        self,
        commit: Callable[[Step], Awaitable[None]],
        book: intent.DraftBook,
        session_id: str,
    ) -> None:
        self._commit = commit
        self._book = book
        self._session_id = session_id
        self._tasks = TaskSet()
        self._last: asyncio.Task[None] | None = None
        self._held: deque[Callable[[], None]] = deque()

    @property
    def writing(self) -> bool:
        """Whether a decision is being written (later input must wait)."""
        return self._last is not None

    @property
    def has_room(self) -> bool:
        return len(self._held) < MAX_HELD_MESSAGES

    def hold(self, later: Callable[[], None]) -> None:
        """Run `later` once every decision in flight is written and announced."""
        self._held.append(later)

    def step_of(
        self, plan: Plan, session: Session, ref: str | None, replies: list[Outbound]
    ) -> Step:
        """What one transaction writes for `plan`: its rows, audits and the
        id's outcome. A failure here undoes the plan: nothing is half-applied."""
        try:
            outcome = None if ref is None else outcome_of(session, ref, replies)
        except BaseException:
            self._book.rollback(plan.checkpoint)
            raise
        return Step(objectives=plan.rows, audits=plan.audits, outcome=outcome)

    def question(
        self, session: Session, ref: str | None, replies: list[Outbound]
    ) -> asyncio.Task[None] | None:
        """A turn that ends in a question changes nothing, but its message id's
        outcome is written before it is asked: the same id sent again after a
        restart is asked again, never decided (a durability probe: a "yes"
        asked "which one?" confirmed a draft when sent again after a restart).
        The task fails when the write does: the question is then never asked."""
        if ref is None:
            return None
        step = Step(outcome=outcome_of(session, ref, replies))
        return self.run(step, self._book.checkpoint([]), lambda: None, _no_op)

    def run(
        self,
        step: Step,
        checkpoint: intent.Checkpoint,
        announce: Callable[[], None],
        failed: Callable[[BaseException], None],
    ) -> asyncio.Task[None]:
        """Write `step`, then `announce` it; the session's later input waits for both.

        Once the book has changed, the change is either written and
        announced, or rolled back and `failed` says so, before any held
        input runs.
        """
        previous = self._last
        book = self._book

        async def run() -> None:
            if previous is not None:
                await asyncio.wait([previous])  # decisions are written in order
            try:
                await self._commit(step)
            except BaseException as exc:
                book.rollback(checkpoint)
                failed(exc)
                raise
            book.settle(checkpoint)
            announce()

        task = self._tasks.spawn(run())
        self._last = task
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[None]) -> None:
        if self._last is task:
            self._last = None
        if not task.cancelled():
            exc = task.exception()
            if exc is not None and not isinstance(exc, StorageUnavailable):
                log.error("decision_failed", session=self._session_id, error=repr(exc))
        while self._held and self._last is None:
            held = self._held.popleft()
            try:
                held()
            except Exception as exc:  # never strand the rest of the queue
                log.error("held_message_failed", session=self._session_id, error=repr(exc))

    async def settled(self) -> None:
        """Wait, without a bound, until every decision in flight has landed or failed."""
        await self._tasks.wait()

    async def drain(self, timeout_s: float) -> int:
        """Wait for the writes in flight (bounded); return how many were cut."""
        return await self._tasks.drain(timeout_s)


def outcome_of(session: Session, ref: str, replies: list[Outbound]) -> Outcome:
    """Message `ref`'s outcome: what a repeat of it is answered with."""
    return Outcome(
        session=session.id,
        msg_id=ref,
        principal=session.principal,
        at_ms=now_ms(),
        replies=encode_replies(replies),
    )


def _no_op(_exc: BaseException) -> None:
    """The question's own turn reports a failed write (`Coordinator._clarified`)."""


class _Writer(Protocol):
    @property
    def writing(self) -> bool: ...
    async def settled(self) -> None: ...


async def settled_within(writers: Iterable[_Writer], timeout_s: float) -> None:
    """Wait up to `timeout_s` for the decisions `writers` (sessions) are
    writing to land and be announced; waiting never cancels one. At shutdown,
    before `bye` (a durability probe: `bye {shutdown}` came before the
    `objective.confirmed` of a confirm sent just before the SIGTERM, or the
    turn ended `cancelled` while its draft was written)."""
    waits = TaskSet()
    for writer in writers:
        if writer.writing:
            waits.spawn(writer.settled())
    # Cut after the time: the waits, not the writes (`TaskSet.wait` cancels nothing).
    await waits.drain(timeout_s)
