"""Outbox rows claimed under a lease ("exactly once across processes"): several
deliverers (processes, each with its own connection) share one outbox; a row is handed to one
of them at a time, a game's rows to one of them at a time (its order), and a dead deliverer's
rows are claimed by another once its lease expired. Each engine-neutral test runs on both
engines (the ``store`` fixture): a real SQLite file with two connections, and a fresh schema of
the test PostgreSQL server with two stores (two pools: two processes)."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from db.interface import GameStore
from db.models import OutboxItem
from db.sqlite.migrations import migrate
from db.store import SQLiteStore, open_store
from tests.db.conftest import running_game
from tests.db.test_migrations import _make_v1_file


@pytest.fixture
async def other(target: str, store: GameStore) -> AsyncIterator[GameStore]:
    """A second process's connection to the same store (opened after ``store``)."""
    s = await open_store(target)
    try:
        yield s
    finally:
        await s.close()


async def queue(store: GameStore, game_id: int, n: int) -> list[int]:
    items = [OutboxItem("narrative", {"text": f"row {i}"}) for i in range(n)]
    return await store.add_outbox(game_id, 1, items)


async def test_concurrent_claims_take_disjoint_rows(store: GameStore, other: GameStore) -> None:
    """Four deliverers on two connections claim a few rows at a time and mark them sent,
    until none is left: each row is handed to exactly one of them, a game's rows in order."""
    games = [await running_game(store, guild_id=g) for g in range(1, 7)]
    ids = [i for g in games for i in await queue(store, g, 5)]
    handed: dict[int, list[str]] = {}  # row -> the owners it was handed to
    order: dict[str, list[tuple[int, int]]] = {}  # owner -> (game, row) in its sending order

    async def deliverer(s: GameStore, owner: str) -> None:
        while await s.pending_outbox():
            claim = await s.claim_outbox(owner, limit=3)
            assert [r.id for r in claim] == sorted(r.id for r in claim)  # oldest first
            for row in claim:
                if row.id not in [i for _g, i in order.get(owner, [])]:
                    handed.setdefault(row.id, []).append(owner)
                    order.setdefault(owner, []).append((row.game_id, row.id))
                assert await s.mark_sent(row.id, owner)  # nobody else marked it
            await asyncio.sleep(0)

    connections = {"a": store, "b": other}
    await asyncio.gather(
        *(deliverer(s, f"{name}{k}") for k in range(2) for name, s in connections.items())
    )
    assert sorted(handed) == ids  # every row
    assert all(len(who) == 1 for who in handed.values())  # each to one deliverer
    for sent in order.values():  # each game's rows in queue order
        for game in games:
            mine = [i for g, i in sent if g == game]
            assert mine == sorted(mine)


async def test_a_game_with_a_live_lease_is_left_to_its_owner(
    store: GameStore, other: GameStore
) -> None:
    first, second = await running_game(store, 1), await running_game(store, 2)
    [a1] = await queue(store, first, 1)
    assert [r.id for r in await store.claim_outbox("a", game_id=first)] == [a1]
    [a2] = await queue(store, first, 1)  # a later row of the game A is delivering
    [b1] = await queue(store, second, 1)
    assert [r.id for r in await other.claim_outbox("b")] == [b1]  # A's game waits for A
    assert [r.id for r in await store.claim_outbox("a")] == [a1, a2]  # A's own: renewed
    assert await other.claim_outbox("b", game_id=first) == []


async def test_an_expired_lease_is_taken_over(store: GameStore, other: GameStore) -> None:
    game = await running_game(store)
    ids = await queue(store, game, 3)
    # Leases long enough that a loaded machine (a parallel run) does not outlive them early.
    assert [r.id for r in await store.claim_outbox("dead", lease_seconds=1.0)] == ids
    assert await other.claim_outbox("alive") == []  # still leased
    await asyncio.sleep(1.1)  # the dead deliverer's lease runs out
    taken = await other.claim_outbox("alive")
    assert [r.id for r in taken] == ids
    assert all(r.retaken for r in taken)  # it may have sent them: the deliverer looks first
    assert not any(r.retaken for r in await other.claim_outbox("alive"))  # renewed, not taken
    assert await store.renew_outbox("dead") == []  # it holds nothing any more
    assert await other.renew_outbox("alive") == ids


