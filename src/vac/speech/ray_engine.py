"""Recognition and synthesis on a Ray cluster, called from a vac *driver process*.

The daemon itself never imports Ray. Ray's core worker ends its process when
the cluster's GCS stays unreachable (measured here: 60 s after `ray stop`,
"Failed to connect to GCS ... The program will terminate"), and a daemon
must outlive its cluster with every session intact. So each Ray connection
lives in a child process — a recognition worker of `SttPool` or a synthesis
bridge of `ProcessTts` — built from a picklable factory in this module. A
child that loses the cluster exits; its pool fails only the job in flight
(`provider_unavailable`) and starts a new child with back-off, which
connects again (and redeploys, when `deploy`) once the cluster is back.

Retry: a replica that dies mid-job fails only that call; it is sent once
more (Serve routes it to a live replica, or waits for the replacement) and
a second failure is the job's `provider_unavailable`.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, TypeVar

import msgspec
import numpy as np
import numpy.typing as npt

from vac.logs import configure, get_logger
from vac.speech import child_output
from vac.speech.stt import SttConfig, SttError, Transcript
from vac.speech.tts import SynthesizedPhrase, TtsEngineLost, TtsError
from vac.speech.workers import SttEngineLost

T = TypeVar("T")
log = get_logger(__name__)
# Wall clock (a deadline that crosses processes) and its sleep; tests replace both.
_clock: Callable[[], float] = time.time
_sleep: Callable[[float], None] = time.sleep

STT_DEPLOYMENT: Final = "SttReplica"
TTS_DEPLOYMENT: Final = "TtsReplica"
# Jobs can be sent: UNHEALTHY means a replica failed and Serve is replacing
# it (the others still serve); submitting the app again would roll them all.
_USABLE: Final = frozenset({"RUNNING", "UNHEALTHY"})
# Serve is still working on these: wait for them, never submit the app again.
_SETTLING: Final = frozenset({"NOT_STARTED", "DEPLOYING", "DELETING"})
# The deployer answers within this share of the driver's `connect_timeout_s`.
_DEPLOY_SHARE: Final = 0.75
_POLL_S: Final = 0.5
# A driver whose cluster is gone exits after this (Ray's default is 60 s):
# the pool's replacement then reports `provider_unavailable` until it is back.
_RECONNECT_S: Final = "5"
_PROBE_TIMEOUT_S: Final = 2.0
_MAX_REASON: Final = 300


class ReplicaSpec(msgspec.Struct, frozen=True, kw_only=True):
    """One Serve deployment's size: a fixed count, or autoscaling bounds."""

    replicas: int = 1
    max_replicas: int = 0  # > replicas: autoscale between the two
    num_cpus: float = 1.0
    num_gpus: float = 0.0

    def options(self) -> dict[str, Any]:
        actor = {"num_cpus": self.num_cpus, "num_gpus": self.num_gpus}
        # One job per replica: inference is CPU-bound; the rest wait in the
        # router (and each daemon bounds its own in-flight jobs).
        opts: dict[str, Any] = {"ray_actor_options": actor, "max_ongoing_requests": 1}
        if self.max_replicas > self.replicas:
            opts["autoscaling_config"] = {
                "min_replicas": self.replicas,
                "max_replicas": self.max_replicas,
                "target_ongoing_requests": 1,
            }
        else:
            opts["num_replicas"] = self.replicas
        return opts


class RaySpec(msgspec.Struct, frozen=True, kw_only=True):
    """Everything a driver process needs: where the cluster is and what to deploy."""

    address: str = "auto"
    namespace: str = "vac"
    deploy: bool = True
    stt_app: str = "vac-stt"
    tts_app: str = "vac-tts"
    stt: ReplicaSpec = ReplicaSpec()
    tts: ReplicaSpec = ReplicaSpec()
    call_timeout_s: float = 20.0
    connect_timeout_s: float = 60.0
    stt_config: SttConfig = SttConfig()
    replies: tuple[tuple[str, str], ...] = ()
    verbs: tuple[tuple[str, str], ...] = ()
    heard_verbs: tuple[str, ...] = ()
    tts_model: str | None = None
    tts_voice_config: str | None = None

    def app(self, kind: str) -> str:
        """The Serve application's name for `kind` ("stt" | "tts")."""
        return self.stt_app if kind == "stt" else self.tts_app


class RayUnavailable(SttError):
    """The cluster or a deployment cannot be reached; the message says which."""


