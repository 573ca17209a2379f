"""A session's own state: its connection, its bounded outbox, its id memory.

No I/O here: the server moves bytes, this module decides what is queued,
what is dropped and what a repeated message id is answered with.
"""

from __future__ import annotations

import uuid
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from typing import Any

from vac.lifecycle.session import SessionState
from vac.protocol.agent_messages import ObjectiveListResult, SquadAnswered
from vac.protocol.messages import (
    OPT_IN_FEATURES as _OPT_IN,
)
from vac.protocol.messages import (
    AudioInputDone,
    AudioOutputChunk,
    AudioOutputRefused,
    AudioOutputStart,
    Error,
    Negotiation,
    ObjectiveClarify,
    ObjectiveConfirmed,
    ObjectiveDraft,
    ObjectiveRejected,
    Outbound,
    OutputFormat,
    SquadMessage,
    TranscriptFinal,
    TurnDone,
    TurnStatus,
)


def new_id() -> str:
    """Unique across sessions, principals and restarts (uuid4, 122 random bits)."""
    return uuid.uuid4().hex


class OutboxFull(Exception):
    """The session's peer is not reading: `output_queue_chunks` reached (§7)."""


@dataclass(slots=True)
class Outbox:
    """A per-session bounded queue of messages waiting for the peer to read.

    Audio chunks are bounded by `max_chunks`; control messages are exempt from
    that bound (§7) but still capped by `max_control` so that a client that
    never reads cannot grow memory: past the cap the session is dropped.
    """

    max_chunks: int
    max_control: int
    items: deque[tuple[Outbound, bytes | None]] = field(default_factory=deque)
    chunks: int = 0

    def __len__(self) -> int:
        return len(self.items)

    def push(self, msg: Outbound, payload: bytes | None = None) -> None:
        if isinstance(msg, AudioOutputChunk):
            if self.chunks >= self.max_chunks:
                raise OutboxFull
            self.chunks += 1
        elif len(self.items) - self.chunks >= self.max_control:
            raise OutboxFull
        self.items.append((msg, payload))

    def peek(self) -> tuple[Outbound, bytes | None]:
        return self.items[0]

    def pop(self) -> None:
        msg, _ = self.items.popleft()
        if isinstance(msg, AudioOutputChunk):
            self.chunks -= 1

    def drop_chunks(self, generation: int | None = None) -> int:
        """Remove queued audio chunks (of one generation, or all). Returns how many."""
        kept: deque[tuple[Outbound, bytes | None]] = deque()
        dropped = 0
        for msg, payload in self.items:
            if isinstance(msg, AudioOutputChunk) and generation in (None, msg.generation):
                dropped += 1
                continue
            kept.append((msg, payload))
        self.items = kept
        self.chunks -= dropped
        return dropped

    def clear(self) -> None:
        self.items.clear()
        self.chunks = 0


