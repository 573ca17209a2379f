"""The offer desk (PROTOCOL §9) against a recording transport. Its real twin
is tests/daemon/test_agents.py, over real sockets."""

from __future__ import annotations

import asyncio
from typing import Any
from unittest import mock

import pytest

from tests.runtime.rigs import bound_session
from vac.lifecycle.session import SessionState
from vac.protocol.messages import ObjectiveAnswer, ObjectiveOffer
from vac.protocol.objective import Objective
from vac.runtime import offers as offers_mod
from vac.runtime.offers import (
    MAX_CLOSED_REMEMBERED,
    MAX_OPEN_PER_AGENT,
    AgentAnswer,
    OfferDesk,
    OfferMovedOn,
    OfferUnknown,
)
from vac.runtime.session import Session


class Recorder:
    def __init__(self) -> None:
        self.sent: list[tuple[Session, Any]] = []

    def send(self, session: Session, msg: Any) -> bool:
        self.sent.append((session, msg))
        return True


def session(sid: str, agent: str | None) -> Session:
    return bound_session(sid, (agent or "alice").lower(), agent, max_control=32)


def objective(oid: str = "o1") -> Objective:
    return Objective(
        id=oid,
        revision=1,
        agent="Kofi",
        verb="Build",
        target={"ref": "prop:bench", "kind": "prop", "label": "Bench"},  # type: ignore[arg-type]
        constraints=[],
        priority=50,
        deadline=None,
        forbidden_lines=[],
        autonomy="brief",
        status="offered",
        confirmed_by_steward=True,
        accepted_by_agent=False,
        source_text="ask Kofi to build a bench",
        confidence=1.0,
    )


def answer(offer: str, s: Session) -> AgentAnswer:
    return AgentAnswer(
        ObjectiveAnswer(id="a", offer=offer, decision="accept", reply="ok", reason="", evidence=[]),
        s,
    )


async def test_the_most_recent_session_gets_the_offer_and_its_answer_resolves() -> None:
    transport = Recorder()
    desk = OfferDesk(transport, answer_by_ms=1000)  # type: ignore[arg-type]
    old, new = session("k1", "Kofi"), session("k2", "Kofi")
    desk.attached(old)
    desk.attached(new)
    offer = desk.open("o1", "kofi", "alice")
    assert offer is not None and offer.session is new
    assert desk.send(offer, objective())
    ((to, msg),) = transport.sent
    assert to is new and isinstance(msg, ObjectiveOffer) and msg.answer_by_ms == 1000
    with pytest.raises(OfferUnknown):
        desk.offer_of(session("z1", "Zuri"), offer.offer_id)  # not Zuri's to answer
    got = desk.offer_of(old, offer.offer_id)  # any session of the agent may answer
    desk.answer(got, answer(offer.offer_id, old))
    resolved = await desk.wait(offer)
    assert resolved is not None and resolved.session is old
    desk.close(offer)
    assert not desk.is_open("o1") and len(desk) == 0
    with pytest.raises(OfferMovedOn) as moved:  # its own offer, closed: PROTOCOL §9
        desk.offer_of(old, offer.offer_id)
    assert moved.value.objective_id == "o1" and moved.value.code == "objective_invalid"
    with pytest.raises(OfferUnknown):  # still nothing to Zuri
        desk.offer_of(session("z1", "Zuri"), offer.offer_id)


async def test_silence_times_out_and_a_departure_or_withdrawal_answers_at_once() -> None:
    desk = OfferDesk(Recorder(), answer_by_ms=50)  # type: ignore[arg-type]
    kofi = session("k1", "Kofi")
    desk.attached(kofi)
    silent = desk.open("o1", "Kofi", "alice")
    assert silent is not None
    assert await desk.wait(silent) is None
    gone = desk.open("o2", "Kofi", "alice")
    withdrawn = desk.open("o3", "Kofi", "alice")
    assert gone is not None and withdrawn is not None
    desk.withdrawn("o3")
    assert await asyncio.wait_for(desk.wait(withdrawn), 0.01) is None
    kofi.state = SessionState.DETACHED
    desk.detached(kofi)
    assert await asyncio.wait_for(desk.wait(gone), 0.01) is None
    assert desk.open("o4", "Kofi", "alice") is None  # no session: the policy answers


async def test_a_departing_session_hands_its_offers_to_another_session_of_the_agent() -> None:
    transport = Recorder()
    desk = OfferDesk(transport, answer_by_ms=20_000)  # type: ignore[arg-type]
    older, newer = session("k1", "Kofi"), session("k2", "Kofi")
    desk.attached(older)
    desk.attached(newer)
    offer = desk.open("o1", "Kofi", "alice")
    assert offer is not None and offer.session is newer and desk.send(offer, objective())
    newer.state = SessionState.DETACHED
    desk.detached(newer)
    assert not offer.answer.done(), "another session of Kofi is attached: no policy answer"
    assert offer.session is older
    (to, first), (again_to, again) = transport.sent
    assert (to, again_to) == (newer, older)
    assert isinstance(again, ObjectiveOffer) and again.offer == first.offer  # the same offer
    assert 0 < again.answer_by_ms <= 20_000  # for the time left
    desk.answer(desk.offer_of(older, offer.offer_id), answer(offer.offer_id, older))
    resolved = await desk.wait(offer)
    assert resolved is not None and resolved.session is older
    later = desk.open("o2", "Kofi", "alice")
    assert later is not None and desk.send(later, objective("o2"))
    older.state = SessionState.DETACHED  # the last one goes: the policy answers
    desk.detached(older)
    assert await asyncio.wait_for(desk.wait(later), 0.01) is None


