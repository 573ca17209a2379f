"""The per-stream input state machine of PROTOCOL §4, as a table.

Pure: it never touches audio buffers or clocks. It decides what a chunk,
commit or cancel *means* for a stream and returns a list of outcomes that the
runtime acts on (h11-style `feed -> list[Out]`).

States: open → committed | cancelled | failed. An illegal (state, event) pair
is a named `ProtocolError`, never a silent no-op.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final

from vac.protocol.errors import ProtocolError

BYTES_PER_SAMPLE: Final = 2
INPUT_RATE_HZ: Final = 16000
BYTES_PER_MS: Final = INPUT_RATE_HZ * BYTES_PER_SAMPLE // 1000  # 32


class StreamState(Enum):
    OPEN = "open"
    COMMITTED = "committed"
    CANCELLED = "cancelled"
    FAILED = "failed"


class Event(Enum):
    CHUNK = "chunk"
    COMMIT = "commit"
    CANCEL = "cancel"
    AUTO_COMMIT = "auto_commit"  # max_utterance_ms reached, or the VAD endpoint
    FAIL = "fail"  # overrun, idle, provider failure


_S, _E = StreamState, Event

# (state, event) → next state. A pair that is absent is `stream_closed`,
# except the repeated commit, which is answered with the stored outcome.
TRANSITIONS: Final[dict[tuple[StreamState, Event], StreamState]] = {
    (_S.OPEN, _E.CHUNK): _S.OPEN,
    (_S.OPEN, _E.COMMIT): _S.COMMITTED,
    (_S.OPEN, _E.AUTO_COMMIT): _S.COMMITTED,
    (_S.OPEN, _E.CANCEL): _S.CANCELLED,
    (_S.OPEN, _E.FAIL): _S.FAILED,
    (_S.COMMITTED, _E.COMMIT): _S.COMMITTED,  # idempotent: same outcome again
    # Late failures (e.g. recognition crashed after commit) keep the stream
    # committed: the turn reports the failure, the stream is already closed.
    (_S.COMMITTED, _E.FAIL): _S.COMMITTED,
    (_S.COMMITTED, _E.AUTO_COMMIT): _S.COMMITTED,
    (_S.CANCELLED, _E.FAIL): _S.CANCELLED,
    (_S.CANCELLED, _E.AUTO_COMMIT): _S.CANCELLED,
    (_S.FAILED, _E.FAIL): _S.FAILED,
    (_S.FAILED, _E.AUTO_COMMIT): _S.FAILED,
}


# ------------------------------------------------------------- outcomes


@dataclass(frozen=True, slots=True)
class Accepted:
    """Append this PCM to the stream."""

    pcm: bytes


@dataclass(frozen=True, slots=True)
class SilenceFilled:
    """Append this many bytes of silence (a gap, §4)."""

    nbytes: int


@dataclass(frozen=True, slots=True)
class Ignored:
    """A duplicate or late chunk: counted, no error."""

    seq: int


@dataclass(frozen=True, slots=True)
class Report:
    """A non-fatal error to send to the client (input_gap, chunk_invalid)."""

    error: ProtocolError


@dataclass(frozen=True, slots=True)
class Committed:
    """The utterance is complete: transcribe it. `repeat` means answer again."""

    repeat: bool
    auto: bool


@dataclass(frozen=True, slots=True)
class Cancelled:
    pass


Outcome = Accepted | SilenceFilled | Ignored | Report | Committed | Cancelled


@dataclass(slots=True)
class InputStream:
    """One input stream's sequencing and lifecycle (§4)."""

    stream: str
    max_chunk_bytes: int
    max_utterance_ms: int
    state: StreamState = StreamState.OPEN
    expected_seq: int = 0
    last_chunk_bytes: int = 0
    received_bytes: int = 0
    duplicates: int = 0
    gaps: int = 0

    @property
    def closed(self) -> bool:
        return self.state is not StreamState.OPEN

    @property
    def received_ms(self) -> int:
        return self.received_bytes // BYTES_PER_MS

    def _move(self, event: Event) -> StreamState:
        nxt = TRANSITIONS.get((self.state, event))
        if nxt is None:
            raise ProtocolError(
                "stream_closed",
                f"stream {self.stream} is {self.state.value}",
                stream=self.stream,
            )
        previous, self.state = self.state, nxt
        return previous

    def _budget_left_bytes(self) -> int:
        return max(0, self.max_utterance_ms * BYTES_PER_MS - self.received_bytes)

    def chunk(self, seq: int, pcm: bytes) -> list[Outcome]:
        """A chunk arrived. Raises `stream_closed` on a closed stream."""
        if self.closed:
            self._move(Event.CHUNK)  # raises stream_closed
        if not pcm or len(pcm) % BYTES_PER_SAMPLE or len(pcm) > self.max_chunk_bytes:
            why = "empty" if not pcm else "odd length" if len(pcm) % 2 else "too large"
            return [
                Report(
                    ProtocolError(
                        "chunk_invalid",
                        f"chunk {seq} is {why} ({len(pcm)} bytes; max {self.max_chunk_bytes})",
                        stream=self.stream,
                    )
                )
            ]
        if seq < self.expected_seq:
            self.duplicates += 1
            return [Ignored(seq)]
        out: list[Outcome] = []
        if seq > self.expected_seq:
            out += self._gap(self.expected_seq, seq, len(pcm))
        out += self._append(pcm)
        self.expected_seq = seq + 1
        self.last_chunk_bytes = len(pcm)
        return out

    def _gap(self, expected: int, got: int, fallback_bytes: int) -> list[Outcome]:
        self.gaps += 1
        per_chunk = self.last_chunk_bytes or fallback_bytes
        # Bounded: a hostile seq jump can never make more silence than the
        # utterance may hold.
        fill = min((got - expected) * per_chunk, self._budget_left_bytes())
        self.received_bytes += fill
        err = ProtocolError(
            "input_gap",
            f"chunks {expected}..{got - 1} missing; filled with silence",
            stream=self.stream,
            details={"expected": expected, "got": got},
        )
        out: list[Outcome] = [Report(err)]
        if fill:
            out.append(SilenceFilled(fill))
        return out

    def _append(self, pcm: bytes) -> list[Outcome]:
        room = self._budget_left_bytes()
        if room <= 0:
            return []
        kept = pcm[:room] if len(pcm) > room else pcm
        self.received_bytes += len(kept)
        return [Accepted(kept)]

    @property
    def utterance_full(self) -> bool:
        """True once max_utterance_ms of audio is in: the daemon commits (§4)."""
        return self._budget_left_bytes() == 0

    def commit(self, last_seq: int) -> list[Outcome]:
        """Client commit. A repeated commit of a committed stream repeats the outcome."""
        previous = self._move(Event.COMMIT)
        if previous is StreamState.COMMITTED:
            return [Committed(repeat=True, auto=False)]
        out: list[Outcome] = []
        if last_seq >= self.expected_seq:
            out += self._gap(self.expected_seq, last_seq + 1, self.last_chunk_bytes or 640)
            self.expected_seq = last_seq + 1
        out.append(Committed(repeat=False, auto=False))
        return out

    def auto_commit(self) -> list[Outcome]:
        """The daemon ends the utterance (endpoint or max_utterance_ms)."""
        previous = self._move(Event.AUTO_COMMIT)
        if previous is not StreamState.OPEN:
            return []
        return [Committed(repeat=False, auto=True)]

    def cancel(self) -> list[Outcome]:
        self._move(Event.CANCEL)
        return [Cancelled()]

    def fail(self) -> None:
        self._move(Event.FAIL)
