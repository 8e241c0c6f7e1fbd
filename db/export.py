"""``python main.py export [--db FILE] [GAME_ID]``: print a game as a replay script
(docs/REPLAY.md).

Replaying the printed script (``python main.py replay``) reproduces the game. The database is
opened read-only: export never creates, migrates or otherwise changes the file.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from db.errors import StoreError
from db.store import Store, default_db_path


async def _export(db_path: Path, game_id: int | None) -> dict[str, object]:
    store = await Store.open(db_path, read_only=True)
    try:
        if game_id is None:
            game = await store.latest_game()
            if game is None:
                raise StoreError(f"{db_path}: no game to export")
            game_id = game.id
        elif await store.get_game(game_id) is None:
            raise StoreError(f"{db_path}: no game {game_id}")
        return await store.load_script(game_id)
    finally:
        await store.close()


def export_main(db_path: str | None, game_id: int | None) -> int:
    """Print the script of ``game_id`` (default: the most recent game) as JSON.

    Returns the exit status: 0, or 2 with a one-line error on standard error.
    """
    path = Path(db_path or default_db_path())
    try:
        script = asyncio.run(_export(path, game_id))
    except StoreError as e:
        print(f"export: {e}", file=sys.stderr)
        return 2
    json.dump(script, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
    return 0
