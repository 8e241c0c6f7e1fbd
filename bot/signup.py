"""The sign-up message in #game: Join and Leave buttons (persistent: fixed custom ids, so they
keep working after a restart) and a live count of the players who signed up; in a game with
role wishes (R58) also a menu to wish for a role (answered privately) and the tally of the
wishes by role, counts only.

The buttons act on the table whose #game holds the message (``bot/tables.table_of``).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any, Final

import discord

from bot.context import GameContext
from bot.delivery import slot_channel
from bot.render import command_name, role_name, schedule_hours
from bot.replies import reader_language, send_private
from bot.secrecy import ensure_may_join
from bot.tables import table_language, table_of
from core.i18n import Lang, t
from core.live import schedule_of
from core.refusal import Refusal
from rules.schedule import Schedule
from rules.wishes import NO_WISH, wishable_roles

log = logging.getLogger(__name__)

JOIN_ID: Final[str] = "mafia:signup:join"
LEAVE_ID: Final[str] = "mafia:signup:leave"
WISH_ID: Final[str] = "mafia:signup:wish"

#: Discord shows at most 25 options in a select menu.
MAX_OPTIONS: Final = 25


def wish_options(lang: Lang) -> list[tuple[str, str]]:
    """The roles a member may wish for, named in ``lang`` (label, value), then "no wish"
    (``none``): the registry decides which roles there are (R58)."""
    options = [(role_name(lang, code), code) for code in wishable_roles()]
    return [*options[: MAX_OPTIONS - 1], (t(lang, "signup.wish_none_option"), NO_WISH)]


class WishSelect(discord.ui.Select["SignupView"]):
    """The sign-up post's role wish menu (R58): the choice is answered privately, and only
    the member himself (and the hosts) ever learns it."""

    def __init__(self, ctx: GameContext, lang: Lang) -> None:
        super().__init__(
            custom_id=WISH_ID,
            placeholder=t(lang, "signup.wish_placeholder"),
            min_values=1,
            max_values=1,
            options=[
                discord.SelectOption(label=label, value=value)
                for label, value in wish_options(lang)
            ],
        )
        self.ctx = ctx

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await wish_action(self.ctx, interaction, self.values[0] if self.values else NO_WISH)


class SignupView(discord.ui.View):
    """Join / Leave, and the wish menu when the game takes wishes. One instance, with the
    menu, is registered at start-up for every sign-up message (the menu's answers reach it
    by its custom id)."""

    def __init__(self, ctx: GameContext, lang: Lang = "en", *, wishes: bool = True) -> None:
        super().__init__(timeout=None)
        self.ctx = ctx
        self.join_button.label = t(lang, "signup.join_button")
        self.leave_button.label = t(lang, "signup.leave_button")
        if wishes:
            self.add_item(WishSelect(ctx, lang))

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


async def wish_action(ctx: GameContext, interaction: discord.Interaction[Any], value: str) -> None:
    """R58: wish for a role (``none`` withdraws the wish), reply privately, show the new tally
    on the sign-up post. Refusals are answered here for the menu (no command tree)."""
    guild = interaction.guild
    if guild is None:
        return
    lang = await reader_language(ctx.store, interaction)
    role = None if value == NO_WISH else value
    try:
        table = await table_of(ctx.store, interaction)
        table_id = table.table_id if table is not None else guild.id
        await ctx.service.wish(table_id, interaction.user.id, role)
    except Refusal as refusal:
        if interaction.command is not None:
            raise  # a slash command: the tree renders it
        await send_private(interaction, refusal.render(lang))
        return
    if role is None:
        await send_private(interaction, t(lang, "wish.withdrawn"))
    else:
        await send_private(interaction, t(lang, "wish.set", role=role_name(lang, role)))
    signup = await ctx.service.signups_of(table_id)
    count = len(signup[1]) if signup is not None else 0
    await refresh_signup(ctx, guild, count, table_id=table_id)


def tally_text(lang: Lang, tally: Mapping[str, int], count: int) -> str:
    """R58: ``Комиссар — 1, Жулик — 1, Мирный житель — 3; без пожелания — 2``: counts by role
    (the registry's order), never who; then how many of the ``count`` signed up wished for
    nothing."""
    items = [
        t(lang, "signup.wish_item", role=role_name(lang, role), count=n)
        for role, n in tally.items()
    ]
    without = count - sum(tally.values())
    if not items:
        return t(lang, "signup.wishes_none")
    text = ", ".join(items)
    if without > 0:
        text += "; " + t(lang, "signup.no_wish_item", count=without)
    return t(lang, "signup.wishes", tally=text)


def signup_text(
    lang: Lang,
    count: int,
    schedule: str,
    tally: Mapping[str, int] | None = None,
    hours: Schedule | None = None,
) -> str:
    """The sign-up post: the count; the game's ``hours`` (R61); with wishes (``tally`` given)
    how to wish and the tally."""
    text = t(lang, "signup.message", count=count, schedule=t(lang, f"choice.schedule.{schedule}"))
    line = None if hours is None else schedule_hours(lang, hours)
    if line is not None:
        text += "\n" + line
    if tally is None:
        return text
    hint = t(lang, "signup.wishes_hint", command=command_name(lang, "wish"))
    return f"{text}\n{hint}\n{tally_text(lang, tally, count)}"


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
    tally = await ctx.service.wish_tally(rec.id) if rec.wishes else None
    try:
        await channel.get_partial_message(rec.signup_message_id).edit(
            content=signup_text(lang, count, rec.schedule_kind, tally, schedule_of(rec))
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
        await channel.get_partial_message(message_id).edit(content=t(lang, key), view=None)
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
