"""Negotiation routing (PROTOCOL §9): offers to agent sessions, and their answers.

The desk is daemon-wide bookkeeping: which agent sessions are attached
(the most recently attached one of an agent gets its offers, and takes over
those of one that leaves), which offers
are open, and the future each steward's confirm turn waits on. It decides
nothing about an objective: the planner applies an answer to the book and
the coordinator writes it before anyone hears of it.

An offer is open from the moment the confirm is planned until its answer
(the agent's, or the built-in negotiator's after `answer_by_ms`, or at once
when the agent's last session goes) has been applied to the book. The expiry
sweep and a restart answer for any `offered` objective whose offer is not
open here: nothing is left waiting for an answer that cannot come.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

import msgspec

from vac.clock import monotonic_s
from vac.errors import VacError
from vac.protocol.messages import ObjectiveAnswer, ObjectiveOffer
from vac.protocol.objective import Objective
from vac.runtime.port import Transport
from vac.runtime.session import Session, new_id
from vac.runtime.tasks import TaskSet

# A report sent right after its objective's answer waits this long at most
# for that answer to be written (milliseconds; a few seconds of retries on
# a full disk), then runs as if it came after it.
LANDING_MAX_S: Final = 10.0

# Open offers per agent: past it the built-in negotiator answers at once,
# so an agent that never answers cannot grow the daemon's memory.
MAX_OPEN_PER_AGENT: Final = 64


# Closed offers remembered (agent, objective) so that a late answer is told
# the objective moved on (PROTOCOL §9); the oldest go first.
MAX_CLOSED_REMEMBERED: Final = 1024
# An agent's answer not written (a full disk) reopens its offer this often at
# most; then the policy answers (whose write is retried by the minute sweep).
MAX_REOPENS: Final = 3


class OfferUnknown(VacError):
    """An answer for an offer this agent never had (or one closed before the
    daemon started, or too long ago to be remembered). `objective_id` is the
    objective the offer's id names, for the caller to check against the book:
    an agent's own objective that moved on is `objective_invalid` (§9)."""

    code = "objective_unknown"

    def __init__(self, message: str, objective_id: str | None = None) -> None:
        super().__init__(message)
        self.objective_id = objective_id


def offer_id_for(objective_id: str) -> str:
    """A new offer's id, naming its objective: after a restart, when closed
    offers are no longer remembered, a late answer to one is still told
    where its objective went (§9), not that the offer never was."""
    return f"{objective_id}.{new_id()[:16]}"


def objective_of_offer(offer_id: str) -> str | None:
    """The objective an offer's id names (None: not one of ours)."""
    objective_id, dot, _random = offer_id.rpartition(".")
    return objective_id if dot and objective_id else None


class OfferMovedOn(VacError):
    """An answer for this agent's offer that is no longer open (answered,
    timed out, withdrawn): the objective moved on."""

    code = "objective_invalid"

    def __init__(self, objective_id: str) -> None:
        super().__init__(f"the offer for objective {objective_id!r} is closed")
        self.objective_id = objective_id


@dataclass(frozen=True)
class AgentAnswer:
    """An agent's answer, with the session it came from (its outcome is kept there)."""

    msg: ObjectiveAnswer
    session: Session
    # Done once the answer is acknowledged or refused (its offer closed or
    # reopened): a report on its objective sent right after waits for it
    # (`Routing.progress`), so it lands after its answer.
    landed: asyncio.Future[None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future(), compare=False
    )

    def land(self) -> None:
        if not self.landed.done():
            self.landed.set_result(None)


def _land(answer: asyncio.Future[AgentAnswer | None]) -> None:
    """The agent's answer this future holds, if any, has been dealt with."""
    if answer.done() and not answer.cancelled() and (got := answer.result()) is not None:
        got.land()


@dataclass(eq=False)
class OpenOffer:
    offer_id: str
    objective_id: str
    agent: str  # the roster name, as the objective says it
    steward: str  # the principal who confirmed
    session: Session  # the agent session it goes to
    answer: asyncio.Future[AgentAnswer | None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )
    reopened: int = 0  # times its answer could not be written (`OfferDesk.reopen`)
    # The offer as sent and when (monotonic s): moved to another session of
    # the agent when this one goes (`OfferDesk.detached`).
    sent: tuple[ObjectiveOffer, float] | None = None


def _key(agent: str) -> str:
    return agent.strip().lower()


