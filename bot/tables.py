"""Which table a command is about: a server holds one or several tables (a category each,
with its own ``#game``, ``#discussion``, ``#mafia``, ``#host``, language, host role and at most
one open or running game).

A command acts on the table whose channels it is used in: one of its channels, any channel or
thread of its category (the mafia's room is a thread of ``#mafia``). Used anywhere else it acts
on the server's only table, or, when there are several, is refused with their list. A server
that was never set up has no table: the key of the table it would get is the server's own id
(its first table's key), so the commands say "not set up" / "no game" as before.

The table of an interaction is looked up once and kept in ``interaction.extras``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import discord

from bot.errors import UserError
from core.i18n import Lang, as_lang, lang_for_locale, t
from core.reads import TableReads
from db.models import TableSettings

#: The longest table name (a category name is at most 100 characters).
TABLE_NAME_MAX: Final = 40

_EXTRA: Final = "mafia_table"


def channel_ids(table: TableSettings) -> set[int]:
    """The ids a channel of the table may have (its category and its four channels)."""
    ids = (
        table.category_id,
        table.game_channel_id,
        table.discussion_channel_id,
        table.mafia_channel_id,
        table.host_channel_id,
    )
    return {i for i in ids if i is not None}


def table_at(tables: Sequence[TableSettings], channel: object | None) -> TableSettings | None:
    """The table ``channel`` belongs to (a channel of its own, a channel of its category, or a
    thread of either), or None."""
    if channel is None:
        return None
    ids: set[int] = set()
    current: Any = channel
    for _ in range(3):  # a thread -> its channel -> its category
        if current is None:
            break
        ident = getattr(current, "id", None)
        if isinstance(ident, int):
            ids.add(ident)
        category = getattr(current, "category_id", None)
        if isinstance(category, int):
            ids.add(category)
        current = getattr(current, "parent", None)
    parent_id = getattr(channel, "parent_id", None)
    if isinstance(parent_id, int):
        ids.add(parent_id)
    return next((table for table in tables if channel_ids(table) & ids), None)


def table_title(lang: Lang, table: TableSettings, guild: discord.Guild | None = None) -> str:
    """How a table is named to people: its name, else its category's name, else "Mafia"."""
    if table.name:
        return table.name
    category = guild.get_channel(table.category_id) if guild and table.category_id else None
    return category.name if category is not None else t(lang, "channel.category")


def table_list(lang: Lang, tables: Sequence[TableSettings], guild: discord.Guild | None) -> str:
    """The tables as a refusal lists them: their names and ``#game`` channels."""
    parts = []
    for table in tables:
        title = table_title(lang, table, guild)
        game = f" <#{table.game_channel_id}>" if table.game_channel_id else ""
        parts.append(f"**{title}**{game}")
    return ", ".join(parts)


async def find_table(
    reads: TableReads, guild: discord.Guild, channel: object | None, *, name: str | None = None
) -> TableSettings | None:
    """The table a command used in ``channel`` acts on (see the module's docstring), or the
    table called ``name`` when given (None if there is none). Raises ``error.which_table``
    when the channel is none of several tables'."""
    tables = await reads.tables(guild.id)
    if name is not None:
        wanted = name.strip().casefold()
        return next((tb for tb in tables if tb.name.casefold() == wanted), None)
    found = table_at(tables, channel)
    if found is not None or not tables:
        return found
    if len(tables) == 1:
        return tables[0]
    lang = await server_language(reads, guild, tables)
    raise UserError("error.which_table", tables=table_list(lang, tables, guild))


async def table_of(
    reads: TableReads, interaction: discord.Interaction[Any]
) -> TableSettings | None:
    """The table of the channel ``interaction`` was used in (cached on the interaction)."""
    extras = interaction.extras
    if _EXTRA in extras:
        cached = extras[_EXTRA]
        return cached if isinstance(cached, TableSettings) else None
    guild = interaction.guild
    found = None if guild is None else await find_table(reads, guild, interaction.channel)
    extras[_EXTRA] = found
    return found


def remember_table(interaction: discord.Interaction[Any], table: TableSettings | None) -> None:
    """Make ``table`` the interaction's table (what :func:`table_of` returns from now on): a
    host command naming its table (``/mafia setup table:``, ``/mafia droptable``) acts on, and
    is answered and audited at, that table wherever it was typed."""
    interaction.extras[_EXTRA] = table


async def table_key(reads: TableReads, interaction: discord.Interaction[Any]) -> int:
    """The key the service knows the interaction's table by (the server's id before setup)."""
    table = await table_of(reads, interaction)
    if table is not None:
        return table.table_id
    if interaction.guild is None:
        raise TypeError("no table outside a server")
    return interaction.guild.id


def table_language(table: TableSettings | None, guild: discord.Guild | None) -> Lang:
    """The table's language (``/mafia setup``), else the server's own (Community) locale."""
    chosen = as_lang(table.language) if table is not None else None
    if chosen is not None:
        return chosen
    return lang_for_locale(guild.preferred_locale if guild is not None else None)


async def server_language(
    reads: TableReads, guild: discord.Guild, tables: Sequence[TableSettings] | None = None
) -> Lang:
    """The language of the server as a whole: its only (or first) table's, else its locale."""
    if tables is None:
        tables = await reads.tables(guild.id)
    first = next((tb for tb in tables if tb.table_id == guild.id), tables[0] if tables else None)
    return table_language(first, guild)
