"""The PostgreSQL runner of the numbered schema migrations: the SAME versions as SQLite's
(:mod:`db.sqlite.migrations`), read from the one list :data:`db.schema.VERSIONS` where each version
holds both engines' DDL side by side; tracked in the ``schema_version`` table (created by
migration 1). The types each engine uses are described in :mod:`db.schema`.

Every pending migration runs in ONE transaction (PostgreSQL DDL is transactional) under
``pg_advisory_xact_lock(ADVISORY_LOCK)``: two processes opening one database at once migrate
it once, the second waiting for the first and then finding nothing to do. The schema is
recognised as ours by the ``schema_version`` row (``app = 'forum-mafia'``) and by its tables:
a schema holding other tables and no marker, or a newer version, raises
:class:`db.errors.DatabaseUnusable` with a one-line message. No backup copy is taken: use
``pg_dump`` (docs/STORAGE.md).
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING, Final

from db.errors import DatabaseUnusable
from db.schema import VERSIONS
from db.schema.migration import check_tables, check_version, goal_version

if TYPE_CHECKING:
    from db.postgres.base import Conn

#: The marker of the ``schema_version`` row.
APP: Final = "forum-mafia"

#: The key of the advisory lock taken by a migration ('MAFA' in ASCII, as SQLite's
#: application_id): database-wide, so opens of any schema of one database take turns.
ADVISORY_LOCK: Final = 0x4D414641

#: The PostgreSQL DDL of every version, in order (``MIGRATIONS[i]`` takes a schema from
#: version ``i`` to ``i + 1``): read from the one list of versions, :data:`db.schema.VERSIONS`.
MIGRATIONS: tuple[str, ...] = tuple(m.postgres for m in VERSIONS)
LATEST_VERSION = len(MIGRATIONS)

_CREATED = re.compile(r"^CREATE TABLE (\w+)", re.MULTILINE)
_DROPPED = re.compile(r"^DROP TABLE (\w+)", re.MULTILINE)


@cache
def expected_tables(version: int) -> frozenset[str]:
    """The tables a schema of ``version`` holds (read from the migrations' text)."""
    tables: set[str] = set()
    for script in MIGRATIONS[:version]:
        tables |= set(_CREATED.findall(script))
        tables -= set(_DROPPED.findall(script))
    return frozenset(tables)


async def _tables(conn: Conn) -> frozenset[str]:
    rows = await conn.fetch(
        "SELECT tablename FROM pg_catalog.pg_tables WHERE schemaname = current_schema()"
    )
    return frozenset(str(r["tablename"]) for r in rows)


async def inspect_schema(conn: Conn, where: str) -> int:
    """Check that the schema of ``conn`` (the first of its ``search_path``) is empty or ours;
    return its version (0: empty)."""
    if await conn.fetchval("SELECT current_schema()") is None:
        raise DatabaseUnusable(f"{where}: no schema to work in (check the search_path)")
    tables = await _tables(conn)
    if "schema_version" not in tables:
        if tables:
            raise DatabaseUnusable(
                f"{where}: not a forum-mafia database "
                f"(unknown tables: {', '.join(sorted(tables)[:5])})"
            )
        return 0
    row = await conn.fetchrow("SELECT app, version FROM schema_version")
    if row is None or row["app"] != APP:
        raise DatabaseUnusable(f"{where}: not a forum-mafia database (no schema marker)")
    version = int(row["version"])
    check_version(where, version, LATEST_VERSION, "restore a dump")
    check_tables(where, tables, expected_tables(version))
    return version


async def migrate(conn: Conn, where: str, target: int | None = None) -> tuple[int, int]:
    """Create or upgrade the schema of ``conn`` to ``target`` (default: the latest version),
    in one transaction under the advisory lock. Returns (old version, new version)."""
    goal = goal_version(target, LATEST_VERSION)
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", ADVISORY_LOCK)
        version = await inspect_schema(conn, where)
        if version > goal:
            raise ValueError(f"{where}: already at version {version}, above {goal}")
        if version == goal:
            return version, version
        for script in MIGRATIONS[version:goal]:
            await conn.execute(script)
        await conn.execute("UPDATE schema_version SET version = $1", goal)
    return version, goal
