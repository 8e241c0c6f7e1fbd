"""Shards across processes: a process owns the games of the servers on its shards,
and a re-shard (stop every process, start them with a new count) moves each game with its
server, losing nothing and sending nothing twice.

SimCord hosts one bot at a time per simulated Discord, so the two processes of the new count
run one after the other on the same database file, each a real ``AutoShardedBot`` (built by
``main.create_bot`` with ``shard_count=2`` and its ``shard_ids``) that receives the events of
its shard's servers only: the first plays its servers' games to the end while the second
shard's games, due meanwhile, must stay untouched in the store; the second then takes them
over. A stronger check than two at once: every row and turn the first could have touched
by mistake is still there for the second.
"""

from __future__ import annotations

import logging
from datetime import datetime

import attrs
import discord
import pytest
from simcord import Env, MemberActor

from bot.client import MafiaBot, ShardedMafiaBot
from core.i18n import t
from core.shards import shard_of
from db.models import OutboxItem
from db.store import open_store
from tests.e2e.helpers import (
    Restart,
    World,
    add_players,
    bot_of,
    message_text,
    reply_text,
    seats_by_role,
    slot,
    start_game,
)

ROLES = "mafioso=1 doctor=1 villager=2"
#: A millisecond since Discord's epoch (2021) with an even number: a server id made of it
#: (``ms << 22``) is on shard 0 of 2, of ``ms + 1`` on shard 1 (Discord's formula).
EVEN_MS = 200_000_000_000


@attrs.define
class Table:
    """One simulated server with its game: which shard of 2 it is on."""

    world: World
    shard: int
    players: list[MemberActor]
    game_id: int = 0


def server_on(env: Env, shard: int, serial: int) -> World:
    """A server whose id falls on ``shard`` of 2 (Discord's formula), with a host and a lobby."""
    guild_id = ((EVEN_MS + shard) << 22) + serial
    assert shard_of(guild_id, 2) == shard
    guild = env.create_guild(f"Club {serial}", id=guild_id)
    lobby = guild.create_text_channel("general")
    moderators = guild.create_role("Moderators", permissions=discord.Permissions(manage_guild=True))
    admin = guild.add_member(env.create_user(f"host{serial}"), roles=[moderators])
    player = guild.add_member(env.create_user(f"member{serial}"))
    return World(env=env, guild=guild, lobby=lobby, admin=admin, player=player)


def deadline(bot: MafiaBot, table: Table) -> datetime:
    """The deadline of the table's running turn, as the bot holds it."""
    when = bot.service.live[table.game_id].record.deadline
    assert when is not None
    return when


def game_texts(table: Table) -> list[str]:
    return [message_text(m) for m in slot(table.world, "game").history()]


async def until(env: Env, when: datetime) -> None:
    await env.advance_time(max(0.0, (when - env.now()).total_seconds()) + 1)