def once_more(
    call: Callable[[], T],
    retryable: tuple[type[BaseException], ...],
    on_retry: Callable[[BaseException], None] | None = None,
) -> T:
    """`call()`, and once more if it failed with `retryable` (a replica died)."""
    try:
        return call()
    except retryable as exc:
        if on_retry is not None:
            on_retry(exc)
        return call()


def connect(spec: RaySpec) -> None:
    """Join the cluster as a driver. Raises `RayUnavailable` naming the address."""
    child_output.reroute()
    configure(json=True)  # this child's log lines: JSON, as the daemon's
    # Must be set before Ray starts its core worker in this process.
    os.environ.setdefault("RAY_gcs_rpc_server_reconnect_timeout_s", _RECONNECT_S)
    os.environ.setdefault("RAY_gcs_rpc_server_connect_timeout_s", _RECONNECT_S)
    # Ask the replicas for their queue length before every request instead of
    # trusting a cached one (10 s by default): with one job per replica, a
    # stale "idle" sent jobs to a busy replica, which rejected them, and the
    # router's back-off cost ~100-300 ms per commit (measured, docs/scaling.md).
    os.environ.setdefault("RAY_SERVE_QUEUE_LENGTH_CACHE_TIMEOUT_S", "0")
    # Two routers (two drivers) can still pick the same idle replica at once;
    # the loser is rejected and retried after this back-off (Ray: 25 ms, doubling).
    os.environ.setdefault("RAY_SERVE_ROUTER_RETRY_INITIAL_BACKOFF_S", "0.005")
    # A token made by `ray start` (~/.ray/auth_token) is only sent when the
    # mode says so; Ray 2.60's driver does not pick it up on its own.
    if "RAY_AUTH_MODE" not in os.environ and (Path.home() / ".ray" / "auth_token").is_file():
        os.environ["RAY_AUTH_MODE"] = "token"
    _reachable(spec.address)
    try:
        import ray
    except ImportError:
        raise RayUnavailable(
            "[inference] engine = \"ray\" needs the ray extra: pip install 'vac[ray]'"
        ) from None
    # Serve's driver-side INFO lines would go to the daemon's stderr.
    logging.getLogger("ray.serve").setLevel(logging.WARNING)
    try:
        ray.init(
            address=spec.address,
            namespace=spec.namespace,
            logging_level=logging.ERROR,
            log_to_driver=False,
            include_dashboard=False,
        )
    except Exception as exc:  # ConnectionError, ValueError, RuntimeError...
        raise RayUnavailable(
            f"no Ray cluster at {spec.address!r}: {type(exc).__name__}: {_first_line(exc)}"
        ) from None


def _reachable(address: str) -> None:
    """Refuse at once when nothing listens at `host:port`: `ray.init` would
    spend ~15 s finding that out (measured), once per reconnect attempt."""
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit():
        return  # "auto", "ray://…" or a bare host: let Ray resolve it
    try:
        with socket.create_connection((host, int(port)), timeout=_PROBE_TIMEOUT_S):
            pass
    except OSError as exc:
        raise RayUnavailable(f"no Ray cluster at {address!r}: {exc.strerror or exc}") from None


def _app_state(app: str) -> tuple[str | None, str]:
    """(Serve's status of `app` or None when absent, why: its first line).

    Serve gives an application a message only once it failed; while it
    deploys, the reason it waits ("… {'GPU': 1.0} …", after 30 s) is on the
    deployment.
    """
    from ray import serve

    status = serve.status().applications.get(app)
    if status is None:
        return None, ""
    messages = [status.message, *(d.message for d in status.deployments.values())]
    why = next((_first_line(m) for m in messages if m), "")
    # An enum: its value is the name ("RUNNING"); str() would be "ApplicationStatus.RUNNING".
    return str(getattr(status.status, "value", status.status)), why


def app_status(app: str) -> str | None:
    return _app_state(app)[0]


def _first_line(text: object) -> str:
    """A remote error's first line, bounded: never its traceback (nor a client's concern)."""
    return str(text or "").strip().split("\n", 1)[0][:_MAX_REASON]


def _deployer_name() -> str:
    # Named after its code: a detached actor keeps the modules it started
    # with (this one, and the types it decodes a spec into), so after an
    # upgrade the new code gets a deployer of its own.
    here = Path(__file__).parent
    digest = hashlib.sha256()
    for name in ("ray_engine.py", "ray_replicas.py", "stt.py", "tts.py"):
        digest.update((here / name).read_bytes())
    return f"vac-deployer-{digest.hexdigest()[:10]}"


