"""The vote's path through the store (issue 34): a fenced append checks its fence inside its
INSERT (one statement on both engines, reading one index for the count and one for the next
``seq``), and on PostgreSQL a write's ``BEGIN`` goes with the game's row lock, so that a
fenced vote is three round trips (``BEGIN`` + lock, the INSERT, ``COMMIT``), not five. What
the fence refuses and what two processes at once get is in ``test_fence.py`` and
``test_postgres.py``."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import pytest

from db.errors import NotFound, StaleGame
from db.models import Fence, OutboxItem
from db.ops.requests import _INSERT_FENCED
from db.postgres import PostgresStore
from db.store import open_store
from db.urls import is_postgres_url
from tests import pgserver
from tests.db.conftest import T0, raw_rows, running_game

VOTE = {"by": "Anna", "do": "vote", "target": "Bob"}


async def test_the_fenced_insert_reads_one_index_for_each_count(target: str) -> None:
    store = await open_store(target)
    try:
        game = await running_game(store)
        for i in range(3):
            await store.add_request(game, 1, "requests", {"by": "Anna", "do": "post", "i": i}, 1)
    finally:
        await store.close()
    args = (game, 1, "requests", "{}", "accepted", None, T0, 1, "day", 3)
    if is_postgres_url(target):
        conn = await asyncpg.connect(target)
        try:
            await conn.execute("SET enable_seqscan = off")  # a few rows: it would rather scan
            await conn.execute("VACUUM log_entries")  # the visibility map: an index-only scan
            sql = "EXPLAIN " + _INSERT_FENCED  # planned, not run
            plan = " ".join(r[0] for r in await conn.fetch(sql, *args))
        finally:
            await conn.close()
        assert "Index Only Scan using log_entries_accepted" in plan, plan
        assert "log_entries_game_id_seq_key" in plan, plan
        return
    sql = "EXPLAIN QUERY PLAN " + _INSERT_FENCED.replace("$", "?")
    args = (*args[:6], "t", *args[7:])  # SQLite keeps times as text
    plan = " ".join(str(r[3]) for r in await raw_rows(target, sql, *args))
    assert "USING COVERING INDEX log_entries_accepted" in plan, plan
    assert "USING COVERING INDEX sqlite_autoindex_log_entries_1" in plan, plan


async def test_a_fenced_append_numbers_and_refuses_in_one_statement(target: str) -> None:
    """The folded fence keeps every answer of the separate one: the entry numbered next, a
    stale count refused with nothing written, a missing game NotFound."""
    async with await open_store(target) as store:
        game = await running_game(store)
        first = await store.add_request(game, 1, "requests", VOTE, 1, fence=Fence(1, "day", 0))
        second = await store.add_request(game, 1, "requests", VOTE, 2, fence=Fence(1, "day", 1))
        assert (first.seq, second.seq) == (1, 2)
        with pytest.raises(StaleGame, match="2 entries"):
            await store.add_request(game, 1, "requests", VOTE, 3, fence=Fence(1, "day", 1))
        with pytest.raises(NotFound):
            await store.add_request(game + 1, 1, "requests", VOTE, 3, fence=Fence(1, "day", 0))
        assert [e.seq for e in await store.log_entries(game)] == [1, 2]
        third = await store.add_request(game, 1, "requests", VOTE, 3, fence=Fence(1, "day", 2))
        assert third.seq == 3


# --- PostgreSQL: the round trips -----------------------------------------------------------


@pytest.fixture
async def pg() -> AsyncIterator[PostgresStore]:
    store = await PostgresStore.open(pgserver.fresh_url())
    try:
        yield store
    finally:
        await store.close()


async def sent_by(store: PostgresStore, write: Any) -> list[str]:
    """The queries ``write`` (a coroutine) sends, one per round trip, in order."""
    sent: list[str] = []

    def logged(record: Any) -> None:
        sent.append(" ".join(record.query.split()))

    pool: Any = store._pool
    connections = [h._con for h in pool._holders if h._con is not None]
    for conn in connections:
        conn.add_query_logger(logged)
    try:
        await write
        await asyncio.sleep(0.05)  # the loggers are called soon after each query
    finally:
        for conn in connections:
            conn.remove_query_logger(logged)
    return sent


async def test_a_fenced_vote_is_three_round_trips(pg: PostgresStore) -> None:
    game = await running_game(pg)
    await pg.add_request(game, 1, "requests", VOTE, 1, fence=Fence(1, "day", 0))  # prepared
    sent = await sent_by(pg, pg.add_request(game, 1, "requests", VOTE, 2, fence=Fence(1, "day", 1)))
    assert [q.split()[0] for q in sent] == ["BEGIN;", "INSERT", "COMMIT"], sent
    assert sent[0] == f"BEGIN; SELECT 1 FROM games WHERE id = {game} FOR UPDATE"
    assert [e.seq for e in await pg.log_entries(game)] == [1, 2]


async def test_a_transaction_locks_a_game_once(pg: PostgresStore) -> None:
    """A resolution serialises on the game twice (its stage, its fence): the lock is sent
    once, with the BEGIN; its claim then reads the locked row's status and turn."""
    game = await running_game(pg)
    fence = Fence(1, "day", 0)
    items = [OutboxItem("deaths", {})]
    sent = await sent_by(pg, pg.record_resolution(game, 1, {}, items, 2, T0, fence=fence))
    assert sent[0] == f"BEGIN; SELECT 1 FROM games WHERE id = {game} FOR UPDATE", sent
    assert sum("FOR UPDATE" in q for q in sent) == 2, sent  # the BEGIN's, the claim's
    assert sent[-1] == "COMMIT"
    assert [r.turn for r in await pg.resolutions(game)] == [1]


async def test_a_refused_write_leaves_no_transaction_open(pg: PostgresStore) -> None:
    """A write that fails after its BEGIN (a stale fence, a missing game) is rolled back: the
    pool's connection is idle again and the next write commits."""
    game = await running_game(pg)
    with pytest.raises(StaleGame):
        await pg.add_request(game, 1, "requests", VOTE, 1, fence=Fence(1, "day", 5))
    with pytest.raises(NotFound):
        await pg.add_request(game + 1, 1, "requests", VOTE, 1)  # the INSERT's foreign key
    pool: Any = pg._pool
    connections = [h._con for h in pool._holders if h._con is not None]
    assert connections and not any(c.is_in_transaction() for c in connections)
    entry = await pg.add_request(game, 1, "requests", VOTE, 1, fence=Fence(1, "day", 0))
    assert entry.seq == 1
    assert len(await pg.log_entries(game)) == 1
