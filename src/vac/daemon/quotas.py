"""Rate limits and the session quota (PROTOCOL §7): pure, the caller passes the time.

- `PrincipalBuckets`: one token bucket per principal for non-control messages.
- `EarlyGates`: one bucket per connection for traffic before a session.
- `SessionQuota`: sessions per principal, counting hellos still being answered.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Final

from vac.daemon.sessions import MAX_TRACKED_CONNECTIONS
from vac.protocol.errors import ProtocolError
from vac.protocol.messages import CONTROL_TYPES, InboundMessage, TextInput
from vac.runtime.session import Session

# The longest `text.input` (§4: 1–2000 characters).
MAX_TEXT_CHARS: Final = 2000

# Traffic before a session (pings, hellos, refusals), per connection: a
# client needs a handful of messages to get a session, not thousands.
EARLY_MESSAGES_PER_S: Final = 20.0


def retry_after_ms(wait_s: float) -> int:
    """The `retry_after_ms` of a refusal: never 0, which would invite a spin."""
    return max(1, int(wait_s * 1000))


def rate_limited(message: str, ref: str, wait_s: float) -> ProtocolError | None:
    """§7's refusal for message `ref` when a bucket says to wait; None when not."""
    if wait_s <= 0:
        return None
    return ProtocolError(
        "rate_limited", message, ref=ref, details={"retry_after_ms": retry_after_ms(wait_s)}
    )


@dataclass
class TokenBucket:
    """A token bucket for non-control messages (§7); burst = `capacity`
    (default: one second's worth)."""

    rate_per_s: float
    tokens: float
    stamp_s: float
    capacity: float = 0.0

    def __post_init__(self) -> None:
        self.capacity = self.capacity or self.rate_per_s

    @classmethod
    def full(cls, rate_per_s: float, now_s: float, capacity: float = 0.0) -> TokenBucket:
        return cls(rate_per_s, capacity or rate_per_s, now_s, capacity)

    def take(self, now_s: float, cost: float = 1.0) -> float:
        """0 when allowed (`cost` tokens taken), else seconds until they are there."""
        self.tokens = min(self.capacity, self.tokens + (now_s - self.stamp_s) * self.rate_per_s)
        self.stamp_s = now_s
        if self.tokens >= cost:
            self.tokens -= cost
            return 0.0
        return (cost - self.tokens) / self.rate_per_s


@dataclass
class EarlyGate:
    """A connection's bucket for traffic outside a session.

    The first message refused in a dry spell is answered (`rate_limited`, so
    the client knows to slow down); the rest are dropped unanswered until
    the bucket has refilled completely, i.e. until the client paused. A
    flood thus gets `burst + rate × seconds` replies plus one error.
    """

    bucket: TokenBucket
    dry: bool = False

    def admit(self, now_s: float) -> float | None:
        """0.0: let it pass; > 0: refuse with this retry delay; None: drop it."""
        wait_s = self.bucket.take(now_s)
        if wait_s <= 0:
            if self.bucket.tokens >= self.bucket.rate_per_s - 1:
                self.dry = False  # it was full: the client paused
            return 0.0
        if self.dry:
            return None
        self.dry = True
        return wait_s


class EarlyGates:
    """The early gates of the last MAX_TRACKED_CONNECTIONS connections."""

    def __init__(self, rate_per_s: float = EARLY_MESSAGES_PER_S) -> None:
        self.rate_per_s = rate_per_s
        self._gates: OrderedDict[bytes, EarlyGate] = OrderedDict()

    def admit(self, rid: bytes, now_s: float) -> float | None:
        """As `EarlyGate.admit`, for this connection's gate."""
        gate = self._gates.get(rid)
        if gate is None:
            gate = self._gates[rid] = EarlyGate(TokenBucket.full(self.rate_per_s, now_s))
            while len(self._gates) > MAX_TRACKED_CONNECTIONS:
                self._gates.popitem(last=False)
        else:
            self._gates.move_to_end(rid)
        return gate.admit(now_s)

    def forget(self, rid: bytes) -> None:
        """The connection is another's now: its traffic starts a gate of its own."""
        self._gates.pop(rid, None)


