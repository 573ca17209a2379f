"""Reading the transport's input WAVs and writing reply WAVs (stdlib `wave`).

VAC/1 input is PCM s16le, mono, 16 kHz (PROTOCOL §4). The transport refuses
anything else rather than converting: a scripted test that silently
resampled would measure the resampler, not the daemon.
"""

from __future__ import annotations

import wave
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from vac.client.connection import ClientError
from vac.client.pacing import SAMPLE_BYTES

INPUT_RATE_HZ: Final = 16000


class WavError(ClientError):
    """A WAV the transport cannot send; the message names the file and its format."""


@dataclass(frozen=True)
class PcmAudio:
    pcm: bytes
    rate_hz: int

    @property
    def duration_ms(self) -> int:
        return len(self.pcm) * 1000 // (SAMPLE_BYTES * self.rate_hz)


def describe_format(channels: int, sample_bytes: int, rate_hz: int) -> str:
    return f"{channels} ch, {sample_bytes * 8}-bit, {rate_hz} Hz"


def read_input_wav(path: Path) -> PcmAudio:
    """The PCM of a 16 kHz mono s16le WAV; anything else is a `WavError`."""
    try:
        with wave.open(str(path), "rb") as w:
            channels, sample_bytes, rate_hz = w.getnchannels(), w.getsampwidth(), w.getframerate()
            frames = w.readframes(w.getnframes())
    except FileNotFoundError:
        raise WavError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise WavError(f"{path}: a directory, not a WAV file") from None
    except (wave.Error, EOFError, OSError) as exc:
        # `wave` refuses non-PCM encodings (e.g. float, A-law) with wave.Error,
        # and (before Python 3.12) PCM in the extensible header that sox and
        # ffmpeg write for some files: that one is read here.
        extensible = _extensible_pcm(path) if "65534" in str(exc) else None
        if extensible is None:
            why = str(exc) or ("the file ends early" if isinstance(exc, EOFError) else "")
            raise WavError(f"{path}: not a PCM WAV" + (f" ({why})" if why else "")) from None
        channels, sample_bytes, rate_hz, frames = extensible
    if (channels, sample_bytes, rate_hz) != (1, SAMPLE_BYTES, INPUT_RATE_HZ):
        found = describe_format(channels, sample_bytes, rate_hz)
        raise WavError(f"{path}: {found}; the transport sends 1 ch, 16-bit, 16000 Hz only")
    if not frames:
        raise WavError(f"{path}: 1 ch, 16-bit, 16000 Hz but no audio frames")
    return PcmAudio(frames, rate_hz)


# WAVE_FORMAT_EXTENSIBLE's sub-format for integer PCM: its first two bytes
# are the plain format tag 1 (KSDATAFORMAT_SUBTYPE_PCM).
_PCM_SUBFORMAT_TAG: Final = 1


def _extensible_pcm(path: Path) -> tuple[int, int, int, bytes] | None:
    """(channels, sample bytes, rate, frames) of an extensible-header WAV
    holding integer PCM; None for anything else (float, unreadable)."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        return None
    fmt: bytes | None = None
    frames: bytes | None = None
    at = 12
    while at + 8 <= len(data):
        chunk, size = data[at : at + 4], int.from_bytes(data[at + 4 : at + 8], "little")
        body = data[at + 8 : at + 8 + size]
        if chunk == b"fmt ":
            fmt = body
        elif chunk == b"data":
            frames = body
        at += 8 + size + (size & 1)  # chunks are word-aligned
    if fmt is None or frames is None or len(fmt) < 26:
        return None
    channels = int.from_bytes(fmt[2:4], "little")
    rate_hz = int.from_bytes(fmt[4:8], "little")
    bits = int.from_bytes(fmt[14:16], "little")
    if int.from_bytes(fmt[24:26], "little") != _PCM_SUBFORMAT_TAG or bits % 8:
        return None
    return channels, bits // 8, rate_hz, frames


def write_wav(path: Path, pcm: bytes, rate_hz: int) -> None:
    """Write mono s16le PCM as a WAV (reply audio at the negotiated rate)."""
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(SAMPLE_BYTES)
        w.setframerate(rate_hz)
        w.writeframes(pcm)
