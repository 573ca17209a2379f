"""Crash consistency: SIGKILL at random moments, 0 acknowledged decisions lost.

Short form in `make test`; the long form (hundreds of kills) runs with
`VAC_CRASH_KILLS=300 .venv/bin/pytest tests/reliability -k crash` and writes
its figures to `VAC_CRASH_REPORT` (JSON) when set. docs/reliability.md has
the figures of a long run.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.reliability.full_disk import FullDisk, mount_small_fs
from tests.reliability.harness import (
    check,
    figures_of,
    long_form_kills,
    run_with_kills,
    spoken_commands,
)
from tests.reliability.harness import text_only_home as make_home

pytestmark = pytest.mark.slow
SHORT_KILLS = 12


def _report(name: str, figures: dict[str, object]) -> None:
    print(name, json.dumps(figures))
    target = os.environ.get("VAC_CRASH_REPORT")
    if target:
        with open(target, "a") as fh:
            fh.write(json.dumps({"run": name, **figures}) + "\n")


def test_random_kills_lose_no_acknowledged_decision(tmp_path: Path) -> None:
    kills = long_form_kills() or SHORT_KILLS
    home = make_home(tmp_path / "home")
    driver, _ = run_with_kills(home, tmp_path / "daemon.log", kills=kills, seed=8)
    verdict = check(home.db_file, driver.acks)
    figures = figures_of(driver, verdict)
    _report("kills", figures)
    assert verdict.ok, (verdict.lost[:10], verdict.applied_twice[:10])
    # The harness must have exercised what it claims to check.
    assert driver.acks.drafts and driver.acks.confirmed and driver.acks.rejected
    assert driver.figures.kills == kills


def test_random_kills_with_spoken_commits_lose_nothing(tmp_path: Path) -> None:
    """The same with the real models: spoken commands and a spoken "yes"."""
    kills = max(6, long_form_kills() // 3) if long_form_kills() else 6
    home = make_home(tmp_path / "home", voice=True)
    driver, _ = run_with_kills(
        home, tmp_path / "daemon.log", kills=kills, seed=88, max_gap_s=1.5, voices=spoken_commands()
    )
    verdict = check(home.db_file, driver.acks)
    figures = figures_of(driver, verdict)
    _report("kills-voice", figures)
    assert verdict.ok, (verdict.lost[:10], verdict.applied_twice[:10])
    assert driver.acks.drafts


def test_random_kills_on_a_full_disk_lose_nothing(tmp_path: Path) -> None:
    mount = mount_small_fs(tmp_path / "small", size_kib=2048)
    if mount is None:
        pytest.skip("cannot mount a small tmpfs here (needs root and mount)")
    try:
        home = make_home(mount / "home")
        kills = max(4, long_form_kills() // 10) if long_form_kills() else 4
        driver, _ = run_with_kills(
            home,
            tmp_path / "daemon.log",
            kills=kills,
            seed=80,
            max_gap_s=0.3,
            disk=FullDisk(mount),
        )
        verdict = check(home.db_file, driver.acks)
        figures = figures_of(driver, verdict)
        _report("kills-full-disk", figures)
        assert verdict.ok, (verdict.lost[:10], verdict.applied_twice[:10])
        assert driver.acks.storage_errors > 0, "the disk never filled: the test proved nothing"
    finally:
        mount.unmount()
