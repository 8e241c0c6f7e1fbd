"""The bot's store: :class:`db.ops.store.GameStore` (``db.interface.GameStore``) is what the
service depends on; :class:`db.sqlite.SQLiteStore` runs it on SQLite,
:class:`db.postgres.PostgresStore` on PostgreSQL; :func:`open_store` picks by the target.

Kept as the one import for callers (``from db.store import open_store, KEEP``); the operations
and their contract live in :mod:`db.ops`, written once for both engines. See docs/STORAGE.md.
"""

from __future__ import annotations

import os
from typing import Final

from db.interface import GameStore
from db.models import KEEP
from db.postgres import PostgresStore
from db.scripts import build_script
from db.sqlite import SQLiteStore
from db.urls import is_postgres_url

__all__ = [
    "DEFAULT_DB_PATH",
    "KEEP",
    "GameStore",
    "PostgresStore",
    "SQLiteStore",
    "build_script",
    "default_db_path",
    "is_postgres_url",
    "open_store",
]

DEFAULT_DB_PATH: Final = "mafia.db"


def default_db_path() -> str:
    """``$MAFIA_DB``, or ``./mafia.db``."""
    return os.environ.get("MAFIA_DB") or DEFAULT_DB_PATH


async def open_store(
    target: str | os.PathLike[str], *, synchronous: str = "FULL", read_only: bool = False
) -> GameStore:
    """Open the store at ``target`` as the interface the service depends on: PostgreSQL
    when ``target`` is a ``postgresql://`` (or ``postgres://``) URL, else the SQLite file at
    that path (``synchronous``: SQLite's durability setting, ignored by PostgreSQL)."""
    if is_postgres_url(target):
        return await PostgresStore.open(str(target), read_only=read_only)
    return await SQLiteStore.open(target, synchronous=synchronous, read_only=read_only)
