"""The output of a Ray driver child, as the daemon's log expects it.

Ray writes plain text to fds 1 and 2 (its C++ core too); the daemon's stderr
is one JSON object per line. `reroute()` sends this process's fds 1 and 2
through a pipe: vac's own JSON lines pass as they are, every other line
becomes a `ray_output` event. `drain()` lets the last lines out before the
process ends with `os._exit` (which would otherwise kill the pump first).
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from typing import Final

_MAX_LINE: Final = 2000
_NOISY: Final = re.compile(r"\b(WARNING|ERROR|FATAL|[WEF]) \d|\b(WARNING|ERROR)\b")
_pump: threading.Thread | None = None


def _event(text: str) -> bytes:
    if text.startswith("{"):
        try:
            parsed = json.loads(text)
        except ValueError:
            parsed = None
        if isinstance(parsed, dict) and "event" in parsed:
            return text.encode() + b"\n"  # vac's own (structlog): as it is
    level = "warning" if _NOISY.search(text) else "info"
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    line = {"event": "ray_output", "level": level, "pid": os.getpid()}
    line |= {"text": text[:_MAX_LINE], "timestamp": stamp}
    return json.dumps(line).encode() + b"\n"


def reroute() -> None:
    """Send fds 1 and 2 through the pump (once per process)."""
    global _pump
    if _pump is not None:
        return
    read_fd, write_fd = os.pipe()
    stderr_fd = os.dup(2)
    os.dup2(write_fd, 1)
    os.dup2(write_fd, 2)
    os.close(write_fd)

    def pump() -> None:
        with os.fdopen(read_fd, "rb") as lines, os.fdopen(stderr_fd, "wb", buffering=0) as out:
            for raw in lines:
                text = raw.decode("utf-8", "replace").strip()
                if text:
                    out.write(_event(text))

    _pump = threading.Thread(target=pump, name="vac-ray-output", daemon=True)
    _pump.start()


def drain(timeout_s: float = 1.0) -> None:
    """Close fds 1 and 2 (the pump then reads to the end) and wait for it."""
    if _pump is None:
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    os.close(devnull)
    _pump.join(timeout_s)
