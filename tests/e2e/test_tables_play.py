"""Two tables on one server, a game at each (COMMANDS.md "Tables"): the players' side.

Table A is the server's first table (``/mafia setup``, English, 10-minute turns); table B is a
second, named table (Russian, 15-minute turns) with its own category and channels. A member
plays at both. Every player command acts on the game of the table whose channels it is used in,
autocomplete offers that game's nicknames, DMs and private replies name their table, each
table's announcements go to its own channels only, one table's deleted channel does not hold
up the other's delivery, and a restart resumes both.

Table B is built the way ``/mafia setup`` builds a table (``bot/layout.build_or_repair`` on a
category of its own, saved as a ``TableSettings`` row keyed by the category's id) and its game
is opened and started through the service, as ``/mafia new`` and ``/mafia start`` do, so this
file does not depend on the host commands' own table option.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs
import discord
from simcord import ChannelHandle, Env, MemberActor

from bot.layout import build_or_repair
from core.i18n import Lang, t
from core.service import LiveGame
from db.models import TableSettings
from rules.knowledge import mafia_members
from tests.e2e.helpers import (
    Restart,
    World,
    add_players,
    bot_of,
    message_text,
    refusal,
    reply_text,
    slot,
)
from tests.e2e.helpers import (
    make_world as base_world,
)

#: Every game of this module is played on SQLite and on PostgreSQL (tests/e2e/conftest.py).
BOTH_ENGINES = True

A_ROLES = "mafioso=1 commissar=1 doctor=1 villager=1"
B_ROLES = "mafioso=1 commissar=1 doctor=1 villager=1"
B_NAME = "B"
B_TURN = 15  # minutes (table A: 10)


@attrs.define
class Tables:
    world: World
    a: TableSettings
    b: TableSettings
    a_players: list[MemberActor]
    b_players: list[MemberActor]
    #: Seated at both tables.
    both: MemberActor

    @property
    def env(self) -> Env:
        return self.world.env

    def live(self, table: TableSettings) -> LiveGame:
        game = bot_of(self.env).service.game_in(table.table_id)
        assert game is not None, f"no game runs at table {table.name!r}"
        return game

    def nick(self, table: TableSettings, actor: MemberActor) -> str:
        nick = self.live(table).nick_of(actor.id)
        assert nick is not None
        return nick

    def channel(self, table: TableSettings, slot_name: str) -> ChannelHandle:
        """A table's channel by its id (two tables' channels may share a name)."""
        channel_id = getattr(table, f"{slot_name}_channel_id")
        assert channel_id is not None
        return ChannelHandle(self.env, self.world.guild, self.env.backend.channels[channel_id])


def results(where: ChannelHandle, lang: Lang, turn: int) -> list[str]:
    header = t(lang, "announce.results", turn=turn)
    return [text for text in map(message_text, where.history()) if text.startswith(header)]


def any_results(where: ChannelHandle, lang: Lang) -> list[str]:
    """Every result announcement in ``lang`` in a channel, whatever its turn."""
    head = t(lang, "announce.results", turn=0).split("0")[0]
    return [text for text in map(message_text, where.history()) if text.startswith(head)]


def dm_headers(actor: MemberActor) -> list[str]:
    dm = actor.user.dm_channel
    return [] if dm is None else [m.content.partition("\n")[0] for m in dm.history()]


async def build_table(
    world: World, name: str, lang: Lang, *, host: MemberActor | None = None
) -> TableSettings:
    """A second table, built as ``/mafia setup table:<name>`` builds one: a category of its
    own with its four channels, saved under the category's id."""
    env = world.env
    bot = bot_of(env)
    category = world.guild.create_category(name)
    await env.settle()
    guild = bot.get_guild(world.guild.id)
    assert guild is not None
    invoker = guild.get_member((host or world.admin).id)
    assert invoker is not None
    base = TableSettings(
        guild_id=guild.id,
        table_id=category.id,
        name=name,
        language=lang,
        category_id=category.id,
    )
    report = await build_or_repair(guild, lang=lang, host_role=None, invoker=invoker, previous=base)
    settings = report.settings(base)
    await bot.store.save_table(settings)
    await env.settle()
    return settings


