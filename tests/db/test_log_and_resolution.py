"""Arrival order under concurrency, resolving a turn exactly once, and the outbox."""

from __future__ import annotations

import asyncio
import datetime as dt

import pytest

from db.errors import NotFound, StoreError
from db.interface import GameStore
from db.models import OutboxItem
from db.store import SQLiteStore, open_store

from .conftest import T0, running_game

NEXT = T0 + dt.timedelta(days=1)


async def test_200_simultaneous_requests_lose_nothing_and_keep_arrival_order(
    store: SQLiteStore,
) -> None:
    game_id = await running_game(store)
    other_id = await running_game(store, guild_id=2)

    async def send(i: int) -> int:
        game = game_id if i % 4 else other_id
        entry = await store.add_request(game, 1, "requests", {"by": f"p{i}", "do": "post"}, i)
        return entry.seq

    tasks = [asyncio.create_task(send(i)) for i in range(200)]
    seqs = await asyncio.gather(*tasks)

    for game in (game_id, other_id):
        entries = await store.log_entries(game)
        sent = [i for i in range(200) if (game == game_id) == bool(i % 4)]
        # Nothing lost, seq is gapless, and seq order is the order the calls were made.
        assert [e.seq for e in entries] == list(range(1, len(sent) + 1))
        assert [e.user_id for e in entries] == sent
        assert [seqs[i] for i in sent] == list(range(1, len(sent) + 1))


async def test_two_connections_writing_at_once_never_see_database_is_locked(
    target: str,
) -> None:
    """Two stores (as two processes would) on one database: on SQLite busy_timeout + BEGIN
    IMMEDIATE, on PostgreSQL the game's row lock."""
    first = await open_store(target)
    second = await open_store(target)
    try:
        game_id = await running_game(first)

        async def burst(store: GameStore, tag: str) -> None:
            for i in range(100):
                await store.add_request(game_id, 1, "requests", {"by": tag, "n": i}, None)

        await asyncio.gather(burst(first, "a"), burst(second, "b"))
        entries = await first.log_entries(game_id)
        assert [e.seq for e in entries] == list(range(1, 201))
        for tag in "ab":
            assert [e.payload["n"] for e in entries if e.payload["by"] == tag] == list(range(100))
    finally:
        await first.close()
        await second.close()


async def test_a_cancelled_caller_leaves_no_half_transaction(store: SQLiteStore) -> None:
    game_id = await running_game(store)
    items = [OutboxItem("deaths", {"n": i}) for i in range(50)]
    task = asyncio.create_task(store.record_resolution(game_id, 1, {"turn": 1}, items, 2, NEXT))
    await asyncio.sleep(0)  # let it start its transaction
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    # The shielded transaction still finished, as a whole.
    await asyncio.sleep(0.2)
    assert [r.turn for r in await store.resolutions(game_id)] == [1]
    assert len(await store.pending_outbox(game_id)) == 50
    assert (await store.require_game(game_id)).turn == 2
    # And the connection is usable (no transaction left open).
    entry = await store.add_request(game_id, 2, "requests", {"by": "Anna", "do": "post"}, 1)
    assert entry.seq == 1


async def test_cancelling_many_writers_loses_no_committed_entry(store: SQLiteStore) -> None:
    game_id = await running_game(store)
    tasks = [
        asyncio.create_task(store.add_request(game_id, 1, "requests", {"by": "x", "n": i}, None))
        for i in range(50)
    ]
    await asyncio.sleep(0.005)
    for t in tasks[::3]:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await asyncio.sleep(0.2)
    entries = await store.log_entries(game_id)
    # Every write ran to completion even if its caller stopped waiting.
    assert [e.payload["n"] for e in entries] == list(range(50))


async def test_record_resolution_is_one_transaction_and_idempotent(store: SQLiteStore) -> None:
    game_id = await running_game(store)
    result = {"turn": 1, "deaths": [{"player": "Dan", "cause": "mafia"}], "winner": None}
    items = [OutboxItem("deaths", {"players": ["Dan"]}), OutboxItem("check", {"to": 1000})]

    assert await store.record_resolution(game_id, 1, result, items, 2, NEXT) is True
    game = await store.require_game(game_id)
    assert (game.turn, game.deadline, game.phase, game.status) == (2, NEXT, "day", "running")
    assert [r.turn for r in await store.resolutions(game_id)] == [1]  # and none of turn 2

    # The second call is a no-op: no new announcements, the clock not moved again.
    again = [OutboxItem("deaths", {"players": ["Someone else"]})]
    assert await store.record_resolution(game_id, 1, {"other": 1}, again, 3, T0) is False
    game = await store.require_game(game_id)
    assert (game.turn, game.deadline) == (2, NEXT)
    assert [o.payload for o in await store.outbox(game_id)] == [i.payload for i in items]
    [stored] = await store.resolutions(game_id)
    assert (stored.turn, stored.result) == (1, result)


