"""``/mafia setup``: who may run it, what it builds, how it repairs, what it says."""

from __future__ import annotations

import logging

import discord
import pytest
import simcord
from simcord import BackendError, Env, SetupError

from bot.layout import REQUIRED_BOT_PERMISSIONS
from core.i18n import t
from tests.e2e.helpers import (
    World,
    channel,
    make_world,
    permissions_in,
    refusal,
    reply_text,
    set_bot_permissions,
)

CHANNELS_EN = ("game", "discussion", "mafia", "host")


async def setup_as(world: World, who: simcord.MemberActor, **options: object) -> str:
    result = await who.slash(world.lobby, "mafia setup", **{"language": "en", **options})
    # result.deferred is only true while the reply is pending; the callback type tells.
    [callback] = [r for r in world.env.http_requests if r.path.endswith("/callback")][-1:]
    assert callback.json is not None and callback.json["type"] == 5, "setup must defer first"
    return reply_text(result)


def layout_requests(env: Env) -> list[str]:
    """REST calls that change channels (creating, editing, deleting)."""
    return [
        f"{r.method} {r.path}"
        for r in env.http_requests
        if r.method in ("POST", "PATCH", "PUT", "DELETE")
        and not r.path.startswith(("/interactions/", "/webhooks/", "/applications/"))
        and not r.path.endswith("/messages")  # a message (the command's line in #host)
    ]


async def test_setup_builds_the_category_and_the_four_channels(simcord_env: Env) -> None:
    world = make_world(simcord_env)

    text = await setup_as(world, world.admin)

    category = channel(world, "Mafia")
    for name in CHANNELS_EN:
        built = world.env.bot.get_channel(channel(world, name).id)
        assert isinstance(built, discord.TextChannel)
        assert built.category_id == category.id
    assert text.startswith("The game is set up in Mafia:")
    assert channel(world, "game").mention in text
    assert "Created: Mafia, " in text


