"""Endpoint URIs (`tcp://HOST:PORT`, `ipc://PATH`), checked before libzmq
sees them: libzmq takes a port above 65535 modulo 65536 (`tcp://…:99999`
listens on, or connects to, port 34463) and says little about other
mistakes. Pure: a string in, a one-line problem (or None) out."""

from __future__ import annotations

from vac.errors import VacError

_FORMS = "use tcp://HOST:PORT or ipc://PATH"


class EndpointInvalid(VacError):
    """An endpoint no socket should be given; one line naming it and the fix."""


def endpoint_problem(uri: str, *, bind: bool) -> str | None:
    """What is wrong with `uri` (None: nothing). `bind`: the daemon's own,
    where `tcp://HOST:*` (any free port) is allowed too."""
    if uri.startswith("ipc://"):
        return None if uri[len("ipc://") :] else f"{uri}: {_FORMS} (a path after ipc://)"
    if not uri.startswith("tcp://"):
        return f"{uri}: {_FORMS}"
    host, sep, port = uri[len("tcp://") :].rpartition(":")
    if not sep or not host:
        return f"{uri}: {_FORMS}"
    if port == "*" and bind:
        return None
    if not port.isdigit() or not 0 < int(port) < 65536:
        return f"{uri}: the port must be a number from 1 to 65535"
    return None


def checked_endpoint(uri: str, *, bind: bool) -> str:
    """`uri`, or `EndpointInvalid` (exit 2) saying what is wrong with it."""
    problem = endpoint_problem(uri, bind=bind)
    if problem is not None:
        raise EndpointInvalid(problem)
    return uri
