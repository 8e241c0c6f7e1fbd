"""The host's overrides, subcommands of ``/mafia`` (the group is the lobby's, ``cogs/lobby.py``):
announce, resolve, extend, pause, resume, end, exclude, deprive, doublekill, replace, state,
log and purge;
and the audit log of host commands (R56). Every one passes :meth:`AdminCog.interaction_check`
(Manage Server or the host role, checked at run time).

The audit log: every ``/mafia`` command that completed is recorded with who ran it and its
options. Commands that change the game record themselves in the store, in the same
transaction as the change (exclude, deprive, doublekill, extend, pause, resume, replace, end);
``purge`` records itself when confirmed, without the member it was about; the listener here
records the others.
"""

from __future__ import annotations

import logging
from typing import Any, Final

import discord
from discord import app_commands
from discord.ext import commands

from bot.command_i18n import described, ltext
from bot.confirm import add_confirm_items, confirm_view, remember, send_preview
from bot.context import GameContext, game_context
from bot.embeds import pack
from bot.errors import UserError
from bot.hosts import ensure_host
from bot.paging import PagedView
from bot.render import (
    render_audit_line,
    render_log_page,
    render_signup_state,
    render_state_embeds,
    resolve_preview,
    timestamp,
)
from bot.replies import reader_language, send_private
from bot.secrecy import ensure_substitute_may_play
from bot.tables import table_key, table_language, table_of, table_title
from bot.webhooks import split_message
from cogs._common import HOST_GROUP, Nick, add_host_commands, audit_args, guild_and_member
from core import stats
from core.i18n import Lang, t
from core.quoting import quote_player_line
from core.substitute_service import MAX_BAR_DAYS, SubsList
from rules.model import HostAction
from rules.names import find_name
from rules.text import is_blank

log = logging.getLogger(__name__)

#: Recorded by the game service itself, with the change they make (and ``purge``, by its
#: confirmation: the audit row says that a purge happened and who ran it, never whose data).
AUDITED_BY_THE_SERVICE: Final[frozenset[str]] = frozenset(
    {
        "exclude",
        "deprive",
        "doublekill",
        "extend",
        "pause",
        "resume",
        "replace",
        "bar",
        "unbar",
        "end",
        "resolve",
        "purge",
    }
)


