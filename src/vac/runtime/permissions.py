"""Permission-requests on the household channel (PROTOCOL §9).

An agent's `permission-request` stays open until a steward answers it
(`squad.answer`, or a spoken "yes, go ahead" / "no" while it is the only
one open and no draft is waiting in that session) or the agent it asks
(`to`) does, or for 24 hours. The answer is a decision like any other:
written (an audit row naming who answered), then announced as
`squad.answered` to who answered, every other attached session of the
household's stewards, the asking agent and the agent asked.

A request is a decision too: written (an audit row `permission_requested`
with the asking agent and the text) before anyone hears it, so a repeated
message id never asks twice, also after a restart. Open requests live in
memory, bounded (`permission_desk`): an asker with `MAX_OPEN_PER_ASKER`
open gets `rate_limited` for one more, and nothing is written. At start-up
the daemon opens again every request of the last day the event log has no
answer for.
"""

from __future__ import annotations

import msgspec

from vac.clock import monotonic_s, now_ms
from vac.protocol.errors import ProtocolError
from vac.protocol.messages import (
    Outbound,
    PermissionAnswer,
    SquadAnswer,
    SquadAnswered,
    SquadMessage,
    SquadWithdraw,
    SquadWithdrawn,
)
from vac.runtime.decisions import Plan
from vac.runtime.permission_desk import MAX_OPEN_PER_ASKER, OpenRequest, Seen
from vac.runtime.session import Session
from vac.runtime.shared import SharedState
from vac.runtime.store import AuditRow


def answer_plan(
    shared: SharedState,
    session: Session,
    turn_id: str,
    request: OpenRequest,
    answer: PermissionAnswer,
    text: str,
    ref: str | None,
) -> Plan:
    """The steward's answer as a decision: audited, then announced (and spoken)."""
    answered = SquadAnswered(
        ref=ref,
        turn=turn_id,
        message_id=request.message_id,
        answer=answer,
        text=text,
        by=session.principal,
        asked_by=request.asked_by,
    )
    audit = AuditRow(
        at_ms=now_ms(),
        kind="permission_answered",
        principal=session.principal,
        detail={"message_id": request.message_id, "answer": answer, "asked_by": request.asked_by},
    )

    def applied() -> None:
        _tell_household(shared, session, request, answered)

    said = "Granted" if answer == "granted" else "Denied"
    return Plan(
        checkpoint=shared.book.checkpoint([]),
        rows=[],
        audits=[audit],
        messages=[answered],
        spoken=f"{said}. I've told {request.asked_by}.",
        status="completed",
        applied=applied,
        undo=lambda: shared.permissions.reopen(request),
    )


def withdrawn_plan(shared: SharedState, session: Session, msg: SquadWithdraw) -> Plan:
    """The asking agent takes its request back (no turn): closed now (open
    again if the write fails), audited, then `squad.withdrawn` to it (with
    `ref`) and to everyone the request reached. Anyone else's withdraw gets
    what an unknown id gets."""
    agent = (session.agent or "").lower()
    request = shared.permissions.take(
        msg.message, monotonic_s(), "withdrawn", lambda r: r.asked_by.lower() == agent
    )
    withdrawn = SquadWithdrawn(ref=msg.id, message_id=request.message_id, asked_by=request.asked_by)
    audit = AuditRow(
        at_ms=now_ms(),
        kind="permission_withdrawn",
        principal=session.principal,
        detail={"message_id": request.message_id, "asked_by": request.asked_by},
    )
    return Plan(
        checkpoint=shared.book.checkpoint([]),
        rows=[],
        audits=[audit],
        messages=[withdrawn],
        spoken=None,
        status="completed",
        applied=lambda: _tell_household(shared, session, request, withdrawn),
        undo=lambda: shared.permissions.reopen(request),
    )


