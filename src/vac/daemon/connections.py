"""Which connection a routing id is, and when it closed.

A client may choose its routing id (`ZMQ_ROUTING_ID`), and libzmq gives the
same id to a second peer once the first one's connection is gone. Output
for the first peer's session must never reach the second (PROTOCOL §1: the
routing id is never identity). libzmq's `ZMQ_ROUTER_NOTIFY` would say when
a peer leaves, but it is a draft option the wheels do not build; the
socket monitor is stable. So every message read records the file
descriptor of the connection it came on (`ZMQ_SRCFD`), the monitor's
`DISCONNECTED` events name the descriptors that closed (and `ACCEPTED` the
ones opened again), and a routing id whose connection closed gets nothing
more until a message arrives on it from a connection accepted since (from
whichever peer now holds it; a new principal takes it over,
`server._take_over`). A message the closed peer sent before it closed can
still be read after its close: it is handled, and the id stays closed (a
review: it reopened the id, and the session's `bye {idle}` went to the next
peer on it).

Why the order holds: libzmq emits `DISCONNECTED` from the I/O thread
before it closes the descriptor and before a second peer can hold the id,
and every event is read before each send and each message handled, so a
closing is known before anything could go to a newcomer. The monitor's
queue is unbounded on the reading side (`RCVHWM` 0: at its default a flood
of connections filled it, and libzmq's I/O thread blocked the whole socket
until it was read) and is read every `READ_EVERY_S` as well, so it stays
short. Bounded: ids and descriptors are remembered least-recently-used
first out.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any, Final

import zmq
from zmq.utils.monitor import parse_monitor_message

from vac.logs import get_logger

log = get_logger("vac.server")

# Connections remembered (routing id → descriptor), and closed ids kept.
MAX_CONNECTIONS: Final = 16_384
MAX_CLOSED: Final = 16_384
# How often the monitor is read when nothing else reads it.
READ_EVERY_S: Final = 0.05


class ConnectionWatch:
    """Routing ids, the descriptor each one's last message came on, and the
    ids whose connection has closed since. Used from the event loop only."""

    def __init__(self, sock: zmq.Socket[Any], ctx: zmq.Context[Any]) -> None:
        address = f"inproc://vac-monitor-{id(self):x}"
        sock.monitor(address, zmq.EVENT_DISCONNECTED | zmq.EVENT_ACCEPTED)
        # A plain (not asyncio) socket on the same context: read with NOBLOCK.
        self._events: zmq.Socket[bytes] = zmq.Context.shadow(ctx.underlying).socket(zmq.PAIR)
        self._events.setsockopt(zmq.RCVHWM, 0)  # never block libzmq's I/O thread
        self._events.connect(address)
        self._sock = sock
        self._fd_of: OrderedDict[bytes, int] = OrderedDict()
        self._ids_on: dict[int, set[bytes]] = {}  # descriptor → ids whose last message came on it
        self._closed: OrderedDict[bytes, None] = OrderedDict()
        self._closed_fds: OrderedDict[int, None] = OrderedDict()  # not accepted again since

    def seen(self, rid: bytes, frame: zmq.Frame) -> None:
        """A message came on `rid`: its connection is the one it came on."""
        self.drain()  # a closing read first: the descriptor may be reused
        try:
            fd = int(frame.get(zmq.SRCFD))
        except (zmq.ZMQError, TypeError, ValueError):  # pragma: no cover - inproc
            return
        if fd in self._closed_fds:
            return  # sent before its connection closed: the id stays closed
        self._closed.pop(rid, None)
        self._forget(rid)
        self._fd_of[rid] = fd
        self._ids_on.setdefault(fd, set()).add(rid)
        while len(self._fd_of) > MAX_CONNECTIONS:
            self._forget(next(iter(self._fd_of)))

    def closed(self, rid: bytes) -> bool:
        """Whether `rid`'s connection closed since its last message."""
        self.drain()
        return rid in self._closed

    def closed_ids(self) -> list[bytes]:
        """The ids whose connection closed (to detach the sessions still on them)."""
        self.drain()
        return list(self._closed)

    def drain(self) -> None:
        """Read every event waiting (the queue is kept short by `run`)."""
        while True:
            try:
                frames = self._events.recv_multipart(zmq.NOBLOCK)
            except zmq.ZMQError:  # Again: none waiting; or closed at shutdown
                return
            event = parse_monitor_message(frames)
            fd = int(event["value"])
            if event["event"] == zmq.EVENT_ACCEPTED:
                self._closed_fds.pop(fd, None)
            elif event["event"] == zmq.EVENT_DISCONNECTED:
                self._closing(fd)

    async def run(self) -> None:
        """Keep the monitor's queue short when no message or send reads it."""
        while True:
            await asyncio.sleep(READ_EVERY_S)
            try:
                self.drain()
            except Exception:  # never take the daemon down
                log.exception("connection_watch_failed")

    def _closing(self, fd: int) -> None:
        self._closed_fds[fd] = None
        while len(self._closed_fds) > MAX_CLOSED:
            self._closed_fds.popitem(last=False)
        gone = self._ids_on.pop(fd, set())
        for rid in gone:
            self._fd_of.pop(rid, None)
            self._closed[rid] = None
            self._closed.move_to_end(rid)
        while len(self._closed) > MAX_CLOSED:
            self._closed.popitem(last=False)
        if gone:
            log.info("connection_closed", connections=len(gone))

    def _forget(self, rid: bytes) -> None:
        fd = self._fd_of.pop(rid, None)
        if fd is not None and (ids := self._ids_on.get(fd)) is not None:
            ids.discard(rid)
            if not ids:
                del self._ids_on[fd]

    def close(self) -> None:
        self._sock.disable_monitor()
        self._events.close(linger=0)
