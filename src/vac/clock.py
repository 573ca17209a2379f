"""The daemon's clocks, in one place.

Three different times, never mixed:
- `wall_now()`: the household's local date and time, for deadlines, draft
  expiry and the agents' time of day (it jumps when the clock is set);
- `now_ms()` / `wall_ns()`: wall-clock epoch time, the event log's
  timestamps and file modification times;
- `monotonic_s()` / `monotonic_ns()`: elapsed time for budgets, pacing,
  rate limits and idle expiry (never jumps).

`vac.protocol` and `vac.intent` read no clock: time is passed in to them.
"""

from __future__ import annotations

import datetime as dt
import time


def wall_now() -> dt.datetime:
    """The household's local time, timezone-aware."""
    return dt.datetime.now().astimezone()


def now_ms() -> int:
    """Wall-clock milliseconds since the epoch: the event log's timestamps."""
    return time.time_ns() // 1_000_000


def wall_ns() -> int:
    """Wall-clock nanoseconds since the epoch (to compare with file mtimes)."""
    return time.time_ns()


def monotonic_s() -> float:
    """Seconds on the monotonic clock (only differences mean anything)."""
    return time.monotonic()


def monotonic_ns() -> int:
    """Nanoseconds on the monotonic clock (only differences mean anything)."""
    return time.monotonic_ns()
