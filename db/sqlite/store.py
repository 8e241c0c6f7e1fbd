"""The SQLite store: every operation of :class:`db.ops.store.GameStore` (written once for both
engines) on this engine's transactions (:class:`db.sqlite.base.SQLiteBase`)."""

from __future__ import annotations

from db.ops.store import GameStore
from db.sqlite.base import SQLiteBase


class SQLiteStore(GameStore, SQLiteBase):
    """The store on one SQLite file. Create with ``await SQLiteStore.open(path)``; see
    :mod:`db.sqlite.base` for transactions and locking."""
