"""The files of a finished game: its end-of-game picture (``core.picture``) and its archive, a
self-contained web page (``bot.archive``), built from the game as the store holds it
(``core.history.load_finished``).

They are attached to the game's final announcement in #game (R15) and to ``/history game:``.
Delivery calls :func:`game_files` only when it is about to send the announcement's first
message (never again once it went out) and sends the announcement without files if this
raises. Drawing and rendering run in a worker thread: a 30-player, 30-turn game takes a
noticeable fraction of a second, which the event loop serving every server must not wait for.
"""

from __future__ import annotations

import asyncio
import io
import logging
import zipfile
from collections.abc import Mapping
from typing import Final

import discord

from bot.archive import archive_html
from bot.kinds import Sending
from core.history import FinishedGame, load_finished
from core.i18n import Lang, t
from core.picture import game_picture
from db.interface import GameStore
from rules.announce import PUBLIC

log = logging.getLogger(__name__)

#: The largest archive attached as a web page; a longer one (weeks of posts) is zipped.
#: Well under Discord's default upload limit of a file (20 MiB, without Nitro or boosts).
ARCHIVE_LIMIT: Final[int] = 8 * 1024 * 1024


def picture_name(game_id: int) -> str:
    return f"game-{game_id}.png"


def archive_name(game_id: int) -> str:
    return f"game-{game_id}.html"


def member_names(game: FinishedGame, guild: discord.Guild | None) -> Mapping[int, str] | None:
    """Display names of the members behind the nicknames, only when the host chose to reveal
    them (``/mafia new reveal``) and only of members still on the server."""
    if guild is None or not game.record.reveal:
        return None
    names: dict[int, str] = {}
    for user_id in game.members.values():
        member = guild.get_member(user_id)
        if member is not None:
            names[user_id] = member.display_name
    return names


def archive_bytes(game_id: int, html: str) -> tuple[str, bytes]:
    """The archive's file name and content: the page itself, or the page in a zip when it is
    too long to attach (Markdown-free text compresses about tenfold)."""
    data = html.encode("utf-8")
    if len(data) <= ARCHIVE_LIMIT:
        return archive_name(game_id), data
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(archive_name(game_id), data)
    return f"game-{game_id}.zip", buffer.getvalue()


def _render(
    game: FinishedGame, lang: Lang, names: Mapping[int, str] | None
) -> tuple[bytes, tuple[str, bytes]]:
    return game_picture(game, lang), archive_bytes(game.id, archive_html(game, lang, names))


async def game_files(
    store: GameStore, game_id: int, lang: Lang, guild: discord.Guild | None = None
) -> list[discord.File]:
    """The files of the finished game ``game_id``, its texts in ``lang``: the picture
    (``game-<id>.png``) and the archive (``game-<id>.html``, zipped if very long), members named
    with their display names on ``guild`` when the host chose to reveal them. Raises if the game
    is not finished or a file cannot be built."""
    return await finished_files(await load_finished(store, game_id), lang, guild)


async def finished_files(
    game: FinishedGame, lang: Lang, guild: discord.Guild | None = None
) -> list[discord.File]:
    """:func:`game_files` of a game already loaded."""
    game_id = game.id
    names = member_names(game, guild)
    picture, (name, archive) = await asyncio.to_thread(_render, game, lang, names)
    return [
        discord.File(io.BytesIO(picture), filename=picture_name(game_id)),
        discord.File(io.BytesIO(archive), filename=name),
    ]


async def announcement_files(sending: Sending) -> list[discord.File]:
    """R15: the end-of-game picture goes with the final announcement in #game, or the
    announcement goes without it if it cannot be built (the hosts are told once)."""
    if sending.audience != PUBLIC:
        return []
    failed: set[int] = sending.port.kind_state.setdefault("game_over.no_files", set())
    game, row = sending.game, sending.row
    if row.id in failed:
        return []
    try:
        return await game_files(sending.port.store, game.id, sending.lang, sending.guild)
    except Exception:
        log.exception("game %s: could not build the end-of-game files", game.id)
        failed.add(row.id)
        text = t(sending.lang, "picture.failed", game=game.id)
        await sending.port.tell_hosts(sending.guild, text, table_id=game.table_id)
        return []
