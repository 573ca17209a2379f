"""Endpoint URIs are checked before libzmq sees them (`vac.endpoints`)."""

from __future__ import annotations

import pytest

from vac.endpoints import EndpointInvalid, checked_endpoint, endpoint_problem


@pytest.mark.parametrize(
    ("uri", "bind", "problem"),
    [
        ("tcp://127.0.0.1:7707", False, None),
        ("tcp://127.0.0.1:1", False, None),
        ("tcp://127.0.0.1:65535", True, None),
        ("tcp://*:7707", True, None),
        ("tcp://127.0.0.1:*", True, None),  # the daemon: any free port
        ("tcp://[::1]:7707", False, None),
        ("ipc:///tmp/vac.sock", True, None),
        ("tcp://127.0.0.1:*", False, "the port must be a number from 1 to 65535"),
        ("tcp://127.0.0.1:99999", True, "the port must be a number from 1 to 65535"),
        ("tcp://127.0.0.1:65536", False, "the port must be a number from 1 to 65535"),
        ("tcp://127.0.0.1:0", True, "the port must be a number from 1 to 65535"),
        ("tcp://127.0.0.1:-1", True, "the port must be a number from 1 to 65535"),
        ("tcp://127.0.0.1:http", False, "the port must be a number from 1 to 65535"),
        ("tcp://127.0.0.1", False, "use tcp://HOST:PORT or ipc://PATH"),
        ("tcp://:7707", False, "use tcp://HOST:PORT or ipc://PATH"),
        ("udp://127.0.0.1:7707", False, "use tcp://HOST:PORT or ipc://PATH"),
        ("127.0.0.1:7707", False, "use tcp://HOST:PORT or ipc://PATH"),
        ("ipc://", True, "use tcp://HOST:PORT or ipc://PATH (a path after ipc://)"),
    ],
)
def test_endpoint_problems_are_named(uri: str, bind: bool, problem: str | None) -> None:
    got = endpoint_problem(uri, bind=bind)
    assert got == (None if problem is None else f"{uri}: {problem}")
    if problem is None:
        assert checked_endpoint(uri, bind=bind) == uri
    else:
        with pytest.raises(EndpointInvalid, match=r"port|use tcp"):
            checked_endpoint(uri, bind=bind)