class AdminCog(commands.Cog, name="Admin"):
    def __init__(self, ctx: GameContext) -> None:
        self.ctx = ctx

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        await ensure_host(self.ctx.reads, interaction)
        return True

    @app_commands.command(name="announce", description=ltext("cmd.mafia.announce.description"))
    @described("mafia.announce", "text")
    async def announce_command(
        self,
        interaction: discord.Interaction[Any],
        text: app_commands.Range[str, 1, 6000],  # Discord's limit for a text option
    ) -> None:
        """R47: the host's narrative, posted in #game under the host's name."""
        guild, _member = guild_and_member(interaction)
        if is_blank(text):  # Discord would show nothing
            raise UserError("error.empty_text")
        settings = await table_of(self.ctx.reads, interaction)
        channel = (
            guild.get_channel(settings.game_channel_id)
            if settings is not None and settings.game_channel_id is not None
            else None
        )
        if not isinstance(channel, discord.TextChannel):
            raise UserError("error.not_set_up")
        game_lang = table_language(settings, guild)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.ctx.webhooks.post(channel, text, username=t(game_lang, "host.display_name"))
        lang = await reader_language(self.ctx.reads, interaction)
        await send_private(interaction, t(lang, "announce.done", channel=channel.mention))

    @app_commands.command(name="resolve", description=ltext("cmd.mafia.resolve.description"))
    async def resolve_command(self, interaction: discord.Interaction[Any]) -> None:
        """A private preview of the turn; its Confirm button resolves that turn only."""
        table_id = await table_key(self.ctx.reads, interaction)
        game = self.ctx.service.running(table_id)
        lang = await reader_language(self.ctx.reads, interaction)
        stage = game.engine.phase.value
        view = confirm_view(lang, "resolve", table_id, game.id, f"{game.engine.turn}.{stage}")
        downtime = await self.ctx.service.downtime_now(game)  # R59
        await send_preview(interaction, resolve_preview(lang, game, downtime), view)

    @app_commands.command(name="extend", description=ltext("cmd.mafia.extend.description"))
    @described("mafia.extend", "minutes")
    async def extend_command(
        self, interaction: discord.Interaction[Any], minutes: app_commands.Range[int, 1, 10080]
    ) -> None:
        _guild, member = guild_and_member(interaction)
        table_id = await table_key(self.ctx.reads, interaction)
        deadline = await self.ctx.service.extend(table_id, member.id, minutes)
        await self._clock_moved(interaction, "host.extended", deadline=timestamp(deadline))

    @app_commands.command(name="pause", description=ltext("cmd.mafia.pause.description"))
    async def pause_command(self, interaction: discord.Interaction[Any]) -> None:
        _guild, member = guild_and_member(interaction)
        await self.ctx.service.pause(await table_key(self.ctx.reads, interaction), member.id)
        await self._clock_moved(interaction, "host.paused")

    @app_commands.command(name="resume", description=ltext("cmd.mafia.resume.description"))
    async def resume_command(self, interaction: discord.Interaction[Any]) -> None:
        _guild, member = guild_and_member(interaction)
        table_id = await table_key(self.ctx.reads, interaction)
        deadline = await self.ctx.service.resume(table_id, member.id)
        await self._clock_moved(interaction, "host.resumed", deadline=timestamp(deadline))

    async def _clock_moved(
        self, interaction: discord.Interaction[Any], key: str, **values: object
    ) -> None:
        """A clock command took effect: the clock rearms, the host is told, then the public
        notice goes out (R56; after the reply: an interaction answers in 3 s)."""
        self.ctx.clock.rearm()
        lang = await reader_language(self.ctx.reads, interaction)
        await send_private(interaction, t(lang, key, **values))
        await self.ctx.deliver()

    @app_commands.command(name="end", description=ltext("cmd.mafia.end.description"))
    async def end_command(self, interaction: discord.Interaction[Any]) -> None:
        """A private preview; its Confirm button ends that game (or cancels that sign-up)."""
        table_id = await table_key(self.ctx.reads, interaction)
        lang = await reader_language(self.ctx.reads, interaction)
        game = self.ctx.service.game_in(table_id)
        if game is not None:
            game_id = game.id
            text = t(lang, "host.end_preview", game=game.id, turn=game.engine.turn)
        else:
            signup = await self.ctx.service.signup_open(table_id)
            if signup is None:
                raise UserError("error.no_running_game")
            rec, members = signup
            game_id = rec.id
            text = t(lang, "host.cancel_signup_preview", game=rec.id, count=len(members))
        await send_preview(interaction, text, confirm_view(lang, "end", table_id, game_id, ""))

    @app_commands.command(name="exclude", description=ltext("cmd.mafia.exclude.description"))
    @described("mafia.exclude", "player", "reason")
    async def exclude_command(
        self,
        interaction: discord.Interaction[Any],
        player: Nick,
        reason: app_commands.Range[str, 1, 500] | None = None,
    ) -> None:
        """A private preview; its Confirm button excludes the player (announced at once)."""
        table_id = await table_key(self.ctx.reads, interaction)
        game = self.ctx.service.running(table_id)
        nick = find_name(game.engine.state.players, player)  # R44: the exact rule
        if nick is None:
            raise UserError("error.unknown_nick", nick=player)
        lang = await reader_language(self.ctx.reads, interaction)
        lines = [t(lang, "host.exclude_preview", nick=nick)]
        if reason:
            lines.append(t(lang, "host.exclude_reason", reason=reason))
        token = await remember(self.ctx, game.record.guild_id, {"player": nick, "reason": reason})
        await send_preview(
            interaction, "\n".join(lines), confirm_view(lang, "exclude", table_id, game.id, token)
        )

    @app_commands.command(name="deprive", description=ltext("cmd.mafia.deprive.description"))
    @described("mafia.deprive", "player")
    async def deprive_command(self, interaction: discord.Interaction[Any], player: Nick) -> None:
        await self._host_action(interaction, HostAction("deprive_vote", player), "host.deprived")

    @app_commands.command(name="doublekill", description=ltext("cmd.mafia.doublekill.description"))
    async def doublekill_command(self, interaction: discord.Interaction[Any]) -> None:
        await self._host_action(interaction, HostAction("double_kill"), "host.double_kill")

    @app_commands.command(name="replace", description=ltext("cmd.mafia.replace.description"))
    @described("mafia.replace", "player", "member")
    async def replace_command(
        self,
        interaction: discord.Interaction[Any],
        player: Nick,
        member: discord.Member | None = None,
    ) -> None:
        """R60: a substitute (the first standing by, unless ``member`` is named) takes over the
        nickname: the role card, the mafia's room and everything kept by nickname follow; the
        replaced member loses them at once."""
        guild, host = guild_and_member(interaction)
        table_id = await table_key(self.ctx.reads, interaction)
        from_list = member is None
        if member is None:
            first = await self.ctx.service.first_substitute(
                table_id, lambda uid: guild.get_member(uid) is not None
            )
            member = guild.get_member(first)
            if member is None:  # left the server just now: the next time picks the next one
                raise UserError("error.replace_left_list", nick=player)
        if member.bot:
            raise UserError("error.bot_cannot_play")
        await ensure_substitute_may_play(self.ctx, guild, member, table_id=table_id)  # R14, R55
        await interaction.response.defer(ephemeral=True, thinking=True)
        # ``sent_at``: a replacement of the nickname since the command was sent (another
        # host's, at once) refuses this one. The mafia's room follows the seat with its notice
        # (bot/mafia_room.py).
        _previous, seat = await self.ctx.service.replace(
            table_id,
            host.id,
            player,
            member.id,
            from_list=from_list,
            sent_at=interaction.created_at,
        )
        await self.ctx.deliver()
        lang = await reader_language(self.ctx.reads, interaction)
        await send_private(interaction, t(lang, "host.replaced", nick=seat.nick))

    @app_commands.command(name="subs", description=ltext("cmd.mafia.subs.description"))
    async def subs_command(self, interaction: discord.Interaction[Any]) -> None:
        """R60: the members standing by, in order of standing by, and the players who asked to
        be replaced (by nickname, in the public order), privately."""
        table_id = await table_key(self.ctx.reads, interaction)
        subs = await self.ctx.service.substitutes_of(table_id)
        lang = await reader_language(self.ctx.reads, interaction)
        for piece in split_message(render_subs(lang, subs)):  # long reasons: several messages
            await send_private(interaction, piece)

    @app_commands.command(name="bar", description=ltext("cmd.mafia.bar.description"))
    @described("mafia.bar", "member", "reason", "days")
    async def bar_command(
        self,
        interaction: discord.Interaction[Any],
        member: discord.User,
        reason: app_commands.Range[str, 1, 500],
        days: app_commands.Range[int, 1, MAX_BAR_DAYS] | None = None,
    ) -> None:
        """R63: the member may not sign up at this server's tables (for ``days``, or until
        lifted); in the audit log. A user option: a member who left can be barred too."""
        guild, host = guild_and_member(interaction)
        if is_blank(reason):
            raise UserError("error.empty_text")
        table_id = await table_key(self.ctx.reads, interaction)
        bar = await self.ctx.service.bar(
            guild.id, host.id, member.id, days=days, reason=reason, table_id=table_id
        )
        lang = await reader_language(self.ctx.reads, interaction)
        mention = f"<@{member.id}>"
        if bar.until is None:
            text = t(lang, "host.barred", member=mention)
        else:
            text = t(lang, "host.barred_until", member=mention, until=timestamp(bar.until, "f"))
        await send_private(interaction, text)

    @app_commands.command(name="unbar", description=ltext("cmd.mafia.unbar.description"))
    @described("mafia.unbar", "member")
    async def unbar_command(
        self, interaction: discord.Interaction[Any], member: discord.User
    ) -> None:
        """R63: the bar is lifted (audited)."""
        guild, host = guild_and_member(interaction)
        table_id = await table_key(self.ctx.reads, interaction)
        await self.ctx.service.unbar(guild.id, host.id, member.id, table_id=table_id)
        lang = await reader_language(self.ctx.reads, interaction)
        await send_private(interaction, t(lang, "host.unbarred", member=f"<@{member.id}>"))

    @app_commands.command(name="state", description=ltext("cmd.mafia.state.description"))
    async def state_command(self, interaction: discord.Interaction[Any]) -> None:
        """The full state, privately: who is who, alive or dead, and this turn's requests."""
        key = await table_key(self.ctx.reads, interaction)
        lang = await reader_language(self.ctx.reads, interaction)
        game = self.ctx.service.game_in(key)
        if game is None:  # sign-up: who signed up, and what each wished for (R58)
            signup = await self.ctx.service.signup_open(key)
            if signup is None:
                raise UserError("error.no_running_game")
            lobby, members = signup
            wishes = await self.ctx.reads.wishes(lobby.id) if lobby.wishes else None
            text = render_signup_state(lang, lobby.id, members, wishes)
            await send_private(interaction, text)
            return
        wishes = await self.ctx.reads.wishes(game.id) if game.record.wishes else None
        spectators = await self.ctx.reads.spectators(game.id)
        embeds = render_state_embeds(lang, game, wishes, spectators)
        await interaction.response.defer(ephemeral=True, thinking=True)
        for post in pack(embeds):  # ten embeds and 6,000 characters a message
            await interaction.followup.send(
                post.content, embeds=list(post.embeds), ephemeral=True, allowed_mentions=NO_PINGS
            )

    @app_commands.command(name="log", description=ltext("cmd.mafia.log.description"))
    async def log_command(self, interaction: discord.Interaction[Any]) -> None:
        """The audit log of the table's host commands, newest first, a page at a time, with
        Prev/Next buttons only the invoker can use (R56)."""
        _guild, member = guild_and_member(interaction)
        table_id = await table_key(self.ctx.reads, interaction)
        lang = await reader_language(self.ctx.reads, interaction)
        view = AuditLogView(self.ctx, lang, member.id, table_id)
        embed = await view.show()
        await interaction.response.send_message(
            embed=embed, view=view, ephemeral=True, allowed_mentions=NO_PINGS
        )

    @app_commands.command(name="purge", description=ltext("cmd.mafia.purge.description"))
    @described("mafia.purge", "member")
    async def purge_command(
        self, interaction: discord.Interaction[Any], member: discord.User
    ) -> None:
        """A private preview; its Confirm button deletes the member's personal data kept for
        this server (:func:`confirm_purge`). A user option, not a member one: a member who
        left the server can ask too. Refused while he takes part in a game of the server."""
        guild, _host = guild_and_member(interaction)
        table_id = await table_key(self.ctx.reads, interaction)
        lang = await reader_language(self.ctx.reads, interaction)
        await refuse_purge_while_playing(self.ctx, guild, member.id, lang)
        text = t(lang, "host.purge_preview", member=f"<@{member.id}>")
        await send_preview(
            interaction, text, confirm_view(lang, "purge", table_id, 0, str(member.id))
        )

    @exclude_command.autocomplete("player")
    @deprive_command.autocomplete("player")
    @replace_command.autocomplete("player")
    async def _player_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        # Autocomplete runs no check: only a host sees the nicknames (never user names).
        try:
            await ensure_host(self.ctx.reads, interaction)
        except Exception:
            return []
        try:
            game = self.ctx.service.game_in(await table_key(self.ctx.reads, interaction))
        except Exception:
            return []
        if game is None:
            return []
        needle = current.casefold()
        return [
            app_commands.Choice(name=p.nick, value=p.nick)
            for p in game.engine.state.living()
            if needle in p.nick.casefold()
        ][:25]

    async def _host_action(
        self,
        interaction: discord.Interaction[Any],
        action: HostAction,
        key: str,
        reason: str | None = None,
    ) -> None:
        _guild, member = guild_and_member(interaction)
        table_id = await table_key(self.ctx.reads, interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        action = await self.ctx.service.host_action(table_id, member.id, action, reason)
        await self.ctx.deliver()
        self.ctx.clock.rearm()
        lang = await reader_language(self.ctx.reads, interaction)
        await send_private(interaction, t(lang, key, nick=action.player or ""))

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot left the server (kicked, banned, or the server deleted): everything kept for
        it goes (:meth:`db.ops.privacy.PrivacyOps.purge_guild`). Not on an outage:
        discord.py sends ``guild_unavailable`` then, never ``guild_remove``. Its running games
        stop first, each under its own lock, so that no clock tick or command writes to a game
        being deleted."""
        games, count = await self.ctx.service.forget_guild(guild.id)
        self.ctx.delivery.router.forget_dm_channels(guild.id)
        self.ctx.clock.rearm()
        forget_cached_stats(games)
        log.info("left guild %s: its data deleted (%d games)", guild.id, count)

    @commands.Cog.listener()
    async def on_app_command_completion(
        self,
        interaction: discord.Interaction[Any],
        command: app_commands.Command[Any, ..., Any] | app_commands.ContextMenu,
    ) -> None:
        parent = getattr(command, "parent", None)
        if parent is None or parent.name != HOST_GROUP or interaction.guild is None:
            return
        if command.name in AUDITED_BY_THE_SERVICE:
            return
        guild = interaction.guild
        try:
            table = await table_of(self.ctx.reads, interaction)
        except UserError:  # not reached: every /mafia command knows its table by now
            table = None
        table_id = table.table_id if table is not None else guild.id
        name, args = f"mafia {command.name}", audit_args(interaction.namespace)
        # R56: its line in #host, queued with the game's announcements when there is a game
        # (durable, in order); before any game, posted at once. Either way the row belongs
        # to the table the command was used at.
        queued = await self.ctx.service.audit_at_table(table_id, interaction.user.id, name, args)
        if queued:
            await self.ctx.deliver()
        else:
            lang = table_language(table, guild)
            line = render_audit_line(lang, name, interaction.user.id, args)
            await self.ctx.delivery.tell_hosts(interaction.guild, line, table_id=table_id)


NO_PINGS = discord.AllowedMentions.none()


def render_subs(lang: Lang, subs: SubsList) -> str:
    """``/mafia subs`` (R60): the substitutes in order of standing by (members, for the hosts),
    then the nicknames whose players asked to be replaced, with their reasons."""
    lines = [t(lang, "subs.standing_title")]
    if subs.standing:
        lines += [
            t(lang, "subs.standing_line", rank=i, member=f"<@{uid}>")
            for i, uid in enumerate(subs.standing, start=1)
        ]
    else:
        lines.append(t(lang, "subs.standing_none"))
    lines.append(t(lang, "subs.asked_title"))
    if subs.asked:
        for nick, reason in subs.asked:
            if reason:
                lines.append(
                    t(lang, "subs.asked_reason", nick=nick, reason=quote_player_line(reason))
                )
            else:
                lines.append(t(lang, "subs.asked_line", nick=nick))
    else:
        lines.append(t(lang, "subs.asked_none"))
    return "\n".join(lines)


#: ``/mafia log``: lines per page, and how long its buttons work.
LOG_PAGE_SIZE: Final[int] = 10
LOG_TIMEOUT_SECONDS: Final[float] = 600.0


class AuditLogView(PagedView):
    """``/mafia log``'s Prev/Next buttons: only the host who opened it turns its pages, and
    they stop working after :data:`LOG_TIMEOUT_SECONDS` (the view is not persistent)."""

    def __init__(self, ctx: GameContext, lang: Lang, owner_id: int, table_id: int) -> None:
        super().__init__(ctx, lang, owner_id, keys="console.log", timeout=LOG_TIMEOUT_SECONDS)
        self.table_id = table_id
        #: Paged by entry id (keyset): ``bounds[k]`` is the id page ``k`` starts below. The
        #: first page is fixed when it is shown, so the lines logged afterwards (this very
        #: command's, other hosts') never shift a page: Next and Prev neither repeat nor skip.
        self.bounds: list[int | None] = [None]

    async def render(self) -> discord.Embed:
        """The current page (its start fixed when first shown; the count as it is now)."""
        self.page = min(self.page, len(self.bounds) - 1)
        rows, below = await self.ctx.reads.audit_page(
            self.table_id, limit=LOG_PAGE_SIZE, before=self.bounds[self.page]
        )
        if self.page == 0 and self.bounds[0] is None and rows:
            self.bounds[0] = rows[0].id + 1  # the newest line when the log was opened
        if len(rows) == LOG_PAGE_SIZE and below > LOG_PAGE_SIZE:
            del self.bounds[self.page + 1 :]
            self.bounds.append(rows[-1].id)  # the next page: the lines below this one
        self.pages = self.page + max(1, -(-below // LOG_PAGE_SIZE))
        lines = [
            f"{timestamp(r.at, 'f')} " + render_audit_line(self.lang, r.command, r.actor_id, r.args)
            for r in rows
        ]
        return render_log_page(self.lang, lines, self.page + 1, self.pages)


def forget_cached_stats(game_ids: list[int]) -> None:
    """Cached stats forget these games after a purge (a superset of the games changed is
    harmless: they are recomputed from the store)."""
    stats.forget(game_ids)


async def refuse_purge_while_playing(
    ctx: GameContext, guild: discord.Guild, user_id: int, lang: Lang
) -> None:
    """``/mafia purge`` waits until the member takes part in no game of the server: signed up
    for one in sign-up, or seated at a running one, or replaced in a running one (he may not
    come back into it, R60: the record says so until it ends) (the table is named)."""
    game = await ctx.reads.takes_part(guild.id, user_id)
    if game is not None:
        table = await ctx.reads.get_table(game.table_id)
        title = table_title(lang, table, guild) if table is not None else str(game.table_id)
        raise UserError("host.purge_busy", member=f"<@{user_id}>", table=title)


async def confirm_purge(
    ctx: GameContext, interaction: discord.Interaction[Any], table_id: int, _game: int, arg: str
) -> str:
    """Delete the personal data of the member the preview named, kept for this server
    (:meth:`db.ops.privacy.PrivacyOps.purge_member`), unless he has joined a game since. The
    audit row (and its line in #host) records that a purge happened and who ran it, not whose
    data: keeping his id there would undo the purge."""
    guild, host = guild_and_member(interaction)
    if not arg.isascii() or not arg.isdigit():
        raise UserError("error.outdated_command")
    user_id = int(arg)
    lang = await reader_language(ctx.reads, interaction)
    await refuse_purge_while_playing(ctx, guild, user_id, lang)
    finished = [g.id for g in await ctx.reads.games(guild_id=guild.id, status="finished")]
    count = await ctx.service.purge_member(guild.id, user_id)
    ctx.delivery.router.forget_dm_channels(guild.id, user_id)
    forget_cached_stats(finished)
    log.info("guild %s: a member's data purged by %s (%d games)", guild.id, host.id, count)
    name = "mafia purge"
    args = {"games": count}
    await ctx.service.audit(table_id, None, host.id, name, args)
    table = await ctx.reads.get_table(table_id)
    line = render_audit_line(table_language(table, guild), name, host.id, args)
    await ctx.delivery.tell_hosts(guild, line, table_id=table_id)
    return t(lang, "host.purged", member=f"<@{user_id}>", count=count)


async def setup(bot: commands.Bot) -> None:
    await add_host_commands(bot, AdminCog(game_context(bot)))
    add_confirm_items(bot, {"purge": confirm_purge})