@dataclass(slots=True)
class Replies:
    """What each recent message id was answered with (PROTOCOL §2 idempotency).

    Two tiers, each bounded to `window` ids. `recent` holds every id's
    replies as they are sent; an outcome that was written to the event log
    (a draft, a gate decision, a withdrawal, an agent's answer: `settle`)
    moves to `decided`, which other ids never evict: a client's pings or
    chatter cannot push a confirm out of memory and let a retried "yes"
    confirm whatever is pending by then. `decided` holds `window` outcomes
    too: as many as a resumed session reloads from the event log after a
    restart, so memory and disk answer alike.
    Payload-carrying replies (audio) are not kept: a repeated id gets the
    control messages again, never the audio. A listing (up to 50 objectives,
    ~75 KB) is kept for the session's newest `LISTINGS_KEPT` listing ids
    only: 256 of them made each session held for resume ~15 MiB (a probe:
    +146 MiB in 10 sessions of one principal). An older listing's id sent
    again is answered afresh: a read changes nothing, so it is not executed
    twice in any sense that matters, and a client's retry of the listing it
    just asked for still gets the answer it missed.
    """

    window: int
    recent: OrderedDict[str, list[Outbound]] = field(default_factory=OrderedDict)
    decided: OrderedDict[str, list[Outbound]] = field(default_factory=OrderedDict)
    # turn -> the id that began it: the turn's messages without `ref`
    # (`objective.clarify`, `negotiation`, `turn.done`) are its outcome too.
    turns: OrderedDict[str, str] = field(default_factory=OrderedDict)
    # The ids whose listing is kept in `recent`, oldest first (`LISTINGS_KEPT`).
    listings: OrderedDict[str, None] = field(default_factory=OrderedDict)
    # Ids begun whose outcome is not complete yet, and how many times each
    # was sent again meanwhile: those repeats are answered when it is.
    open: OrderedDict[str, int] = field(default_factory=OrderedDict)
    # Open ids and the turn their replies belong to: its `turn.done` completes them.
    open_turns: OrderedDict[str, str] = field(default_factory=OrderedDict)
    # The turn under way (its messages sent, its `turn.done` not yet), and
    # repeats of ids of ended turns sent meanwhile: answered after its
    # `turn.done`, so no other turn's messages come between a turn's (§5:
    # one turn is active per session).
    live: str | None = None
    deferred: OrderedDict[str, int] = field(default_factory=OrderedDict)
    ended_turns: OrderedDict[str, None] = field(default_factory=OrderedDict)

    def seen(self, msg_id: str) -> list[Outbound] | None:
        found = self.decided.get(msg_id)
        return found if found is not None else self.recent.get(msg_id)

    def begin(self, msg_id: str) -> None:
        self.recent[msg_id] = []
        _bound(self.recent, self.window)
        self.open[msg_id] = 0
        _bound(self.open, self.window)

    def wait(self, msg_id: str) -> bool:
        """A repeat of an id still being answered: True when it will be
        answered with the whole outcome once that is complete (a repeat sent
        right after the first got nothing: its outcome had no message yet)."""
        if msg_id not in self.open or self.open[msg_id] >= REPEATS_WAITING_MAX:
            return False
        self.open[msg_id] += 1
        return True

    def defer(self, msg_id: str, prior: list[Outbound]) -> bool:
        """A repeat of an ended turn's id while another turn is under way:
        True when it will be answered once that turn is done."""
        of_a_turn = any(isinstance(getattr(m, "turn", None), str) for m in prior)
        if self.live is None or not of_a_turn or sum(self.deferred.values()) >= REPEATS_WAITING_MAX:
            return False
        self.deferred[msg_id] = self.deferred.get(msg_id, 0) + 1
        return True

    def settle(self, msg_id: str, msgs: list[Outbound]) -> None:
        """The id's outcome is exactly these (durable) messages from now on.

        Replaces what `record` collected: a gate decision or a draft is
        answered with every decision message of its turn, not only the
        first one that carried `ref`.
        """
        self.recent.pop(msg_id, None)
        self.decided[msg_id] = list(msgs)
        self.decided.move_to_end(msg_id)
        _bound(self.decided, self.window)

    def load(self, outcomes: list[tuple[str, list[Outbound]]]) -> None:
        """Outcomes read back from the event log (oldest first), after a
        restart: every turn in them is over, so each ends in its `turn.done`
        (written without it: its latencies were measured after the write)."""
        for msg_id, msgs in outcomes:
            self.settle(msg_id, ended(msgs))

    def record(self, msg: Outbound) -> list[tuple[str, int]]:
        """Keep `msg` in the outcome of the id it answers. For each id whose
        outcome it completes (its turn's `turn.done`, or a reply of no
        turn) and that was sent again meanwhile: the id and how many repeats
        wait for the outcome (`wait`)."""
        turn = getattr(msg, "turn", None)
        if msg.ref is not None and msg.ref in self.open and isinstance(turn, str):
            self.open_turns[msg.ref] = turn  # a second commit id of a stream: its turn too
            _bound(self.open_turns, self.window)
        released: list[tuple[str, int]] = []
        if isinstance(msg, TurnDone):
            ended = [r for r, t in self.open_turns.items() if t == msg.turn]
            for r in ended:
                self.open_turns.pop(r, None)
            self.ended_turns[msg.turn] = None
            _bound(self.ended_turns, self.window)
            if msg.turn == self.live:
                self.live = None
                released, self.deferred = list(self.deferred.items()), OrderedDict()
        else:
            ended = []
            if isinstance(turn, str) and type(msg) in _OF_A_TURN and turn not in self.ended_turns:
                self.live = turn  # not an error naming a turn (`turn_unknown`), nor a push
        complete = self._kept(msg, turn)
        refs = [*ended, *([complete] if complete is not None else [])]
        waiting = [(r, w) for r in dict.fromkeys(refs) if (w := self.open.pop(r, 0))]
        return waiting + released

    def _kept(self, msg: Outbound, turn: object) -> str | None:
        """`record`'s keeping; the id whose outcome `msg` completes, if any."""
        ref = msg.ref
        if isinstance(msg, Error) and ref is not None and self.turns.get(str(turn)) != ref:
            # An error naming a turn its id did not begin ("turn_unknown" for a
            # turn.cancel): the id's whole answer (a probe: its repeats waited
            # for that turn's turn.done, which never came, and got nothing).
            turn = None
        if ref is None:  # a later message of a turn an id began
            if not isinstance(turn, str) or isinstance(msg, _NOT_REPLAYED):
                return None
            ref = self.turns.get(turn)
            if ref is None:
                return None
        elif isinstance(turn, str) and turn not in self.turns:  # the id that began it
            self.turns[turn] = ref
            _bound(self.turns, self.window)
        if isinstance(msg, ObjectiveListResult):  # kept for the newest few only
            self.listings[ref] = None
            while len(self.listings) > LISTINGS_KEPT:
                self.recent.pop(self.listings.popitem(last=False)[0], None)
        if isinstance(msg, Error) and msg.retryable:
            # "Try again later" is not an outcome: the same id, sent again,
            # is executed again (rate_limited, busy, provider_unavailable);
            # one about a later moment of a turn leaves the turn's outcome.
            if msg.ref is not None:
                self.recent.pop(ref, None)
                self.decided.pop(ref, None)
                self.open.pop(ref, None)  # its repeats got this error too
            return None
        bucket = self.seen(ref)
        if bucket is not None and len(bucket) < 64:
            bucket.append(msg)
        return ref if isinstance(msg, TurnDone) or not isinstance(turn, str) else None


