"""A VAC/1 client connection: one DEALER over CURVE, lenient decoding.

Synchronous on purpose: the CLI, the scripted transport and the tests drive
one conversation at a time and wait with explicit timeouts.

Exit codes of every client command (CLI.md): 0 done, 1 the daemon refused
(`Refused`, its error code is printed), 2 a usage or local problem
(`ClientError`), 3 no answer from the daemon (`NoAnswer`: not running, or the
CURVE handshake never completed). A `watch`ed connection reads libzmq's
socket monitor, so "no answer" can say which of those it was.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Final, TypeVar

import zmq
import zmq.auth
from zmq.utils.monitor import parse_monitor_message

from vac.errors import VacError
from vac.home import Home, HomeError
from vac.protocol.codec import decode_outbound, encode_inbound
from vac.protocol.messages import (
    AudioInputChunk,
    AudioInputCommit,
    AudioInputStart,
    ClientBye,
    Error,
    Hello,
    HelloOk,
    Inbound,
    InputMode,
    OutboundMessage,
    OutputRequest,
    ServerBye,
)
from vac.protocol.text_safety import escape_for_terminal

DEFAULT_CONNECT: Final = "tcp://127.0.0.1:7707"
M = TypeVar("M")

EXIT_OK: Final = 0
EXIT_REFUSED: Final = 1
EXIT_USAGE: Final = 2
EXIT_NO_ANSWER: Final = 3

# How long a connection may be refused outright (nothing listening) before a
# command gives up without waiting for its whole --timeout.
REFUSED_GRACE_S: Final = 2.0
# CURVE handshakes that fail without a ZAP verdict (a server key that does not
# match, or not a vac daemon at all) before giving up: libzmq retries every
# 100 ms, and the outcome never changes.
HANDSHAKE_FAILURES: Final = 3
# How long a closing socket may take to deliver its `bye`.
BYE_LINGER_MS: Final = 1000


class ClientError(VacError):
    """A client-side problem with a one-line, actionable message (exit 2)."""

    exit_code: ClassVar[int] = EXIT_USAGE


class Timeout(ClientError):
    """Nothing arrived in time (exit 3)."""

    exit_code: ClassVar[int] = EXIT_NO_ANSWER


class NoAnswer(Timeout):
    """The daemon never answered: not running, or the CURVE handshake failed."""


class SessionEnded(Timeout):
    """The daemon ended the session (`bye`) before the command was done."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


class Refused(ClientError):
    """The daemon answered with an `error` (exit 1); str() is the one line to show."""

    exit_code: ClassVar[int] = EXIT_REFUSED

    def __init__(self, error: Error, line: str | None = None) -> None:
        super().__init__(line or refusal_line(error))
        self.error = error


# What a person can do about each error code (PROTOCOL §6).
_WHAT_TO_DO: Final[dict[str, str]] = {
    "invalid_message": "this client sent something the daemon could not read; please report it",
    "unsupported_version": "this client and the daemon speak different VAC versions; upgrade one",
    "handshake_required": "the connection was reset; run the command again",
    "unauthorized": "this key is not enrolled (any more): check 'vac keys list' on the daemon host",
    "session_unknown": "that session is gone or not yours; run without --session",
    "objective_unknown": "'vac drafts' lists the drafts awaiting confirmation",
    "objective_invalid": "fix the named field(s) with --edit FIELD=VALUE",
    "busy": "the daemon is busy; try again in a moment",
    "provider_unavailable": "try again in a moment; the daemon's log says why",
    "internal": "the daemon hit a bug; its log has the details",
}


def refusal_line(error: Error, *, objective_id: str | None = None) -> str:
    """`code: message — what to do`, escaped for a terminal (the daemon's text is data)."""
    message = error.message
    hint = _WHAT_TO_DO.get(error.code, "")
    details = error.details or {}
    if error.code == "objective_unknown" and isinstance(details.get("status"), str):
        # The principal's own settled objective (PROTOCOL §6, details.status).
        message = f"objective {objective_id or 'that'} is already {details['status']}"
        hint = "'vac drafts' lists what is still pending"
    elif error.code == "rate_limited":
        retry_ms = details.get("retry_after_ms")
        if "drafts" in message:
            hint = "'vac drafts' lists them"
        elif isinstance(retry_ms, int):
            hint = f"try again in {max(retry_ms, 100) / 1000:.1f} s"
    elif error.code == "objective_invalid" and isinstance(details.get("fields"), list):
        fields = ", ".join(str(f) for f in details["fields"])
        hint = f"fix {fields} with --edit FIELD=VALUE"
    line = f"{error.code}: {message}" + (f" — {hint}" if hint else "")
    return escape_for_terminal(line)


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
            f"no client key in {home.clients_dir} — run '{home.command('keys enroll NAME')}'"
            " or pass --key FILE"
        )
    if len(found) > 1:
        names = ", ".join(p.name for p in found)
        raise HomeError(
            f"several client keys in {home.clients_dir} ({names})"
            f" — pass --key {found[0]} (or another)"
        )
    return found[0]


