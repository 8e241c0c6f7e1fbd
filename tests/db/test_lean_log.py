"""Migration 19, the leaner request log (db/schema/v19_lean_log.py), on both engines.

- A database at version 18 holding a game played through its first turn (and a second game
  whose entries interleave with it) is upgraded: every entry keeps its id, number and order,
  the game loads as before, and plays on to its end exactly as the same game played on a
  database created at version 19 (the same log, fences and all, the same outcome).
- The fence's count (a game's accepted entries at its turn or later) is read from the new
  index ``log_entries_accepted`` alone, and the next ``seq`` from ``UNIQUE (game_id, seq)``:
  the plans of both engines say so.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import asyncpg
import pytest

import db.postgres.base as pg_base
import db.postgres.migrations as pg_migrations
import db.sqlite.migrations as sqlite_migrations
from db.errors import StaleGame
from db.interface import GameStore
from db.models import Fence, LogEntry, OutboxItem, refused
from db.ops.requests import _ENTRIES, _INSERT_ENTRY
from db.store import is_postgres_url, open_store
from rules.replay import run_script
from tests import pgserver

from .conftest import T0, game_script, raw_rows, running_game

NEXT = T0 + dt.timedelta(days=1)


async def _open_at_18(target: str, monkeypatch: pytest.MonkeyPatch) -> GameStore:
    """The store as a bot of schema version 18 opened it: created and migrated to 18 only."""
    with monkeypatch.context() as m:
        m.setattr(sqlite_migrations, "LATEST_VERSION", 18)
        m.setattr(pg_migrations, "LATEST_VERSION", 18)
        m.setattr(pg_base, "LATEST_VERSION", 18)
        return await open_store(target)


async def _version(target: str) -> int:
    if is_postgres_url(target):
        [(version,)] = await raw_rows(target, "SELECT version FROM schema_version")
    else:
        [(version,)] = await raw_rows(target, "PRAGMA user_version")
    return int(str(version))


async def _fence(store: GameStore, game_id: int) -> Fence:
    head = await store.game_head(game_id)
    assert head is not None
    return Fence(turn=head.record.turn, phase=head.record.phase, entries=head.entries)


async def _play_turn(store: GameStore, game_id: int, number: int, turn: dict[str, Any]) -> None:
    """One turn of ``game_script()`` as the service writes it: every entry fenced, the pistol
    window opened for the turn's shots, the turn resolved."""
    for action in turn.get("host", []):
        await store.add_host_action(
            game_id,
            number,
            action,
            actor_id=5,
            command=str(action["do"]),
            fence=await _fence(store, game_id),
        )
    for request in turn.get("requests", []):
        fence = await _fence(store, game_id)
        await store.add_request(game_id, number, "requests", request, 1000, fence=fence)
    if turn.get("after"):
        fence = await _fence(store, game_id)
        window = [OutboxItem("deaths", {"turn": number})]
        assert await store.begin_pistol_window(game_id, number, {}, window, NEXT, fence=fence)
        for shot in turn["after"]:
            fence = await _fence(store, game_id)
            await store.add_request(game_id, number, "after", shot, 1000, fence=fence)
    fence = await _fence(store, game_id)
    assert await store.record_resolution(
        game_id, number, {"turn": number}, [], number + 1, NEXT, fence=fence
    )


async def _first_turn(store: GameStore) -> tuple[int, int]:
    """The played game (its first turn, a refused request in it) and a second game whose
    entries interleave with its own (their ids are not each game's 1, 2, 3...)."""
    script = game_script()
    game = await running_game(store, guild_id=1, seed=script["seed"])
    other = await running_game(store, guild_id=2, seed=3)
    late = {"by": "Gus", "do": "vote", "target": "Dan"}
    await store.add_request(game, 1, "requests", late, 1006, refused("phase"))
    for i, request in enumerate(script["turns"][0]["requests"]):
        fence = await _fence(store, game)
        await store.add_request(game, 1, "requests", request, 1000 + i, fence=fence)
        await store.add_request(other, 1, "requests", {"by": "Anna", "do": "post", "i": i}, 7)
    return game, other


def _plain(entries: list[LogEntry]) -> list[tuple[Any, ...]]:
    """An entry without its time stamp (two stores write at two moments)."""
    return [
        (e.id, e.game_id, e.turn, e.seq, e.section, e.payload, e.outcome, e.user_id)
        for e in entries
    ]


