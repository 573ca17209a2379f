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
from typing import Final, Literal

import zmq
import zmq.auth
from zmq.utils.z85 import Z85CHARS

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


def check_principal(principal: str, what: str = "principal") -> str:
    if not PRINCIPAL_RE.match(principal):
        raise KeyProblem(
            f"bad {what} {principal!r}: use a lower-case name matching ^[a-z][a-z0-9_-]{{0,31}}$"
        )
    return principal


@contextmanager
def _writing(where: Path, fix: str) -> Iterator[None]:
    """An OSError while making key files becomes one line naming the place and the fix."""
    try:
        yield
    except OSError as exc:
        raise KeyProblem(f"cannot write keys in {where}: {_why(exc)} — {fix}") from None


def _why(exc: OSError) -> str:
    if isinstance(exc, FileExistsError):  # mkdir of a path that is a file
        return "it is a file, not a directory"
    if isinstance(exc, NotADirectoryError):
        return "part of that path is a file"
    return (exc.strerror or "cannot write there").lower()


def make_keypair(
    out_dir: Path, name: str, *, fix: str = "pass --out a directory you can write to"
) -> tuple[Path, Path]:
    """Create `name.key` and `name.key_secret` (mode 0600) in out_dir.

    The name is checked like a principal's: it is a file name, and `../x`
    would write outside out_dir.
    """
    check_principal(name, "keypair name")
    public, secret = out_dir / f"{name}.key", out_dir / f"{name}.key_secret"
    with _writing(out_dir, fix):
        out_dir.mkdir(parents=True, exist_ok=True)
        if public.exists() or secret.exists():
            raise KeyProblem(
                f"a keypair named {name!r} already exists in {out_dir}"
                " — choose another name, or use the keys already there"
            )
        with _private_umask():
            zmq.auth.create_certificates(str(out_dir), name)
        secret.chmod(0o600)
        public.chmod(0o644)
    return public, secret


InitResult = Literal["created", "exists", "restored"]


def init_server(home: Home) -> tuple[Path, InitResult]:
    """Create the server keypair if absent. Returns (public path, what was done).

    Half a keypair is never papered over with a new one: clients trust
    `server.key`, and a new keypair would lock every one of them out. A
    lost public half is written again from the secret (`restored`); a lost
    secret half is refused, naming the choice (see `_lost_secret`).
    """
    with _writing(home.root, "check --home and its permissions"):
        home.ensure()
        if home.server_secret.exists():
            if home.server_public.exists():
                return home.server_public, "exists"
            public, _ = load_keypair(home.server_secret)
            _write_atomic(home.server_public, _public_certificate(public))
            return home.server_public, "restored"
        if home.server_public.exists():
            raise KeyProblem(_lost_secret(home))
        make_keypair(home.keys_dir, "server", fix="check --home and its permissions")
    return home.server_public, "created"


def _public_certificate(public: bytes) -> bytes:
    """A public certificate in the format `zmq.auth` writes and reads."""
    return (
        b"#   ZeroMQ CURVE Public Certificate (written again from server.key_secret)\n"
        b'\nmetadata\ncurve\n    public-key = "' + public + b'"\n'
    )


def _lost_secret(home: Home) -> str:
    return (
        f"no server secret key: {home.server_secret.name} is missing beside {home.server_public}"
        " — restore it from a backup, or make a new server keypair (every client then needs"
        f" the new {home.server_public.name}): 'rm {home.server_public} &&"
        f" {home.command('keys init')}'"
    )


def server_key_problem(home: Home) -> str | None:
    """What is wrong with HOME's server keypair, naming the fix; None if both halves are there."""
    public, secret = home.server_public, home.server_secret
    if public.exists() and secret.exists():
        return _halves_differ(home)
    init = home.command("keys init")
    if public.exists():
        return _lost_secret(home)
    if secret.exists():
        return f"no server public key at {public} — run '{init}' to write it again from the secret"
    return f"no server key at {public} — run '{init}'"


def _halves_differ(home: Home) -> str | None:
    """A server.key that is not the public half of server.key_secret: every
    client trusting it is refused (an operator probe: a secret copied from
    another home passed preflight and the daemon started)."""
    try:
        shown = zmq.auth.load_certificate(str(home.server_public))[0]
        held = zmq.auth.load_certificate(str(home.server_secret))[0]
    except (OSError, ValueError):
        return None  # unreadable: the checks that read each file name it
    if shown == held:
        return None
    return (
        f"{home.server_public} is not the public half of {home.server_secret.name} — they"
        " come from different keypairs: restore the secret that goes with it, or write it"
        f" again from the secret ('rm {home.server_public} && {home.command('keys init')}';"
        f" every client then needs the new {home.server_public.name})"
    )


