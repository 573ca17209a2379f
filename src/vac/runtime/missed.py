"""What a detached session missed, told when it is resumed (PROTOCOL §3, §9).

A client that drops its connection while an agent decides (or while work
moves on) comes back with `hello {resume}`; the changes pushed meanwhile
went nowhere: they were sent only to attached sessions. They are kept here,
per detached session the daemon still holds for a resume, and sent right
after its `hello.ok`: the newest change of each objective (`objective.updated`
carries the whole objective) and how each permission-request it was shown
ended (`squad.answered`, `squad.withdrawn`), at most `MAX_MISSED` per
session, the oldest dropped first. `objective.list` stays the way to the
whole picture.

Memory: at most `MAX_MISSED` messages for each of the daemon's
`max_detached_sessions` held sessions; forgotten with the session.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Final

from vac.protocol.messages import ObjectiveUpdated, Outbound, SquadAnswered, SquadWithdrawn

MAX_MISSED: Final = 32
# What is kept: the newest of each objective, each request's end.
Kept = ObjectiveUpdated | SquadAnswered | SquadWithdrawn


class Missed:
    """Per held, detached session: the latest change of each objective and
    request it missed."""

    def __init__(self) -> None:
        self._by_session: dict[str, OrderedDict[str, Outbound]] = {}

    def keep(self, session_id: str, msg: Kept) -> None:
        key = (
            f"objective:{msg.objective.id}"
            if isinstance(msg, ObjectiveUpdated)
            else f"request:{msg.message_id}"
        )
        kept = self._by_session.setdefault(session_id, OrderedDict())
        kept.pop(key, None)  # the newest goes last
        kept[key] = msg
        while len(kept) > MAX_MISSED:
            kept.popitem(last=False)

    def take(self, session_id: str) -> list[Outbound]:
        """What the session missed, oldest change first; forgotten here."""
        return list(self._by_session.pop(session_id, {}).values())

    def forget(self, session_id: str) -> None:
        self._by_session.pop(session_id, None)

    def __len__(self) -> int:
        return sum(len(kept) for kept in self._by_session.values())
