"""A real audio stack without hardware: a private PulseAudio with null devices.

What a test gets (`PulseStack`, fixture `audio_stack`):

    test ── play_wav/play_pcm ──▶ sink "micfeed" ──monitor──▶ source "mic" (default)
                                                                  │
                                          vac talk (PortAudio → ALSA "default"
                                          → pulse plugin) records it │ plays to
                                                                  ▼
    test ◀── record("speaker.monitor") ◀──monitor── sink "speaker" (default)
                                  └── optional echo: loopback speaker.monitor → micfeed

- One `pulseaudio` per test in a temp dir (HOME, XDG_RUNTIME_DIR,
  PULSE_RUNTIME_PATH all inside it), talking only over its own unix socket
  (anonymous auth; no shm, no D-Bus, no autospawn, never exits when idle).
  It runs fine as root. `env` is the environment to give every program that
  should use it: PulseAudio clients find it through PULSE_SERVER, ALSA
  programs (PortAudio) through `$HOME/.asoundrc`, which routes ALSA's
  `default` PCM to the pulse plugin (package libasound2-plugins).
- Two null sinks at 16 kHz mono: `speaker` (the default sink; the test
  records its monitor) and `micfeed` (the test plays into it); `mic` is a
  remap of `micfeed.monitor` so that it is a real source and the default.
- Both sinks are fed endless silence at low latency (see
  `players.feed_silence` for why): a stream opened on them gets samples at
  once instead of up to 2 s later.
- Times are `time.monotonic()` seconds, comparable across processes; a
  `Recording` dates each sample (see recorder.py), so onsets and latencies
  are measured where the audio passes, not guessed from process starts.
- Echo (`add_echo`) leaks the speaker into the mic (echo.py); tmux drives a
  terminal program (tmux.py).

`start()` raises `StackUnavailable` with the reason when a tool is missing or
the daemon does not come up; the fixture turns that into a skip.
"""

from __future__ import annotations

import contextlib
import glob
import json
import os
import shutil
import subprocess
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from tests.audio_stack.echo import Echo, load_echo
from tests.audio_stack.players import (
    HARNESS_PROPERTY,
    Playback,
    feed_silence,
    play_pcm,
    play_wav,
    stop_process,
)
from tests.audio_stack.recorder import Recorder

RATE_HZ: Final = 16000
SPEAKER: Final = "speaker"
SPEAKER_MONITOR: Final = "speaker.monitor"
MIC_FEED: Final = "micfeed"
MIC_FEED_MONITOR: Final = "micfeed.monitor"
MIC: Final = "mic"
READY_TIMEOUT_S: Final = 10.0
TOOLS: Final = ("pulseaudio", "pactl", "pacat", "parec", "tmux")
# libasound2-plugins' pulse PCM, wherever the distribution keeps ALSA plugins.
ALSA_PULSE_PLUGIN_GLOBS: Final = (
    "/usr/lib/*/alsa-lib/libasound_module_pcm_pulse.so",
    "/usr/lib/alsa-lib/libasound_module_pcm_pulse.so",
    "/usr/lib64/alsa-lib/libasound_module_pcm_pulse.so",
)

DEFAULT_PA: Final = f"""\
load-module module-native-protocol-unix auth-anonymous=1
load-module module-null-sink sink_name={SPEAKER} rate={RATE_HZ} channels=1
load-module module-null-sink sink_name={MIC_FEED} rate={RATE_HZ} channels=1
load-module module-remap-source source_name={MIC} master={MIC_FEED_MONITOR}
set-default-sink {SPEAKER}
set-default-source {MIC}
"""
ASOUNDRC: Final = "pcm.!default { type pulse }\nctl.!default { type pulse }\n"
# A client that cannot reach our daemon must fail, never start the user's own.
CLIENT_CONF: Final = "autospawn = no\n"


class StackUnavailable(Exception):
    """The stack cannot run here; the message says why (a test skips with it)."""


def missing_requirements() -> list[str]:
    """What this machine lacks for the stack (empty when it has everything)."""
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if not any(glob.glob(pattern) for pattern in ALSA_PULSE_PLUGIN_GLOBS):
        missing.append("the ALSA pulse plugin (libasound2-plugins)")
    return missing


@dataclass(frozen=True)
class Stream:
    """An application's stream on the daemon (the harness's own are left out)."""

    kind: str  # "sink-input" (playing) or "source-output" (recording)
    index: int
    device: str  # the sink's or source's name
    application: str
    process_id: int | None


