"""Shared fixtures for the intent tests: a fixed `now`, the default roster,
and a factory for valid objectives."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import msgspec
import pytest
from intent_factories import objective_builtins

from vac.intent import Roster, default_roster
from vac.protocol.objective import Objective

NOW = dt.datetime(2026, 5, 1, 10, 0, tzinfo=dt.UTC)


@pytest.fixture
def now() -> dt.datetime:
    return NOW


@pytest.fixture
def roster() -> Roster:
    return default_roster()


@pytest.fixture
def make_objective() -> Callable[..., Objective]:
    def make(**overrides: Any) -> Objective:
        return msgspec.convert(objective_builtins(**overrides), Objective)

    return make
