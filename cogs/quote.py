"""The message command "Quote": on a post in #game, a modal for the answer, then the player's
post under his nickname, headed by the quoted nickname, an excerpt and a link to the post
(``bot/quotes.py``). It is posted like ``/say`` (``cogs/day.post_as_player``): it counts as the
player's post (R52), a ghost's is marked as a ghost's.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.command_i18n import ltext
from bot.context import GameContext, game_context
from bot.errors import UserError
from bot.quotes import quote_block, reply_room
from bot.replies import reader_language, send_private
from bot.tables import table_key, table_language, table_of
from cogs._common import guild_of
from cogs.day import post_as_player
from core.i18n import Lang, t
from core.refusal import Refusal

#: Discord's limit on a modal's title (discord-api-docs: interactions/Receiving_and_Responding,
#: "Modal": title, max 45 characters).
MODAL_TITLE_LIMIT = 45


class QuoteModal(discord.ui.Modal):
    """The answer to a quoted post."""

    def __init__(self, ctx: GameContext, lang: Lang, nick: str, block: str) -> None:
        title = t(lang, "quote.title", nick=nick)
        if len(title) > MODAL_TITLE_LIMIT:
            title = title[: MODAL_TITLE_LIMIT - 1].rstrip() + "…"
        super().__init__(title=title)
        self.ctx = ctx
        self.block = block
        self.body: discord.ui.TextInput[QuoteModal] = discord.ui.TextInput(
            label=t(lang, "quote.label"),
            style=discord.TextStyle.paragraph,
            custom_id="body",
            min_length=1,
            max_length=reply_room(block),
        )
        self.add_item(self.body)

    async def on_submit(self, interaction: discord.Interaction[Any], /) -> None:
        try:
            await post_as_player(self.ctx, interaction, f"{self.block}\n\n{self.body.value}")
        except Refusal as refusal:  # a modal has no command tree to render it
            lang = await reader_language(self.ctx.store, interaction)
            await send_private(interaction, refusal.render(lang))


class QuoteCog(commands.Cog, name="Quote"):
    """Registers the message command (a context menu cannot be a cog method)."""

    def __init__(self, bot: commands.Bot, ctx: GameContext) -> None:
        self.bot = bot
        self.ctx = ctx
        self.menu = app_commands.ContextMenu(
            name=ltext("cmd.quote.name"), callback=self.quote, type=discord.AppCommandType.message
        )
        self.menu.guild_only = True

    async def cog_load(self) -> None:
        self.bot.tree.add_command(self.menu)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(self.menu.name, type=self.menu.type)

    async def quote(self, interaction: discord.Interaction[Any], message: discord.Message) -> None:
        """Quote a post of #game: a player's (under his nickname) or the host's."""
        guild = guild_of(interaction)
        key = await table_key(self.ctx.store, interaction)
        game, _nick = self.ctx.service.player_nick(key, interaction.user.id)
        table = await table_of(self.ctx.store, interaction)
        if table is None or message.channel.id != table.game_channel_id:
            raise UserError("error.quote_not_in_game")
        me = guild.me
        if message.webhook_id is not None:
            quoted = message.author.name  # the webhook's username: the nickname (R6)
        elif me is not None and message.author.id == me.id:
            quoted = t(table_language(table, guild), "quote.host")
        else:
            raise UserError("error.quote_not_a_post")
        if not message.content.strip():
            raise UserError("error.quote_not_a_post")
        signature = next(
            (p.signature for p in game.players if p.nick == quoted and p.signature), None
        )
        lang = table_language(table, guild)  # the post is read in the game's language
        block = quote_block(lang, quoted, message.jump_url, message.content, signature=signature)
        reader = await reader_language(self.ctx.store, interaction)
        await interaction.response.send_modal(QuoteModal(self.ctx, reader, quoted, block))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(QuoteCog(bot, game_context(bot)))
