"""One write transaction: all of it lands, or none of it and `StorageUnavailable`.

The connection is opened with `isolation_level=None`, so transactions are
begun and ended here explicitly rather than by the sqlite3 module.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sqlite3
from collections.abc import Iterator

from vac.runtime.store.errors import StorageUnavailable, write_failure_reason


class Watched(sqlite3.Connection):
    """A connection that knows its file (`watch`): a write to a `vac.db`
    deleted or replaced while the daemon runs fails, never lands in a file no
    one will read again (a durability probe: after `rm vac.db` a confirm and
    a draft were acknowledged, and lost at the restart)."""

    _file: tuple[str, int, int] | None = None

    def watch(self, path: str) -> None:
        st = os.stat(path)
        self._file = (path, st.st_dev, st.st_ino)

    def still_there(self) -> None:
        if self._file is None:
            return
        path, dev, ino = self._file
        try:
            st = os.stat(path)
        except FileNotFoundError:
            st = None
        if st is None or (st.st_dev, st.st_ino) != (dev, ino):
            raise OSError(errno.ENOENT, "the database file was removed or replaced")


@contextlib.contextmanager
def writing(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One write transaction: all of it lands, or none of it and `StorageUnavailable`."""
    try:
        # IMMEDIATE takes the write lock up front, so a busy database
        # fails here (after busy_timeout) rather than halfway through.
        db.execute("BEGIN IMMEDIATE")
        yield db
        if isinstance(db, Watched):
            db.still_there()
        db.execute("COMMIT")
    except (sqlite3.Error, OSError) as exc:
        rollback(db)
        raise StorageUnavailable(
            f"the event log could not be written ({write_failure_reason(exc)})"
        ) from None
    except BaseException:
        rollback(db)
        raise


def rollback(db: sqlite3.Connection) -> None:
    # SQLite may already have rolled back (it does on some SQLITE_FULL
    # errors), and on a full disk ROLLBACK itself may fail: the caller's
    # error is the one worth raising.
    if db.in_transaction:
        with contextlib.suppress(sqlite3.Error):
            db.execute("ROLLBACK")