async def start_at(
    world: World,
    table: TableSettings,
    roles: str,
    players: Sequence[MemberActor],
    *,
    turn_minutes: int,
) -> LiveGame:
    """A game at ``table``, as ``/mafia new``, ``/join`` (in the table's #game), ``/mafia
    roles`` and ``/mafia start`` open one. Its clock is armed, and its role cards and opening
    sent, by the next command that does so for any game (the bot has one clock and one
    outbox): a timer armed from the test's own task would not follow SimCord's virtual time."""
    env = world.env
    bot = bot_of(env)
    service = bot.service
    await service.new_game(
        table.table_id,
        world.admin.id,
        "fast",
        "UTC",
        turn_minutes=turn_minutes,
        activity_rules=False,
    )
    game_ch = ChannelHandle(env, world.guild, env.backend.channels[table.game_channel_id])
    for actor in players:
        reply_text(await actor.slash(game_ch, "join"))
    await service.set_roles(table.table_id, roles, None)
    live = await service.start(table.table_id, theme=table.language)
    guild = bot.get_guild(world.guild.id)
    assert guild is not None and table.mafia_channel_id is not None
    mafia = guild.get_channel(table.mafia_channel_id)
    assert isinstance(mafia, discord.TextChannel)
    team = set(mafia_members(live.engine.state))
    members = [m for p in live.players if p.nick in team and (m := guild.get_member(p.user_id))]
    await bot.context.delivery.rooms.open(mafia, live.id, table.language, members)  # type: ignore[arg-type]
    await env.settle()
    return live


async def two_tables(env: Env) -> Tables:
    """Table A (the server's first, English, 10-minute turns) and table B (named, Russian,
    15-minute turns), a game running at each; ``ben`` plays at both."""
    world = base_world(env)
    lobby = world.lobby
    ann, ben, cat, dan, eve, fay, gus = add_players(
        world, ("ann", "ben", "cat", "dan", "eve", "fay", "gus")
    )
    a_players = [ann, ben, cat, dan]
    b_players = [eve, ben, fay, gus]
    admin = world.admin
    reply_text(await admin.slash(lobby, "mafia setup", language="en"))
    reply_text(
        await admin.slash(lobby, "mafia new", schedule="fast", timezone="UTC", activity_rules=False)
    )
    a_game = slot(world, "game")
    for actor in a_players:
        reply_text(await actor.slash(a_game, "join"))
    reply_text(await admin.slash(lobby, "mafia roles", roles=A_ROLES))
    store = bot_of(env).store
    a = await store.get_table(world.guild.id)
    assert a is not None
    b = await build_table(world, B_NAME, "ru")
    await start_at(world, b, B_ROLES, b_players, turn_minutes=B_TURN)
    # With two tables, a host command is used in its table's channels (A's #host). The start
    # arms the clock and sends the outbox: B's game's as well as A's.
    a_host = ChannelHandle(env, world.guild, env.backend.channels[a.host_channel_id])
    reply_text(await admin.slash(a_host, "mafia start"))
    return Tables(world=world, a=a, b=b, a_players=a_players, b_players=b_players, both=ben)


async def until(env: Env, game: LiveGame) -> None:
    """Advance the virtual clock to the game's running turn's deadline."""
    deadline = game.record.deadline
    assert deadline is not None
    await env.advance_time((deadline - env.now()).total_seconds())


