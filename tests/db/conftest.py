"""Fixtures for the store tests: real SQLite files in tmp_path, no mocks."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from db.models import PlayerSpec
from db.store import Store

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


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(db_path)
    try:
        yield s
    finally:
        await s.close()


async def running_game(store: Store, guild_id: int = 1, seed: int = 7) -> int:
    """A game of ``game_script()``'s players, started at turn 1; returns its id."""
    script = game_script()
    game = await store.create_game(
        guild_id, seed=seed, schedule_kind="fast", timezone="Europe/Moscow"
    )
    await store.start_game(game.id, player_specs(script), deadline=T0)
    return game.id
