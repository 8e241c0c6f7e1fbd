"""The schema both engines build, version by version, is exactly the one recorded in
``schema_snapshot.json`` (written by the code that introduced each version, never rewritten:
see tests/db/schema_dump.py): every table's SQL text on SQLite, every column, constraint,
index and sequence on PostgreSQL. A database migrated step by step from an older version ends
with the same schema as a new one."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from db import migrations
from db.postgres import migrations as pg_migrations
from tests import pgserver
from tests.db import schema_dump

VERSIONS = range(1, migrations.LATEST_VERSION + 1)


@pytest.fixture(scope="module")
def snapshot() -> schema_dump.Snapshot:
    return schema_dump.load()


def test_the_snapshot_holds_every_version_of_both_engines(
    snapshot: schema_dump.Snapshot,
) -> None:
    """A new migration comes with its snapshot (``python -m tests.db.schema_dump``)."""
    for engine in schema_dump.ENGINES:
        assert sorted(snapshot[engine], key=int) == [str(v) for v in VERSIONS], engine


@pytest.mark.parametrize("version", VERSIONS)
def test_sqlite_builds_the_recorded_schema(snapshot: schema_dump.Snapshot, version: int) -> None:
    assert schema_dump.sqlite_at(version) == schema_dump.expected(snapshot, "sqlite", version)


@pytest.mark.parametrize("version", VERSIONS)
async def test_postgres_builds_the_recorded_schema(
    snapshot: schema_dump.Snapshot, version: int
) -> None:
    got = await schema_dump.postgres_at(pgserver.fresh_url(), version)
    assert got == schema_dump.expected(snapshot, "postgres", version)


def test_sqlite_upgraded_from_any_version_ends_with_the_latest_schema(
    snapshot: schema_dump.Snapshot, tmp_path: Path
) -> None:
    latest = schema_dump.expected(snapshot, "sqlite", migrations.LATEST_VERSION)
    for version in VERSIONS:
        path = tmp_path / f"v{version}.db"
        migrations.migrate(path, target=version)
        assert migrations.migrate(path).old_version == version
        assert schema_dump.sqlite_schema(path) == latest, version


async def test_postgres_upgraded_from_any_version_ends_with_the_latest_schema(
    snapshot: schema_dump.Snapshot,
) -> None:
    latest = schema_dump.expected(snapshot, "postgres", pg_migrations.LATEST_VERSION)
    for version in VERSIONS:
        conn: Any = await asyncpg.connect(pgserver.fresh_url())
        try:
            assert await pg_migrations.migrate(conn, "test", target=version) == (0, version)
            assert (await pg_migrations.migrate(conn, "test"))[0] == version
            assert await schema_dump.postgres_schema(conn) == latest, version
        finally:
            await conn.close()


def test_a_changed_schema_differs_from_the_snapshot(
    snapshot: schema_dump.Snapshot, tmp_path: Path
) -> None:
    """The comparison is live: it sees a change as small as one nullable column."""
    path = tmp_path / "mafia.db"
    migrations.migrate(path)
    conn = sqlite3.connect(path)
    conn.execute("ALTER TABLE reviews ADD COLUMN extra TEXT")
    conn.commit()
    conn.close()
    latest = schema_dump.expected(snapshot, "sqlite", migrations.LATEST_VERSION)
    assert schema_dump.sqlite_schema(path) != latest
