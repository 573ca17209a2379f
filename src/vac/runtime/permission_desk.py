"""Open permission-requests (PROTOCOL §9): bookkeeping only, bounded.

`permissions.py` plans the answers; this module only knows what is open,
and what became of the last `MAX_CLOSED` requests that closed, so that an
answer to one is told what happened (answered, expired) in plain words.

§6 has no code for squad messages. A request that is not open is
`objective_unknown`, like an objective that is no longer pending, with the
same shape (`details.status` says what it became): it is never
`invalid_message`, which says the message itself was malformed.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

import msgspec

from vac.protocol.errors import ProtocolError
from vac.protocol.messages import SquadMessage

# Open requests per asking principal: one more is `rate_limited` (planned
# in `permissions.py`). Without it one agent's requests, past a daemon-wide
# bound, closed every other agent's (a probe: 300 of zuri's in 1.5 s
# expired kofi's, and a steward's grant of it was `objective_unknown`).
MAX_OPEN_PER_ASKER: Final = 64
# All open requests: past it the oldest of whoever has the most open closes.
MAX_OPEN: Final = 256
MAX_CLOSED: Final = 1024  # closed requests remembered (not across a restart)
OPEN_FOR_S: Final = 24 * 3600.0
# The audit rows that close a request for good (a restart leaves it closed).
CLOSING_KINDS: Final = ("permission_answered", "permission_withdrawn")
# What became of a closed request: its answer, its withdrawal, or its time ran out.
ClosedAs = Literal["granted", "denied", "withdrawn", "expired"]


@dataclass(frozen=True)
class OpenRequest:
    message_id: str
    asked_by: str  # the agent that asks
    text: str
    opened_s: float
    # The household's copy (no `ref`, no `turn`), sent again to a steward
    # session (or an agent asked) that attaches while the request is open.
    message: SquadMessage | None = None
    # The principal that asked (its key's), whose bound it counts against.
    principal: str = ""

    @property
    def asker(self) -> str:
        return self.principal or self.asked_by.lower()

    def asked_of(self, agent: str) -> bool:
        """Whether the request names `agent` among its recipients (`to`):
        that agent may answer it, besides the stewards."""
        recipients = self.message.recipients if self.message is not None else []
        return agent.lower() in {r.lower() for r in recipients if r != "steward"}


# Who may see a request (closing it, or hearing what became of it); the
# rest are told what an unknown id is told. None: everyone (a steward).
Seen = Callable[[OpenRequest], bool] | None


class PermissionDesk:
    def __init__(self) -> None:
        self._open: OrderedDict[str, OpenRequest] = OrderedDict()
        self._closed: OrderedDict[str, tuple[OpenRequest, ClosedAs]] = OrderedDict()

    def open(self, request: OpenRequest) -> None:
        """Open it; past the bounds a request closes as expired: the asker's
        own oldest past `MAX_OPEN_PER_ASKER` (a reopen, a restart), and past
        `MAX_OPEN` the oldest of whoever has the most open, never another's
        while one's own are more."""
        self._closed.pop(request.message_id, None)
        self._open[request.message_id] = request
        if self.open_by(request.asker) > MAX_OPEN_PER_ASKER:
            self._close_oldest_of(request.asker)
        while len(self._open) > MAX_OPEN:
            counts = Counter(r.asker for r in self._open.values())
            self._close_oldest_of(counts.most_common(1)[0][0])

    def open_by(self, asker: str, now_s: float | None = None) -> int:
        """How many requests `asker` (a principal) has open."""
        if now_s is not None:
            self._expire(now_s)
        return sum(1 for r in self._open.values() if r.asker == asker)

    def _close_oldest_of(self, asker: str) -> None:
        oldest = next(mid for mid, r in self._open.items() if r.asker == asker)
        self._close(self._open.pop(oldest), "expired")

    def _close(self, request: OpenRequest, closed_as: ClosedAs) -> None:
        self._closed[request.message_id] = (request, closed_as)
        while len(self._closed) > MAX_CLOSED:
            self._closed.popitem(last=False)

    def _expire(self, now_s: float) -> None:
        for mid, req in list(self._open.items()):
            if now_s - req.opened_s > OPEN_FOR_S:
                del self._open[mid]
                self._close(req, "expired")

    def take(
        self, message_id: str, now_s: float, closed_as: ClosedAs, seen: Seen = None
    ) -> OpenRequest:
        """Close an open request to answer or withdraw it. One that is not open is
        `objective_unknown` saying what became of it; one not `seen` by
        whoever closes it, open or not, gets the answer an unknown id gets."""
        self._expire(now_s)
        request = self._open.get(message_id)
        if request is not None and (seen is None or seen(request)):
            del self._open[message_id]
            self._close(request, closed_as)
            return request
        closed = self._closed.get(message_id)
        if request is None and closed is not None and (seen is None or seen(closed[0])):
            raise not_open(message_id, closed[1])
        raise not_open(message_id, None)

    def reopen(self, request: OpenRequest) -> None:
        """The answer was not written: the request is open again."""
        self.open(request)

    def all_open(self, now_s: float) -> list[OpenRequest]:
        """Every open request, oldest first."""
        self._expire(now_s)
        return list(self._open.values())

    def sole(self, now_s: float) -> OpenRequest | None:
        """The one open request, if exactly one is open (a spoken yes/no answers it)."""
        self._expire(now_s)
        if len(self._open) != 1:
            return None
        return next(iter(self._open.values()))

    def __len__(self) -> int:
        return len(self._open)


