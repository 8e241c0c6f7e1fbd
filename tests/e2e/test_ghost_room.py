"""R62, the ghosts' room, end to end in SimCord: a game opened with ``ghost_room`` (and
``spectators``) lets a dead player into a room of his own once his death is published, and no
earlier (a host's review holds it); his ``/say`` goes there under his nickname, not to #game;
a member who does not play watches it (``/spectate``, ``/spectate off``) and cannot write in
it; a living player cannot read it, and one given access by hand loses it (the server watch);
a restart keeps it all. Refusals are private, in the reader's language."""

from __future__ import annotations

import discord
import pytest
from simcord import Env, SetupError
from simcord.backend.errors import BackendError

from bot.serverlife import DEBOUNCE_SECONDS
from core.i18n import t
from tests.e2e.helpers import (
    Restart,
    World,
    add_players,
    bot_of,
    bot_role_id,
    client_locale,
    confirm_now,
    live_game,
    make_world,
    message_text,
    refusal,
    reply_text,
    resolve_now,
    seats_by_role,
    set_bot_permissions,
    slot,
    start_game,
    until_deadline,
)
from tests.e2e.test_review import button, drafts

#: Played on SQLite and on PostgreSQL (tests/e2e/conftest.py).
BOTH_ENGINES = True

ROLES = "mafioso=1 doctor=1 villager=2"


def ghost_room(world: World) -> discord.TextChannel | None:
    """The running game's ghosts' room as the bot's cache holds it (None: not opened yet)."""
    bot = bot_of(world.env)
    game = live_game(world)
    guild = bot.get_guild(world.guild.id)
    assert guild is not None
    names = {t(lang, "channel.ghost_room", game=game.id) for lang in ("en", "ru")}
    return next((c for c in guild.text_channels if c.name in names), None)


def room_handle(world: World) -> object:
    room = ghost_room(world)
    assert room is not None, "no ghosts' room"
    return world.guild.channels[room.name]


def can_read(world: World, actor: object) -> bool:
    try:
        room_handle(world).history(viewer=actor)  # type: ignore[attr-defined]
    except SetupError:
        return False
    return True


async def kill_a_villager(world: World, actors: list) -> tuple[str, object]:  # type: ignore[type-arg]
    for actor in actors:  # nobody leaves for silence (R52)
        reply_text(await actor.slash(slot(world, "game"), "say", text="Hello."))
    seats = seats_by_role(world, actors)
    _maf_nick, maf = seats["mafioso"]
    victim, victim_actor = seats["villager"]
    reply_text(await maf.slash(slot(world, "game"), "kill", target=victim))  # type: ignore[attr-defined]
    return victim, victim_actor


