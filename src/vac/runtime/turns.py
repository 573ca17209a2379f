"""One session's turns in asyncio: the shell around `vac.lifecycle.turn`.

The table decides (end the old turn, mute, cut the reply, send `turn.done`
once); this module carries its outcomes out: it owns each turn's task, asks
the speaker to fence, and sends `turn.done` through the transport. A turn's
work is a coroutine run as a task of this runner's `TaskSet`, cancelled
when its turn is cancelled or the session detaches.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from vac.lifecycle.turn import (
    CancelWork,
    FenceReply,
    SendDone,
    Speak,
    TurnBook,
    TurnEvent,
    TurnLife,
    TurnOutcome,
)
from vac.logs import get_logger
from vac.protocol.messages import TurnDone, TurnStatus
from vac.runtime.history import END_SLACK_MS, heard_text
from vac.runtime.latency import LatencyTrace
from vac.runtime.port import Transport
from vac.runtime.session import Session
from vac.runtime.speaker import ReplyOutcome, Speaker, SpokenReply
from vac.runtime.synthesis import SchedulerFull
from vac.runtime.tasks import TaskSet
from vac.speech.tts import TtsError

log = get_logger("vac.turns")

# Records what was said in the conversation: (turn, role, kind, text).
Said = Callable[[str | None, str, str, str], None]


class ReplyOverrun(Exception):
    """The client stopped reading and its reply was cancelled (§7)."""


@dataclass(eq=False)
class Turn:
    life: TurnLife
    trace: LatencyTrace
    task: asyncio.Task[None] | None = None

    @property
    def id(self) -> str:
        return self.life.id

    @property
    def done(self) -> bool:
        return self.life.done


TurnBody = Callable[[Turn], Coroutine[Any, Any, None]]


class TurnRunner:
    def __init__(
        self, transport: Transport, session: Session, speaker: Speaker | None, said: Said
    ) -> None:
        self.transport = transport
        self.session = session
        self.speaker = speaker
        self.said = said
        self.book = TurnBook()
        self._tasks = TaskSet()
        # Turns not yet done, by id: what the table's outcomes name.
        self._live: dict[str, Turn] = {}
        # A completed reply whose history waits for the client's played
        # reports: never keep unheard text (§5.2).
        self._unheard: SpokenReply | None = None

    @property
    def active(self) -> Turn | None:
        life = self.book.active
        return None if life is None else self._live.get(life.id)

    # ------------------------------------------------------------ events

    def open(self, turn_id: str, trace: LatencyTrace) -> Turn:
        """End the active turn (`cancelled`) and make `turn_id` the active one."""
        life, ended = self.book.start(turn_id)
        # Live before the old turn's end is carried: sending its `turn.done`
        # may find the connection gone, and the detach that follows ends this
        # turn too, re-entrantly (it raised KeyError, an `internal` error).
        turn = self._live[turn_id] = Turn(life, trace)
        self._carry(ended)
        return turn

    def begin(self, turn: Turn, body: TurnBody) -> None:
        """Run the turn's work as a task, which ends it with its status."""
        turn.task = self._tasks.spawn(self._run(turn, body))

    def finish(self, turn: Turn, status: TurnStatus) -> None:
        """The turn's own work ended: its one `turn.done` (never twice)."""
        self._carry(self.book.feed(turn.life, TurnEvent.FINISH, status))

    def end_active(self) -> None:
        self._carry(self.book.end_active())

    def barge_in(self) -> None:
        """The user started speaking: stop the reply (never reject a draft).

        A reply being spoken is cancelled with its turn. A turn still working
        towards its reply (parsing, saving) goes on, but says nothing: after
        the daemon read the new input, no audio of that turn is sent (§5.2).
        """
        self._carry(self.book.barge_in())

    def cancel(self, turn_id: str, played_ms: int | None) -> None:
        """`turn.cancel`; raises `turn_unknown` for a turn never seen."""
        self._carry(self.book.cancel(turn_id), played_ms)

    def detach(self) -> None:
        """The session detached: its active turn ends, every turn's work stops."""
        self.end_active()
        self._tasks.cancel()
        self.settle_heard()

    def played(self, stream: str, played_ms: int) -> bool:
        """`audio.output.played`; False for an unknown stream. A completed
        reply played to its end goes into the history whole, now."""
        if self.speaker is None or not self.speaker.played(stream, played_ms):
            return False
        reply = self._unheard
        if (
            reply is not None
            and reply.stream == stream
            and played_ms + END_SLACK_MS >= reply.duration_ms
        ):
            self.settle_heard()
        return True

    def settle_heard(self) -> None:
        """Write what was heard of the completed reply still waiting: cut at
        the client's last played report, or whole if it never sent one (a
        client that does not report playback is taken to have played it)."""
        reply, self._unheard = self._unheard, None
        if reply is None:
            return
        played_ms = reply.played_ms
        heard = reply.text if played_ms is None else heard_text(reply.phrases, played_ms)
        if heard:
            self.said(reply.turn, "agent", "spoken", heard)

    async def speak(self, turn: Turn, text: str) -> ReplyOutcome | None:
        """Speak the turn's reply, unless it was muted (or there is no voice)."""
        if self.speaker is None:
            return None
        if not any(isinstance(o, Speak) for o in self.book.feed(turn.life, TurnEvent.REPLY_BEGINS)):
            return None
        outcome = await self.speaker.speak(turn.id, text, turn.trace)
        self._carry(self.book.feed(turn.life, TurnEvent.REPLY_ENDS))
        if outcome.end == "overrun":
            raise ReplyOverrun
        if outcome.end == "completed" and outcome.reply is not None:
            self.settle_heard()  # the one before, if its reports never came
            self._unheard = outcome.reply
        elif outcome.end == "completed" or outcome.end == "silent":
            self.said(turn.id, "agent", "spoken", outcome.heard_text)
        return outcome

    # ------------------------------------------------------------ outcomes

    def _carry(self, outcomes: list[TurnOutcome], played_ms: int | None = None) -> None:
        for outcome in outcomes:
            match outcome:
                case Speak():
                    pass  # only `speak` asks, and it reads the answer itself
                case FenceReply():
                    self._fence(played_ms)
                case CancelWork(turn=turn_id):
                    turn = self._live.get(turn_id)
                    if turn is not None and turn.task is not None:
                        turn.task.cancel()
                case SendDone(turn=turn_id, status=status):
                    # None: its `turn.done` went already, from a re-entrant
                    # end (a send that detached the session ends the turn).
                    if (ending := self._live.pop(turn_id, None)) is not None:
                        self._send_done(ending, status)

    def _fence(self, played_ms: int | None) -> None:
        if self.speaker is None:
            return
        self.settle_heard()  # a reply that had ended before this one began
        reply = self.speaker.fence(played_ms)
        if reply is not None:
            heard = self.speaker.heard(reply)
            if heard:
                self.said(reply.turn, "agent", "spoken", heard)

    def _send_done(self, turn: Turn, status: TurnStatus) -> None:
        latency_ms = dict(turn.trace.stages_ms)
        # Ids, status and timings only: never the words of the turn.
        log.info(
            "turn_done",
            principal=self.session.principal,
            session=self.session.id,
            turn=turn.id,
            status=status,
            latency_ms=latency_ms,
            trace=turn.trace.client_trace,
        )
        done = TurnDone(
            turn=turn.id,
            status=status,
            latency_ms=dict(latency_ms),
            trace=turn.trace.client_trace,
        )
        self.transport.send(self.session, done)

    async def _run(self, turn: Turn, body: TurnBody) -> None:
        try:
            # The coroutine is made here, so a turn cancelled before it ran
            # leaves no never-awaited coroutine behind.
            await body(turn)
        except asyncio.CancelledError:
            raise
        except ReplyOverrun:
            self.finish(turn, "failed")  # §7: error, audio.output.done and turn.done failed
        except SchedulerFull as exc:
            # Too many of this principal's phrases wait for synthesis: a named,
            # retryable `busy` for this turn, not a daemon fault.
            exc.turn = turn.id
            log.warning("turn_busy", session=self.session.id, turn=turn.id, code=exc.code)
            self.transport.error(self.session, exc)
            self.finish(turn, "failed")
        except TtsError as exc:
            # The voice is unreachable (a Ray cluster gone, a bridge lost): the
            # client is told `provider_unavailable` by name; the text stands.
            exc.turn = turn.id
            log.warning("turn_tts_unavailable", session=self.session.id, turn=turn.id, why=str(exc))
            self.transport.error(self.session, exc)
            self.finish(turn, "failed")
        except Exception:
            # Speech, or an output generation's write, failed mid-turn. A
            # refusal never gets here: it is found while planning, before
            # the turn's work starts. The client sees the reply's
            # `audio.output.done {failed}` and the turn's `turn.done {failed}`.
            log.exception("turn_failed", session=self.session.id, turn=turn.id)
            self.finish(turn, "failed")
