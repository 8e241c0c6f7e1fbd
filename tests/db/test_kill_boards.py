"""The mafia's kill board's message ids (migration 8), on both engines: one per game and
turn, kept across a reopened store (a restart), replaced when the message is posted again,
gone with the game; and an older store is migrated with its games intact."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import asyncpg

from db.interface import GameStore
from db.postgres import migrations as pg_migrations
from db.postgres.store import PostgresStore
from db.sqlite.migrations import migrate
from db.store import SQLiteStore, open_store
from db.transfer import TABLES
from tests import pgserver
from tests.db.conftest import running_game
from tests.db.test_migrations import _make_v1_file


async def test_R23_a_board_id_per_game_and_turn_survives_a_reopen(
    store: GameStore, target: str
) -> None:
    game = await running_game(store)
    other = await running_game(store, guild_id=2)
    assert await store.kill_board(game, 1) is None
    await store.set_kill_board(game, 1, 111)
    await store.set_kill_board(other, 1, 222)
    await store.set_kill_board(game, 2, 333)
    assert await store.kill_board(game, 1) == 111
    assert await store.kill_board(other, 1) == 222
    assert await store.kill_board(game, 2) == 333
    await store.set_kill_board(game, 1, 444)  # posted again (the first was deleted)
    assert await store.kill_board(game, 1) == 444
    reopened = await open_store(target)
    try:
        assert await reopened.kill_board(game, 1) == 444
    finally:
        await reopened.close()


def test_kill_boards_are_copied_by_migrate_store() -> None:
    assert "kill_boards" in TABLES


async def test_migration_8_adds_the_boards_to_a_v7_sqlite_file(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    _make_v1_file(path)
    assert migrate(path, target=7).new_version == 7
    conn = sqlite3.connect(path)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_schema WHERE type='table'")}
    conn.close()
    assert "kill_boards" not in tables
    store = await SQLiteStore.open(path)
    try:
        [game] = [g.id for g in await store.running_games()] or [1]
        await store.set_kill_board(game, 1, 5)
        assert await store.kill_board(game, 1) == 5
    finally:
        await store.close()


async def test_migration_8_on_postgres() -> None:
    url = pgserver.fresh_url()
    conn = await asyncpg.connect(url)
    try:
        assert await pg_migrations.migrate(conn, "test", target=7) == (0, 7)
        game_id = await conn.fetchval(
            "INSERT INTO games (guild_id, seed, schedule_kind, timezone, status, turn, phase, "
            "created_at, updated_at, table_id) VALUES (1, 7, 'fast', 'UTC', 'running', 1, "
            "'day', now(), now(), 1) RETURNING id"
        )
    finally:
        await conn.close()
    async with await PostgresStore.open(url) as store:
        await store.set_kill_board(game_id, 1, 9)
        assert await store.kill_board(game_id, 1) == 9
