"""Acoustic echo without a room: the speaker leaks into the microphone.

`module-loopback` copies `speaker.monitor` into the `micfeed` sink, so what
the application plays comes back on its microphone, mixed with whatever the
test plays there, `delay_ms` later and `gain_db` quieter (0 dB: as loud as
played). The delay is the loopback's target latency: PulseAudio adjusts its
resampler to reach it within a second or so, so measure it (see
tests/audio_stack/test_stack.py) rather than assume it to the millisecond.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from tests.audio_stack.players import HARNESS_PROPERTY

SPEAKER_MONITOR: Final = "speaker.monitor"
MIC_FEED: Final = "micfeed"
# module-loopback refuses less; a real laptop's echo path is longer anyway.
MIN_DELAY_MS: Final = 1

Pactl = Callable[..., str]


@dataclass
class Echo:
    """A loaded loopback; `unload` ends it (the stack unloads any left at teardown)."""

    pactl: Pactl
    module_id: int
    sink_input: int
    gain_db: float
    delay_ms: int
    loaded: bool = True

    def set_gain(self, gain_db: float) -> None:
        # pactl takes "-12dB"; "--" before a negative value is refused.
        self.pactl("set-sink-input-volume", str(self.sink_input), f"{gain_db:.2f}dB")
        self.gain_db = gain_db

    def mute(self, muted: bool = True) -> None:
        self.pactl("set-sink-input-mute", str(self.sink_input), "1" if muted else "0")

    def unload(self) -> None:
        if self.loaded:
            self.pactl("unload-module", str(self.module_id))
            self.loaded = False


def load_echo(
    pactl: Pactl,
    *,
    gain_db: float,
    delay_ms: int,
    source: str = SPEAKER_MONITOR,
    sink: str = MIC_FEED,
    timeout_s: float = 5.0,
) -> Echo:
    """Load a loopback from `source` to `sink` and set its level; see the module doc."""
    if delay_ms < MIN_DELAY_MS:
        raise ValueError(f"delay_ms must be at least {MIN_DELAY_MS}")
    module_id = int(
        pactl(
            "load-module",
            "module-loopback",
            f"source={source}",
            f"sink={sink}",
            f"latency_msec={delay_ms}",
            "source_dont_move=true",
            "sink_dont_move=true",
            f"sink_input_properties={HARNESS_PROPERTY}=echo",
            f"source_output_properties={HARNESS_PROPERTY}=echo",
        ).strip()
    )
    echo = Echo(pactl, module_id, _sink_input_of(pactl, module_id, timeout_s), 0.0, delay_ms)
    echo.set_gain(gain_db)
    return echo


def _sink_input_of(pactl: Pactl, module_id: int, timeout_s: float) -> int:
    """The sink input a module owns (the loopback creates it as it loads, but ask until seen)."""
    deadline = time.monotonic() + timeout_s
    while True:
        for item in json.loads(pactl("-f", "json", "list", "sink-inputs")):
            if str(item.get("owner_module")) == str(module_id):
                return int(item["index"])
        if time.monotonic() > deadline:
            pactl("unload-module", str(module_id))
            raise AssertionError(f"module {module_id} made no sink input in {timeout_s} s")
        time.sleep(0.05)
