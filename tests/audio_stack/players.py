"""Playing audio into a PulseAudio sink with `pacat`: WAV files, raw PCM, endless silence.

Played into the `micfeed` sink, audio is what an application hears on the
default source `mic`; played into `speaker`, it is as if the application had
played it. Every stream is tagged with the `vac.harness` property so that
`PulseStack.client_streams` can tell the harness's streams from the
application's.
"""

from __future__ import annotations

import contextlib
import subprocess
import threading
import time
import wave
from collections.abc import Mapping
from pathlib import Path
from typing import Final

HARNESS_PROPERTY: Final = "vac.harness"
# Large enough that a loaded CI machine does not underrun (a gap in the middle
# of a spoken command), small enough that a play starts promptly; the true
# onset is measured by recording the sink's monitor, never assumed from this.
PLAY_LATENCY_MS: Final = 100
# The silence feeder only keeps a sink ticking in small blocks; an underrun of
# silence is silence, so it can ask for very little.
SILENCE_LATENCY_MS: Final = 20


def pacat_playback_argv(
    device: str, rate_hz: int, channels: int, latency_ms: int, tag: str
) -> list[str]:
    return [
        "pacat",
        "--playback",
        "--raw",
        f"--device={device}",
        f"--rate={rate_hz}",
        f"--channels={channels}",
        "--format=s16le",
        f"--latency-msec={latency_ms}",
        f"--property={HARNESS_PROPERTY}={tag}",
    ]


class Playback:
    """A `pacat` process playing a buffer into a sink; `wait` returns when it has drained."""

    def __init__(
        self,
        env: Mapping[str, str],
        pcm: bytes,
        *,
        device: str,
        rate_hz: int,
        channels: int = 1,
        latency_ms: int = PLAY_LATENCY_MS,
        tag: str = "play",
    ) -> None:
        self.device = device
        self.duration_ms = len(pcm) * 1000 // (2 * channels * rate_hz)
        argv = pacat_playback_argv(device, rate_hz, channels, latency_ms, tag)
        self.started_at_s = time.monotonic()  # the process start, not the audible onset
        self._proc = subprocess.Popen(
            argv,
            env=dict(env),
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        # A writer thread, so a long buffer never blocks the test on a full pipe.
        self._writer = threading.Thread(target=self._write, args=(pcm,), daemon=True)
        self._writer.start()

    def _write(self, pcm: bytes) -> None:
        stdin = self._proc.stdin
        assert stdin is not None
        try:
            stdin.write(pcm)
            stdin.close()  # EOF: pacat drains what it has, then exits
        except (BrokenPipeError, ValueError):
            pass  # stopped early

    @property
    def done(self) -> bool:
        return self._proc.poll() is not None

    def wait(self, timeout_s: float | None = None) -> None:
        """Until the whole buffer has been played (pacat drains before it exits)."""
        budget_s = timeout_s if timeout_s is not None else self.duration_ms / 1000 + 10.0
        try:
            self._proc.wait(budget_s)
        except subprocess.TimeoutExpired:
            self.stop()
            raise AssertionError(
                f"playing into {self.device} did not finish in {budget_s} s"
            ) from None
        self._writer.join(timeout=1.0)
        if self._proc.returncode != 0:
            err = self._proc.stderr.read().decode(errors="replace") if self._proc.stderr else ""
            raise AssertionError(
                f"pacat into {self.device} failed ({self._proc.returncode}): {err}"
            )

    def stop(self) -> None:
        stop_process(self._proc)


def stop_process(proc: subprocess.Popen[bytes], grace_s: float = 2.0) -> None:
    """Terminate, then kill if it does not go; reap it either way."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(grace_s)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(grace_s)
    for pipe in (proc.stdin, proc.stdout, proc.stderr):
        if pipe is not None:
            with contextlib.suppress(OSError):
                pipe.close()


def read_wav(path: Path) -> tuple[bytes, int, int]:
    """(s16le frames, rate in Hz, channels) of a 16-bit PCM WAV."""
    with wave.open(str(path)) as w:
        if w.getsampwidth() != 2:
            raise ValueError(f"{path}: {8 * w.getsampwidth()}-bit; the harness plays 16-bit PCM")
        return w.readframes(w.getnframes()), w.getframerate(), w.getnchannels()


def play_pcm(
    env: Mapping[str, str], pcm: bytes, *, device: str, rate_hz: int = 16000, channels: int = 1
) -> Playback:
    """Start playing s16le PCM into `device`; returns at once (call `.wait()`)."""
    return Playback(env, pcm, device=device, rate_hz=rate_hz, channels=channels)


def play_wav(env: Mapping[str, str], path: Path, *, device: str) -> Playback:
    """Start playing a 16-bit WAV (any rate; PulseAudio resamples) into `device`."""
    pcm, rate_hz, channels = read_wav(path)
    return Playback(env, pcm, device=device, rate_hz=rate_hz, channels=channels, tag="wav")


def feed_silence(
    env: Mapping[str, str], *, device: str, rate_hz: int = 16000
) -> subprocess.Popen[bytes]:
    """An endless stream of zeros into `device`, until the process is stopped.

    Why: an idle null sink renders in 2 s blocks, so a stream opened on its
    monitor (the client's microphone, a recorder) gets its first samples up to
    2 s late. A low-latency input keeps it ticking every few ms; mixed with
    the real audio, zeros change nothing.
    """
    argv = pacat_playback_argv(device, rate_hz, 1, SILENCE_LATENCY_MS, "silence")
    with open("/dev/zero", "rb") as zeros:  # the child keeps its own copy of the fd
        return subprocess.Popen(
            argv, env=dict(env), stdin=zeros, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )


def silence_pcm(duration_ms: int, rate_hz: int = 16000) -> bytes:
    return bytes(2 * rate_hz * duration_ms // 1000)
