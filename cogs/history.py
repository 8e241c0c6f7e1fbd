"""What stays after the games: ``/history`` (the server's finished games, paged, or one game's
summary) and ``/stats`` (a member's numbers on this server and the leaderboard).

Both cover every table of the server and name the table. Replies are private (ephemeral) and
deferred (the first ``/stats`` on a server with many games replays each game once). The
numbers come from :mod:`core.stats` (derived from the stored games, see its definitions);
members are named to others only for the games whose host chose to reveal them, and a member
reading his own ``/stats`` sees all his games (R55).

``/stats`` without ``member``: the caller's own numbers and the server's leaderboard with its
tables' totals; with ``member``: that member's numbers (as others see them, unless it is the
caller himself).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

import discord
from discord import app_commands
from discord.ext import commands

from bot.attachments import finished_files
from bot.command_i18n import described, ltext
from bot.context import GameContext, game_context
from bot.embeds import NEUTRAL, NOTICE, Post, add_list_field, field_values, pack
from bot.endgame import WINNER_COLOURS, game_over_embeds
from bot.errors import UserError
from bot.paging import PagedView
from bot.render import timestamp
from bot.replies import reader_language
from bot.tables import table_title
from cogs._common import guild_of
from core.history import FinishedGame
from core.i18n import Lang, t
from core.stats import (
    SIDES,
    GameFacts,
    MemberStats,
    leaderboard,
    member_stats,
    table_totals,
)
from db.models import TableSettings

NO_PINGS: Final = discord.AllowedMentions.none()
#: ``/history``: games per page, and how long its buttons work.
HISTORY_PAGE_SIZE: Final[int] = 10
HISTORY_TIMEOUT_SECONDS: Final[float] = 600.0
#: The largest game number ``/history game:`` accepts (SQLite's ids stay far below).
MAX_GAME_ID: Final[int] = 2**31 - 1
#: Members shown on the leaderboard.
LEADERBOARD_SIZE: Final[int] = 10
#: The order winners are listed in a table's totals.
WINNER_ORDER: Final[tuple[str, ...]] = (*SIDES, "draw", "none")


def _table_name(
    lang: Lang,
    tables: Mapping[int, TableSettings],
    guild: discord.Guild | None,
    table_id: int,
    stored: str,
) -> str:
    """A table as people know it (``bot/tables.table_title``); a dropped table by the name it
    had, else the default one."""
    table = tables.get(table_id)
    if table is not None:
        return table_title(lang, table, guild)
    return stored or t(lang, "channel.category")


def _percent(part: int, whole: int) -> int:
    return round(100 * part / whole) if whole else 0


def history_line(lang: Lang, game: GameFacts, table: str) -> str:
    """One finished game in ``/history``: table, number, dates, players, winner."""
    started = timestamp(game.started, "d") if game.started else "?"
    return t(
        lang,
        "history.line",
        table=table,
        game=game.id,
        started=started,
        ended=timestamp(game.ended, "d"),
        count=len(game.seats),
        winner=t(lang, f"history.winner.{game.winner or 'none'}"),
    )


def history_page(lang: Lang, lines: Sequence[str], page: int, pages: int) -> discord.Embed:
    embed = discord.Embed(title=t(lang, "history.title", page=page, pages=pages), colour=NOTICE)
    text = "\n".join(lines) if lines else t(lang, "history.empty")
    embed.description = field_values([text], 4096)[0]
    return embed


def game_reply(lang: Lang, game: FinishedGame, table: str) -> list[Post]:
    """``/history game:``: the game's number and table, then its end as the final announcement
    showed it (winner and why, dates, every nickname's role and fate, members only if the host
    revealed them). The archive and the picture, when attached, go with the first post."""
    header = t(lang, "history.game", game=game.id, table=table)
    lines = []
    for nick, members, turns in game.holders():  # R60: members only when revealed
        line = t(lang, "archive.replacement", nick=nick, turns=", ".join(map(str, turns)))
        if all(m is not None for m in members):
            line += ": " + " → ".join(f"<@{m}>" for m in members)
        lines.append(line)
    if lines:
        header += "\n" + t(lang, "archive.replacements") + ": " + "; ".join(lines)
    return pack(game_over_embeds_of(lang, game), content=header)


def game_over_embeds_of(lang: Lang, game: FinishedGame) -> list[discord.Embed]:
    return [embed for post in game_over_embeds(lang, game.summary) for embed in post.embeds]


def _tally(lang: Lang, games: int, wins: int) -> str:
    return t(lang, "stats.tally", games=games, wins=wins)


def member_embeds(lang: Lang, stats: MemberStats, *, own: bool) -> list[discord.Embed]:
    """A member's numbers (``core.stats`` defines each); a long list of roles continues."""
    lines = [
        t(lang, "stats.member", member=f"<@{stats.user_id}>"),
        t(
            lang,
            "stats.games",
            games=stats.games,
            wins=stats.wins,
            rate=_percent(stats.wins, stats.games),
        ),
        t(
            lang,
            "stats.survival",
            survived=stats.survived,
            games=stats.games,
            lynched=stats.lynched,
        ),
    ]
    if stats.deaths:
        deaths = ", ".join(
            t(lang, "stats.death_count", cause=t(lang, f"cause.{cause}"), count=n)
            for cause, n in sorted(stats.deaths.items())
        )
        lines.append(t(lang, "stats.deaths", list=deaths))
    if stats.games or stats.replaced:  # R63: how reliably he plays
        lines.append(
            t(
                lang,
                "stats.left",
                inactive=stats.inactive,
                missed=stats.missed_votes,
                replaced=stats.replaced,
            )
        )
    if stats.checks:
        accuracy = (
            f"{_percent(stats.accurate, stats.answered)}%"
            if stats.answered
            else t(lang, "stats.no_accuracy")
        )
        lines.append(
            t(
                lang,
                "stats.checks",
                checks=stats.checks,
                answered=stats.answered,
                accurate=stats.accurate,
                accuracy=accuracy,
            )
        )
    embed = discord.Embed(
        title=t(lang, "stats.title"), description="\n".join(lines), colour=NEUTRAL
    )
    sides = [
        f"{t(lang, f'stats.side.{f}')}: {_tally(lang, n.games, n.wins)}"
        for f in SIDES
        if (n := stats.by_side.get(f)) is not None
    ]
    if sides:
        embed.add_field(name=t(lang, "stats.by_side"), value="\n".join(sides), inline=False)
    roles = [
        f"{t(lang, f'role.{role}')}: {_tally(lang, n.games, n.wins)}"
        for role, n in sorted(stats.by_role.items(), key=lambda kv: (-kv[1].games, kv[0]))
    ]
    embeds = add_list_field(embed, t(lang, "stats.by_role"), roles) if roles else [embed]
    embeds[-1].set_footer(text=t(lang, "stats.own" if own else "stats.others"))
    return embeds


