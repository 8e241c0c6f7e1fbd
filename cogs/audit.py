"""The audit log of host commands (R56): every `/mafia` command that completed is recorded
with who ran it and its options. Commands that change the game record themselves in the store,
in the same transaction as the change (exclude, deprive, doublekill, extend, pause, resume,
replace, end); this listener records the others.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Final

import discord
from discord import app_commands
from discord.ext import commands

if TYPE_CHECKING:
    from bot.client import MafiaBot

log = logging.getLogger(__name__)

#: Recorded by the game service itself, with the change they make.
AUDITED_BY_THE_SERVICE: Final[frozenset[str]] = frozenset(
    {"exclude", "deprive", "doublekill", "extend", "pause", "resume", "replace", "end"}
)


def audit_args(namespace: app_commands.Namespace) -> dict[str, Any]:
    """The command's options as plain JSON values (members, roles, channels by id)."""
    out: dict[str, Any] = {}
    for name, value in namespace:
        if isinstance(value, str | int | float | bool) or value is None:
            out[name] = value
        elif isinstance(value, discord.Attachment):
            out[name] = value.url
        elif hasattr(value, "id"):
            out[name] = int(value.id)
        else:
            out[name] = str(value)
    return out


class AuditCog(commands.Cog):
    def __init__(self, bot: MafiaBot) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_app_command_completion(
        self,
        interaction: discord.Interaction[Any],
        command: app_commands.Command[Any, ..., Any] | app_commands.ContextMenu,
    ) -> None:
        parent = getattr(command, "parent", None)
        if parent is None or parent.name != "mafia" or interaction.guild is None:
            return
        if command.name in AUDITED_BY_THE_SERVICE:
            return
        guild_id = interaction.guild.id
        game = await self.bot.store.open_game(guild_id) or await self.bot.store.latest_game(
            guild_id
        )
        await self.bot.store.add_audit(
            guild_id,
            game.id if game is not None else None,
            interaction.user.id,
            f"mafia {command.name}",
            audit_args(interaction.namespace),
        )


async def setup(bot: MafiaBot) -> None:
    await bot.add_cog(AuditCog(bot))
