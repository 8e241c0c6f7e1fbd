"""The name the code that depends on the store imports: :data:`GameStore` is
:class:`db.ops.store.GameStore`, the one class whose operations (each with its signature,
docstring and body, written once in :mod:`db.ops`) both engines inherit
(:class:`db.sqlite.SQLiteStore`, :class:`db.postgres.PostgresStore`). Its module docstring is
the contract every operation keeps.
"""

from __future__ import annotations

from db.ops.store import GameStore

__all__ = ["GameStore"]