async def test_simultaneous_resolutions_of_one_turn_resolve_it_once(store: SQLiteStore) -> None:
    game_id = await running_game(store)
    outcomes = await asyncio.gather(
        *[
            store.record_resolution(
                game_id, 1, {"by": i}, [OutboxItem("deaths", {"by": i})], 2, NEXT
            )
            for i in range(20)
        ]
    )
    assert sorted(outcomes) == [False] * 19 + [True]
    winner = outcomes.index(True)
    assert (await store.resolutions(game_id))[0].result == {"by": winner}
    assert [o.payload for o in await store.outbox(game_id)] == [{"by": winner}]


async def test_a_refused_resolution_writes_nothing(store: SQLiteStore) -> None:
    game_id = await running_game(store)
    items = [OutboxItem("deaths", {})]
    with pytest.raises(StoreError, match="turn 1, not 2"):
        await store.record_resolution(game_id, 2, {}, items, 3, NEXT)
    with pytest.raises(NotFound):
        await store.record_resolution(game_id + 9, 1, {}, items, 2, NEXT)
    assert await store.resolutions(game_id) == []
    assert await store.outbox(game_id) == []
    lobby = await store.create_game(9, seed=1, schedule_kind="fast", timezone="UTC")
    with pytest.raises(StoreError, match="not running"):
        await store.record_resolution(lobby.id, 1, {}, items, 2, NEXT)
    assert await store.outbox(lobby.id) == []


async def test_a_resolution_with_a_winner_finishes_the_game(store: SQLiteStore) -> None:
    game_id = await running_game(store)
    await store.record_resolution(game_id, 1, {}, [], 2, NEXT)
    done = await store.record_resolution(
        game_id,
        2,
        {"winner": "town"},
        [OutboxItem("win", {"w": "town"})],
        2,
        None,
        winner="town",
    )
    assert done
    game = await store.require_game(game_id)
    assert (game.status, game.winner, game.deadline, game.turn) == ("finished", "town", None, 2)
    assert await store.running_games() == []
    # Still idempotent after the game has finished.
    assert not await store.record_resolution(game_id, 2, {}, [], 3, NEXT, winner="town")


async def test_pistol_window_is_recorded_once_with_its_announcements(store: SQLiteStore) -> None:
    game_id = await running_game(store)
    window = T0 + dt.timedelta(hours=1)
    partial = {"deaths": [{"player": "Anna", "cause": "mafia"}]}
    items = [OutboxItem("deaths", partial), OutboxItem("pistol_prompt", {"to": "Anna"})]
    assert await store.begin_pistol_window(game_id, 1, partial, items, window)
    assert not await store.begin_pistol_window(game_id, 1, {}, items, T0)
    game = await store.require_game(game_id)
    assert (game.phase, game.deadline, game.turn) == ("pistol", window, 1)
    assert await store.pistol_window(game_id, 1) == partial
    assert await store.pistol_window(game_id, 2) is None
    assert [o.kind for o in await store.pending_outbox(game_id)] == ["deaths", "pistol_prompt"]
    with pytest.raises(StoreError):
        await store.begin_pistol_window(game_id, 3, {}, items, window)
    # Then the turn finishes as usual.
    assert await store.record_resolution(game_id, 1, {"final": True}, [], 2, NEXT)
    assert (await store.require_game(game_id)).phase == "day"


async def test_outbox_is_resent_until_marked_sent(target: str) -> None:
    store = await open_store(target)
    game_id = await running_game(store)
    other_id = await running_game(store, guild_id=2)
    items = [OutboxItem("deaths", {"n": 1}), OutboxItem("lynch", {"n": 2})]
    await store.record_resolution(game_id, 1, {}, items, 2, NEXT)
    [narrative] = await store.add_outbox(other_id, 1, [OutboxItem("narrative", {"t": "x"})])

    pending = await store.pending_outbox(game_id)
    assert [(o.kind, o.payload, o.turn, o.sent) for o in pending] == [
        ("deaths", {"n": 1}, 1, False),
        ("lynch", {"n": 2}, 1, False),
    ]
    assert [o.id for o in await store.pending_outbox()] == [*(o.id for o in pending), narrative]
    # Sent the first, then "crashed" before marking the second.
    assert await store.mark_sent(pending[0].id) is True
    assert await store.mark_sent(pending[0].id) is False  # idempotent
    assert await store.mark_sent(10_000) is False
    await store.close()

    store = await open_store(target)
    try:
        again = await store.pending_outbox(game_id)
        assert [o.id for o in again] == [pending[1].id]  # only what was not confirmed
        assert await store.mark_sent(again[0].id)
        assert await store.pending_outbox(game_id) == []
        everything = await store.outbox(game_id)
        assert all(o.sent and o.sent_at is not None for o in everything)
        assert [o.id for o in await store.pending_outbox()] == [narrative]
    finally:
        await store.close()
