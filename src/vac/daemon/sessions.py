"""The daemon's table of sessions and connections: pure bookkeeping.

No sockets, no tasks, no clock (the caller passes the time): the server
feeds lifecycle events here (`feed`), carries out the I/O actions they
return itself, and calls back for the bookkeeping ones (`attach`, `unbind`,
`release`, `forget`). Everything is bounded: detached sessions, silenced
routing ids and routing-id owners are least-recently-used first out.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Final

from vac.lifecycle.session import Action, SessionEvent, step
from vac.runtime.session import Session

MAX_SILENCED: Final = 4096
# Per-connection state kept for connections without a session (routing-id
# owners; the early gates of `quotas`): least recently used first out.
MAX_TRACKED_CONNECTIONS: Final = 4096


class SessionTable:
    def __init__(self, *, max_detached_per_principal: int, max_detached: int) -> None:
        self.max_detached_per_principal = max_detached_per_principal
        self.max_detached = max_detached
        self.by_id: dict[str, Session] = {}
        self.by_conn: dict[bytes, Session] = {}
        # Detached sessions kept for resume, oldest first.
        self._detached: OrderedDict[str, None] = OrderedDict()
        # Routing ids of revoked keys: their traffic is dropped unread.
        self._silenced: OrderedDict[bytes, None] = OrderedDict()
        # Routing id -> the principal that first used it (see `owner_of`).
        self._owners: OrderedDict[bytes, str] = OrderedDict()

    # ---------------------------------------------------------- lifecycle

    def feed(self, session: Session, event: SessionEvent) -> tuple[Action, ...]:
        """Move `session` by `event`; the actions the shell carries out, in order."""
        session.state, actions = step(session.state, event)
        return actions

    def add(self, session: Session) -> None:
        self.by_id[session.id] = session

    def attach(self, session: Session, rid: bytes, now_s: float) -> None:
        """Bind to `rid` (off any other connection); output starts at seq 0."""
        if session.connection is not None and session.connection != rid:
            self.by_conn.pop(session.connection, None)
        session.outbox.clear()
        session.connection = rid
        session.seq = 0
        session.last_seen_s = now_s
        self.by_conn[rid] = session
        # Evicted while its resume was answered: it is in the table again.
        self.by_id.setdefault(session.id, session)
        self.remember_owner(rid, session.principal)
        self._detached.pop(session.id, None)

    def unbind(self, session: Session) -> list[Session]:
        """Off its connection, kept for resume. Returns the sessions now over
        the bounds (oldest first), for the caller to evict."""
        self.release(session)
        self._detached[session.id] = None
        # Per principal first (one principal's churn never pushes out
        # another's sessions), then overall. Evicted sessions still resume
        # from the event log.
        mine = [s for s in self._kept() if s.principal == session.principal]
        over = mine[: max(0, len(mine) - self.max_detached_per_principal)]
        rest = [s for s in self._kept() if s not in over]
        return over + rest[: max(0, len(rest) - self.max_detached)]

    def release(self, session: Session) -> None:
        """Off its connection; a `bye` also takes it out of the table."""
        if session.connection is not None:
            self.by_conn.pop(session.connection, None)
            # The routing id stays bound to its principal after the session leaves it.
            self.remember_owner(session.connection, session.principal)
        session.connection = None
        session.outbox.clear()
        if session.ended:
            self.forget(session.id)

    def forget(self, session_id: str) -> None:
        self._detached.pop(session_id, None)
        self.by_id.pop(session_id, None)

    def _kept(self) -> list[Session]:
        return [self.by_id[sid] for sid in self._detached if sid in self.by_id]

    # ------------------------------------------------------------ queries

    def get(self, session_id: str) -> Session | None:
        return self.by_id.get(session_id)

    def on(self, rid: bytes) -> Session | None:
        """The session bound to this connection, if any."""
        return self.by_conn.get(rid)

    def holds(self, session_id: str) -> bool:
        return session_id in self.by_id

    def kept(self, session_id: str) -> bool:
        """Whether it is detached and kept for resume."""
        return session_id in self._detached

    def attached(self) -> list[Session]:
        return [s for s in self.by_id.values() if s.attached]

    def attached_of(self, principal: str) -> list[Session]:
        return [s for s in self.by_id.values() if s.principal == principal and s.attached]

    # -------------------------------------------------------- connections

    def silence(self, rid: bytes) -> None:
        self._silenced[rid] = None
        while len(self._silenced) > MAX_SILENCED:
            self._silenced.popitem(last=False)

    def silenced(self, rid: bytes) -> bool:
        return rid in self._silenced

    def owner_of(self, rid: bytes, principal: str, session: Session | None) -> str:
        """The principal this routing id is bound to: the first that used it.

        A client chooses its routing id (ZMQ_ROUTING_ID) and libzmq reuses
        it for whoever connects with it once its holder has gone, so the
        routing id is never identity (§1). A session's connection belongs
        to the session's principal; otherwise the first principal seen on
        the routing id owns it (remembered for MAX_TRACKED_CONNECTIONS ids).
        """
        if session is not None:
            return session.principal
        owner = self._owners.setdefault(rid, principal)
        self.remember_owner(rid, owner)
        return owner

    def owner(self, rid: bytes) -> str | None:
        return self._owners.get(rid)

    def remember_owner(self, rid: bytes, principal: str) -> None:
        self._owners[rid] = principal
        self._owners.move_to_end(rid)
        while len(self._owners) > MAX_TRACKED_CONNECTIONS:
            self._owners.popitem(last=False)
