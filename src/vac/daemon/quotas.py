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
from vac.runtime.session import Session

# Traffic before a session (pings, hellos, refusals), per connection: a
# client needs a handful of messages to get a session, not thousands.
EARLY_MESSAGES_PER_S: Final = 20.0


def retry_after_ms(wait_s: float) -> int:
    """The `retry_after_ms` of a refusal: never 0, which would invite a spin."""
    return max(1, int(wait_s * 1000))


@dataclass
class TokenBucket:
    """A token bucket (burst = one second's worth) for non-control messages (§7)."""

    rate_per_s: float
    tokens: float
    stamp_s: float

    @classmethod
    def full(cls, rate_per_s: float, now_s: float) -> TokenBucket:
        return cls(rate_per_s, rate_per_s, now_s)

    def take(self, now_s: float) -> float:
        """0 when allowed, else seconds until a token is available."""
        self.tokens = min(self.rate_per_s, self.tokens + (now_s - self.stamp_s) * self.rate_per_s)
        self.stamp_s = now_s
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0.0
        return (1.0 - self.tokens) / self.rate_per_s


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
        wait_s = self.take(principal, now_s)
        if wait_s <= 0:
            return None
        return ProtocolError(
            "rate_limited",
            "too many messages; slow down",
            ref=ref,
            details={"retry_after_ms": retry_after_ms(wait_s)},
        )


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
