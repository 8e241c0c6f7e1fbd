"""Who may run host commands: members with Manage Server (Administrator and the owner
included) or the guild's host role. Checked on every call: ``default_permissions`` is only a
hint to the Discord client, and it is not set on ``/mafia`` at all, because members of the host
role usually lack Manage Server and must still see the commands.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.errors import NotHost
from db.interface import GameStore
from db.models import TableSettings


def is_host(member: discord.Member, host_role_id: int | None) -> bool:
    if member.guild_permissions.manage_guild:
        return True
    return host_role_id is not None and member.get_role(host_role_id) is not None


async def ensure_host(
    store: GameStore, interaction: discord.Interaction[Any]
) -> TableSettings | None:
    """Raise :class:`NotHost` unless the caller is a host; returns the guild's settings."""
    guild = interaction.guild
    member = interaction.user
    if guild is None or not isinstance(member, discord.Member):
        raise app_commands.NoPrivateMessage()
    settings = await store.get_table(guild.id)
    host_role_id = settings.host_role_id if settings is not None else None
    if is_host(member, host_role_id):
        return settings
    role = guild.get_role(host_role_id) if host_role_id is not None else None
    if role is None:
        raise NotHost("error.not_host_no_role")
    raise NotHost("error.not_host", role=role.name)
