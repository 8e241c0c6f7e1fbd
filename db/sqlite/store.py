"""The SQLite store: every concern's operations (:mod:`db.ops`, written once for both engines)
on this engine's transactions (:class:`db.sqlite.base.SQLiteBase`)."""

from __future__ import annotations

from db.ops.store import StoreOps
from db.sqlite.base import SQLiteBase


class SQLiteStore(StoreOps, SQLiteBase):
    """:class:`db.interface.GameStore` on one SQLite file. Create with
    ``await SQLiteStore.open(path)``; see :mod:`db.sqlite.base` for transactions and locking."""
