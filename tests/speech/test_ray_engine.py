"""The Ray engine's pure parts: retry once, deployment sizing, config, the fast refusal.

The real twin (a local cluster, two daemons, a killed replica, the cluster
stopped and back) is tests/ray/test_ray_inference.py.
"""

from __future__ import annotations

import socket
import time

import pytest

from vac.daemon.config import ConfigError, decode_config
from vac.daemon.engines import Providers, ray_spec
from vac.speech.ray_engine import RaySpec, RayUnavailable, ReplicaSpec, connect, once_more


class ReplicaDied(Exception):
    pass


def test_once_more_retries_a_replica_death_exactly_once() -> None:
    calls: list[int] = []

    def flaky() -> str:
        calls.append(1)
        if len(calls) == 1:
            raise ReplicaDied
        return "ok"

    assert once_more(flaky, (ReplicaDied,)) == "ok" and len(calls) == 2

    def dead() -> str:
        calls.append(1)
        raise ReplicaDied

    calls.clear()
    with pytest.raises(ReplicaDied):
        once_more(dead, (ReplicaDied,))
    assert len(calls) == 2  # twice, never a third time


def test_once_more_does_not_retry_other_failures() -> None:
    calls: list[int] = []

    def broken() -> str:
        calls.append(1)
        raise ValueError("bad input")

    with pytest.raises(ValueError):
        once_more(broken, (ReplicaDied,))
    assert len(calls) == 1


def test_replica_spec_is_fixed_or_autoscaled() -> None:
    fixed = ReplicaSpec(replicas=2, num_cpus=0.5).options()
    assert fixed["num_replicas"] == 2 and "autoscaling_config" not in fixed
    assert fixed["ray_actor_options"] == {"num_cpus": 0.5, "num_gpus": 0.0}
    assert fixed["max_ongoing_requests"] == 1
    scaled = ReplicaSpec(replicas=1, max_replicas=4, num_gpus=1.0).options()
    assert "num_replicas" not in scaled
    assert scaled["autoscaling_config"]["min_replicas"] == 1
    assert scaled["autoscaling_config"]["max_replicas"] == 4


def _providers(toml: str) -> Providers:
    return Providers.from_config(decode_config(toml.encode(), source="vac.toml"))


def test_inference_defaults_to_local() -> None:
    assert _providers("").inference.engine == "local"


def test_inference_section_is_validated_by_name() -> None:
    with pytest.raises(ConfigError, match=r"\[inference\]"):
        _providers('[inference]\nengine = "spark"\n')
    with pytest.raises(ConfigError, match="stt_max_replicas"):
        _providers('[inference]\nengine = "ray"\nstt_replicas = 3\nstt_max_replicas = 2\n')
    with pytest.raises(ConfigError, match="nodes"):
        _providers("[inference]\nnodes = 3\n")


def test_ray_spec_carries_the_config_to_the_drivers() -> None:
    p = _providers(
        '[stt]\nbeam_size = 2\n[inference]\nengine = "ray"\naddress = "10.0.0.5:6379"\n'
        "stt_replicas = 2\nstt_num_cpus = 0.5\ntts_max_replicas = 3\n"
    )
    spec = ray_spec(p.inference, p.stt, p.tts)
    assert isinstance(spec, RaySpec)
    assert spec.address == "10.0.0.5:6379" and spec.stt_config.beam_size == 2
    assert spec.stt == ReplicaSpec(replicas=2, num_cpus=0.5)
    assert spec.tts.max_replicas == 3
    assert spec.replies and spec.verbs  # the parser's phrases travel with the spec


def test_no_cluster_at_the_address_is_refused_at_once() -> None:
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    started = time.monotonic()
    with pytest.raises(RayUnavailable, match=f"no Ray cluster at '127.0.0.1:{port}'"):
        connect(RaySpec(address=f"127.0.0.1:{port}"))
    assert time.monotonic() - started < 3.0
