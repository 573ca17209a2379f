"""`vac preflight`: check every declared provider, the keys and the endpoint.

Reports each by name with what to do about it. Never installs, downloads or
repairs anything: a missing model is reported, not fetched.
"""

from __future__ import annotations

import errno
import os
import socket
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

import zmq

from vac.daemon.config import ConfigError, VacConfig, load_config
from vac.daemon.engines import ProviderMissing, Providers
from vac.daemon.lock import daemon_running
from vac.endpoints import endpoint_problem
from vac.errors import VacError
from vac.home import Home, HomeError, check_secret_file
from vac.runtime.store import StoreError

Status = Literal["ok", "fail", "warn", "off"]


@dataclass(frozen=True)
class Check:
    name: str
    status: Status
    detail: str


def _run(name: str, fn: Callable[[], str]) -> Check:
    try:
        return Check(name, "ok", fn())
    except (ProviderMissing, HomeError, ConfigError, StoreError) as exc:
        return Check(name, "fail", str(exc))
    except Exception as exc:  # a broken model file etc.: reported, never raised
        return Check(name, "fail", f"{type(exc).__name__}: {exc}")


def check_keys(home: Home) -> str:
    from vac.daemon.keys import list_enrolled, server_key_problem

    if problem := server_key_problem(home):  # the daemon's words: the missing half, a fix
        raise HomeError(problem)
    check_secret_file(home.server_secret)
    enrolled = list_enrolled(home)
    return f"server key {home.server_public}; {len(enrolled)} principal(s) enrolled"


def check_store(home: Home) -> str:
    """`vac.db`, read-only: a file the daemon would refuse fails here first."""
    from vac.runtime.store import inspect

    return inspect(home.db_file)


def check_roster(config: VacConfig) -> str:
    """`[intent]` and `[[agents]]`, decoded as the daemon decodes them at start."""
    from vac.daemon.config import intent_config

    names = intent_config(config).roster().names()
    return f"{len(names)} agent(s): {', '.join(names)}"


def check_stt(providers: Providers) -> str:
    import msgspec

    from vac.daemon.engines import refuse_remote, stt_config, stt_model_dir
    from vac.speech.stt import SttModelMissing, WhisperStt

    section = providers.stt
    refuse_remote("stt", section.egress)
    try:
        path = stt_model_dir(section)
        # The daemon's own settings (device, compute type): an operator probe
        # found "cuda" and "float16" passed here and refused at start.
        config = msgspec.structs.replace(stt_config(section), model_dir=str(path), cpu_threads=1)
        WhisperStt(config)
    except SttModelMissing as exc:
        raise ProviderMissing(f"{exc}") from None
    said = f"{section.device}, {section.compute_type}"
    return f"{section.provider} ({section.egress}) {path}, {said}, loads"


def check_tts(providers: Providers) -> str:
    from vac.daemon.engines import build_tts

    tts = build_tts(providers.tts)
    section = providers.tts
    return f"{section.provider} ({section.egress}) voice {tts.name}, {tts.sample_rate_hz} Hz"


def check_vad(providers: Providers) -> str:
    import webrtcvad

    from vac.daemon.engines import build_vad

    config = build_vad(providers.vad)
    webrtcvad.Vad(config.aggressiveness).is_speech(bytes(640), 16000)
    return f"webrtcvad ({providers.vad.egress}) aggressiveness {config.aggressiveness}"


class EndpointUnavailable(VacError):
    """The daemon cannot bind its endpoint; one line naming it and what to do."""


IPC_PROBE_TIMEOUT_S: Final = 1.0


