"""Live latency traces with the stage names of PROTOCOL §8.

Every number is a measurement on this machine's monotonic clock — never a
modelled stage table. A turn whose `ack` stage misses its budget is
`budget-exceeded`, never promoted to success.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from vac.clock import monotonic_ns

ACK_BUDGET_MS: Final = 400


@dataclass
class LatencyTrace:
    """Stage timings for one turn. `origin_ns` is the commit, endpoint or text receipt."""

    origin_ns: int = field(default_factory=monotonic_ns)
    stages_ms: dict[str, int] = field(default_factory=dict)
    # The client's own id for this utterance (`audio.input.start.trace`):
    # carried into the turn's log lines and its `turn.done`, never invented.
    client_trace: str | None = None

    def since_origin(self, stage: str) -> int:
        """Record `stage` as origin → now (first measurement wins)."""
        ms = (monotonic_ns() - self.origin_ns) // 1_000_000
        self.stages_ms.setdefault(stage, int(ms))
        return self.stages_ms[stage]

    def record(self, stage: str, ms: float) -> None:
        self.stages_ms.setdefault(stage, round(ms))

    @property
    def ack_exceeded(self) -> bool:
        return self.stages_ms.get("ack", 0) > ACK_BUDGET_MS
