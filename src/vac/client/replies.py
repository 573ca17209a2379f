"""Reply audio bookkeeping for the scripted transport (pure: times are passed in).

`ReplyCollector` gathers `audio.output.chunk` payloads per output stream and
numbers replies in the order their `audio.output.start` arrived.
`BargeInSchedule` decides when a simulated listener interrupts a reply: a
fixed delay after the reply's first chunk, reporting `played_ms` as the audio
received so far capped by the wall time since that chunk (a listener cannot
have heard more than either).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from vac.client.pacing import played_ms


@dataclass
class Reply:
    number: int
    stream: str
    turn: str | None
    chunks: list[tuple[int, bytes]] = field(default_factory=list)

    def pcm(self) -> bytes:
        # Index order, not arrival order: the daemon numbers chunks for a reason.
        return b"".join(payload for _, payload in sorted(self.chunks, key=lambda c: c[0]))


@dataclass
class ReplyCollector:
    replies: dict[str, Reply] = field(default_factory=dict)

    def start(self, stream: str, turn: str | None) -> Reply:
        reply = self.replies.get(stream)
        if reply is None:
            reply = self.replies[stream] = Reply(len(self.replies) + 1, stream, turn)
        return reply

    def chunk(self, stream: str, index: int, payload: bytes) -> Reply:
        reply = self.start(stream, None)
        reply.chunks.append((index, payload))
        return reply


@dataclass
class _Pending:
    turn: str
    first_chunk_s: float
    received_bytes: int = 0
    fired: bool = False
    finished: bool = False


@dataclass(frozen=True)
class BargeIn:
    turn: str
    stream: str
    played_ms: int


@dataclass
class BargeInSchedule:
    """Interrupt each reply `after_ms` after its first chunk, unless it ended first."""

    after_ms: int
    rate_hz: int
    _pending: dict[str, _Pending] = field(default_factory=dict)

    def on_chunk(self, stream: str, turn: str | None, n_bytes: int, now_s: float) -> None:
        pending = self._pending.get(stream)
        if pending is None:
            if turn is None:
                return  # a chunk without its start names no turn to cancel
            pending = self._pending[stream] = _Pending(turn, now_s)
        pending.received_bytes += n_bytes

    def on_done(self, stream: str) -> None:
        pending = self._pending.get(stream)
        if pending is not None:
            pending.finished = True

    def next_due_s(self) -> float | None:
        due = [
            p.first_chunk_s + self.after_ms / 1000
            for p in self._pending.values()
            if not (p.fired or p.finished)
        ]
        return min(due) if due else None

    def due(self, now_s: float) -> list[BargeIn]:
        out: list[BargeIn] = []
        for stream, p in self._pending.items():
            if p.fired or p.finished or now_s < p.first_chunk_s + self.after_ms / 1000:
                continue
            p.fired = True
            wall_ms = int((now_s - p.first_chunk_s) * 1000)
            out.append(BargeIn(p.turn, stream, played_ms(p.received_bytes, self.rate_hz, wall_ms)))
        return out
