"""Arrange-and-assert helpers shared by the end-to-end tests.

Two of them reach into SimCord's backend (``env.backend``), which is not public API; they are
kept here, in one place, so a SimCord upgrade breaks one file:
``set_bot_permissions`` (no builder edits a role) and the cross-check in ``permissions_in``.
"""

from __future__ import annotations

from collections.abc import Awaitable

import attrs
import discord
from simcord import ChannelHandle, Env, GuildHandle, InteractionResult, MemberActor

from app.refusal import Refusal


@attrs.define
class World:
    env: Env
    guild: GuildHandle
    lobby: ChannelHandle
    #: Manage Server through a "Moderators" role: a host without any host role.
    admin: MemberActor
    #: A plain member.
    player: MemberActor


def make_world(env: Env, *, locale: str | None = None) -> World:
    guild = env.create_guild("Mafia Club", preferred_locale=locale)
    lobby = guild.create_text_channel("general")
    moderators = guild.create_role("Moderators", permissions=discord.Permissions(manage_guild=True))
    admin = guild.add_member(env.create_user("alice"), roles=[moderators])
    player = guild.add_member(env.create_user("bob"))
    return World(env=env, guild=guild, lobby=lobby, admin=admin, player=player)


def channel(world: World, name: str) -> ChannelHandle:
    channels = world.guild.channels
    assert name in channels, f"no channel {name!r}; channels: {sorted(channels)}"
    return channels[name]


def permissions_in(env: Env, where: ChannelHandle, member: MemberActor) -> discord.Permissions:
    """The member's permissions in a channel as discord.py computes them from the bot's cache,
    checked against SimCord's own computation (what Discord would enforce)."""
    cached = env.bot.get_channel(where.id)
    assert isinstance(cached, discord.abc.GuildChannel)
    assert member.member is not None
    seen = cached.permissions_for(member.member)
    assert where.guild is not None
    raw = env.backend.compute_permissions(where.guild.id, member.id, where.id)
    enforced = discord.Permissions(raw)
    # discord.py also applies Discord's implicit rules (no voice permissions in a text channel;
    # no embeds or files without Send Messages; nothing at all without View Channel), which
    # SimCord's raw computation leaves out: compare the flags the layout sets.
    if not enforced.view_channel:
        assert not seen.view_channel, f"the bot's cache lets {member.name} see #{where.name}"
        return seen
    diff = [name for name in CHECKED_FLAGS if getattr(seen, name) != getattr(enforced, name)]
    assert not diff, f"cache and backend disagree in #{where.name} for {member.name}: {diff}"
    return seen


CHECKED_FLAGS = (
    "view_channel",
    "read_message_history",
    "send_messages",
    "send_messages_in_threads",
    "create_public_threads",
    "create_private_threads",
    "add_reactions",
    "use_application_commands",
    "manage_webhooks",
    "manage_channels",
)


def bot_role_id(env: Env, guild: GuildHandle) -> int:
    return next(r.id for r in env.backend.get_guild(guild.id).roles.values() if r.managed)


async def set_bot_permissions(
    env: Env, guild: GuildHandle, permissions: discord.Permissions
) -> None:
    """Give the bot's managed role exactly ``permissions`` (as a server admin would)."""
    env.backend.edit_role(guild.id, bot_role_id(env, guild), {"permissions": permissions.value})
    await env.settle()


def reply_text(result: InteractionResult) -> str:
    """The private reply of an interaction (its response, deferred or not)."""
    assert result.acknowledged, f"the bot did not answer: {result!r}"
    assert result.ephemeral, f"the reply is public: {result!r}"
    response = result.response
    assert response is not None
    return response.content


async def refusal(env: Env, action: Awaitable[InteractionResult]) -> str:
    """Run ``action`` and return its private refusal text.

    Every error the bot raises meanwhile must be a :class:`Refusal`: refusals reach
    ``MafiaTree.on_error``, SimCord records each error that does, and this acknowledges them
    (an unacknowledged one fails the test at teardown).
    """
    cursor = env.error_cursor
    result = await action
    raised = env.errors_since(cursor)
    assert raised, "the bot refused nothing"
    for error in raised:
        original = getattr(error, "original", error)
        assert isinstance(original, Refusal), f"unexpected error: {error!r}"
    _ = env.errors  # acknowledge: they were expected
    return reply_text(result)
