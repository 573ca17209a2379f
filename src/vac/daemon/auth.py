"""Who may connect: the ZAP CURVE callback, and the audit of those refused."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any, Final

from vac.clock import monotonic_s, now_ms
from vac.daemon.keys import KeyRegistry, fingerprint
from vac.logs import get_logger
from vac.runtime.store import AsyncEventLog, EventLog

ZAP_DOMAIN: Final = "vac"
AUTH_AUDIT_INTERVAL_S: Final = 60.0
MAX_AUTH_FINGERPRINTS: Final = 1024
OTHER_FINGERPRINTS: Final = "other"

# Starts a background write owned by the server (drained at shutdown).
Spawn = Callable[[Coroutine[Any, Any, None]], None]

log = get_logger("vac.server")


class AuthProvider:
    """ZAP CURVE callback: enrolled keys only; failures counted, audited in bulk.

    A scan with fresh keys used to write one audit row per key, growing the
    event log without bound. Failures are now counted in memory per key
    fingerprint (at most MAX_AUTH_FINGERPRINTS distinct ones per interval,
    the rest under "other") and written as one `auth_failed` row at most
    once per interval, and at shutdown. The first failure after a quiet
    interval is written at once, so an operator sees an attack start.
    """

    def __init__(
        self, registry: KeyRegistry, store: AsyncEventLog, interval_s: float, spawn: Spawn
    ) -> None:
        self.registry = registry
        self.store = store
        self.interval_s = interval_s
        self._spawn = spawn
        self._counts: dict[str, int] = {}
        self._last_write_s = -interval_s

    def callback(self, domain: str, key: bytes) -> bool:
        if domain == ZAP_DOMAIN and self.registry.principal_of(key) is not None:
            return True
        # The public key is not secret; its fingerprint is enough to act on.
        self._count(fingerprint(key))
        self.write_if_due()
        return False

    def _count(self, name: str) -> None:
        if name not in self._counts and len(self._counts) >= MAX_AUTH_FINGERPRINTS:
            name = OTHER_FINGERPRINTS
        self._counts[name] = self._counts.get(name, 0) + 1

    def write_if_due(self) -> None:
        """Start writing the interval's counts, if an interval has passed."""
        if self._counts and monotonic_s() - self._last_write_s >= self.interval_s:
            self._spawn(self._write(self._take()))

    async def write_now(self) -> None:
        """At shutdown: whatever was counted, whenever the last row was."""
        if self._counts:
            await self._write(self._take())

    def _take(self) -> dict[str, int]:
        # Taken synchronously, so two writes never carry the same failures.
        counts, self._counts = self._counts, {}
        self._last_write_s = monotonic_s()
        return counts

    async def _write(self, counts: dict[str, int]) -> None:
        log.warning("auth_failed", total=sum(counts.values()), distinct=len(counts))
        await self.store.call(EventLog.auth_failures, now_ms(), counts)
