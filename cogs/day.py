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

import discord
from discord import app_commands
from discord.ext import commands

from bot.avatars import avatar_refusal
from bot.command_i18n import described, ltext
from bot.context import GameContext, game_context
from bot.delivery import POST_NO_WEBHOOK, POST_SHOWN, slot_channel
from bot.errors import UserError
from bot.pictures import attachment_refusal, fetch_picture
from bot.render import (
    describe_request,
    render,
    render_role_card,
    role_name,
    role_summary,
    schedule_hours,
    timestamp,
)
from bot.replies import reader_language, send_private
from bot.tables import table_key, table_of
from bot.webhooks import pack_lines, split_message
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
from core.review import is_window, until_of
from rules.announce import role_list

log = logging.getLogger(__name__)


async def post_as_player(
    ctx: GameContext,
    interaction: discord.Interaction[Any],
    text: str,
    picture: discord.Attachment | None = None,
) -> None:
    """Post ``text`` in #game under the caller's nickname: committed to the outbox, then
    shown through the same exactly-once delivery as the announcements (``bot/delivery/``),
    and the author told what became of it: shown, refused (the bot cannot post under
    nicknames there; the hosts are told), or not shown yet (Discord fails; it is kept and
    goes out with the retries, never twice). Only a shown post counts (R52) and is archived;
    a ghost's is marked as a ghost's. ``picture`` is downloaded and written again from its
    pixels (no metadata, a neutral name: ``bot/pictures.py``) before anything is queued."""
    guild = guild_of(interaction)
    table = await table_of(ctx.reads, interaction)  # the game of the table it is used at
    key = await table_key(ctx.reads, interaction)
    await ctx.service.playing(key, interaction.user.id)
    channel = slot_channel(guild, table, "game")
    if channel is None:
        raise UserError("error.not_set_up")
    if picture is not None and (refused := attachment_refusal(picture)) is not None:
        raise UserError(refused)  # judged by what Discord says of it: nothing downloaded
    await interaction.response.defer(ephemeral=True, thinking=True)
    clean = await fetch_picture(picture) if picture is not None else None
    # Refuses a blank text (nothing would show); commits the post before anything is told.
    queued = await ctx.service.queue_post(key, interaction.user.id, text, clean)
    lang = await reader_language(ctx.reads, interaction)
    where = channel.mention
    if queued.to_ghosts:  # R62: a ghost's post goes to the ghosts' room
        where = t(lang, "ghosts.the_room")

    async def later(outcome: str) -> None:  # shown (or refused) after he was told it waits
        late = "say.shown_late" if outcome == POST_SHOWN else "say.no_webhook"
        await send_private(interaction, t(lang, late, channel=where))

    outcome = await ctx.delivery.publish_post(queued.game_id, queued.row_id, later=later)
    if queued.to_ghosts:
        room = ctx.delivery.router.ghost_rooms.find(guild, table, queued.game_id)
        where = room.mention if room is not None else where
    answer = {POST_SHOWN: "say.done", POST_NO_WEBHOOK: "say.no_webhook"}.get(outcome, "say.waiting")
    await send_private(interaction, t(lang, answer, channel=where))


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
            lang = await reader_language(self.ctx.reads, interaction)
            await send_private(interaction, refusal.render(lang))