# Listing results kept per session for a repeated id (see `Replies`).
LISTINGS_KEPT = 4
# Repeats of one id answered once its outcome is complete; more are answered
# at once with what there is.
REPEATS_WAITING_MAX = 8


def _bound(ids: OrderedDict[str, Any], window: int) -> None:
    while len(ids) > window:
        ids.popitem(last=False)


# A turn's own messages in this session: one of them makes it the turn under way.
_OF_A_TURN: frozenset[type] = frozenset(
    {
        TranscriptFinal,
        AudioInputDone,
        ObjectiveDraft,
        ObjectiveClarify,
        ObjectiveConfirmed,
        ObjectiveRejected,
        Negotiation,
        AudioOutputStart,
    }
)
# Audio is never replayed, nor is the start of spoken output without it.
_NOT_REPLAYED = (AudioOutputStart, AudioOutputRefused)
_ENDS_AS: dict[type, TurnStatus] = {
    ObjectiveDraft: "parsed",
    ObjectiveClarify: "needs-clarification",
    ObjectiveConfirmed: "completed",
    ObjectiveRejected: "completed",
    Negotiation: "completed",
    SquadMessage: "completed",  # a permission-request, written before it is sent
    SquadAnswered: "completed",  # its answer, typed or a spoken "yes"
}


def ended(msgs: list[Outbound]) -> list[Outbound]:
    """A stored outcome with a `turn.done` for each turn in it that has none
    (no latencies: none was measured for the replay). A confirm turn stays
    `completed` when a counter-offer's draft follows its decision (§5); a
    change to a draft stays `parsed` (its new draft, then the old one's
    rejection: `runtime.amend`)."""
    out, done = list(msgs), {m.turn for m in msgs if isinstance(m, TurnDone)}
    status: dict[str, TurnStatus] = {}
    for m in msgs:
        turn = getattr(m, "turn", None)
        if not isinstance(turn, str) or turn in done or type(m) not in _ENDS_AS:
            continue
        if status.get(turn) == "parsed" and isinstance(m, ObjectiveRejected):
            continue  # a change to a draft: the new draft, then the old one's rejection
        if status.get(turn) != "completed":
            status[turn] = _ENDS_AS[type(m)]
    out += [TurnDone(turn=t, status=s, latency_ms={}) for t, s in status.items()]
    return out


# The opt-in additions (`protocol.messages.OPT_IN_FEATURES`), as a set.
OPT_IN_FEATURES: frozenset[str] = frozenset(_OPT_IN)


@dataclass(slots=True)
class Session:
    """One session's state. Its lifecycle is `vac.lifecycle.session`'s table,
    driven by the daemon; `connection` is set exactly while it is attached."""

    id: str
    principal: str
    client: str
    output: OutputFormat
    outbox: Outbox
    replies: Replies
    connection: bytes | None = None
    # The roster name when this is an agent's session (PROTOCOL §9): it
    # answers offers and reports progress, and never starts or confirms work.
    agent: str | None = None
    seq: int = 0
    last_seen_s: float = 0.0
    state: SessionState = SessionState.OPENING
    # The opt-in additions its client named in hello (`OPT_IN_FEATURES`); a
    # session made directly (tests, tools) has them all.
    accepts: frozenset[str] = field(default_factory=lambda: OPT_IN_FEATURES)

    def __post_init__(self) -> None:
        # Made already bound (tests, tools): it is attached, as the table says.
        if self.connection is not None and self.state is SessionState.OPENING:
            self.state = SessionState.ATTACHED

    @property
    def attached(self) -> bool:
        return self.state is SessionState.ATTACHED

    @property
    def ended(self) -> bool:
        return self.state is SessionState.ENDED
