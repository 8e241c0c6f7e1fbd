"""The PostgreSQL store: every operation of :class:`db.ops.store.GameStore` (written once for
both engines) on this engine's transactions (:class:`db.postgres.base.PostgresBase`)."""

from __future__ import annotations

from db.ops.store import GameStore
from db.postgres.base import PostgresBase


class PostgresStore(GameStore, PostgresBase):
    """The store on a PostgreSQL database. Create with ``await PostgresStore.open(url)``; see
    :mod:`db.postgres.base` for transactions, locking and what keeps two processes on one
    database exactly-once."""
