"""The ROUTER socket's bounds: its options, and reading one message within them.

Everything here is about frames and bytes, before any message is decoded:
what libzmq may queue per peer, and how a message of too many frames or
bytes is read and dropped without ever being held whole.
"""

from __future__ import annotations

from typing import Final

import zmq
import zmq.asyncio

from vac.protocol.codec import MAX_HEADER_BYTES, decode_inbound
from vac.protocol.errors import ProtocolError

MAX_MESSAGE_BYTES: Final = 64 * 1024
# Per peer. Kept small on purpose: what libzmq and the kernel buffer is out
# of our sight, so a client that stops reading should reach its session's
# outbox (and its `output_queue_chunks` bound, §7) after seconds, not minutes.
SOCKET_SNDHWM: Final = 64
SOCKET_SNDBUF_BYTES: Final = 64 * 1024
# Per peer, in whole messages: libzmq counts a multipart message once, at its
# last frame (pipe.cpp), so this bounds well-formed traffic to 256 messages of
# at most MAX_MESSAGE_TOTAL_BYTES, about 18 MiB queued per peer. It does not
# bound one message of many frames: MAXMSGSIZE limits each frame, nothing in
# libzmq limits their number, and a message is only readable once all of it
# has arrived. `recv_message` makes sure we never hold such a message too.
SOCKET_RCVHWM: Final = 256
# Routing id + marker + header + payload: the most a VAC/1 message can have.
MAX_MESSAGE_FRAMES: Final = 4
# The client's frames: a payload (at most MAXMSGSIZE), a header and a marker.
MAX_MESSAGE_TOTAL_BYTES: Final = MAX_MESSAGE_BYTES + MAX_HEADER_BYTES + 64


# Messages read back to back before the receive loop lets other tasks run,
# or sooner, once handling them took RECV_YIELD_AFTER_S. A receive of a
# message already queued completes without yielding: a client flooding past
# its rate kept the loop running and every other task waiting (another
# principal's ack took seconds). And a message may take ms of the loop (a
# typed text is understood there): 8 of one principal's in a row held
# another's turn at every step (a probe: its draft p50 108 ms under 150
# texts a second, within the text budget).
RECV_YIELD_EVERY: Final = 8
RECV_YIELD_AFTER_S: Final = 0.002


class RecvPacer:
    """When the receive loop must let the other tasks run."""

    def __init__(self) -> None:
        self.count = 0
        self.busy_s = 0.0

    def handled(self, took_s: float) -> bool:
        """One message was handled in `took_s`: yield now?"""
        self.count += 1
        self.busy_s += took_s
        if self.count < RECV_YIELD_EVERY and self.busy_s < RECV_YIELD_AFTER_S:
            return False
        self.count, self.busy_s = 0, 0.0
        return True


def set_bounds(sock: zmq.asyncio.Socket, heartbeat_ms: int) -> None:
    """The ROUTER's options: bounded queues, bounded frames, heartbeats."""
    sock.setsockopt(zmq.ROUTER_MANDATORY, 1)
    sock.setsockopt(zmq.SNDHWM, SOCKET_SNDHWM)
    sock.setsockopt(zmq.SNDBUF, SOCKET_SNDBUF_BYTES)
    sock.setsockopt(zmq.RCVHWM, SOCKET_RCVHWM)
    sock.setsockopt(zmq.MAXMSGSIZE, MAX_MESSAGE_BYTES)
    sock.setsockopt(zmq.LINGER, 0)
    sock.setsockopt(zmq.HEARTBEAT_IVL, heartbeat_ms)
    sock.setsockopt(zmq.HEARTBEAT_TIMEOUT, heartbeat_ms * 3)
    sock.setsockopt(zmq.HEARTBEAT_TTL, heartbeat_ms * 3)


def over_bounds(frame_count: int, total_bytes: int) -> str | None:
    """Why a message of this many frames (with the routing id) and bytes is refused."""
    if frame_count > MAX_MESSAGE_FRAMES:
        return f"message has more than {MAX_MESSAGE_FRAMES - 1} frames"
    if total_bytes > MAX_MESSAGE_TOTAL_BYTES:
        return f"message is over {MAX_MESSAGE_TOTAL_BYTES} bytes"
    return None


def ref_of(frames: list[zmq.Frame]) -> str | None:
    """The id of a message we refuse without handling it, when it can be read."""
    try:
        msg, _ = decode_inbound([f.bytes for f in frames[1:]])
    except ProtocolError as exc:
        return exc.ref
    return msg.id


async def recv_message(sock: zmq.asyncio.Socket) -> tuple[list[zmq.Frame], str | None]:
    """One message, frame by frame, keeping only what a VAC/1 message can be.

    `recv_multipart` would hand us a message of any number of frames
    whole (800 × 60 KB is 48 MB). Past MAX_MESSAGE_FRAMES or
    MAX_MESSAGE_TOTAL_BYTES the rest is read and dropped frame by frame,
    and the second value says why the message is refused.
    """
    frame: zmq.Frame = await sock.recv(copy=False)
    frames = [frame]  # the routing id
    kept_bytes = 0
    problem: str | None = None
    while frame.more:
        # libzmq hands over whole messages: the rest is here already.
        frame = await sock.recv(zmq.NOBLOCK, copy=False)
        if problem is None:
            problem = over_bounds(len(frames) + 1, kept_bytes + len(frame))
        if problem is None:
            frames.append(frame)
            kept_bytes += len(frame)
    return frames, problem
