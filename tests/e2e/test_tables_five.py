"""Five tables on one server, built with ``/mafia setup table:``, at once and in different
states: a fast English game and a forum Russian game running (one member seated at both), a
sign-up open, a game ended, a table with no game. Every command acts on the game of the table
it is typed at; nothing of one game shows in another's channels; every DM names its table; a
restart resumes every table as it was."""

from __future__ import annotations

from simcord import ChannelHandle, Env, MemberActor

from core.i18n import t
from db.models import TableSettings
from tests.e2e.helpers import (
    Restart,
    World,
    add_players,
    bot_of,
    channel_texts,
    confirm_button,
    confirmed_text,
    make_world,
    refusal,
    reply_text,
)

NAMES = {"B": "ru", "C": "en", "D": "ru", "E": "en"}  # and the first, unnamed table (en)
ROLES = "mafioso=1 commissar=1 villager=2"


def slot(world: World, table: TableSettings, name: str) -> ChannelHandle:
    channel_id = getattr(table, f"{name}_channel_id")
    assert channel_id is not None
    return ChannelHandle(world.env, world.guild, world.env.backend.get_channel(channel_id))


async def tables(world: World) -> dict[str, TableSettings]:
    """The server's tables by name ('' for the first)."""
    return {tb.name: tb for tb in await bot_of(world.env).store.tables(world.guild.id)}


async def host(world: World, where: ChannelHandle, command: str, **options: object) -> str:
    return reply_text(await world.admin.slash(where, command, **options))


async def confirm(world: World, where: ChannelHandle, command: str) -> str:
    preview = await world.admin.slash(where, command)
    assert preview.response is not None
    clicked = await world.admin.click(preview.response, custom_id=confirm_button(preview))
    return confirmed_text(clicked)


async def open_game(
    world: World, game: ChannelHandle, players: list[MemberActor], *, start: bool, **new: object
) -> None:
    await host(world, game, "mafia new", **new)
    for actor in players:
        reply_text(await actor.slash(game, "join"))
    if start:
        await host(world, game, "mafia roles", roles=ROLES)
        await host(world, game, "mafia start")


def nick_in(world: World, table: TableSettings, actor: MemberActor) -> str:
    game = bot_of(world.env).service.game_in(table.table_id)
    assert game is not None
    nick = game.nick_of(actor.id)
    assert nick is not None
    return nick


async def test_five_tables_in_different_states_keep_their_games_apart(
    simcord_env: Env, restart: Restart
) -> None:
    world = make_world(simcord_env)
    env = world.env
    await host(world, world.lobby, "mafia setup", language="en")
    for name, lang in NAMES.items():
        await host(world, world.lobby, "mafia setup", language=lang, table=name)
    by_name = await tables(world)
    assert sorted(by_name) == ["", "B", "C", "D", "E"]
    first, b, c, d = by_name[""], by_name["B"], by_name["C"], by_name["D"]
    assert len({tb.category_id for tb in by_name.values()}) == 5  # five categories

    ben, *others = add_players(world, ["ben", *(f"p{i}" for i in range(1, 12))])
    a_players, b_players = [ben, *others[0:3]], [ben, *others[3:6]]
    await open_game(
        world,
        slot(world, first, "game"),
        a_players,
        start=True,
        schedule="fast",
        timezone="UTC",
        activity_rules=False,
    )
    await open_game(world, slot(world, b, "game"), b_players, start=True, schedule="forum")
    await open_game(world, slot(world, c, "game"), others[6:8], start=False, schedule="fast")
    await open_game(
        world, slot(world, d, "game"), [*others[8:11], others[0]], start=True, schedule="fast"
    )
    assert await confirm(world, slot(world, d, "host"), "mafia end") != ""
    service = bot_of(env).service
    assert service.game_in(first.table_id) is not None
    assert service.game_in(b.table_id) is not None
    assert service.game_in(d.table_id) is None  # ended

    # Each command acts on the game of the table it is typed at (ben plays at two).
    a_nick, b_nick = nick_in(world, first, ben), nick_in(world, b, ben)
    role_a = reply_text(await ben.slash(slot(world, first, "game"), "role"))
    role_b = reply_text(await ben.slash(slot(world, b, "game"), "role"))
    assert a_nick in role_a and b.name in role_b and b_nick in role_b
    reply_text(await ben.slash(slot(world, first, "game"), "say", text="marker of table one"))
    reply_text(await ben.slash(slot(world, b, "discussion"), "say", text="marker of table B"))
    everywhere = {name: channel_texts(slot(world, tb, "game")) for name, tb in by_name.items()}
    for name, texts in everywhere.items():
        joined = "\n".join(texts)
        assert ("marker of table one" in joined) is (name == "")
        assert ("marker of table B" in joined) is (name == "B")
    # Outside every table's channels, a player command is refused with the list of tables.
    text = await refusal(env, ben.slash(world.lobby, "role"))
    assert all(f"**{name}**" in text for name in ("B", "C", "D", "E")), text

    # /mafia tables shows the five and their state.
    listing = await host(world, world.lobby, "mafia tables")
    assert all(name in listing for name in ("B", "C", "D", "E"))

    # The first table's fast turn ends; the forum game at B runs on untouched.
    game_a = service.game_in(first.table_id)
    assert game_a is not None and game_a.record.deadline is not None
    b_before = channel_texts(slot(world, b, "game"))
    await env.advance_time((game_a.record.deadline - env.now()).total_seconds() + 1)
    turn_a = service.game_in(first.table_id)
    assert turn_a is not None and turn_a.engine.turn == 2
    game_b = service.game_in(b.table_id)
    assert game_b is not None and game_b.engine.turn == 1
    assert channel_texts(slot(world, b, "game")) == b_before
    assert any(
        t("en", "announce.results", turn=1) in x for x in channel_texts(slot(world, first, "game"))
    )

    # Every DM ben got names its table (he plays at two of five).
    dm = ben.user.dm_channel
    assert dm is not None and len(dm.history()) >= 2  # a role card from each table
    for message in dm.history():
        head = (message.content or "").splitlines()[0] if message.content else ""
        assert f"· {b.name} ·" in head or "· Mafia ·" in head, head

    # A restart resumes every table as it was.
    await restart()
    service = bot_of(env).service
    again_a = service.game_in(first.table_id)
    again_b = service.game_in(b.table_id)
    assert again_a is not None and again_a.engine.turn == 2
    assert again_b is not None and again_b.engine.turn == 1
    assert service.game_in(d.table_id) is None
    # The sign-up at C is still open: a member joins it after the restart.
    joined = reply_text(await others[0].slash(slot(world, c, "game"), "join"))
    assert joined
    store = bot_of(env).store
    lobby = await store.open_game(c.table_id)
    assert lobby is not None and lobby.status == "lobby"
    assert len(await store.signups(lobby.id)) == 3
    assert await store.open_game(by_name["E"].table_id) is None
