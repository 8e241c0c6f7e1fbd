"""Substitutes (R60), the members' side: ``/standby`` (a member who does not play stands by as
a substitute for the table's running game, or leaves the list) and ``/replaceme`` (a player
asks the hosts, privately, to be replaced; #host is told). The hosts' side (``/mafia subs``,
``/mafia replace``, ``/mafia bar``, ``/mafia unbar``) is in ``cogs/admin.py``. Every reply is
private."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.command_i18n import described, ltext
from bot.context import game_context
from bot.replies import reader_language, send_private
from bot.secrecy import ensure_may_play
from bot.tables import table_key
from cogs._common import PlayerCog, guild_and_member
from core.i18n import t
from rules.text import is_blank


class SubsCog(PlayerCog, name="Substitutes"):
    @app_commands.command(name="standby", description=ltext("cmd.standby.description"))
    @described("standby", "off")
    async def standby_command(
        self, interaction: discord.Interaction[Any], off: bool = False
    ) -> None:
        """R60: on (or off) the substitutes' list of the running game. A member whom Discord
        lets read a secret room is refused as at ``/join`` (R14, R55)."""
        guild, member = guild_and_member(interaction)
        table_id = await table_key(self.ctx.reads, interaction)
        lang = await reader_language(self.ctx.reads, interaction)
        if off:
            game = await self.ctx.service.stand_down(table_id, member.id)
            await send_private(interaction, t(lang, "subs.stood_down", game=game.id))
            return
        ensure_may_play(guild, await self.ctx.reads.get_table(table_id), member)
        game = await self.ctx.service.stand_by(table_id, member.id)
        await send_private(interaction, t(lang, "subs.standing_by", game=game.id))

    @app_commands.command(name="replaceme", description=ltext("cmd.replaceme.description"))
    @described("replaceme", "reason")
    async def replaceme_command(
        self,
        interaction: discord.Interaction[Any],
        reason: app_commands.Range[str, 1, 500] | None = None,
    ) -> None:
        """R60: the hosts are told in #host (the player's reason quoted as his own words)."""
        _guild, member = guild_and_member(interaction)
        table_id = await table_key(self.ctx.reads, interaction)
        text = None if reason is None or is_blank(reason) else reason
        nick = await self.ctx.service.ask_replacement(table_id, member.id, text)
        await self.ctx.deliver()
        lang = await reader_language(self.ctx.reads, interaction)
        await send_private(interaction, t(lang, "subs.asked", nick=nick))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SubsCog(game_context(bot)))