async def test_R62_the_dead_talk_in_their_room_and_a_spectator_watches(
    simcord_env: Env, restart: Restart
) -> None:
    env = simcord_env
    world = make_world(env)
    actors = add_players(world, ["ga", "gb", "gc", "gd"])
    await start_game(world, ROLES, actors, ghost_room=True, spectators=True)
    game_ch = slot(world, "game")
    assert ghost_room(world) is None  # nobody has died, nobody watches: no room yet

    # A player may not watch (the room opens to him when he dies); a member who does not play
    # may: the room opens for him, to read.
    said = await refusal(env, actors[0].slash(game_ch, "spectate"))
    assert said == t("en", "error.spectate_player")
    watcher = world.player
    reply = reply_text(await watcher.slash(game_ch, "spectate"))
    room = ghost_room(world)
    assert room is not None
    assert reply == t("en", "ghosts.watching", room=room.mention)
    assert can_read(world, watcher)
    said = await refusal(env, watcher.slash(game_ch, "spectate"))
    assert said == t("en", "error.already_spectating")
    # The hosts see who watches in /mafia state (R62), privately.
    state = await world.admin.slash(world.lobby, "mafia state")
    assert state.response is not None
    fields = [f for e in state.response.embeds for f in e.fields]
    watching = [f for f in fields if f.name == t("en", "console.state.spectators", count=1)]
    assert len(watching) == 1 and watching[0].value == f"<@{watcher.id}>"

    victim, victim_actor = await kill_a_villager(world, actors)
    assert not can_read(world, victim_actor)  # alive: not in it
    await resolve_now(world)
    # Published: he is let in, and the room says so.
    assert can_read(world, victim_actor)
    texts = [message_text(m) for m in room_handle(world).history()]  # type: ignore[attr-defined]
    assert t("en", "announce.ghost_joined", nick=victim) in texts
    living = [a for a in actors if a is not victim_actor]
    mafioso = seats_by_role(world, actors)["mafioso"][1]
    assert not any(can_read(world, a) for a in living)  # the living: never
    assert not can_read(world, mafioso)

    # His /say goes to the room under his nickname, not to #game.
    before = len(game_ch.history())
    said = reply_text(await victim_actor.slash(game_ch, "say", text="It is cold here."))  # type: ignore[attr-defined]
    assert said == t("en", "say.done", channel=room.mention)
    assert len(game_ch.history()) == before
    last = room_handle(world).history()[-1]  # type: ignore[attr-defined]
    assert last.content == "It is cold here."
    assert last.author.name == t("en", "say.ghost_name", nick=victim)
    # Nobody writes in it by hand: the dead write with /say; a watcher reads only.
    for writer in (watcher, victim_actor):
        with pytest.raises((BackendError, SetupError)):
            await writer.send(room_handle(world), "hello")  # type: ignore[attr-defined]
    # His room posts are the dead's: /iso does not show them to the living while it runs.
    iso = reply_text(await actors[1].slash(game_ch, "iso", player=victim))
    assert "Hello." in iso and "It is cold here." not in iso

    # A restart: the room, its readers and the routing of his posts stay.
    await restart()
    assert can_read(world, victim_actor) and can_read(world, watcher)
    reply_text(await victim_actor.slash(game_ch, "say", text="Still here."))  # type: ignore[attr-defined]
    assert room_handle(world).history()[-1].content == "Still here."  # type: ignore[attr-defined]
    assert not [m for m in game_ch.history() if m.content == "Still here."]

    # A living player given access by hand loses it at the server watch's next check, and
    # the hosts are told.
    intruder = next(a for a in living if a is not mafioso)
    channel = bot_of(env).get_channel(room_handle(world).id)  # type: ignore[attr-defined]
    assert isinstance(channel, discord.TextChannel)
    member = await channel.guild.fetch_member(intruder.id)  # type: ignore[attr-defined]
    await channel.set_permissions(member, view_channel=True)
    await env.settle()
    assert can_read(world, intruder)
    await env.advance_time(DEBOUNCE_SECONDS + 1)
    assert not can_read(world, intruder)
    host_texts = [message_text(m) for m in slot(world, "host").history()]
    nick = live_game(world).nick_of(intruder.id)  # type: ignore[attr-defined]
    who = t("en", "server.player", nick=nick, user=f"<@{intruder.id}>")  # type: ignore[attr-defined]
    assert t("en", "server.ghost_intruder_removed", member=who) in host_texts
    assert can_read(world, victim_actor) and can_read(world, watcher)  # the allowed stay

    # Someone opens the room to everyone: /mafia setup hides it again (its own permissions).
    await channel.set_permissions(channel.guild.default_role, view_channel=True)
    await env.settle()
    assert can_read(world, intruder)
    reply_text(await world.admin.slash(world.lobby, "mafia setup", language="en"))
    assert not can_read(world, intruder)
    assert can_read(world, victim_actor)

    # /spectate off: no longer a reader.
    assert reply_text(await watcher.slash(game_ch, "spectate", off=True)) == t(
        "en", "ghosts.stopped"
    )
    assert not can_read(world, watcher)
    service = bot_of(env).service
    assert await service.has_watched(live_game(world).id, watcher.id)  # R60: he has watched
    # ...so he cannot take a seat as a substitute (R60), nor be put in one by the host.
    living_nick = live_game(world).nick_of(intruder.id)  # type: ignore[attr-defined]
    said = await refusal(
        env, world.admin.slash(world.lobby, "mafia replace", player=living_nick, member=watcher)
    )
    assert said == t("en", "error.substitute_watched")


