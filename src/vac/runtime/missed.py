"""What a detached session missed, told when it is resumed (PROTOCOL §3, §9).

A client that drops its connection while an agent decides (or while work
moves on) comes back with `hello {resume}`; the changes pushed meanwhile
went nowhere: its objects' `objective.updated` were sent only to attached
sessions. They are kept here, per detached session the daemon still holds
for a resume, and sent right after its `hello.ok`: the newest change of each
objective (a client wants where an objective is now, and each update carries
the whole objective), at most `MAX_MISSED_OBJECTIVES` per session, the
oldest dropped first. `objective.list` stays the way to the whole picture.

Memory: at most `MAX_MISSED_OBJECTIVES` updates for each of the daemon's
`max_detached_sessions` held sessions; forgotten with the session.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Final

from vac.protocol.messages import ObjectiveUpdated

MAX_MISSED_OBJECTIVES: Final = 32


class Missed:
    """Per held, detached session: the latest `objective.updated` of each objective."""

    def __init__(self) -> None:
        self._by_session: dict[str, OrderedDict[str, ObjectiveUpdated]] = {}

    def keep(self, session_id: str, update: ObjectiveUpdated) -> None:
        kept = self._by_session.setdefault(session_id, OrderedDict())
        kept.pop(update.objective.id, None)  # the newest goes last
        kept[update.objective.id] = update
        while len(kept) > MAX_MISSED_OBJECTIVES:
            kept.popitem(last=False)

    def take(self, session_id: str) -> list[ObjectiveUpdated]:
        """What the session missed, oldest change first; forgotten here."""
        return list(self._by_session.pop(session_id, {}).values())

    def forget(self, session_id: str) -> None:
        self._by_session.pop(session_id, None)

    def __len__(self) -> int:
        return sum(len(kept) for kept in self._by_session.values())
