"""Who may run host commands: members with Manage Server (Administrator and the owner
included) or the host role OF THE TABLE the command is used at (each table may have its own).
Checked on every call: ``default_permissions`` is only a hint to the Discord client, and it is
not set on ``/mafia`` at all, because members of a host role usually lack Manage Server and
must still see the commands.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.errors import NotHost
from bot.tables import find_table, table_of, table_title
from core.i18n import LANGUAGES
from core.reads import TableReads
from db.models import TableSettings


def is_host(member: discord.Member, host_role_id: int | None) -> bool:
    if member.guild_permissions.manage_guild:
        return True
    return host_role_id is not None and member.get_role(host_role_id) is not None


def _member_of(interaction: discord.Interaction[Any]) -> tuple[discord.Guild, discord.Member]:
    guild = interaction.guild
    member = interaction.user
    if guild is None or not isinstance(member, discord.Member):
        raise app_commands.NoPrivateMessage()
    return guild, member


async def command_table(
    reads: TableReads, interaction: discord.Interaction[Any]
) -> TableSettings | None:
    """The table a host command is about: the one its ``table`` option names (``/mafia setup``,
    ``/mafia droptable``; None for a name no table has), else the table of the channel it is
    used in (see ``bot/tables.py``; refused with the list when that is ambiguous)."""
    guild, _member = _member_of(interaction)
    name = getattr(interaction.namespace, "table", None)
    if isinstance(name, str) and name.strip():
        return await named_table(reads, guild, name)
    return await table_of(reads, interaction)


async def named_table(reads: TableReads, guild: discord.Guild, name: str) -> TableSettings | None:
    """The table called ``name`` (any case); the server's unnamed first table answers to the
    name it is shown under (its category's), so it too can be named. None if none is."""
    name = " ".join(name.split())  # as /mafia setup stores it
    found = await find_table(reads, guild, None, name=name)
    if found is not None:
        return found
    wanted = name.casefold()
    for table in await reads.tables(guild.id):
        if not table.name:
            titles = {table_title(lang, table, guild).casefold() for lang in LANGUAGES}
            if wanted in titles:
                return table
    return None


async def ensure_host(
    reads: TableReads,
    interaction: discord.Interaction[Any],
    *,
    table_id: int | None = None,
) -> TableSettings | None:
    """Raise :class:`NotHost` unless the caller is a host of the table the command is used at
    (:func:`command_table`; or the table ``table_id``, what a confirmation was made for);
    returns that table (None before setup, or for a table not built yet: then only Manage
    Server may act)."""
    guild, member = _member_of(interaction)
    if table_id is not None:
        table = await reads.get_table(table_id)
    else:
        table = await command_table(reads, interaction)
    _check(guild, member, [table.host_role_id if table is not None else None])
    return table


async def ensure_any_host(reads: TableReads, interaction: discord.Interaction[Any]) -> None:
    """For commands about the server's tables as a whole (``/mafia tables``): Manage Server,
    or the host role of any of its tables."""
    guild, member = _member_of(interaction)
    _check(guild, member, [table.host_role_id for table in await reads.tables(guild.id)])


def _check(guild: discord.Guild, member: discord.Member, role_ids: list[int | None]) -> None:
    if is_host(member, None) or any(is_host(member, role_id) for role_id in role_ids):
        return
    role = next(
        (found for i in role_ids if i is not None and (found := guild.get_role(i)) is not None),
        None,
    )
    if role is None:
        raise NotHost("error.not_host_no_role")
    raise NotHost("error.not_host", role=role.name)
