"""Private replies to an interaction, in the guild's language."""

from __future__ import annotations

import logging
from typing import Any

import discord

from core.i18n import Lang, as_lang, lang_for_locale, t
from db.interface import GameStore

log = logging.getLogger(__name__)


async def guild_language(store: GameStore, guild: discord.Guild) -> Lang:
    """The language ``/mafia setup`` chose, else the guild's own (Community) locale."""
    settings = await store.get_guild_settings(guild.id)
    chosen = as_lang(settings.language) if settings is not None else None
    return chosen or lang_for_locale(guild.preferred_locale)


async def interaction_language(store: GameStore, interaction: discord.Interaction[Any]) -> Lang:
    """The guild's language in a guild; the user's client language in a DM."""
    if interaction.guild is not None:
        return await guild_language(store, interaction.guild)
    return lang_for_locale(interaction.locale)


async def send_private(interaction: discord.Interaction[Any], text: str) -> None:
    """Reply privately: the response if none was sent yet, else a followup."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.NotFound:
        # The interaction expired (15 minutes, or 3 seconds without a response): nobody to tell.
        log.warning("could not reply to interaction %s: it expired", interaction.id)


async def reply(
    store: GameStore, interaction: discord.Interaction[Any], key: str, /, **values: Any
) -> None:
    """Render ``key`` in the interaction's language and reply privately."""
    lang = await interaction_language(store, interaction)
    await send_private(interaction, t(lang, key, **values))
