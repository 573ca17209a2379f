"""`EventLog`: one connection to `vac.db`, opened safely, with every method on it.

The methods live in mixins by concern (`writes`, `reads`, `retention`); they
stay attributes of this class because callers pass them around unbound,
e.g. `store.call(EventLog.commit, step)`.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from vac.runtime.store.errors import unusable, writable
from vac.runtime.store.retention import EventLogRetention
from vac.runtime.store.schema import prepare, schema_version
from vac.runtime.store.transaction import Watched
from vac.runtime.store.writes import EventLogWrites


class EventLog(EventLogWrites, EventLogRetention):
    """Synchronous access to `vac.db`. Use from one thread at a time."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            writable(path)
            # isolation_level=None: we manage transactions explicitly.
            self._db = sqlite3.connect(
                path, isolation_level=None, check_same_thread=False, factory=Watched
            )
        except (sqlite3.Error, OSError) as exc:
            raise unusable(path, exc) from None
        try:
            prepare(self._db, path)
            self._db.watch(str(path))
        except (sqlite3.Error, OSError) as exc:
            self._db.close()
            raise unusable(path, exc) from None
        except BaseException:
            self._db.close()
            raise

    @property
    def schema_version(self) -> int:
        return schema_version(self._db)

    def close(self) -> None:
        self._db.close()