class Deployer:
    """A detached, named actor that deploys: one call at a time.

    Every driver of every daemon of this vac version in this namespace asks
    it (`get_if_exists`), and an actor runs one call at a time, so two such
    daemons starting together never both deploy (a second `serve.run` of the
    same app would roll its replicas). Across versions or namespaces, the
    rule that a DEPLOYING app is never submitted again still holds.
    """

    def ensure(self, spec: bytes, kind: str, until_s: float) -> None:
        deploy_app(msgspec.msgpack.decode(spec, type=RaySpec), kind, until_s)


def ensure_app(spec: RaySpec, kind: str) -> None:
    """The Serve application for `kind` ("stt" | "tts") is running, deployed if needed."""
    import ray

    app = spec.app(kind)
    if app_status(app) in _USABLE:
        return
    if not spec.deploy:
        raise RayUnavailable(f"Serve application {app!r} is not running")
    deployer: Any = (
        ray.remote(num_cpus=0)(Deployer)
        .options(name=_deployer_name(), lifetime="detached", get_if_exists=True)
        .remote()
    )
    # The deployer answers by this (wall-clock) time, however long the call
    # waited behind others': so the driver hears why, not its own timeout.
    until_s = _clock() + spec.connect_timeout_s * _DEPLOY_SHARE
    ref = deployer.ensure.remote(msgspec.msgpack.encode(spec), kind, until_s)
    try:
        ray.get(ref, timeout=spec.connect_timeout_s)
    except Exception as exc:  # the deployer's error, re-raised by Ray (a RayTaskError)
        if isinstance(exc, ray.exceptions.GetTimeoutError):
            with contextlib.suppress(Exception):
                ray.cancel(ref)  # still queued: it need not run at all
        cause = getattr(exc, "cause", None) or exc
        if isinstance(cause, RayUnavailable):
            raise RayUnavailable(str(cause)) from None
        raise RayUnavailable(
            f"deploying {app!r}: {type(cause).__name__}: {_first_line(cause)}"
        ) from None


def deploy_app(spec: RaySpec, kind: str, until_s: float) -> None:
    """Deploy the application for `kind` unless it runs or is deploying, and
    wait until it runs or `until_s` (wall clock). Call it from the `Deployer`.

    `serve.run` would wait without limit for replicas that can never be placed
    (a GPU asked of a CPU cluster), and the single deployer would wait with it
    for every daemon. So the app is submitted without blocking and polled
    until the driver's deadline, which lies inside its own timeout
    (`_DEPLOY_SHARE`): the driver hears why instead of timing out and asking
    again. An app that is DEPLOYING is only waited for, never submitted
    again; nor is an UNHEALTHY one, which Serve heals by replacing replicas:
    either would restart the replicas every daemon is using.
    """
    app = spec.app(kind)
    submitted = False
    while True:
        status, why = _app_state(app)
        if status in _USABLE:
            return
        left_s = until_s - _clock()
        if status in _SETTLING or (submitted and status is None):
            if left_s <= 0:
                raise RayUnavailable(
                    f"Serve application {app!r} is still {status}"
                    + (f": {why}" if why else " (no reason given yet)")
                )
            _sleep(min(_POLL_S, left_s))
            continue
        if submitted:  # it left DEPLOYING, but not for RUNNING
            raise RayUnavailable(f"deploying {app!r} failed ({status}): {why}")
        if not spec.deploy:
            raise RayUnavailable(f"Serve application {app!r} is not running (status {status})")
        if left_s <= 0:  # this call waited behind others past the driver's patience
            raise RayUnavailable(f"Serve application {app!r} is not running; the deployer was busy")
        _submit(spec, kind, app)
        submitted = True


def _submit(spec: RaySpec, kind: str, app: str) -> None:
    from ray import serve
    from vac.speech import ray_replicas

    if kind == "stt":
        options = spec.stt.options()
        target = serve.deployment(name=STT_DEPLOYMENT, **options)(ray_replicas.SttReplica).bind(
            msgspec.msgpack.encode(spec.stt_config), spec.replies, spec.verbs, spec.heard_verbs
        )
    else:
        options = spec.tts.options()
        target = serve.deployment(name=TTS_DEPLOYMENT, **options)(ray_replicas.TtsReplica).bind(
            spec.tts_model, spec.tts_voice_config
        )
    try:
        # Handles only: vac needs no HTTP proxy on the cluster (nor its port 8000).
        serve.start(proxy_location="Disabled")
        # `_run(_blocking=False)` is `serve.run` without its unbounded wait.
        serve._run(target, _blocking=False, name=app, route_prefix=None)
    except Exception as exc:
        raise RayUnavailable(
            f"deploying {app!r} failed: {type(exc).__name__}: {_first_line(exc)}"
        ) from None


