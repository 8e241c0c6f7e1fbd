"""The message command "Quote": on a post in #game, a modal for the answer, then the player's
post under his nickname, headed by the quoted nickname, an excerpt and a link to the post
(``bot/quotes.py``). It is posted like ``/say`` (``cogs/day.post_as_player``): it counts as the
player's post (R52), a ghost's is marked as a ghost's.

Only this game's public record is quoted, as it stands when the reply is sent (R45/R46): a
post of the table's #game under a nickname of this game (a picture post too) or the host's
public announcement, written since this game's sign-up opened (an earlier game's post is
refused: nicknames repeat between games). The post is read again when the reply is sent: a
post deleted meanwhile is refused, an edited one quoted as it reads now.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.command_i18n import ltext
from bot.context import GameContext, game_context
from bot.embeds import embed_text
from bot.errors import UserError
from bot.quotes import quote_block, quoted_author, reply_room
from bot.replies import reader_language, send_private
from bot.tables import table_key, table_language, table_of
from bot.webhooks import webhook_username
from cogs._common import guild_of
from cogs.day import post_as_player
from core.i18n import Lang, t
from core.live import LiveGame
from core.refusal import Refusal

#: Discord's limit on a modal's title (discord-api-docs: interactions/Receiving_and_Responding,
#: "Modal": title, max 45 characters).
MODAL_TITLE_LIMIT = 45


async def first_message(ctx: GameContext, game: LiveGame) -> int | None:
    """The id of this game's first message in #game: its sign-up post; else (a sign-up post
    whose id was not kept) the first message the game's outbox is known to have posted.
    Discord's ids grow with time, so every message of an earlier game is below it."""
    if game.record.signup_message_id is not None:
        return game.record.signup_message_id
    return await ctx.reads.first_posted(game.id)


async def read_quote(
    ctx: GameContext, interaction: discord.Interaction[Any], message: discord.Message
) -> tuple[str, str]:
    """Who ``message`` quotes and the head of the reply quoting it (``quote_block``); a
    refusal unless it is part of this game's public record in #game (see the module)."""
    guild = guild_of(interaction)
    key = await table_key(ctx.reads, interaction)
    game, _nick = await ctx.service.playing(key, interaction.user.id)  # held end: in review
    table = await table_of(ctx.reads, interaction)
    if table is None or message.channel.id != table.game_channel_id:
        raise UserError("error.quote_not_in_game")
    first = await first_message(ctx, game)
    if first is None or message.id < first:  # nicknames repeat: never pinned on this game
        raise UserError("error.quote_other_game")
    lang = table_language(table, guild)  # the post is read in the game's language
    me = guild.me
    nicks = [p.nick for p in game.players]
    quoted = quoted_author(message, me.id if me is not None else None, nicks, lang)
    if quoted is None:
        raise UserError("error.quote_not_a_post")
    picture = bool(message.attachments)
    # The text as the players read it: an announcement is an embed (bot/embeds.py).
    text = "\n".join(p for p in (message.content, *map(embed_text, message.embeds)) if p)
    if not text.strip() and not picture:
        raise UserError("error.quote_not_a_post")
    signature = next(
        (p.signature for p in game.players if webhook_username(p.nick) == quoted), None
    )
    block = quote_block(lang, quoted, message.jump_url, text, signature=signature, picture=picture)
    return quoted, block


async def fetch_again(interaction: discord.Interaction[Any], message_id: int) -> discord.Message:
    """The quoted message as it is now; a refusal if it was deleted meanwhile."""
    channel = interaction.channel
    if not isinstance(channel, discord.TextChannel):
        raise UserError("error.quote_not_in_game")
    try:
        return await channel.fetch_message(message_id)
    except discord.NotFound:
        raise UserError("error.quote_gone") from None


class QuoteModal(discord.ui.Modal):
    """The answer to a quoted post. The post is read again when the answer is sent."""

    def __init__(
        self, ctx: GameContext, lang: Lang, nick: str, block: str, message_id: int
    ) -> None:
        title = t(lang, "quote.title", nick=nick)
        if len(title) > MODAL_TITLE_LIMIT:
            title = title[: MODAL_TITLE_LIMIT - 1].rstrip() + "…"
        super().__init__(title=title)
        self.ctx = ctx
        self.message_id = message_id
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
            message = await fetch_again(interaction, self.message_id)
            _quoted, block = await read_quote(self.ctx, interaction, message)
            await post_as_player(self.ctx, interaction, f"{block}\n\n{self.body.value}")
        except Refusal as refusal:  # a modal has no command tree to render it
            lang = await reader_language(self.ctx.reads, interaction)
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
        """Quote a post of this game's #game: a player's (under his nickname) or the host's."""
        quoted, block = await read_quote(self.ctx, interaction, message)
        reader = await reader_language(self.ctx.reads, interaction)
        modal = QuoteModal(self.ctx, reader, quoted, block, message.id)
        await interaction.response.send_modal(modal)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(QuoteCog(bot, game_context(bot)))
