"""Personal data, end to end: ``/mafia purge member`` (a host deletes a member's data kept for
the server, after a confirmation; refused while he plays) and the bot leaving a server
(everything of that server deleted, its members' DM channel ids and its hosts' pending
confirmations too; nothing on a mere outage). The real bot in SimCord on a real SQLite file,
read back through the store and ``core.history``. (tests/db/test_purge_schema.py walks every
table of the schema.)"""

from __future__ import annotations

import sqlite3
from contextlib import closing

import pytest
from simcord import Env

from core import stats
from core.history import load_finished
from core.i18n import Lang, t
from tests.e2e.helpers import (
    add_players,
    bot_of,
    channel_texts,
    confirm_button,
    confirm_now,
    confirmed_text,
    live_game,
    make_world,
    refusal,
    reply_text,
    slot,
    start_game,
)

ROLES = "mafioso=1 doctor=1 villager=2"


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.usefixtures("clients_in")
async def test_purge_waits_for_his_games_then_forgets_him_in_finished_games(
    simcord_env: Env, lang: Lang
) -> None:
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ["p1", "p2", "p3", "p4"])
    leaver = players[1]
    await start_game(world, ROLES, players, lang=lang, activity_rules=False)
    store = bot_of(env).store
    [game] = await store.list_games(guild_id=world.guild.id)
    nick = next(p.nick for p in await store.players(game.id) if p.user_id == leaver.id)
    title = t(lang, "channel.category")

    # Seated at a running game: refused, privately, naming the table.
    busy = t(lang, "host.purge_busy", member=f"<@{leaver.id}>", table=title)
    text = await refusal(env, world.admin.slash(world.lobby, "mafia purge", member=leaver))
    assert text == busy
    # A player is no host: the command is refused to him.
    await refusal(env, players[0].slash(world.lobby, "mafia purge", member=leaver))

    assert await confirm_now(world, "mafia end") == t(lang, "host.ended")
    # Signed up for the next game: refused again (confirming an older preview too).
    preview = await world.admin.slash(world.lobby, "mafia purge", member=leaver)
    assert reply_text(preview) == t(lang, "host.purge_preview", member=f"<@{leaver.id}>")
    reply_text(await world.admin.slash(world.lobby, "mafia new", schedule="fast", timezone="UTC"))
    reply_text(await leaver.slash(slot(world, "game"), "join"))
    assert preview.response is not None
    clicked = await world.admin.click(preview.response, custom_id=confirm_button(preview))
    assert confirmed_text(clicked) == busy
    assert (await store.require_game(game.id)).status == "finished"
    assert leaver.id in [p.user_id for p in await store.players(game.id)]

    reply_text(await leaver.slash(slot(world, "game"), "leave"))
    me = bot_of(env).user
    assert me is not None
    assert await store.dm_channel(me.id, world.guild.id, leaver.id) is not None  # his role card
    done = await confirm_now(world, "mafia purge", member=leaver)
    assert done == t(lang, "host.purged", member=f"<@{leaver.id}>", count=1)
    # The DM channel kept to write to him for this server goes; the others' stay.
    assert await store.dm_channel(me.id, world.guild.id, leaver.id) is None
    for other in (a for a in players if a is not leaver):
        assert await store.dm_channel(me.id, world.guild.id, other.id) is not None

    # His seat keeps its nickname and role, without him; the others keep theirs.
    seats = {p.nick: p.user_id for p in await store.players(game.id)}
    assert seats[nick] < 0
    others = {a.id for a in players if a is not leaver}
    assert {u for n, u in seats.items() if n != nick} == others
    finished = await load_finished(store, game.id)
    assert finished.member_of(nick) is None
    assert nick not in finished.members
    roles = {r["nick"]: r for r in finished.summary["roles"]}
    assert "member" not in roles[nick]
    assert all(roles[n]["member"] == u for n, u in seats.items() if n != nick)
    assert leaver.id not in await store.signups(game.id)
    # The audit: the purge is recorded (who ran it), never whose data; #host reads it so.
    rows = await store.audit_log(guild_id=world.guild.id)
    assert [r.command for r in rows].count("mafia purge") == 1
    assert all(str(leaver.id) not in f"{r.actor_id} {r.args}" for r in rows)
    host_texts = channel_texts(slot(world, "host"))
    purge_line = t(lang, "cmd.mafia.purge.name")
    assert any(purge_line in text and f"<@{world.admin.id}>" in text for text in host_texts)
    assert not any(purge_line in text and str(leaver.id) in text for text in host_texts)
    # Nothing of his in the finished game's stored announcements either.
    assert all(str(leaver.id) not in str(o.payload) for o in await store.outbox(game.id))
    # His stats are gone, even to himself, and the leaderboard names nobody for his seat.
    games = await stats.server_games(store, world.guild.id)
    assert stats.member_stats(games, leaver.id, own=True).games == 0
    board = [row.user_id for row in stats.leaderboard(games)]
    assert leaver.id not in board and all(uid > 0 for uid in board) and len(board) == 3
    text = reply_text(await world.admin.slash(world.lobby, "stats"))
    assert str(leaver.id) not in text and "<@-" not in text


def _outage(env: Env, guild_id: int) -> None:
    """Discord's GUILD_DELETE for a server that became unavailable (an outage), not left. No
    builder sends it: this reaches into SimCord's backend."""
    env.backend.emit("GUILD_DELETE", {"id": str(guild_id), "unavailable": True})


async def test_leaving_a_server_deletes_its_data_but_an_outage_does_not(simcord_env: Env) -> None:
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ["p1", "p2", "p3", "p4"])
    await start_game(world, ROLES, players, activity_rules=False)
    other = make_world(env)
    reply_text(await other.admin.slash(other.lobby, "mafia setup", language="ru"))
    bot = bot_of(env)
    store = bot.store
    [game] = await store.list_games(guild_id=world.guild.id)
    assert game.id in bot.service.live

    _outage(env, world.guild.id)
    await env.settle()
    assert [g.id for g in await store.list_games(guild_id=world.guild.id)] == [game.id]
    assert await store.tables(world.guild.id)
    assert game.id in bot.service.live

    # Kept for the server: its members' DM channels (the role cards), a pending confirmation.
    me = bot.user
    assert me is not None
    for player in players:
        assert await store.dm_channel(me.id, world.guild.id, player.id) is not None
    nick = live_game(world).players[0].nick
    reply_text(
        await world.admin.slash(world.lobby, "mafia exclude", player=nick, reason="flooding")
    )
    server_rows = "SELECT COUNT(*) FROM {} WHERE guild_id = ?"
    with closing(sqlite3.connect(bot.database)) as db:
        assert db.execute(server_rows.format("confirmations"), (world.guild.id,)).fetchone() == (1,)

    guild = bot.get_guild(world.guild.id)
    assert guild is not None
    await guild.leave()  # what a kick, a ban or a deleted server also send: GUILD_DELETE
    await env.settle()
    with closing(sqlite3.connect(bot.database)) as db:
        for table in ("dm_channels", "confirmations"):
            assert db.execute(server_rows.format(table), (world.guild.id,)).fetchone() == (0,)
    for player in players:
        assert await store.dm_channel(me.id, world.guild.id, player.id) is None
    assert await store.list_games(guild_id=world.guild.id) == []
    assert await store.tables(world.guild.id) == []
    assert await store.audit_log(guild_id=world.guild.id) == []
    assert game.id not in bot.service.live
    await env.advance_time(3600)  # the clock has nothing left to resolve there
    # The other server keeps its table.
    assert [t.guild_id for t in await store.tables(other.guild.id)] == [other.guild.id]
