""" "a vote at the cost of one commit", in the store: the servers' tables are served
from memory (read once per server, forgotten by every write that changes them), and a
player's request and a post are committed in one call to the database thread.

What the store sends to SQLite is watched through SQLite's own trace callback, and the calls
to the connection's thread by counting aiosqlite's queueing of them; no part of ours is
replaced."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from db.models import TableSettings
from db.store import SQLiteStore, open_store
from db.tablecache import TableCache
from tests.db.conftest import raw_rows, running_game

GUILD, OTHER = 10, 20
SECOND = 555  # the category id keying the server's second table


async def traced(store: SQLiteStore) -> list[str]:
    """Every SQL statement the store runs from now on."""
    statements: list[str] = []
    await store._db.set_trace_callback(statements.append)
    return statements


def table_reads(statements: list[str]) -> list[str]:
    return [s for s in statements if "FROM game_tables" in s and s.startswith("SELECT")]


async def test_a_servers_tables_are_read_once_then_served_from_memory(
    sqlite_store: SQLiteStore,
) -> None:
    store = sqlite_store
    first = TableSettings(guild_id=GUILD, language="en", game_channel_id=11)
    second = TableSettings(guild_id=GUILD, table_id=SECOND, name="B", game_channel_id=12)
    await store.save_table(first)
    await store.save_table(second)
    statements = await traced(store)

    for _ in range(3):
        assert await store.tables(GUILD) == [first, second]
        assert await store.get_table(GUILD) == first
        assert await store.get_table(SECOND) == second
    assert len(table_reads(statements)) == 1

    # get_table reads a server's tables at once; an absent table is remembered as absent.
    for _ in range(3):
        assert await store.get_table(OTHER) is None
        assert await store.tables(OTHER) == []
    assert len(table_reads(statements)) == 3


async def test_every_write_to_the_tables_is_seen_at_once(store: SQLiteStore, target: str) -> None:
    other = TableSettings(guild_id=OTHER, language="ru")
    await store.save_table(other)
    first = TableSettings(guild_id=GUILD, language="en")
    await store.save_table(first)
    assert await store.tables(GUILD) == [first]
    assert await store.get_table(SECOND) is None
    assert await store.tables(OTHER) == [other]

    # A second table, then a change of each: seen by both reads.
    second = TableSettings(guild_id=GUILD, table_id=SECOND, name="B", language="ru")
    await store.save_table(second)
    assert await store.get_table(SECOND) == second
    assert await store.tables(GUILD) == [first, second]
    first = TableSettings(guild_id=GUILD, language="ru", host_role_id=7, game_channel_id=11)
    await store.save_table(first)
    assert await store.get_table(GUILD) == first
    second = TableSettings(guild_id=GUILD, table_id=SECOND, name="A", language="en")
    await store.save_table(second)
    assert await store.tables(GUILD) == [first, second]  # the unnamed first table first
    assert await store.get_table(SECOND) == second

    # Dropping one table, then leaving the server.
    assert await store.drop_table(SECOND)
    assert await store.get_table(SECOND) is None
    assert await store.tables(GUILD) == [first]
    assert not await store.drop_table(SECOND)
    await store.purge_guild(GUILD)
    assert await store.tables(GUILD) == []
    assert await store.get_table(GUILD) is None
    assert await store.tables(OTHER) == [other]  # another server keeps its table

    # A restart reads what the file holds.
    await store.save_table(first)
    await store.close()
    async with await open_store(target) as again:
        assert await again.tables(GUILD) == [first]
        assert await again.get_table(OTHER) == other


async def test_a_refused_name_leaves_the_tables_as_they_were(store: SQLiteStore) -> None:
    await store.save_table(TableSettings(guild_id=GUILD, table_id=SECOND, name="B"))
    before = await store.tables(GUILD)
    with pytest.raises(Exception, match="taken"):
        await store.save_table(TableSettings(guild_id=GUILD, table_id=SECOND + 1, name="b"))
    assert await store.tables(GUILD) == before
    assert await store.get_table(SECOND + 1) is None


@contextmanager
def thread_calls(store: SQLiteStore) -> Iterator[list[Any]]:
    """The functions queued on the store's connection thread (one per hop) while inside."""
    calls: list[Any] = []
    conn = store._db
    original = aiosqlite.Connection._execute

    async def counted(self: aiosqlite.Connection, fn: Any, *args: Any, **kwargs: Any) -> Any:
        if self is conn:
            calls.append(fn)
        return await original(self, fn, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(aiosqlite.Connection, "_execute", counted)
        yield calls


async def committed_rows(target: str, table: str, game_id: int) -> int:
    """Rows another connection sees: what is committed."""
    [(count,)] = await raw_rows(target, f"SELECT COUNT(*) FROM {table} WHERE game_id = ?", game_id)
    return int(str(count))


async def test_a_request_and_a_post_commit_in_one_call_to_the_database_thread(
    sqlite_store: SQLiteStore, db_path: Path
) -> None:
    store, target = sqlite_store, str(db_path)
    game_id = await running_game(store)
    entries = await committed_rows(target, "log_entries", game_id)
    with thread_calls(store) as calls:
        entry = await store.add_request(game_id, 1, "requests", {"by": "a", "do": "post"}, 1)
    assert len(calls) == 1
    assert await committed_rows(target, "log_entries", game_id) == entries + 1
    assert entry.seq == entries + 1

    with thread_calls(store) as calls:
        await store.add_post(game_id, 1, "a", "hello")
    assert len(calls) == 1
    assert await committed_rows(target, "posts", game_id) == 1


async def test_a_failed_one_call_write_leaves_nothing_and_the_next_one_works(
    store: SQLiteStore, target: str
) -> None:
    game_id = await running_game(store)
    entries = await committed_rows(target, "log_entries", game_id)
    with pytest.raises(Exception, match="no game"):
        await store.add_request(game_id + 99, 1, "requests", {"by": "a", "do": "post"}, 1)
    assert await committed_rows(target, "log_entries", game_id) == entries
    await store.add_request(game_id, 1, "requests", {"by": "a", "do": "post"}, 1)
    assert await committed_rows(target, "log_entries", game_id) == entries + 1


async def test_a_write_whose_caller_is_cancelled_commits_whole(
    store: SQLiteStore, target: str
) -> None:
    game_id = await running_game(store)
    entries = await committed_rows(target, "log_entries", game_id)
    task = asyncio.create_task(
        store.add_request(game_id, 1, "requests", {"by": "a", "do": "post"}, 1)
    )
    await asyncio.sleep(0)  # queued on the connection's thread
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    log = await store.log_entries(game_id)  # runs after it on the same thread
    assert len(log) == entries + 1
    await store.add_request(game_id, 1, "requests", {"by": "b", "do": "post"}, 2)
    await store.close()  # nothing left half done
    assert await committed_rows(target, "log_entries", game_id) == entries + 2


def test_the_cache_keeps_the_most_recently_used_servers_only() -> None:
    cache = TableCache(max_guilds=2)
    for guild in (1, 2, 3):
        cache.fill(guild, [TableSettings(guild_id=guild)], cache.generation)
    assert len(cache) == 2
    assert cache.tables(1) is None and not cache.knows(1)
    assert cache.tables(2) == (TableSettings(guild_id=2),)  # now the most recent
    cache.fill(4, [], cache.generation)
    assert cache.tables(3) is None and cache.tables(2) is not None
    assert cache.tables(4) == ()


def test_a_read_that_raced_a_write_is_not_kept() -> None:
    cache = TableCache()
    began = cache.generation
    cache.forget(GUILD, SECOND)  # a write committed while the read was under way
    cache.fill(GUILD, [TableSettings(guild_id=GUILD)], began)
    assert cache.tables(GUILD) is None
    cache.fill(None, [], began, asked=SECOND)
    assert not cache.knows(SECOND)
