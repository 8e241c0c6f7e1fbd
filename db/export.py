"""``python main.py export [--db FILE|URL] [--format json|html|md] [GAME_ID]``: print a game as
a replay script (docs/REPLAY.md), or a finished game's archive.

Replaying the printed script (``python main.py replay``) reproduces the game. The archive
(html, md) is written by a renderer the caller passes (``bot.archive.archive_renderer``: the
store knows nothing of how a game is shown). The database is opened read-only: export never
creates, migrates or otherwise changes the file (or, for a ``postgresql://`` URL, the schema).
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

from db.errors import StoreError
from db.interface import GameStore
from db.store import default_db_path, is_postgres_url, open_store
from db.urls import shown

#: Renders a stored game as text (the archive): ``(store, game_id) -> text``; raises
#: :class:`StoreError` (``NotFound`` for a game that has not finished).
Renderer = Callable[[GameStore, int], Awaitable[str]]


async def _export(
    db_path: Path | str, game_id: int | None, renderer: Renderer | None = None
) -> dict[str, object] | str:
    store = await open_store(db_path, read_only=True)
    where = shown(db_path)  # no password shown
    try:
        if game_id is None:
            game = await store.latest_game()
            if game is None:
                raise StoreError(f"{where}: no game to export")
            game_id = game.id
        elif await store.get_game(game_id) is None:
            raise StoreError(f"{where}: no game {game_id}")
        if renderer is not None:
            return await renderer(store, game_id)
        return await store.load_script(game_id)
    finally:
        await store.close()


def export_main(db_path: str | None, game_id: int | None, renderer: Renderer | None = None) -> int:
    """Print the script of ``game_id`` (default: the most recent game) as JSON, or what
    ``renderer`` makes of it (the archive of a finished game).

    Returns the exit status: 0, or 2 with a one-line error on standard error.
    """
    target = db_path or default_db_path()
    path = target if is_postgres_url(target) else Path(target)
    try:
        out = asyncio.run(_export(path, game_id, renderer))
    except StoreError as e:
        print(f"export: {e}", file=sys.stderr)
        return 2
    if isinstance(out, str):
        sys.stdout.write(out if out.endswith("\n") else out + "\n")
        return 0
    json.dump(out, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
    return 0
