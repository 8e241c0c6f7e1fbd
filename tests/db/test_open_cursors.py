"""``SQLiteStore.open`` leaves no statement in progress (docs/SIMCORD_NOTES.md, gotchas).

The bug this guards: the start-up PRAGMAs return a row, and a cursor never read to the end nor
closed keeps its statement "in progress" for as long as something references it; the next
COMMIT then fails ("cannot commit transaction - SQL statements in progress"). Under SimCord
every awaited future sits in a reference cycle until the garbage collector runs, so the
cursors lived on. Here every cursor the connection hands out is kept alive on purpose (the
same condition, without SimCord), and a write right after opening must still commit.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from db.store import SQLiteStore


@pytest.fixture
def cursors_kept_alive(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    """Every cursor ``aiosqlite.Connection.execute`` returns is referenced until the test ends,
    as SimCord's future cycles did; the collector is off so nothing frees them early."""
    kept: list[Any] = []
    original = aiosqlite.Connection.execute

    async def execute(self: aiosqlite.Connection, *args: Any, **kwargs: Any) -> Any:
        cursor = await original(self, *args, **kwargs)
        kept.append(cursor)
        return cursor

    # aiosqlite's ``execute`` is used both awaited and as ``async with``: keep both working.
    def execute_ctx(self: aiosqlite.Connection, *args: Any, **kwargs: Any) -> Any:
        return aiosqlite.context.Result(execute(self, *args, **kwargs))

    monkeypatch.setattr(aiosqlite.Connection, "execute", execute_ctx)
    gc.disable()
    try:
        yield kept
    finally:
        gc.enable()


async def test_a_commit_right_after_open_succeeds_with_every_cursor_alive(
    tmp_path: Path, cursors_kept_alive: list[Any]
) -> None:
    store = await SQLiteStore.open(tmp_path / "mafia.db")
    try:
        assert cursors_kept_alive, "the start-up PRAGMAs went through Connection.execute"
        game = await store.create_game(
            1, seed=1, schedule_kind="fast", timezone="UTC", host_user_id=7
        )  # BEGIN IMMEDIATE ... COMMIT
        assert await store.add_signup(game.id, 7)
        assert await store.signups(game.id) == [7]
    finally:
        await store.close()