async def test_plain_member_reads_game_but_cannot_write_there(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    await setup_as(world, world.admin)
    game = channel(world, "game")

    seen = permissions_in(world.env, game, world.player)
    assert seen.view_channel and seen.read_message_history and seen.use_application_commands
    assert not seen.send_messages
    assert not (seen.add_reactions or seen.create_public_threads or seen.create_private_threads)
    with pytest.raises(BackendError) as denied:
        await world.player.send(game, "it was me!")
    assert denied.value.code == 50013
    # ...yet he may use slash commands there (this one refuses him, which is the point).
    assert "mafia setup" in world.player.available_commands(game)


async def test_plain_member_talks_in_discussion_and_sees_no_private_channel(
    simcord_env: Env,
) -> None:
    world = make_world(simcord_env)
    await setup_as(world, world.admin)

    discussion = channel(world, "discussion")
    assert permissions_in(world.env, discussion, world.player).send_messages
    await world.player.send(discussion, "who is the commissar?")
    assert discussion.last_message is not None
    assert not permissions_in(world.env, channel(world, "host"), world.player).view_channel
    with pytest.raises(SetupError):
        channel(world, "host").history(viewer=world.player)


async def test_mafia_is_a_read_only_parent_for_private_threads(simcord_env: Env) -> None:
    """R14: #mafia holds nothing: everyone sees it, nobody writes there or opens a thread; only
    a member of a private thread in it (the mafia's room) may write, in that thread."""
    world = make_world(simcord_env)
    await setup_as(world, world.admin)
    mafia = channel(world, "mafia")

    seen = permissions_in(world.env, mafia, world.player)
    assert seen.view_channel and seen.read_message_history and seen.send_messages_in_threads
    assert not (seen.send_messages or seen.add_reactions)
    assert not (seen.create_public_threads or seen.create_private_threads)
    assert mafia.history(viewer=world.player) == []
    with pytest.raises(BackendError) as denied:
        await world.player.send(mafia, "who is in here?")
    assert denied.value.code == 50013
    # No overwrite names a member but the bot's own.
    built = world.env.bot.get_channel(mafia.id)
    assert isinstance(built, discord.TextChannel)
    guild = built.guild
    members = [target for target in built.overwrites if isinstance(target, discord.Member)]
    assert members == [guild.me]
    mine = built.permissions_for(guild.me)
    assert mine.create_private_threads and mine.manage_threads and mine.send_messages_in_threads


async def test_host_sees_host_channel_but_not_mafia_and_cannot_post_in_game(
    simcord_env: Env,
) -> None:
    world = make_world(simcord_env)
    await setup_as(world, world.admin)

    host_view = permissions_in(world.env, channel(world, "host"), world.admin)
    assert host_view.view_channel and host_view.send_messages
    mafia_view = permissions_in(world.env, channel(world, "mafia"), world.admin)
    assert not mafia_view.send_messages and not mafia_view.manage_threads  # no room of his own
    assert not permissions_in(world.env, channel(world, "game"), world.admin).send_messages


async def test_bot_keeps_access_to_every_channel(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    await setup_as(world, world.admin)
    guild = world.env.bot.get_guild(world.guild.id)
    assert guild is not None

    for name in CHANNELS_EN:
        built = guild.get_channel(channel(world, name).id)
        assert isinstance(built, discord.TextChannel)
        mine = built.permissions_for(guild.me)
        assert mine.view_channel and mine.send_messages and mine.read_message_history
    game = guild.get_channel(channel(world, "game").id)
    assert isinstance(game, discord.TextChannel)
    assert game.permissions_for(guild.me).manage_webhooks


async def test_host_role_members_host_without_manage_server(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    hosts = world.guild.create_role("Hosts")
    carol = world.guild.add_member(world.env.create_user("carol"), roles=[hosts])

    text = await setup_as(world, world.admin, host_role=hosts)
    assert f"Host role: {hosts.mention}." in text

    host_view = permissions_in(world.env, channel(world, "host"), carol)
    assert host_view.view_channel and host_view.send_messages
    assert not permissions_in(world.env, channel(world, "mafia"), carol).send_messages
    # Carol may run setup again (a repair that finds nothing to do)...
    assert t("en", "setup.unchanged") in await setup_as(world, carol)


async def test_only_manage_server_changes_the_host_role(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    hosts = world.guild.create_role("Hosts")
    others = world.guild.create_role("Others")
    carol = world.guild.add_member(world.env.create_user("carol"), roles=[hosts])
    await setup_as(world, world.admin, host_role=hosts)

    text = await refusal(
        world.env, carol.slash(world.lobby, "mafia setup", language="en", host_role=others)
    )

    assert text == t("en", "setup.host_role_needs_manage_guild")


async def test_everyone_cannot_be_the_host_role(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    text = await refusal(
        world.env,
        world.admin.slash(
            world.lobby, "mafia setup", language="en", host_role=world.guild.default_role
        ),
    )
    assert text == t("en", "setup.host_role_everyone")


async def test_non_host_is_refused_and_nothing_changes(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    before = sorted(world.guild.channels)

    text = await refusal(world.env, world.player.slash(world.lobby, "mafia setup", language="en"))

    assert text == t("en", "error.not_host_no_role")
    assert "Manage Server" in text
    assert sorted(world.guild.channels) == before
    assert layout_requests(world.env) == []


async def test_refusal_names_the_host_role_once_there_is_one(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    hosts = world.guild.create_role("Hosts")
    await setup_as(world, world.admin, host_role=hosts)

    text = await refusal(world.env, world.player.slash(world.lobby, "mafia setup", language="en"))

    assert text == t("en", "error.not_host", role="Hosts")


async def test_missing_bot_permissions_are_named_and_nothing_is_built(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    lacking = discord.Permissions(REQUIRED_BOT_PERMISSIONS.value)
    lacking.manage_roles = False
    lacking.manage_webhooks = False
    await set_bot_permissions(world.env, world.guild, lacking)
    before = sorted(world.guild.channels)

    text = await refusal(world.env, world.admin.slash(world.lobby, "mafia setup", language="en"))

    assert "lacks these server permissions: Manage Roles, Manage Webhooks." in text
    assert sorted(world.guild.channels) == before
    assert layout_requests(world.env) == []


async def test_administrator_bot_needs_nothing_else(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    await set_bot_permissions(world.env, world.guild, discord.Permissions(administrator=True))

    assert "The game is set up" in await setup_as(world, world.admin)


async def test_setup_twice_changes_nothing(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    await setup_as(world, world.admin)
    ids = {name: handle.id for name, handle in world.guild.channels.items()}
    calls = len(layout_requests(world.env))

    text = await setup_as(world, world.admin)

    assert t("en", "setup.unchanged") in text
    assert {name: handle.id for name, handle in world.guild.channels.items()} == ids
    assert len(layout_requests(world.env)) == calls


async def test_setup_repairs_a_deleted_channel_and_tampered_permissions(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    await setup_as(world, world.admin)
    env = world.env
    game, mafia, discussion = (channel(world, n) for n in ("game", "mafia", "discussion"))
    dave = world.guild.add_member(env.create_user("dave"))
    # An older version gave a mafia member access to #mafia (the overwrite leaks who the mafia
    # are, R14); a moderator opened #game to everyone; someone deleted #discussion.
    mafia_access = discord.PermissionOverwrite(view_channel=True, send_messages=True)
    dave_member = env.bot.get_guild(world.guild.id).get_member(dave.id)  # type: ignore[union-attr]
    bot_mafia = env.bot.get_channel(mafia.id)
    assert isinstance(bot_mafia, discord.TextChannel) and dave_member is not None
    await bot_mafia.set_permissions(dave_member, overwrite=mafia_access)
    game_channel = env.bot.get_channel(game.id)
    assert isinstance(game_channel, discord.TextChannel)
    await game_channel.set_permissions(
        game_channel.guild.default_role, send_messages=True, view_channel=True
    )
    env.backend.delete_channel(discussion.id)
    await env.settle()
    assert permissions_in(env, game, world.player).send_messages
    assert permissions_in(env, mafia, dave).send_messages  # the leftover is there...

    text = await setup_as(world, world.admin)

    assert "Created: <#" in text and "Repaired: " in text
    assert not permissions_in(env, game, world.player).send_messages
    assert dave.id not in {o.target_id for o in env.backend.get_channel(mafia.id).overwrites}
    assert not permissions_in(env, mafia, dave).send_messages  # ...and repair removed it
    assert channel(world, "game").id == game.id
    assert channel(world, "discussion").id != discussion.id


async def test_unexpected_failure_says_something_went_wrong_and_logs_context(
    simcord_env: Env, caplog: pytest.LogCaptureFixture
) -> None:
    world = make_world(simcord_env)
    world.env.inject_error("POST", "/guilds/*/channels", status=500)

    with caplog.at_level(logging.ERROR, logger="bot.tree"):
        result = await world.admin.slash(world.lobby, "mafia setup", language="en")

    assert reply_text(result) == t("en", "error.unexpected")
    simcord.assert_error(world.env, discord.HTTPException)
    [record] = [r for r in caplog.records if r.name == "bot.tree"]
    assert "/mafia setup" in record.getMessage()
    assert f"user={world.admin.id}" in record.getMessage()
    assert record.exc_info is not None


async def test_setup_names_the_bot_as_the_host_in_the_game_language(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    await setup_as(world, world.admin, language="ru")
    me = world.env.bot.get_guild(world.guild.id).me
    assert me.nick == t("ru", "host.display_name") == "Ведущий"
    await setup_as(world, world.admin, language="en")
    assert world.env.bot.get_guild(world.guild.id).me.nick == "Host"


async def test_setup_works_without_change_nickname(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    await set_bot_permissions(world.env, world.guild, REQUIRED_BOT_PERMISSIONS)
    everyone = world.env.bot.get_guild(world.guild.id).default_role  # grants it by default
    lacking = discord.Permissions(everyone.permissions.value)
    lacking.change_nickname = False
    world.env.backend.edit_role(world.guild.id, everyone.id, {"permissions": lacking.value})
    await world.env.settle()
    assert "The game is set up" in await setup_as(world, world.admin)
    assert world.env.bot.get_guild(world.guild.id).me.nick is None