# --- the tests ---------------------------------------------------------------------------------
async def test_each_command_acts_on_the_game_of_the_table_it_is_used_at(simcord_env: Env) -> None:
    s = await two_tables(simcord_env)
    env, ben = s.env, s.both
    a_game, b_game = s.channel(s.a, "game"), s.channel(s.b, "game")
    a_nick, b_nick = s.nick(s.a, ben), s.nick(s.b, ben)
    assert a_nick != b_nick
    a_id, b_id = s.live(s.a).id, s.live(s.b).id

    # /role: the card of the game of the table, headed with that table (he plays at two).
    role_a = reply_text(await ben.slash(a_game, "role"))
    role_b = reply_text(await ben.slash(s.channel(s.b, "discussion"), "role"))
    assert a_nick in role_a and b_nick not in role_a
    assert b_nick in role_b and a_nick not in role_b
    a_title = t("en", "channel.category")  # the first table is named by its category
    assert role_a.startswith(f"**{t('en', 'reply.header', table=a_title, game=a_id)}**\n")
    assert role_b.startswith(f"**{t('en', 'reply.header', table=B_NAME, game=b_id)}**\n")
    status_b = reply_text(await ben.slash(b_game, "status"))
    assert status_b.startswith(f"**{t('en', 'reply.header', table=B_NAME, game=b_id)}**\n")
    # A member seated at one table reads his replies as before, without a header.
    ann = s.a_players[0]
    assert not reply_text(await ann.slash(a_game, "role")).startswith("**")

    # Autocomplete offers the nicknames of the game of the table where the command is typed.
    offered_a = {c["value"] for c in await ben.autocomplete(a_game, "vote", "target", "")}
    offered_b = {c["value"] for c in await ben.autocomplete(b_game, "vote", "target", "")}
    a_nicks = {p.nick for p in s.live(s.a).players}
    b_nicks = {p.nick for p in s.live(s.b).players}
    assert offered_a and offered_a <= a_nicks and not offered_a & b_nicks
    assert offered_b and offered_b <= b_nicks and not offered_b & a_nicks
    # ann plays at A only: she is offered nothing at B.
    assert await ann.autocomplete(b_game, "vote", "target", "") == []

    # /post in A's #game and /say in B's #discussion: each under that game's nickname, in
    # that table's #game only (R6).
    shown = await ben.slash(a_game, "post")
    assert shown.modal is not None
    reply_text(await ben.submit_modal(shown, {"body": "Hello from table A."}))
    reply_text(await ben.slash(s.channel(s.b, "discussion"), "say", text="Привет со стола Б."))
    posts_a = [(m.author.name, m.content) for m in a_game.history() if m.webhook_id]
    posts_b = [(m.author.name, m.content) for m in b_game.history() if m.webhook_id]
    assert posts_a == [(a_nick, "Hello from table A.")]
    assert posts_b == [(b_nick, "Привет со стола Б.")]
    assert s.live(s.a).engine.state.posts.get(a_nick) == 1  # R52: counted at A only
    assert s.live(s.b).engine.state.posts.get(b_nick) == 1

    # Role cards and every DM name their table and game.
    headers = dm_headers(ben)
    server = s.world.guild.name
    assert f"**{t('en', 'dm.header_table', server=server, table=a_title, game=a_id)}**" in headers
    assert f"**{t('ru', 'dm.header_table', server=server, table=B_NAME, game=b_id)}**" in headers
    cards = [m.content for m in ben.user.dm_channel.history()]
    assert any(a_title in c.partition("\n")[0] and a_nick in c for c in cards)
    assert any(B_NAME in c.partition("\n")[0] and b_nick in c for c in cards)

    # Outside both tables' channels, a player command is refused with the list of tables.
    text = await refusal(env, ben.slash(s.world.lobby, "role"))
    assert text.startswith(t("en", "error.which_table", tables="").split("(")[0])
    assert a_game.mention in text and b_game.mention in text and f"**{B_NAME}**" in text

    # A's dawn report goes to A's #game only; B's (later: 15-minute turns) to B's only.
    await until(env, s.live(s.a))
    assert len(results(a_game, "en", 1)) == 1
    assert any_results(b_game, "en") == [] and any_results(b_game, "ru") == []
    await until(env, s.live(s.b))
    assert len(results(b_game, "ru", 1)) == 1
    assert any_results(a_game, "ru") == []
    assert any_results(b_game, "en") == []

    # Turn 2 at both tables: /vote acts on the game of the table it is used at.
    a_target = next(n for n in sorted(a_nicks) if n != a_nick)
    b_target = next(n for n in sorted(b_nicks) if n != b_nick)
    voted_a = reply_text(await ben.slash(a_game, "vote", target=a_target))
    assert t("en", "play.accepted.vote", target=a_target, turn=2) in voted_a
    assert voted_a.startswith(f"**{t('en', 'reply.header', table=a_title, game=a_id)}**")
    reply_text(await ben.slash(s.channel(s.b, "discussion"), "vote", target=b_target))
    [vote_a] = [r for r in s.live(s.a).engine.standing_requests(a_nick) if r.do == "vote"]
    [vote_b] = [r for r in s.live(s.b).engine.standing_requests(b_nick) if r.do == "vote"]
    assert vote_a.named() == (a_target,) and vote_b.named() == (b_target,)
    # A nickname of the other table's game is no player here.
    text = await refusal(env, ben.slash(a_game, "vote", target=b_target))
    assert text == t("en", "error.unknown_nick", nick=b_target)