async def test_reshard_from_one_process_to_two_moves_every_game_with_its_server(
    simcord_env: Env, restart: Restart, caplog: pytest.LogCaptureFixture
) -> None:
    env = simcord_env
    # Three servers, on shards 0, 1, 1 of 2; one process (no shards) plays them first.
    tables = []
    for serial, (shard, letter) in enumerate([(0, "a"), (1, "b"), (1, "c")]):
        world = server_on(env, shard, serial)
        players = add_players(world, [f"{letter}{n}" for n in range(1, 5)])
        tables.append(Table(world, shard, players))
    one = bot_of(env)
    for table in tables:
        await start_game(table.world, ROLES, table.players, activity_rules=False)
        game = one.service.game_in(table.world.guild.id)
        assert game is not None
        table.game_id = game.id
    seats = {table.game_id: seats_by_role(table.world, table.players) for table in tables}
    # Turn 1 passes (nobody dies); in turn 2 the town votes the mafioso, who votes the doctor.
    await until(env, max(deadline(one, table) for table in tables))
    for table in tables:
        game_ch = slot(table.world, "game")
        roles = seats[table.game_id]
        by_user = {actor.id: actor for actor in table.players}
        for seat in one.service.live[table.game_id].players:  # every player votes
            target = roles["doctor"][0] if seat.role == "mafioso" else roles["mafioso"][0]
            reply_text(await by_user[seat.user_id].slash(game_ch, "vote", target=target))
    turn_two = max(deadline(one, table) for table in tables)

    # Stopped; a row each game's old process queued and never sent waits in the store.
    def marker(table: Table) -> str:
        return t("en", "announce.no_shot", nick=seats[table.game_id]["doctor"][0])

    async def queue_unsent(database: str) -> None:
        store = await open_store(database)
        try:
            for table in tables:
                nick = seats[table.game_id]["doctor"][0]
                item = OutboxItem(
                    kind="no_shot",
                    payload={"kind": "no_shot", "audience": "public", "payload": {"nick": nick}},
                )
                await store.add_outbox(table.game_id, 2, [item])
        finally:
            await store.close()

    # The process of shard 0 of 2: only its server's game is loaded, clocked and delivered.
    caplog.set_level(logging.WARNING, logger="bot")
    zero = await restart(queue_unsent, shard_count=2, shard_ids=(0,))
    assert isinstance(zero, ShardedMafiaBot) and isinstance(zero, discord.AutoShardedClient)
    assert (zero.shard_count, zero.shard_ids) == (2, [0])
    mine = [table for table in tables if table.shard == 0]
    others = [table for table in tables if table.shard == 1]
    assert set(zero.service.live) == {table.game_id for table in mine}
    others_before = {
        table.game_id: (
            await zero.store.get_game(table.game_id),
            await zero.store.resolutions(table.game_id),
            await zero.store.pending_outbox(table.game_id),
            game_texts(table),
        )
        for table in others
    }
    for table in mine:  # its commands arrive on its shard's connection; the votes are kept
        status = reply_text(await table.players[0].slash(slot(table.world, "game"), "status"))
        assert t("en", "status.requests") in status
    await until(env, turn_two)  # every game's turn 2 is due now
    for table in mine:  # ...and shard 0's game ended at its deadline, on this process
        assert game_texts(table).count(marker(table)) == 1
        assert any(text.startswith(t("en", "winner.town")) for text in game_texts(table))
        record = await zero.store.get_game(table.game_id)
        assert record is not None and record.status == "finished"
        assert table.game_id not in zero.service.live
    for table in others:  # shard 1's games: untouched, though their deadline has passed
        record, resolved, pending, texts = others_before[table.game_id]
        assert await zero.store.get_game(table.game_id) == record
        assert record is not None and (record.status, record.turn) == ("running", 2)
        assert await zero.store.resolutions(table.game_id) == resolved
        assert await zero.store.pending_outbox(table.game_id) == pending != []
        assert game_texts(table) == texts
        assert marker(table) not in texts
    # ...not even tried: its delivery never looked for a server it does not have.
    assert [r.getMessage() for r in caplog.records if r.name.startswith("bot.")] == []

    # The process of shard 1 of 2 takes its servers' games over: the overdue turn is
    # resolved once, the row left unsent is sent once, and shard 0's finished game is left be.
    mine_texts = {table.game_id: game_texts(table) for table in mine}
    first = await restart(shard_count=2, shard_ids=(1,))
    assert isinstance(first, ShardedMafiaBot)
    assert (first.shard_count, first.shard_ids) == (2, [1])
    await env.advance_time(60)
    for table in others:
        texts = game_texts(table)
        assert texts.count(marker(table)) == 1
        assert any(text.startswith(t("en", "winner.town")) for text in texts)
        record = await first.store.get_game(table.game_id)
        assert record is not None and record.status == "finished"
        assert [r.turn for r in await first.store.resolutions(table.game_id)] == [1, 2]
    for table in mine:
        assert game_texts(table) == mine_texts[table.game_id]
        assert [r.turn for r in await first.store.resolutions(table.game_id)] == [1, 2]
    # Every message once: nothing left unsent, no announcement posted twice in any game.
    assert await first.store.pending_outbox() == []
    for table in tables:
        texts = game_texts(table)
        assert len(texts) == len(set(texts)), texts


async def test_one_process_running_every_shard_owns_every_server(
    simcord_env: Env, restart: Restart
) -> None:
    """``--shard-count 2`` without ids: both shards' connections in one process, which owns
    the games of the servers on either; each server's commands arrive on its own shard."""
    env = simcord_env
    both = await restart(shard_count=2)
    assert isinstance(both, ShardedMafiaBot)
    assert (both.shard_count, sorted(both.shards)) == (2, [0, 1])
    tables = []
    for serial, shard in enumerate((0, 1)):
        world = server_on(env, shard, serial)
        players = add_players(world, [f"s{shard}p{n}" for n in range(1, 5)])
        await start_game(world, ROLES, players, activity_rules=False)
        game = both.service.game_in(world.guild.id)
        assert game is not None
        tables.append(Table(world, shard, players, game.id))
        guild = both.get_guild(world.guild.id)
        assert guild is not None and guild.shard_id == shard
    await until(env, max(deadline(both, table) for table in tables))
    for table in tables:
        assert [r.turn for r in await both.store.resolutions(table.game_id)] == [1]
        assert any(
            text.startswith(t("en", "announce.results", turn=1)) for text in game_texts(table)
        )
