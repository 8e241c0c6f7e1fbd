"""What a server admin runs, against the real bot in SimCord: the Prometheus metrics scraped
over HTTP during a game (commands by outcome, deliveries, the deadline's lag, the outbox, the
store's latency), and a backup taken while the game is played (its copy exports what the
store exports)."""

from __future__ import annotations

import asyncio
import datetime as dt
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio
from discord.ext import commands
from prometheus_client.parser import text_string_to_metric_families
from simcord import Env

from bot.client import MafiaBot
from db.backup import backup
from db.store import open_store
from main import create_bot
from tests.e2e.helpers import (
    add_players,
    bot_of,
    live_game,
    make_world,
    refusal,
    reply_text,
    slot,
    start_game,
    until_deadline,
)

#: Every game of this module is played on SQLite and on PostgreSQL (tests/e2e/conftest.py).
BOTH_ENGINES = True

ROLES = "mafioso=1 commissar=1 villager=2"


@pytest_asyncio.fixture
async def simcord_bot(database: str) -> AsyncIterator[commands.Bot]:
    """The bot of this module serves its metrics on a free port of 127.0.0.1."""
    bot = create_bot(database, metrics_port=0)
    yield bot
    if isinstance(bot, MafiaBot):
        if bot.metrics is not None:
            bot.metrics.stop()
        await bot.close_store()


Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


async def scrape(bot: MafiaBot) -> Samples:
    """``/metrics`` over HTTP, as Prometheus reads it: sample -> value."""
    assert bot.metrics is not None
    url = f"http://127.0.0.1:{bot.metrics.port}/metrics"

    def get() -> str:
        with urllib.request.urlopen(url, timeout=10) as answer:
            assert answer.status == 200
            return answer.read().decode()

    text = await asyncio.to_thread(get)
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def total(samples: Samples, name: str, **labels: str) -> float:
    """The sum over the samples of ``name`` whose labels include ``labels``."""
    return sum(
        v
        for (n, ls), v in samples.items()
        if n == name and all((k, w) in ls for k, w in labels.items())
    )


async def test_the_metrics_follow_a_game(simcord_env: Env) -> None:
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ["a", "b", "c", "d"])
    await start_game(world, ROLES, players)
    bot = bot_of(env)
    game = slot(world, "game")
    reply_text(await players[0].slash(game, "say", text="good morning"))
    await refusal(env, players[0].slash(game, "vote", target="nobody-of-that-name"))

    samples = await scrape(bot)
    assert value(samples, "mafia_interactions_total", command="/say", outcome="accepted") == 1
    assert value(samples, "mafia_interactions_total", command="/vote", outcome="refused") == 1
    assert value(samples, "mafia_interaction_seconds_count", command="/vote") == 1
    started = value(samples, "mafia_interactions_total", command="/mafia start", outcome="accepted")
    assert started == 1
    assert value(samples, "mafia_running_games") == 1
    assert value(samples, "mafia_gateway_connected") == 1
    assert total(samples, "mafia_store_operation_seconds_count", operation="add_request") >= 1
    assert total(samples, "mafia_deliveries_total", outcome="sent") >= 1
    assert value(samples, "mafia_outbox_pending") == 0
    assert value(samples, "mafia_outbox_oldest_age_seconds") == 0
    assert value(samples, "mafia_results_lag_seconds_count") == 0

    await until_deadline(world, before=-1)  # the deadline passes: results
    await env.settle()
    samples = await scrape(bot)
    assert value(samples, "mafia_results_lag_seconds_count") == 1
    assert value(samples, "mafia_results_lag_seconds_sum") < 60
    assert value(samples, "mafia_deliveries_total", kind="results", outcome="sent") >= 1


async def test_the_outbox_backlog_is_read_when_scraped(simcord_env: Env) -> None:
    """A row that waits shows in the backlog with its age on the game clock."""
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ["a", "b", "c", "d"])
    await start_game(world, ROLES, players)
    bot = bot_of(env)
    game_id = live_game(world).record.id
    await bot.store.add_outbox(game_id, 1, [_waiting_row()])
    await env.advance_time(90)
    samples = await scrape(bot)
    assert value(samples, "mafia_outbox_pending") >= 1
    assert value(samples, "mafia_outbox_oldest_age_seconds") >= 90


def _waiting_row():  # type: ignore[no-untyped-def]
    from db.models import OutboxItem

    return OutboxItem("downtime", {"audience": "public", "turn": 1, "minutes": 1})


async def test_a_backup_while_the_game_is_played_exports_what_the_store_does(
    simcord_env: Env, database: str, tmp_path: Path
) -> None:
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ["a", "b", "c", "d"])
    await start_game(world, ROLES, players)
    bot = bot_of(env)
    game_id = live_game(world).record.id
    reply_text(await players[1].slash(slot(world, "game"), "say", text="first"))
    reply_text(await players[2].slash(slot(world, "game"), "say", text="a word"))
    at = dt.datetime(2026, 12, 2, 12, tzinfo=dt.UTC)
    # The bot holds the store open, as it runs; its game goes on afterwards.
    copy = await asyncio.to_thread(backup, database, tmp_path / "copies", at=at)
    expected = await bot.store.load_script(game_id)
    if copy.suffix == ".pgdump":
        from tests.db.test_backup_health import _restore

        restored = await _restore(database, copy, tmp_path)
    else:
        restored = str(copy)
    copied = await open_store(restored, read_only=True)
    try:
        assert await copied.load_script(game_id) == expected
    finally:
        await copied.close()
    reply_text(await players[3].slash(slot(world, "game"), "say", text="the game goes on"))
