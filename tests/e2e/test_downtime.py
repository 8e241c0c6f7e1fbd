"""R59, downtime, the real bot in SimCord as ``main.py run`` starts it (``create_bot``'s
defaults: the heartbeat on): a restart that cost a tenth of the turn or more removes nobody for
inactivity, the results say so in #game, and #host gets the downtime. Without the heartbeat
(before R59) every player who had not posted was removed at the deadline; with the store
stamping a turn's resolution on the machine's clock while the game reads the injectable one
(before issue 30), a later turn's downtime fell outside the turn and counted for nothing."""

from __future__ import annotations

from datetime import timedelta

from simcord import Env

from bot.client import MafiaBot
from core.i18n import t
from core.service import HEARTBEAT_SECONDS, MAX_BEAT_SECONDS
from main import create_bot
from tests.e2e.helpers import (
    TEST_BOT,
    Restart,
    add_players,
    bot_of,
    channel_texts,
    live_game,
    make_world,
    reply_text,
    slot,
    start_game,
    until_deadline,
)

#: Every game of this module is played on SQLite and on PostgreSQL (tests/e2e/conftest.py).
BOTH_ENGINES = True

ROLES = "mafioso=1 commissar=1 villager=2"


async def test_R59_two_minutes_down_in_a_later_ten_minute_turn_removes_nobody(
    simcord_env: Env, restart: Restart
) -> None:
    """Turn 2 (opened by a resolution the store stamped) of ten minutes loses two to a
    restart: nobody who stayed silent and missed his second vote leaves (R52, R53), #game says
    why, #host gets the length."""
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ["a", "b", "c", "d"])
    bot = bot_of(env)
    assert bot.heartbeat is not None and bot.heartbeat.running  # the default, as in production
    assert bot.heartbeat.period == MAX_BEAT_SECONDS  # no game to serve yet
    await start_game(world, ROLES, players)
    assert bot.heartbeat.period == HEARTBEAT_SECONDS  # re-paced for ten-minute turns
    assert live_game(world).record.activity_rules
    for actor in players:  # turn 1: everyone posts, nobody votes (one missed vote each)
        reply_text(await actor.slash(slot(world, "game"), "say", text="hello"))
    await until_deadline(world, before=-1)
    assert live_game(world).engine.turn == 2
    assert all(p.alive for p in live_game(world).engine.state.players.values())
    await env.advance_time(3 * 60)  # the bot serves turn 2, beating
    await bot.heartbeat.beat_now()  # its last beat: the moment it stops, to the second

    async def two_minutes_down(_database: str) -> None:
        await env.advance_time(2 * 60)

    await restart(two_minutes_down)
    await until_deadline(world, before=-1)
    game = live_game(world)
    assert game.engine.turn == 3
    # Silent all turn 2 and a second missed vote each: removed, were the turn not excused.
    assert all(p.alive for p in game.engine.state.players.values())
    assert t("en", "announce.downtime", turn=2, minutes=2) in channel_texts(slot(world, "game"))
    line = t("en", "console.downtime", turn=2, minutes=2, percent=20)
    assert f"{line} {t('en', 'console.downtime_excused')}" in channel_texts(slot(world, "host"))


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
    new = create_bot(old.database, **TEST_BOT)
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
