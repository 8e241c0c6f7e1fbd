"""The players' day: what I know (``/role``, ``/status``), talking under my nickname (``/say``,
``/post``, ``/profile``) and the day's requests (``/vote``, ``/hunt``, ``/note``). Every reply is
private (ephemeral).

Requests go through ``GameService.submit`` (validated by the rules and committed before the
player is told). Nickname options are autocompleted with the living nicknames of the caller's
own game only, and never with user names (``cogs/_common.py``).
"""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import urlsplit

import discord
from discord import app_commands
from discord.ext import commands

from bot.command_i18n import ltext
from bot.context import GameContext, game_context
from bot.delivery import slot_channel
from bot.errors import UserError
from bot.render import describe_request, render, render_role_card, role_name, timestamp
from bot.replies import reader_language, send_private
from bot.tables import table_key, table_language, table_of
from cogs._common import (
    Nick,
    PlayerCog,
    game_header,
    guild_of,
    nick_autocomplete,
    submit_request,
)
from core.i18n import Lang, t
from core.refusal import Refusal
from core.review import until_of
from db.models import OutboxRecord

log = logging.getLogger(__name__)


async def post_as_player(
    ctx: GameContext, interaction: discord.Interaction[Any], text: str
) -> None:
    """Post ``text`` in #game under the caller's nickname; a living player's post counts
    (R52), a ghost's is marked as a ghost's."""
    guild = guild_of(interaction)
    table = await table_of(ctx.store, interaction)  # the game of the table it is used at
    key = await table_key(ctx.store, interaction)
    game, nick = ctx.service.player_nick(key, interaction.user.id)
    channel = slot_channel(guild, table, "game")
    if channel is None:
        raise UserError("error.not_set_up")
    game_lang = table_language(table, guild)
    alive = game.engine.state.alive(nick)
    await interaction.response.defer(ephemeral=True, thinking=True)
    # Refuses a blank text (nothing would show); counts a living player's post (R52).
    await ctx.service.post(key, interaction.user.id, text)
    seat = next((p for p in game.players if p.nick == nick), None)
    # R6: a post never shows a real account, not even as a mention someone typed.
    body = discord.utils.escape_mentions(text)
    if seat is not None and seat.signature:
        body = f"{body}\n\n{seat.signature}"
    username = nick if alive else t(game_lang, "say.ghost_name", nick=nick)
    await ctx.webhooks.post(
        channel, body, username=username, avatar_url=seat.avatar_url if seat else None
    )
    lang = await reader_language(ctx.store, interaction)
    await send_private(interaction, t(lang, "say.done", channel=channel.mention))


async def private_news(ctx: GameContext, game_id: int, nick: str) -> list[OutboxRecord]:
    """The private messages of the latest turn that sent the player any (role cards aside)."""
    mine = [
        row
        for row in await ctx.store.outbox(game_id)
        if row.payload.get("audience") == nick and row.kind != "role_card"
    ]
    if not mine:
        return []
    latest = max(row.turn for row in mine)
    return [row for row in mine if row.turn == latest]


def avatar_url_ok(url: str) -> bool:
    """A link Discord can fetch as a webhook avatar: http(s), a host, printable ASCII with no
    space (anything else fails the post later, at Discord, instead of being refused now)."""
    if not (url.isascii() and url.isprintable()) or " " in url:
        return False
    try:
        parts = urlsplit(url)
    except ValueError:  # e.g. a malformed IPv6 host
        return False
    return parts.scheme in ("https", "http") and bool(parts.netloc)


class PostModal(discord.ui.Modal):
    """``/post``: a long text, posted like ``/say``."""

    def __init__(self, ctx: GameContext, lang: Lang) -> None:
        super().__init__(title=t(lang, "post.title"))
        self.ctx = ctx
        self.body: discord.ui.TextInput[PostModal] = discord.ui.TextInput(
            label=t(lang, "post.label"),
            style=discord.TextStyle.paragraph,
            custom_id="body",
            min_length=1,
            max_length=4000,
        )
        self.add_item(self.body)

    async def on_submit(self, interaction: discord.Interaction[Any], /) -> None:
        try:
            await post_as_player(self.ctx, interaction, self.body.value)
        except Refusal as refusal:  # a modal has no command tree to render it
            lang = await reader_language(self.ctx.store, interaction)
            await send_private(interaction, refusal.render(lang))


