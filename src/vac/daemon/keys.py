"""Key tooling (`vac keys ...`) and the daemon's live view of enrolments.

Keys use pyzmq's `zmq.auth` certificate format. The enrolment registry is a
directory of public certificates, one `PRINCIPAL.key` each, so the CLI (another
process) can enroll and revoke while the daemon runs: the daemon re-reads the
directory whenever its mtime changes, which it checks on every message.

An agent principal (PROTOCOL §9, `vac keys enroll NAME --agent`) has a
marker file `PRINCIPAL.agent` beside its key, holding the roster name it
is. A marker is not a secret and grants nothing by itself: a principal
without a `.key` is nobody.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import zmq
import zmq.auth

from vac.clock import wall_ns
from vac.home import Home, HomeError

# Re-exported: `vac.daemon.keys.fingerprint` is where callers found it first.
from vac.keyid import fingerprint as fingerprint

PRINCIPAL_RE: Final = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")


class KeyProblem(HomeError):
    """A key operation a person can fix (bad principal, missing file, clash)."""


@contextmanager
def _private_umask() -> Iterator[None]:
    # Secret files must never exist, even for an instant, with loose modes.
    old = os.umask(0o077)
    try:
        yield
    finally:
        os.umask(old)


def check_principal(principal: str) -> str:
    if not PRINCIPAL_RE.match(principal):
        raise KeyProblem(
            f"bad principal {principal!r}: use a lower-case name matching ^[a-z][a-z0-9_-]{{0,31}}$"
        )
    return principal


def make_keypair(out_dir: Path, name: str) -> tuple[Path, Path]:
    """Create `name.key` and `name.key_secret` (mode 0600) in out_dir."""
    out_dir.mkdir(parents=True, exist_ok=True)
    public, secret = out_dir / f"{name}.key", out_dir / f"{name}.key_secret"
    if public.exists() or secret.exists():
        raise KeyProblem(f"a keypair named {name!r} already exists in {out_dir}")
    with _private_umask():
        zmq.auth.create_certificates(str(out_dir), name)
    secret.chmod(0o600)
    public.chmod(0o644)
    return public, secret


def init_server(home: Home) -> tuple[Path, bool]:
    """Create the server keypair if absent. Returns (public path, created)."""
    home.ensure()
    if home.server_secret.exists():
        return home.server_public, False
    make_keypair(home.keys_dir, "server")
    return home.server_public, True


def load_public(path: Path) -> bytes:
    try:
        public, _ = zmq.auth.load_certificate(str(path))
    except (OSError, ValueError) as exc:
        raise KeyProblem(
            f"cannot read a public key from {path}: {exc.__class__.__name__}"
        ) from None
    return public


def load_keypair(secret_path: Path) -> tuple[bytes, bytes]:
    """(public, secret) from a `.key_secret` certificate."""
    try:
        public, secret = zmq.auth.load_certificate(str(secret_path))
    except (OSError, ValueError):
        raise KeyProblem(f"cannot read a keypair from {secret_path}") from None
    if not secret:
        raise KeyProblem(f"{secret_path} holds no secret key")
    return public, secret


@dataclass(frozen=True)
class Enrolled:
    principal: str
    public: Path
    secret: Path | None
    fingerprint: str
    replaced: bool
    agent: str | None = None  # the roster agent this principal is (§9)


def _write_atomic(dest: Path, data: bytes) -> None:
    # Atomic: the daemon never reads a half-written file.
    fd, tmp = tempfile.mkstemp(dir=dest.parent, suffix=".tmp")
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.chmod(tmp, 0o644)
    os.replace(tmp, dest)


def enroll(
    home: Home,
    principal: str,
    *,
    out_dir: Path | None = None,
    public: Path | None = None,
    agent: str | None = None,
) -> Enrolled:
    """Enroll a client public key for PRINCIPAL (creating a keypair unless given one).

    With `agent` (a roster name, checked by the caller) the principal is that
    agent (§9); without, it is a steward, and re-enrolling an agent as a
    steward removes its marker.
    """
    check_principal(principal)
    if agent is not None and agent.lower() != principal:
        raise KeyProblem(f"an agent's principal is its name in lower case: {agent.lower()!r}")
    home.ensure()
    secret_path: Path | None = None
    if public is None:
        target = out_dir or home.clients_dir
        public, secret_path = make_keypair(target, principal)
    key = load_public(public)
    for other, other_key in _scan(home.enrolled_dir).items():
        if other_key == key and other != principal:
            raise KeyProblem(f"that key is already enrolled for {other!r}; one key, one principal")
    dest = home.enrolled_dir / f"{principal}.key"
    replaced = dest.exists()
    marker = home.enrolled_dir / f"{principal}.agent"
    # The role first: a key never exists, even for an instant, with the wrong one.
    if agent is not None:
        _write_atomic(marker, agent.encode() + b"\n")
    else:
        marker.unlink(missing_ok=True)
    _write_atomic(dest, public.read_bytes())
    return Enrolled(principal, public, secret_path, fingerprint(key), replaced, agent)


def client_keypair(home: Home, principal: str) -> list[Path]:
    """The files of PRINCIPAL's keypair that `vac keys enroll` left in HOME/clients."""
    names = (f"{principal}.key_secret", f"{principal}.key")
    return [path for name in names if (path := home.clients_dir / name).exists()]


