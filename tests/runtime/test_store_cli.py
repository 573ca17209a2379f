"""A damaged vac.db as a person meets it: one line naming the file, exit 2, no traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow


def test_export_from_a_corrupt_log_is_one_line(tmp_path: Path) -> None:
    db = tmp_path / "vac.db"
    db.write_bytes(b"not a database\n" * 100)
    done = subprocess.run(
        [sys.executable, "-m", "vac.cli", "data", "export", "alice", "--home", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"vac: {db} is not a vac event log")
    assert db.read_bytes() == b"not a database\n" * 100  # left as found
