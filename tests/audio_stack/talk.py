"""Launching `vac talk` in tmux on the audio stack, against a test daemon.

The client is the installed console script next to the running Python (the
venv's `vac`), so what runs is exactly what a user runs. Its home, endpoint
and key are given both as flags and as VAC_HOME / VAC_CONNECT, so a future
client that reads either finds the same daemon.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

from tests.audio_stack.tmux import TmuxServer, TmuxSession
from vac.home import Home


def vac_executable() -> Path:
    beside = Path(sys.executable).with_name("vac")
    if beside.exists():
        return beside
    found = shutil.which("vac")
    if found is None:
        raise AssertionError("no vac console script (make .venv/.installed)")
    return Path(found)


def portaudio_problem() -> str | None:
    """Why `vac talk` could not open devices on this machine, or None."""
    try:
        import sounddevice  # noqa: F401
    except ModuleNotFoundError:
        return "sounddevice is not installed (the client extra: make .venv/.installed)"
    except OSError:
        return "the PortAudio library is missing (libportaudio2)"
    return None


def vac_env(home: Home, endpoint: str) -> dict[str, str]:
    return {
        "VAC_HOME": str(home.root),
        "VAC_CONNECT": endpoint,
        "PYTHONUNBUFFERED": "1",  # lines reach the screen as they are printed
        "PYTHONFAULTHANDLER": "1",  # a hang killed at teardown leaves a trace in stderr
    }


def talk_argv(
    home: Home, endpoint: str, *, principal: str = "alice", extra: Sequence[str] = ()
) -> list[str]:
    key = home.clients_dir / f"{principal}.key_secret"
    return [
        str(vac_executable()),
        "talk",
        "--home",
        str(home.root),
        "--connect",
        endpoint,
        "--key",
        str(key),
        *extra,
    ]


def start_talk(
    tmux: TmuxServer,
    home: Home,
    endpoint: str,
    *,
    principal: str = "alice",
    extra: Sequence[str] = (),
    name: str = "talk",
) -> TmuxSession:
    """`vac talk` in a detached 80x24 session; its stderr goes to ROOT/NAME.stderr."""
    return tmux.start(
        name,
        talk_argv(home, endpoint, principal=principal, extra=extra),
        env=vac_env(home, endpoint),
        stderr_path=tmux.root / f"{name}.stderr",
    )
