"""The SQLite engine of :mod:`db.ops`: the connection, its one-hop transactions and every
PRAGMA and sqlite3 detail of the bot (:mod:`db.sqlite.base`; the schema is
:mod:`db.sqlite.migrations`), and :class:`SQLiteStore`, every concern's operations on it."""

from db.sqlite.store import SQLiteStore

__all__ = ["SQLiteStore"]
