"""The lobby: the host builds a table (``/mafia setup``; a server may hold several, listed by
``/mafia tables`` and removed by ``/mafia droptable``), opens sign-up (``/mafia new``), sets
the role list (``/mafia roles``) and starts the game (``/mafia start``); members sign up with the
Join/Leave buttons or ``/join`` and ``/leave``. Each command acts on the table whose channels
it is used in (``bot/tables.py``), or on the table its ``table`` option names.

The lobby's cog owns the ``/mafia`` group (``cogs/admin.py`` adds the host's other commands to
it). Every ``/mafia`` subcommand passes the cog's ``interaction_check``: Manage Server or the
host role of that table, checked at run time. The commands stay thin (parse, defer, call,
reply): the flows of ``/mafia setup`` and ``/mafia start`` live in ``bot/setup_flow.py`` and
``bot/start_flow.py``, channel building in ``bot/layout.py``, the sign-up message and its
buttons in ``bot/signup.py``.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands
from discord.utils import escape_markdown

from bot.command_i18n import described, ltext
from bot.confirm import confirm_view, send_preview
from bot.context import GameContext, game_context
from bot.delivery import slot_channel
from bot.errors import UserError
from bot.hosts import command_table, ensure_any_host, ensure_host
from bot.render import role_name, role_summary, schedule_hours
from bot.replies import reader_language, send_private
from bot.setup_flow import build_table, plan_setup
from bot.signup import (
    SignupView,
    refresh_signup,
    signup_action,
    signup_text,
    wish_action,
    wish_options,
)
from bot.start_flow import check_start, start_game
from bot.tables import (
    TABLE_NAME_MAX,
    remember_table,
    table_at,
    table_key,
    table_language,
    table_of,
    table_title,
)
from cogs._common import HOST_GROUP, PlayerCog, guild_and_member, guild_of
from core.ghosts import has_ghost_room
from core.i18n import LANGUAGES, Lang, as_lang, t
from core.live import LiveGame, schedule_of
from core.preset_service import MAX_PRESET_NAME, MAX_PRESETS, is_count
from db.models import TableSettings
from rules.names import name_key
from rules.roles import ROLES
from rules.setup import MAX_PLAYERS, MIN_PLAYERS, format_role_list, role_code

log = logging.getLogger(__name__)

LANGUAGE_CHOICES = [
    app_commands.Choice(name=ltext("choice.language.ru"), value="ru"),
    app_commands.Choice(name=ltext("choice.language.en"), value="en"),
]
SCHEDULE_CHOICES = [
    app_commands.Choice(name=ltext("choice.schedule.forum"), value="forum"),
    app_commands.Choice(name=ltext("choice.schedule.fast"), value="fast"),
]


async def wish_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """The roles one may wish for, named in the reader's language, and "no wish": the same
    list for everyone (nothing about the game or the other members)."""
    ctx = game_context(interaction.client)
    lang = await reader_language(ctx.reads, interaction)
    needle = current.casefold().strip()
    return [
        app_commands.Choice(name=label, value=value)
        for label, value in wish_options(lang)
        if needle in label.casefold() or needle in value
    ][:25]


def role_list_choices(lang: Lang, current: str) -> list[app_commands.Choice[str]]:
    """``/mafia roles``: the list typed so far, its last word completed to a role's name as
    the table writes it (``комиссар=1 жу`` -> ``комиссар=1 жулик=1``); the same for every
    host, nothing about a game."""
    cut = max(current.rfind(" "), current.rfind(","), current.rfind("\n")) + 1
    head, last = current[:cut], current[cut:]
    if "=" in last or ":" in last:
        return []  # a count is being typed: nothing to complete
    needle = last.casefold().replace("ё", "е")
    choices = []
    for code in ROLES:
        name = role_name(lang, code)
        name = name.lower() if lang == "ru" else name
        if name.casefold().replace("ё", "е").startswith(needle):
            value = f"{head}{name}=1"
            if len(value) <= 100:
                choices.append(app_commands.Choice(name=value, value=value))
    return choices[:25]


async def roles_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """The role names in the table's language, as ``/mafia roles`` takes them."""
    ctx = game_context(interaction.client)
    guild = interaction.guild
    if guild is None:
        return []
    lang = table_language(await table_of(ctx.reads, interaction), guild)
    return role_list_choices(lang, current)


