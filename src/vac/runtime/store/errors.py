"""What the event log raises, and the words it uses for why.

Two failures, two audiences: `StoreError` is for the operator opening the
file (it names the path), `StorageUnavailable` may reach a client (it names
nothing, and says to retry).
"""

from __future__ import annotations

import errno
import os
import sqlite3
from pathlib import Path
from typing import Final

from vac.errors import ErrorCode, VacError

# SQLite primary result codes whose meaning we can say without paths or data.
_WRITE_REASONS: Final[dict[int, str]] = {
    sqlite3.SQLITE_FULL: "database or disk is full",
    sqlite3.SQLITE_IOERR: "disk I/O error",
    sqlite3.SQLITE_READONLY: "the database is read-only",
    sqlite3.SQLITE_BUSY: "the database stayed locked",
    sqlite3.SQLITE_LOCKED: "the database stayed locked",
    sqlite3.SQLITE_CANTOPEN: "the database file cannot be opened",
    sqlite3.SQLITE_PERM: "permission denied",
    sqlite3.SQLITE_NOMEM: "out of memory",
    sqlite3.SQLITE_CORRUPT: "the database file is damaged",
    sqlite3.SQLITE_NOTADB: "the database file is damaged",
    sqlite3.SQLITE_CONSTRAINT: "a row broke a constraint",
}
_DAMAGED: Final = (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)


class StoreError(VacError):
    """`vac.db` cannot be used at all (damaged, not ours, too new, unreadable).

    The message is one line naming the file and what to do about it.
    """


class StorageUnavailable(VacError):
    """A write did not land; nothing of it was applied.

    The message is one line without paths or data: it may reach a client,
    as `provider_unavailable {provider: storage}` (retryable).
    """

    code: ErrorCode = "provider_unavailable"

    def __init__(self, reason: str) -> None:
        # `str(exc)` keeps the reason for the operator's log; a client is
        # told only that nothing was written and that it may try again.
        super().__init__(
            "the event log could not be written; nothing was changed, try again",
            details={"provider": "storage", "retry_after_ms": 1000},
        )
        self.args = (reason,)


def write_failure_reason(exc: BaseException) -> str:
    """Why a write failed, in words that carry no path and no data."""
    if isinstance(exc, OSError):
        return exc.strerror or type(exc).__name__
    code = getattr(exc, "sqlite_errorcode", None)
    if code is None:
        return type(exc).__name__
    return _WRITE_REASONS.get(code & 0xFF) or str(getattr(exc, "sqlite_errorname", code))


def damaged(path: Path, what: str) -> StoreError:
    """The one-line StoreError for a vac.db whose pages or rows are damaged."""
    what = " ".join(what.split())  # SQLite's report spans lines: one line
    return StoreError(
        f"{path} is damaged ({what}) — stop the daemon, move it and its -wal/-shm"
        " files aside (vac starts a new one) or restore a backup"
    )


def unusable(path: Path, exc: sqlite3.Error | OSError) -> StoreError:
    """The one-line StoreError for a vac.db that could not be opened."""
    reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    reason = " ".join(reason.split())
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None and code & 0xFF in _DAMAGED:
        # A stale -wal next to a new file would be replayed into it.
        return StoreError(
            f"{path} is not a vac event log ({reason}) — move it and its -wal/-shm files"
            " aside (vac starts a new one) or restore a backup"
        )
    return StoreError(
        f"{path} cannot be opened ({reason}) — check its permissions and free disk space,"
        " then retry"
    )


def writable(path: Path) -> None:
    """A StoreError unless this user may write `path` (when it exists) and its
    directory (SQLite's -wal/-shm go there). Checked before opening: SQLite
    opens a file it may not write read-only without a word (a daemon that
    would then refuse every decision), and an immutable file (`chattr +i`)
    only fails once opened for writing."""
    for target, what in ((path, "the file"), (path.parent, "its directory")):
        if target.exists() and not os.access(target, os.W_OK | (os.X_OK if target.is_dir() else 0)):
            raise unusable(path, OSError(errno.EACCES, f"{what} is not writable by this user"))