def _tell_household(
    shared: SharedState, origin: Session, request: OpenRequest, msg: Outbound
) -> None:
    """What became of a request, without `ref` (nor `turn`), to every other
    attached session it reached: the stewards', the asking agent's, and the
    agent's it asked. `origin` was told with `ref`."""
    copy = msgspec.structs.replace(msg, ref=None)
    if isinstance(copy, SquadAnswered):
        copy = msgspec.structs.replace(copy, turn=None)
    asked_by = request.asked_by.lower()

    def reached(other: Session) -> bool:
        agent = other.agent
        return agent is None or agent.lower() == asked_by or request.asked_of(agent)

    for other in list(shared.transport.attached()):
        if other is not origin and reached(other):
            shared.transport.send(other, copy)
    shared.unannounce(request.message_id)  # settled: no steward is asked it aloud now
    if isinstance(copy, SquadAnswered | SquadWithdrawn):  # a session away hears it back
        shared.hold_for_resume(copy, reached)


def requested_plan(
    shared: SharedState, session: Session, asked: SquadMessage, spoken: str | None
) -> Plan:
    """A routed `permission-request` as a decision: audited, then opened and
    announced (to the sender as `asked`, to the household as its copy);
    `rate_limited` when its asker has `MAX_OPEN_PER_ASKER` open already."""
    if shared.permissions.open_by(session.principal, monotonic_s()) >= MAX_OPEN_PER_ASKER:
        raise ProtocolError(
            "rate_limited",
            f"{MAX_OPEN_PER_ASKER} permission-requests of yours are open;"
            " withdraw some or wait for their answers",
            details={"retry_after_ms": 60_000},
        )
    copy = msgspec.structs.replace(asked, ref=None, turn=None)
    audit = AuditRow(
        at_ms=now_ms(),
        kind="permission_requested",
        principal=session.principal,
        detail={
            "message_id": asked.message_id,
            "asked_by": asked.sender,
            "text": asked.text,
            "message": msgspec.to_builtins(copy),
        },
    )

    def applied() -> None:
        if asked.message_id is not None:
            shared.permissions.open(
                OpenRequest(
                    asked.message_id,
                    asked.sender,
                    asked.text,
                    monotonic_s(),
                    copy,
                    session.principal,
                )
            )
        shared.share_squad(session, asked)  # §9: the household hears it

    return Plan(
        checkpoint=shared.book.checkpoint([]),
        rows=[],
        audits=[audit],
        messages=[asked],
        spoken=spoken,
        status="completed",
        applied=applied,
    )


def posted_plan(
    shared: SharedState, session: Session, posted: SquadMessage, spoken: str | None
) -> Plan:
    """Any other squad message as a decision: its id's outcome written, then
    sent to the sender and shared with the household (§9), and spoken to
    the sender when it is for the steward."""
    return Plan(
        checkpoint=shared.book.checkpoint([]),
        rows=[],
        messages=[posted],
        spoken=spoken,
        status="completed",
        applied=lambda: shared.share_squad(session, posted),
    )


def typed_answer(shared: SharedState, session: Session, turn_id: str, msg: SquadAnswer) -> Plan:
    """`squad.answer`: closes the request now (reopened if the write fails).
    A steward answers any request; an agent only one asked of it (`to`)."""
    agent = session.agent
    seen: Seen = None if agent is None else lambda request: request.asked_of(agent)
    request = shared.permissions.take(msg.message, monotonic_s(), msg.answer, seen)
    return answer_plan(shared, session, turn_id, request, msg.answer, msg.text, msg.id)


def spoken_answer(
    shared: SharedState,
    session: Session,
    turn_id: str,
    reply_kind: str,
    sure: bool,
    ref: str | None,
) -> Plan | None:
    """A spoken yes/no while exactly one request is open (and no draft waits
    in this session): the answer to it. A yes heard without confidence is
    not an answer (None: the words are parsed as usual)."""
    request = shared.permissions.sole(monotonic_s())
    if request is None or not sure:
        return None
    answer: PermissionAnswer = "granted" if reply_kind == "confirm" else "denied"
    shared.permissions.take(request.message_id, monotonic_s(), answer)
    return answer_plan(shared, session, turn_id, request, answer, "", ref)
