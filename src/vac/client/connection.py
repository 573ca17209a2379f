"""A VAC/1 client connection: one DEALER over CURVE, lenient decoding.

Synchronous on purpose: the CLI, the scripted transport and the tests drive
one conversation at a time and wait with explicit timeouts.
"""

from __future__ import annotations

import itertools
import os
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, TypeVar

import zmq
import zmq.auth

from vac.home import Home, HomeError
from vac.protocol.codec import decode_outbound, encode_inbound
from vac.protocol.errors import VacError
from vac.protocol.messages import (
    AudioInputChunk,
    AudioInputCommit,
    AudioInputStart,
    Hello,
    HelloOk,
    Inbound,
    InputMode,
    OutboundMessage,
    OutputRequest,
)

DEFAULT_CONNECT: Final = "tcp://127.0.0.1:7707"
M = TypeVar("M")


class ClientError(VacError):
    """A client-side problem with a one-line, actionable message."""


class Timeout(ClientError):
    pass


@dataclass(frozen=True)
class ClientKeys:
    server_public: bytes
    public: bytes
    secret: bytes


def find_client_key(home: Home) -> Path:
    """The only `*.key_secret` in HOME/clients (CLI.md)."""
    found = sorted(home.clients_dir.glob("*.key_secret")) if home.clients_dir.exists() else []
    if not found:
        raise HomeError(
            f"no client key in {home.clients_dir} — run 'vac keys enroll NAME' or pass --key FILE"
        )
    if len(found) > 1:
        names = ", ".join(p.name for p in found)
        raise HomeError(f"several client keys in {home.clients_dir} ({names}) — pass --key FILE")
    return found[0]


def keys_for(home: Home, principal: str) -> ClientKeys:
    """The keypair `vac keys enroll PRINCIPAL` wrote into HOME/clients."""
    return load_client_keys(home, home.clients_dir / f"{principal}.key_secret", None)


def load_client_keys(home: Home, key: Path | None, server_key: Path | None) -> ClientKeys:
    server_path = server_key or home.server_public
    if not server_path.exists():
        raise HomeError(
            f"no server key at {server_path} — run 'vac keys init' or pass --server-key"
        )
    key_path = key or find_client_key(home)
    try:
        public, secret = zmq.auth.load_certificate(str(key_path))
        server_public, _ = zmq.auth.load_certificate(str(server_path))
    except (OSError, ValueError):
        raise HomeError(f"cannot read keys from {key_path} / {server_path}") from None
    if not secret:
        raise HomeError(f"{key_path} holds no secret key — pass the .key_secret file")
    return ClientKeys(server_public, public, secret)


class Connection:
    """One DEALER connection to the daemon."""

    def __init__(self, endpoint: str, keys: ClientKeys, *, ctx: zmq.Context[Any] | None = None):
        self._own_ctx = ctx is None
        self.ctx = ctx or zmq.Context()
        self.sock: zmq.Socket[bytes] = self.ctx.socket(zmq.DEALER)
        self.sock.setsockopt(zmq.LINGER, 0)
        self.sock.curve_serverkey = keys.server_public
        self.sock.curve_publickey = keys.public
        self.sock.curve_secretkey = keys.secret
        self.sock.connect(endpoint)
        self._ids = (f"{uuid.uuid4().hex[:8]}-{n}" for n in itertools.count())
        self.hello_ok: HelloOk | None = None
        self.received: list[OutboundMessage] = []

    def next_id(self) -> str:
        return next(self._ids)

    def send(self, msg: Inbound, payload: bytes | None = None) -> None:
        self.sock.send_multipart(encode_inbound(msg, payload), copy=False)

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
    ) -> HelloOk:
        self.send(
            Hello(
                id=self.next_id(),
                versions=[1],
                client=client,
                output=OutputRequest(rate=rate, speak=speak),  # type: ignore[arg-type]
                resume=resume,
            )
        )
        ok = self.expect(HelloOk, timeout_s)
        self.hello_ok = ok
        return ok

    def stream_pcm(
        self,
        stream: str,
        pcm: bytes,
        *,
        mode: InputMode = "push_to_talk",
        pace_s: float = 0.0,
        commit: bool = True,
        chunk_bytes: int = 640,
    ) -> int:
        """Start a stream, send `pcm` in chunks (20 ms by default), optionally commit.

        `pace_s` sleeps between chunks (0.02 is real time for 20 ms chunks).
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
        self.sock.close(linger=0)
        if self._own_ctx:
            self.ctx.term()

    def __enter__(self) -> Connection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def connect_from_home(
    home: Home,
    endpoint: str | None = None,
    key: Path | None = None,
    server_key: Path | None = None,
) -> Connection:
    endpoint = endpoint or os.environ.get("VAC_CONNECT") or DEFAULT_CONNECT
    return Connection(endpoint, load_client_keys(home, key, server_key))
