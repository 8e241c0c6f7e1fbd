"""``main.py migrate-store FROM TO``: copy a whole game store from one database to another,
typically a SQLite file to PostgreSQL when a bot outgrows one process (or back, as a portable
backup).

Both stores are opened through :func:`db.store.open_store` first, so each is created or
upgraded to the current schema by its own migrations; the copy is then row for row, table by
table in the order of their foreign keys, with every id kept (games keep their numbers, log
entries their order, the outbox what was sent and what was not). Values are converted by the
target column's type: SQLite keeps times as UTC text and flags as 0/1, PostgreSQL as
``timestamptz`` and ``boolean``; JSON stays the same text.

The target must be empty (no table holds a row): nothing is merged. The copy is one
transaction on the target, so a failure leaves it empty; the source is only read (in one read
transaction, a consistent state), but stop the bot first: what it writes after the copy began
is not copied. Afterwards the row counts of every table are compared, and PostgreSQL's id
sequences are moved past the copied ids.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Sequence
from typing import Any, Final

import attrs

from db.convert import stored_time, to_db_time
from db.errors import StoreError
from db.urls import is_postgres_url, shown

#: Every table of the current schema, parents before children (a test checks the list against
#: both engines' schemas, so a migration adding a table must add it here).
TABLES: Final[tuple[str, ...]] = (
    "game_tables",
    "games",
    "signups",
    "players",
    "log_entries",
    "resolutions",
    "pistol_windows",
    "outbox",
    "audit_log",
    "posts",
    "snapshots",
    "heartbeats",
    "downtime",
    "confirmations",
    "kill_boards",
    "reviews",
    "dm_channels",
    "post_pictures",
    "presets",
    "spectators",
    "substitutes",
    "replace_requests",
    "replacements",
    "bars",
)

#: Each table's column names and rows, as read from the source.
Tables = dict[str, tuple[list[str], list[tuple[Any, ...]]]]

#: Rows sent to PostgreSQL per COPY.
_BATCH: Final = 5000


@attrs.frozen
class TransferReport:
    """What :func:`migrate_store` copied: rows per table."""

    rows: dict[str, int]

    @property
    def total(self) -> int:
        return sum(self.rows.values())


def _not_empty(table: str) -> StoreError:
    return StoreError(
        f"the target already holds data (table {table}); "
        "migrate-store copies into an empty store only"
    )


# --- reading --------------------------------------------------------------------------------


def _sqlite_columns(conn: sqlite3.Connection, table: str) -> list[str]:
    # table_info leaves out generated columns (none since migration 19): they are computed.
    return [str(r[1]) for r in conn.execute(f"PRAGMA table_info({table})")]


def _read_sqlite(path: str, tables: Sequence[str]) -> Tables:
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("BEGIN")
        out: Tables = {}
        for table in tables:
            columns = _sqlite_columns(conn, table)
            names = ", ".join(f'"{c}"' for c in columns)
            try:  # in insertion order
                rows = conn.execute(f'SELECT {names} FROM "{table}" ORDER BY rowid').fetchall()
            except sqlite3.OperationalError:  # a WITHOUT ROWID table: by its primary key
                rows = conn.execute(f'SELECT {names} FROM "{table}" ORDER BY 1, 2').fetchall()
            out[table] = (columns, [tuple(r) for r in rows])
        conn.execute("COMMIT")
        return out
    finally:
        conn.close()


async def _pg_columns(conn: Any, table: str) -> dict[str, tuple[str, bool]]:
    """Column name -> (data type, whether the database fills it itself: an identity column or
    one with a default) of ``table`` in the connection's current schema, without generated
    columns."""
    rows = await conn.fetch(
        "SELECT column_name, data_type, is_identity, column_default "
        "FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND table_name = $1 "
        "AND is_generated = 'NEVER' ORDER BY ordinal_position",
        table,
    )
    return {
        str(r["column_name"]): (
            str(r["data_type"]),
            r["is_identity"] == "YES" or r["column_default"] is not None,
        )
        for r in rows
    }


async def _pg_identity(conn: Any, table: str) -> str | None:
    """The table's identity column (its insertion order), if any."""
    value = await conn.fetchval(
        "SELECT column_name FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND table_name = $1 AND is_identity = 'YES'",
        table,
    )
    return None if value is None else str(value)


async def _read_pg(url: str, tables: Sequence[str]) -> Tables:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        out: Tables = {}
        async with conn.transaction(isolation="repeatable_read", readonly=True):
            for table in tables:
                columns = list(await _pg_columns(conn, table))
                names = ", ".join(f'"{c}"' for c in columns)
                identity = await _pg_identity(conn, table)  # in insertion order, if known
                order = f'"{identity}"' if identity else ", ".join(f'"{c}"' for c in columns[:2])
                rows = await conn.fetch(f'SELECT {names} FROM "{table}" ORDER BY {order}')
                out[table] = (columns, [tuple(r) for r in rows])
        return out
    finally:
        await conn.close()


# --- converting -------------------------------------------------------------------------------


