"""The one list of migrations (db/schema/: a module per version, both engines' DDL side by
side) is complete and numbered without gaps, and both runners read it.

The schema both engines build, version by version, is exactly the one recorded in
``schema_snapshot.json`` (written by the code that introduced each version, never rewritten:
see tests/db/schema_dump.py): every table's SQL text on SQLite, every column, constraint,
index and sequence on PostgreSQL. A database migrated step by step from an older version ends
with the same schema as a new one."""

from __future__ import annotations

import importlib
import sqlite3
from pathlib import Path
from typing import Any

import asyncpg
import pytest

import db.schema
from db.postgres import migrations as pg_migrations
from db.schema import VERSIONS as SCHEMA_VERSIONS
from db.sqlite import migrations
from tests import pgserver
from tests.db import schema_dump

VERSIONS = range(1, migrations.LATEST_VERSION + 1)


SCHEMA_DIR = Path(db.schema.__file__).parent


def test_versions_are_numbered_from_1_without_gaps() -> None:
    assert [m.number for m in SCHEMA_VERSIONS] == list(range(1, len(SCHEMA_VERSIONS) + 1))
    assert db.schema.LATEST_VERSION == len(SCHEMA_VERSIONS) == SCHEMA_VERSIONS[-1].number


def test_every_version_module_is_in_the_list_under_its_own_number() -> None:
    """``db/schema/vNN_<what>.py`` holds version NN, and every such module is listed: a
    module written but not appended to ``VERSIONS`` would never run."""
    files = sorted(SCHEMA_DIR.glob("v[0-9][0-9]_*.py"))
    assert [int(f.name[1:3]) for f in files] == [m.number for m in SCHEMA_VERSIONS]
    for file, migration in zip(files, SCHEMA_VERSIONS, strict=True):
        module = importlib.import_module(f"db.schema.{file.stem}")
        assert module.MIGRATION is migration, file.name
        assert (migration.sqlite, migration.postgres) == (module.SQLITE, module.POSTGRES)


def _code(ddl: str) -> list[str]:
    return [ln for ln in ddl.splitlines() if ln.strip() and not ln.strip().startswith("--")]


@pytest.mark.parametrize("migration", SCHEMA_VERSIONS, ids=lambda m: f"v{m.number}")
def test_every_version_has_both_engines_ddl_and_a_purpose(migration: db.schema.Migration) -> None:
    """Both engines' DDL is there and ends its last statement; SQLite's splits into complete
    statements (the runner executes them one by one). Only a number reserved for a change
    landing elsewhere (its purpose says so) changes nothing: it holds comments on SQLite and
    no more than a no-op statement on PostgreSQL."""
    assert migration.purpose.strip() and "\n" not in migration.purpose
    statements = migrations._statements(migration.sqlite)
    if migration.purpose.startswith("reserved:"):
        assert statements == [] and _code(migration.postgres) in ([], ["SELECT 1;"])
        return
    assert statements
    for ddl in (migration.sqlite, migration.postgres):
        code = _code(ddl)
        assert code and code[-1].rstrip().endswith(";")


def test_both_runners_read_the_one_list() -> None:
    assert tuple(m.sqlite for m in SCHEMA_VERSIONS) == migrations.MIGRATIONS
    assert tuple(m.postgres for m in SCHEMA_VERSIONS) == pg_migrations.MIGRATIONS
    assert migrations.LATEST_VERSION == pg_migrations.LATEST_VERSION == db.schema.LATEST_VERSION


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
