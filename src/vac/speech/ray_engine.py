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

import json
import logging
import os
import re
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, TypeVar

import msgspec
import numpy as np
import numpy.typing as npt

from vac.speech.stt import SttConfig, SttError, Transcript
from vac.speech.tts import SynthesizedPhrase, TtsEngineLost, TtsError
from vac.speech.workers import SttEngineLost

T = TypeVar("T")

STT_DEPLOYMENT: Final = "SttReplica"
TTS_DEPLOYMENT: Final = "TtsReplica"
_READY: Final = frozenset({"RUNNING"})
_SETTLING: Final = frozenset({"DEPLOYING"})
# A driver whose cluster is gone exits after this (Ray's default is 60 s):
# the pool's replacement then reports `provider_unavailable` until it is back.
_RECONNECT_S: Final = "5"
_PROBE_TIMEOUT_S: Final = 2.0
_MAX_LINE: Final = 2000
_NOISY: Final = re.compile(r"\b(WARNING|ERROR|FATAL|[WEF]) \d|\b(WARNING|ERROR)\b")


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
    tts_model: str | None = None
    tts_voice_config: str | None = None


class RayUnavailable(SttError):
    """The cluster or a deployment cannot be reached; the message says which."""


def once_more(call: Callable[[], T], retryable: tuple[type[BaseException], ...]) -> T:
    """`call()`, and once more if it failed with `retryable` (a replica died)."""
    try:
        return call()
    except retryable:
        return call()


def _structured_output() -> None:
    """Ray writes plain text to fds 1 and 2 (its C++ core too); the daemon's
    stderr is one JSON object per line. Each line of this process's output
    becomes a `ray_output` event on the daemon's stderr instead."""
    read_fd, write_fd = os.pipe()
    stderr_fd = os.dup(2)
    os.dup2(write_fd, 1)
    os.dup2(write_fd, 2)
    os.close(write_fd)

    def pump() -> None:
        with os.fdopen(read_fd, "rb") as lines, os.fdopen(stderr_fd, "wb", buffering=0) as out:
            for raw in lines:
                text = raw.decode("utf-8", "replace").strip()
                if not text:
                    continue
                level = "warning" if _NOISY.search(text) else "info"
                event = {"event": "ray_output", "level": level, "pid": os.getpid()}
                stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
                line = {**event, "text": text[:_MAX_LINE], "timestamp": stamp}
                out.write(json.dumps(line).encode() + b"\n")

    threading.Thread(target=pump, name="vac-ray-output", daemon=True).start()


def connect(spec: RaySpec) -> None:
    """Join the cluster as a driver. Raises `RayUnavailable` naming the address."""
    _structured_output()
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
            f"no Ray cluster at {spec.address!r}: {type(exc).__name__}: {exc}"
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


def _app_status(app: str) -> str | None:
    from ray import serve

    status = serve.status().applications.get(app)
    if status is None:
        return None
    # An enum: its value is the name ("RUNNING"); str() would be "ApplicationStatus.RUNNING".
    return str(getattr(status.status, "value", status.status))


class Deployer:
    """A detached, named actor that deploys: one at a time for the whole cluster.

    Every driver of every daemon asks it (`get_if_exists`), and an actor runs
    one call at a time, so two daemons starting together never both deploy
    (a second `serve.run` of the same app would roll its replicas).
    """

    def ensure(self, spec: bytes, kind: str) -> None:
        deploy_app(msgspec.msgpack.decode(spec, type=RaySpec), kind)


def ensure_app(spec: RaySpec, kind: str) -> None:
    """The Serve application for `kind` ("stt" | "tts") is running, deployed if needed."""
    import ray

    app = spec.stt_app if kind == "stt" else spec.tts_app
    if _app_status(app) in _READY:
        return
    if not spec.deploy:
        raise RayUnavailable(f"Serve application {app!r} is not running")
    deployer: Any = (
        ray.remote(num_cpus=0)(Deployer)
        .options(name="vac-deployer", lifetime="detached", get_if_exists=True)
        .remote()
    )
    try:
        ray.get(
            deployer.ensure.remote(msgspec.msgpack.encode(spec), kind),
            timeout=spec.connect_timeout_s,
        )
    except RayUnavailable:
        raise
    except Exception as exc:  # the deployer's error, re-raised by Ray
        cause = getattr(exc, "cause", None) or exc
        raise RayUnavailable(f"deploying {app!r}: {type(cause).__name__}: {cause}") from None


def deploy_app(spec: RaySpec, kind: str) -> None:
    """Deploy the application for `kind` unless it runs; call it from the `Deployer`."""
    app = spec.stt_app if kind == "stt" else spec.tts_app
    deadline_s = time.monotonic() + spec.connect_timeout_s
    status = _app_status(app)
    while status in _SETTLING and time.monotonic() < deadline_s:
        time.sleep(0.5)  # another daemon is deploying it: wait, do not redeploy
        status = _app_status(app)
    if status in _READY:
        return
    if not spec.deploy:
        raise RayUnavailable(f"Serve application {app!r} is not running (status {status})")
    from ray import serve
    from vac.speech import ray_replicas

    if kind == "stt":
        options = spec.stt.options()
        target = serve.deployment(name=STT_DEPLOYMENT, **options)(ray_replicas.SttReplica).bind(
            msgspec.msgpack.encode(spec.stt_config), spec.replies, spec.verbs
        )
    else:
        options = spec.tts.options()
        target = serve.deployment(name=TTS_DEPLOYMENT, **options)(ray_replicas.TtsReplica).bind(
            spec.tts_model, spec.tts_voice_config
        )
    try:
        # Handles only: vac needs no HTTP proxy on the cluster (nor its port 8000).
        serve.start(proxy_location="Disabled")
        serve.run(target, name=app, route_prefix=None)
    except Exception as exc:
        raise RayUnavailable(f"deploying {app!r} failed: {type(exc).__name__}: {exc}") from None


