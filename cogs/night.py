"""The players' night: the role abilities and a killed commissar's pistol (``/shoot``, and the
select menu of his pistol prompt, ``bot/pistol.py``). Every reply is private (ephemeral).

The mafia's ``/kill`` (one player, or two under the double kill) is written here; every other
ability that names one player (``/check``, ``/heal``, ``/inject``, ``/block``, ``/slander``,
``/poison``, ...) is a command generated from the verbs the registered roles declare
(`one_target_verbs`), its texts from the catalogue keys of its verb (``cmd.<verb>.*``).

Requests go through ``GameService.submit`` (``cogs/_common.py``): validated by the rules and
committed before the player is told.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.command_i18n import described, ltext
from bot.context import game_context
from bot.pistol import PistolSelect
from cogs._common import Nick, PlayerCog, nick_autocomplete, submit_request
from rules.roles import BASE_VERBS, Shape, role_classes, verb_spec

log = logging.getLogger(__name__)


def one_target_verbs() -> tuple[str, ...]:
    """The role verbs that name one player (docs/REPLAY.md ``target``), in registry order."""
    out: list[str] = []
    for cls in role_classes():
        for verb in sorted(cls.verbs):
            spec = verb_spec(verb)
            if (
                spec is not None
                and spec.shape is Shape.TARGET
                and verb not in BASE_VERBS
                and verb not in out
            ):
                out.append(verb)
    return tuple(out)


def one_target_command(verb: str) -> app_commands.Command[Any, Any, None]:
    """``/<verb> target``: a request of the verb naming one living player."""
    spec = verb_spec(verb)
    assert spec is not None
    key = spec.command_key

    async def callback(cog: NightCog, interaction: discord.Interaction[Any], target: Nick) -> None:
        await submit_request(cog.ctx, interaction, {"do": verb, "target": target})

    # A method of the cog, as discord.py reads its callback (the first parameter is the cog).
    callback.__name__ = f"{verb}_command"
    callback.__qualname__ = f"NightCog.{verb}_command"
    command: app_commands.Command[Any, Any, None] = app_commands.Command(
        name=verb, description=ltext(f"{key}.description"), callback=callback
    )
    described(verb, "target")(command)  # cmd.<verb>.opt.target.description
    app_commands.autocomplete(target=nick_autocomplete(verb))(command)
    return command


class NightCog(PlayerCog, name="Night"):
    @app_commands.command(name="kill", description=ltext("cmd.kill.description"))
    @described("kill", "target", "second")
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

    @app_commands.command(name="shoot", description=ltext("cmd.shoot.description"))
    @described("shoot", "target")
    @app_commands.autocomplete(target=nick_autocomplete("shoot"))
    async def shoot_command(self, interaction: discord.Interaction[Any], target: Nick) -> None:
        await submit_request(self.ctx, interaction, {"do": "shoot", "target": target})

    # One command per one-target verb of the registered roles (the cog collects them from
    # its class namespace when the class is made).
    vars().update({f"{verb}_command": one_target_command(verb) for verb in one_target_verbs()})


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(NightCog(game_context(bot)))
    bot.add_dynamic_items(PistolSelect)  # the pistol menu in a killed commissar's DM (R18)
