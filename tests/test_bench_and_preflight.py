"""`vac bench` and `vac preflight` run for real (small: one fast turn)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from vac.bench import BenchOptions, percentile, run_bench
from vac.daemon import keys
from vac.home import Home

pytestmark = pytest.mark.slow


def test_percentile_is_inclusive() -> None:
    assert percentile([5.0], 95) == 5.0
    assert percentile([1.0, 2.0, 3.0, 4.0, 5.0], 50) == 3.0


def test_bench_one_fast_turn(tmp_path: Path) -> None:
    assert run_bench(BenchOptions(sessions=1, turns=1, out=tmp_path, fast=True)) == 0
    result = json.loads((tmp_path / "bench-s1-t1-fast.json").read_text())
    stages = {row["stage"] for row in result["stages"]}
    assert {"voice asr", "voice ack", "client commit→final", "ping rtt"} <= stages


def test_preflight_reports_each_provider_by_name(tmp_path: Path) -> None:
    home = Home(tmp_path / "h")
    vac = [sys.executable, "-m", "vac.cli", "preflight", "--home", str(home.root)]
    missing = subprocess.run(vac, capture_output=True, text=True, timeout=120)
    assert missing.returncode == 2
    assert "fail  keys" in missing.stdout and "vac keys init" in missing.stdout
    keys.init_server(home)
    home.config_file.write_text('[stt]\nmodel_dir = "/nonexistent/model"\n')
    bad_model = subprocess.run(vac, capture_output=True, text=True, timeout=120)
    assert bad_model.returncode == 2
    stt_line = next(line for line in bad_model.stdout.splitlines() if "  stt " in f"  {line}")
    assert stt_line.startswith("fail") and "/nonexistent/model" in stt_line
    home.config_file.write_text('[stt]\nmodel_dir = ""\n')
    empty = subprocess.run(vac, capture_output=True, text=True, timeout=120)
    assert "present but empty" in empty.stdout
    home.config_file.unlink()
    ok = subprocess.run(vac, capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0, ok.stdout
    for name in ("stt", "tts", "vad", "endpoint"):
        assert any(line.startswith("ok") and f" {name} " in line for line in ok.stdout.splitlines())


def test_preflight_checks_the_store_and_the_roster_as_the_daemon_would(tmp_path: Path) -> None:
    """vac.db and [[agents]] were found only by the daemon's start; the
    secret half of the server key was named as the public one."""
    from vac.daemon.preflight import preflight

    home = Home(tmp_path / "h")
    keys.init_server(home)
    home.config_file.write_text("[stt]\nenabled = false\n[tts]\nenabled = false\n")
    by_name = {c.name: c for c in preflight(home)}
    assert by_name["store"].status == "ok" and "none yet" in by_name["store"].detail
    assert not home.db_file.exists()  # preflight creates nothing
    assert by_name["roster"].status == "ok" and "Abeni" in by_name["roster"].detail
    home.db_file.write_bytes(b"not a database, not at all" * 100)
    home.config_file.write_text(
        home.config_file.read_text() + '[[agents]]\nname = "Kofi"\n[[agents]]\nname = "Kofi"\n'
    )
    home.server_secret.unlink()
    by_name = {c.name: c for c in preflight(home)}
    assert by_name["store"].status == "fail" and "is not a vac event log" in by_name["store"].detail
    assert by_name["roster"].status == "fail" and "vac.toml" in by_name["roster"].detail
    assert by_name["keys"].status == "fail" and "server.key_secret" in by_name["keys"].detail


@pytest.mark.slow
def test_preflight_loads_the_model_with_the_daemons_own_settings(tmp_path: Path) -> None:
    """An operator probe: `[stt] compute_type = "float16"` passed preflight
    ("loads") and the daemon refused it at start."""
    from vac.daemon.preflight import preflight

    home = Home(tmp_path / "h")
    keys.init_server(home)
    home.config_file.write_text('[stt]\ncompute_type = "float16"\n[tts]\nenabled = false\n')
    stt = {c.name: c for c in preflight(home)}["stt"]
    assert stt.status == "fail" and "float16" in stt.detail
    home.config_file.write_text("[tts]\nenabled = false\n")
    stt = {c.name: c for c in preflight(home)}["stt"]
    assert stt.status == "ok" and "cpu, int8, loads" in stt.detail


def test_preflight_names_an_enrolment_file_that_enrols_no_one(tmp_path: Path) -> None:
    """An operator probe: a corrupt keys/enrolled/al.key was skipped without
    a word (one principal fewer); al was just refused `auth_failed`."""
    from vac.daemon.preflight import preflight

    home = Home(tmp_path / "h")
    keys.init_server(home)
    keys.enroll(home, "al")
    keys.enroll(home, "bo")
    home.config_file.write_text("[stt]\nenabled = false\n[tts]\nenabled = false\n")
    (home.enrolled_dir / "al.key").write_text("junk\n")
    found = [c for c in preflight(home) if c.name == "keys"]
    assert [c.status for c in found] == ["ok", "warn"]
    assert "al.key" in found[1].detail and "bo.key" not in found[1].detail