def _handle(app: str, deployment: str) -> Any:
    from ray import serve

    return serve.get_deployment_handle(deployment, app_name=app)


def _errors() -> tuple[tuple[type[BaseException], ...], tuple[type[BaseException], ...]]:
    """(a replica died: retry once, the cluster is gone: end this driver)."""
    from ray import exceptions as rx

    replica = (rx.RayActorError, rx.ActorUnavailableError)
    lost = (rx.RaySystemError,)
    return replica, lost


class RaySttEngine:
    """An `SttEngine` that recognises on the cluster. Build it in a worker process."""

    def __init__(self, spec: RaySpec, vocabulary: tuple[str, ...] = ()) -> None:
        self._spec = spec
        self._vocabulary = tuple(vocabulary)
        connect(spec)
        ensure_app(spec, "stt")
        self._handle = _handle(spec.stt_app, STT_DEPLOYMENT)
        self._replica_died, self._lost = _errors()

    def transcribe(
        self, pcm: npt.NDArray[np.int16], *, final: bool, reply_expected: bool = False
    ) -> Transcript:
        data = pcm.astype("<i2", copy=False).tobytes()

        def call() -> bytes:
            response = self._handle.transcribe.remote(data, final, reply_expected, self._vocabulary)
            try:
                return bytes(response.result(timeout_s=self._spec.call_timeout_s))
            except TimeoutError:
                response.cancel()
                raise

        try:
            raw = once_more(call, self._replica_died)
        except self._lost as exc:
            raise SttEngineLost(f"Ray cluster lost: {type(exc).__name__}") from None
        except TimeoutError:
            raise RayUnavailable(
                f"no recognition within {self._spec.call_timeout_s:.0f} s"
            ) from None
        except self._replica_died as exc:
            raise RayUnavailable(f"recognition replica died twice: {type(exc).__name__}") from None
        return msgspec.msgpack.decode(raw, type=Transcript)


class RayTtsEngine:
    """A `TtsEngine` that synthesises on the cluster. Build it in a bridge process."""

    def __init__(self, spec: RaySpec) -> None:
        self._spec = spec
        try:
            connect(spec)
            ensure_app(spec, "tts")
        except RayUnavailable as exc:
            raise TtsError(str(exc)) from None
        self._handle = _handle(spec.tts_app, TTS_DEPLOYMENT)
        self._replica_died, self._lost = _errors()
        name, rate = self._call(lambda: self._handle.describe.remote())
        self.name = str(name)
        self._rate_hz = int(rate)

    @property
    def sample_rate_hz(self) -> int:
        return self._rate_hz

    def _call(self, remote: Callable[[], Any]) -> Any:
        def call() -> Any:
            response = remote()
            try:
                return response.result(timeout_s=self._spec.call_timeout_s)
            except TimeoutError:
                response.cancel()
                raise

        try:
            return once_more(call, self._replica_died)
        except self._lost as exc:
            raise TtsEngineLost(f"Ray cluster lost: {type(exc).__name__}") from None
        except TimeoutError:
            raise TtsError(f"no synthesis within {self._spec.call_timeout_s:.0f} s") from None
        except self._replica_died as exc:
            raise TtsError(f"synthesis replica died twice: {type(exc).__name__}") from None

    def synthesize(self, phrase: str) -> SynthesizedPhrase:
        raw = self._call(lambda: self._handle.synthesize.remote(phrase))
        return msgspec.msgpack.decode(bytes(raw), type=SynthesizedPhrase)


class Probe(msgspec.Struct, frozen=True, kw_only=True):
    """What `vac preflight` learns from the cluster (in a child process)."""

    error: str | None = None
    ray_version: str = ""
    nodes: int = 0
    cpus: float = 0.0
    gpus: float = 0.0
    apps: dict[str, str | None] = {}  # application name -> Serve status (None: absent)


def probe(spec: RaySpec) -> Probe:
    """Connect, read the cluster's size and both applications' status. Never deploys."""
    try:
        connect(spec)
        import ray

        # Ray's own functions are untyped: read them as plain data.
        api: Any = ray
        resources: dict[str, float] = api.cluster_resources()
        nodes = len([n for n in api.nodes() if n.get("Alive")])
        apps = {app: _app_status(app) for app in (spec.stt_app, spec.tts_app)}
        return Probe(
            ray_version=ray.__version__,
            nodes=nodes,
            cpus=float(resources.get("CPU", 0.0)),
            gpus=float(resources.get("GPU", 0.0)),
            apps=apps,
        )
    except RayUnavailable as exc:
        return Probe(error=str(exc))
    except Exception as exc:
        return Probe(error=f"{type(exc).__name__}: {exc}")


def _probe_main(spec: RaySpec, conn: Any) -> None:
    conn.send_bytes(msgspec.msgpack.encode(probe(spec)))


def probe_in_child(spec: RaySpec, timeout_s: float) -> Probe:
    """`probe` in a spawned process: this process never becomes a Ray driver."""
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    parent, child = ctx.Pipe(duplex=False)
    process = ctx.Process(target=_probe_main, args=(spec, child), daemon=True)
    process.start()
    child.close()
    try:
        if not parent.poll(timeout_s):
            return Probe(error=f"no answer from the cluster within {timeout_s:.0f} s")
        return msgspec.msgpack.decode(parent.recv_bytes(), type=Probe)
    except (EOFError, OSError):
        return Probe(error=f"the probe exited (code {process.exitcode})")
    finally:
        process.join(2.0)
        if process.is_alive():
            process.kill()
