"""vac.toml: defaults when absent, errors that name the key, empty refused by name."""

from __future__ import annotations

import pytest

from vac.daemon.config import ConfigError, decode_config, intent_config
from vac.daemon.engines import ProviderMissing, Providers, build_stt


def test_absent_file_means_defaults() -> None:
    cfg = decode_config(b"")
    assert cfg.daemon.endpoint == "tcp://127.0.0.1:7707"
    assert intent_config(cfg).roster().names()[:2] == ["Abeni", "Kofi"]


@pytest.mark.parametrize(
    ("toml", "named"),
    [
        (b'[daemon]\nheartbeat_ms = "soon"\n', "heartbeat_ms"),
        (b"[daemon]\noutput_lead_ms = 5000\n", "output_lead_ms"),
        (b"[daemon]\nbogus = 1\n", "bogus"),
        (b'[stt]\nmodel_dir = ""\n', "stt.model_dir"),
        (b'[[agents]]\nname = "Abeni"\nenergy = "tired"\nvalues = {}\n', "agents[0].energy"),
        (b"[stt]\nworkers = [1]\n", "stt.workers"),
        # were a traceback at start-up (and passed preflight): bounded now
        (b"[stt]\nworkers = 0\n", "stt.workers"),
        (b"[stt]\nmax_pending = 0\n", "stt.max_pending"),
        (b"[stt]\ncpu_threads = -3\n", "stt.cpu_threads"),
        (b'[stt]\ncompute_type = "bogus"\n', "stt.compute_type"),
        (b"[stt]\npartial_interval_ms = 0\n", "stt.partial_interval_ms"),
        (b"not toml at all [", "not valid TOML"),
    ],
)
def test_errors_name_the_key(toml: bytes, named: str) -> None:
    with pytest.raises(ConfigError) as exc:
        cfg = decode_config(toml)
        intent_config(cfg)
        Providers.from_config(cfg)
    assert named in str(exc.value)


def test_remote_egress_is_refused_by_name() -> None:
    cfg = decode_config(b'[stt]\negress = "named-remote-service"\n')
    with pytest.raises(ProviderMissing, match="stt: egress 'named-remote-service'"):
        build_stt(Providers.from_config(cfg).stt, ["Abeni"])


def test_missing_model_is_a_named_refusal() -> None:
    cfg = decode_config(b'[stt]\nmodel_dir = "/nonexistent/whisper"\n')
    with pytest.raises(ProviderMissing, match="/nonexistent/whisper"):
        build_stt(Providers.from_config(cfg).stt, ["Abeni"])


def test_a_vac_toml_that_cannot_be_read_is_named_not_taken_for_none(tmp_path: object) -> None:
    """An operator probe: a directory named vac.toml was a traceback, and a
    link to nothing ran the daemon on the defaults (its endpoint too)."""
    from pathlib import Path

    from vac.daemon.config import VacConfig, load_config

    root = Path(str(tmp_path))
    assert load_config(root / "absent.toml") == VacConfig()
    (root / "dir.toml").mkdir()
    (root / "dangling.toml").symlink_to(root / "nowhere.toml")
    for name, why in (("dir.toml", "Is a directory"), ("dangling.toml", "a link to nothing")):
        with pytest.raises(ConfigError) as refused:
            load_config(root / name)
        assert why in str(refused.value) and "remove it" in str(refused.value)