async def test_a_host_of_one_table_may_play_at_another(simcord_env: Env) -> None:
    """R14, R55: who may play is checked against the table's own #mafia, #host and host
    role: a host of table A joins at table B, and is refused at A."""
    env = simcord_env
    world = base_world(env)
    hosts = world.guild.create_role("Hosts")
    hank = world.guild.add_member(env.create_user("hank"), roles=[hosts])
    lobby = world.lobby
    reply_text(await world.admin.slash(lobby, "mafia setup", language="en", host_role=hosts))
    reply_text(await world.admin.slash(lobby, "mafia new", schedule="fast", timezone="UTC"))
    b = await build_table(world, B_NAME, "ru")
    await bot_of(env).service.new_game(b.table_id, world.admin.id, "fast", "UTC")
    b_game = ChannelHandle(env, world.guild, env.backend.channels[b.game_channel_id])

    text = await refusal(env, hank.slash(slot(world, "game"), "join"))
    assert text.startswith(t("en", "secrecy.join_refused", reasons="").split("(")[0])
    joined = reply_text(await hank.slash(b_game, "join"))
    assert joined == t("en", "signup.joined", count=1)
    b_lobby = await bot_of(env).store.open_game(b.table_id)
    a_lobby = await bot_of(env).store.open_game(world.guild.id)
    assert b_lobby is not None and a_lobby is not None
    assert await bot_of(env).store.signups(b_lobby.id) == [hank.id]
    assert await bot_of(env).store.signups(a_lobby.id) == []


async def test_a_deleted_channel_at_one_table_does_not_hold_up_the_other(
    simcord_env: Env,
) -> None:
    s = await two_tables(simcord_env)
    env = s.env
    a_game, b_game = s.channel(s.a, "game"), s.channel(s.b, "game")
    a_id, b_id = s.live(s.a).id, s.live(s.b).id
    env.backend.delete_channel(a_game.id)
    await env.settle()

    await until(env, s.live(s.a))  # A resolves: its report has nowhere to go and waits
    await until(env, s.live(s.b))  # ...while B's goes out at B's deadline
    assert len(results(b_game, "ru", 1)) == 1
    pending = await bot_of(env).store.pending_outbox()
    assert pending and {row.game_id for row in pending} == {a_id}
    assert b_id not in {row.game_id for row in pending}


async def test_a_restart_resumes_both_tables(simcord_env: Env, restart: Restart) -> None:
    s = await two_tables(simcord_env)
    env, ben = s.env, s.both
    a_game, b_game = s.channel(s.a, "game"), s.channel(s.b, "game")
    a_nick, b_nick = s.nick(s.a, ben), s.nick(s.b, ben)
    a_id, b_id = s.live(s.a).id, s.live(s.b).id
    reply_text(await ben.slash(b_game, "say", text="До перезапуска."))

    new = await restart()

    assert env.bot is new
    assert s.live(s.a).id == a_id and s.live(s.b).id == b_id
    assert a_nick in reply_text(await ben.slash(a_game, "role"))
    assert b_nick in reply_text(await ben.slash(b_game, "role"))
    assert s.live(s.b).engine.state.posts.get(b_nick) == 1
    await until(env, s.live(s.a))
    assert len(results(a_game, "en", 1)) == 1 and any_results(b_game, "ru") == []
    await until(env, s.live(s.b))
    assert len(results(b_game, "ru", 1)) == 1 and any_results(a_game, "ru") == []
