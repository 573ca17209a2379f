"""Recording a PulseAudio source with `parec`, with a clock for every sample.

`Recorder` reads raw s16le from `parec` on a thread. Each block is stamped with
`time.monotonic()` when it arrives; a block can only arrive late, never early,
so the earliest `arrival - samples_so_far / rate` over all blocks is the best
estimate of when sample 0 was captured. Sample i was then captured at
`t0 + i / rate` (the null sink's clock is the system clock, so no drift).
CLOCK_MONOTONIC is shared by every process on the machine: a test can compare
these times with ones taken elsewhere (a key sent, a message received).

Silence here is digital zeros (null devices), so the level threshold only has
to separate speech from nothing; 10 ms frames set the time resolution.
"""

from __future__ import annotations

import math
import os
import subprocess
import threading
import time
import wave
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from tests.audio_stack.players import HARNESS_PROPERTY, stop_process

RECORD_LATENCY_MS: Final = 20
FRAME_MS: Final = 10
SOUND_DBFS: Final = -45.0  # a frame louder than this is sound
POLL_S: Final = 0.02
_READ_BYTES: Final = 4096


def frame_levels_dbfs(
    pcm: bytes, rate_hz: int, frame_ms: int = FRAME_MS
) -> npt.NDArray[np.float64]:
    """RMS level of each whole `frame_ms` frame in dBFS (digital silence: far below -120)."""
    samples = np.frombuffer(pcm, dtype="<i2").astype(np.float64)
    per_frame = rate_hz * frame_ms // 1000
    n = len(samples) // per_frame
    if n == 0:
        return np.zeros(0)
    frames = samples[: n * per_frame].reshape(n, per_frame)
    rms: npt.NDArray[np.float64] = np.sqrt(np.mean(frames**2, axis=1))
    levels: npt.NDArray[np.float64] = 20 * np.log10(np.maximum(rms, 1e-6) / 32768.0)
    return levels


