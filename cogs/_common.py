"""What several cogs share: the guild of an interaction, the players' channel check (the
channels of any table of the server), nickname options with their autocomplete (the game of
the table where the command is typed), and submitting a player's request.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.context import GameContext, game_context
from bot.delivery import slot_channel
from bot.errors import UserError
from bot.render import reply_header, verb_name
from bot.replies import reader_language, send_private
from bot.tables import table_at, table_key, table_language, table_of, table_title
from core.i18n import Lang, t
from core.live import Accepted, LiveGame, ReplyHeader
from core.refusal import Refusal
from core.zones import said_time
from rules.knowledge import valid_targets
from rules.roles import verb_spec

log = logging.getLogger(__name__)

#: A nickname option (autocompleted with :func:`nick_autocomplete`).
Nick = app_commands.Range[str, 1, 100]

#: The name of the host's command group, shared by the lobby and admin cogs.
HOST_GROUP = "mafia"


def guild_of(interaction: discord.Interaction[Any]) -> discord.Guild:
    if interaction.guild is None:
        raise app_commands.NoPrivateMessage()
    return interaction.guild


def guild_and_member(
    interaction: discord.Interaction[Any],
) -> tuple[discord.Guild, discord.Member]:
    guild = interaction.guild
    member = interaction.user
    if guild is None or not isinstance(member, discord.Member):
        raise app_commands.NoPrivateMessage()
    return guild, member


class PlayerCog(commands.Cog):
    """The base of the players' cogs (sign-up, day, night): their commands are refused outside
    the game's channels."""

    def __init__(self, ctx: GameContext) -> None:
        self.ctx = ctx

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """Player commands belong in a table's channels (its category and their threads), not
        anywhere on the server. Elsewhere the refusal names the only table's #game, or lists
        the tables when there are several (``bot/tables.table_of`` raises that one)."""
        guild = interaction.guild
        where = interaction.channel
        if guild is None or where is None:
            return True
        settings = await table_of(self.ctx.reads, interaction)
        if settings is None or settings.category_id is None:
            return True  # not set up: the command itself says so
        if table_at([settings], where) is not None:
            return True
        game = slot_channel(guild, settings, "game")
        raise UserError("error.wrong_channel", channel=game.mention if game else "#game")


def nick_autocomplete(verb: str) -> Any:
    """Living nicknames the caller may name with ``verb``: autocomplete runs no check, so only
    a player of the caller's own game sees them (never user names)."""
    spec = verb_spec(verb)
    after_night = spec is not None and spec.after_night

    async def complete(
        interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        if interaction.guild is None:
            return []
        ctx = game_context(interaction.client)
        try:
            key = await table_key(ctx.reads, interaction)
        except Refusal:  # several tables, none of them here: nothing to offer
            return []
        game = ctx.service.game_in(key)  # the game of the table where the command is typed
        nick = game.nick_of(interaction.user.id) if game is not None else None
        if game is None or nick is None:
            return []  # only a player of this game sees its nicknames
        needle = current.casefold()
        # Not the held results (core/review.py); R18: a verb of the window after a night
        # (which holds that night) aims at those alive now, as the pistol's menu offers.
        state = game.engine.state if after_night else game.public_state
        return [
            app_commands.Choice(name=n, value=n)
            for n in valid_targets(state, nick, verb)
            if needle in n.casefold()
        ][:25]

    return complete


async def submit_request(
    ctx: GameContext, interaction: discord.Interaction[Any], raw: dict[str, Any]
) -> Accepted:
    """Submit a player's request (validated and committed by the service, which returns all
    the answer says), tell him privately, and show the mafia's kill agreement in their room.
    The reply names the players as the game spells them, not as they were typed (R44)."""
    guild = guild_of(interaction)
    key = await table_key(ctx.reads, interaction)
    accepted = await ctx.service.submit(key, interaction.user.id, raw)
    game_lang = table_language(accepted.table, guild)
    lang = await reader_language(ctx.reads, interaction, game=game_lang)
    lines = [header_line(lang, guild, accepted.header)] if accepted.header else []
    if accepted.sent_turn is not None:  # the deadline closed the turn it was sent in (R5)
        lines.append(t(lang, "play.late", sent=accepted.sent_turn, turn=accepted.turn))
    request = accepted.request
    names = ", ".join(request.named())
    spec = verb_spec(request.do)
    accepted_key = spec.accepted_key if spec is not None else f"play.accepted.{request.do}"
    lines.append(t(lang, accepted_key, target=names, to=names, turn=accepted.turn))
    if accepted.until is not None:  # a later request of the same kind replaces it (R5)
        until = said_time(lang, accepted.until, accepted.zone)
        lines.append(t(lang, "play.change_until", time=until))
    if accepted.withdrawn:  # R17
        names = ", ".join(verb_name(lang, v) for v in accepted.withdrawn)
        lines.append(t(lang, "play.withdrawn", verbs=names))
    await send_private(interaction, "\n".join(lines))
    if accepted.mafia_update is not None and accepted.game is not None:  # R14, R23
        await ctx.boards.refresh(guild, accepted.game, game_lang)
    if accepted.after_night:  # R18: the last shot may have closed the window
        await ctx.deliver()
        ctx.clock.rearm()
    return accepted


def header_line(lang: Lang, guild: discord.Guild, header: ReplyHeader) -> str:
    """The first line of a private reply for a member seated at several tables of the
    server: which table and game it is about."""
    table = header.table
    title = table_title(lang, table, guild) if table is not None else guild.name
    return reply_header(lang, title, header.game_id)


async def game_header(
    ctx: GameContext, interaction: discord.Interaction[Any], game: LiveGame, lang: Lang
) -> str | None:
    """The first line of a private reply about ``game`` when the member plays at several
    tables of this server (which table and game it is about); None when he plays at one."""
    guild = interaction.guild
    if guild is None:
        return None
    header = await ctx.service.reply_header(game, interaction.user.id)
    return header_line(lang, guild, header) if header is not None else None


async def add_host_commands(bot: commands.Bot, cog: commands.Cog) -> None:
    """Add ``cog`` and make its slash commands subcommands of the ``/mafia`` group.

    One slash-command group, two cogs: the lobby's ``GroupCog`` owns ``/mafia`` (its name,
    description and ``guild_only``); the admin cog is a plain cog, so discord.py registers its
    commands at the top level, and they are moved under the group here, before the tree is
    synced. Each command keeps its cog as its binding, so the cog's ``interaction_check`` (the
    runtime host check) still runs before it.
    """
    group = bot.tree.get_command(HOST_GROUP)
    if not isinstance(group, app_commands.Group):
        raise RuntimeError(f"/{HOST_GROUP} is not registered: load cogs.lobby first")
    await bot.add_cog(cog)
    for command in cog.get_app_commands():
        bot.tree.remove_command(command.name)
        command.parent = group
        group.add_command(command)


def audit_args(namespace: app_commands.Namespace) -> dict[str, Any]:
    """The command's options as plain JSON values (members, roles, channels by id)."""
    out: dict[str, Any] = {}
    for name, value in namespace:
        if isinstance(value, str | int | float | bool) or value is None:
            out[name] = value
        elif isinstance(value, discord.Attachment):
            out[name] = value.url
        elif hasattr(value, "id"):
            out[name] = int(value.id)
        else:
            out[name] = str(value)
    return out
