"""The daemon's home directory: where keys, config, the event log and the lock live."""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from vac.errors import VacError


class HomeError(VacError):
    """A problem with the home a person can act on; the message names the fix."""


def default_home() -> Path:
    if env := os.environ.get("VAC_HOME"):
        return Path(env)
    if xdg := os.environ.get("XDG_STATE_HOME"):
        return Path(xdg) / "vac"
    return Path.home() / ".local" / "state" / "vac"


@dataclass(frozen=True)
class Home:
    root: Path

    @classmethod
    def resolve(cls, home: str | os.PathLike[str] | None) -> Home:
        return cls(Path(home).expanduser() if home else default_home())

    @property
    def keys_dir(self) -> Path:
        return self.root / "keys"

    @property
    def server_public(self) -> Path:
        return self.keys_dir / "server.key"

    @property
    def server_secret(self) -> Path:
        return self.keys_dir / "server.key_secret"

    @property
    def enrolled_dir(self) -> Path:
        """One `PRINCIPAL.key` public certificate per enrolled principal."""
        return self.keys_dir / "enrolled"

    @property
    def clients_dir(self) -> Path:
        return self.root / "clients"

    @property
    def config_file(self) -> Path:
        return self.root / "vac.toml"

    @property
    def db_file(self) -> Path:
        return self.root / "vac.db"

    @property
    def lock_file(self) -> Path:
        return self.root / "daemon.lock"

    def command(self, args: str) -> str:
        """`vac ARGS`, with `--home DIR` unless this is the default home."""
        explicit = "" if self.root == default_home() else f" --home {self.root}"
        return f"vac {args}{explicit}"

    def holds_keys(self) -> bool:
        """Whether `vac keys init` has run here (the server key exists)."""
        return self.server_public.exists()

    def require(self) -> Home:
        """This home, if it is one: a mistyped --home is an error, never a fresh home."""
        if not self.holds_keys() and not self.db_file.exists():
            where = "does not exist" if not self.root.exists() else "is not a vac home"
            raise HomeError(
                f"no server key at {self.server_public} ({self.root} {where}) — check --home"
                f" and $VAC_HOME, or run '{self.command('keys init')}' to make one there"
            )
        return self

    def ensure(self) -> None:
        for d in (self.root, self.keys_dir, self.enrolled_dir, self.clients_dir):
            d.mkdir(parents=True, exist_ok=True)
            d.chmod(0o700)


def check_secret_file(path: Path) -> None:
    """Refuse a secret file that is group- or world-readable (or missing)."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        raise HomeError(f"no secret key at {path}") from None
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise HomeError(
            f"secret key {path} is readable by others (mode {stat.S_IMODE(mode):o})"
            f" — run 'chmod 600 {path}'"
        )
