"""Reading the game again, privately: ``/votes`` (every published lynch tally of this game,
turn by turn) and ``/iso`` (one nickname's posts in this game, in order: Discord's search
cannot filter the webhook's posts by nickname, and forum players read a suspect this way).

Both show only what was published (R34, R54: a tally as it was posted, totals only where the
host took a vote) and are open to anyone in the table's channels, like ``/players``. Replies are
private and paged with Previous/Next (``bot/paging.py``).

Reading a game after it ended is a forum tradition: with no game running at the table, both
read the table's last finished game, still only what was published in it (results the host's
review still holds, ``core/review.py``, are not: they were never posted).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import attrs
import discord
from discord import app_commands
from discord.ext import commands

from bot.command_i18n import described, ltext
from bot.context import GameContext, game_context
from bot.embeds import NOTICE, field_values
from bot.errors import UserError
from bot.paging import PagedView
from bot.render import iso_quote, timestamp, votes_lines
from bot.replies import reader_language
from bot.tables import table_key
from cogs._common import Nick, PlayerCog, guild_of
from core.ghosts import has_ghost_room
from core.i18n import Lang, t
from core.refusal import Refusal
from db.models import PostRecord
from rules.names import find_name, public_order


@attrs.frozen
class ReadGame:
    """The game ``/votes`` and ``/iso`` read: the table's running game, else its last
    finished one (``finished``: then its pages say which game it was)."""

    id: int
    nicks: tuple[str, ...]
    finished: bool
    ghost_room: bool = False  # R62: a running game's ghosts' room, read by the dead only


async def game_to_read(ctx: GameContext, table_id: int) -> ReadGame:
    """The table's running game, else its last finished game that was played (a sign-up the
    host cancelled has no players); refused when the table has neither."""
    # A game whose last results wait for the host (core/review.py) still runs for readers.
    game = ctx.service.game_in(table_id) or await ctx.service.held_game(table_id)
    if game is not None:
        nicks = tuple(game.engine.state.players)
        return ReadGame(game.id, nicks, finished=False, ghost_room=has_ghost_room(game.record))
    last = await ctx.reads.last_played(table_id)
    if last is None:
        raise UserError("error.no_running_game")
    rec, players = last
    return ReadGame(rec.id, tuple(p.nick for p in players), finished=True)


#: How long the Previous/Next buttons of a list work.
READING_TIMEOUT_SECONDS: Final = 15 * 60
#: The longest page (an embed's description holds 4096 characters).
PAGE_LIMIT: Final = 3800
NO_PINGS: Final = discord.AllowedMentions.none()


def pages_of(blocks: Sequence[str], limit: int = PAGE_LIMIT) -> list[str]:
    """Blocks joined into pages of at most ``limit`` characters, a blank line between two;
    a block longer than a page goes on over the next ones (nothing is lost)."""
    pages: list[str] = []
    current = ""
    for block in blocks:
        for piece in field_values(block.split("\n"), limit):
            joined = f"{current}\n\n{piece}" if current else piece
            if len(joined) <= limit:
                current = joined
            else:
                pages.append(current)
                current = piece
    if current:
        pages.append(current)
    return pages


class ReadingView(PagedView):
    """Fixed pages of one private list (what was published does not change)."""

    def __init__(
        self,
        ctx: GameContext,
        lang: Lang,
        owner_id: int,
        *,
        keys: str,
        pages: Sequence[tuple[str, str]],
        first: int = 0,
        footer: str | None = None,
    ) -> None:
        super().__init__(ctx, lang, owner_id, keys=keys, timeout=READING_TIMEOUT_SECONDS)
        self.footer = footer  # which finished game the pages are of
        self.contents = list(pages)  # (title, text) per page
        self.pages = max(1, len(self.contents))
        self.page = min(max(0, first), self.pages - 1)

    async def render(self) -> discord.Embed:
        self.page = min(self.page, self.pages - 1)
        title, text = self.contents[self.page]
        embed = discord.Embed(title=title, description=text, colour=NOTICE)
        if self.footer:
            embed.set_footer(text=self.footer)
        return embed


def iso_blocks(lang: Lang, posts: Sequence[PostRecord]) -> list[str]:
    """``/iso``: each post under its turn and time (a Discord timestamp: the reader's own
    time), quoted as the player's words."""
    blocks = []
    for post in posts:
        key = "iso.post_ghost" if post.ghost else "iso.post"
        head = t(lang, key, turn=post.turn, at=timestamp(post.at, "f"))
        blocks.append(f"**{head}**\n{iso_quote(lang, post.nick, post.text)}")
    return blocks