def typed_wish(typed: str) -> str:
    """What a member typed for ``/wish role``: a role code, ``none``, or a role's name (or
    "no wish") in either language; anything else is left for the service to refuse."""
    key = name_key(typed)
    for lang in LANGUAGES:
        for label, value in wish_options(lang):
            if key in (name_key(label), value):
                return value
    return role_code(typed) or key[:40]  # as a host names it in a role list: "мж", "cop"


async def saved_preset_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """The server's own presets whose name holds what is typed (the hosts' own words)."""
    if interaction.guild is None:
        return []
    ctx = game_context(interaction.client)
    needle = current.casefold().strip()
    return [
        app_commands.Choice(name=p.name, value=p.name)
        for p in await ctx.service.presets(interaction.guild.id)
        if needle in p.name.casefold()
    ][:25]


async def preset_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """The server's own presets, then the built-in ones (a number of players) that start
    with what is typed."""
    ctx = game_context(interaction.client)
    lang = await reader_language(ctx.reads, interaction)
    saved = await saved_preset_autocomplete(interaction, current)
    typed = current.strip()
    counts = [
        app_commands.Choice(name=t(lang, "preset.builtin", players=n), value=str(n))
        for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)
        if str(n).startswith(typed) or not typed
    ]
    return [*saved, *counts][:25]


