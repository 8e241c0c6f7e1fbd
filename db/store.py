"""The bot's store: ``Store`` is the SQLite implementation of :class:`db.interface.GameStore`.

Kept as the one import for callers (``from db.store import Store, KEEP``); the queries live in
:mod:`db.sqlite`, split by concern, and the contract every backend keeps in
:mod:`db.interface`. See docs/STORAGE.md.
"""

from __future__ import annotations

import os
from typing import Final

from db.interface import GameStore
from db.models import KEEP, Keep
from db.scripts import build_script
from db.sqlite import SQLiteStore
from db.sqlite import SQLiteStore as Store
from db.sqlite.convert import from_db_time, to_db_time

__all__ = [
    "DEFAULT_DB_PATH",
    "KEEP",
    "GameStore",
    "Keep",
    "SQLiteStore",
    "Store",
    "build_script",
    "default_db_path",
    "from_db_time",
    "open_store",
    "to_db_time",
]

DEFAULT_DB_PATH: Final = "mafia.db"


def default_db_path() -> str:
    """``$MAFIA_DB``, or ``./mafia.db``."""
    return os.environ.get("MAFIA_DB") or DEFAULT_DB_PATH


async def open_store(path: str | os.PathLike[str], *, synchronous: str = "FULL") -> GameStore:
    """Open the store at ``path`` as the interface the service depends on.

    (The return annotation is also the static proof, checked by mypy, that :class:`Store`
    implements every method of :class:`GameStore`.)
    """
    return await SQLiteStore.open(path, synchronous=synchronous)
