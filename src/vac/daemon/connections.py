"""Which connection a routing id is, and when it closed.

A client may choose its routing id (`ZMQ_ROUTING_ID`), and libzmq gives the
same id to a second peer once the first one's connection is gone. Output
for the first peer's session must never reach the second (PROTOCOL §1: the
routing id is never identity). libzmq's `ZMQ_ROUTER_NOTIFY` would say when
a peer leaves, but it is a draft option the wheels do not build; the
socket monitor is stable. So every message read records the file
descriptor of the connection it came on (`ZMQ_SRCFD`), the monitor's
`DISCONNECTED` events name the descriptors that closed, and a routing id
whose connection closed gets nothing more until a message arrives on it
again (from whichever peer now holds it; a new principal takes it over,
`server._take_over`).

Why no window is left: libzmq emits `DISCONNECTED` from the I/O thread
before the old peer's pipe is torn down, and a second peer can hold the
id only after that; the monitor is read (non-blocking) right before every
send, so the closing is known before anything could go to the newcomer.
Bounded: ids are remembered least-recently-used first out.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Final

import zmq
from zmq.utils.monitor import parse_monitor_message

from vac.logs import get_logger

log = get_logger("vac.server")

# Connections remembered (routing id → descriptor), and closed ids kept.
MAX_CONNECTIONS: Final = 16_384
MAX_CLOSED: Final = 16_384
# Monitor events read in one go before a send; more wait for the next one.
MAX_EVENTS_PER_DRAIN: Final = 1024


class ConnectionWatch:
    """Routing ids, the descriptor each one's last message came on, and the
    ids whose connection has closed since. Used from the event loop only."""

    def __init__(self, sock: zmq.Socket[Any], ctx: zmq.Context[Any]) -> None:
        address = f"inproc://vac-monitor-{id(self):x}"
        sock.monitor(address, zmq.EVENT_DISCONNECTED)
        # A plain (not asyncio) socket on the same context: read with NOBLOCK.
        self._events: zmq.Socket[bytes] = zmq.Context.shadow(ctx.underlying).socket(zmq.PAIR)
        self._events.connect(address)
        self._sock = sock
        self._fd_of: OrderedDict[bytes, int] = OrderedDict()
        self._closed: OrderedDict[bytes, None] = OrderedDict()

    def seen(self, rid: bytes, frame: zmq.Frame) -> None:
        """A message came on `rid`: its connection is the one it came on."""
        self.drain()  # a closing read first: the descriptor may be reused
        try:
            fd = int(frame.get(zmq.SRCFD))
        except (zmq.ZMQError, TypeError, ValueError):  # pragma: no cover - inproc
            return
        self._closed.pop(rid, None)
        self._fd_of[rid] = fd
        self._fd_of.move_to_end(rid)
        while len(self._fd_of) > MAX_CONNECTIONS:
            self._fd_of.popitem(last=False)

    def closed(self, rid: bytes) -> bool:
        """Whether `rid`'s connection closed since its last message."""
        self.drain()
        return rid in self._closed

    def closed_ids(self) -> list[bytes]:
        """The ids whose connection closed (to detach the sessions still on them)."""
        self.drain()
        return list(self._closed)

    def drain(self) -> None:
        for _ in range(MAX_EVENTS_PER_DRAIN):
            try:
                frames = self._events.recv_multipart(zmq.NOBLOCK)
            except zmq.Again:
                return
            except zmq.ZMQError:  # pragma: no cover - closed at shutdown
                return
            event = parse_monitor_message(frames)
            if event["event"] == zmq.EVENT_DISCONNECTED:
                self._closing(int(event["value"]))

    def _closing(self, fd: int) -> None:
        gone = [rid for rid, at in self._fd_of.items() if at == fd]
        for rid in gone:
            del self._fd_of[rid]
            self._closed[rid] = None
            while len(self._closed) > MAX_CLOSED:
                self._closed.popitem(last=False)
        if gone:
            log.info("connection_closed", connections=len(gone))

    def close(self) -> None:
        self._sock.disable_monitor()
        self._events.close(linger=0)