def keys_for(home: Home, principal: str) -> ClientKeys:
    """The keypair `vac keys enroll PRINCIPAL` wrote into HOME/clients."""
    return load_client_keys(home, home.clients_dir / f"{principal}.key_secret", None)


def load_client_keys(home: Home, key: Path | None, server_key: Path | None) -> ClientKeys:
    server_path = server_key or home.server_public
    if not server_path.exists():
        if server_key is not None:
            raise HomeError(f"no server key at {server_path} — check --server-key")
        raise HomeError(
            f"no server key at {server_path} — run '{home.command('keys init')}'"
            " or pass --server-key FILE"
        )
    key_path = key or find_client_key(home)
    if not key_path.exists():
        raise HomeError(f"no client key at {key_path} — check --key")
    try:
        public, secret = zmq.auth.load_certificate(str(key_path))
        server_public, _ = zmq.auth.load_certificate(str(server_path))
    except (OSError, ValueError):
        raise HomeError(f"cannot read keys from {key_path} / {server_path}") from None
    if not secret:
        raise HomeError(f"{key_path} holds no secret key — pass the .key_secret file")
    return ClientKeys(server_public, public, secret)


_WATCHED: Final = (
    zmq.EVENT_CONNECTED
    | zmq.EVENT_CONNECT_RETRIED
    | zmq.EVENT_HANDSHAKE_SUCCEEDED
    | zmq.EVENT_HANDSHAKE_FAILED_NO_DETAIL
    | zmq.EVENT_HANDSHAKE_FAILED_PROTOCOL
    | zmq.EVENT_HANDSHAKE_FAILED_AUTH
)


class _Watch:
    """What libzmq's socket monitor saw: TCP connects and CURVE handshakes.

    libzmq retries silently, so without this a daemon that is down, a server
    key that does not match and a client key that is not enrolled all look
    the same: nothing ever arrives.
    """

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
        self.sock.curve_serverkey = keys.server_public
        self.sock.curve_publickey = keys.public
        self.sock.curve_secretkey = keys.secret
        self._ids = (f"{uuid.uuid4().hex[:8]}-{n}" for n in itertools.count())
        self.hello_ok: HelloOk | None = None
        self.received: list[OutboundMessage] = []
        self._bye_sent = False
        self._watch = _Watch(self.sock) if watch else None
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
        )
        self.send(hello)
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
            # Before a session, `unauthorized` (a revoked key) carries no ref.
            if isinstance(msg, Error) and (
                msg.ref == hello.id or (msg.ref is None and msg.code == "unauthorized")
            ):
                raise Refused(msg)

    def hopeless(self) -> bool:
        """Whether the socket monitor says no answer can come (see `_Watch`)."""
        return self._watch is not None and self._watch.hopeless()

    def no_answer(self, waited_s: float) -> NoAnswer:
        """Why nothing came back from the daemon, as far as the client can tell."""
        where = self.endpoint
        watch = self._watch
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
            from vac.daemon.keys import fingerprint

            return NoAnswer(
                f"the daemon at {where} refused this client's key (fingerprint"
                f" {fingerprint(self.keys.public)}): it is not enrolled, or was revoked"
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


def ended_by(msg: ServerBye) -> SessionEnded:
    why = {
        "shutdown": "the daemon is shutting down",
        "idle": "the session was idle too long",
        "replaced": "another connection took the session over",
        "revoked": "this key was revoked",
    }.get(msg.reason, msg.reason)
    return SessionEnded(msg.reason, f"the daemon ended the session ({why}) before it was done")


def connect_from_home(
    home: Home,
    endpoint: str | None = None,
    key: Path | None = None,
    server_key: Path | None = None,
) -> Connection:
    endpoint = endpoint or os.environ.get("VAC_CONNECT") or DEFAULT_CONNECT
    return Connection(endpoint, load_client_keys(home, key, server_key), watch=True)
