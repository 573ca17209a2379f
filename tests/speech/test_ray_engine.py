"""The Ray engine's pure parts: retry once, deployment sizing, config, the fast refusal.

The real twin (a local cluster, two daemons, a killed replica, the cluster
stopped and back) is tests/ray/test_ray_inference.py.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st
from structlog.testing import capture_logs

from vac.daemon.config import ConfigError, decode_config
from vac.daemon.engines import Providers, ray_spec
from vac.speech import ray_engine
from vac.speech.ray_engine import RaySpec, RayUnavailable, ReplicaSpec, once_more
from vac.speech.workers import backoff_s


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
    # `_reachable` alone: `connect` would make this process a Ray driver's
    # (it reroutes fds 1 and 2 and sets RAY_* variables).
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    started = time.monotonic()
    with pytest.raises(RayUnavailable, match=f"no Ray cluster at '127.0.0.1:{port}'"):
        ray_engine._reachable(f"127.0.0.1:{port}")
    assert time.monotonic() - started < 3.0


@given(st.integers(min_value=0, max_value=10_000), st.floats(min_value=0.01, max_value=5.0))
def test_restart_back_off_doubles_to_a_jittered_30_to_60_s(attempt: int, first_s: float) -> None:
    base_s = min(30.0, first_s * 2.0 ** min(attempt, 16))
    assert base_s <= backoff_s(attempt, first_s) <= 2 * base_s
    if attempt >= 16:
        assert 30.0 <= backoff_s(attempt, first_s) <= 60.0


def test_a_remote_error_is_reported_by_its_first_line_only() -> None:
    text = "RuntimeError: boom\nTraceback (most recent call last):\n  at 10.0.0.9"
    assert ray_engine._first_line(text) == "RuntimeError: boom"
    assert len(ray_engine._first_line("x" * 5000)) == 300


class FakeServe:
    """The application's status over time, what was submitted, and a clock
    that moves only when the deployer sleeps."""

    def __init__(self, statuses: list[str | None]) -> None:
        self.statuses = statuses
        self.submitted = 0
        self.now_s = 1000.0

    def state(self, app: str) -> tuple[str | None, str]:
        status = self.statuses.pop(0) if len(self.statuses) > 1 else self.statuses[0]
        return status, "1 replica needs {'GPU': 1.0}" if status == "DEPLOYING" else ""

    def submit(self, spec: RaySpec, kind: str, app: str) -> None:
        self.submitted += 1
        self.statuses.insert(0, "DEPLOYING")

    def sleep(self, seconds: float) -> None:
        self.now_s += seconds


@pytest.fixture
def serve(monkeypatch: pytest.MonkeyPatch) -> Callable[[list[str | None]], FakeServe]:
    def make(statuses: list[str | None]) -> FakeServe:
        fake = FakeServe(statuses)
        monkeypatch.setattr(ray_engine, "_app_state", fake.state)
        monkeypatch.setattr(ray_engine, "_submit", fake.submit)
        monkeypatch.setattr(ray_engine, "_clock", lambda: fake.now_s)
        monkeypatch.setattr(ray_engine, "_sleep", fake.sleep)
        return fake

    return make


def test_an_absent_app_is_submitted_once_and_waited_for(serve: Callable[..., FakeServe]) -> None:
    fake = serve([None, "DEPLOYING", "DEPLOYING", "RUNNING"])
    ray_engine.deploy_app(RaySpec(), "stt", until_s=fake.now_s + 45)
    assert fake.submitted == 1


@pytest.mark.parametrize("settling", ["DEPLOYING", "NOT_STARTED", "DELETING"])
def test_an_app_being_deployed_is_never_submitted_again(
    serve: Callable[..., FakeServe], settling: str
) -> None:
    fake = serve([settling, settling, "RUNNING"])
    ray_engine.deploy_app(RaySpec(), "tts", until_s=fake.now_s + 45)
    assert fake.submitted == 0


def test_an_unhealthy_app_is_used_as_it_is(serve: Callable[..., FakeServe]) -> None:
    # A replica failed and Serve replaces it: resubmitting would roll every replica.
    fake = serve(["UNHEALTHY"])
    ray_engine.deploy_app(RaySpec(), "stt", until_s=fake.now_s + 45)
    assert fake.submitted == 0


def test_an_app_that_cannot_be_placed_is_named_by_the_drivers_deadline(
    serve: Callable[..., FakeServe],
) -> None:
    fake = serve([None, "DEPLOYING"])  # a GPU asked of a CPU cluster: DEPLOYING for ever
    until_s = fake.now_s + 45
    with pytest.raises(RayUnavailable, match=r"'vac-stt' is still DEPLOYING: .*GPU"):
        ray_engine.deploy_app(RaySpec(), "stt", until_s=until_s)
    assert fake.now_s == until_s  # waited exactly to the deadline, not past it
    assert fake.submitted == 1


def test_a_call_that_waited_past_the_drivers_deadline_does_not_deploy(
    serve: Callable[..., FakeServe],
) -> None:
    fake = serve([None])
    with pytest.raises(RayUnavailable, match="the deployer was busy"):
        ray_engine.deploy_app(RaySpec(), "stt", until_s=fake.now_s - 1)
    assert fake.submitted == 0


def test_a_failed_deployment_is_named_and_a_failed_app_is_redeployed(
    serve: Callable[..., FakeServe],
) -> None:
    fake = serve(["DEPLOY_FAILED", "DEPLOYING", "DEPLOY_FAILED"])
    with pytest.raises(RayUnavailable, match=r"deploying 'vac-stt' failed \(DEPLOY_FAILED\)"):
        ray_engine.deploy_app(RaySpec(), "stt", until_s=fake.now_s + 45)
    assert fake.submitted == 1  # once: the second failure is reported, not retried


def test_without_deploy_an_absent_app_is_named(serve: Callable[..., FakeServe]) -> None:
    fake = serve([None])
    with pytest.raises(RayUnavailable, match="'vac-tts' is not running"):
        ray_engine.deploy_app(RaySpec(deploy=False), "tts", until_s=fake.now_s + 45)
    assert fake.submitted == 0


def test_the_reason_a_deploying_app_waits_comes_from_its_deployment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from ray.serve import schema

    waiting = schema.DeploymentStatusOverview(
        status=schema.DeploymentStatus.UPDATING,
        status_trigger=schema.DeploymentStatusTrigger.CONFIG_UPDATE_STARTED,
        replica_states={},
        message="Deployment 'SttReplica' has 1 replicas that have taken more than 30s"
        " to be scheduled ... {'CPU': 1.0, 'GPU': 1.0}\nmore lines",
    )
    app = schema.ApplicationStatusOverview(
        status=schema.ApplicationStatus.DEPLOYING,
        message="",
        last_deployed_time_s=0.0,
        deployments={"SttReplica": waiting},
    )
    status = schema.ServeStatus(applications={"vac-stt": app})
    monkeypatch.setattr("ray.serve.status", lambda: status)
    got, why = ray_engine._app_state("vac-stt")
    assert got == "DEPLOYING" and "'GPU': 1.0" in why and "more lines" not in why
    assert ray_engine._app_state("vac-tts") == (None, "")


class Response:
    def __init__(self, outcome: BaseException | bytes) -> None:
        self.outcome = outcome
        self.cancelled = False

    def result(self, timeout_s: float) -> bytes:
        if isinstance(self.outcome, BaseException):
            raise self.outcome
        return self.outcome

    def cancel(self) -> None:
        self.cancelled = True


class Lost(Exception):
    pass


class Failed(Exception):
    pass


def _remote(
    monkeypatch: pytest.MonkeyPatch, outcomes: list[BaseException | bytes]
) -> Callable[[], object]:
    monkeypatch.setattr(ray_engine, "_handle", lambda app, deployment: None)
    remote = ray_engine._Remote(RaySpec(), "stt", Lost, Failed)
    return lambda: remote.call(lambda: Response(outcomes.pop(0)))


def test_a_replica_that_died_is_retried_once_and_logged(monkeypatch: pytest.MonkeyPatch) -> None:
    from ray import exceptions as rx

    call = _remote(monkeypatch, [rx.ActorUnavailableError("gone", b"\0" * 16), b"heard"])
    with capture_logs() as logged:
        assert call() == b"heard"
    assert [e["event"] for e in logged] == ["ray_replica_retry"]
    assert logged[0]["app"] == "vac-stt" and logged[0]["error"] == "ActorUnavailableError"
    died: list[BaseException | bytes] = [
        rx.ActorUnavailableError("gone", b"\0" * 16),
        rx.ActorUnavailableError("again", b"\0" * 16),
    ]
    with pytest.raises(Failed, match="recognition replica died twice"):
        _remote(monkeypatch, died)()


def test_an_app_that_is_gone_ends_the_driver(monkeypatch: pytest.MonkeyPatch) -> None:
    from ray.serve.exceptions import DeploymentUnavailableError

    with pytest.raises(Lost, match="DeploymentUnavailableError"):
        _remote(monkeypatch, [DeploymentUnavailableError(None)])()  # type: ignore[arg-type]
    # A timeout: the app deleted behind our back is lost; a slow one only fails the job.
    monkeypatch.setattr(ray_engine, "_still_running", lambda app: False)
    with pytest.raises(Lost, match="'vac-stt' is gone"):
        _remote(monkeypatch, [TimeoutError()])()
    monkeypatch.setattr(ray_engine, "_still_running", lambda app: True)
    with pytest.raises(Failed, match="no recognition within 20 s"):
        _remote(monkeypatch, [TimeoutError()])()
