"""The files attached to a game's final announcement in #game (R15): built from the finished
game as the store holds it (``core.history.load_finished``).

Today the end-of-game picture (``core.picture``); the game's archive joins it in the same list.
Delivery calls :func:`game_files` only when it is about to send the announcement's first
message (never again once it went out) and sends the announcement without files if this
raises.
"""

from __future__ import annotations

import io

import discord

from core.history import load_finished
from core.i18n import Lang
from core.picture import game_picture
from db.interface import GameStore


def picture_name(game_id: int) -> str:
    return f"game-{game_id}.png"


async def game_files(store: GameStore, game_id: int, lang: Lang) -> list[discord.File]:
    """The files of the finished game ``game_id``, its texts in ``lang``: the picture
    (``game-<id>.png``). Raises if the game is not finished or a file cannot be built."""
    game = await load_finished(store, game_id)
    picture = game_picture(game, lang)
    return [discord.File(io.BytesIO(picture), filename=picture_name(game_id))]