async def test_an_offer_not_yet_sent_or_reopened_also_moves() -> None:
    transport = Recorder()
    desk = OfferDesk(transport, answer_by_ms=1000)  # type: ignore[arg-type]
    older, newer = session("k1", "Kofi"), session("k2", "Kofi")
    desk.attached(older)
    desk.attached(newer)
    # The holder leaves while the confirm is being written: it goes to the other.
    early = desk.open("o1", "Kofi", "alice")
    assert early is not None
    newer.state = SessionState.DETACHED
    desk.detached(newer)
    assert not early.answer.done() and early.session is older
    assert desk.send(early, objective()) and transport.sent[-1][0] is older
    # A reopened offer has another `answer_by_ms` from its reopening.
    again = session("k3", "Kofi")
    desk.attached(again)
    clock = [100.0]
    with mock.patch.object(offers_mod, "monotonic_s", lambda: clock[0]):
        offer = desk.open("o2", "Kofi", "alice")
        assert offer is not None and offer.session is again and desk.send(offer, objective("o2"))
        clock[0] += 0.9
        desk.answer(offer, answer(offer.offer_id, again))
        desk.reopen(offer)  # its answer was not written
        clock[0] += 0.2  # 1.1 s after the first send, 0.2 s into the reopened time
        again.state = SessionState.DETACHED
        desk.detached(again)
    assert not offer.answer.done() and offer.session is older


async def test_open_offers_per_agent_are_bounded() -> None:
    desk = OfferDesk(Recorder(), answer_by_ms=50)  # type: ignore[arg-type]
    desk.attached(session("k1", "Kofi"))
    desk.attached(session("z1", "Zuri"))
    for i in range(MAX_OPEN_PER_AGENT):
        assert desk.open(f"o{i}", "Kofi", "alice") is not None
    assert desk.open("one-more", "Kofi", "alice") is None
    assert desk.open("zuri's", "Zuri", "alice") is not None  # another agent is not slowed


async def test_a_steward_session_is_never_an_agent_session() -> None:
    desk = OfferDesk(Recorder(), answer_by_ms=50)  # type: ignore[arg-type]
    desk.attached(session("a1", None))
    assert desk.session_for("alice") is None and desk.open("o1", "alice", "alice") is None


async def test_an_answer_after_the_time_ran_out_is_refused() -> None:
    desk = OfferDesk(Recorder(), answer_by_ms=20)  # type: ignore[arg-type]
    kofi = session("k1", "Kofi")
    desk.attached(kofi)
    offer = desk.open("o1", "Kofi", "alice")
    assert offer is not None and await desk.wait(offer) is None
    with pytest.raises(OfferMovedOn):  # the policy is answering: too late
        desk.offer_of(kofi, offer.offer_id)


async def test_closed_offers_are_remembered_within_a_bound() -> None:
    desk = OfferDesk(Recorder(), answer_by_ms=20)  # type: ignore[arg-type]
    kofi = session("k1", "Kofi")
    desk.attached(kofi)
    first = desk.open("o-first", "Kofi", "alice")
    assert first is not None
    desk.close(first)
    for i in range(MAX_CLOSED_REMEMBERED):
        later = desk.open(f"o{i}", "Kofi", "alice")
        assert later is not None
        desk.close(later)
    with pytest.raises(OfferUnknown):  # forgotten: the oldest go first
        desk.offer_of(kofi, first.offer_id)
    with pytest.raises(OfferMovedOn):
        desk.offer_of(kofi, later.offer_id)


async def test_a_taken_over_agent_session_keeps_its_offers() -> None:
    desk = OfferDesk(Recorder(), answer_by_ms=20)  # type: ignore[arg-type]
    kofi = session("k1", "Kofi")
    desk.attached(kofi)
    desk.detached(kofi)  # still attached (a new connection took it over)
    assert desk.session_for("Kofi") is kofi
    desk.forget("k1")
    assert desk.session_for("Kofi") is None


async def test_an_answer_not_written_reopens_its_offer_a_bounded_number_of_times() -> None:
    from vac.runtime.offers import MAX_REOPENS

    desk = OfferDesk(Recorder(), answer_by_ms=60_000)  # type: ignore[arg-type]
    kofi = session("k1", "Kofi")
    desk.attached(kofi)
    offer = desk.open("o1", "Kofi", "alice")
    assert offer is not None
    for _ in range(MAX_REOPENS):
        desk.answer(offer, answer(offer.offer_id, kofi))
        desk.reopen(offer)  # the write failed: the agent may send it again
        assert desk.offer_of(kofi, offer.offer_id) is offer and not offer.answer.done()
    desk.answer(offer, answer(offer.offer_id, kofi))
    desk.reopen(offer)  # once more: the policy answers now, the turn is not held
    assert await asyncio.wait_for(desk.wait(offer), 0.01) is None


async def test_a_reopened_offer_whose_agent_left_is_answered_by_the_policy() -> None:
    desk = OfferDesk(Recorder(), answer_by_ms=60_000)  # type: ignore[arg-type]
    kofi = session("k1", "Kofi")
    desk.attached(kofi)
    offer = desk.open("o1", "Kofi", "alice")
    assert offer is not None
    desk.answer(offer, answer(offer.offer_id, kofi))
    kofi.state = SessionState.DETACHED  # gone while its answer was being written
    desk.reopen(offer)
    assert await asyncio.wait_for(desk.wait(offer), 0.01) is None
