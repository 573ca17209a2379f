"""Brief spoken updates for a steward's session that speaks (PROTOCOL §9).

What an agent or the daemon changed ("Kofi finished: build the bench") and
time-sensitive squad messages ("Kofi asks: may I trim the hedge?") reach a
speaking session as text at once, and are also spoken — but they interrupt
nothing: each waits until no turn is active, then speaks in a turn of its
own (an addition: a turn the daemon starts; it begins with its reply's
`audio.output.start` and ends with `turn.done`). The user can barge in on
it like on any reply. At most `MAX_QUEUED` wait; older ones give way to
newer ones, and one that waited `MAX_WAIT_S` is dropped (its text was sent).
A permission-request answered or withdrawn before its turn to be spoken is
dropped too (`drop`): nobody is asked what was settled already.
"""

from __future__ import annotations

import asyncio
import functools
from collections import deque
from typing import Final

from vac.clock import monotonic_s
from vac.protocol.objective import Objective
from vac.runtime.latency import LatencyTrace
from vac.runtime.session import Session, new_id
from vac.runtime.tasks import TaskSet
from vac.runtime.turns import Turn, TurnRunner

MAX_QUEUED: Final = 8
MAX_WAIT_S: Final = 120.0
# How often a waiting update looks whether the session's turn has ended.
POLL_S: Final = 0.05

_DID: Final[dict[str, str]] = {
    "accepted": "took on",
    "in-progress": "started on",
    "done": "finished",
    "failed": "could not finish",
    "deferred": "put off",
    "refused": "refused",
    "countered": "proposed a change to",
    "clarifying": "has a question about",
    "expired": "ran out of time on",
}


def spoken_update(objective: Objective, by: str) -> str | None:
    """What is said for a change not made by the steward; None: nothing."""
    did = _DID.get(objective.status)
    if did is None or by == "steward":
        return None
    return (
        f"{objective.agent} {did}: {objective.verb.lower()} the {objective.target.label.lower()}."
    )


class Announcer:
    def __init__(self, session: Session, turns: TurnRunner, speaks: bool) -> None:
        self.session = session
        self.turns = turns
        self.speaks = speaks  # the daemon has a voice at all
        # (queued at, text, what it is about: a permission-request's message id)
        self._queue: deque[tuple[float, str, str | None]] = deque(maxlen=MAX_QUEUED)
        self._tasks = TaskSet()

    def say(self, text: str, *, about: str | None = None) -> None:
        """Queue `text` to be spoken once nothing else is; `about` names what
        `drop` may take it back for."""
        if not (self.speaks and self.session.output.speak and self.session.attached):
            return
        if "announcement-turns" not in self.session.accepts:
            return  # a turn no transcript began: only for a client that asked (§5)
        self._queue.append((monotonic_s(), text, about))
        if not len(self._tasks):
            self._tasks.spawn(self._run())

    def drop(self, about: str) -> None:
        """What was queued about `about` is not said (one being said goes on)."""
        kept = [queued for queued in self._queue if queued[2] != about]
        self._queue.clear()
        self._queue.extend(kept)

    def stop(self) -> None:
        self._queue.clear()
        self._tasks.cancel()

    async def _run(self) -> None:
        while self._queue:
            while self.turns.active is not None:
                await asyncio.sleep(POLL_S)
            if not self._queue:
                return
            queued_s, text, _about = self._queue.popleft()
            if monotonic_s() - queued_s > MAX_WAIT_S:
                continue
            turn = self.turns.open(new_id(), LatencyTrace())
            self.turns.begin(turn, functools.partial(self._speak, text=text))
            while not turn.done:
                await asyncio.sleep(POLL_S)

    async def _speak(self, turn: Turn, text: str) -> None:
        await self.turns.speak(turn, text)
        self.turns.finish(turn, "completed")
