"""The sign-up message in #game: Join and Leave buttons (persistent: fixed custom ids, so they
keep working after a restart) and a live count of the players who signed up.

The buttons act on the table whose #game holds the message (``bot/tables.table_of``).
"""

from __future__ import annotations

import logging
from typing import Any, Final

import discord

from bot.context import GameContext
from bot.delivery import slot_channel
from bot.replies import reader_language, send_private
from bot.secrecy import ensure_may_join
from bot.tables import table_language, table_of
from core.i18n import Lang, t
from core.refusal import Refusal

log = logging.getLogger(__name__)

JOIN_ID: Final[str] = "mafia:signup:join"
LEAVE_ID: Final[str] = "mafia:signup:leave"


class SignupView(discord.ui.View):
    """Join / Leave. One instance is registered at start-up for every sign-up message."""

    def __init__(self, ctx: GameContext, lang: Lang = "en") -> None:
        super().__init__(timeout=None)
        self.ctx = ctx
        self.join_button.label = t(lang, "signup.join_button")
        self.leave_button.label = t(lang, "signup.leave_button")

    @discord.ui.button(label="Join", style=discord.ButtonStyle.success, custom_id=JOIN_ID)
    async def join_button(
        self, interaction: discord.Interaction[Any], _button: discord.ui.Button[SignupView]
    ) -> None:
        await signup_action(self.ctx, interaction, joining=True)

    @discord.ui.button(label="Leave", style=discord.ButtonStyle.secondary, custom_id=LEAVE_ID)
    async def leave_button(
        self, interaction: discord.Interaction[Any], _button: discord.ui.Button[SignupView]
    ) -> None:
        await signup_action(self.ctx, interaction, joining=False)


async def signup_action(
    ctx: GameContext, interaction: discord.Interaction[Any], *, joining: bool
) -> None:
    """Join or leave the open sign-up, reply privately and update the live count.

    Refusals are answered here (a button has no command tree to render them). A member whom
    Discord lets read the secret rooms may not join (``bot/secrecy.py``, R14, R55)."""
    guild = interaction.guild
    if guild is None:
        return
    lang = await reader_language(ctx.store, interaction)
    try:
        table = await table_of(ctx.store, interaction)
        table_id = table.table_id if table is not None else guild.id
        if joining:
            if isinstance(interaction.user, discord.Member):
                await ensure_may_join(ctx, guild, interaction.user, table_id=table_id)
            count = await ctx.service.join(table_id, interaction.user.id)
        else:
            count = await ctx.service.leave(table_id, interaction.user.id)
    except Refusal as refusal:
        if interaction.command is not None:
            raise  # a slash command: the tree renders it
        await send_private(interaction, refusal.render(lang))
        return
    key = "signup.joined" if joining else "signup.left"
    await send_private(interaction, t(lang, key, count=count))
    await refresh_signup(ctx, guild, count, table_id=table_id)


def signup_text(lang: Lang, count: int, schedule: str) -> str:
    return t(lang, "signup.message", count=count, schedule=t(lang, f"choice.schedule.{schedule}"))


async def refresh_signup(
    ctx: GameContext, guild: discord.Guild, count: int, *, table_id: int | None = None
) -> None:
    """Show the new count on the sign-up message of the table ``table_id`` (default: the
    server's first table) in its #game (best effort)."""
    key = table_id if table_id is not None else guild.id
    rec = await ctx.store.open_game(key)
    if rec is None or rec.signup_message_id is None:
        return
    table = await ctx.store.get_table(key)
    channel = slot_channel(guild, table, "game")
    if channel is None:
        return
    lang = table_language(table, guild)
    try:
        await channel.get_partial_message(rec.signup_message_id).edit(
            content=signup_text(lang, count, rec.schedule_kind)
        )
    except discord.HTTPException:
        log.warning("could not update the sign-up message in guild %s", guild.id)


async def close_signup(
    ctx: GameContext,
    guild: discord.Guild,
    message_id: int | None,
    *,
    key: str = "signup.closed",
    table_id: int | None = None,
) -> None:
    """The game started (or the sign-up was cancelled, ``key``): the sign-up message in the
    #game of the table ``table_id`` (default: the server's first table) says so and loses its
    buttons."""
    if message_id is None:
        return
    table = await ctx.store.get_table(table_id if table_id is not None else guild.id)
    channel = slot_channel(guild, table, "game")
    if channel is None:
        return
    lang = table_language(table, guild)
    try:
        await channel.get_partial_message(message_id).edit(
            content=t(lang, key), view=None
        )
    except discord.HTTPException:
        log.warning("could not close the sign-up message in guild %s", guild.id)


async def members_gone(guild: discord.Guild, user_ids: list[int]) -> set[int]:
    """Who of ``user_ids`` is no longer on the server: the member cache when it is complete,
    else asked of Discord (a failed answer keeps the member)."""
    gone: set[int] = set()
    for user_id in user_ids:
        if guild.get_member(user_id) is not None:
            continue
        if guild.chunked:
            gone.add(user_id)
            continue
        try:
            await guild.fetch_member(user_id)
        except discord.NotFound:
            gone.add(user_id)
        except discord.HTTPException:
            log.warning("guild %s: could not look up member %s", guild.id, user_id)
    return gone