def leaderboard_embed(
    lang: Lang,
    games: Sequence[GameFacts],
    tables: Mapping[int, TableSettings],
    guild: discord.Guild | None,
) -> discord.Embed:
    """The server's leaderboard (revealed games only) and each table's totals."""
    rows = leaderboard(games)[:LEADERBOARD_SIZE]
    lines = [
        t(
            lang,
            "stats.leader.line",
            rank=i,
            member=f"<@{r.user_id}>",
            tally=_tally(lang, r.games, r.wins),
            rate=_percent(r.wins, r.games),
        )
        for i, r in enumerate(rows, start=1)
    ]
    embed = discord.Embed(
        title=t(lang, "stats.leaderboard"),
        description="\n".join(lines) if lines else t(lang, "stats.leaderboard.empty"),
        colour=WINNER_COLOURS.get("town", NEUTRAL),
    )
    totals = []
    for table in table_totals(games):
        winners = ", ".join(
            t(lang, f"stats.winners.{w}", count=table.winners[w])
            for w in WINNER_ORDER
            if table.winners.get(w)
        )
        name = _table_name(lang, tables, guild, table.table_id, table.name)
        totals.append(t(lang, "stats.table.line", table=name, count=table.games, winners=winners))
    if totals:
        embed.add_field(
            name=t(lang, "stats.tables"),
            value=field_values(["\n".join(totals)], 1024)[0],
            inline=False,
        )
    return embed