class PrincipalBuckets:
    """Each principal's token bucket for non-control messages (§7)."""

    def __init__(self, rate_per_s: float) -> None:
        self.rate_per_s = rate_per_s
        self._buckets: dict[str, TokenBucket] = {}

    def take(self, principal: str, now_s: float) -> float:
        """0 when the message may pass, else seconds until it may."""
        bucket = self._buckets.get(principal)
        if bucket is None:
            bucket = self._buckets[principal] = TokenBucket.full(self.rate_per_s, now_s)
        return bucket.take(now_s)

    def refusal(self, principal: str, ref: str, now_s: float) -> ProtocolError | None:
        """The `rate_limited` for message `ref`, or None when it may pass."""
        return rate_limited("too many messages; slow down", ref, self.take(principal, now_s))


class TextBudget:
    """Each principal's typed text understood per second (§7), by its cost.

    Understanding costs CPU in proportion to the words (~0.07 ms a character
    on this machine class: a 2000-character text ~130 ms), on the daemon's
    loop. Within the message rate a principal could still send 40 such texts
    a second and stall every other principal for seconds (an adversarial
    probe: pings took 1 s). A text costs its length plus its length squared
    over `LONG_CHARS`: a 60-character command ~67, one of 2000 characters
    10,000. So a harness typing short commands back to back (~100 a second)
    is never refused, while long texts are held to about one a second: one
    principal's typing takes at most ~`units_per_s` × 0.07 ms of the loop
    for short text, far less for long.
    """

    # A text this long costs twice its length.
    LONG_CHARS: Final = 500

    def __init__(self, units_per_s: float) -> None:
        self.units_per_s = units_per_s
        # One second's worth, never less than the longest text's cost: one
        # that could never fit would be refused, "retryable", forever.
        self.capacity = max(units_per_s, self.cost(MAX_TEXT_CHARS))
        self._buckets: dict[str, TokenBucket] = {}

    @classmethod
    def cost(cls, chars: int) -> float:
        return chars + chars * chars / cls.LONG_CHARS

    def refusal(self, principal: str, ref: str, chars: int, now_s: float) -> ProtocolError | None:
        """The `rate_limited` for a text of `chars` characters, or None."""
        bucket = self._buckets.get(principal)
        if bucket is None:
            bucket = TokenBucket.full(self.units_per_s, now_s, self.capacity)
            self._buckets[principal] = bucket
        wait_s = bucket.take(now_s, self.cost(chars))
        return rate_limited("too much text to understand at once; slow down", ref, wait_s)


def refusal(
    buckets: PrincipalBuckets, text: TextBudget, principal: str, msg: InboundMessage, now_s: float
) -> ProtocolError | None:
    """§7 for one message: the principal's message rate (control messages
    exempt), and for typed text its characters (`TextBudget`)."""
    if not isinstance(msg, CONTROL_TYPES) and (
        limited := buckets.refusal(principal, msg.id, now_s)
    ):
        return limited
    if isinstance(msg, TextInput):
        return text.refusal(principal, msg.id, len(msg.text), now_s)
    return None


@dataclass(frozen=True, slots=True)
class Room:
    """There is room for one more session."""


@dataclass(frozen=True, slots=True)
class Full:
    """No room: refuse the hello (`rate_limited`)."""


@dataclass(frozen=True, slots=True)
class MakeRoom:
    """Room once `stalest` (likely a dead client) is detached as `replaced`."""

    stalest: Session


Verdict = Room | Full | MakeRoom


class SessionQuota:
    """Sessions per principal (§7), counting hellos still being answered.

    Hellos that will create a session are reserved synchronously, when they
    arrive: the handshake awaits, and a count taken there let 60 concurrent
    hellos past a quota of 8.
    """

    def __init__(self, max_per_principal: int, heartbeat_s: float) -> None:
        self.max_per_principal = max_per_principal
        self.heartbeat_s = heartbeat_s
        self.opening: dict[str, int] = {}

    def check(self, principal: str, attached: list[Session], now_s: float) -> Verdict:
        """Whether a new session fits beside the principal's `attached` ones.

        A connection that vanished is only noticed by idle expiry; so at the
        quota, the principal's longest-silent session is detached (kept for
        resume) if it has been silent for a heartbeat.
        """
        if len(attached) + self.opening.get(principal, 0) < self.max_per_principal:
            return Room()
        if not attached:
            return Full()  # all of the quota is hellos in flight
        stalest = min(attached, key=lambda s: s.last_seen_s)
        if now_s - stalest.last_seen_s > self.heartbeat_s:
            return MakeRoom(stalest)
        return Full()

    def reserve(self, principal: str) -> None:
        self.opening[principal] = self.opening.get(principal, 0) + 1

    def release(self, principal: str) -> None:
        left = self.opening.get(principal, 0) - 1
        if left > 0:
            self.opening[principal] = left
        else:
            self.opening.pop(principal, None)