@app_commands.guild_only()
class LobbyCog(
    commands.GroupCog,
    name="Lobby",
    group_name=HOST_GROUP,
    group_description=ltext("cmd.mafia.description"),
):
    def __init__(self, ctx: GameContext) -> None:
        self.ctx = ctx
        super().__init__()

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        command = interaction.command
        if command is not None and command.name == "tables":  # about every table at once
            await ensure_any_host(self.ctx.reads, interaction)
            guild, _member = guild_and_member(interaction)
            tables = await self.ctx.reads.tables(guild.id)
            here = table_at(tables, interaction.channel)
            remember_table(interaction, here or next(iter(tables), None))
            return True
        table = await ensure_host(self.ctx.reads, interaction)
        if table is not None:  # the table a ``table`` option names, wherever it is typed
            remember_table(interaction, table)
        return True

    @app_commands.command(name="setup", description=ltext("cmd.mafia.setup.description"))
    @described("mafia.setup", "language", "host_role", "table")
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def setup_command(
        self,
        interaction: discord.Interaction[Any],
        language: app_commands.Choice[str],
        host_role: discord.Role | None = None,
        table: app_commands.Range[str, 1, TABLE_NAME_MAX] | None = None,
    ) -> None:
        """Build or repair a table (``bot/setup_flow.py``). Without ``table``: the table of
        the channel it is used in, else the server's only one (its first is built when there
        is none). With ``table``: the table of that name (any case), else a new one in a
        category of that name."""
        guild, member = guild_and_member(interaction)
        lang: Lang = as_lang(language.value) or "en"
        plan = await plan_setup(
            self.ctx, interaction, guild, member, lang=lang, host_role=host_role, table=table
        )
        await interaction.response.defer(ephemeral=True, thinking=True)
        await send_private(interaction, await build_table(self.ctx, interaction, plan))
        # Announcements left pending for want of a channel (deleted, or never set up since a
        # restart) can go out now instead of waiting for the next turn's delivery.
        await self.ctx.deliver()

    @app_commands.command(name="new", description=ltext("cmd.mafia.new.description"))
    @described(
        "mafia.new",
        "schedule",
        "timezone",
        "preset",
        "turn_minutes",
        "activity_rules",
        "reveal",
        "wishes",
        "review",
        "deadline",
        "hunts_from",
        "turn_days",
        "days_off",
        "ghost_room",
        "spectators",
    )
    @app_commands.choices(schedule=SCHEDULE_CHOICES)
    @app_commands.autocomplete(preset=preset_autocomplete)
    async def new_command(
        self,
        interaction: discord.Interaction[Any],
        schedule: app_commands.Choice[str],
        timezone: app_commands.Range[str, 1, 64] | None = None,
        preset: app_commands.Range[str, 1, MAX_PRESET_NAME] | None = None,
        turn_minutes: app_commands.Range[int, 1, 1440] = 10,
        activity_rules: bool = True,
        reveal: bool = True,
        wishes: bool = False,
        review: app_commands.Range[int, 0, 1440] = 0,
        deadline: app_commands.Range[str, 1, 16] | None = None,
        hunts_from: app_commands.Range[str, 1, 16] | None = None,
        turn_days: app_commands.Range[int, 1, 7] | None = None,
        days_off: app_commands.Range[str, 1, 100] | None = None,
        ghost_room: bool = False,
        spectators: bool = False,
    ) -> None:
        """Open sign-up: a message in #game with Join and Leave buttons. ``reveal``: name the
        members behind the nicknames when the game ends (the host says so in the reply).
        ``wishes``: members may wish for a role (R58): the post adds a menu and the tally.
        ``review``: each turn's results first go to #host as a draft (core/review.py).
        ``deadline``, ``hunts_from``, ``turn_days``, ``days_off``: the table's hours (R61)."""
        guild, member = guild_and_member(interaction)
        settings = await table_of(self.ctx.reads, interaction)
        channel = slot_channel(guild, settings, "game")
        if settings is None or channel is None:
            raise UserError("error.not_set_up")
        roles = await self._preset(guild, preset) if preset is not None else None
        zone = timezone or settings.timezone
        await interaction.response.defer(ephemeral=True, thinking=True)
        rec = await self.ctx.service.new_game(
            settings.table_id,
            member.id,
            schedule.value,
            zone,
            turn_minutes=turn_minutes,
            roles=roles,
            activity_rules=activity_rules,
            reveal=reveal,
            wishes=wishes,
            review=review,
            deadline=deadline,
            hunts_from=hunts_from,
            turn_days=turn_days,
            days_off=days_off,
            ghost_room=ghost_room,
            spectators=spectators,
        )
        game_lang = table_language(settings, guild)  # the public sign-up post
        message = await channel.send(
            signup_text(
                game_lang, 0, rec.schedule_kind, {} if rec.wishes else None, schedule_of(rec)
            ),
            view=SignupView(self.ctx, game_lang, wishes=rec.wishes),
        )
        await self.ctx.service.set_signup_message(rec.id, message.id)
        log.info(
            "guild %s table %s: game %s opened by %s",
            guild.id,
            settings.table_id,
            rec.id,
            member.id,
        )
        lang = await reader_language(self.ctx.reads, interaction)
        opened = t(lang, "signup.opened", channel=channel.mention)
        hours = schedule_hours(lang, schedule_of(rec))  # R61: the hours he set
        told = [] if hours is None else [hours]
        told.append(t(lang, "gameover.reveal.yes" if rec.reveal else "gameover.reveal.no"))
        if rec.wishes:
            command = f"/{t(lang, 'cmd.mafia.name')} {t(lang, 'cmd.mafia.roles.name')}"
            option = t(lang, "cmd.mafia.roles.opt.from_wishes.name")
            told.append(t(lang, "signup.wishes_opened", command=command, option=option))
        if review:
            told.append(t(lang, "review.opened", minutes=review))
        if has_ghost_room(rec):  # R62
            told.append(t(lang, "ghosts.opened_spectators" if spectators else "ghosts.opened"))
        await send_private(interaction, "\n".join([opened, *told]))

    async def _preset(self, guild: discord.Guild, typed: str) -> str:
        """A preset's role list as ``/mafia roles`` takes it: a built-in preset's (a number of
        players) or one of the server's own (by its name), checked as any setup."""
        return format_role_list(await self.ctx.service.preset_roles(guild.id, typed))

    @app_commands.command(name="roles", description=ltext("cmd.mafia.roles.description"))
    @described("mafia.roles", "roles", "preset", "from_wishes")
    @app_commands.autocomplete(roles=roles_autocomplete, preset=preset_autocomplete)
    async def roles_command(
        self,
        interaction: discord.Interaction[Any],
        roles: app_commands.Range[str, 1, 500] | None = None,
        preset: app_commands.Range[str, 1, MAX_PRESET_NAME] | None = None,
        from_wishes: bool = False,
    ) -> None:
        """The role list: written out, adopted from the wishes' tally (R58), a preset of the
        server's (by its name) or the built-in preset for a number of players (default: the
        number signed up now)."""
        table_id = await table_key(self.ctx.reads, interaction)
        count: int | None = None
        if preset is not None and is_count(preset):
            count = int(preset.strip())
        elif preset is not None and not roles:
            guild, _member = guild_and_member(interaction)
            roles = await self._preset(guild, preset)
        role_list = await self.ctx.service.set_roles(
            table_id, roles, count, from_wishes=from_wishes
        )
        lang = await reader_language(self.ctx.reads, interaction)
        await send_private(interaction, t(lang, "roles.set", roles=role_summary(lang, role_list)))

    preset_group = app_commands.Group(
        name="preset", description=ltext("cmd.mafia.preset.description")
    )

    @preset_group.command(name="save", description=ltext("cmd.mafia.preset.save.description"))
    @described("mafia.preset.save", "name", "roles")
    async def preset_save_command(
        self,
        interaction: discord.Interaction[Any],
        name: app_commands.Range[str, 1, 100],
        roles: app_commands.Range[str, 1, 500],
    ) -> None:
        """The server's own named role list, checked as any setup (replaced if it exists)."""
        guild, _member = guild_and_member(interaction)
        saved, new = await self.ctx.service.save_preset(guild.id, name, roles)
        lang = await reader_language(self.ctx.reads, interaction)
        key = "preset.saved" if new else "preset.replaced"
        summary = role_summary(lang, saved.roles)
        name = escape_markdown(saved.name)
        await send_private(interaction, t(lang, key, name=name, roles=summary))

    @preset_group.command(name="list", description=ltext("cmd.mafia.preset.list.description"))
    async def preset_list_command(self, interaction: discord.Interaction[Any]) -> None:
        guild, _member = guild_and_member(interaction)
        lang = await reader_language(self.ctx.reads, interaction)
        saved = await self.ctx.service.presets(guild.id)
        lines = [t(lang, "preset.list_title", count=len(saved), maximum=MAX_PRESETS)]
        for p in saved:
            name, summary = escape_markdown(p.name), role_summary(lang, p.roles)
            lines.append(t(lang, "preset.line", name=name, players=len(p.roles), roles=summary))
        if not saved:
            lines.append(t(lang, "preset.none"))
        await send_private(interaction, "\n".join(lines))

    @preset_group.command(name="delete", description=ltext("cmd.mafia.preset.delete.description"))
    @described("mafia.preset.delete", "name")
    @app_commands.autocomplete(name=saved_preset_autocomplete)
    async def preset_delete_command(
        self, interaction: discord.Interaction[Any], name: app_commands.Range[str, 1, 100]
    ) -> None:
        guild, _member = guild_and_member(interaction)
        gone = await self.ctx.service.delete_preset(guild.id, name)
        lang = await reader_language(self.ctx.reads, interaction)
        await send_private(interaction, t(lang, "preset.deleted", name=escape_markdown(gone.name)))

    @app_commands.command(name="start", description=ltext("cmd.mafia.start.description"))
    async def start_command(self, interaction: discord.Interaction[Any]) -> None:
        """Deal roles and nicknames, open turn 1, send the role cards (``bot/start_flow.py``)."""
        guild, member = guild_and_member(interaction)
        plan = await check_start(self.ctx, interaction, guild, member)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await send_private(interaction, await start_game(self.ctx, interaction, plan))

    @app_commands.command(name="tables", description=ltext("cmd.mafia.tables.description"))
    async def tables_command(self, interaction: discord.Interaction[Any]) -> None:
        """The server's tables, privately: each one's #game, language, host role and game."""
        guild, _member = guild_and_member(interaction)
        tables = await self.ctx.reads.tables(guild.id)
        if not tables:
            raise UserError("error.not_set_up")
        lang = await reader_language(self.ctx.reads, interaction)
        lines = [t(lang, "tables.title", count=len(tables))]
        for table in tables:
            game_channel = slot_channel(guild, table, "game")
            role = guild.get_role(table.host_role_id) if table.host_role_id else None
            lines.append(
                t(
                    lang,
                    "tables.line",
                    table=table_title(lang, table, guild),
                    channel=game_channel.mention if game_channel else "-",
                    language=t(lang, f"choice.language.{table_language(table, guild)}"),
                    host_role=role.mention if role else t(lang, "setup.no_host_role"),
                    game=await self._game_at(lang, table),
                )
            )
        await send_private(interaction, "\n".join(lines))

    async def _game_at(self, lang: Lang, table: TableSettings) -> str:
        """A table's game in a few words: running (turn, phase, players), sign-up, or none."""
        live: LiveGame | None = self.ctx.service.game_in(table.table_id)
        if live is not None:
            return t(
                lang,
                "tables.game.running",
                game=live.id,
                turn=live.engine.turn,
                phase=t(lang, f"phase.{live.engine.phase.value}"),
                alive=len(live.engine.state.living()),
                count=len(live.players),
            )
        signup = await self.ctx.service.signup_open(table.table_id)
        if signup is not None:
            rec, members = signup
            return t(lang, "tables.game.signup", game=rec.id, count=len(members))
        return t(lang, "tables.game.none")

    @app_commands.command(name="droptable", description=ltext("cmd.mafia.droptable.description"))
    @described("mafia.droptable", "table")
    async def droptable_command(
        self,
        interaction: discord.Interaction[Any],
        table: app_commands.Range[str, 1, TABLE_NAME_MAX],
    ) -> None:
        """A private preview; its Confirm button removes the table's category and channels
        (its finished games stay in the store). Refused while the table has a game."""
        guild, _member = guild_and_member(interaction)
        found = await command_table(self.ctx.reads, interaction)
        if found is None:
            raise UserError("error.no_table", name=table)
        lang = await reader_language(self.ctx.reads, interaction)
        title = table_title(lang, found, guild)
        if await self.ctx.reads.open_game(found.table_id) is not None:
            raise UserError("error.table_busy", table=title)
        channels = [
            c.mention
            for slot in ("game", "discussion", "mafia", "host")
            if (c := slot_channel(guild, found, slot)) is not None
        ]
        text = t(lang, "host.droptable_preview", table=title, channels=", ".join(channels) or "-")
        view = confirm_view(lang, "droptable", found.table_id, 0, "")
        await send_preview(interaction, text, view)


