"""The host's ``/mafia`` group. Every subcommand passes :meth:`HostCog.interaction_check`
(Manage Server or the host role, checked at run time).

The cog only parses, checks and renders; channel building lives in ``bot/layout.py`` and
anonymous posting in ``bot/webhooks.py``.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import attrs
import discord
from discord import app_commands
from discord.ext import commands

from bot.command_i18n import ltext
from bot.delivery import slot_channel, timestamp
from bot.errors import BotMissingPermissions, UserError
from bot.hosts import ensure_host
from bot.layout import build_or_repair, missing_bot_permissions
from bot.mafia_room import missing_room_permissions
from bot.pistol import PistolSelect
from bot.replies import guild_language, send_private
from bot.signup import SignupView, close_signup, signup_text
from bot.webhooks import split_message
from core.i18n import Lang, as_lang, t
from core.service import setup_refusal
from db.models import GuildSettings
from rules.knowledge import mafia_members
from rules.model import HostAction
from rules.setup import SetupError, format_role_list, preset

if TYPE_CHECKING:
    from bot.client import MafiaBot

log = logging.getLogger(__name__)

LANGUAGE_CHOICES = [
    app_commands.Choice(name=ltext("choice.language.ru"), value="ru"),
    app_commands.Choice(name=ltext("choice.language.en"), value="en"),
]
SCHEDULE_CHOICES = [
    app_commands.Choice(name=ltext("choice.schedule.forum"), value="forum"),
    app_commands.Choice(name=ltext("choice.schedule.fast"), value="fast"),
]


def _guild_and_member(
    interaction: discord.Interaction[Any],
) -> tuple[discord.Guild, discord.Member]:
    guild = interaction.guild
    member = interaction.user
    if guild is None or not isinstance(member, discord.Member):
        raise app_commands.NoPrivateMessage()
    return guild, member


@app_commands.guild_only()
class HostCog(
    commands.GroupCog,
    name="Host",
    group_name="mafia",
    group_description=ltext("cmd.mafia.description"),
):
    def __init__(self, bot: MafiaBot) -> None:
        self.bot = bot
        super().__init__()

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        await ensure_host(interaction)
        return True

    @app_commands.command(name="setup", description=ltext("cmd.mafia.setup.description"))
    @app_commands.describe(
        language=ltext("cmd.mafia.setup.opt.language.description"),
        host_role=ltext("cmd.mafia.setup.opt.host_role.description"),
    )
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def setup_command(
        self,
        interaction: discord.Interaction[Any],
        language: app_commands.Choice[str],
        host_role: discord.Role | None = None,
    ) -> None:
        guild, member = _guild_and_member(interaction)
        lang: Lang = as_lang(language.value) or "en"
        previous = await self.bot.store.get_guild_settings(guild.id)
        base = previous or GuildSettings(guild_id=guild.id)

        if host_role is not None:
            if host_role.is_default():
                raise UserError("setup.host_role_everyone", in_lang=lang)
            if host_role.id != base.host_role_id and not member.guild_permissions.manage_guild:
                raise UserError("setup.host_role_needs_manage_guild", in_lang=lang)
        role = host_role
        if role is None and base.host_role_id is not None:
            role = guild.get_role(base.host_role_id)

        missing = missing_bot_permissions(guild.me.guild_permissions)
        if missing:
            raise BotMissingPermissions(
                "setup.bot_missing_permissions", missing=missing, in_lang=lang
            )

        await interaction.response.defer(ephemeral=True, thinking=True)
        report = await build_or_repair(
            guild, lang=lang, host_role=role, invoker=member, previous=previous
        )
        settings = report.settings(
            attrs.evolve(base, language=lang, host_role_id=role.id if role else None)
        )
        await self.bot.store.save_guild_settings(settings)
        log.info(
            "setup in guild %s by %s: created %s, repaired %s",
            guild.id,
            member.id,
            report.created,
            report.repaired,
        )

        lines = [
            t(
                lang,
                "setup.done",
                category=report.category.name,
                game=report.channels["game"].mention,
                discussion=report.channels["discussion"].mention,
                mafia=report.channels["mafia"].mention,
                host=report.channels["host"].mention,
                language=t(lang, f"choice.language.{lang}"),
                host_role=role.mention if role else t(lang, "setup.no_host_role"),
            )
        ]
        if report.created:
            lines.append(t(lang, "setup.created", items=", ".join(report.created)))
        if report.repaired:
            lines.append(t(lang, "setup.repaired", items=", ".join(report.repaired)))
        if not report.created and not report.repaired:
            lines.append(t(lang, "setup.unchanged"))
        await send_private(interaction, "\n".join(lines))
        # Announcements left pending for want of a channel (deleted, or never set up since a
        # restart) can go out now instead of waiting for the next turn's delivery.
        await self.bot.deliver()

    @app_commands.command(name="announce", description=ltext("cmd.mafia.announce.description"))
    @app_commands.describe(text=ltext("cmd.mafia.announce.opt.text.description"))
    async def announce_command(
        self,
        interaction: discord.Interaction[Any],
        text: app_commands.Range[str, 1, 6000],  # Discord's limit for a text option
    ) -> None:
        """R47: the host's narrative, posted in #game under the host's name."""
        guild, _member = _guild_and_member(interaction)
        settings = await self.bot.store.get_guild_settings(guild.id)
        channel = (
            guild.get_channel(settings.game_channel_id)
            if settings is not None and settings.game_channel_id is not None
            else None
        )
        if not isinstance(channel, discord.TextChannel):
            raise UserError("error.not_set_up")
        lang = await guild_language(self.bot, guild)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.game_webhooks.post(channel, text, username=t(lang, "host.display_name"))
        await send_private(interaction, t(lang, "announce.done", channel=channel.mention))

    # --- the lobby ----------------------------------------------------------------------
    @app_commands.command(name="new", description=ltext("cmd.mafia.new.description"))
    @app_commands.describe(
        schedule=ltext("cmd.mafia.new.opt.schedule.description"),
        timezone=ltext("cmd.mafia.new.opt.timezone.description"),
        preset=ltext("cmd.mafia.new.opt.preset.description"),
        turn_minutes=ltext("cmd.mafia.new.opt.turn_minutes.description"),
        activity_rules=ltext("cmd.mafia.new.opt.activity_rules.description"),
    )
    @app_commands.choices(schedule=SCHEDULE_CHOICES)
    async def new_command(
        self,
        interaction: discord.Interaction[Any],
        schedule: app_commands.Choice[str],
        timezone: app_commands.Range[str, 1, 64] | None = None,
        preset: app_commands.Range[int, 4, 99] | None = None,
        turn_minutes: app_commands.Range[int, 1, 1440] = 10,
        activity_rules: bool = True,
    ) -> None:
        """Open sign-up: a message in #game with Join and Leave buttons."""
        guild, member = _guild_and_member(interaction)
        settings = await self.bot.store.get_guild_settings(guild.id)
        channel = slot_channel(guild, settings, "game")
        if channel is None:
            raise UserError("error.not_set_up")
        roles = _preset_roles(preset) if preset is not None else None
        zone = timezone or (settings.timezone if settings is not None else "Europe/Moscow")
        await interaction.response.defer(ephemeral=True, thinking=True)
        rec = await self.bot.service.new_game(
            guild.id,
            member.id,
            schedule.value,
            zone,
            turn_minutes=turn_minutes,
            roles=roles,
            activity_rules=activity_rules,
        )
        lang = await guild_language(self.bot, guild)
        message = await channel.send(signup_text(lang, 0, rec.schedule_kind), view=SignupView(lang))
        await self.bot.store.update_lobby(rec.id, signup_message_id=message.id)
        log.info("guild %s: game %s opened by %s", guild.id, rec.id, member.id)
        await send_private(interaction, t(lang, "signup.opened", channel=channel.mention))

    @app_commands.command(name="roles", description=ltext("cmd.mafia.roles.description"))
    @app_commands.describe(
        roles=ltext("cmd.mafia.roles.opt.roles.description"),
        preset=ltext("cmd.mafia.roles.opt.preset.description"),
    )
    async def roles_command(
        self,
        interaction: discord.Interaction[Any],
        roles: app_commands.Range[str, 1, 500] | None = None,
        preset: app_commands.Range[int, 4, 99] | None = None,
    ) -> None:
        """The role list: written out, or the preset for a number of players (default: the
        number signed up now)."""
        guild, _member = _guild_and_member(interaction)
        role_list = await self.bot.service.set_roles(guild.id, roles, preset)
        lang = await guild_language(self.bot, guild)
        await send_private(interaction, t(lang, "roles.set", roles=_role_summary(lang, role_list)))

    @app_commands.command(name="start", description=ltext("cmd.mafia.start.description"))
    async def start_command(self, interaction: discord.Interaction[Any]) -> None:
        """Deal roles and nicknames, open turn 1, send the role cards."""
        guild, member = _guild_and_member(interaction)
        settings = await self.bot.store.get_guild_settings(guild.id)
        mafia_channel = slot_channel(guild, settings, "mafia")
        if slot_channel(guild, settings, "game") is None or mafia_channel is None:
            raise UserError("error.not_set_up")
        # Check before anything is committed: a game half started (cards unsent, no room for
        # the mafia) is worse than a clear refusal.
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
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = await guild_language(self.bot, guild)
        lobby = await self.bot.store.open_game(guild.id)
        live = await self.bot.service.start(guild.id, theme=lang)
        log.info("guild %s: game %s started by %s", guild.id, live.id, member.id)
        warnings: list[str] = []
        # R14: the mafia's room is a private thread in #mafia with the mafia in it (never an
        # overwrite per member: every client receives those).
        team = set(mafia_members(live.engine.state))
        members = [
            m
            for p in live.players
            if p.nick in team and (m := guild.get_member(p.user_id)) is not None
        ]
        try:
            await self.bot.delivery.rooms.open(mafia_channel, live.id, lang, members)
        except discord.HTTPException:
            # The game has started (committed): it runs on (the delivery opens the room again
            # with its next mafia announcement), and the host is told plainly.
            log.warning("guild %s: could not open the mafia room", guild.id, exc_info=True)
            warnings.append(t(lang, "start.mafia_access_failed", channel=mafia_channel.mention))
        await close_signup(self.bot, guild, lobby.signup_message_id if lobby else None)
        self.bot.clock.rearm()
        await self.bot.deliver()
        deadline = live.record.deadline
        done = t(
            lang,
            "start.done",
            players=len(live.players),
            roles=_role_summary(lang, [p.role for p in live.players]),
            deadline=timestamp(deadline) if deadline else "-",
        )
        await send_private(interaction, "\n".join([done, *warnings]))

    # --- running the game -----------------------------------------------------------------
    @app_commands.command(name="resolve", description=ltext("cmd.mafia.resolve.description"))
    async def resolve_command(self, interaction: discord.Interaction[Any]) -> None:
        guild, _member = _guild_and_member(interaction)
        game = self.bot.service.game_in(guild.id)
        if game is None:
            raise UserError("error.no_running_game")
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.service.deadline_reached(game.id)
        await self.bot.deliver()
        self.bot.clock.rearm()
        lang = await guild_language(self.bot, guild)
        await send_private(interaction, t(lang, "host.resolved"))

    @app_commands.command(name="extend", description=ltext("cmd.mafia.extend.description"))
    @app_commands.describe(minutes=ltext("cmd.mafia.extend.opt.minutes.description"))
    async def extend_command(
        self, interaction: discord.Interaction[Any], minutes: app_commands.Range[int, 1, 10080]
    ) -> None:
        guild, member = _guild_and_member(interaction)
        deadline = await self.bot.service.extend(guild.id, member.id, minutes)
        self.bot.clock.rearm()
        lang = await guild_language(self.bot, guild)
        await send_private(interaction, t(lang, "host.extended", deadline=timestamp(deadline)))

    @app_commands.command(name="pause", description=ltext("cmd.mafia.pause.description"))
    async def pause_command(self, interaction: discord.Interaction[Any]) -> None:
        guild, member = _guild_and_member(interaction)
        await self.bot.service.pause(guild.id, member.id)
        self.bot.clock.rearm()
        lang = await guild_language(self.bot, guild)
        await send_private(interaction, t(lang, "host.paused"))

    @app_commands.command(name="resume", description=ltext("cmd.mafia.resume.description"))
    async def resume_command(self, interaction: discord.Interaction[Any]) -> None:
        guild, member = _guild_and_member(interaction)
        deadline = await self.bot.service.resume(guild.id, member.id)
        self.bot.clock.rearm()
        lang = await guild_language(self.bot, guild)
        await send_private(interaction, t(lang, "host.resumed", deadline=timestamp(deadline)))

    @app_commands.command(name="end", description=ltext("cmd.mafia.end.description"))
    async def end_command(self, interaction: discord.Interaction[Any]) -> None:
        guild, member = _guild_and_member(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.service.end(guild.id, member.id)
        self.bot.clock.rearm()
        await self.bot.deliver()
        lang = await guild_language(self.bot, guild)
        await send_private(interaction, t(lang, "host.ended"))

    @app_commands.command(name="exclude", description=ltext("cmd.mafia.exclude.description"))
    @app_commands.describe(
        player=ltext("cmd.mafia.exclude.opt.player.description"),
        reason=ltext("cmd.mafia.exclude.opt.reason.description"),
    )
    async def exclude_command(
        self,
        interaction: discord.Interaction[Any],
        player: app_commands.Range[str, 1, 100],
        reason: app_commands.Range[str, 1, 500] | None = None,
    ) -> None:
        await self._host_action(
            interaction, HostAction("exclude", player), "host.excluded", reason=reason
        )

    @app_commands.command(name="deprive", description=ltext("cmd.mafia.deprive.description"))
    @app_commands.describe(player=ltext("cmd.mafia.deprive.opt.player.description"))
    async def deprive_command(
        self, interaction: discord.Interaction[Any], player: app_commands.Range[str, 1, 100]
    ) -> None:
        await self._host_action(interaction, HostAction("deprive_vote", player), "host.deprived")

    @app_commands.command(name="doublekill", description=ltext("cmd.mafia.doublekill.description"))
    async def doublekill_command(self, interaction: discord.Interaction[Any]) -> None:
        await self._host_action(interaction, HostAction("double_kill"), "host.double_kill")

    @app_commands.command(name="replace", description=ltext("cmd.mafia.replace.description"))
    @app_commands.describe(
        player=ltext("cmd.mafia.replace.opt.player.description"),
        member=ltext("cmd.mafia.replace.opt.member.description"),
    )
    async def replace_command(
        self,
        interaction: discord.Interaction[Any],
        player: app_commands.Range[str, 1, 100],
        member: discord.Member,
    ) -> None:
        """A substitute takes over the nickname: the mafia room and the role card follow."""
        guild, host = _guild_and_member(interaction)
        if member.bot:
            raise UserError("error.bot_cannot_play")
        await interaction.response.defer(ephemeral=True, thinking=True)
        previous, _seat = await self.bot.service.replace(guild.id, host.id, player, member.id)
        game = self.bot.service.game_in(guild.id)
        room = None
        if game is not None and player in mafia_members(game.engine.state):
            room = await self.bot.delivery.mafia_room(guild, game.id)
        if room is not None:
            await self.bot.delivery.rooms.add(room, member)
            if previous is not None and previous != member.id:
                await self.bot.delivery.rooms.remove(room, discord.Object(previous))
        await self.bot.deliver()
        lang = await guild_language(self.bot, guild)
        await send_private(interaction, t(lang, "host.replaced", nick=player))

    @app_commands.command(name="state", description=ltext("cmd.mafia.state.description"))
    async def state_command(self, interaction: discord.Interaction[Any]) -> None:
        """The full state, privately: who is who, alive or dead, and this turn's requests."""
        guild, _member = _guild_and_member(interaction)
        game = self.bot.service.game_in(guild.id)
        if game is None:
            raise UserError("error.no_running_game")
        lang = await guild_language(self.bot, guild)
        engine = game.engine
        record = game.record
        if record.paused:
            clock = t(lang, "status.paused")
        elif record.deadline is not None:
            clock = t(
                lang,
                "status.deadline",
                deadline=timestamp(record.deadline, "f"),
                relative=timestamp(record.deadline, "R"),
            )
        else:
            clock = "-"
        lines = [t(lang, "state.header", turn=engine.turn, phase=engine.phase.value), clock]
        for seat in game.players:
            p = engine.state.players[seat.nick]
            requests = ", ".join(
                f"{r.do} {' '.join(r.named())}".strip()
                for r in engine.standing_requests(seat.nick)
                if r.do != "post"
            )
            lines.append(
                t(
                    lang,
                    "state.alive" if p.alive else "state.dead",
                    nick=seat.nick,
                    role=t(lang, f"role.{p.role}"),
                    user=f"<@{seat.user_id}>",
                    posts=engine.state.posts.get(seat.nick, 0),
                    requests=requests or "-",
                    cause=t(lang, f"cause.{p.death_cause}"),
                )
            )
        await interaction.response.defer(ephemeral=True, thinking=True)
        for piece in split_message("\n".join(lines)):
            await send_private(interaction, piece)

    @exclude_command.autocomplete("player")
    @deprive_command.autocomplete("player")
    @replace_command.autocomplete("player")
    async def _player_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        # Autocomplete runs no check: only a host sees the nicknames (never user names).
        try:
            await ensure_host(interaction)
        except Exception:
            return []
        guild = interaction.guild
        game = self.bot.service.game_in(guild.id) if guild is not None else None
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
        guild, member = _guild_and_member(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.service.host_action(guild.id, member.id, action, reason)
        await self.bot.deliver()
        self.bot.clock.rearm()
        lang = await guild_language(self.bot, guild)
        await send_private(interaction, t(lang, key, nick=action.player or ""))


def _preset_roles(players: int) -> str:
    try:
        return format_role_list(preset(players))
    except SetupError as exc:
        raise setup_refusal(exc) from None


def _role_summary(lang: Lang, roles: list[str]) -> str:
    counts: dict[str, int] = {}
    for role in roles:
        counts[role] = counts.get(role, 0) + 1
    return ", ".join(f"{t(lang, f'role.{role}')} × {n}" for role, n in counts.items())


async def setup(bot: commands.Bot) -> None:
    from bot.client import MafiaBot

    assert isinstance(bot, MafiaBot)
    await bot.add_cog(HostCog(bot))
    bot.add_view(SignupView())  # the Join / Leave buttons of any sign-up message
    bot.add_dynamic_items(PistolSelect)  # the pistol menu in a killed commissar's DM (R18)
