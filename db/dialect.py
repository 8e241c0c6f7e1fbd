"""What differs between the two engines, in one place: the operations of :mod:`db.ops` write
each statement once, with PostgreSQL's numbered parameters (``$1``), and ask the
:class:`Dialect` of their transaction (``tx.dialect``) for the few pieces that are not the same
SQL on both:

- **times**: SQLite keeps sortable UTC text of one width (``2025-03-01T18:00:00.000000+00:00``:
  they compare as text), PostgreSQL ``TIMESTAMPTZ`` (:meth:`Dialect.time`);
- **names that compare without case**: SQLite's ``NOCASE`` (ASCII only), PostgreSQL's
  ``lower()`` (every letter of the database's locale): :meth:`Dialect.same_name`,
  :meth:`Dialect.name_order`; each matches the engine's unique index;
- **row locks**: PostgreSQL locks a game's row (``FOR UPDATE``) before appending to its log or
  claiming a stage of its turn; SQLite needs none (``BEGIN IMMEDIATE`` already serialises
  every writer): :attr:`Dialect.row_locks`, :attr:`Dialect.for_update`;
- **the lease clock**: the database server's (``now()``) on PostgreSQL, so that processes on
  several hosts agree; the machine's on SQLite (one host): :meth:`Dialect.lease_clock`. A lease
  coordinates processes; each process's game clock is its own (:meth:`db.tx.Engine.use_clock`);
- **flags** in a partial index's predicate (``sent = 0`` against ``NOT sent``):
  :meth:`Dialect.unsent`;
- **a list of ids as one parameter**: ``json_each`` against ``ANY(bigint[])``:
  :meth:`Dialect.in_ids`;
- **placeholders**: SQLite accepts numbered parameters as ``?1``; :meth:`Dialect.sql`
  translates a statement once and caches it.

The engines' errors become :mod:`db.errors` in the transactions themselves
(:mod:`db.sqlite.base`, :mod:`db.postgres.base`). Both engines have ``RETURNING`` and
``INSERT ... ON CONFLICT``, so neither needs a variant.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import re
from collections.abc import Sequence
from typing import Any, Final, Literal

from db.convert import aware, to_db_time

_NUMBERED: Final = re.compile(r"\$(\d+)")


@functools.lru_cache(maxsize=4096)
def _question_marks(sql: str) -> str:
    return _NUMBERED.sub(r"?\1", sql)


class Dialect:
    """One engine's SQL differences (see the module's docstring). Two instances:
    :data:`SQLITE` and :data:`POSTGRES`."""

    def __init__(self, name: Literal["sqlite", "postgres"]) -> None:
        self.name = name
        pg = name == "postgres"
        #: Whether a transaction locks the game's row before writing to its log (PostgreSQL).
        self.row_locks = pg
        #: What a SELECT that locks its rows ends with.
        self.for_update = " FOR UPDATE" if pg else ""
        #: The sign-ups' order of arrival (SQLite's rowid, PostgreSQL's identity column).
        self.signup_order = "joined" if pg else "rowid"

    def __repr__(self) -> str:
        return f"Dialect({self.name!r})"

    def sql(self, text: str) -> str:
        """``text`` as this engine's driver takes it (``$1`` becomes ``?1`` on SQLite)."""
        return text if self.name == "postgres" else _question_marks(text)

    def time(self, value: dt.datetime) -> Any:
        """A time as its column stores it (``ValueError`` for a naive one, before any write)."""
        return aware(value) if self.name == "postgres" else to_db_time(value)

    def opt_time(self, value: dt.datetime | None) -> Any:
        return None if value is None else self.time(value)

    def same_name(self, column: str, param: str) -> str:
        """``column`` equals ``param`` regardless of case, as the engine's unique index folds."""
        if self.name == "postgres":
            return f"lower({column}) = lower({param})"
        return f"{column} = {param} COLLATE NOCASE"

    def name_order(self, column: str) -> str:
        return f"lower({column})" if self.name == "postgres" else f"{column} COLLATE NOCASE"

    def unsent(self, column: str) -> str:
        """``column`` (a flag) is false, written as the partial indexes' predicates are."""
        return f"NOT {column}" if self.name == "postgres" else f"{column} = 0"

    def contains(self, column: str, param: str) -> str:
        """The text of ``column`` (JSON) contains the text ``param``."""
        if self.name == "postgres":
            return f"strpos({column}::text, {param}) > 0"
        return f"instr({column}, {param}) > 0"

    def in_ids(self, param: str) -> str:
        """``IN`` the list of integers passed as ``param`` (see :meth:`ids`)."""
        if self.name == "postgres":
            return f"= ANY({param}::bigint[])"
        return f"IN (SELECT value FROM json_each({param}))"

    def ids(self, values: Sequence[int]) -> Any:
        """A list of integers as one parameter (for :meth:`in_ids`)."""
        ints = [int(v) for v in values]
        return ints if self.name == "postgres" else json.dumps(ints)

    def lease_clock(self, param: str) -> str:
        """The lease clock moved by ``param`` seconds, as SQL; its argument is
        :meth:`lease_arg`'s. PostgreSQL: the server's clock (the transaction's start); SQLite:
        the machine's (the argument is the moved time itself)."""
        if self.name == "postgres":
            return f"(now() + {param}::float8 * interval '1 second')"
        return param

    def lease_arg(self, now: dt.datetime, seconds: float) -> Any:
        if self.name == "postgres":
            return float(seconds)
        return to_db_time(now + dt.timedelta(seconds=seconds))


SQLITE: Final = Dialect("sqlite")
POSTGRES: Final = Dialect("postgres")
