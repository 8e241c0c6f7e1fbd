"""What the Confirm buttons of the host's previews do (``bot/confirm.py``): resolve the turn
the preview showed, exclude the player it named, end the game (or cancel the sign-up) it named,
remove the table it named. Each acts at the table the preview was made for, and only if what
the host saw is still so; otherwise a clear refusal."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord.ext import commands

from bot.confirm import add_confirm_items, recall
from bot.context import GameContext
from bot.errors import UserError
from bot.layout import remove_table_channels
from bot.replies import reader_language
from bot.signup import close_signup
from bot.tables import table_language, table_title
from cogs._common import guild_and_member
from core.i18n import t
from core.service import ServiceError
from rules.model import HostAction

log = logging.getLogger(__name__)


async def confirm_resolve(
    ctx: GameContext, interaction: discord.Interaction[Any], table_id: int, game_id: int, arg: str
) -> str:
    """Resolve the turn the preview showed, if it is still the open one."""
    _guild, member = guild_and_member(interaction)
    turn_text, _, stage = arg.partition(".")
    if not turn_text.isascii() or not turn_text.isdigit():
        raise ServiceError("error.outdated_command")
    turn = int(turn_text)
    await ctx.service.resolve(table_id, member.id, turn=turn, stage=stage or None, game_id=game_id)
    await ctx.deliver()
    ctx.clock.rearm()
    lang = await reader_language(ctx.reads, interaction)
    return t(lang, "host.resolved_turn", turn=turn)


async def confirm_exclude(
    ctx: GameContext, interaction: discord.Interaction[Any], table_id: int, game_id: int, arg: str
) -> str:
    """R56: exclude the player the preview named, in the game it named."""
    _guild, member = guild_and_member(interaction)
    values = await recall(ctx, arg)
    game = ctx.service.game_in(table_id)
    if game is None or game.id != game_id:
        raise ServiceError("error.no_running_game")
    action = HostAction("exclude", str(values["player"]))
    action = await ctx.service.host_action(table_id, member.id, action, values.get("reason"))
    await ctx.deliver()
    ctx.clock.rearm()
    lang = await reader_language(ctx.reads, interaction)
    return t(lang, "host.excluded", nick=action.player or "")


async def confirm_end(
    ctx: GameContext, interaction: discord.Interaction[Any], table_id: int, game_id: int, _arg: str
) -> str:
    """End the game the preview named (or cancel its sign-up), if it is still open."""
    guild, member = guild_and_member(interaction)
    cancelled = await ctx.service.end(table_id, member.id, game_id=game_id)
    lang = await reader_language(ctx.reads, interaction)
    if cancelled is not None:  # an open sign-up: its message says so and loses its buttons
        await close_signup(
            ctx, guild, cancelled.signup_message_id, key="signup.cancelled", table_id=table_id
        )
        return t(lang, "host.signup_cancelled")
    ctx.clock.rearm()
    await ctx.deliver()
    return t(lang, "host.ended")


async def confirm_droptable(
    ctx: GameContext, interaction: discord.Interaction[Any], table_id: int, _game: int, _arg: str
) -> str:
    """Remove the table the preview named (its category and channels; its finished games stay
    in the store), unless it has an open or running game by now."""
    guild, member = guild_and_member(interaction)
    lang = await reader_language(ctx.reads, interaction)
    async with ctx.service.table_lock(table_id):  # no /mafia new slips in meanwhile
        table = await ctx.reads.get_table(table_id)
        if table is None:  # removed already (a second click)
            raise UserError("error.outdated_command")
        title = table_title(table_language(table, guild), table, guild)
        if await ctx.reads.open_game(table_id) is not None:
            raise UserError("error.table_busy", table=title)
        await remove_table_channels(guild, table, invoker=member)
        await ctx.service.drop_table(table_id)
    log.info("guild %s: table %s (%r) removed by %s", guild.id, table_id, table.name, member.id)
    return t(lang, "host.table_dropped", table=title)


async def setup(bot: commands.Bot) -> None:
    add_confirm_items(
        bot,
        {
            "resolve": confirm_resolve,
            "exclude": confirm_exclude,
            "end": confirm_end,
            "droptable": confirm_droptable,
        },
    )
