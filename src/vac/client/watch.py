"""Why nothing came back: libzmq's socket monitor, read for a client.

libzmq retries silently, so without this a daemon that is down, a server key
that does not match and a client key that is not enrolled all look the same:
nothing ever arrives. `HandshakeWatch` counts what the monitor saw;
`why_no_answer` turns the counts into the one line a person can act on.
"""

from __future__ import annotations

import contextlib
import time
from typing import Final

import zmq
from zmq.utils.monitor import parse_monitor_message

from vac.client.errors import NoAnswer
from vac.keyid import fingerprint

# How long a connection may be refused outright (nothing listening) before a
# command gives up without waiting for its whole --timeout.
REFUSED_GRACE_S: Final = 2.0
# CURVE handshakes that fail without a ZAP verdict (a server key that does not
# match, or not a vac daemon at all) before giving up: libzmq retries every
# 100 ms, and the outcome never changes.
HANDSHAKE_FAILURES: Final = 3

_WATCHED: Final = (
    zmq.EVENT_CONNECTED
    | zmq.EVENT_CONNECT_RETRIED
    | zmq.EVENT_HANDSHAKE_SUCCEEDED
    | zmq.EVENT_HANDSHAKE_FAILED_NO_DETAIL
    | zmq.EVENT_HANDSHAKE_FAILED_PROTOCOL
    | zmq.EVENT_HANDSHAKE_FAILED_AUTH
)


class HandshakeWatch:
    """What libzmq's socket monitor saw: TCP connects and CURVE handshakes."""

    def __init__(self, sock: zmq.Socket[bytes]) -> None:
        self.mon: zmq.Socket[bytes] = sock.get_monitor_socket(_WATCHED)
        self.started_s = time.monotonic()
        self.connected = 0
        self.refused = 0
        self.handshakes = 0
        self.handshake_failures = 0
        self.auth_failures = 0

    def update(self) -> None:
        while True:
            try:
                frames = self.mon.recv_multipart(zmq.NOBLOCK)
            except zmq.Again:
                return
            event = parse_monitor_message(frames)["event"]
            if event == zmq.EVENT_CONNECTED:
                self.connected += 1
            elif event == zmq.EVENT_CONNECT_RETRIED and not self.connected:
                self.refused += 1
            elif event == zmq.EVENT_HANDSHAKE_SUCCEEDED:
                self.handshakes += 1
            elif event == zmq.EVENT_HANDSHAKE_FAILED_AUTH:
                self.auth_failures += 1
            elif event in (
                zmq.EVENT_HANDSHAKE_FAILED_NO_DETAIL,
                zmq.EVENT_HANDSHAKE_FAILED_PROTOCOL,
            ):
                self.handshake_failures += 1

    def hopeless(self) -> bool:
        """Whether waiting longer cannot help (the outcome will not change)."""
        self.update()
        if self.handshakes:
            return False
        if self.auth_failures or self.handshake_failures >= HANDSHAKE_FAILURES:
            return True
        return (
            not self.connected
            and self.refused > 0
            and time.monotonic() - self.started_s >= REFUSED_GRACE_S
        )

    def close(self, sock: zmq.Socket[bytes]) -> None:
        with contextlib.suppress(zmq.ZMQError):
            sock.disable_monitor()
        self.mon.close(linger=0)


def why_no_answer(
    watch: HandshakeWatch | None, where: str, public_key: bytes, waited_s: float
) -> NoAnswer:
    """Why nothing came back from the daemon at `where`, as far as the client can tell."""
    if watch is None:
        return NoAnswer(
            f"no answer from the daemon at {where} within {waited_s:g} s — is it running?"
            " try 'vac preflight'; or the keys do not match: check 'vac keys list'"
            " on the daemon host"
        )
    watch.update()
    if watch.handshakes:
        return NoAnswer(
            f"the daemon at {where} took this client's keys but did not answer within"
            f" {waited_s:g} s — it may be overloaded or stuck: see its log, or retry"
            " with a larger --timeout"
        )
    if watch.auth_failures:
        return NoAnswer(
            f"the daemon at {where} refused this client's key (fingerprint"
            f" {fingerprint(public_key)}): it is not enrolled, or was revoked"
            " — check 'vac keys list' on the daemon host, or pass --key"
        )
    if watch.handshake_failures:
        return NoAnswer(
            f"the CURVE handshake with {where} failed: the server key does not match"
            " the daemon's (or no vac daemon listens there) — copy keys/server.key from"
            " the daemon host, or pass --server-key"
        )
    if watch.connected:
        return NoAnswer(
            f"no answer from {where} within {waited_s:g} s: it took the connection but"
            " never finished the handshake — is it a vac daemon? try 'vac preflight'"
        )
    if watch.refused:
        return NoAnswer(
            f"no daemon at {where}: the connection was refused — is it running?"
            " start it with 'vac daemon', or try 'vac preflight'"
        )
    return NoAnswer(
        f"no answer from the daemon at {where} within {waited_s:g} s — is it running?"
        " try 'vac preflight'"
    )