class DayCog(PlayerCog, name="Day"):
    @app_commands.command(name="role", description=ltext("cmd.role.description"))
    async def role_command(self, interaction: discord.Interaction[Any]) -> None:
        guild_of(interaction)
        key = await table_key(self.ctx.reads, interaction)
        # As the member knows it (core/review.py: not the results still in review).
        game, _nick, card = await self.ctx.service.card_now(key, interaction.user.id)
        lang = await reader_language(self.ctx.reads, interaction)
        text = render_role_card(lang, card, game.schedule, game.record.activity_rules)
        header = await game_header(self.ctx, interaction, game, lang)
        # A card fits one message (tests/bot/test_role_cards.py); a long header or team list
        # would be cut at a line break rather than refused by Discord.
        for piece in split_message(f"{header}\n{text}" if header else text):
            await send_private(interaction, piece)

    @app_commands.command(name="status", description=ltext("cmd.status.description"))
    async def status_command(self, interaction: discord.Interaction[Any]) -> None:
        guild_of(interaction)
        key = await table_key(self.ctx.reads, interaction)
        service = self.ctx.service
        if service.game_in(key) is None and await service.held_game(key) is None:
            await self._signup_status(interaction, key)  # sign-up: whether I am in it, my wish
            return
        game, nick, card = await service.card_now(key, interaction.user.id)
        lang = await reader_language(self.ctx.reads, interaction)
        state = game.engine.state
        header = await game_header(self.ctx, interaction, game, lang)
        lines = [header] if header else []
        if game.review is not None:  # the results are not out yet: nothing of them shows
            # The card is the one the players knew before them (core/review.py).
            turn = game.public_state.turn
            role = role_name(lang, card.role)
            lines.append(t(lang, "status.header", nick=nick, role=role, turn=turn))
            if not card.alive:
                lines.append(t(lang, "card.dead"))
            until = until_of(game.review)
            lines.append(t(lang, "review.status", until=timestamp(until, "f")))
            if is_window(game.review) and nick in state.pistols:  # R18: he may shoot now
                news = await self.ctx.reads.private_news(game.id, nick)
                lines += [
                    render(lang, row.kind, row.payload.get("payload") or {})
                    for row in news
                    if row.kind == "pistol"
                ]
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
        # The setup, published once at the start (turn 1's opening): here for the asking, in
        # the registry's order as published (never the seats').
        setup = [code for code, count in role_list(state).items() for _ in range(count)]
        lines.append(t(lang, "status.roles", roles=role_summary(lang, setup)))
        shown = game.engine.standing_requests(nick)  # a post, a shot, a note stand in none
        if shown:
            lines.append(t(lang, "status.requests"))
            lines += [f"- {describe_request(lang, r)}" for r in shown]
        else:
            lines.append(t(lang, "status.no_requests"))
        if card.alive:
            lines.append(t(lang, "status.posts", count=state.posts.get(nick, 0)))
        news = await self.ctx.reads.private_news(game.id, nick)
        # R18: the pistol's prompt stands only while its window is open.
        news = [row for row in news if row.kind != "pistol" or nick in state.pistols]
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
        hours = schedule_hours(lang, game.schedule)  # R61: the forum game's own hours
        if hours is not None:
            lines.append(hours)
        for piece in pack_lines(lines):  # several long death notes: more than one message
            await send_private(interaction, piece)

    async def _signup_status(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """``/status`` while sign-up is open: that I am signed up and, in a game with wishes,
        my own wish (R58: nobody else's)."""
        found = await self.ctx.service.signed_up(table_id, interaction.user.id)
        if found is None:
            raise UserError("error.no_running_game")
        rec, wish = found
        lang = await reader_language(self.ctx.reads, interaction)
        lines = [t(lang, "status.signed_up", game=rec.id)]
        if rec.wishes:
            if wish is None:
                lines.append(t(lang, "status.no_wish"))
            else:
                lines.append(t(lang, "status.wish", role=role_name(lang, wish)))
        await send_private(interaction, "\n".join(lines))

    # --- talking ----------------------------------------------------------------------
    @app_commands.command(name="say", description=ltext("cmd.say.description"))
    @described("say", "text", "image")
    async def say_command(
        self,
        interaction: discord.Interaction[Any],
        text: app_commands.Range[str, 1, 4000] | None = None,
        image: discord.Attachment | None = None,
    ) -> None:
        """Post in #game under my nickname (R6), a text, a picture or both; a living
        player's post counts (R52). A file that is not a picture we post, or too large, is
        refused before it is downloaded."""
        if image is None and text is None:
            raise UserError("error.say_empty")
        await post_as_player(self.ctx, interaction, text or "", image)

    @app_commands.command(name="post", description=ltext("cmd.post.description"))
    async def post_command(self, interaction: discord.Interaction[Any]) -> None:
        """A long post, written in a modal."""
        guild_of(interaction)
        key = await table_key(self.ctx.reads, interaction)
        await self.ctx.service.playing(key, interaction.user.id)  # refuse non-players now
        lang = await reader_language(self.ctx.reads, interaction)
        await interaction.response.send_modal(PostModal(self.ctx, lang))

    @app_commands.command(name="profile", description=ltext("cmd.profile.description"))
    @described("profile", "avatar", "image", "signature")
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
        refused = avatar_refusal(url) if url is not None else None
        if refused is not None:  # not a link, plain http, or a Discord member's own face
            raise UserError(refused)
        if url is None and signature is None:
            raise UserError("error.profile_empty")
        await self.ctx.service.set_profile(
            await table_key(self.ctx.reads, interaction),
            interaction.user.id,
            avatar_url=url,
            signature=discord.utils.escape_mentions(signature) if signature else None,
        )
        lang = await reader_language(self.ctx.reads, interaction)
        await send_private(interaction, t(lang, "profile.done"))

    @app_commands.command(name="vote", description=ltext("cmd.vote.description"))
    @described("vote", "target")
    @app_commands.autocomplete(target=nick_autocomplete("vote"))
    async def vote_command(self, interaction: discord.Interaction[Any], target: Nick) -> None:
        await submit_request(self.ctx, interaction, {"do": "vote", "target": target})

    @app_commands.command(name="hunt", description=ltext("cmd.hunt.description"))
    @described("hunt", "target")
    @app_commands.autocomplete(target=nick_autocomplete("hunt"))
    async def hunt_command(self, interaction: discord.Interaction[Any], target: Nick) -> None:
        await submit_request(self.ctx, interaction, {"do": "hunt", "target": target})

    @app_commands.command(name="note", description=ltext("cmd.note.description"))
    @described("note", "to", "text")
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