async def test_a_game_logged_at_version_18_loads_and_plays_on_identically(
    target: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    script = game_script()
    old = await _open_at_18(target, monkeypatch)
    try:
        assert await _version(target) == 18
        game, other = await _first_turn(old)
        before = {g: await old.log_entries(g) for g in (game, other)}
        head_before = await old.game_head(game)
        loaded_before = await old.load_restart()
        script_before = await old.load_script(game)
    finally:
        await old.close()
    assert [e.id for e in before[game]] != list(range(1, len(before[game]) + 1))  # interleaved

    store = await open_store(target)  # migration 19
    try:
        assert await _version(target) == 19
        for g, entries in before.items():  # ids, numbers, order, every column kept
            assert await store.log_entries(g) == entries
        assert await store.game_head(game) == head_before
        assert await store.load_restart() == loaded_before
        assert await store.load_script(game) == script_before
        # The fence still counts the accepted entries of the turn: one too few is stale.
        fence = await _fence(store, game)
        assert fence.entries == len(script["turns"][0]["requests"])  # the refused one is not
        stale = Fence(turn=fence.turn, phase=fence.phase, entries=fence.entries - 1)
        with pytest.raises(StaleGame):
            await store.add_request(
                game, 1, "requests", {"by": "Fay", "do": "post"}, 1, fence=stale
            )
        # It plays on: the first turn resolved, then the rest of the game.
        await store.record_resolution(game, 1, {"turn": 1}, [], 2, NEXT, fence=fence)
        for number, turn in enumerate(script["turns"][1:], start=2):
            await _play_turn(store, game, number, turn)
        upgraded = _plain(await store.log_entries(game))
        upgraded_script = await store.load_script(game)
        assert await store.log_entries(other) == before[other]
    finally:
        await store.close()

    # The same game on a database created at version 19, written the same way.
    fresh_target = (
        str(tmp_path / "fresh.db") if not is_postgres_url(target) else pgserver.fresh_url()
    )
    fresh = await open_store(fresh_target)
    try:
        game_b, _ = await _first_turn(fresh)
        assert game_b == game
        await fresh.record_resolution(
            game, 1, {"turn": 1}, [], 2, NEXT, fence=await _fence(fresh, game)
        )
        for number, turn in enumerate(script["turns"][1:], start=2):
            await _play_turn(fresh, game, number, turn)
        assert _plain(await fresh.log_entries(game)) == upgraded
        assert await fresh.load_script(game) == upgraded_script
    finally:
        await fresh.close()
    assert run_script(upgraded_script) == run_script(script)


async def test_the_fence_and_the_next_seq_read_one_index_each(target: str) -> None:
    store = await open_store(target)
    try:
        game = await running_game(store)
        for i in range(3):
            await store.add_request(game, 1, "requests", {"by": "Anna", "do": "post", "i": i}, 1)
        await store.add_request(game, 1, "requests", {"by": "Bob", "do": "vote"}, 1, refused("x"))
        assert (await store.game_head(game)) is not None
    finally:
        await store.close()
    fence = f"SELECT {_ENTRIES} FROM games g WHERE g.id = $1"
    if is_postgres_url(target):
        conn = await asyncpg.connect(target)
        try:
            # A few rows: the planner would rather scan; the index must still serve the query.
            await conn.execute("SET enable_seqscan = off")
            await conn.execute("VACUUM log_entries")  # the visibility map: an index-only scan
            plan = " ".join(r[0] for r in await conn.fetch("EXPLAIN " + fence, game))
            assert "Index Only Scan using log_entries_accepted" in plan, plan
            insert = _INSERT_ENTRY.replace("INSERT INTO", "EXPLAIN INSERT INTO")
            async with conn.transaction():
                rows = await conn.fetch(insert, game, 1, "requests", "{}", "accepted", None, T0)
                plan = " ".join(r[0] for r in rows)
            assert "log_entries_game_id_seq_key" in plan, plan
        finally:
            await conn.close()
        return
    plan = " ".join(
        str(r[3])
        for r in await raw_rows(target, "EXPLAIN QUERY PLAN " + fence.replace("$1", "?"), game)
    )
    assert "USING COVERING INDEX log_entries_accepted" in plan, plan
    insert = "EXPLAIN QUERY PLAN " + _INSERT_ENTRY.replace("$", "?")
    plan = " ".join(
        str(r[3])
        for r in await raw_rows(target, insert, game, 1, "requests", "{}", "accepted", None, "t")
    )
    assert "USING COVERING INDEX sqlite_autoindex_log_entries_1" in plan, plan


async def test_the_log_has_no_generated_columns_and_no_payload_check(target: str) -> None:
    """What migration 19 removed from the writer's transaction stays removed (a payload is
    checked once, by the store, before the transaction)."""
    store = await open_store(target)
    try:
        game = await running_game(store)
        with pytest.raises(ValueError, match="JSON"):
            await store.add_request(game, 1, "requests", {"by": object()}, 1)
        assert await store.log_entries(game) == []
    finally:
        await store.close()
    if is_postgres_url(target):
        rows = await raw_rows(
            target,
            "SELECT column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name = 'log_entries' "
            "ORDER BY ordinal_position",
        )
    else:
        rows = await raw_rows(target, "SELECT name FROM pragma_table_xinfo('log_entries')")
        [(sql,)] = await raw_rows(
            target, "SELECT sql FROM sqlite_schema WHERE name = 'log_entries'"
        )
        assert "json_valid" not in str(sql)
    columns = [str(r[0]) for r in rows]
    assert columns == [
        "id",
        "game_id",
        "turn",
        "seq",
        "section",
        "payload",
        "outcome",
        "user_id",
        "at",
    ]
