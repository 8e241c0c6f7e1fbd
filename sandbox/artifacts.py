"""``main.py demo --artifacts DIR``: what stays of the demo's games, written to a folder so
that a newcomer sees it without Discord.

For every finished game of the demo server: its archive as a web page and as Markdown, and its
end-of-game picture, the same files the bot attaches to the final announcement and to
``/history game:``; then the server's stats (``stats.md``): every member's numbers, the
leaderboard and each table's totals, as ``/stats`` shows them, mentions turned into names.
"""

from __future__ import annotations

import re
from pathlib import Path

import discord

from bot.archive import archive_html, archive_markdown
from bot.attachments import archive_bytes, member_names, picture_name
from bot.embeds import embed_text
from cogs.history import leaderboard_embed, member_embeds
from core.history import load_finished
from core.i18n import Lang
from core.picture import game_picture
from core.stats import member_stats, server_games
from db.interface import GameStore

_MENTION = re.compile(r"<@!?(\d+)>")


def _names(text: str, guild: discord.Guild) -> str:
    """``<@id>`` as ``@display name`` (a file has no Discord to resolve mentions)."""

    def name(match: re.Match[str]) -> str:
        member = guild.get_member(int(match.group(1)))
        return f"@{member.display_name}" if member is not None else match.group(0)

    return _MENTION.sub(name, text)


async def write_artifacts(
    store: GameStore, guild: discord.Guild, folder: Path, lang: Lang
) -> list[Path]:
    """Write the archive (``game-N.html``, ``game-N.md``) and picture (``game-N.png``) of every
    finished game of ``guild``, and ``stats.md``; the paths written, in that order."""
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    games = await server_games(store, guild.id)
    for facts in games:
        game = await load_finished(store, facts.id)
        names = member_names(game, guild)
        name, page = archive_bytes(game.id, archive_html(game, lang, names))
        for path, data in (
            (folder / name, page),
            (folder / f"game-{game.id}.md", archive_markdown(game, lang, names).encode()),
            (folder / picture_name(game.id), game_picture(game, lang)),
        ):
            path.write_bytes(data)
            written.append(path)
    tables = {s.table_id: s for s in await store.tables(guild.id)}
    members = sorted({seat.user_id for g in games for seat in g.seats if seat.user_id > 0})
    blocks = [embed_text(leaderboard_embed(lang, games, tables, guild))]
    for user_id in members:
        for embed in member_embeds(lang, member_stats(games, user_id, own=False), own=False):
            blocks.append(embed_text(embed))
    stats = folder / "stats.md"
    stats.write_text(_names("\n\n".join(blocks), guild) + "\n", encoding="utf-8")
    written.append(stats)
    return written
