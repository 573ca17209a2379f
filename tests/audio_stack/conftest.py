"""Fixtures for tests on the real audio stack (see pulse.py for what the stack is).

- `audio_stack`: a started `PulseStack` for one test (skips, with the reason,
  when the machine lacks PulseAudio, tmux or the ALSA pulse plugin).
- `tmux_server`: a private tmux server whose programs use `audio_stack`.
- `voice_daemon`: a daemon with the real recogniser and voice, on a random
  loopback port, for the module (models load once).
- `checking_stt`: the project's own recogniser, to hear back what was played.

Set VAC_AUDIO_KEEP=1 to keep each test's directory (pulseaudio.log, tmux
stderr, recordings a test saved) instead of deleting it.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.audio_stack.pulse import PulseStack, StackUnavailable, missing_requirements
from tests.audio_stack.tmux import TmuxServer
from tests.conftest import RunningDaemon, start_daemon
from tests.speech.fakes import NAMES
from tests.voice.test_voice_input import voice_home
from vac.daemon.config import VacConfig
from vac.speech.stt import SttConfig, WhisperStt


@pytest.fixture
def audio_root() -> Iterator[Path]:
    # Not tmp_path: unix socket paths are limited to 107 bytes, and pytest's
    # directories carry the test's name.
    root = Path(tempfile.mkdtemp(prefix="vac-audio-"))
    yield root
    if os.environ.get("VAC_AUDIO_KEEP") != "1":
        shutil.rmtree(root, ignore_errors=True)
    else:
        print(f"audio stack kept in {root}")


@pytest.fixture
def audio_stack(audio_root: Path) -> Iterator[PulseStack]:
    stack = PulseStack(audio_root)
    try:
        stack.start()
    except StackUnavailable as exc:
        pytest.skip(str(exc))
    try:
        yield stack
    finally:
        stack.stop()


@pytest.fixture
def tmux_server(audio_stack: PulseStack) -> Iterator[TmuxServer]:
    server = TmuxServer(audio_stack.root, audio_stack.env)
    try:
        yield server
    finally:
        server.kill()


@pytest.fixture(scope="module")
def voice_daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningDaemon]:
    """Both engines on (the defaults): speech in, spoken replies out."""
    missing = missing_requirements()
    if missing:  # the test would skip anyway: do not load the models first
        pytest.skip("audio stack needs " + ", ".join(missing))
    home = voice_home(tmp_path_factory.mktemp("talk") / "home")
    daemon = start_daemon(home, config=VacConfig())
    try:
        yield daemon
    finally:
        daemon.shutdown()


@pytest.fixture(scope="module")
def checking_stt() -> WhisperStt:
    return WhisperStt(SttConfig(), vocabulary=NAMES)
