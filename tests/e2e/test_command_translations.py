"""Slash commands reach Discord with Russian names and descriptions from the catalogue."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from discord import app_commands
from discord.ext import commands
from simcord import Env

from core.i18n import catalogue

# Discord's rule for command and option names (CHAT_INPUT): 1-32 word characters or dashes,
# lower case where the script has cases.
NAME = re.compile(r"^[-_\w]{1,32}$")


def walk(tree: app_commands.CommandTree[Any]) -> Iterator[tuple[str, Any]]:
    """(catalogue key prefix, command, group or parameter) for the whole tree."""
    for command in tree.walk_commands():
        prefix = "cmd." + command.qualified_name.replace(" ", ".")
        yield prefix, command
        if isinstance(command, app_commands.Command):
            for parameter in command.parameters:
                yield f"{prefix}.opt.{parameter.name}", parameter


def synced_payload(env: Env) -> list[dict[str, Any]]:
    [put] = [r for r in env.http_requests if r.method == "PUT" and r.path.endswith("/commands")]
    assert isinstance(put.json, list)
    return put.json


async def test_every_command_and_option_has_both_languages(simcord_env: Env) -> None:
    en, ru = catalogue("en"), catalogue("ru")
    bot = simcord_env.bot
    assert isinstance(bot, commands.Bot)
    items = list(walk(bot.tree))
    assert items, "no command registered"
    for prefix, item in items:
        assert en[f"{prefix}.name"] == item.name, f"{prefix}.name differs from the code"
        assert en[f"{prefix}.description"] == item.description
        name_ru = ru[f"{prefix}.name"]
        assert NAME.match(name_ru) and name_ru == name_ru.lower(), f"bad Russian name {name_ru!r}"
        for lang in (en, ru):
            assert 1 <= len(lang[f"{prefix}.description"]) <= 100, f"{prefix}.description"


async def test_sync_sends_russian_localizations(simcord_env: Env) -> None:
    [mafia] = [c for c in synced_payload(simcord_env) if c["name"] == "mafia"]
    assert mafia["name_localizations"] == {"ru": "мафия"}
    assert mafia["description_localizations"]["ru"] == catalogue("ru")["cmd.mafia.description"]
    assert mafia.get("contexts") == [0]  # guild only

    [setup] = [o for o in mafia["options"] if o["name"] == "setup"]
    assert setup["name_localizations"] == {"ru": "настройка"}
    options = {o["name"]: o for o in setup["options"]}
    assert options["language"]["name_localizations"] == {"ru": "язык"}
    assert options["host_role"]["name_localizations"] == {"ru": "роль_ведущего"}
    choices = {c["value"]: c for c in options["language"]["choices"]}
    assert choices["ru"]["name"] == "Russian"
    assert choices["ru"]["name_localizations"] == {"ru": "Русский"}


async def test_no_default_permissions_hide_host_commands(simcord_env: Env) -> None:
    """Host-role members lack Manage Server, so /mafia stays visible; the cog checks."""
    [mafia] = [c for c in synced_payload(simcord_env) if c["name"] == "mafia"]
    assert mafia.get("default_member_permissions") is None
