"""What the Confirm buttons of the host's previews do (``bot/confirm.py``): resolve the turn
the preview showed, exclude the player it named, end the game (or cancel the sign-up) it named.
Each acts only if what the host saw is still so; otherwise a clear refusal."""

from __future__ import annotations

from typing import Any

import discord
from discord.ext import commands

from bot.confirm import add_confirm_items, recall
from bot.context import GameContext
from bot.replies import reader_language
from bot.signup import close_signup
from cogs._common import guild_and_member
from core.i18n import t
from core.service import ServiceError
from rules.model import HostAction


async def confirm_resolve(
    ctx: GameContext, interaction: discord.Interaction[Any], game_id: int, arg: str
) -> str:
    """Resolve the turn the preview showed, if it is still the open one."""
    guild, member = guild_and_member(interaction)
    turn_text, _, stage = arg.partition(".")
    if not turn_text.isascii() or not turn_text.isdigit():
        raise ServiceError("error.outdated_command")
    turn = int(turn_text)
    await ctx.service.resolve(guild.id, member.id, turn=turn, stage=stage or None, game_id=game_id)
    await ctx.deliver()
    ctx.clock.rearm()
    lang = await reader_language(ctx.store, interaction)
    return t(lang, "host.resolved_turn", turn=turn)


async def confirm_exclude(
    ctx: GameContext, interaction: discord.Interaction[Any], game_id: int, arg: str
) -> str:
    """R56: exclude the player the preview named, in the game it named."""
    guild, member = guild_and_member(interaction)
    values = recall(interaction.client, arg)
    game = ctx.service.game_in(guild.id)
    if game is None or game.id != game_id:
        raise ServiceError("error.no_running_game")
    action = HostAction("exclude", str(values["player"]))
    action = await ctx.service.host_action(guild.id, member.id, action, values.get("reason"))
    await ctx.deliver()
    ctx.clock.rearm()
    lang = await reader_language(ctx.store, interaction)
    return t(lang, "host.excluded", nick=action.player or "")


async def confirm_end(
    ctx: GameContext, interaction: discord.Interaction[Any], game_id: int, _arg: str
) -> str:
    """End the game the preview named (or cancel its sign-up), if it is still open."""
    guild, member = guild_and_member(interaction)
    cancelled = await ctx.service.end(guild.id, member.id, game_id=game_id)
    lang = await reader_language(ctx.store, interaction)
    if cancelled is not None:  # an open sign-up: its message says so and loses its buttons
        await close_signup(ctx, guild, cancelled.signup_message_id, key="signup.cancelled")
        return t(lang, "host.signup_cancelled")
    ctx.clock.rearm()
    await ctx.deliver()
    return t(lang, "host.ended")


async def setup(bot: commands.Bot) -> None:
    add_confirm_items(
        bot, {"resolve": confirm_resolve, "exclude": confirm_exclude, "end": confirm_end}
    )
