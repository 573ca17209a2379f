"""Fixture audio: the manifest and its WAV files as raw s16le bytes."""

from __future__ import annotations

import json
import wave
from dataclasses import dataclass
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@dataclass(frozen=True)
class Fixture:
    name: str
    text: str
    voice: str
    duration_ms: int
    speech: bool
    pcm: bytes


def load_fixtures() -> list[Fixture]:
    manifest = json.loads((FIXTURES / "manifest.json").read_text())
    out = []
    for entry in manifest["files"]:
        with wave.open(str(FIXTURES / entry["file"])) as w:
            assert (w.getframerate(), w.getnchannels(), w.getsampwidth()) == (16_000, 1, 2)
            pcm = w.readframes(w.getnframes())
        name = Path(entry["file"]).name.removesuffix(".wav")
        out.append(
            Fixture(name, entry["text"], entry["voice"], entry["duration_ms"], entry["speech"], pcm)
        )
    return out