class OfferDesk:
    def __init__(self, transport: Transport, *, answer_by_ms: int) -> None:
        self.transport = transport
        self.answer_by_ms = answer_by_ms
        # agent (lower case) -> its attached sessions, most recent last.
        self._sessions: dict[str, OrderedDict[str, Session]] = {}
        self._open: dict[str, OpenOffer] = {}
        self._by_objective: dict[str, str] = {}
        self._closed: OrderedDict[str, tuple[str, str]] = OrderedDict()  # offer -> agent, objective
        # The resolutions of open offers: daemon-wide, so a steward's detach
        # never stops one; drained (bounded) when the daemon closes.
        self.tasks = TaskSet()

    # ------------------------------------------------------------ sessions

    def attached(self, session: Session) -> None:
        if session.agent is None:
            return
        mine = self._sessions.setdefault(_key(session.agent), OrderedDict())
        mine[session.id] = session
        mine.move_to_end(session.id)

    def detached(self, session: Session, *, coming_back: bool = False) -> None:
        """The agent's session went: its open offers move to the agent's most
        recently attached other session (the same offer, for the time left:
        any session of the agent may answer, §9), or, with none, are answered
        by the policy now; `coming_back` (its connection said hello again:
        the agent is there) they wait for the new session (`greeted`), for
        their time left. A session taken over by a new connection is still
        attached: it stays."""
        if session.agent is None or session.attached:
            return
        mine = self._sessions.get(_key(session.agent))
        if mine is not None:
            mine.pop(session.id, None)
            if not mine:
                self._sessions.pop(_key(session.agent), None)
        for offer in list(self._open.values()):
            held = offer.session is session and not offer.answer.done()
            if held and not self._moved(offer) and not coming_back:
                offer.answer.set_result(None)

    def greeted(self, session: Session) -> None:
        """An agent's session has its `hello.ok` (new or resumed): its open
        offers that went to this session (its old connection may have lost
        them) or to none of the agent's attached now are sent here, the same
        offer for the time left. Before, a resumed agent heard nothing of an
        offer it had not received, and the policy answered at the timeout."""
        if session.agent is None:
            return
        for offer in list(self._open.values()):
            if _key(offer.agent) != _key(session.agent) or offer.answer.done():
                continue
            if offer.sent is None or (offer.session is not session and offer.session.attached):
                continue
            msg, at_s = offer.sent
            left_ms = self.answer_by_ms - int((monotonic_s() - at_s) * 1000)
            if left_ms > 0:
                offer.session = session
                self.transport.send(session, msgspec.structs.replace(msg, answer_by_ms=left_ms))

    def _moved(self, offer: OpenOffer) -> bool:
        """Whether the offer went to another attached session of its agent."""
        other = self.session_for(offer.agent)
        if other is None:
            return False
        if offer.sent is None:  # not sent yet (its confirm is being written)
            offer.session = other
            return True
        msg, at_s = offer.sent
        left_ms = self.answer_by_ms - int((monotonic_s() - at_s) * 1000)
        if left_ms <= 0:
            return False
        offer.session = other
        return self.transport.send(other, msgspec.structs.replace(msg, answer_by_ms=left_ms))

    def forget(self, session_id: str) -> None:
        """The session is gone for good (evicted, or its hello abandoned)."""
        for key, mine in list(self._sessions.items()):
            mine.pop(session_id, None)
            if not mine:
                del self._sessions[key]

    def session_for(self, agent: str) -> Session | None:
        """The agent's most recently attached session still attached, if any."""
        mine = self._sessions.get(_key(agent))
        if not mine:
            return None
        for session in reversed(mine.values()):
            if session.attached:
                return session
        return None

    def sessions_of(self, agent: str) -> list[Session]:
        mine = self._sessions.get(_key(agent))
        return [s for s in (mine or {}).values() if s.attached]

    # -------------------------------------------------------------- offers

    def open(self, objective_id: str, agent: str, steward: str) -> OpenOffer | None:
        """Open an offer to `agent`'s session; None when no session of it is
        attached or it has too many offers open (the policy answers)."""
        session = self.session_for(agent)
        if session is None:
            return None
        if sum(1 for o in self._open.values() if _key(o.agent) == _key(agent)) >= (
            MAX_OPEN_PER_AGENT
        ):
            return None
        offer = OpenOffer(offer_id_for(objective_id), objective_id, agent, steward, session)
        self._open[offer.offer_id] = offer
        self._by_objective[objective_id] = offer.offer_id
        return offer

    def send(self, offer: OpenOffer, objective: Objective) -> bool:
        """Send the offer (once the confirm is durable); False if it could not go."""
        msg = ObjectiveOffer(
            objective=objective, offer=offer.offer_id, answer_by_ms=self.answer_by_ms
        )
        sent = offer.session.attached and self.transport.send(offer.session, msg)
        offer.sent = (msg, monotonic_s())
        if not sent and not offer.answer.done():
            offer.answer.set_result(None)
        return sent

    async def wait(self, offer: OpenOffer) -> AgentAnswer | None:
        """The agent's answer, or None: timed out, agent gone, or withdrawn."""
        try:
            return await asyncio.wait_for(
                asyncio.shield(offer.answer), timeout=self.answer_by_ms / 1000
            )
        except TimeoutError:
            if offer.answer.done():  # it came as the time ran out: it counts
                return offer.answer.result()
            # Closed to answers now: a late one gets `objective_invalid`.
            offer.answer.set_result(None)
            return None

    def close(self, offer: OpenOffer) -> None:
        """The answer has been applied (or the confirm was rolled back)."""
        self._open.pop(offer.offer_id, None)
        self._closed[offer.offer_id] = (_key(offer.agent), offer.objective_id)
        while len(self._closed) > MAX_CLOSED_REMEMBERED:
            self._closed.popitem(last=False)
        if self._by_objective.get(offer.objective_id) == offer.offer_id:
            del self._by_objective[offer.objective_id]
        if not offer.answer.done():
            offer.answer.set_result(None)
        _land(offer.answer)

    def offer_of(self, session: Session, offer_id: str) -> OpenOffer:
        """The open offer this agent session may answer; `OfferMovedOn` for
        its offer that closed, `OfferUnknown` otherwise (another agent's offer
        and an unknown one get the same answer)."""
        offer = self._open.get(offer_id)
        agent = _key(session.agent) if session.agent is not None else None
        if offer is not None and agent == _key(offer.agent):
            if offer.answer.done():  # answered, timed out or withdrawn, not yet closed
                raise OfferMovedOn(offer.objective_id)
            return offer
        closed = self._closed.get(offer_id)
        if closed is not None and closed[0] == agent:
            raise OfferMovedOn(closed[1])
        raise OfferUnknown(
            f"no open offer {offer_id!r} for this agent", objective_of_offer(offer_id)
        )

    def reopen(self, offer: OpenOffer) -> None:
        """Its answer was not written (storage): open to the agent's retry,
        for another `answer_by_ms`. Not past `MAX_REOPENS` (a disk that stays
        full must not hold the steward's turn open), nor with the agent's
        session gone: then the policy answers at once."""
        if offer.offer_id not in self._open or not offer.answer.done():
            return
        _land(offer.answer)  # refused (storage): the agent may send it again
        offer.answer = asyncio.get_running_loop().create_future()
        offer.reopened += 1
        if offer.sent is not None:  # another `answer_by_ms` from now
            offer.sent = (offer.sent[0], monotonic_s())
        if offer.reopened > MAX_REOPENS or not offer.session.attached:
            offer.answer.set_result(None)

    def answer(self, offer: OpenOffer, answer: AgentAnswer) -> None:
        if not offer.answer.done():
            offer.answer.set_result(answer)

    def withdrawn(self, objective_id: str) -> None:
        """The steward took the objective back: stop waiting for its answer."""
        offer_id = self._by_objective.get(objective_id)
        offer = self._open.get(offer_id) if offer_id else None
        if offer is not None and not offer.answer.done():
            offer.answer.set_result(None)

    def after_landing(self, landing: asyncio.Future[None], run: Callable[[], None]) -> None:
        """`run` once `landing` is done, at most `LANDING_MAX_S` from now."""

        async def later() -> None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(landing), LANDING_MAX_S)
            run()

        self.tasks.spawn(later())

    def landing(self, objective_id: str) -> asyncio.Future[None] | None:
        """Done once the agent's answer to this objective's offer, being
        written now, is acknowledged or refused; None when none is."""
        offer = self._open.get(self._by_objective.get(objective_id, ""))
        if offer is None or not offer.answer.done() or offer.answer.cancelled():
            return None
        got = offer.answer.result()
        return got.landed if got is not None and not got.landed.done() else None

    def answering(self, objective_id: str) -> bool:
        """Whether its offer has its answer and the answer is not yet applied."""
        offer = self._open.get(self._by_objective.get(objective_id, ""))
        return offer is not None and offer.answer.done()

    def is_open(self, objective_id: str) -> bool:
        return objective_id in self._by_objective

    def __len__(self) -> int:
        return len(self._open)
