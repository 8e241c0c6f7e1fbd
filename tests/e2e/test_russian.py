"""A Russian guild gets Russian replies, channels and command names."""

from __future__ import annotations

import pytest
from discord import Permissions
from simcord import Env

from bot.layout import REQUIRED_BOT_PERMISSIONS
from core.i18n import t
from tests.e2e.helpers import (
    channel,
    client_locale,
    make_world,
    refusal,
    reply_text,
    set_bot_permissions,
)


@pytest.mark.usefixtures("russian_clients")
async def test_russian_community_guild_refuses_in_russian_before_any_setup(
    simcord_env: Env,
) -> None:
    world = make_world(simcord_env, locale="ru")

    text = await refusal(world.env, world.player.slash(world.lobby, "mafia setup", language="ru"))

    assert text.startswith("Это могут только ведущие")
    assert text == t("ru", "error.not_host_no_role")


@pytest.mark.usefixtures("russian_clients")
async def test_setup_in_russian_builds_russian_channels_and_answers_in_russian(
    simcord_env: Env,
) -> None:
    world = make_world(simcord_env)  # an English guild: the host picks Russian

    text = reply_text(await world.admin.slash(world.lobby, "mafia setup", language="ru"))

    assert text.startswith("Игра настроена в категории Мафия:")
    for name in ("игра", "обсуждение", "мафия", "ведущий"):
        assert channel(world, name).mention in text
    # From now on the guild's language is Russian: a client with no catalogue of its own
    # (Ukrainian) reads it too.
    with client_locale(world.player, "uk"):
        refused = await refusal(
            world.env, world.player.slash(world.lobby, "mafia setup", language="en")
        )
    assert refused == t("ru", "error.not_host_no_role")


async def test_switching_language_keeps_the_channels(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    reply_text(await world.admin.slash(world.lobby, "mafia setup", language="ru"))
    ids = {name: handle.id for name, handle in world.guild.channels.items()}

    text = reply_text(await world.admin.slash(world.lobby, "mafia setup", language="en"))

    assert text.startswith("The game is set up in Мафия:")
    assert t("en", "setup.unchanged") in text
    assert {name: handle.id for name, handle in world.guild.channels.items()} == ids


@pytest.mark.usefixtures("russian_clients")
async def test_missing_permissions_are_named_in_russian(simcord_env: Env) -> None:
    world = make_world(simcord_env, locale="ru")
    lacking = Permissions(REQUIRED_BOT_PERMISSIONS.value)
    lacking.manage_channels = False
    await set_bot_permissions(world.env, world.guild, lacking)

    text = await refusal(world.env, world.admin.slash(world.lobby, "mafia setup", language="ru"))

    assert "не хватает прав на сервере: Управлять каналами." in text