def _handle(app: str, deployment: str) -> Any:
    from ray import serve

    return serve.get_deployment_handle(deployment, app_name=app)


class _Remote:
    """Calls into one Serve application, with the failure rules of the module doc.

    A replica that died is retried once. The cluster gone, or the application
    gone (deleted, failed: Serve names it `DeploymentUnavailableError`, or a
    call times out and the app no longer runs) raises `lost`: the driver
    process exits and its replacement connects and redeploys. Anything else
    that keeps the job from finishing raises `failed` with a reason that
    names only types, never a remote traceback.
    """

    def __init__(
        self,
        spec: RaySpec,
        kind: str,
        lost: type[Exception],
        failed: type[Exception],
    ) -> None:
        from ray.serve import exceptions as sx

        from ray import exceptions as rx

        self._timeout_s = spec.call_timeout_s
        self.app = spec.app(kind)
        self.handle = _handle(self.app, STT_DEPLOYMENT if kind == "stt" else TTS_DEPLOYMENT)
        self._what = "recognition" if kind == "stt" else "synthesis"
        self._lost, self._failed = lost, failed
        self._replica_died = (rx.RayActorError, rx.ActorUnavailableError)
        self._gone = (rx.RaySystemError, sx.DeploymentUnavailableError)

    def call(self, remote: Callable[[], Any]) -> Any:
        def attempt() -> Any:
            response = remote()
            try:
                return response.result(timeout_s=self._timeout_s)
            except TimeoutError:
                response.cancel()
                raise

        def retrying(exc: BaseException) -> None:
            log.warning("ray_replica_retry", app=self.app, error=type(exc).__name__)

        try:
            return once_more(attempt, self._replica_died, on_retry=retrying)
        except self._gone as exc:
            raise self._lost(f"Ray {self._what} lost: {type(exc).__name__}") from None
        except TimeoutError:
            if not _still_running(self.app):
                raise self._lost(f"Serve application {self.app!r} is gone") from None
            raise self._failed(f"no {self._what} within {self._timeout_s:.0f} s") from None
        except self._replica_died as exc:
            raise self._failed(f"{self._what} replica died twice: {type(exc).__name__}") from None


def _still_running(app: str) -> bool:
    try:
        return app_status(app) in _USABLE | _SETTLING
    except Exception:  # the controller cannot say: treat the app as gone
        return False


class RaySttEngine:
    """An `SttEngine` that recognises on the cluster. Build it in a worker process."""

    def __init__(self, spec: RaySpec, vocabulary: tuple[str, ...] = ()) -> None:
        self._vocabulary = tuple(vocabulary)
        connect(spec)
        ensure_app(spec, "stt")
        self._remote = _Remote(spec, "stt", SttEngineLost, RayUnavailable)

    def transcribe(
        self, pcm: npt.NDArray[np.int16], *, final: bool, reply_expected: bool = False
    ) -> Transcript:
        data = pcm.astype("<i2", copy=False).tobytes()
        handle, words, expected = self._remote.handle, self._vocabulary, reply_expected
        raw = self._remote.call(lambda: handle.transcribe.remote(data, final, expected, words))
        return msgspec.msgpack.decode(bytes(raw), type=Transcript)


class RayTtsEngine:
    """A `TtsEngine` that synthesises on the cluster. Build it in a bridge process."""

    def __init__(self, spec: RaySpec) -> None:
        try:
            connect(spec)
            ensure_app(spec, "tts")
        except RayUnavailable as exc:
            raise TtsError(str(exc)) from None
        self._remote = _Remote(spec, "tts", TtsEngineLost, TtsError)
        name, rate = self._remote.call(lambda: self._remote.handle.describe.remote())
        self.name = str(name)
        self._rate_hz = int(rate)

    @property
    def sample_rate_hz(self) -> int:
        return self._rate_hz

    def synthesize(self, phrase: str) -> SynthesizedPhrase:
        raw = self._remote.call(lambda: self._remote.handle.synthesize.remote(phrase))
        return msgspec.msgpack.decode(bytes(raw), type=SynthesizedPhrase)
