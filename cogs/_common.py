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
from core.live import Accepted, LiveGame
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
        settings = await table_of(self.ctx.store, interaction)
        if settings is None or settings.category_id is None:
            return True  # not set up: the command itself says so
        if table_at([settings], where) is not None:
            return True
        game = slot_channel(guild, settings, "game")
        raise UserError("error.wrong_channel", channel=game.mention if game else "#game")


def nick_autocomplete(verb: str) -> Any:
    """Living nicknames the caller may name with ``verb``: autocomplete runs no check, so only
    a player of the caller's own game sees them (never user names)."""

    async def complete(
        interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        if interaction.guild is None:
            return []
        ctx = game_context(interaction.client)
        try:
            key = await table_key(ctx.store, interaction)
        except Refusal:  # several tables, none of them here: nothing to offer
            return []
        game = ctx.service.game_in(key)  # the game of the table where the command is typed
        nick = game.nick_of(interaction.user.id) if game is not None else None
        if game is None or nick is None:
            return []  # only a player of this game sees its nicknames
        needle = current.casefold()
        return [
            app_commands.Choice(name=n, value=n)
            # Not the held results (core/review.py); R18: a killed commissar in his window
            # (which holds the night) aims at those alive now, as his prompt's menu offers.
            for n in valid_targets(
                game.engine.state if verb == "shoot" else game.public_state, nick, verb
            )
            if needle in n.casefold()
        ][:25]

    return complete


#: Requests a later one does not replace until the deadline: the pistol's one shot (R18), the
#: death note (R37, written at any time).
UNCHANGEABLE = frozenset({"shoot", "note"})


async def submit_request(
    ctx: GameContext, interaction: discord.Interaction[Any], raw: dict[str, Any]
) -> Accepted:
    """Submit a player's request (validated and committed by the service), tell him privately,
    and show the mafia's kill agreement in their room. The reply names the players as the game
    spells them, not as they were typed (R44)."""
    guild = guild_of(interaction)
    key = await table_key(ctx.store, interaction)
    accepted = await ctx.service.submit(key, interaction.user.id, raw)
    lang = await reader_language(ctx.store, interaction)
    verb = str(raw["do"])
    names = ", ".join(accepted.request.named())
    game = ctx.service.game_in(key)
    header = await game_header(ctx, interaction, game, lang) if game is not None else None
    lines = [header] if header else []
    if accepted.sent_turn is not None:  # the deadline closed the turn it was sent in (R5)
        lines.append(t(lang, "play.late", sent=accepted.sent_turn, turn=accepted.turn))
    spec = verb_spec(verb)
    accepted_key = spec.accepted_key if spec is not None else f"play.accepted.{verb}"
    lines.append(t(lang, accepted_key, target=names, to=names, turn=accepted.turn))
    deadline = game.record.deadline if game is not None else None
    if verb not in UNCHANGEABLE and deadline is not None and game is not None:
        # a later request of the same kind replaces it until the deadline (R5)
        until = said_time(lang, deadline, game.schedule.tz)
        lines.append(t(lang, "play.change_until", time=until))
    if accepted.withdrawn:  # R17
        names = ", ".join(verb_name(lang, v) for v in accepted.withdrawn)
        lines.append(t(lang, "play.withdrawn", verbs=names))
    await send_private(interaction, "\n".join(lines))
    if accepted.mafia_update is not None and game is not None:  # R14, R23: the kill board
        game_lang = table_language(await table_of(ctx.store, interaction), guild)
        await ctx.boards.refresh(guild, game, game_lang)
    if verb == "shoot":  # the last shot may have closed the window
        await ctx.deliver()
        ctx.clock.rearm()
    return accepted


async def game_header(
    ctx: GameContext, interaction: discord.Interaction[Any], game: LiveGame, lang: Lang
) -> str | None:
    """The first line of a private reply about ``game`` when the member plays at several
    tables of this server (which table and game it is about); None when he plays at one."""
    guild = interaction.guild
    if guild is None:
        return None
    user_id = interaction.user.id
    tables = await ctx.store.tables(guild.id)  # from memory: the store keeps them
    if len(tables) < 2:
        return None  # one table, one game: nothing to tell apart
    running = (ctx.service.game_in(s.table_id) for s in tables)
    seated = [g for g in running if g is not None and g.nick_of(user_id) is not None]
    if len(seated) < 2:
        return None
    table = await ctx.store.get_table(game.record.table_id)
    title = table_title(lang, table, guild) if table is not None else guild.name
    return reply_header(lang, title, game.id)


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
