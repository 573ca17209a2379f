"""The embedded SQLite event log: sessions, conversation, objectives, audit.

One file in the home (`vac.db`), WAL mode so the CLI can read and write while
the daemon runs. The schema is versioned with `PRAGMA user_version` and
migrated forward on open. Raw audio is never stored here — only text,
objectives and audit facts.

`EventLog` is synchronous; the daemon wraps it in `AsyncEventLog`, which runs
every call on one dedicated thread so SQLite never blocks the event loop.

Every write is one transaction that either lands whole or raises
`StorageUnavailable` with nothing of it applied ("write, then acknowledge":
the daemon answers a client only after `commit` returns). A file that cannot
be used at all raises `StoreError` when it is opened.

One concern per module, each importing only those before it in this list:

- `errors`: `StoreError`, `StorageUnavailable`, and the words for why.
- `rows`: the structs written: what one client message changed (`Step` and
  its rows), and a closed input stream (`StreamRow`).
- `transaction`: one all-or-nothing write transaction.
- `schema`: the migrations, the checks made before touching a file, and
  `inspect` (read-only, for `vac preflight`).
- `writes`, `reads`, `retention`: the `EventLog` methods, as mixins.
- `log`: `EventLog` itself (open, close).
- `async_log`: `AsyncEventLog`, the one-thread wrapper.

Import from `vac.runtime.store`; the modules behind it may move.
"""

from __future__ import annotations

from vac.runtime.store.async_log import AsyncEventLog
from vac.runtime.store.errors import StorageUnavailable, StoreError
from vac.runtime.store.log import EventLog
from vac.runtime.store.rows import AuditRow, ObjectiveRow, Outcome, Said, Step, StreamRow
from vac.runtime.store.schema import MIGRATIONS, SCHEMA_VERSION, inspect

__all__ = [
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "AsyncEventLog",
    "AuditRow",
    "EventLog",
    "ObjectiveRow",
    "Outcome",
    "Said",
    "Step",
    "StorageUnavailable",
    "StoreError",
    "StreamRow",
    "inspect",
]
