"""A real full file system for the tests: a small tmpfs, filled to the last byte."""

from __future__ import annotations

import contextlib
import errno
import os
import subprocess
from pathlib import Path


class SmallFs(type(Path())):  # type: ignore[misc]
    """A mounted tmpfs directory that knows how to unmount itself."""

    def unmount(self) -> None:
        subprocess.run(["umount", "-l", str(self)], check=False, capture_output=True)


def mount_small_fs(where: Path, *, size_kib: int) -> SmallFs | None:
    """Mount a tmpfs of `size_kib` at `where`; None where that is not allowed."""
    where.mkdir(parents=True, exist_ok=True)
    try:
        res = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size_kib}k,mode=0700", "tmpfs", str(where)],
            capture_output=True,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return SmallFs(where) if res.returncode == 0 else None


class FullDisk:
    """While inside, the file system has no free byte (a filler file takes it)."""

    def __init__(self, root: Path) -> None:
        self.filler = root / "filler"

    def fill(self) -> None:
        block = b"\0" * 4096
        with open(self.filler, "ab", buffering=0) as fh:
            with contextlib.suppress(OSError):
                while True:
                    fh.write(block)
            # Top up byte by byte: tmpfs gives out pages, but be thorough.
            with contextlib.suppress(OSError):
                while True:
                    fh.write(b"\0")

    def free(self, nbytes: int | None = None) -> None:
        if nbytes is None:
            with contextlib.suppress(FileNotFoundError):
                self.filler.unlink()
            return
        size = self.filler.stat().st_size
        os.truncate(self.filler, max(0, size - nbytes))

    def __enter__(self) -> FullDisk:
        self.fill()
        return self

    def __exit__(self, *exc: object) -> None:
        self.free()


def is_full(exc: OSError) -> bool:
    return exc.errno == errno.ENOSPC
