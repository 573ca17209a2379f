"""The client's CURVE keys: which files, read once, with a fix for every miss."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import zmq.auth

from vac.home import Home, HomeError


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
        server_public, server_secret = zmq.auth.load_certificate(str(server_path))
    except (OSError, ValueError):
        raise HomeError(f"cannot read keys from {key_path} / {server_path}") from None
    if server_secret:  # a client never needs the daemon's secret: it must not travel
        public_file = server_path.with_suffix(".key").name
        how = "with --server-key" if server_key is not None else f"at {home.server_public}"
        raise HomeError(
            f"{server_path} is the daemon's secret key — put its public key ({public_file}) {how}"
        )
    if not secret:
        raise HomeError(f"{key_path} holds no secret key — pass the .key_secret file")
    return ClientKeys(server_public, public, secret)
