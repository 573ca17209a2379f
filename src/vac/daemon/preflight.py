"""`vac preflight`: check every declared provider, the keys and the endpoint.

Reports each by name with what to do about it. Never installs, downloads or
repairs anything: a missing model is reported, not fetched.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from vac.daemon.config import ConfigError, VacConfig, load_config
from vac.daemon.engines import ProviderMissing, Providers
from vac.home import Home, HomeError, check_secret_file

Status = Literal["ok", "fail", "warn", "off"]


@dataclass(frozen=True)
class Check:
    name: str
    status: Status
    detail: str


def _run(name: str, fn: Callable[[], str]) -> Check:
    try:
        return Check(name, "ok", fn())
    except (ProviderMissing, HomeError, ConfigError) as exc:
        return Check(name, "fail", str(exc))
    except Exception as exc:  # a broken model file etc.: reported, never raised
        return Check(name, "fail", f"{type(exc).__name__}: {exc}")


def check_keys(home: Home) -> str:
    from vac.daemon.keys import list_enrolled

    if not home.server_secret.exists():
        raise HomeError(f"no server key at {home.server_public} — run 'vac keys init'")
    check_secret_file(home.server_secret)
    enrolled = list_enrolled(home)
    return f"server key {home.server_public}; {len(enrolled)} principal(s) enrolled"


def check_stt(providers: Providers) -> str:
    from vac.daemon.engines import refuse_remote, stt_model_dir
    from vac.speech.stt import SttConfig, SttModelMissing, WhisperStt

    section = providers.stt
    refuse_remote("stt", section.egress)
    try:
        path = stt_model_dir(section)
        WhisperStt(SttConfig(model_dir=str(path), cpu_threads=1))
    except SttModelMissing as exc:
        raise ProviderMissing(f"{exc}") from None
    return f"{section.provider} ({section.egress}) {path}, {section.compute_type}, loads"


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


def check_endpoint(home: Home, config: VacConfig, endpoint: str | None) -> Check:
    uri = endpoint or config.daemon.endpoint
    if not uri.startswith(("tcp://", "ipc://")):
        return Check("endpoint", "fail", f"{uri}: use tcp://HOST:PORT or ipc://PATH")
    from vac.daemon.main import daemon_running

    running = daemon_running(home)
    return Check(
        "endpoint", "ok", f"{uri}" + (" (a daemon is running on this home)" if running else "")
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


def preflight(home: Home, endpoint: str | None = None) -> list[Check]:
    checks = [_run("keys", lambda: check_keys(home))]
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