def not_open(message_id: str, closed_as: ClosedAs | None) -> ProtocolError:
    """The answer to naming a request that is not open: what became of it,
    when this daemon saw it close; else the same as for one never asked."""
    details: dict[str, Any] = {"message": message_id}
    if closed_as is None:
        what = "no open permission-request has that id (none was asked with it, or it closed"
        what += " before the daemon last started)"
        return ProtocolError("objective_unknown", what, details=details)
    details["status"] = closed_as
    if closed_as == "expired":
        what = "that permission-request expired unanswered (a request stays open 24 hours)"
    elif closed_as == "withdrawn":
        what = "that permission-request was withdrawn by the agent that asked"
    else:
        what = f"that permission-request was answered already: {closed_as}"
    return ProtocolError("objective_unknown", what, details=details)


def still_open(rows: Iterable[Mapping[str, Any]], now_ms: int, now_s: float) -> list[OpenRequest]:
    """The requests a restart must open again, oldest first: asked (an audit
    row `permission_requested`) less than `OPEN_FOR_S` ago and not answered
    or withdrawn (`permission_answered`, `permission_withdrawn` for the same
    message), each asker's newest `MAX_OPEN_PER_ASKER`. `rows` are audit rows
    in the order they were written (an iterator will do: only what is open
    is kept); `now_s` is the monotonic clock the desk counts in, so each
    request keeps its age."""
    asked: OrderedDict[str, OpenRequest] = OrderedDict()
    per_asker: Counter[str] = Counter()
    for row in rows:
        mid = row["detail"].get("message_id")
        if not isinstance(mid, str):
            continue
        if row["kind"] in CLOSING_KINDS:
            if (closed := asked.pop(mid, None)) is not None:
                per_asker[closed.asker] -= 1
            continue
        age_s = max(0, now_ms - int(row["at_ms"])) / 1000.0
        if row["kind"] == "permission_requested" and age_s <= OPEN_FOR_S:
            detail = row["detail"]
            request = OpenRequest(
                mid,
                str(detail.get("asked_by", "")),
                str(detail.get("text", "")),
                now_s - age_s,
                _message(detail.get("message")),
                str(row.get("principal") or ""),
            )
            if (again := asked.pop(mid, None)) is not None:
                per_asker[again.asker] -= 1
            asked[mid] = request
            per_asker[request.asker] += 1
            if per_asker[request.asker] > MAX_OPEN_PER_ASKER:
                del asked[next(m for m, r in asked.items() if r.asker == request.asker)]
                per_asker[request.asker] -= 1
    return list(asked.values())


def _message(stored: object) -> SquadMessage | None:
    """The household's copy as the audit row kept it (None from older rows)."""
    try:
        return msgspec.convert(stored, SquadMessage) if stored is not None else None
    except msgspec.ValidationError:
        return None