class PulseStack:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.run_dir = root / "run"
        self.log_path = root / "pulseaudio.log"
        socket = self.run_dir / "pulse" / "native"
        self.env: dict[str, str] = {
            **os.environ,
            "HOME": str(root),
            "XDG_RUNTIME_DIR": str(self.run_dir),
            "XDG_CONFIG_HOME": str(root / ".config"),
            "PULSE_RUNTIME_PATH": str(self.run_dir / "pulse"),
            "PULSE_SERVER": f"unix:{socket}",
            "PULSE_CLIENTCONFIG": str(root / "client.conf"),
        }
        for inherited in ("PULSE_SINK", "PULSE_SOURCE", "ALSA_CONFIG_PATH", "DISPLAY"):
            self.env.pop(inherited, None)
        self._daemon: subprocess.Popen[bytes] | None = None
        self._feeders: list[subprocess.Popen[bytes]] = []
        self._recorders: list[Recorder] = []
        self._playbacks: list[Playback] = []
        self._echoes: list[Echo] = []

    # ---------------------------------------------------------------- daemon

    def start(self, *, keep_alive: bool = True) -> PulseStack:
        missing = missing_requirements()
        if missing:
            raise StackUnavailable("audio stack needs " + ", ".join(missing))
        self.run_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.chmod(self.run_dir, 0o700)  # PulseAudio refuses a runtime dir others can read
        (self.root / "default.pa").write_text(DEFAULT_PA)
        (self.root / ".asoundrc").write_text(ASOUNDRC)
        (self.root / "client.conf").write_text(CLIENT_CONF)
        argv = [
            "pulseaudio",
            "-n",
            "-F",
            str(self.root / "default.pa"),
            "--daemonize=no",
            "--exit-idle-time=-1",
            "--disable-shm=yes",
            "--log-target=stderr",
        ]
        with open(self.log_path, "wb") as log:
            self._daemon = subprocess.Popen(
                argv, env=self.env, stdout=log, stderr=subprocess.STDOUT, cwd=self.root
            )
        self._wait_ready()
        if keep_alive:
            for sink in (MIC_FEED, SPEAKER):
                self._feeders.append(feed_silence(self.env, device=sink, rate_hz=RATE_HZ))
        return self

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + READY_TIMEOUT_S
        while True:
            assert self._daemon is not None
            if self._daemon.poll() is not None:
                raise StackUnavailable(f"pulseaudio exited at start: {self.log_tail()}")
            probe = subprocess.run(
                ["pactl", "info"], env=self.env, capture_output=True, text=True, timeout=5
            )
            if probe.returncode == 0 and f"Default Sink: {SPEAKER}" in probe.stdout:
                return
            if time.monotonic() > deadline:
                self.stop()
                raise StackUnavailable(
                    f"pulseaudio not ready in {READY_TIMEOUT_S} s: {self.log_tail()}"
                )
            time.sleep(0.05)

    def stop(self) -> None:
        for playback in self._playbacks:
            playback.stop()
        for recorder in self._recorders:
            recorder.stop()
        for echo in self._echoes:
            with contextlib.suppress(AssertionError, subprocess.SubprocessError):
                echo.unload()
        for feeder in self._feeders:
            stop_process(feeder)
        if self._daemon is not None:
            stop_process(self._daemon, grace_s=5.0)
            self._daemon = None

    def log_tail(self, chars: int = 2000) -> str:
        if not self.log_path.exists():
            return ""
        return self.log_path.read_text(errors="replace")[-chars:]

    def pactl(self, *args: str) -> str:
        proc = subprocess.run(
            ["pactl", *args], env=self.env, capture_output=True, text=True, timeout=10
        )
        if proc.returncode != 0:
            raise AssertionError(f"pactl {' '.join(args)}: {proc.stderr.strip()}")
        return proc.stdout

    def pactl_json(self, *args: str) -> Any:
        return json.loads(self.pactl("-f", "json", *args))

    # --------------------------------------------------------- the building blocks

    def play_wav(self, path: Path, *, device: str = MIC_FEED) -> Playback:
        """Start playing a 16-bit WAV into the mic feed (what the app hears); `.wait()` it."""
        playback = play_wav(self.env, path, device=device)
        self._playbacks.append(playback)
        return playback

    def play_pcm(self, pcm: bytes, *, device: str = MIC_FEED, rate_hz: int = RATE_HZ) -> Playback:
        playback = play_pcm(self.env, pcm, device=device, rate_hz=rate_hz)
        self._playbacks.append(playback)
        return playback

    def record(self, device: str = SPEAKER_MONITOR, *, timeout_s: float = 10.0) -> Recorder:
        """A live recording of `device` (default: what the app plays), once samples flow."""
        recorder = Recorder(self.env, device, rate_hz=RATE_HZ)
        self._recorders.append(recorder)
        return recorder.wait_ready(timeout_s)

    def add_echo(self, *, gain_db: float, delay_ms: int) -> Echo:
        """The speaker leaks into the mic; unloaded at teardown if not before."""
        echo = load_echo(self.pactl, gain_db=gain_db, delay_ms=delay_ms)
        self._echoes.append(echo)
        return echo

    @contextlib.contextmanager
    def echo(self, *, gain_db: float, delay_ms: int) -> Iterator[Echo]:
        echo = self.add_echo(gain_db=gain_db, delay_ms=delay_ms)
        try:
            yield echo
        finally:
            echo.unload()

    # ----------------------------------------------------- the application's streams

    def client_streams(self) -> list[Stream]:
        """The streams applications opened (not the harness's, not modules')."""
        sinks = {s["index"]: s["name"] for s in self.pactl_json("list", "sinks")}
        sources = {s["index"]: s["name"] for s in self.pactl_json("list", "sources")}
        out = []
        for kind, devices, key in (
            ("sink-input", sinks, "sink"),
            ("source-output", sources, "source"),
        ):
            for item in self.pactl_json("list", kind + "s"):
                props: Mapping[str, str] = item.get("properties") or {}
                if item.get("driver") != "protocol-native.c" or HARNESS_PROPERTY in props:
                    continue
                pid = props.get("application.process.id")
                out.append(
                    Stream(
                        kind,
                        int(item["index"]),
                        devices.get(item[key], str(item[key])),
                        props.get("application.name", ""),
                        int(pid) if pid and pid.isdigit() else None,
                    )
                )
        return out

    def wait_for_client_streams(
        self, *, recording: int = 1, playing: int = 1, timeout_s: float = 20.0
    ) -> list[Stream]:
        """Until applications have at least this many source-outputs and sink-inputs open."""
        deadline = time.monotonic() + timeout_s
        while True:
            streams = self.client_streams()
            kinds = [s.kind for s in streams]
            if kinds.count("source-output") >= recording and kinds.count("sink-input") >= playing:
                return streams
            if time.monotonic() > deadline:
                raise AssertionError(f"client streams after {timeout_s} s: {streams}")
            time.sleep(0.1)