async def test_renewing_keeps_the_rows_of_a_slow_deliverer(
    store: GameStore, other: GameStore
) -> None:
    game = await running_game(store)
    ids = await queue(store, game, 2)
    await store.claim_outbox("slow", lease_seconds=1.5)
    for _ in range(3):  # three renewals outlive the first lease: each one extends it
        await asyncio.sleep(0.6)
        assert await store.renew_outbox("slow", lease_seconds=1.5) == ids
        assert await other.claim_outbox("eager") == []


async def test_mark_sent_releases_the_row(store: GameStore, other: GameStore) -> None:
    game = await running_game(store)
    first, second = await queue(store, game, 2)
    await store.claim_outbox("a", limit=1)
    assert await store.mark_sent(first, "a")
    assert not await other.mark_sent(first)  # once
    assert await store.renew_outbox("a") == []
    # The game's next row is still free: it was never claimed.
    assert [r.id for r in await other.claim_outbox("b")] == [second]
    assert [r.id for r in await store.pending_outbox()] == [second]


async def test_bad_claims_write_nothing(store: GameStore) -> None:
    game = await running_game(store)
    await queue(store, game, 1)
    for bad in ({"limit": 0}, {"lease_seconds": 0.0}):
        with pytest.raises(ValueError):
            await store.claim_outbox("a", **bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        await store.claim_outbox("")
    assert len(await store.claim_outbox("a")) == 1


async def test_migration_7_leaves_a_v6_outbox_claimable(tmp_path: Path) -> None:
    """Migration 7 adds the lease columns: rows a v6 bot queued are unleased, pending, and
    claimed and sent as any other."""
    path = tmp_path / "old.db"
    _make_v1_file(path)
    assert migrate(path, target=6).new_version == 6
    conn = sqlite3.connect(path)
    with conn:
        conn.execute(
            "INSERT INTO outbox (game_id, turn, kind, payload, sent, created_at) VALUES "
            "(1, 1, 'narrative', '{\"text\": \"old\"}', 0, '2025-03-01T10:00:00.000000+00:00')"
        )
    conn.close()
    old = await SQLiteStore.open(path)
    try:
        [row] = await old.claim_outbox("new")
        assert row.payload == {"text": "old"} and not row.retaken
        assert await old.mark_sent(row.id, "new")
        assert await old.pending_outbox() == []
    finally:
        await old.close()
    conn = sqlite3.connect(path)
    columns = {r[1] for r in conn.execute("PRAGMA table_info(outbox)")}
    conn.close()
    assert {"lease_owner", "lease_until"} <= columns


#: A server on shard 1 of 2 by Discord's formula ``(guild_id >> 22) % 2`` (guild 1: shard 0).
SHARD_1_GUILD = 1 << 22


async def test_each_shard_claims_only_its_own_games_rows(
    store: GameStore, other: GameStore
) -> None:
    """claims by shard: a process running shard 0 of 2 never leases a row of a game
    on shard 1 (it would hold it back from shard 1's process, renewing it at each retry), so
    shard 1's process claims its rows at once, as fresh rows, and the other way round."""
    zero = [await running_game(store, guild_id=g) for g in (1, 2)]
    one = await running_game(store, guild_id=SHARD_1_GUILD)
    ids = {g: await queue(store, g, 2) for g in (*zero, one)}
    mine = await store.claim_outbox("shard-0", shard_count=2, shard_ids=[0])
    assert [r.id for r in mine] == ids[zero[0]] + ids[zero[1]]
    theirs = await other.claim_outbox("shard-1", shard_count=2, shard_ids=(1,))
    assert [r.id for r in theirs] == ids[one] and not any(r.retaken for r in theirs)
    assert await store.claim_outbox("shard-0", shard_count=2, shard_ids=[0], game_id=one) == []
    assert await store.renew_outbox("shard-0") == ids[zero[0]] + ids[zero[1]]
    # Claiming both shards (or one shard of one) looks at every game: shard 0's rows are
    # leased, so shard 1's process renews its own rows only.
    for count, shard_ids in ((2, [1, 0]), (1, [0])):
        again = await other.claim_outbox("shard-1", shard_count=count, shard_ids=shard_ids)
        assert [r.id for r in again] == ids[one]


async def test_bad_shards_claim_nothing(store: GameStore) -> None:
    game = await running_game(store)
    await queue(store, game, 1)
    for count, ids in ((None, [0]), (2, []), (2, [2]), (0, [0]), (2, [-1])):
        with pytest.raises(ValueError):
            await store.claim_outbox("a", shard_count=count, shard_ids=ids)
    assert await store.renew_outbox("a") == []


async def test_a_restarted_process_takes_over_its_last_runs_leases_at_once(
    store: GameStore, other: GameStore
) -> None:
    """A process killed while holding leases is started again (same host, same shards: the
    same slot, a new owner): ``expire_leases`` ends the old run's leases, so its rows go out
    now, as taken over (their history read first), not when the leases would have ended. The
    leases of another slot (another shard's process) are not touched."""
    games = [await running_game(store, guild_id=g) for g in (1, 2)]
    mine = await queue(store, games[0], 2)
    theirs = await queue(store, games[1], 1)
    assert [r.id for r in await store.claim_outbox("host/all#1:aa", game_id=games[0])] == mine
    assert [r.id for r in await other.claim_outbox("host/shards-1of2#7:bb", game_id=games[1])] == (
        theirs
    )
    # The new run: nothing claimable before, all of its last run's rows after.
    assert await other.claim_outbox("host/all#2:cc", game_id=games[0]) == []
    assert await other.expire_leases("host/all#", "host/all#2:cc") == mine
    taken = await other.claim_outbox("host/all#2:cc")
    assert [r.id for r in taken] == mine and all(r.retaken for r in taken)
    # A second call finds nothing more to end; the other slot still holds its row.
    assert await other.expire_leases("host/all#", "host/all#2:cc") == []
    assert await store.claim_outbox("host/all#3:dd", game_id=games[1]) == []
    with pytest.raises(ValueError):
        await store.expire_leases("host/all", "host/all#2:cc")  # not a slot


# --- message ids and players' posts (migration 8) ----------------------------------------------
async def test_a_rows_last_message_id_is_kept_when_it_is_marked_sent(store: GameStore) -> None:
    """Migration 8: what a restarted deliverer reads on from, in the store on both engines."""
    game_id = await running_game(store)
    first, second = await queue(store, game_id, 2)
    big = 1456074443980800088  # a snowflake: past 32 bits
    assert await store.mark_sent(first, "a", message_id=big)
    assert await store.mark_sent(second, "a")
    rows = {row.id: row for row in await store.outbox(game_id)}
    assert rows[first].message_id == big and rows[second].message_id is None
    assert not await store.mark_sent(first, "a", message_id=1)  # once: the id stays
    assert (await store.outbox(game_id))[0].message_id == big


async def test_a_shown_post_is_archived_and_its_row_marked_sent_once(store: GameStore) -> None:
    """A player's post waits in the outbox; once shown it is archived and its row marked sent
    in one transaction, once however often the delivery confirms it; before, the archive does
    not list it."""
    game_id = await running_game(store)
    item = OutboxItem("post", {"kind": "post", "audience": "public", "payload": {}})
    [row_id] = await store.add_outbox(game_id, 1, [item])
    assert await store.posts(game_id) == []
    post = await store.publish_post(row_id, game_id, 1, "Anna", "Hello", message_id=42)
    assert post is not None and post.text == "Hello" and not post.ghost
    assert await store.posts(game_id) == [post]
    [row] = await store.outbox(game_id)
    assert row.sent and row.message_id == 42
    assert await store.publish_post(row_id, game_id, 1, "Anna", "Hello") is None
    assert await store.posts(game_id) == [post]
    assert await store.publish_post(row_id + 99, game_id, 1, "Anna", "Hi") is None


async def test_migration_9_keeps_a_v8_outbox(tmp_path: Path) -> None:
    """Rows a v8 bot left (pending and sent) have no message id; they are claimed and sent."""
    path = tmp_path / "old.db"
    _make_v1_file(path)
    assert migrate(path, target=8).new_version == 8
    conn = sqlite3.connect(path)
    with conn:
        conn.execute(
            "INSERT INTO outbox (game_id, turn, kind, payload, sent, created_at) VALUES "
            "(1, 1, 'narrative', '{\"text\": \"old\"}', 0, '2025-03-01T10:00:00.000000+00:00')"
        )
    conn.close()
    old = await SQLiteStore.open(path)
    try:
        [row] = await old.claim_outbox("new")
        assert row.message_id is None
        assert await old.mark_sent(row.id, "new", message_id=7)
        assert [r.message_id for r in await old.outbox(1)] == [7]
    finally:
        await old.close()
