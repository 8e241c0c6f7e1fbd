"""Fixtures for the store tests: real SQLite files in tmp_path and a real PostgreSQL server
(tests/pgserver.py, a schema per test), no mocks.

``store`` (and ``target``, what it was opened on) runs a test on both engines, with the ids
``sqlite`` and ``postgres``; ``sqlite_store`` is for the tests of SQLite's own machinery."""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from db.interface import GameStore
from db.models import PlayerSpec
from db.store import SQLiteStore, is_postgres_url, open_store
from tests import pgserver

HERE = Path(__file__).parent
GAME_SCRIPT_PATH = HERE / "game_script.json"
T0 = dt.datetime(2025, 3, 1, 18, 0, tzinfo=dt.UTC)


def game_script() -> dict[str, Any]:
    """An 8-player game that town wins on turn 3 with a pistol shot (see game_script.json)."""
    data: dict[str, Any] = json.loads(GAME_SCRIPT_PATH.read_text(encoding="utf-8"))
    return data


def player_specs(script: dict[str, Any]) -> list[PlayerSpec]:
    return [
        PlayerSpec(user_id=1000 + i, nick=p["nick"], role=p["role"])
        for i, p in enumerate(script["players"])
    ]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "mafia.db"


#: The engines every engine-neutral store test runs on (the pytest ids).
ENGINES = ("sqlite", "postgres")


@pytest.fixture(params=ENGINES)
def target(request: pytest.FixtureRequest, db_path: Path) -> str:
    """What a store is opened on: the SQLite file, or a fresh schema of the test server."""
    if request.param == "postgres":
        return pgserver.fresh_url()
    return str(db_path)


@pytest.fixture
async def store(target: str) -> AsyncIterator[GameStore]:
    s = await open_store(target)
    try:
        yield s
    finally:
        await s.close()


@pytest.fixture
async def sqlite_store(db_path: Path) -> AsyncIterator[SQLiteStore]:
    s = await SQLiteStore.open(db_path)
    try:
        yield s
    finally:
        await s.close()


async def raw_rows(target: str, sql: str, *params: object) -> list[tuple[object, ...]]:
    """Rows read straight from the database behind ``target`` with its own driver, not the
    store (for what the store has no reader of). ``sql`` uses ``?`` placeholders."""
    if is_postgres_url(target):
        import asyncpg

        parts = sql.split("?")
        numbered = parts[0] + "".join(f"${i}{part}" for i, part in enumerate(parts[1:], 1))
        conn = await asyncpg.connect(target)
        try:
            return [tuple(r) for r in await conn.fetch(numbered, *params)]
        finally:
            await conn.close()
    conn3 = sqlite3.connect(target)
    try:
        return [tuple(r) for r in conn3.execute(sql, params)]
    finally:
        conn3.close()


async def connection_pragma(store: SQLiteStore, name: str) -> object:
    """A setting of the store's own connection (``PRAGMA name``), read on that connection."""
    async with store._lock:
        rows = await store._db.execute_fetchall(f"PRAGMA {name}")
    return next(iter(rows))[0]


async def running_game(store: GameStore, guild_id: int = 1, seed: int = 7) -> int:
    """A game of ``game_script()``'s players, started at turn 1; returns its id."""
    script = game_script()
    game = await store.create_game(
        guild_id, seed=seed, schedule_kind="fast", timezone="Europe/Moscow"
    )
    await store.start_game(game.id, player_specs(script), deadline=T0)
    return game.id
