"""What anyone in the game's channels may ask, player or not: who is alive and who died
(``/players``), the rules (``/rules``) and the commands I may use now (``/help``). Every reply
is private (ephemeral) and built from public facts, or from what the asker knows (R55).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.command_i18n import described, ltext
from bot.context import game_context
from bot.errors import UserError
from bot.render import command_name, render_help, render_roster
from bot.replies import reader_language, send_private
from bot.tables import table_key
from bot.webhooks import MESSAGE_LIMIT, split_message
from cogs._common import PlayerCog, guild_of
from cogs.reading import game_to_read
from core.cast_text import guide_for
from core.i18n import Lang, t
from core.refusal import Refusal
from core.review import is_window
from rules.knowledge import commands_now, game_cast, public_roster
from rules.schedule import hunt_opens_at

#: The rules for players, one file per language (docs/rules.en.md, docs/rules.ru.md).
RULES_DIR = Path(__file__).resolve().parent.parent / "docs"

#: Room left in a page for its footer ("Page 2 of 9: /rules page:3").
FOOTER_ROOM = 200

#: What anyone may ask; a player's own commands come first.
GENERAL = ("players", "history", "stats", "rules", "help")
#: A player's own tools, alive or a ghost (R36: a ghost still posts).
PLAYER_TOOLS = ("role", "status", "say", "post", "profile")
#: Reading the game again, running or the table's last finished one: its tallies, one
#: nickname's posts (anyone at the table).
READING = ("votes", "iso")
#: A member who does not play the running game (or when none runs): the sign-up.
SIGN_UP = ("join", "leave")
#: R60: a member who does not play the running game may stand by as its substitute; a living
#: player may ask to be replaced.
STAND_BY = ("standby",)
REPLACE_ME = ("replaceme",)


#: A line that starts a block of Markdown: a heading or a list item (numbered or not).
BLOCK_START = re.compile(r"\s*(#|[-*] |\d+\. )")


def unwrapped(text: str) -> str:
    """The document with its hard-wrapped lines joined: Discord shows every line break, so a
    line that only continues the one before joins it (headings and list items stay lines)."""
    lines: list[str] = []
    for line in text.splitlines():
        if lines and lines[-1].strip() and line.strip() and not BLOCK_START.match(line):
            lines[-1] = f"{lines[-1].rstrip()} {line.strip()}"
        else:
            lines.append(line.rstrip())
    return "\n".join(lines)


@cache
def rules_pages(lang: Lang, cast: frozenset[str] | None = None) -> tuple[str, ...]:
    """The rules document in ``lang`` for a game of ``cast`` (its sides and roles only, its
    win conditions and order of results; None: outside a game, every role), in pages that
    fit a Discord message with the footer. A page holds whole paragraphs; only a paragraph
    longer than a page is cut."""
    source = (RULES_DIR / f"rules.{lang}.md").read_text(encoding="utf-8")
    text = unwrapped(guide_for(lang, source, cast))
    limit = MESSAGE_LIMIT - FOOTER_ROOM
    paragraphs: list[str] = []
    for paragraph in text.split("\n\n"):
        paragraph = paragraph.strip("\n")
        if paragraphs and paragraphs[-1].startswith("#") and "\n" not in paragraphs[-1]:
            paragraph = f"{paragraphs.pop()}\n\n{paragraph}"  # a heading stays with its text
        if paragraph:
            paragraphs.append(paragraph)
    pages: list[str] = []
    for paragraph in paragraphs:
        if pages and len(pages[-1]) + 2 + len(paragraph) <= limit:
            pages[-1] += "\n\n" + paragraph
        else:
            pages += split_message(paragraph, limit)
    return tuple(pages)


class InfoCog(PlayerCog, name="Info"):
    @app_commands.command(name="players", description=ltext("cmd.players.description"))
    async def players_command(self, interaction: discord.Interaction[Any]) -> None:
        """The living and the dead of this table's game, by nickname only (R6, R35, R55)."""
        guild_of(interaction)
        key = await table_key(self.ctx.reads, interaction)
        # A game whose last results wait for the host still runs for its readers.
        game = self.ctx.service.game_in(key) or await self.ctx.service.held_game(key)
        if game is None:
            raise UserError("error.no_running_game")
        lang = await reader_language(self.ctx.reads, interaction)
        # core/review.py: while the results wait for the host, as the players knew it before
        await send_private(interaction, render_roster(lang, public_roster(game.public_state)))

    @app_commands.command(name="rules", description=ltext("cmd.rules.description"))
    @described("rules", "page")
    async def rules_command(
        self, interaction: discord.Interaction[Any], page: app_commands.Range[int, 1, 99] = 1
    ) -> None:
        """One page of the rules in the reader's language, for the table's game if one runs
        (its sides and roles only); a page past the end is the last."""
        lang = await reader_language(self.ctx.reads, interaction)
        cast = None
        if interaction.guild is not None:
            key = await table_key(self.ctx.reads, interaction)
            game = self.ctx.service.game_in(key) or await self.ctx.service.held_game(key)
            if game is not None:
                cast = game_cast(game.public_state)
        pages = rules_pages(lang, cast)
        number = min(page, len(pages))
        footer = t(lang, "rules.page", page=number, pages=len(pages))
        if number < len(pages):
            option = t(lang, "cmd.rules.opt.page.name")
            footer += " " + t(
                lang, "rules.next", command=f"`{command_name(lang, 'rules')} {option}:{number + 1}`"
            )
        await send_private(interaction, f"{pages[number - 1]}\n\n*{footer}*")

    @app_commands.command(name="help", description=ltext("cmd.help.description"))
    async def help_command(self, interaction: discord.Interaction[Any]) -> None:
        """The commands I may use now: a player's own requests (from his role card), his
        tools, and what anyone may ask."""
        guild_of(interaction)
        lang = await reader_language(self.ctx.reads, interaction)
        key = await table_key(self.ctx.reads, interaction)
        game = self.ctx.service.game_in(key) or await self.ctx.service.held_game(key)
        nick = game.nick_of(interaction.user.id) if game is not None else None
        later: tuple[tuple[str, str], ...] = ()
        hunt_at = None
        mine: tuple[str, ...] = ()
        if game is not None and nick is not None and game.review is not None:
            mine = PLAYER_TOOLS  # the results wait for the host: no request until they are out
            if is_window(game.review) and nick in game.engine.state.pistols:
                mine = ("shoot", *PLAYER_TOOLS)  # R18: a killed commissar's shot, in his window
        elif game is not None and nick is not None:
            deadline = game.record.deadline
            if deadline is not None:
                hunt_at = hunt_opens_at(game.schedule, deadline)
            opened = hunt_at is None or self.ctx.service.clock() >= hunt_at  # R4
            usable = commands_now(game.engine.state, nick, hunts_open=opened)
            alive = game.engine.state.players[nick].alive
            mine = usable.now + PLAYER_TOOLS + (REPLACE_ME if alive else ())
            later = usable.later
        elif game is None:
            mine = SIGN_UP
        elif self.ctx.service.game_in(key) is game:  # running, and he does not play it
            mine = STAND_BY
        reading = READING if game is not None or await self._finished_to_read(key) else ()
        await send_private(interaction, render_help(lang, mine + reading + GENERAL, later, hunt_at))

    async def _finished_to_read(self, table_id: int) -> bool:
        """Whether the table has a finished game ``/votes`` and ``/iso`` read (no game runs)."""
        try:
            await game_to_read(self.ctx, table_id)
        except Refusal:
            return False
        return True


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(InfoCog(game_context(bot)))
