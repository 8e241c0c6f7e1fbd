"""Two deliverers on one outbox (two processes, or a shard moving): the real bot in
SimCord and a second :class:`bot.delivery.Delivery` with its own owner id on the same store.
Outbox rows are claimed under a lease, so each message goes out once, each game's in order;
a deliverer that died holding rows (after sending one of them, before marking it) leaves
them to the other once its lease expires, and the one it sent is not sent again."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from simcord import Env

from bot.delivery import Delivery
from core.service import LiveGame
from db.models import OutboxItem
from rules.announce import clock_extended_announcement, host_audit_announcement
from tests.e2e.helpers import bot_of
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
    await env.advance_time(0.4)  # the lease runs out (the store's clock: the game's)
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
        await env.advance_time(0.2)
        await slow._keep_leases()
        assert await eager.deliver() == 0
    assert await slow.deliver() == len(ids)
    await env.settle()
    assert await bot.store.pending_outbox() == []
