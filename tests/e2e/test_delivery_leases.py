"""Two deliverers on one outbox (two processes, or a shard moving): the real bot in
SimCord and a second :class:`bot.delivery.Delivery` with its own owner id on the same store.
Outbox rows are claimed under a lease, so each message goes out once, each game's in order;
a deliverer that died holding rows (after sending one of them, before marking it) leaves
them to the other once its lease expires, and the one it sent is not sent again."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta
from typing import Any, cast

from simcord import Env

from bot.delivery import Delivery
from core.service import LiveGame
from db.interface import GameStore
from db.models import OutboxItem
from rules.announce import clock_extended_announcement, host_audit_announcement
from tests.e2e.helpers import (
    add_players,
    bot_of,
    channel_texts,
    live_game,
    make_world,
    slot,
    start_game,
)
from tests.e2e.test_delivery_concurrent import (
    Recorder,
    assert_in_order_once,
    four_tables,
    game_rows,
    recorder,  # noqa: F401  (the fixture)
)


async def queue_rows(env: Env, games: list[LiveGame], per_game: int = 3) -> list[int]:
    """Rows for every game's #game and #host, queued as a service in another process would
    (nothing delivers them yet)."""
    store = bot_of(env).store
    ids = []
    for game in games:
        items = []
        for i in range(per_game):  # each message its own text (the history check tells them)
            deadline = (env.now() + timedelta(minutes=i)).isoformat()
            audit = host_audit_announcement("extend", 1, {"minutes": i + 1})
            for a in (clock_extended_announcement(deadline), audit):
                items.append(OutboxItem(kind=a.kind, payload=a.to_dict()))
        ids += await store.add_outbox(game.id, game.engine.turn, items)
    return ids


async def test_two_deliverers_send_each_message_once(
    simcord_env: Env,
    recorder: Recorder,  # noqa: F811
) -> None:
    env = simcord_env
    world = await four_tables(env)
    bot = bot_of(env)
    games = [g for t in world.tables if (g := bot.service.game_in(t.table_id)) is not None]
    ids = await queue_rows(env, games)
    since = len(recorder.created)
    other = Delivery(bot, bot.store, bot.service, owner="the other process")
    sent = await asyncio.gather(bot.context.delivery.deliver(), other.deliver())
    await env.settle()
    assert sum(sent) == len(ids)
    assert await bot.store.pending_outbox() == []
    assert_in_order_once(recorder, since, await game_rows(env))
    assert len(recorder.rows()[since:]) == len(ids)


async def test_a_dead_deliverers_rows_are_taken_over_once(
    simcord_env: Env,
    recorder: Recorder,  # noqa: F811
) -> None:
    env = simcord_env
    world = await four_tables(env)
    bot = bot_of(env)
    games = [g for t in world.tables if (g := bot.service.game_in(t.table_id)) is not None]
    ids = await queue_rows(env, games)
    since = len(recorder.created)
    dead = Delivery(bot, bot.store, bot.service, owner="dead", lease_seconds=0.3)
    claimed = await dead._claim()
    assert [r.id for r in claimed] == ids
    assert await dead._deliver_row(claimed[0])  # sent; the process dies before marking it
    await env.settle()
    live = bot.context.delivery
    assert await live.deliver() == 0  # the dead one's lease still holds: nothing twice
    assert len(recorder.rows()[since:]) == 1
    time.sleep(0.4)  # wall time: the lease runs out (process coordination: the machine's)
    assert await live.deliver() == len(ids)
    await env.settle()
    assert await bot.store.pending_outbox() == []
    sent = recorder.rows()[since:]
    assert sorted({row for _, row, _ in sent}) == ids
    assert_in_order_once(recorder, since, await game_rows(env))  # the first row: once


async def test_a_slow_deliverer_renews_its_leases(
    simcord_env: Env,
    recorder: Recorder,  # noqa: F811
) -> None:
    """A live deliverer renews its leases as it goes (a third of the lease after the last
    renewal): its rows are not taken over while it works through them."""
    env = simcord_env
    world = await four_tables(env)
    bot = bot_of(env)
    games = [g for t in world.tables if (g := bot.service.game_in(t.table_id)) is not None]
    ids = await queue_rows(env, games, per_game=1)
    slow = Delivery(bot, bot.store, bot.service, owner="slow", lease_seconds=0.3)
    assert [r.id for r in await slow._claim()] == ids
    eager = Delivery(bot, bot.store, bot.service, owner="eager")
    for _ in range(3):  # 0.6 s in all: twice the lease
        time.sleep(0.2)
        await slow.leases.keep()
        assert await eager.deliver() == 0
    assert await slow.deliver() == len(ids)
    await env.settle()
    assert await bot.store.pending_outbox() == []


class StalledStore:
    """A deliverer's store that stalls (its process paused, a long wait) in the middle of a
    row, after its lease was last checked at the row's start, until ``resume`` is set."""

    def __init__(self, store: GameStore) -> None:
        self._store = store
        self.resume = asyncio.Event()
        self.stalled = asyncio.Event()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    async def get_table(self, table_id: int) -> Any:
        self.stalled.set()
        await self.resume.wait()  # (this deliverer is the test's, not the bot's: SimCord
        # waits for none of its tasks)
        return await self._store.get_table(table_id)


async def test_a_deliverer_stalled_past_its_lease_sends_nothing_when_it_resumes(
    simcord_env: Env,
) -> None:
    """A deliverer claims a player's post, then stalls past its lease; the bot's own
    deliverer takes the row over and shows the post. When the stalled one resumes it sends
    nothing: a post carries no nonce, so it would show twice in #game."""
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ["a", "b", "c", "d"])
    await start_game(world, "mafioso=1 commissar=1 villager=2", players)
    bot = bot_of(env)
    game = live_game(world)
    queued = await bot.service.queue_post(game.record.table_id, players[0].id, "only once")
    stalled_store = StalledStore(bot.store)
    stalled = Delivery(
        bot, cast(GameStore, stalled_store), bot.service, owner="stalled", lease_seconds=0.3
    )
    paused = asyncio.get_running_loop().create_task(stalled.deliver_game(game.id))
    await asyncio.wait_for(stalled_store.stalled.wait(), timeout=60)  # the row claimed
    assert not paused.done()  # ... and the deliverer stalls there
    time.sleep(0.4)  # past its lease (process coordination: the machine's clock)
    await env.advance_time(1)  # (and SimCord's monotonic clock, which paces the renewals)
    live = bot.context.delivery
    await live.deliver_game(game.id)  # takes the row over: the post is shown
    await env.settle()
    assert channel_texts(slot(world, "game")).count("only once") == 1
    stalled_store.resume.set()
    marked = await asyncio.wait_for(paused, timeout=60)
    await env.settle()
    assert channel_texts(slot(world, "game")).count("only once") == 1  # not twice
    assert marked == 0
    assert not [r for r in await bot.store.pending_outbox(game.id) if r.id == queued.row_id]
