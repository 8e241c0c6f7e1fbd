"""``/mafia setup`` as a Discord flow: check what the command asks (the host role, the
bot's rights), build or repair the table's category and channels (``bot/layout.py``), keep
its settings through the service and name the bot in the table's language. The cog
(``cogs/lobby.py``) parses the options, calls :func:`plan_setup` (its refusals come before
anything is done), defers, calls :func:`build_table` and replies with its summary.
"""

from __future__ import annotations

import logging
from typing import Any

import attrs
import discord

from bot.context import GameContext
from bot.errors import BotMissingPermissions, UserError
from bot.hosts import command_table
from bot.layout import build_or_repair, missing_bot_permissions, name_the_bot
from bot.replies import reader_language
from bot.tables import channel_ids, remember_table
from core.ghosts import has_ghost_room
from core.i18n import Lang, t
from db.errors import TableNameTaken
from db.models import TableSettings

log = logging.getLogger(__name__)


@attrs.frozen(kw_only=True)
class SetupPlan:
    """What ``/mafia setup`` will build: checked, nothing done yet."""

    guild: discord.Guild
    member: discord.Member
    lang: Lang  # the table's language, as the command chose it
    name: str  # the table's name ("" for a server's first, unnamed one)
    base: TableSettings  # the table's settings before (or a new table's)
    previous: TableSettings | None  # the table being repaired, if it exists
    others: bool  # whether the server has tables already (a new one keys by its category)
    taken: set[int]  # the other tables' categories and channels, never adopted
    role: discord.Role | None  # the host role the table will have


async def plan_setup(
    ctx: GameContext,
    interaction: discord.Interaction[Any],
    guild: discord.Guild,
    member: discord.Member,
    *,
    lang: Lang,
    host_role: discord.Role | None,
    table: str | None,
) -> SetupPlan:
    """The table ``/mafia setup`` acts on and what it will be, or the refusal: a blank
    name, @everyone as the host role, a new host role set without Manage Server, the bot
    missing a permission it needs (named). Without ``table``: the table of the channel it
    is used in, else the server's only one (its first when there is none). With ``table``:
    the table of that name (any case), else a new one in a category of that name."""
    name = " ".join(table.split()) if table is not None else ""
    if table is not None and not name:
        raise UserError("error.empty_text", in_lang=lang)
    tables = await ctx.store.tables(guild.id)
    previous = await command_table(ctx.store, interaction)
    base = previous or TableSettings(guild_id=guild.id, name=name)
    # The other tables' categories and channels are never adopted as this one's.
    others = [tb for tb in tables if previous is None or tb.table_id != previous.table_id]
    taken: set[int] = set().union(*(channel_ids(tb) for tb in others))

    if host_role is not None:
        if host_role.is_default():
            raise UserError("setup.host_role_everyone", in_lang=lang)
        if host_role.id != base.host_role_id and not member.guild_permissions.manage_guild:
            raise UserError("setup.host_role_needs_manage_guild", in_lang=lang)
    role = host_role
    if role is None and base.host_role_id is not None:
        role = guild.get_role(base.host_role_id)

    missing = missing_bot_permissions(guild.me.guild_permissions)
    if missing:
        raise BotMissingPermissions("setup.bot_missing_permissions", missing=missing, in_lang=lang)
    return SetupPlan(
        guild=guild,
        member=member,
        lang=lang,
        name=name,
        base=base,
        previous=previous,
        others=bool(tables),
        taken=taken,
        role=role,
    )


async def build_table(
    ctx: GameContext, interaction: discord.Interaction[Any], plan: SetupPlan
) -> str:
    """Build or repair the planned table and keep its settings; the summary for the host,
    in his language (what was created, repaired, and the host role)."""
    guild, lang, role = plan.guild, plan.lang, plan.role
    report = await build_or_repair(
        guild,
        lang=lang,
        host_role=role,
        invoker=plan.member,
        previous=plan.previous,
        name=plan.base.name,
        taken=plan.taken,
    )
    base = plan.base
    if plan.previous is None and plan.others:  # another table: keyed by its own category
        base = attrs.evolve(base, table_id=report.category.id)
    settings = report.settings(
        attrs.evolve(base, language=lang, host_role_id=role.id if role else None)
    )
    try:
        await ctx.service.save_table(settings)
    except TableNameTaken:  # another table took the name meanwhile
        raise UserError("error.table_name_taken", name=plan.name, in_lang=lang) from None
    remember_table(interaction, settings)
    game = ctx.service.game_in(settings.table_id)
    if game is not None and has_ghost_room(game.record):  # R62: its room's own permissions
        rooms = ctx.delivery.router.ghost_rooms
        if rooms.find(guild, settings, game.id) is not None:
            await rooms.ensure(guild, settings, game.record, lang)
    await name_the_bot(guild, t(lang, "host.display_name"))
    log.info(
        "setup in guild %s by %s: created %s, repaired %s",
        guild.id,
        plan.member.id,
        report.created,
        report.repaired,
    )
    reply_lang = await reader_language(ctx.store, interaction, game=lang)
    return report.summary(reply_lang, role, game=lang, table=settings.name)
