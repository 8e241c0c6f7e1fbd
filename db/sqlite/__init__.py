"""The SQLite implementation of :mod:`db.interface`: every SQL statement, PRAGMA and sqlite3
detail of the bot lives in this package (and in :mod:`db.migrations`, its schema)."""

from db.sqlite.store import SQLiteStore

__all__ = ["SQLiteStore"]
