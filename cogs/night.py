"""The players' night: the role abilities (``/kill``, ``/check``, ``/heal``, ``/inject``,
``/block``, ``/slander``, ``/poison``) and a killed commissar's pistol (``/shoot``, and the
select menu of his pistol prompt, ``bot/pistol.py``). Every reply is private (ephemeral).

Requests go through ``GameService.submit`` (``cogs/_common.py``): validated by the rules and
committed before the player is told.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.command_i18n import ltext
from bot.context import game_context
from bot.pistol import PistolSelect
from cogs._common import Nick, PlayerCog, nick_autocomplete, submit_request

log = logging.getLogger(__name__)


class NightCog(PlayerCog, name="Night"):
    @app_commands.command(name="kill", description=ltext("cmd.kill.description"))
    @app_commands.describe(
        target=ltext("cmd.kill.opt.target.description"),
        second=ltext("cmd.kill.opt.second.description"),
    )
    @app_commands.autocomplete(target=nick_autocomplete("kill"), second=nick_autocomplete("kill"))
    async def kill_command(
        self, interaction: discord.Interaction[Any], target: Nick, second: Nick | None = None
    ) -> None:
        raw: dict[str, Any] = {"do": "kill"}
        if second is None:
            raw["target"] = target
        else:
            raw["targets"] = [target, second]
        await submit_request(self.ctx, interaction, raw)

    @app_commands.command(name="check", description=ltext("cmd.check.description"))
    @app_commands.describe(target=ltext("cmd.check.opt.target.description"))
    @app_commands.autocomplete(target=nick_autocomplete("check"))
    async def check_command(self, interaction: discord.Interaction[Any], target: Nick) -> None:
        await submit_request(self.ctx, interaction, {"do": "check", "target": target})

    @app_commands.command(name="heal", description=ltext("cmd.heal.description"))
    @app_commands.describe(target=ltext("cmd.heal.opt.target.description"))
    @app_commands.autocomplete(target=nick_autocomplete("heal"))
    async def heal_command(self, interaction: discord.Interaction[Any], target: Nick) -> None:
        await submit_request(self.ctx, interaction, {"do": "heal", "target": target})

    @app_commands.command(name="inject", description=ltext("cmd.inject.description"))
    @app_commands.describe(target=ltext("cmd.inject.opt.target.description"))
    @app_commands.autocomplete(target=nick_autocomplete("inject"))
    async def inject_command(self, interaction: discord.Interaction[Any], target: Nick) -> None:
        await submit_request(self.ctx, interaction, {"do": "inject", "target": target})

    @app_commands.command(name="block", description=ltext("cmd.block.description"))
    @app_commands.describe(target=ltext("cmd.block.opt.target.description"))
    @app_commands.autocomplete(target=nick_autocomplete("block"))
    async def block_command(self, interaction: discord.Interaction[Any], target: Nick) -> None:
        await submit_request(self.ctx, interaction, {"do": "block", "target": target})

    @app_commands.command(name="slander", description=ltext("cmd.slander.description"))
    @app_commands.describe(target=ltext("cmd.slander.opt.target.description"))
    @app_commands.autocomplete(target=nick_autocomplete("slander"))
    async def slander_command(self, interaction: discord.Interaction[Any], target: Nick) -> None:
        await submit_request(self.ctx, interaction, {"do": "slander", "target": target})

    @app_commands.command(name="poison", description=ltext("cmd.poison.description"))
    @app_commands.describe(target=ltext("cmd.poison.opt.target.description"))
    @app_commands.autocomplete(target=nick_autocomplete("poison"))
    async def poison_command(self, interaction: discord.Interaction[Any], target: Nick) -> None:
        await submit_request(self.ctx, interaction, {"do": "poison", "target": target})

    @app_commands.command(name="shoot", description=ltext("cmd.shoot.description"))
    @app_commands.describe(target=ltext("cmd.shoot.opt.target.description"))
    @app_commands.autocomplete(target=nick_autocomplete("shoot"))
    async def shoot_command(self, interaction: discord.Interaction[Any], target: Nick) -> None:
        await submit_request(self.ctx, interaction, {"do": "shoot", "target": target})


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(NightCog(game_context(bot)))
    bot.add_dynamic_items(PistolSelect)  # the pistol menu in a killed commissar's DM (R18)
