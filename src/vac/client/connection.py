"""A VAC/1 client connection: one DEALER over CURVE, lenient decoding.

Synchronous on purpose: the CLI, the scripted transport and the tests drive
one conversation at a time and wait with explicit timeouts.

Exit codes of every client command (CLI.md, `vac.client.errors`): 0 done,
1 the daemon refused (`Refused`), 2 a usage or local problem (`ClientError`),
3 no answer from the daemon (`NoAnswer`). A `watch`ed connection reads
libzmq's socket monitor (`vac.client.watch`), so "no answer" can say why.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import socket
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Final, TypeVar

import zmq

from vac.client.errors import (
    EXIT_NO_ANSWER,
    EXIT_OK,
    EXIT_REFUSED,
    EXIT_USAGE,
    ClientError,
    NoAnswer,
    Refused,
    SessionEnded,
    Timeout,
    ended_by,
    refusal_line,
    refuses_hello,
)
from vac.client.keyfiles import ClientKeys, find_client_key, keys_for, load_client_keys
from vac.client.watch import HandshakeWatch, why_no_answer
from vac.endpoints import EndpointInvalid, checked_endpoint
from vac.home import Home
from vac.protocol.codec import decode_outbound, encode_inbound
from vac.protocol.messages import (
    OPT_IN_FEATURES,
    AudioInputChunk,
    AudioInputCommit,
    AudioInputStart,
    ClientBye,
    Hello,
    HelloOk,
    Inbound,
    InputMode,
    OutboundMessage,
    OutputRequest,
)

# The errors and key loading moved to their own modules; every client and
# test imports them from here, so this stays the one place to import from.
__all__ = [
    "BYE_LINGER_MS",
    "DEFAULT_CONNECT",
    "EXIT_NO_ANSWER",
    "EXIT_OK",
    "EXIT_REFUSED",
    "EXIT_USAGE",
    "ClientError",
    "ClientKeys",
    "Connection",
    "NoAnswer",
    "Refused",
    "SessionEnded",
    "Timeout",
    "connect_from_home",
    "ended_by",
    "find_client_key",
    "keys_for",
    "load_client_keys",
    "one_shot",
    "refusal_line",
    "refuses_hello",
]

DEFAULT_CONNECT: Final = "tcp://127.0.0.1:7707"
M = TypeVar("M")

# How long a closing socket may take to deliver its `bye`.
BYE_LINGER_MS: Final = 1000
SEND_TIMEOUT_MS: Final = 10_000


class Connection:
    """One DEALER connection to the daemon.

    `watch=True` reads the socket monitor, so that `hello` fails fast on a
    refused handshake and says why nothing came back (`NoAnswer`).
    """

    def __init__(
        self,
        endpoint: str,
        keys: ClientKeys,
        *,
        ctx: zmq.Context[Any] | None = None,
        watch: bool = False,
    ):
        self._own_ctx = ctx is None
        self.ctx = ctx or zmq.Context()
        self.endpoint = endpoint
        self.keys = keys
        self.sock: zmq.Socket[bytes] = self.ctx.socket(zmq.DEALER)
        self.sock.setsockopt(zmq.LINGER, 0)
        # A DEALER with no peer (the daemon gone, or this key refused at the
        # handshake) blocks a send for ever: an operator probe found
        # examples/agent.py alive 11 minutes past its --for-s.
        self.sock.setsockopt(zmq.SNDTIMEO, SEND_TIMEOUT_MS)
        self.sock.curve_serverkey = keys.server_public
        self.sock.curve_publickey = keys.public
        self.sock.curve_secretkey = keys.secret
        self._ids = (f"{uuid.uuid4().hex[:8]}-{n}" for n in itertools.count())
        self.hello_ok: HelloOk | None = None
        self.received: list[OutboundMessage] = []
        self._bye_sent = False
        self._watch = HandshakeWatch(self.sock) if watch else None
        try:
            self.sock.connect(endpoint)
        except zmq.ZMQError as exc:
            self.close()
            raise ClientError(
                f"cannot connect to {endpoint!r}: {exc.strerror}"
                " — use tcp://HOST:PORT or ipc://PATH (--connect)"
            ) from None

    def next_id(self) -> str:
        return next(self._ids)

    def send(self, msg: Inbound, payload: bytes | None = None) -> None:
        try:
            self.sock.send_multipart(encode_inbound(msg, payload), copy=False)
        except zmq.Again:
            raise NoAnswer(
                f"the daemon at {self.endpoint} took no message for {SEND_TIMEOUT_MS // 1000} s"
                " — is it running, and is this key still enrolled? ('vac keys list' on its host)"
            ) from None

    def send_hello(self, hello: Hello) -> None:
        """Queue the `hello` without ever blocking.

        A refused handshake (a key the daemon does not enrol) can end before
        the `hello` is queued; libzmq then drops the peer for good, and a
        DEALER without one waits forever to send. The `hello` is dropped
        instead: nothing could answer it, and `hopeless` says why.
        """
        with contextlib.suppress(zmq.Again):
            self.sock.send_multipart(encode_inbound(hello), flags=zmq.NOBLOCK, copy=False)

    def send_frames(self, frames: list[bytes]) -> None:
        self.sock.send_multipart(frames)

    def recv(self, timeout_s: float) -> tuple[OutboundMessage, bytes | None]:
        """The next message this client understands (unknown types are skipped)."""
        deadline = time.monotonic() + timeout_s
        while True:
            left_ms = int(max(0.0, deadline - time.monotonic()) * 1000)
            if not self.sock.poll(left_ms):
                raise Timeout(f"no message from the daemon within {timeout_s:.1f} s")
            msg, payload = decode_outbound(self.sock.recv_multipart())
            if msg is not None:
                self.received.append(msg)
                return msg, payload

    def recv_until(
        self, match: Callable[[OutboundMessage], bool], timeout_s: float
    ) -> list[tuple[OutboundMessage, bytes | None]]:
        """Messages up to and including the first that matches."""
        out: list[tuple[OutboundMessage, bytes | None]] = []
        deadline = time.monotonic() + timeout_s
        while True:
            msg, payload = self.recv(max(0.0, deadline - time.monotonic()))
            out.append((msg, payload))
            if match(msg):
                return out

    def expect(self, cls: type[M], timeout_s: float = 5.0) -> M:
        for msg, _ in self.recv_until(lambda m: isinstance(m, cls), timeout_s):
            if isinstance(msg, cls):
                return msg
        raise AssertionError("unreachable")

    def hello(
        self,
        *,
        rate: int = 16000,
        speak: bool = False,
        resume: str | None = None,
        client: str = "vac-client",
        timeout_s: float = 10.0,
        features: tuple[str, ...] = OPT_IN_FEATURES,
    ) -> HelloOk:
        """Open (or resume) a session.

        An `error` answering the hello raises `Refused`; no answer raises
        `NoAnswer`, with the likely cause when the connection is watched.
        """
        hello = Hello(
            id=self.next_id(),
            versions=[1],
            client=client,
            output=OutputRequest(rate=rate, speak=speak),  # type: ignore[arg-type]
            resume=resume,
            features=list(features),
        )
        self.send_hello(hello)
        deadline = time.monotonic() + timeout_s
        while True:
            left_s = deadline - time.monotonic()
            if left_s <= 0 or self.hopeless():
                raise self.no_answer(timeout_s)
            try:
                # Short slices while watched, to notice a refused handshake early.
                msg, _ = self.recv(min(left_s, 0.05) if self._watch is not None else left_s)
            except Timeout:
                continue
            if isinstance(msg, HelloOk):
                self.hello_ok = msg
                return msg
            if refuses_hello(msg, hello.id):
                raise Refused(msg)

    def hopeless(self) -> bool:
        """Whether the socket monitor says no answer can come (see `HandshakeWatch`)."""
        return self._watch is not None and self._watch.hopeless()

    def no_answer(self, waited_s: float) -> NoAnswer:
        """Why nothing came back from the daemon, as far as the client can tell."""
        return why_no_answer(self._watch, self.endpoint, self.keys.public, waited_s)

    def bye(self) -> None:
        """End the session for good (PROTOCOL §3) and let the close deliver it."""
        # Never blocks: after a refused handshake libzmq drops the peer, and a
        # DEALER without one would wait forever to send.
        with contextlib.suppress(zmq.ZMQError):
            frames = encode_inbound(ClientBye(id=self.next_id()))
            self.sock.send_multipart(frames, flags=zmq.NOBLOCK)
            self._bye_sent = True

    def stream_pcm(
        self,
        stream: str,
        pcm: bytes,
        *,
        mode: InputMode = "push_to_talk",
        pace_s: float = 0.0,
        commit: bool = True,
        chunk_bytes: int = 640,
        trace: str | None = None,
    ) -> int:
        """Start a stream, send `pcm` in chunks (20 ms by default), optionally commit.

        `pace_s` sleeps between chunks (0.02 is real time for 20 ms chunks);
        `trace` is the client's id for the utterance, echoed in `turn.done`.
        Returns the last seq sent.
        """
        self.send(
            AudioInputStart(
                id=self.next_id(),
                stream=stream,
                encoding="pcm_s16le",
                rate=16000,
                channels=1,
                mode=mode,
                trace=trace,
            )
        )
        seq = 0
        for seq, off in enumerate(range(0, len(pcm), chunk_bytes)):
            self.send(
                AudioInputChunk(id=self.next_id(), stream=stream, seq=seq),
                pcm[off : off + chunk_bytes],
            )
            if pace_s:
                time.sleep(pace_s)
        if commit:
            self.send(AudioInputCommit(id=self.next_id(), stream=stream, last_seq=seq))
        return seq

    def drain(self, quiet_s: float = 0.2) -> Iterator[OutboundMessage]:
        while True:
            try:
                msg, _ = self.recv(quiet_s)
            except Timeout:
                return
            yield msg

    def close(self) -> None:
        linger = 0
        if self._bye_sent and (
            self.hello_ok is not None or (self._watch is not None and self._watch.handshakes)
        ):
            linger = BYE_LINGER_MS  # the peer is there: give the bye time to leave
        if self._watch is not None:
            self._watch.close(self.sock)
        self.sock.close(linger=linger)
        if self._own_ctx:
            self.ctx.term()

    def __enter__(self) -> Connection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@contextlib.contextmanager
def one_shot(
    conn: Connection,
    *,
    client: str,
    timeout_s: float,
    resume: str | None = None,
    keep: bool = False,
) -> Iterator[HelloOk]:
    """`hello`, the caller's work, then `bye` — always, so no session outlives the command.

    Without the `bye` every one-shot command held a session for a heartbeat,
    and a loop of them ran into the per-principal session quota. `keep`
    (asked for by the user) leaves the session resumable instead: a `bye`
    ends a session for good (PROTOCOL §3).
    """
    try:
        yield conn.hello(client=client, resume=resume, timeout_s=timeout_s)
    finally:
        if not keep:
            conn.bye()


def connect_from_home(
    home: Home,
    endpoint: str | None = None,
    key: Path | None = None,
    server_key: Path | None = None,
) -> Connection:
    endpoint = endpoint or os.environ.get("VAC_CONNECT") or DEFAULT_CONNECT
    checked_endpoint(endpoint, bind=False)  # one line (exit 2), not a wrapped port
    _check_host(endpoint)
    return Connection(endpoint, load_client_keys(home, key, server_key), watch=True)


def _check_host(endpoint: str) -> None:
    """A host name that does not resolve is named as such (libzmq would just
    never connect, and the wait end as "refused")."""
    if not endpoint.startswith("tcp://"):
        return
    host = endpoint[len("tcp://") :].rpartition(":")[0].strip("[]")
    try:
        socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        raise EndpointInvalid(
            f"{endpoint}: cannot resolve the host {host!r} — check --connect or $VAC_CONNECT"
        ) from None