def _to_pg(value: Any, data_type: str) -> Any:
    if value is None:
        return None
    if data_type == "timestamp with time zone":
        return stored_time(value)
    if data_type == "boolean":
        return bool(value)
    if data_type in ("bigint", "integer", "smallint"):
        return int(value)
    if data_type in ("double precision", "real", "numeric"):
        return float(value)
    return value  # text, json: the same text


def _to_sqlite(value: Any) -> Any:
    if isinstance(value, dt.datetime):
        return to_db_time(value)
    if isinstance(value, bool):
        return int(value)
    return value


# --- writing ----------------------------------------------------------------------------------


async def _write_pg(url: str, data: Tables) -> None:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        async with conn.transaction():
            for table in TABLES:
                if await conn.fetchval(f'SELECT EXISTS (SELECT 1 FROM "{table}")'):
                    raise _not_empty(table)
            for table in TABLES:
                source_columns, rows = data[table]
                described = await _pg_columns(conn, table)
                types = {name: kind for name, (kind, _) in described.items()}
                columns = [c for c in source_columns if c in types]
                # A column the database fills itself (signups.joined, the sign-up order) is
                # filled in the order of the copy, which is the source's insertion order.
                missing = [
                    c
                    for c, (_, filled) in described.items()
                    if c not in source_columns and not filled
                ]
                if missing:
                    raise StoreError(f"table {table}: the source has no column {missing[0]}")
                index = [source_columns.index(c) for c in columns]
                records = [
                    tuple(_to_pg(row[i], types[c]) for i, c in zip(index, columns, strict=True))
                    for row in rows
                ]
                for start in range(0, len(records), _BATCH):
                    await conn.copy_records_to_table(
                        table,
                        records=records[start : start + _BATCH],
                        columns=columns,
                        schema_name=await conn.fetchval("SELECT current_schema()"),
                    )
                sequence = (
                    await conn.fetchval("SELECT pg_get_serial_sequence($1, 'id')", f'"{table}"')
                    if "id" in types
                    else None
                )
                if sequence is not None:  # an identity column: the next id follows the copied
                    await conn.execute(
                        f'SELECT setval($1, COALESCE((SELECT MAX(id) FROM "{table}"), 1), '
                        f'(SELECT MAX(id) FROM "{table}") IS NOT NULL)',
                        sequence,
                    )
    finally:
        await conn.close()


def _write_sqlite(path: str, data: Tables) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("BEGIN IMMEDIATE")
        try:
            for table in TABLES:
                if conn.execute(f'SELECT 1 FROM "{table}" LIMIT 1').fetchone():
                    raise _not_empty(table)
            for table in TABLES:
                source_columns, rows = data[table]
                target_columns = set(_sqlite_columns(conn, table))
                columns = [c for c in source_columns if c in target_columns]
                index = [source_columns.index(c) for c in columns]
                names = ", ".join(f'"{c}"' for c in columns)
                marks = ", ".join("?" for _ in columns)
                conn.executemany(
                    f'INSERT INTO "{table}" ({names}) VALUES ({marks})',
                    ([_to_sqlite(row[i]) for i in index] for row in rows),
                )
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    finally:
        conn.close()


async def _counts(target: str) -> dict[str, int]:
    if is_postgres_url(target):
        import asyncpg

        conn = await asyncpg.connect(target)
        try:
            return {t: int(await conn.fetchval(f'SELECT COUNT(*) FROM "{t}"')) for t in TABLES}
        finally:
            await conn.close()
    conn2 = sqlite3.connect(target)
    try:
        return {t: int(conn2.execute(f'SELECT COUNT(*) FROM "{t}"').fetchone()[0]) for t in TABLES}
    finally:
        conn2.close()


async def migrate_store(source: str, target: str) -> TransferReport:
    """Copy every row of ``source`` into the empty ``target`` (each a SQLite path or a
    PostgreSQL URL); see the module's docstring. Raises :class:`StoreError`."""
    import asyncio

    import asyncpg

    from db.store import open_store

    if source == target:
        raise StoreError("the source and the target are the same store")
    for each in (source, target):
        store = await open_store(each)  # created or upgraded to the current schema
        await store.close()
    try:
        if is_postgres_url(source):
            data = await _read_pg(source, TABLES)
        else:
            data = await asyncio.to_thread(_read_sqlite, source, TABLES)
        if is_postgres_url(target):
            await _write_pg(target, data)
        else:
            await asyncio.to_thread(_write_sqlite, target, data)
        counts = await _counts(target)
    except (sqlite3.Error, asyncpg.PostgresError, OSError) as e:
        raise StoreError(f"copy failed: {e}") from e
    expected = {table: len(rows) for table, (_, rows) in data.items()}
    if counts != expected:
        raise StoreError(f"the copy does not match: {counts} rows, expected {expected}")
    return TransferReport(rows=counts)


def migrate_store_main(source: str, target: str) -> int:
    """The command: one line per outcome, exit status 0 or 1."""
    import asyncio
    import sys

    try:
        report = asyncio.run(migrate_store(source, target))
    except StoreError as e:
        print(f"migrate-store: {e}", file=sys.stderr)
        return 1
    games = report.rows.get("games", 0)
    print(f"Copied {report.total} rows ({games} games) from {shown(source)} to {shown(target)}.")
    return 0
