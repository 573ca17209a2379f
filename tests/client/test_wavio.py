"""Reading input WAVs (16 kHz mono s16le only) and writing reply WAVs."""

from __future__ import annotations

import wave
from pathlib import Path

import pytest

from vac.client.wavio import WavError, read_input_wav, write_wav

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "audio"


def make_wav(
    path: Path, *, channels: int = 1, width: int = 2, rate: int = 16000, frames: int = 320
) -> Path:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(channels)
        w.setsampwidth(width)
        w.setframerate(rate)
        w.writeframes(b"\x01" * (frames * channels * width))
    return path


def test_reads_a_fixture() -> None:
    audio = read_input_wav(FIXTURES / "yes.joe.wav")
    assert audio.rate_hz == 16000
    assert len(audio.pcm) % 2 == 0 and audio.duration_ms > 100


def test_duration_ms(tmp_path: Path) -> None:
    assert read_input_wav(make_wav(tmp_path / "a.wav", frames=16000)).duration_ms == 1000


@pytest.mark.parametrize(
    ("kw", "found"),
    [
        ({"rate": 22050}, "1 ch, 16-bit, 22050 Hz"),
        ({"channels": 2}, "2 ch, 16-bit, 16000 Hz"),
        ({"width": 1}, "1 ch, 8-bit, 16000 Hz"),
        ({"width": 3, "rate": 48000}, "1 ch, 24-bit, 48000 Hz"),
    ],
)
def test_refuses_other_formats_naming_file_and_format(
    tmp_path: Path, kw: dict[str, int], found: str
) -> None:
    path = make_wav(tmp_path / "odd.wav", **kw)
    with pytest.raises(WavError) as exc:
        read_input_wav(path)
    message = str(exc.value)
    assert str(path) in message and found in message and "\n" not in message


def test_refuses_a_file_that_is_not_a_wav(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("hello")
    with pytest.raises(WavError, match="not a PCM WAV"):
        read_input_wav(path)


def test_refuses_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(WavError, match="no such file"):
        read_input_wav(tmp_path / "gone.wav")


def test_refuses_a_directory_by_name(tmp_path: Path) -> None:
    with pytest.raises(WavError, match="a directory, not a WAV file") as refused:
        read_input_wav(tmp_path)
    assert "Errno" not in str(refused.value)  # it read "[Errno 21] Is a directory"


def test_refuses_an_empty_wav(tmp_path: Path) -> None:
    with pytest.raises(WavError, match="no audio"):
        read_input_wav(make_wav(tmp_path / "empty.wav", frames=0))


def test_write_wav_round_trips_at_the_given_rate(tmp_path: Path) -> None:
    path = tmp_path / "reply-1.wav"
    write_wav(path, b"\x00\x01" * 2205, 22050)
    with wave.open(str(path), "rb") as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, 22050)
        assert w.readframes(w.getnframes()) == b"\x00\x01" * 2205


def extensible_wav(path: Path, *, bits: int = 16, subformat: int = 1, frames: int = 160) -> Path:
    """A WAVE_FORMAT_EXTENSIBLE file, as sox and ffmpeg write some."""
    import struct

    block = bits // 8
    fmt = struct.pack("<HHIIHH", 0xFFFE, 1, 16000, 16000 * block, block, bits)
    guid_tail = b"\x00\x00\x00\x00\x10\x00\x80\x00\x00\xaa\x00\x38\x9b\x71"
    fmt += struct.pack("<HHI", 22, bits, 4) + struct.pack("<H", subformat) + guid_tail
    data = b"\x01\x00" * frames * (block // 2 or 1)
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt
    body += b"data" + struct.pack("<I", len(data)) + data
    path.write_bytes(b"RIFF" + struct.pack("<I", len(body)) + body)
    return path


def test_pcm_in_an_extensible_header_is_read(tmp_path: Path) -> None:
    """A user probe's 16 kHz mono 16-bit WAV in the extensible format was
    refused as 'not a PCM WAV (unknown format: 65534)'."""
    audio = read_input_wav(extensible_wav(tmp_path / "ext.wav"))
    assert (audio.rate_hz, len(audio.pcm)) == (16000, 320)
    with pytest.raises(WavError, match="1 ch, 24-bit, 16000 Hz; the transport sends"):
        read_input_wav(extensible_wav(tmp_path / "b24.wav", bits=24))
    with pytest.raises(WavError, match="not a PCM WAV"):  # float in the extensible header
        read_input_wav(extensible_wav(tmp_path / "f32.wav", bits=32, subformat=3))