@dataclass(frozen=True)
class Recording:
    """PCM (s16le mono) and the monotonic time at which its sample 0 was captured."""

    pcm: bytes
    rate_hz: int
    t0_s: float

    @property
    def samples(self) -> int:
        return len(self.pcm) // 2

    @property
    def duration_ms(self) -> int:
        return self.samples * 1000 // self.rate_hz

    def at_s(self, sample: int) -> float:
        """Monotonic time at which `sample` was captured."""
        return self.t0_s + sample / self.rate_hz

    def wall_time_s(self, sample: int) -> float:
        """`at_s` on the wall clock (time.time()), for logs and reports; compare with at_s."""
        return self.at_s(sample) + (time.time() - time.monotonic())

    def sample_at(self, at_s: float) -> int:
        """The sample captured at monotonic time `at_s` (clamped to the recording)."""
        return min(max(0, round((at_s - self.t0_s) * self.rate_hz)), self.samples)

    def slice(self, start: int = 0, end: int | None = None) -> Recording:
        end = self.samples if end is None else end
        return Recording(self.pcm[2 * start : 2 * end], self.rate_hz, self.at_s(start))

    def since(self, at_s: float) -> Recording:
        return self.slice(self.sample_at(at_s))

    def onset(self, threshold_dbfs: float = SOUND_DBFS) -> int | None:
        """First sample of the first frame louder than the threshold, or None."""
        loud = np.flatnonzero(frame_levels_dbfs(self.pcm, self.rate_hz) > threshold_dbfs)
        return None if len(loud) == 0 else int(loud[0]) * self.rate_hz * FRAME_MS // 1000

    def offset(self, threshold_dbfs: float = SOUND_DBFS) -> int | None:
        """Sample just after the last frame louder than the threshold, or None."""
        loud = np.flatnonzero(frame_levels_dbfs(self.pcm, self.rate_hz) > threshold_dbfs)
        return None if len(loud) == 0 else (int(loud[-1]) + 1) * self.rate_hz * FRAME_MS // 1000

    def onset_s(self, threshold_dbfs: float = SOUND_DBFS) -> float | None:
        """Monotonic time at which sound started, or None if there was none."""
        start = self.onset(threshold_dbfs)
        return None if start is None else self.at_s(start)

    def trimmed(self, pad_ms: int = 100, threshold_dbfs: float = SOUND_DBFS) -> Recording:
        """Leading and trailing silence cut, `pad_ms` of it kept each side."""
        start, end = self.onset(threshold_dbfs), self.offset(threshold_dbfs)
        if start is None or end is None:
            return self.slice(0, 0)
        pad = self.rate_hz * pad_ms // 1000
        return self.slice(max(0, start - pad), min(self.samples, end + pad))

    def peak_dbfs(self) -> float:
        samples = np.frombuffer(self.pcm, dtype="<i2")
        if len(samples) == 0:
            return -math.inf
        return float(20 * np.log10(max(int(np.abs(samples.astype(np.int32)).max()), 1) / 32768))

    def save_wav(self, path: Path) -> Path:
        with wave.open(str(path), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(self.rate_hz)
            w.writeframes(self.pcm)
        return path


class Recorder:
    """`parec` on one source, read live; stop it (or let the stack) to end it."""

    def __init__(self, env: Mapping[str, str], device: str, *, rate_hz: int = 16000) -> None:
        self.device = device
        self.rate_hz = rate_hz
        self._lock = threading.Lock()
        self._pcm = bytearray()
        self._t0_s = math.inf
        self._first = threading.Event()
        argv = [
            "parec",
            "--raw",
            f"--device={device}",
            f"--rate={rate_hz}",
            "--channels=1",
            "--format=s16le",
            f"--latency-msec={RECORD_LATENCY_MS}",
            f"--property={HARNESS_PROPERTY}=record",
        ]
        self._proc = subprocess.Popen(
            argv, env=dict(env), stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        self._reader = threading.Thread(target=self._read, name=f"rec-{device}", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self._proc.stdout is not None
        fd = self._proc.stdout.fileno()
        while True:
            try:
                block = os.read(fd, _READ_BYTES)
            except OSError:
                return
            if not block:
                return
            arrived_s = time.monotonic()
            with self._lock:
                self._pcm += block
                # Whole samples only: a block may end mid-sample.
                self._t0_s = min(self._t0_s, arrived_s - (len(self._pcm) // 2) / self.rate_hz)
            self._first.set()

    def wait_ready(self, timeout_s: float = 10.0) -> Recorder:
        """Until the first samples arrived: anything played after this is captured."""
        if not self._first.wait(timeout_s):
            err = b""
            if self._proc.poll() is not None and self._proc.stderr is not None:
                err = self._proc.stderr.read()
            why = err.decode(errors="replace")
            raise AssertionError(f"recording {self.device}: no audio within {timeout_s} s {why}")
        return self

    def snapshot(self) -> Recording:
        """Everything captured so far (the recorder goes on)."""
        with self._lock:
            pcm = bytes(self._pcm[: len(self._pcm) // 2 * 2])
            t0_s = self._t0_s
        return Recording(pcm, self.rate_hz, t0_s)

    def stop(self) -> Recording:
        stop_process(self._proc)
        self._reader.join(timeout=2.0)
        return self.snapshot()

    def wait_for_sound(
        self, *, since_s: float, timeout_s: float, threshold_dbfs: float = SOUND_DBFS
    ) -> float:
        """Monotonic time of the first sound captured at or after `since_s`."""
        deadline = time.monotonic() + timeout_s
        while True:
            onset = self.snapshot().since(since_s).onset_s(threshold_dbfs)
            if onset is not None:
                return onset
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.device}: no sound within {timeout_s} s")
            time.sleep(POLL_S)

    def wait_for_quiet(
        self,
        *,
        quiet_ms: int,
        timeout_s: float,
        since_s: float = -math.inf,
        threshold_dbfs: float = SOUND_DBFS,
    ) -> float:
        """Until the newest `quiet_ms` captured (after `since_s`) are silent.

        Returns the monotonic time the silence began (the end of the last
        sound after `since_s`, or `since_s`/the first sample if there was none).
        """
        deadline = time.monotonic() + timeout_s
        while True:
            rec = self.snapshot().since(since_s)
            end = rec.offset(threshold_dbfs)
            quiet_from = rec.at_s(end if end is not None else 0)
            if rec.samples and rec.at_s(rec.samples) - quiet_from >= quiet_ms / 1000:
                return quiet_from
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.device}: not quiet for {quiet_ms} ms in {timeout_s} s")
            time.sleep(POLL_S)
