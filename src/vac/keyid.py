"""Key fingerprints: a short, non-secret name for a CURVE public key.

A leaf module (stdlib only) so that both sides can name a key the same way
— the daemon in its audit log and `vac keys list`, the client when the daemon
refuses its key — without the client importing anything of the daemon.
"""

from __future__ import annotations

import hashlib
from typing import Final

# Hex digits kept of the SHA-256: 64 bits, plenty to tell enrolled keys apart.
FINGERPRINT_HEX_CHARS: Final = 16


def fingerprint(public_z85: bytes) -> str:
    """A short, stable, non-secret name for a public key."""
    return hashlib.sha256(public_z85).hexdigest()[:FINGERPRINT_HEX_CHARS]
