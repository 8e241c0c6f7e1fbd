"""What a database's schema is, as plain data, on both engines: the baseline that
``tests/db/test_schema.py`` compares every migrated database with (``schema_snapshot.json``).

- SQLite: ``PRAGMA user_version`` and ``application_id``, and every row of ``sqlite_schema``
  (type, name, table, SQL text) in its own order;
- PostgreSQL: the ``schema_version`` row, the tables, every column as
  ``information_schema.columns`` describes it, every constraint as ``pg_get_constraintdef``
  prints it, every index as ``pg_indexes`` prints it, and the sequences.

The snapshot file is written once per version, by the code that introduced that version, and
never rewritten: ``python -m tests.db.schema_dump`` adds the versions it does not hold yet
(a new migration's) and leaves the others as they are.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import Any

SNAPSHOT_PATH = Path(__file__).with_name("schema_snapshot.json")

#: A schema as one flat mapping: ``"category:key"`` (``objects:table games``,
#: ``columns:games.turn``) to what the database says of it.
Schema = dict[str, Any]


def sqlite_schema(path: Path) -> Schema:
    conn = sqlite3.connect(path)
    try:
        found: Schema = {
            "pragma:user_version": conn.execute("PRAGMA user_version").fetchone()[0],
            "pragma:application_id": conn.execute("PRAGMA application_id").fetchone()[0],
        }
        for kind, name, table, sql in conn.execute(
            "SELECT type, name, tbl_name, sql FROM sqlite_schema"
        ):
            found[f"objects:{kind} {name}"] = [table, sql]
        return found
    finally:
        conn.close()


async def postgres_schema(conn: Any) -> Schema:
    """``conn``: an asyncpg connection whose current schema holds the tables."""
    schema = await conn.fetchval("SELECT current_schema()")

    def local(value: Any) -> Any:
        # pg_indexes names the schema (a fresh one per test): the snapshot does not.
        return value.replace(f"{schema}.", "") if isinstance(value, str) else value

    found: Schema = {}

    async def add(category: str, sql: str, keys: int = 1) -> None:
        for record in await conn.fetch(sql):
            row = [local(v) for v in record]
            found[f"{category}:{'.'.join(row[:keys])}"] = row[keys:]

    await add(
        "tables",
        "SELECT tablename::text, true FROM pg_catalog.pg_tables "
        "WHERE schemaname = current_schema()",
    )
    if "tables:schema_version" in found:
        await add("schema_version", "SELECT app, version FROM schema_version")
    await add(
        "columns",
        "SELECT table_name::text, column_name::text, ordinal_position::int, data_type::text, "
        "udt_name::text, column_default::text, is_nullable::text, is_identity::text, "
        "identity_generation::text, identity_start::text, identity_increment::text, "
        "is_generated::text, generation_expression::text, collation_name::text "
        "FROM information_schema.columns WHERE table_schema = current_schema()",
        keys=2,
    )
    await add(
        "constraints",
        "SELECT t.relname::text, c.conname::text, c.contype::text, "
        "pg_catalog.pg_get_constraintdef(c.oid, true) "
        "FROM pg_catalog.pg_constraint c JOIN pg_catalog.pg_class t ON t.oid = c.conrelid "
        "WHERE c.connamespace = current_schema()::regnamespace",
        keys=2,
    )
    await add(
        "indexes",
        "SELECT tablename::text, indexname::text, indexdef FROM pg_catalog.pg_indexes "
        "WHERE schemaname = current_schema()",
        keys=2,
    )
    await add(
        "sequences",
        "SELECT sequence_name::text, data_type::text, start_value::text, increment::text "
        "FROM information_schema.sequences WHERE sequence_schema = current_schema()",
    )
    return found


def sqlite_at(version: int) -> Schema:
    """The schema of a new SQLite file migrated to ``version`` by this build."""
    from db.sqlite import migrations

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "mafia.db"
        migrations.migrate(path, target=version)
        return sqlite_schema(path)


async def postgres_at(url: str, version: int) -> Schema:
    """The schema of the empty schema behind ``url`` migrated to ``version`` by this build."""
    import asyncpg

    from db.postgres import migrations

    conn: Any = await asyncpg.connect(url)
    try:
        await migrations.migrate(conn, "snapshot", target=version)
        return await postgres_schema(conn)
    finally:
        await conn.close()


ENGINES = ("sqlite", "postgres")

#: The file: per engine and version, what that version's migration changed: ``set``, the
#: entries it added or changed (with their new value), ``drop``, the keys it removed.
Snapshot = dict[str, dict[str, dict[str, Any]]]


def load() -> Snapshot:
    data: Snapshot = json.loads(SNAPSHOT_PATH.read_text(encoding="utf-8"))
    return data


def expected(snapshot: Snapshot, engine: str, version: int) -> Schema:
    """The whole schema of ``version`` on ``engine``: the changes of versions 1..version
    applied in turn."""
    schema: Schema = {}
    for v in range(1, version + 1):
        step = snapshot[engine][str(v)]
        for key in step["drop"]:
            del schema[key]
        schema.update(step["set"])
    return schema


def delta(before: Schema, after: Schema) -> dict[str, Any]:
    return {
        "drop": sorted(k for k in before if k not in after),
        "set": {k: v for k, v in sorted(after.items()) if k not in before or before[k] != v},
    }


def _write(data: Snapshot) -> None:
    """One entry a line, so that a diff of the file reads as a diff of the schema."""
    out = ["{"]
    for e, engine in enumerate(ENGINES):
        out.append(f" {json.dumps(engine)}: {{")
        versions = sorted(data[engine], key=int)
        for i, version in enumerate(versions):
            step = data[engine][version]
            out.append(f"  {json.dumps(version)}: {{")
            out.append(f'   "drop": {json.dumps(step["drop"], ensure_ascii=False)},')
            out.append('   "set": {')
            items = list(step["set"].items())
            for j, (key, value) in enumerate(items):
                comma = "," if j < len(items) - 1 else ""
                line = f"{json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}"
                out.append(f"    {line}{comma}")
            out.append("   }")
            out.append("  }" + ("," if i < len(versions) - 1 else ""))
        out.append(" }" + ("," if e < len(ENGINES) - 1 else ""))
    out.append("}")
    SNAPSHOT_PATH.write_text("\n".join(out) + "\n", encoding="utf-8")


def add_missing_versions() -> list[int]:
    """Snapshot, with this build, every version the file does not hold yet (on both
    engines); return them. The versions it holds are never rewritten."""
    from db.sqlite import migrations
    from tests import pgserver

    data: Snapshot = load() if SNAPSHOT_PATH.exists() else {e: {} for e in ENGINES}
    added = []
    for version in range(1, migrations.LATEST_VERSION + 1):
        key = str(version)
        if all(key in data[e] for e in ENGINES):
            continue
        now = {
            "sqlite": sqlite_at(version),
            "postgres": asyncio.run(postgres_at(pgserver.fresh_url(), version)),
        }
        for engine in ENGINES:
            data[engine][key] = delta(expected(data, engine, version - 1), now[engine])
        added.append(version)
    _write(data)
    return added


if __name__ == "__main__":
    print("added versions:", add_missing_versions() or "none", file=sys.stderr)
