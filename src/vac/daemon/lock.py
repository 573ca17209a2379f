"""One daemon per home: the flock on HOME/daemon.lock, taken by the daemon, probed by preflight."""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from typing import IO

from vac.home import Home, HomeError


class HomeLocked(HomeError):
    """Another daemon holds the home's lock."""


@contextlib.contextmanager
def home_lock(home: Home) -> Iterator[None]:
    """One daemon per home: an exclusive, non-blocking flock on HOME/daemon.lock."""
    try:
        home.root.mkdir(parents=True, exist_ok=True)
        fh: IO[str] = open(home.lock_file, "a+")  # noqa: SIM115 - held for the daemon's life
    except OSError as exc:
        # A start-up refusal (exit 2), not a traceback and exit 1 that the
        # service unit would restart every 2 s (an operator probe).
        raise HomeError(
            f"cannot write {home.lock_file}: {exc.strerror or exc} — the home must be a"
            " directory this user can write (vac preflight checks it)"
        ) from None
    try:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise HomeLocked(f"another vac daemon already holds {home.root}") from None
        fh.seek(0)
        fh.truncate()
        fh.write(f"{os.getpid()}\n")
        fh.flush()
        yield
    finally:
        fh.close()


def daemon_running(home: Home) -> bool:
    """Whether a daemon holds this home's lock (without taking it)."""
    if not home.lock_file.exists():
        return False
    with open(home.lock_file) as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(fh, fcntl.LOCK_UN)
    return False
