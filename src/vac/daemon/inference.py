"""`[inference]`: where recognition and synthesis run — this host, or a Ray cluster.

`engine = "local"` (the default) runs them in this daemon's own worker
processes and threads. `engine = "ray"` sends PCM and text to Ray Serve
deployments that any number of vac daemons share; each daemon keeps its
sockets, sessions, gate and event log, and the same scheduling (docs/scaling.md).
Ray is the optional extra `vac[ray]`, imported only when this says `ray`.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from vac.daemon.config import ConfigError, VacConfig


class InferenceSection(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Where inference runs."""

    engine: Annotated[
        Literal["local", "ray"],
        msgspec.Meta(
            description="`local`: worker processes of this daemon. `ray`: Ray Serve"
            " deployments on a cluster (needs the `vac[ray]` extra; docs/scaling.md)."
        ),
    ] = "local"
    address: Annotated[
        str,
        msgspec.Meta(
            min_length=1,
            description="The Ray cluster (`host:port` of its head) or `auto` for the one"
            " started on this host.",
        ),
    ] = "auto"
    namespace: Annotated[
        str, msgspec.Meta(min_length=1, description="The Ray namespace vac's drivers join.")
    ] = "vac"
    deploy: Annotated[
        bool,
        msgspec.Meta(
            description="Deploy the Serve applications when they are not running (at start"
            " and when the cluster comes back); `false`: only use ones already deployed."
        ),
    ] = True
    stt_app: Annotated[
        str, msgspec.Meta(min_length=1, description="The Serve application for recognition.")
    ] = "vac-stt"
    tts_app: Annotated[
        str, msgspec.Meta(min_length=1, description="The Serve application for synthesis.")
    ] = "vac-tts"
    stt_replicas: Annotated[
        int, msgspec.Meta(ge=1, le=256, description="Recognition replicas (the minimum).")
    ] = 1
    stt_max_replicas: Annotated[
        int,
        msgspec.Meta(
            ge=0,
            le=256,
            description="Autoscale recognition up to this many replicas (0: a fixed"
            " `stt_replicas`).",
        ),
    ] = 0
    stt_num_cpus: Annotated[
        float,
        msgspec.Meta(ge=0.0, le=256.0, description="CPUs Ray reserves per recognition replica."),
    ] = 1.0
    stt_num_gpus: Annotated[
        float,
        msgspec.Meta(
            ge=0.0,
            le=16.0,
            description='GPUs per recognition replica; with `[stt] device = "cuda"`.',
        ),
    ] = 0.0
    tts_replicas: Annotated[
        int, msgspec.Meta(ge=1, le=256, description="Synthesis replicas (the minimum).")
    ] = 1
    tts_max_replicas: Annotated[
        int,
        msgspec.Meta(
            ge=0,
            le=256,
            description="Autoscale synthesis up to this many replicas (0: a fixed `tts_replicas`).",
        ),
    ] = 0
    tts_num_cpus: Annotated[
        float,
        msgspec.Meta(ge=0.0, le=256.0, description="CPUs Ray reserves per synthesis replica."),
    ] = 1.0
    tts_num_gpus: Annotated[
        float, msgspec.Meta(ge=0.0, le=16.0, description="GPUs per synthesis replica.")
    ] = 0.0
    call_timeout_s: Annotated[
        float,
        msgspec.Meta(
            gt=0.0,
            le=600.0,
            description="One remote call (queueing in Ray included) past this fails its job"
            " with `provider_unavailable`. Per attempt: a job retried after a replica died"
            " can take twice this.",
        ),
    ] = 20.0
    connect_timeout_s: Annotated[
        float,
        msgspec.Meta(
            gt=0.0,
            le=600.0,
            description="Connecting to the cluster (and deploying, when `deploy`) past this"
            " is a named refusal at start and in `vac preflight`; a deployment that is not"
            " running after 75 % of it is named with its status (and Serve's reason, once given).",
        ),
    ] = 60.0

    def __post_init__(self) -> None:
        for kind in ("stt", "tts"):
            low, high = getattr(self, f"{kind}_replicas"), getattr(self, f"{kind}_max_replicas")
            if high and high < low:
                raise ValueError(f"{kind}_max_replicas ({high}) is below {kind}_replicas ({low})")


def inference_section(config: VacConfig) -> InferenceSection:
    try:
        return msgspec.convert(config.inference, InferenceSection)
    except msgspec.ValidationError as exc:
        text = str(exc).replace("$.", "inference.").replace("at `$`", "in [inference]")
        raise ConfigError(f"vac.toml: [inference] {text}") from None
