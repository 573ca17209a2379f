"""The TurnCoordinator: one per session, owning its turns.

PROTOCOL §5: a turn begins with a final transcript, a `text.input`, or a
confirm/reject, and ends with exactly one `turn.done`. One turn is active per
session; a new one first ends the old with `turn.done {cancelled}`.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from vac.logs import get_logger
from vac.protocol.errors import ProtocolError
from vac.protocol.messages import (
    InboundMessage,
    TextInput,
    TranscriptFinal,
    TurnCancel,
    TurnDone,
    TurnStatus,
)
from vac.protocol.objective import Objective
from vac.runtime.session import Session, new_id
from vac.runtime.store import EventLog

if TYPE_CHECKING:
    from vac.daemon.server import Server

log = get_logger("vac.turns")
MAX_ENDED_TURNS = 64


def now_ms() -> int:
    return time.time_ns() // 1_000_000


@dataclass
class Turn:
    id: str
    started_s: float
    task: asyncio.Task[None] | None = None
    done: bool = False


@dataclass
class SessionTurns:
    active: Turn | None = None
    ended: list[str] = field(default_factory=list)


class TurnCoordinator:
    features: tuple[str, ...] = ("text.input", "resume", "idempotency")

    def __init__(self, server: Server) -> None:
        self.server = server
        self.store = server.store
        self._turns: dict[str, SessionTurns] = {}

    def _state(self, session: Session) -> SessionTurns:
        st = self._turns.get(session.id)
        if st is None:
            st = self._turns[session.id] = SessionTurns()
        return st

    # ------------------------------------------------------- server hooks

    async def on_attached(self, session: Session, resumed: bool) -> list[Objective]:
        return []

    def on_detached(self, session: Session, reason: str) -> None:
        st = self._turns.get(session.id)
        if st is not None and st.active is not None and st.active.task is not None:
            st.active.task.cancel()

    async def resume_lookup(self, session_id: str) -> dict[str, Any] | None:
        return await self.store.call(EventLog.session_row, session_id)

    def on_message(self, session: Session, msg: InboundMessage, payload: bytes | None) -> None:
        match msg:
            case TextInput():
                self._start_turn(session, msg.id, lambda turn: self._text_turn(session, turn, msg))
            case TurnCancel():
                self._cancel_turn(session, msg)
            case _:
                self.server.error(
                    session,
                    ProtocolError(
                        "invalid_message", f"{type(msg).__name__} is not supported", ref=msg.id
                    ),
                )

    # ---------------------------------------------------------------- turns

    def _start_turn(self, session: Session, ref: str, body: Any) -> Turn:
        st = self._state(session)
        self._end_active(session, st, "cancelled")
        turn = Turn(id=new_id(), started_s=time.monotonic())
        st.active = turn
        turn.task = asyncio.ensure_future(self._run(session, turn, body(turn)))
        return turn

    async def _run(self, session: Session, turn: Turn, body: Any) -> None:
        try:
            await body
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("turn_failed", session=session.id, turn=turn.id)
            self.finish(session, turn, "failed", {})

    def finish(
        self, session: Session, turn: Turn, status: TurnStatus, latency_ms: dict[str, int]
    ) -> None:
        """End a turn with its one `turn.done`."""
        if turn.done:
            return
        turn.done = True
        st = self._state(session)
        if st.active is turn:
            st.active = None
        st.ended.append(turn.id)
        del st.ended[:-MAX_ENDED_TURNS]
        self.server.send(session, TurnDone(turn=turn.id, status=status, latency_ms=latency_ms))

    def _end_active(self, session: Session, st: SessionTurns, status: TurnStatus) -> None:
        if st.active is not None:
            turn = st.active
            if turn.task is not None:
                turn.task.cancel()
            self.finish(session, turn, status, {})

    def _cancel_turn(self, session: Session, msg: TurnCancel) -> None:
        st = self._state(session)
        if st.active is not None and st.active.id == msg.turn:
            self._end_active(session, st, "cancelled")
        elif msg.turn not in st.ended:
            self.server.error(
                session,
                ProtocolError("turn_unknown", "no such turn", ref=msg.id, turn=msg.turn),
            )

    async def _text_turn(self, session: Session, turn: Turn, msg: TextInput) -> None:
        self.server.send(
            session,
            TranscriptFinal(ref=msg.id, stream=None, turn=turn.id, text=msg.text, confidence=1.0),
        )
        await self.store.call(
            EventLog.said,
            session.id,
            session.principal,
            turn.id,
            "user",
            "text",
            msg.text,
            now_ms(),
        )
        self.finish(session, turn, "completed", {})