def _read_certificate(path: Path) -> tuple[bytes, bytes | None]:
    """(public, secret or None) of a certificate file; a KeyProblem that says what is wrong."""
    if problem := _unreadable(path):
        raise KeyProblem(f"cannot read {path}: {problem}")
    try:
        public, secret = zmq.auth.load_certificate(str(path))
    except (OSError, ValueError):
        public, secret = b"", None
    if not _is_curve_key(public):
        raise KeyProblem(
            f"{path} is not a Curve public key file — pass the NAME.key written by 'vac keys new'"
        )
    return public, secret


def _unreadable(path: Path) -> str | None:
    """Why PATH cannot be read, in words with the fix (zmq only says OSError); None if it can."""
    if not path.exists():
        return "no such file — check the path"
    if not path.is_file():  # a directory, or a FIFO that would block the read
        return "not a regular file — pass the NAME.key written by 'vac keys new'"
    try:
        with path.open("rb"):
            return None
    except PermissionError:
        return "permission denied — check its mode and owner"
    except OSError as exc:
        return exc.strerror or "unreadable"


def _is_curve_key(key: bytes) -> bool:
    # A Curve key in a certificate is 32 bytes in Z85: 40 characters of its alphabet.
    return len(key) == 40 and all(c in Z85CHARS for c in key)


def load_public(path: Path) -> bytes:
    public, _ = _read_certificate(path)
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
    removed: tuple[Path, ...] = ()  # its stale keypair in HOME/clients, now gone


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
    with _writing(home.root, "check --home and its permissions"):
        home.ensure()
    secret_path: Path | None = None
    if public is None:
        target = out_dir or home.clients_dir
        _refuse_existing_keypair(home, target, principal)
        fix = "pass --out a directory you can write to" if out_dir else "check --home"
        public, secret_path = make_keypair(target, principal, fix=fix)
    key, secret = _read_certificate(public)
    if secret:
        # Copied into keys/enrolled, a secret would sit beside the public keys.
        raise KeyProblem(
            f"{public} holds a secret key — pass the public {public.stem}.key beside it;"
            " a secret key stays on its machine"
        )
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
    removed = _drop_stale_keypair(home, principal, key)
    return Enrolled(principal, public, secret_path, fingerprint(key), replaced, agent, removed)


def _refuse_existing_keypair(home: Home, target: Path, principal: str) -> None:
    """A plain enrol never overwrites a keypair: say which one, and the two ways on."""
    if not any((target / f"{principal}{ext}").exists() for ext in (".key", ".key_secret")):
        return
    if target.resolve() == home.clients_dir.resolve():
        revoke_cmd = home.command(f"keys revoke {principal}")
        fix = (
            f"to give {principal} a new key run '{revoke_cmd}' first,"
            " or pass --public FILE to enroll a key made by 'vac keys new'"
        )
    else:
        fix = f"enroll it with --public {target / f'{principal}.key'}, or pass another --out"
    raise KeyProblem(f"a keypair named {principal!r} already exists in {target} — {fix}")


def _drop_stale_keypair(home: Home, principal: str, enrolled: bytes) -> tuple[Path, ...]:
    """Remove PRINCIPAL's keypair in HOME/clients unless it is the key just enrolled.

    Its key can no longer connect, and left there it stayed the default key
    of a plain `vac say`, which the daemon then refused (as `revoke` does).
    """
    files = client_keypair(home, principal)
    try:
        own: bytes | None = zmq.auth.load_certificate(str(files[0]))[0] if files else None
    except (OSError, ValueError):
        own = None  # unreadable: it cannot connect either
    if not files or own == enrolled:
        return ()
    for path in files:
        path.unlink(missing_ok=True)
    return tuple(files)


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


def unreadable_enrolled(home: Home) -> list[str]:
    """The enrolment files that enrol no one: not a Curve public key (they
    were skipped without a word; an operator probe: the principal was just
    refused `auth_failed`)."""
    try:
        entries = sorted(home.enrolled_dir.glob("*.key"))
    except OSError:
        return []
    found = _scan(home.enrolled_dir)
    return [p.name for p in entries if PRINCIPAL_RE.match(p.stem) and p.stem not in found]


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