def bind_problem(uri: str, exc: OSError | zmq.ZMQError) -> EndpointUnavailable:
    """`cannot bind URI: why — what to do`, for the daemon and for preflight alike."""
    if exc.errno == errno.EADDRINUSE:
        return EndpointUnavailable(
            f"cannot bind {uri}: address already in use — is a vac daemon already running?"
            " stop it, or choose another endpoint (vac daemon --endpoint tcp://HOST:PORT)"
        )
    why = (exc.strerror or str(exc)).lower().rstrip(".")
    if exc.errno == errno.EACCES:
        hint = "choose a port above 1023 or a directory you can write (--endpoint)"
    elif exc.errno == errno.ENOENT:
        hint = "create that directory first, or choose another path (--endpoint)"
    elif exc.errno in (errno.EADDRNOTAVAIL, errno.ENODEV):
        hint = "that address is not on this machine; use 127.0.0.1 or one of its addresses"
    else:
        hint = "use tcp://HOST:PORT or ipc://PATH (--endpoint, or [daemon] endpoint in vac.toml)"
    return EndpointUnavailable(f"cannot bind {uri}: {why} — {hint}")


def _probe_tcp(host: str, port: int) -> None:
    """Bind a throw-away socket on HOST:PORT and close it at once (raises OSError)."""
    host = "" if host in ("*", "0.0.0.0") else host.strip("[]")
    infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    # libzmq resolves a name to IPv4 unless told otherwise.
    infos.sort(key=lambda info: info[0] != socket.AF_INET)
    family, kind, proto, _, addr = infos[0]
    with socket.socket(family, kind, proto) as sock:
        # libzmq sets SO_REUSEADDR too: a port in TIME_WAIT is free for it.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(addr)
        sock.listen(1)


def _probe_ipc(path: str) -> None:
    """An ipc endpoint is in use when something accepts a connection on it.
    An abstract socket (`ipc://@name`) has no file and no directory to check."""
    target = Path(path)
    if not path.startswith("@"):
        if not target.parent.is_dir():
            raise OSError(errno.ENOENT, f"no directory {target.parent}")
        if not target.exists():
            if not os.access(target.parent, os.W_OK):
                raise OSError(errno.EACCES, f"cannot write in {target.parent}")
            return
    address = "\0" + path[1:] if path.startswith("@") else str(target)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(IPC_PROBE_TIMEOUT_S)  # a listener too busy to accept is there
        try:
            sock.connect(address)
        except TimeoutError:
            pass
        except OSError as exc:
            if exc.errno in (errno.ECONNREFUSED, errno.ENOENT):
                return  # a stale socket file (libzmq replaces it), or none
            if exc.errno != errno.EAGAIN:  # EAGAIN: its backlog is full, it is there
                raise
    raise OSError(errno.EADDRINUSE, "address already in use")


def probe_endpoint(uri: str) -> None:
    """Raise `EndpointUnavailable` if the daemon could not bind `uri` right now."""
    try:
        if uri.startswith("ipc://"):
            _probe_ipc(uri[len("ipc://") :])
            return
        problem = endpoint_problem(uri, bind=True)
        if problem is not None:
            raise EndpointUnavailable(problem)
        host, _, port = uri[len("tcp://") :].rpartition(":")
        if port == "*":
            return  # any free port
        _probe_tcp(host, int(port))
    except socket.gaierror as exc:
        host = uri[len("tcp://") :].rpartition(":")[0]
        if host in {name for _, name in socket.if_nameindex()}:
            return  # libzmq also binds an interface by name (tcp://eth0:7707)
        raise EndpointUnavailable(
            f"cannot bind {uri}: unknown host ({exc.strerror}) — use an IP address"
        ) from None
    except OSError as exc:
        raise bind_problem(uri, exc) from None


def check_endpoint(home: Home, config: VacConfig, endpoint: str | None) -> Check:
    uri = endpoint or config.daemon.endpoint
    if not uri.startswith(("tcp://", "ipc://")):
        return Check("endpoint", "fail", f"{uri}: use tcp://HOST:PORT or ipc://PATH")
    running = daemon_running(home)
    try:
        probe_endpoint(uri)
    except EndpointUnavailable as exc:
        text = str(exc)
        if "already in use" in text:
            if running:
                # The daemon of this very home: expected while it runs.
                return Check("endpoint", "warn", f"{uri} is in use (this home's daemon is running)")
            text = (
                f"endpoint {uri} is in use — is a vac daemon already running?"
                " (vac daemon --endpoint tcp://HOST:OTHER_PORT)"
            )
        return Check("endpoint", "fail", text)
    return Check(
        "endpoint",
        "ok",
        f"{uri} can be bound" + (" (a daemon is running on this home)" if running else ""),
    )


