"""A log that cannot be written never stops the daemon: a full disk under the
log file, or a closed pipe (`vac daemon 2>&1 | head`), made `print` raise in
a message handler and ended the daemon (a durability probe)."""

from __future__ import annotations

import errno
import io
import subprocess
import time
from pathlib import Path

import pytest

from tests.reliability.harness import VAC, free_port, text_only_home
from vac.client.connection import Connection, keys_for
from vac.logs import LossyStream
from vac.protocol.messages import ObjectiveDraft, TextInput, TurnDone


class _Failing(io.StringIO):
    def __init__(self, error: OSError) -> None:
        super().__init__()
        self.error, self.failing = error, True

    def write(self, text: str) -> int:
        if self.failing:
            raise self.error
        return super().write(text)

    def flush(self) -> None:
        if self.failing:
            raise self.error


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EPIPE, errno.EIO])
def test_a_failing_stream_drops_lines_and_counts_them(code: int) -> None:
    inner = _Failing(OSError(code, "no"))
    stream = LossyStream(inner)
    print("one", file=stream, flush=True)
    print("two", file=stream, flush=True)
    assert stream.dropped == 2 and inner.getvalue() == ""
    inner.failing = False
    print("three", file=stream, flush=True)
    lines = inner.getvalue().splitlines()
    assert lines == ['{"event": "log_lines_dropped", "count": 2}', "three"]
    assert stream.dropped == 0


@pytest.mark.parametrize(("buffering", "write_through"), [(1, False), (8192, False), (8192, True)])
def test_a_full_disk_counts_each_line_once_however_the_stream_buffers(
    buffering: int, write_through: bool
) -> None:
    """A review: stderr is line-buffered, so a loss shows at the newline (or
    the flush), never at the words; the first count was 0 on a full disk."""
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    raw = open("/dev/full", "wb", buffering=0)  # noqa: SIM115 - wrapped below
    text = io.TextIOWrapper(
        io.BufferedWriter(raw, buffer_size=buffering),
        line_buffering=buffering == 1,
        write_through=write_through,
    )
    stream = LossyStream(text)
    for n in range(5):
        print(f"line {n}", file=stream, flush=True)
    assert stream.dropped == 5


@pytest.mark.slow
def test_the_daemon_answers_after_its_log_pipe_closes(tmp_path: Path) -> None:
    home = text_only_home(tmp_path / "home")
    endpoint = f"tcp://127.0.0.1:{free_port()}"
    proc = subprocess.Popen(
        [*VAC, "daemon", "--home", str(home.root), "--endpoint", endpoint],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
    )
    try:
        assert proc.stderr is not None
        deadline = time.monotonic() + 120
        seen = b""
        while b'"ready"' not in seen and time.monotonic() < deadline:
            seen += proc.stderr.readline()
        assert b'"ready"' in seen, seen[-2000:]
        proc.stderr.close()  # as `| head` does: every later log line fails (EPIPE)
        c = Connection(endpoint, keys_for(home, "alice"))
        c.hello()
        for n in range(12):  # each turn logs; the probe's daemon died after ~7
            c.send(TextInput(id=f"t{n}", text="ask Kofi to fix the gate"))
            c.expect(ObjectiveDraft, 10)
            c.expect(TurnDone, 10)
        assert proc.poll() is None
        c.close()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
