"""The integration tests' shared set-up: the service on a real store, both engines.

``target`` is what the store is opened on (pytest ids ``sqlite``: a file of the test's own
folder; ``postgres``: a fresh schema of the test server), ``store`` the store opened on it,
``clock`` the service's clock, moved by the test
(:class:`tests.integration.test_service.FakeClock`). A module that needs another store (a
SQLite file only, a store opened its own way) defines its own ``store``, which takes the place
of this one for that module."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from db.interface import GameStore
from db.store import open_store
from tests import pgserver
from tests.integration.test_service import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(params=["sqlite", "postgres"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """What the store is opened on: a SQLite file, or a fresh schema of the test server."""
    if request.param == "postgres":
        return pgserver.fresh_url()
    return str(tmp_path / "game.db")


@pytest.fixture
async def store(target: str) -> AsyncIterator[GameStore]:
    s = await open_store(target)
    yield s
    await s.close()