class DayCog(PlayerCog, name="Day"):
    @app_commands.command(name="role", description=ltext("cmd.role.description"))
    async def role_command(self, interaction: discord.Interaction[Any]) -> None:
        guild_of(interaction)
        key = await table_key(self.ctx.store, interaction)
        card = self.ctx.service.card(key, interaction.user.id)
        lang = await reader_language(self.ctx.store, interaction)
        text = render_role_card(lang, card)
        game = self.ctx.service.game_in(key)
        header = await game_header(self.ctx, interaction, game, lang) if game else None
        await send_private(interaction, f"{header}\n{text}" if header else text)

    @app_commands.command(name="status", description=ltext("cmd.status.description"))
    async def status_command(self, interaction: discord.Interaction[Any]) -> None:
        guild_of(interaction)
        key = await table_key(self.ctx.store, interaction)
        game, nick = self.ctx.service.player_nick(key, interaction.user.id)
        card = self.ctx.service.card(key, interaction.user.id)
        lang = await reader_language(self.ctx.store, interaction)
        state = game.engine.state
        header = await game_header(self.ctx, interaction, game, lang)
        lines = [header] if header else []
        if game.review is not None:  # the results are not out yet: nothing of them shows
            until = until_of(game.review)
            lines.append(t(lang, "review.status", until=timestamp(until, "f")))
            await send_private(interaction, "\n".join(lines))
            return
        lines += [
            t(
                lang,
                "status.header",
                nick=nick,
                role=role_name(lang, card.role),
                turn=game.engine.turn,
            )
        ]
        if not card.alive:
            lines.append(t(lang, "card.dead"))
        requests = game.engine.standing_requests(nick)
        shown = [r for r in requests if r.do != "post"]
        if shown:
            lines.append(t(lang, "status.requests"))
            lines += [f"- {describe_request(lang, r)}" for r in shown]
        else:
            lines.append(t(lang, "status.no_requests"))
        if card.alive:
            lines.append(t(lang, "status.posts", count=state.posts.get(nick, 0)))
        news = await private_news(self.ctx, game.id, nick)
        if news:  # the fallback when a private message could not be delivered
            lines.append(t(lang, "status.news"))
            lines += [render(lang, row.kind, row.payload.get("payload") or {}) for row in news]
        record = game.record
        if record.paused:
            lines.append(t(lang, "status.paused"))
        elif record.deadline is not None:
            lines.append(
                t(
                    lang,
                    "status.deadline",
                    deadline=timestamp(record.deadline, "f"),
                    relative=timestamp(record.deadline, "R"),
                )
            )
        await send_private(interaction, "\n".join(lines))

    # --- talking ----------------------------------------------------------------------
    @app_commands.command(name="say", description=ltext("cmd.say.description"))
    @app_commands.describe(text=ltext("cmd.say.opt.text.description"))
    async def say_command(
        self, interaction: discord.Interaction[Any], text: app_commands.Range[str, 1, 4000]
    ) -> None:
        """Post in #game under my nickname (R6); a living player's post counts (R52)."""
        await post_as_player(self.ctx, interaction, text)

    @app_commands.command(name="post", description=ltext("cmd.post.description"))
    async def post_command(self, interaction: discord.Interaction[Any]) -> None:
        """A long post, written in a modal."""
        guild_of(interaction)
        key = await table_key(self.ctx.store, interaction)
        self.ctx.service.player_nick(key, interaction.user.id)  # refuse non-players now
        lang = await reader_language(self.ctx.store, interaction)
        await interaction.response.send_modal(PostModal(self.ctx, lang))

    @app_commands.command(name="profile", description=ltext("cmd.profile.description"))
    @app_commands.describe(
        avatar=ltext("cmd.profile.opt.avatar.description"),
        image=ltext("cmd.profile.opt.image.description"),
        signature=ltext("cmd.profile.opt.signature.description"),
    )
    async def profile_command(
        self,
        interaction: discord.Interaction[Any],
        avatar: app_commands.Range[str, 1, 500] | None = None,
        image: discord.Attachment | None = None,
        signature: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        """R10: my anonymous avatar and signature for my posts."""
        guild_of(interaction)
        url = image.url if image is not None else avatar
        if url is not None and not avatar_url_ok(url):
            raise UserError("error.bad_avatar")
        if url is None and signature is None:
            raise UserError("error.profile_empty")
        await self.ctx.service.set_profile(
            await table_key(self.ctx.store, interaction),
            interaction.user.id,
            avatar_url=url,
            signature=discord.utils.escape_mentions(signature) if signature else None,
        )
        lang = await reader_language(self.ctx.store, interaction)
        await send_private(interaction, t(lang, "profile.done"))

    @app_commands.command(name="vote", description=ltext("cmd.vote.description"))
    @app_commands.describe(target=ltext("cmd.vote.opt.target.description"))
    @app_commands.autocomplete(target=nick_autocomplete("vote"))
    async def vote_command(self, interaction: discord.Interaction[Any], target: Nick) -> None:
        await submit_request(self.ctx, interaction, {"do": "vote", "target": target})

    @app_commands.command(name="hunt", description=ltext("cmd.hunt.description"))
    @app_commands.describe(target=ltext("cmd.hunt.opt.target.description"))
    @app_commands.autocomplete(target=nick_autocomplete("hunt"))
    async def hunt_command(self, interaction: discord.Interaction[Any], target: Nick) -> None:
        await submit_request(self.ctx, interaction, {"do": "hunt", "target": target})

    @app_commands.command(name="note", description=ltext("cmd.note.description"))
    @app_commands.describe(
        to=ltext("cmd.note.opt.to.description"), text=ltext("cmd.note.opt.text.description")
    )
    @app_commands.autocomplete(to=nick_autocomplete("note"))
    async def note_command(
        self,
        interaction: discord.Interaction[Any],
        to: Nick,
        text: app_commands.Range[str, 1, 1500],
    ) -> None:
        await submit_request(self.ctx, interaction, {"do": "note", "to": to, "text": text})


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(DayCog(game_context(bot)))