def nick_choices(nicks: Sequence[str], current: str) -> list[app_commands.Choice[str]]:
    needle = current.casefold()
    return [
        app_commands.Choice(name=n, value=n) for n in public_order(nicks) if needle in n.casefold()
    ][:25]


async def every_nickname(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """``/iso``'s autocomplete: every nickname of the table's game, living or dead, in
    alphabetical order. The nicknames are public (every turn's opening lists the living, the
    results the dead), so anyone in the table's channels sees the same list."""
    if interaction.guild is None:
        return []
    ctx = game_context(interaction.client)
    try:
        key = await table_key(ctx.reads, interaction)
    except Refusal:
        return []
    try:
        game = await game_to_read(ctx, key)
    except Refusal:
        return []
    return nick_choices(list(game.nicks), current)


def finished_footer(lang: Lang, game: ReadGame) -> str | None:
    return t(lang, "reading.finished", game=game.id) if game.finished else None


class ReadingCog(PlayerCog, name="Reading"):
    @app_commands.command(name="votes", description=ltext("cmd.votes.description"))
    @described("votes", "turn")
    async def votes_command(
        self,
        interaction: discord.Interaction[Any],
        turn: app_commands.Range[int, 1, 10_000] | None = None,
    ) -> None:
        """Every lynch tally this game published, a turn a page (a long one continues), the
        latest first shown, or ``turn``'s."""
        guild_of(interaction)
        game = await game_to_read(self.ctx, await table_key(self.ctx.reads, interaction))
        lang = await reader_language(self.ctx.reads, interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        tallies = await self.ctx.reads.lynch_tallies(game.id)
        if not tallies:
            raise UserError("votes.none")
        if turn is not None and turn not in tallies:
            turns = ", ".join(str(n) for n in sorted(tallies))
            raise UserError("votes.no_turn", turn=turn, turns=turns)
        chunks: list[tuple[int, str]] = []
        first = 0
        for number in sorted(tallies):
            if number == (turn if turn is not None else max(tallies)):
                first = len(chunks)
            for text in field_values(votes_lines(lang, tallies[number]), PAGE_LIMIT):
                chunks.append((number, text))
        pages = [
            (t(lang, "votes.title", turn=number, page=i + 1, pages=len(chunks)), text)
            for i, (number, text) in enumerate(chunks)
        ]
        view = ReadingView(
            self.ctx,
            lang,
            interaction.user.id,
            keys="votes",
            pages=pages,
            first=first,
            footer=finished_footer(lang, game),
        )
        embed = await view.show()
        await interaction.followup.send(
            embed=embed, view=view, ephemeral=True, allowed_mentions=NO_PINGS
        )

    @app_commands.command(name="iso", description=ltext("cmd.iso.description"))
    @described("iso", "player")
    @app_commands.autocomplete(player=every_nickname)
    async def iso_command(self, interaction: discord.Interaction[Any], player: Nick) -> None:
        """One nickname's posts in this game, living or dead, in the order they were posted
        (R44: the name typed is matched as the bot matches every typed nickname)."""
        guild_of(interaction)
        game = await game_to_read(self.ctx, await table_key(self.ctx.reads, interaction))
        nick = find_name(game.nicks, player)
        if nick is None:
            raise UserError("error.unknown_nick", nick=player)
        lang = await reader_language(self.ctx.reads, interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        posts = [p for p in await self.ctx.reads.posts(game.id) if p.nick == nick]
        if game.ghost_room:  # R62: the ghosts' room is read by the dead until the end
            posts = [p for p in posts if not p.ghost]
        if not posts:
            raise UserError("iso.none_finished" if game.finished else "iso.none", nick=nick)
        texts = pages_of(iso_blocks(lang, posts))
        pages = [
            (t(lang, "iso.title", nick=nick, page=i + 1, pages=len(texts)), text)
            for i, text in enumerate(texts)
        ]
        view = ReadingView(
            self.ctx,
            lang,
            interaction.user.id,
            keys="iso",
            pages=pages,
            footer=finished_footer(lang, game),
        )
        embed = await view.show()
        await interaction.followup.send(
            embed=embed, view=view, ephemeral=True, allowed_mentions=NO_PINGS
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ReadingCog(game_context(bot)))