def revoke(home: Home, principal: str) -> bool:
    """Revoke PRINCIPAL's enrolment; whether it was enrolled.

    Its keypair in HOME/clients goes too: a revoked key can never be used
    again, and left there it made every later plain `vac say` fail with
    "several client keys".
    """
    check_principal(principal)
    try:
        (home.enrolled_dir / f"{principal}.key").unlink()
        enrolled = True
    except FileNotFoundError:
        enrolled = False
    (home.enrolled_dir / f"{principal}.agent").unlink(missing_ok=True)
    for path in client_keypair(home, principal):
        path.unlink(missing_ok=True)
    return enrolled


def _scan(enrolled_dir: Path) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    try:
        entries = list(enrolled_dir.iterdir())
    except FileNotFoundError:
        return out
    for path in entries:
        if path.suffix != ".key" or not PRINCIPAL_RE.match(path.stem):
            continue
        try:
            public, _ = zmq.auth.load_certificate(str(path))
        except (OSError, ValueError):
            continue  # a broken file enrolls nobody
        out[path.stem] = public
    return out


def _scan_agents(enrolled_dir: Path) -> dict[str, str]:
    """principal -> the roster name in its `.agent` marker."""
    out: dict[str, str] = {}
    try:
        entries = list(enrolled_dir.glob("*.agent"))
    except OSError:
        return out
    for path in entries:
        if not PRINCIPAL_RE.match(path.stem):
            continue
        try:
            name = path.read_text(encoding="utf-8", errors="replace").strip()[:64]
        except OSError:
            continue
        out[path.stem] = name or path.stem
    return out


def list_enrolled(home: Home) -> list[tuple[str, str, str | None]]:
    """(principal, fingerprint, agent name or None) triples, never secrets."""
    agents = _scan_agents(home.enrolled_dir)
    return sorted((p, fingerprint(k), agents.get(p)) for p, k in _scan(home.enrolled_dir).items())


class KeyRegistry:
    """The daemon's view of enrolments, refreshed when the directory changes.

    `principal_of` is called on every received message; it costs one stat()
    unless the directory changed, so revocation reaches live connections at
    their next message.
    """

    def __init__(self, enrolled_dir: Path) -> None:
        self._dir = enrolled_dir
        self._mtime_ns = -1
        self._scanned_ns = 0
        self._by_key: dict[bytes, str] = {}
        self._agents: dict[str, str] = {}

    def _refresh(self) -> None:
        try:
            mtime = self._dir.stat().st_mtime_ns
        except FileNotFoundError:
            mtime = 0
        # Directory mtimes are coarse (a few ms on some filesystems): while the
        # last change is recent, re-scan (at most every 10 ms, so a burst of
        # messages does not turn into a burst of file reads) so that a
        # revocation right after an enrolment is never hidden behind an
        # unchanged mtime.
        now_ns = wall_ns()
        age_ns = now_ns - mtime
        recent = 0 <= age_ns < 2_000_000_000 and now_ns - self._scanned_ns > 10_000_000
        if mtime != self._mtime_ns or recent:
            self._mtime_ns = mtime
            self._scanned_ns = now_ns
            self._by_key = {k: p for p, k in _scan(self._dir).items()}
            self._agents = _scan_agents(self._dir)

    def principal_of(self, public_z85: bytes) -> str | None:
        self._refresh()
        return self._by_key.get(public_z85)

    def agent_of(self, principal: str) -> str | None:
        """The roster name of an agent principal (§9); None for a steward."""
        self._refresh()
        return self._agents.get(principal)

    def curve_callback(self, domain: str, key: bytes) -> bool:
        return self.principal_of(key) is not None


def socket_curve_server(sock: zmq.Socket[bytes], secret_path: Path) -> None:
    public, secret = load_keypair(secret_path)
    sock.curve_secretkey = secret
    sock.curve_publickey = public
    sock.curve_server = True
