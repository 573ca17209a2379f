"""What a session's `TurnCoordinator` needs from the daemon-wide pipeline.

A `Protocol`, so that the coordinator never imports the pipeline (which
makes coordinators): dependencies point one way, pipeline -> coordinator.
The `Pipeline` implements it; a test may pass anything shaped like it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Protocol

from vac import intent
from vac.protocol.messages import ObjectiveUpdated, SquadMessage, SquadSend
from vac.runtime.missed import Kept
from vac.runtime.offers import OfferDesk
from vac.runtime.permission_desk import PermissionDesk
from vac.runtime.port import Transport
from vac.runtime.session import Session
from vac.runtime.store import AsyncEventLog, ObjectiveRow, Step
from vac.runtime.synthesis import SynthesisScheduler
from vac.runtime.writes import Writes
from vac.speech.tts import TtsEngine
from vac.speech.vad import VadConfig
from vac.speech.workers import SttPool


class SharedState(Protocol):
    """The engines, the draft book, the roster and the event log of the daemon."""

    @property
    def transport(self) -> Transport: ...

    @property
    def store(self) -> AsyncEventLog: ...

    @property
    def writes(self) -> Writes: ...

    @property
    def book(self) -> intent.DraftBook: ...

    @property
    def roster(self) -> intent.Roster: ...

    @property
    def max_pending_drafts(self) -> int: ...

    @property
    def max_open_objectives(self) -> int: ...

    @property
    def stt(self) -> SttPool | None: ...

    @property
    def tts(self) -> TtsEngine | None: ...

    @property
    def tts_executor(self) -> SynthesisScheduler: ...

    @property
    def vad_config(self) -> VadConfig: ...

    @property
    def partial_interval_ms(self) -> int: ...

    @property
    def offers(self) -> OfferDesk: ...

    @property
    def permissions(self) -> PermissionDesk: ...

    def push_update(
        self, principal: str, update: ObjectiveUpdated, *, skip: Collection[Session] = ()
    ) -> None:
        """Send an objective's change (without `ref`) to its steward's attached
        sessions and, once confirmed, its agent's; none of `skip`."""
        ...

    def hold_for_resume(self, msg: Kept, concerns: Callable[[Session], bool]) -> None:
        """Keep `msg` for each session held for a resume that it `concerns`."""
        ...

    def share_squad(self, origin: Session, msg: SquadMessage) -> None:
        """Send a squad message to every other attached session of the household."""
        ...

    def unannounce(self, about: str) -> None:
        """Take back what is queued to be spoken about `about` (a closed request)."""
        ...

    async def next_generation(self) -> int:
        """An output generation, unique within a session and across restarts."""
        ...

    async def commit(self, step: Step) -> None:
        """Write one decision in one transaction; raises StorageUnavailable."""
        ...

    def row(self, entry: intent.DraftEntry, *, origin: str | None = None) -> ObjectiveRow:
        """The event-log row of an objective's current state."""
        ...

    def route_squad(self, msg: SquadSend) -> intent.RoutedMessage:
        """Route a squad message; raises SquadMessageInvalid, SquadSenderUnauthorized."""
        ...
