"""One write transaction: all of it lands, or none of it and `StorageUnavailable`.

The connection is opened with `isolation_level=None`, so transactions are
begun and ended here explicitly rather than by the sqlite3 module.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator

from vac.runtime.store.errors import StorageUnavailable, write_failure_reason


@contextlib.contextmanager
def writing(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One write transaction: all of it lands, or none of it and `StorageUnavailable`."""
    try:
        # IMMEDIATE takes the write lock up front, so a busy database
        # fails here (after busy_timeout) rather than halfway through.
        db.execute("BEGIN IMMEDIATE")
        yield db
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
