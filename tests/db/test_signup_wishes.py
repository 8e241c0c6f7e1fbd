"""Sign-ups with role wishes (R58, migration 8) and the cap on a sign-up, on both engines."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import asyncpg
import pytest

from db.errors import SignupFull
from db.interface import GameStore
from db.postgres import migrations as pg_migrations
from db.sqlite.migrations import migrate
from db.store import SQLiteStore, open_store
from tests import pgserver

from .conftest import T0, game_script, player_specs


async def test_R58_a_wish_lives_with_its_sign_up(store: GameStore) -> None:
    """A wish is set, changed and withdrawn while signed up; leaving drops it (a member who
    comes back has none); it is kept after the start, and nothing changes it then."""
    plain = await store.create_game(1, seed=1, schedule_kind="fast", timezone="UTC")
    assert plain.wishes is False
    await store.finish_game(plain.id, None)
    game = await store.create_game(1, seed=1, schedule_kind="fast", timezone="UTC", wishes=True)
    assert game.wishes is True and (await store.require_game(game.id)).wishes is True
    for user in (30, 10, 20):
        assert await store.add_signup(game.id, user)
    assert await store.wishes(game.id) == {}
    assert await store.set_wish(game.id, 30, "commissar")
    assert await store.set_wish(game.id, 10, "mafioso")
    assert await store.set_wish(game.id, 30, "doctor")  # changed
    assert not await store.set_wish(game.id, 99, "doctor")  # not signed up
    assert await store.wishes(game.id) == {10: "mafioso", 30: "doctor"}
    assert await store.set_wish(game.id, 10, None)  # withdrawn
    assert await store.wishes(game.id) == {30: "doctor"}
    assert await store.remove_signup(game.id, 30)
    assert await store.wishes(game.id) == {}
    assert await store.add_signup(game.id, 30)
    assert await store.wishes(game.id) == {}
    assert await store.set_wish(game.id, 20, "villager")
    await store.start_game(game.id, player_specs(game_script()), deadline=T0)
    assert not await store.set_wish(game.id, 20, "commissar")  # sign-up closed
    assert await store.wishes(game.id) == {20: "villager"}


async def test_a_sign_up_refuses_past_its_limit(store: GameStore) -> None:
    game = await store.create_game(1, seed=1, schedule_kind="fast", timezone="UTC")
    for user in (1, 2, 3):
        assert await store.add_signup(game.id, user, limit=3)
    with pytest.raises(SignupFull):
        await store.add_signup(game.id, 4, limit=3)
    assert not await store.add_signup(game.id, 2, limit=3)  # already in: not "full"
    assert await store.signups(game.id) == [1, 2, 3]
    assert await store.remove_signup(game.id, 1)
    assert await store.add_signup(game.id, 4, limit=3)
    assert await store.signups(game.id) == [2, 3, 4]


async def test_two_processes_racing_for_the_last_place_one_gets_it(target: str) -> None:
    """Two stores on one database (two processes), two members at once for the last place of
    a sign-up: one is signed up, the other refused, every time."""
    first, second = await open_store(target), await open_store(target)
    try:
        for round_ in range(6):
            game = await first.create_game(
                1, seed=1, schedule_kind="fast", timezone="UTC", table_id=100 + round_
            )
            for user in range(1, 5):
                assert await first.add_signup(game.id, user, limit=5)
            outcomes = await asyncio.gather(
                first.add_signup(game.id, 50, limit=5),
                second.add_signup(game.id, 60, limit=5),
                return_exceptions=True,
            )
            assert sorted(type(o).__name__ for o in outcomes) == ["SignupFull", "bool"]
            assert True in outcomes
            assert len(await second.signups(game.id)) == 5
    finally:
        await first.close()
        await second.close()


async def test_migration_8_keeps_sign_ups_without_wishes_sqlite(db_path: Path) -> None:
    """Migration 8 on a version-7 file: its open sign-up stays, its game takes no wishes, its
    members have none."""
    assert migrate(db_path, target=7).new_version == 7
    conn = sqlite3.connect(db_path)
    with conn:
        conn.execute(
            "INSERT INTO games (id, guild_id, table_id, status, seed, schedule_kind, timezone, "
            "turn, phase, created_at, updated_at) VALUES (1, 42, 42, 'lobby', 9, 'fast', 'UTC', "
            "0, 'lobby', '2025-03-01T09:00:00.000000+00:00', '2025-03-01T09:00:00.000000+00:00')"
        )
        conn.execute(
            "INSERT INTO signups (game_id, user_id, joined_at) VALUES "
            "(1, 5, '2025-03-01T09:00:00.000000+00:00'), (1, 6, '2025-03-01T09:01:00.000000+00:00')"
        )
    conn.close()
    store = await SQLiteStore.open(db_path)
    try:
        game = await store.require_game(1)
        assert game.wishes is False
        assert await store.signups(1) == [5, 6]
        assert await store.wishes(1) == {}
        assert await store.set_wish(1, 5, "doctor")  # the column is there
        assert await store.wishes(1) == {5: "doctor"}
    finally:
        await store.close()


async def test_migration_8_keeps_sign_ups_without_wishes_postgres() -> None:
    url = pgserver.fresh_url()
    conn = await asyncpg.connect(url)
    try:
        await pg_migrations.migrate(conn, url, target=7)
        await conn.execute(
            "INSERT INTO games (id, guild_id, table_id, status, seed, schedule_kind, timezone, "
            "turn, phase, created_at, updated_at) VALUES (1, 42, 42, 'lobby', 9, 'fast', 'UTC', "
            "0, 'lobby', now(), now())"
        )
        await conn.execute(
            "INSERT INTO signups (game_id, user_id, joined_at) VALUES (1, 5, now()), (1, 6, now())"
        )
    finally:
        await conn.close()
    store = await open_store(url)
    try:
        game = await store.require_game(1)
        assert game.wishes is False
        assert await store.signups(1) == [5, 6]
        assert await store.wishes(1) == {}
        assert await store.set_wish(1, 6, "mafioso")
        assert await store.wishes(1) == {6: "mafioso"}
    finally:
        await store.close()