class SignupCog(PlayerCog, name="Signup"):
    @commands.Cog.listener()
    async def on_raw_member_remove(self, payload: discord.RawMemberRemoveEvent) -> None:
        """A member left the server: out of the sign-up (the count follows); a living player
        stays in the game, and the hosts are told to give his nickname to a substitute. At
        every table of the server: he may have signed up or played at several."""
        guild = self.ctx.client.get_guild(payload.guild_id)
        if guild is None:
            return
        for table in await self.ctx.reads.tables(guild.id):
            left = await self.ctx.service.member_left(table.table_id, payload.user.id)
            if left is None:
                continue
            what, value = left
            if what == "signup":
                await refresh_signup(self.ctx, guild, int(value), table_id=table.table_id)
                continue
            lang = table_language(table, guild)
            text = t(lang, "host.player_left", nick=value, user=f"<@{payload.user.id}>")
            await self.ctx.delivery.tell_hosts(guild, text, table_id=table.table_id)

    @app_commands.command(name="join", description=ltext("cmd.join.description"))
    async def join_command(self, interaction: discord.Interaction[Any]) -> None:
        guild_of(interaction)
        await signup_action(self.ctx, interaction, joining=True)

    @app_commands.command(name="leave", description=ltext("cmd.leave.description"))
    async def leave_command(self, interaction: discord.Interaction[Any]) -> None:
        guild_of(interaction)
        await signup_action(self.ctx, interaction, joining=False)

    @app_commands.command(name="spectate", description=ltext("cmd.spectate.description"))
    @described("spectate", "off")
    async def spectate_command(
        self, interaction: discord.Interaction[Any], off: bool = False
    ) -> None:
        """R62: a member who does not play watches the running game's ghosts' room (he reads,
        he does not write), or stops. Refused privately: no room or no spectators in this
        game, he plays in it, he stands by as its substitute (R60: the service's
        ``standing_by``, the substitutes' ids), nothing to change."""
        guild, member = guild_and_member(interaction)
        table_id = await table_key(self.ctx.reads, interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        game = await self.ctx.service.spectate(table_id, member.id, not off)
        await self.ctx.deliver()  # his access, given or taken (the outbox row)
        lang = await reader_language(self.ctx.reads, interaction)
        if off:
            await send_private(interaction, t(lang, "ghosts.stopped"))
            return
        settings = await self.ctx.reads.get_table(table_id)
        room = self.ctx.delivery.router.ghost_rooms.find(guild, settings, game.id)
        where = room.mention if room is not None else t(lang, "ghosts.room_soon")
        await send_private(interaction, t(lang, "ghosts.watching", room=where))

    @app_commands.command(name="wish", description=ltext("cmd.wish.description"))
    @described("wish", "role")
    @app_commands.autocomplete(role=wish_autocomplete)
    async def wish_command(
        self, interaction: discord.Interaction[Any], role: app_commands.Range[str, 1, 100]
    ) -> None:
        """R58: my role wish while sign-up is open (``none`` withdraws it); only I and the
        hosts know it."""
        guild_of(interaction)
        await wish_action(self.ctx, interaction, typed_wish(role))


async def setup(bot: commands.Bot) -> None:
    ctx = game_context(bot)
    await bot.add_cog(LobbyCog(ctx))
    await bot.add_cog(SignupCog(ctx))
    bot.add_view(SignupView(ctx))  # the Join / Leave buttons of any sign-up message
