"""What `vac preflight` learns from a Ray cluster, asked from a child process
(this process never becomes a Ray driver: speech/ray_engine.py says why)."""

from __future__ import annotations

from typing import Any

import msgspec

from vac.speech.ray_engine import RaySpec, RayUnavailable, app_status, connect


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
        apps = {app: app_status(app) for app in (spec.stt_app, spec.tts_app)}
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
