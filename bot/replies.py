"""Private replies to an interaction, in the reader's language.

Two languages meet in a game: the game's (its table's, ``bot/tables.table_language``), in
which every public message (#game, the mafia's room, #host, the sign-up post) and every
direct message is written, and the reader's (:func:`reader_language`), in which a private
reply to an interaction is written: Discord tells the locale of the member's client with each
interaction.
"""

from __future__ import annotations

import logging
from typing import Any, Final

import discord

from bot.tables import server_language, table_language, table_of
from core.i18n import DEFAULT_LANG, Lang
from core.reads import TableReads
from core.refusal import Refusal

log = logging.getLogger(__name__)

#: The client locales with a catalogue of their own; any other client reads the game's language.
CLIENT_LANGUAGES: Final[dict[str, Lang]] = {"ru": "ru", "en-US": "en", "en-GB": "en"}


async def interaction_language(reads: TableReads, interaction: discord.Interaction[Any]) -> Lang:
    """The language of the table the interaction was used at (outside any table of a server
    with several, the server's; outside any server, English)."""
    guild = interaction.guild
    if guild is None:
        return DEFAULT_LANG
    try:
        table = await table_of(reads, interaction)
    except Refusal:  # several tables and none of theirs: the server's language
        return await server_language(reads, guild)
    return table_language(table, guild)


def client_language(locale: object) -> Lang | None:
    """The catalogue for a member's client locale (``discord.Locale`` or its code): Russian for
    ``ru``, English for ``en-US`` and ``en-GB``, None for any other (``uk``, ``de``...)."""
    value = getattr(locale, "value", locale)
    return CLIENT_LANGUAGES.get(value) if isinstance(value, str) else None


async def reader_language(
    reads: TableReads, interaction: discord.Interaction[Any], *, game: Lang | None = None
) -> Lang:
    """The language of a private reply to ``interaction``: the member's client's when we have
    a catalogue for it, else the game's (``game`` when the caller knows it, e.g. in a DM or
    before ``/mafia setup`` saved it; else the table's where it was used, see
    :func:`interaction_language`)."""
    return (
        client_language(interaction.locale)
        or game
        or await interaction_language(reads, interaction)
    )


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
