"""A vac.db another program holds locked: the command says so and what to do
(a durability probe: "the database stayed locked" named no one, and a key
change's advice was to free space)."""

from __future__ import annotations

import sqlite3
import subprocess
from pathlib import Path

import pytest

from tests.reliability.harness import VAC, text_only_home
from vac.runtime.store import EventLog

pytestmark = pytest.mark.slow


def test_a_locked_vac_db_is_named_with_what_to_do(tmp_path: Path) -> None:
    home = text_only_home(tmp_path / "home")
    EventLog(home.db_file).close()  # the store exists
    holder = sqlite3.connect(home.db_file, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        got = subprocess.run(
            [*VAC, "keys", "enroll", "bob", "--home", str(home.root)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert got.returncode != 0
    line = got.stderr.strip().splitlines()[-1]
    assert "another program holds vac.db" in line and "free space" not in line, line
    assert line.count("another program") == 1