async def test_R62_the_review_holds_a_death_and_the_room_with_it(simcord_env: Env) -> None:
    env = simcord_env
    world = make_world(env)
    actors = add_players(world, ["ha", "hb", "hc", "hd"])
    await start_game(world, ROLES, actors, ghost_room=True, review=30)
    _victim, victim_actor = await kill_a_villager(world, actors)
    await until_deadline(world)
    await env.advance_time(1)
    [draft] = drafts(world)
    room = ghost_room(world)
    assert room is None or not can_read(world, victim_actor)  # decided, not published
    reply_text(await world.admin.click(draft, custom_id=button(draft, "publish")))
    assert can_read(world, victim_actor)


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_R62_spectate_refusals_are_private_and_translated(
    simcord_env: Env, lang: str
) -> None:
    env = simcord_env
    world = make_world(env)
    actors = add_players(world, ["ra", "rb", "rc", "rd"])
    await start_game(world, ROLES, actors)  # no ghosts' room
    game_ch = slot(world, "game")
    with client_locale(world.player, lang):
        said = await refusal(env, world.player.slash(game_ch, "spectate"))
        assert said == t(lang, "error.no_ghost_room")
    # spectators without a room are refused when the game is opened
    assert await confirm_now(world, "mafia end") == t("en", "host.ended")
    with client_locale(world.admin, lang):
        said = await refusal(
            env,
            world.admin.slash(
                world.lobby, "mafia new", schedule="fast", timezone="UTC", spectators=True
            ),
        )
        assert said == t(lang, "error.spectators_need_ghost_room")
    # a room without spectators: nobody watches it
    reply_text(
        await world.admin.slash(
            world.lobby, "mafia new", schedule="fast", timezone="UTC", ghost_room=True
        )
    )
    for actor in actors:
        reply_text(await actor.slash(game_ch, "join"))
    reply_text(await world.admin.slash(world.lobby, "mafia roles", roles=ROLES))
    reply_text(await world.admin.slash(world.lobby, "mafia start"))
    with client_locale(world.player, lang):
        said = await refusal(env, world.player.slash(game_ch, "spectate"))
        assert said == t(lang, "error.no_spectators")
        said = await refusal(env, world.player.slash(game_ch, "spectate", off=True))
        assert said == t(lang, "error.not_spectating")


async def test_R62_a_room_the_bot_cannot_open_waits_and_the_hosts_are_told(
    simcord_env: Env,
) -> None:
    """Without Manage Channels the room cannot be opened: nothing is lost, the hosts are told
    once in #host; with the permission back the death's access goes out, once."""
    env = simcord_env
    world = make_world(env)
    actors = add_players(world, ["ka", "kb", "kc", "kd"])
    await start_game(world, ROLES, actors, ghost_room=True)
    everything = env.backend.get_guild(world.guild.id).roles[bot_role_id(env, world.guild)]
    full = discord.Permissions(everything.permissions)
    lacking = discord.Permissions(full.value)
    lacking.manage_channels = False
    await set_bot_permissions(env, world.guild, lacking)
    victim, victim_actor = await kill_a_villager(world, actors)
    await resolve_now(world)
    assert ghost_room(world) is None
    host_texts = [message_text(m) for m in slot(world, "host").history()]
    assert host_texts.count(t("en", "delivery.ghosts_broken")) == 1
    await set_bot_permissions(env, world.guild, full)
    reply_text(await world.admin.slash(world.lobby, "mafia setup", language="en"))
    assert can_read(world, victim_actor)
    texts = [message_text(m) for m in room_handle(world).history()]  # type: ignore[attr-defined]
    assert texts.count(t("en", "announce.ghost_joined", nick=victim)) == 1


async def test_R62_droptable_removes_the_ghosts_rooms_of_its_games(simcord_env: Env) -> None:
    env = simcord_env
    world = make_world(env)
    actors = add_players(world, ["da", "db", "dc", "dd"])
    await start_game(world, ROLES, actors, ghost_room=True, spectators=True)
    reply_text(await world.player.slash(slot(world, "game"), "spectate"))
    room = ghost_room(world)
    assert room is not None
    assert await confirm_now(world, "mafia end") == t("en", "host.ended")
    table = t("en", "channel.category")
    assert await confirm_now(world, "mafia droptable", table=table)
    assert room.name not in world.guild.channels