class HistoryView(PagedView):
    """``/history``'s Previous/Next buttons: only the member who opened the list turns its
    pages, and they stop working after :data:`HISTORY_TIMEOUT_SECONDS` (not persistent)."""

    def __init__(self, ctx: GameContext, lang: Lang, owner_id: int, guild: discord.Guild) -> None:
        super().__init__(ctx, lang, owner_id, keys="history", timeout=HISTORY_TIMEOUT_SECONDS)
        self.guild = guild

    async def render(self) -> discord.Embed:
        """The current page (clamped to the games as they are now)."""
        games = await self.ctx.reads.server_games(self.guild.id)
        self.pages = max(1, -(-len(games) // HISTORY_PAGE_SIZE))
        self.page = min(self.page, self.pages - 1)
        tables = {s.table_id: s for s in await self.ctx.reads.tables(self.guild.id)}
        start = self.page * HISTORY_PAGE_SIZE
        lines = [
            history_line(
                self.lang, g, _table_name(self.lang, tables, self.guild, g.table_id, g.table_name)
            )
            for g in games[start : start + HISTORY_PAGE_SIZE]
        ]
        return history_page(self.lang, lines, self.page + 1, self.pages)


class HistoryCog(commands.Cog, name="History"):
    def __init__(self, ctx: GameContext) -> None:
        self.ctx = ctx

    @app_commands.command(name="history", description=ltext("cmd.history.description"))
    @described("history", "game")
    @app_commands.guild_only()
    async def history_command(
        self,
        interaction: discord.Interaction[Any],
        game: app_commands.Range[int, 1, MAX_GAME_ID] | None = None,
    ) -> None:
        """The server's finished games, newest first, paged; with ``game``, its summary. A
        game of another server is unknown here, like a number never used (R55)."""
        guild = guild_of(interaction)
        lang = await reader_language(self.ctx.reads, interaction)
        if game is None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            view = HistoryView(self.ctx, lang, interaction.user.id, guild)
            embed = await view.show()
            await interaction.followup.send(
                embed=embed, view=view, ephemeral=True, allowed_mentions=NO_PINGS
            )
            return
        finished = await self.ctx.reads.server_game(guild.id, game)
        if finished is None:
            raise UserError("history.unknown", game=game)
        await interaction.response.defer(ephemeral=True, thinking=True)
        tables = {s.table_id: s for s in await self.ctx.reads.tables(guild.id)}
        stored = finished.table.name if finished.table is not None else ""
        table = _table_name(lang, tables, guild, finished.record.table_id, stored)
        files = await finished_files(finished, lang, guild)
        await self._send(interaction, game_reply(lang, finished, table), files=files)

    @app_commands.command(name="stats", description=ltext("cmd.stats.description"))
    @described("stats", "member")
    @app_commands.guild_only()
    async def stats_command(
        self, interaction: discord.Interaction[Any], member: discord.Member | None = None
    ) -> None:
        """A member's numbers on this server (the caller's by default); without ``member``,
        the leaderboard and the tables' totals too. Others' numbers and the leaderboard leave
        out the games whose members were kept secret; one's own include them."""
        guild = guild_of(interaction)
        lang = await reader_language(self.ctx.reads, interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        games = await self.ctx.reads.server_games(guild.id)
        who = member.id if member is not None else interaction.user.id
        own = who == interaction.user.id
        embeds = member_embeds(lang, member_stats(games, who, own=own), own=own)
        if member is None:
            tables = {s.table_id: s for s in await self.ctx.reads.tables(guild.id)}
            embeds.append(leaderboard_embed(lang, games, tables, guild))
        await self._send(interaction, pack(embeds))

    @staticmethod
    async def _send(
        interaction: discord.Interaction[Any],
        posts: Sequence[Post],
        files: Sequence[discord.File] = (),
    ) -> None:
        """Private followups of a deferred reply, ``files`` attached to the first; mentions
        name members but ping nobody."""
        for index, post in enumerate(posts):
            await interaction.followup.send(
                post.content,
                embeds=list(post.embeds),
                files=list(files) if index == 0 else [],
                ephemeral=True,
                allowed_mentions=NO_PINGS,
            )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(HistoryCog(game_context(bot)))
