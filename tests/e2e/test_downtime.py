"""R59, downtime, the real bot in SimCord with its heartbeat on (as ``main.py run`` starts it):
a restart that cost a tenth of the turn or more removes nobody for inactivity, the results say
so in #game, and #host gets the downtime. Without the heartbeat (before R59) every player who
had not posted was removed at the deadline."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta

import pytest_asyncio
from discord.ext import commands
from simcord import Env

from bot.client import MafiaBot
from core.i18n import t
from main import create_bot
from tests.e2e.helpers import (
    add_players,
    bot_of,
    channel_texts,
    live_game,
    make_world,
    reply_text,
    slot,
    start_game,
)

#: Every game of this module is played on SQLite and on PostgreSQL (tests/e2e/conftest.py).
BOTH_ENGINES = True

ROLES = "mafioso=1 commissar=1 villager=2"


@pytest_asyncio.fixture
async def simcord_bot(database: str) -> AsyncIterator[commands.Bot]:
    """The bot of this module beats in the store (R59)."""
    bot = create_bot(database, heartbeat=True)
    yield bot
    if isinstance(bot, MafiaBot):
        await bot.close_store()


async def test_R59_a_restart_that_cost_a_tenth_of_the_turn_removes_nobody(
    simcord_env: Env,
) -> None:
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ["a", "b", "c", "d"])
    await start_game(world, ROLES, players)
    assert live_game(world).record.activity_rules
    reply_text(await players[0].slash(slot(world, "game"), "say", text="here"))
    await env.advance_time(120)  # the bot serves the game, beating every half minute
    old = bot_of(env)
    await old.close()  # the process stops ...
    await env.advance_time(180)  # ... for three minutes of the ten-minute turn
    new = create_bot(old.database, heartbeat=True)
    assert isinstance(new, MafiaBot)
    try:
        await env.restart_bot(new)
        game = live_game(world)
        # The host's preview already counts it: nobody would be removed now (R52, R59).
        preview = reply_text(await world.admin.slash(world.lobby, "mafia resolve"))
        assert t("en", "console.downtime", turn=1, minutes=3, percent=60) in preview
        assert t("en", "host.resolve_preview_nobody_removed") in preview
        deadline = game.record.deadline
        assert deadline is not None
        await env.advance_time((deadline - env.now()).total_seconds() + 1)
        game = live_game(world)
        assert game.engine.turn == 2
        assert all(p.alive for p in game.engine.state.players.values())  # R52 waived
        assert t("en", "announce.downtime", turn=1, minutes=3) in channel_texts(slot(world, "game"))
        hosts = channel_texts(slot(world, "host"))
        line = t("en", "console.downtime", turn=1, minutes=3, percent=30)
        assert f"{line} {t('en', 'console.downtime_excused')}" in hosts
    finally:
        await new.close_store()


async def test_R59_discord_not_answering_counts_as_downtime(simcord_env: Env) -> None:
    """The gateway drops for three minutes (the bot runs on, but Discord does not answer
    it): no beat meanwhile, and the beat when it is back keeps the gap as downtime (cause
    ``discord``); the turn removes nobody for inactivity."""
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ["a", "b", "c", "d"])
    await start_game(world, ROLES, players)
    bot = bot_of(env)
    await env.advance_time(60)
    await bot.on_disconnect()
    await env.advance_time(180)
    game = live_game(world)
    assert await bot.store.downtime(game.id, game.record.started_at or env.now()) == []
    await bot.on_resumed()
    [(start, end, cause)] = await bot.store.downtime(game.id, env.now() - timedelta(hours=1))
    assert cause == "discord" and (end - start).total_seconds() >= 180
    deadline = game.record.deadline
    assert deadline is not None
    await env.advance_time((deadline - env.now()).total_seconds() + 1)
    game = live_game(world)
    assert game.engine.turn == 2
    assert all(p.alive for p in game.engine.state.players.values())
