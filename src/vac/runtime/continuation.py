"""The continuation window of a `vad`-mode stream: a pause mid-command is not its end.

People pause inside a command ("ask Kofi to … build a bench by tomorrow").
At the VAD's endpoint the stream therefore stays open until `continuation_ms`
after the last voiced audio. Speech that starts inside the window continues
the same utterance (one final, one turn); the final heard at the endpoint is
sent marked `provisional` so a client can show it but must not act on it.

The window closes on audio time (a client that keeps streaming: decided
exactly, whatever its pacing) or on wall time (a client that stopped sending
after its own VAD went quiet), whichever comes first. The wall timer gets a
little slack so a real-time client's jitter never closes a window its audio
would have kept open.

Pure except for the timer handle the listener attaches; the rules are here so
they are testable without a socket.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Final

# A real-time client's chunks arrive up to a few tens of ms late; the wall
# clock must not beat the audio clock to the decision.
WALL_SLACK_MS: Final = 100


def window_enabled(continuation_ms: int, endpoint_silence_ms: int) -> bool:
    """A window no longer than the endpoint's own silence would close at once: off."""
    return continuation_ms > endpoint_silence_ms


@dataclass
class Window:
    """One open continuation window (audio times are stream offsets in ms)."""

    last_voiced_ms: int  # end of the last voiced frame before the pause
    endpoint_at_ms: int  # where the endpointer decided the pause was long enough
    continuation_ms: int
    turn_id: str  # the turn the utterance becomes, if it is one
    opened_s: float  # monotonic time of the endpoint
    timer: asyncio.TimerHandle | None = None

    @property
    def until_ms(self) -> int:
        return self.last_voiced_ms + self.continuation_ms

    def wall_delay_s(self) -> float:
        """How long the wall clock waits for a client that stopped sending."""
        remaining_ms = max(0, self.until_ms - self.endpoint_at_ms)
        return (remaining_ms + WALL_SLACK_MS) / 1000

    def resumes(self, speech_at_ms: int) -> bool:
        """Speech starting here continues the utterance (it began inside the window)."""
        return speech_at_ms < self.until_ms

    def closed_by_audio(self, trailing_unvoiced_ms: int, speech_pending: bool) -> bool:
        """The client's audio reached the window's end without new speech.

        `speech_pending`: voiced frames not yet confirmed as speech; they may be
        the start of a continuation, so the decision waits for the VAD.
        """
        return trailing_unvoiced_ms >= self.continuation_ms and not speech_pending

    def pause_ms_by_audio(self, processed_ms: int) -> int:
        """The `endpoint` stage when the audio closed the window."""
        return processed_ms - self.last_voiced_ms

    def pause_ms_by_wall(self, now_s: float | None = None) -> int:
        """The `endpoint` stage when the wall clock closed it: measured, not assumed."""
        now_s = time.monotonic() if now_s is None else now_s
        return (self.endpoint_at_ms - self.last_voiced_ms) + round((now_s - self.opened_s) * 1000)

    def cancel(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
