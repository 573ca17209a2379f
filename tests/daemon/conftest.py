"""Fixtures shared by the daemon's agent tests (PROTOCOL §9)."""

from __future__ import annotations

import pytest

from vac.daemon import keys
from vac.home import Home


@pytest.fixture
def agent_home(home: Home) -> Home:
    """A home where `kofi` and `zuri` are the roster agents Kofi and Zuri."""
    keys.enroll(home, "kofi", agent="Kofi")
    keys.enroll(home, "zuri", agent="Zuri")
    return home
