"""The PostgreSQL implementation of :mod:`db.interface` (asyncpg): every SQL statement and
asyncpg detail of the PostgreSQL backend lives in this package, its schema in
:mod:`db.postgres.migrations`. Opened by :func:`db.store.open_store` for a ``postgresql://``
URL; see docs/STORAGE.md."""

from db.postgres.store import PostgresStore

__all__ = ["PostgresStore"]
