"""``/mafia start`` as a Discord flow: check that the table can host a game (its channels,
the bot's rights there, the secrecy of the mafia's and the hosts' channels, R14, R55), then
start it through the service (the sign-ups of members who left meanwhile dropped), open the
mafia's room (R14), close the sign-up message and send turn 1's announcements. The cog
(``cogs/lobby.py``) calls :func:`check_start` (its refusals come before anything is
committed), defers, calls :func:`start_game` and replies with its text.
"""

from __future__ import annotations

import logging
from typing import Any

import attrs
import discord

from bot.context import GameContext
from bot.delivery import slot_channel
from bot.errors import BotMissingPermissions, UserError
from bot.layout import missing_bot_permissions
from bot.mafia_room import missing_room_permissions
from bot.render import role_summary, timestamp
from bot.replies import reader_language
from bot.secrecy import ensure_secret_start
from bot.signup import close_signup, members_gone
from bot.tables import table_language, table_of
from core.i18n import t
from db.models import TableSettings
from rules.knowledge import mafia_members

log = logging.getLogger(__name__)


@attrs.frozen(kw_only=True)
class StartPlan:
    """The table ``/mafia start`` starts a game at, checked: nothing committed yet."""

    guild: discord.Guild
    member: discord.Member
    settings: TableSettings
    mafia_channel: discord.TextChannel


async def check_start(
    ctx: GameContext,
    interaction: discord.Interaction[Any],
    guild: discord.Guild,
    member: discord.Member,
) -> StartPlan:
    """The refusals of ``/mafia start`` before anything is committed (a game half started,
    cards unsent and no room for the mafia, is worse than a clear refusal): a table not set
    up, the bot missing a permission on the server or in #mafia, a player able to read the
    mafia's or the hosts' channels (R14, R55)."""
    settings = await table_of(ctx.store, interaction)
    mafia_channel = slot_channel(guild, settings, "mafia")
    game_channel = slot_channel(guild, settings, "game")
    if settings is None or game_channel is None or mafia_channel is None:
        raise UserError("error.not_set_up")
    missing = missing_bot_permissions(guild.me.guild_permissions)
    if missing:
        raise BotMissingPermissions("start.bot_missing_permissions", missing=missing)
    missing = missing_room_permissions(mafia_channel.permissions_for(guild.me))
    if missing:
        raise BotMissingPermissions(
            "start.mafia_room_missing_permissions",
            missing=missing,
            channel=mafia_channel.mention,
        )
    await ensure_secret_start(ctx, guild, settings)  # R14, R55: no player reads them
    return StartPlan(guild=guild, member=member, settings=settings, mafia_channel=mafia_channel)


async def start_game(
    ctx: GameContext, interaction: discord.Interaction[Any], plan: StartPlan
) -> str:
    """Start the planned table's game and open it on Discord; the host's reply (the
    players, the roles, turn 1's deadline, and what could not be done, said plainly)."""
    guild, settings, mafia_channel = plan.guild, plan.settings, plan.mafia_channel
    game_lang = table_language(settings, guild)
    lang = await reader_language(ctx.store, interaction)  # the host's reply
    signup = await ctx.service.signups_of(settings.table_id)
    # Sign-ups of members who left while the bot was away are dropped.
    gone = await members_gone(guild, signup[1]) if signup is not None else set()
    live = await ctx.service.start(
        settings.table_id, theme=game_lang, is_member=lambda user_id: user_id not in gone
    )
    log.info("guild %s: game %s started by %s", guild.id, live.id, plan.member.id)
    warnings: list[str] = []
    # R14: the mafia's room is a private thread in #mafia with the mafia in it (never an
    # overwrite per member: every client receives those).
    team = set(mafia_members(live.engine.state))
    members = [
        m for p in live.players if p.nick in team and (m := guild.get_member(p.user_id)) is not None
    ]
    try:
        await ctx.delivery.rooms.open(mafia_channel, live.id, game_lang, members)
    except discord.HTTPException:
        # The game has started (committed): it runs on (the delivery opens the room again
        # with its next mafia announcement), and the host is told plainly.
        log.warning("guild %s: could not open the mafia room", guild.id, exc_info=True)
        warnings.append(t(lang, "start.mafia_access_failed", channel=mafia_channel.mention))
        notice = t(game_lang, "start.mafia_access_failed", channel=mafia_channel.mention)
        # and in #host, for every host
        await ctx.delivery.tell_hosts(guild, notice, table_id=settings.table_id)
    await close_signup(
        ctx,
        guild,
        signup[0].signup_message_id if signup is not None else None,
        table_id=settings.table_id,
    )
    ctx.clock.rearm()
    await ctx.deliver()
    deadline = live.record.deadline
    done = t(
        lang,
        "start.done",
        players=len(live.players),
        roles=role_summary(lang, [p.role for p in live.players]),
        deadline=timestamp(deadline) if deadline else "-",
    )
    return "\n".join([done, *warnings])
