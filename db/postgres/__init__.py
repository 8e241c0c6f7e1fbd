"""The PostgreSQL engine of :mod:`db.ops` (asyncpg): the pool, its transactions and every
asyncpg detail (:mod:`db.postgres.base`; the schema is :mod:`db.postgres.migrations`), and
:class:`PostgresStore`, every concern's operations on it. Opened by
:func:`db.store.open_store` for a ``postgresql://`` URL; see docs/STORAGE.md."""

from db.postgres.store import PostgresStore

__all__ = ["PostgresStore"]