def check_audio_devices() -> Check:
    try:
        import sounddevice
    except ImportError:
        return Check(
            "audio devices", "off", "sounddevice not installed (pip install 'vac[client]')"
        )
    except OSError as exc:
        return Check("audio devices", "warn", f"PortAudio missing ({exc}); install libportaudio2")
    try:
        devices = sounddevice.query_devices()
    except Exception as exc:
        return Check("audio devices", "warn", f"cannot list devices: {exc}")
    ins = sum(1 for d in devices if d["max_input_channels"] > 0)
    outs = sum(1 for d in devices if d["max_output_channels"] > 0)
    status: Status = "ok" if ins and outs else "warn"
    return Check("audio devices", status, f"{ins} input, {outs} output device(s)")


def check_ray(providers: Providers) -> list[Check]:
    """`engine = "ray"`: the cluster, then each Serve application by name."""
    from vac.daemon.engines import ray_spec
    from vac.speech.ray_probe import probe_in_child

    inference = providers.inference
    spec = ray_spec(inference, providers.stt, providers.tts)
    found = probe_in_child(spec, inference.connect_timeout_s)
    if found.error is not None:
        return [Check("ray", "fail", found.error)]
    checks = [
        Check(
            "ray",
            "ok",
            f"cluster at {inference.address}: {found.nodes} node(s), {found.cpus:g} CPU,"
            f" {found.gpus:g} GPU; ray {found.ray_version}",
        )
    ]
    for kind, app, enabled in (
        ("stt", inference.stt_app, providers.stt.enabled),
        ("tts", inference.tts_app, providers.tts.enabled),
    ):
        status = found.apps.get(app)
        if not enabled:
            checks.append(Check(kind, "off", "disabled in vac.toml"))
        elif status == "RUNNING":
            checks.append(Check(kind, "ok", f"Serve application {app!r} RUNNING"))
        elif inference.deploy:
            checks.append(
                Check(
                    kind,
                    "warn",
                    f"Serve application {app!r} is {status or 'not deployed'};"
                    " the daemon deploys it at start (deploy = true)",
                )
            )
        else:
            checks.append(
                Check(
                    kind,
                    "fail",
                    f"Serve application {app!r} is {status or 'not deployed'} and deploy = false",
                )
            )
    return checks


def preflight(home: Home, endpoint: str | None = None) -> list[Check]:
    from vac.daemon.keys import unreadable_enrolled

    checks = [_run("keys", lambda: check_keys(home)), _run("store", lambda: check_store(home))]
    if broken := unreadable_enrolled(home):
        said = ", ".join(broken)
        checks.insert(
            1,
            Check(
                "keys",
                "warn",
                f"{said} in {home.enrolled_dir} enrol(s) no one: not a Curve public key —"
                " enrol again ('vac keys enroll NAME --public FILE') or remove it",
            ),
        )
    try:
        config = load_config(home.config_file)
        providers = Providers.from_config(config)
    except ConfigError as exc:
        return [*checks, Check("config", "fail", str(exc))]
    checks.append(
        Check(
            "config",
            "ok",
            str(home.config_file) if home.config_file.exists() else "defaults (no vac.toml)",
        )
    )
    checks.append(_run("roster", lambda: check_roster(config)))
    if providers.inference.engine == "ray":
        checks += check_ray(providers)
    else:
        if providers.stt.enabled:
            checks.append(_run("stt", lambda: check_stt(providers)))
        else:
            checks.append(Check("stt", "off", "disabled in vac.toml"))
        if providers.tts.enabled:
            checks.append(_run("tts", lambda: check_tts(providers)))
        else:
            checks.append(Check("tts", "off", "disabled in vac.toml"))
    checks.append(_run("vad", lambda: check_vad(providers)))
    checks.append(check_endpoint(home, config, endpoint))
    checks.append(check_audio_devices())
    return checks
