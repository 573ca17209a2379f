"""A turn's end that detaches its session, re-entrantly (an adversarial probe:
a client gone mid-reply made the next turn's open raise KeyError, `internal`)."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.runtime.rigs import bound_session
from vac.protocol.messages import Outbound, TurnDone
from vac.runtime.latency import LatencyTrace
from vac.runtime.turns import TurnRunner


class GoneOnSend:
    """A transport whose connection is gone: sending a `turn.done` detaches
    the session there and then, as the server's egress does."""

    def __init__(self) -> None:
        self.runner: TurnRunner | None = None
        self.sent: list[Outbound] = []

    def send(self, session: Any, msg: Outbound) -> bool:
        self.sent.append(msg)
        if isinstance(msg, TurnDone) and self.runner is not None:
            runner, self.runner = self.runner, None
            runner.detach()  # the egress found the peer unreachable
        return False


def test_opening_a_turn_when_ending_the_last_one_detaches_the_session() -> None:
    async def run() -> list[str]:
        transport = GoneOnSend()
        session = bound_session("s1", "alice")
        runner = TurnRunner(transport, session, None, lambda *a: None)  # type: ignore[arg-type]
        runner.open("t1", LatencyTrace())
        transport.runner = runner
        runner.open("t2", LatencyTrace())  # ends t1: its turn.done detaches
        assert runner.active is None  # t2 ended with the detach, nothing left live
        await asyncio.sleep(0)
        return [m.turn for m in transport.sent if isinstance(m, TurnDone)]

    assert asyncio.run(run()) == ["t1", "t2"]  # each turn.done once, no KeyError
