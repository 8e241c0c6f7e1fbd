"""Numbered migrations, backups before migrating, and refusing files that are not ours."""

from __future__ import annotations

import datetime as dt
import os
import sqlite3
from pathlib import Path

import attrs
import pytest

from db.errors import DatabaseUnusable, NotFound, OpenGameExists, StoreError, TableNameTaken
from db.models import PlayerSpec, TableSettings
from db.sqlite import migrations
from db.sqlite.migrations import APPLICATION_ID, LATEST_VERSION, expected_tables, migrate
from db.store import SQLiteStore
from tests.db.conftest import connection_pragma


def _pragma(path: Path, name: str) -> object:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(f"PRAGMA {name}").fetchone()[0]
    finally:
        conn.close()


def _tables(path: Path) -> set[str]:
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        ).fetchall()
        return {r[0] for r in rows}
    finally:
        conn.close()


def _assert_one_line(err: StoreError, path: Path) -> None:
    text = str(err)
    assert "\n" not in text
    assert str(path) in text


async def test_empty_file_is_created_at_latest_version_in_wal_mode(db_path: Path) -> None:
    store = await SQLiteStore.open(db_path)
    await store.close()
    assert _pragma(db_path, "user_version") == LATEST_VERSION
    assert _pragma(db_path, "application_id") == APPLICATION_ID
    assert _pragma(db_path, "application_id").to_bytes(4, "big") == b"MAFA"  # in the header
    assert _pragma(db_path, "journal_mode") == "wal"
    assert _tables(db_path) == set(expected_tables(LATEST_VERSION))
    assert not list(db_path.parent.glob("*.bak-v*"))  # nothing to back up


async def test_zero_length_file_counts_as_empty(db_path: Path) -> None:
    db_path.touch()
    store = await SQLiteStore.open(db_path)
    await store.close()
    assert _pragma(db_path, "user_version") == LATEST_VERSION


async def test_store_sets_foreign_keys_and_busy_timeout(sqlite_store: SQLiteStore) -> None:
    assert await connection_pragma(sqlite_store, "foreign_keys") == 1
    assert await connection_pragma(sqlite_store, "busy_timeout") == migrations.BUSY_TIMEOUT_MS


async def test_reopening_a_current_file_changes_nothing(db_path: Path) -> None:
    store = await SQLiteStore.open(db_path)
    game = await store.create_game(1, seed=1, schedule_kind="forum", timezone="UTC")
    await store.close()
    report = migrate(db_path)
    assert (report.old_version, report.new_version, report.backup) == (
        LATEST_VERSION,
        LATEST_VERSION,
        None,
    )
    store = await SQLiteStore.open(db_path)
    assert await store.get_game(game.id) == game
    await store.close()


def _make_v1_file(path: Path) -> None:
    """A database as version 1 of the bot left it, with a game and a few log entries."""
    assert migrate(path, target=1).new_version == 1
    conn = sqlite3.connect(path)
    with conn:
        conn.execute(
            "INSERT INTO games (id, guild_id, status, seed, schedule_kind, timezone, turn, "
            "phase, deadline, created_at, updated_at) VALUES (1, 42, 'running', 9, 'forum', "
            "'Europe/Moscow', 1, 'day', '2025-03-01T18:00:00.000000+00:00', "
            "'2025-03-01T09:00:00.000000+00:00', '2025-03-01T09:00:00.000000+00:00')"
        )
        conn.execute(
            "INSERT INTO players (game_id, seat, user_id, nick, role) "
            "VALUES (1, 0, 5, 'Anna', 'commissar'), (1, 1, 6, 'Bob', 'mafioso'), "
            "(1, 2, 7, 'Cid', 'villager'), (1, 3, 8, 'Dan', 'villager')"
        )
        for seq, payload in enumerate(
            [
                '{"by":"Anna","do":"post"}',
                '{"by":"Anna","do":"post"}',
                '{"by":"Bob","do":"kill","target":"Anna"}',
                '{"by":"Cid","do":"post"}',
            ],
            start=1,
        ):
            conn.execute(
                "INSERT INTO log_entries (game_id, turn, seq, section, payload, outcome, "
                "user_id, at) VALUES (1, 1, ?, 'requests', ?, 'accepted', 5, "
                "'2025-03-01T10:00:00.000000+00:00')",
                (seq, payload),
            )
    conn.close()


async def test_migrating_from_v1_keeps_data_and_backs_up_first(db_path: Path) -> None:
    _make_v1_file(db_path)
    store = await SQLiteStore.open(db_path)
    try:
        assert _pragma(db_path, "user_version") == LATEST_VERSION
        game = await store.get_game(1)
        assert game is not None and game.guild_id == 42 and game.status == "running"
        assert [p.nick for p in await store.players(1)] == ["Anna", "Bob", "Cid", "Dan"]
        # v1's entries are kept, in order (v19 rebuilt the log's table).
        assert [e.payload.get("by") for e in await store.log_entries(1)] == [
            "Anna",
            "Anna",
            "Bob",
            "Cid",
        ]
        # v2's tables are usable, and seq continues after the old entries.
        entry = await store.add_request(1, 1, "requests", {"by": "Dan", "do": "post"}, 8)
        assert entry.seq == 5
        assert await store.pending_outbox(1) == []
    finally:
        await store.close()
    backup = db_path.with_name(db_path.name + ".bak-v1")
    assert backup.is_file()
    assert _pragma(backup, "user_version") == 1
    assert _tables(backup) == set(expected_tables(1))
    conn = sqlite3.connect(backup)
    assert conn.execute("SELECT COUNT(*) FROM log_entries").fetchone()[0] == 4
    conn.close()


async def test_v3_keeps_older_games_revealing_and_stores_the_hosts_choice(db_path: Path) -> None:
    """Migration 3: ``games.reveal`` (/mafia new reveal) defaults to on for the games of older
    files, ``games.started_at`` is unknown for them; new games keep both."""
    _make_v1_file(db_path)
    assert migrate(db_path, target=2).new_version == 2
    store = await SQLiteStore.open(db_path)
    try:
        old = await store.get_game(1)
        assert old is not None and old.reveal is True and old.started_at is None
        await store.finish_game(1, None)
        hidden = await store.create_game(
            42, seed=1, schedule_kind="fast", timezone="UTC", reveal=False
        )
        assert hidden.reveal is False and hidden.started_at is None
        at = dt.datetime(2026, 1, 1, 12, 0, tzinfo=dt.UTC)
        specs = [PlayerSpec(user_id=i, nick=f"N{i}", role="villager") for i in range(4)]
        started = await store.start_game(hidden.id, specs, deadline=None, started_at=at)
        assert started.reveal is False and started.started_at == at
    finally:
        await store.close()
    store = await SQLiteStore.open(db_path)  # as after a restart
    try:
        assert await store.get_game(hidden.id) == started
    finally:
        await store.close()


async def test_v4_makes_each_configured_server_its_first_table(db_path: Path) -> None:
    """Migration 4 (tables, several games on one server): a server's settings become its first,
    unnamed table keyed by the server's id; its games and audit rows belong to that table; a
    second table of the same server may then hold a game of its own."""
    _make_v1_file(db_path)
    assert migrate(db_path, target=3).new_version == 3
    conn = sqlite3.connect(db_path, isolation_level=None)
    conn.execute(
        "INSERT INTO guild_settings (guild_id, language, category_id, game_channel_id, "
        "host_role_id, updated_at) "
        "VALUES (42, 'en', 500, 501, 77, '2026-01-01T00:00:00.000000+00:00')"
    )
    conn.execute(
        "INSERT INTO audit_log (guild_id, game_id, actor_id, command, args, at) "
        "VALUES (42, 1, 9, 'extend', '{}', '2026-01-01T00:00:00.000000+00:00')"
    )
    conn.close()
    store = await SQLiteStore.open(db_path)
    try:
        (table,) = await store.tables(42)
        assert (table.table_id, table.guild_id, table.name) == (42, 42, "")
        assert (table.language, table.category_id, table.game_channel_id) == ("en", 500, 501)
        assert table.host_role_id == 77 and await store.get_table(42) == table
        game = await store.get_game(1)
        assert game is not None and game.table_id == 42 and await store.open_game(42) == game
        rows, total = await store.audit_page(42, limit=10)
        assert total == 1 and rows[0].table_id == 42
        other = TableSettings(guild_id=42, table_id=600, name="Newcomers", category_id=600)
        await store.save_table(other)
        second = await store.create_game(
            42, seed=1, schedule_kind="fast", timezone="UTC", table_id=600
        )
        assert second.table_id == 600 and second.guild_id == 42
        assert await store.open_game(600) == second and await store.open_game(42) == game
        with pytest.raises(OpenGameExists):
            await store.create_game(42, seed=2, schedule_kind="fast", timezone="UTC", table_id=600)
        with pytest.raises(TableNameTaken):
            await store.save_table(attrs.evolve(other, table_id=700, name="newcomers"))
        assert [t.name for t in await store.tables(42)] == ["", "Newcomers"]
    finally:
        await store.close()


async def test_v5_keeps_the_public_posts_of_a_game_for_its_archive(db_path: Path) -> None:
    """Migration 5: ``posts`` keeps every public post of #game (a living player's and a
    ghost's, R36) in publication order; older games simply have none, and deleting a game
    deletes its posts."""
    _make_v1_file(db_path)
    assert migrate(db_path, target=4).new_version == 4
    store = await SQLiteStore.open(db_path)
    try:
        assert _pragma(db_path, "user_version") == LATEST_VERSION >= 5
        assert await store.posts(1) == []
        at = dt.datetime(2026, 1, 1, 12, 0, tzinfo=dt.UTC)
        first = await store.add_post(1, 1, "Anna", "<b>Hello</b>", at=at)
        ghost = await store.add_post(1, 2, "Bob", "Boo.", ghost=True, at=at)
        assert (first.turn, first.nick, first.text, first.ghost, first.at) == (
            1,
            "Anna",
            "<b>Hello</b>",
            False,
            at,
        )
        assert await store.posts(1) == [first, ghost] and ghost.id > first.id
        with pytest.raises(NotFound):
            await store.add_post(99, 1, "Anna", "Hi")
        with pytest.raises(ValueError):
            await store.add_post(1, 1, "Anna", "Hi", at=dt.datetime(2026, 1, 1))
    finally:
        await store.close()
    assert db_path.with_name(db_path.name + ".bak-v4").is_file()
    conn = sqlite3.connect(db_path, isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("DELETE FROM games WHERE id = 1")
    assert conn.execute("SELECT COUNT(*) FROM posts").fetchone()[0] == 0
    conn.close()


def test_an_existing_backup_is_never_overwritten(db_path: Path) -> None:
    _make_v1_file(db_path)
    old = db_path.with_name(db_path.name + ".bak-v1")
    old.write_bytes(b"an older backup")
    report = migrate(db_path)
    assert report.backup is not None and report.backup != old
    assert report.backup.name.startswith(db_path.name + ".bak-v1-")
    assert old.read_bytes() == b"an older backup"
    assert _pragma(report.backup, "user_version") == 1


def test_a_failing_migration_leaves_the_file_unchanged(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    migrate(db_path)
    broken = "CREATE TABLE half_done (x INTEGER); INSERT INTO no_such_table VALUES (1);"
    monkeypatch.setattr(migrations, "MIGRATIONS", (*migrations.MIGRATIONS, broken))
    monkeypatch.setattr(migrations, "LATEST_VERSION", LATEST_VERSION + 1)
    with pytest.raises(DatabaseUnusable, match="unchanged") as info:
        migrate(db_path)
    _assert_one_line(info.value, db_path)
    assert _pragma(db_path, "user_version") == LATEST_VERSION
    assert "half_done" not in _tables(db_path)


async def test_a_file_that_is_not_sqlite_is_refused(db_path: Path) -> None:
    db_path.write_bytes(os.urandom(4096))
    with pytest.raises(DatabaseUnusable, match="not a SQLite database") as info:
        await SQLiteStore.open(db_path)
    _assert_one_line(info.value, db_path)


async def test_a_text_file_is_refused_and_left_alone(db_path: Path) -> None:
    db_path.write_text("players:\n  - Anna\n", encoding="utf-8")
    with pytest.raises(StoreError):
        await SQLiteStore.open(db_path)
    assert db_path.read_text(encoding="utf-8") == "players:\n  - Anna\n"


async def test_a_damaged_sqlite_file_is_refused(db_path: Path) -> None:
    store = await SQLiteStore.open(db_path)
    game = await store.create_game(1, seed=1, schedule_kind="forum", timezone="UTC")
    for i in range(300):
        await store.add_outbox(game.id, 0, [])
        await store.add_audit(1, game.id, 5, "state", {"i": i, "pad": "x" * 200})
    await store.close()
    assert migrate(db_path).new_version == LATEST_VERSION  # checkpointed, WAL gone
    data = bytearray(db_path.read_bytes())
    page = 4096
    assert len(data) > 4 * page
    data[page : len(data)] = os.urandom(len(data) - page)  # keep the header, trash the rest
    db_path.write_bytes(bytes(data))
    with pytest.raises(DatabaseUnusable, match="damaged") as info:
        await SQLiteStore.open(db_path)
    _assert_one_line(info.value, db_path)


async def test_another_programs_sqlite_database_is_refused(db_path: Path) -> None:
    conn = sqlite3.connect(db_path)
    conn.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)")
    conn.commit()
    conn.close()
    with pytest.raises(DatabaseUnusable, match="unknown tables: users") as info:
        await SQLiteStore.open(db_path)
    _assert_one_line(info.value, db_path)
    assert _tables(db_path) == {"users"}  # untouched


async def test_a_foreign_application_id_is_refused(db_path: Path) -> None:
    conn = sqlite3.connect(db_path)
    conn.execute("PRAGMA application_id = 1234")
    conn.commit()
    conn.close()
    with pytest.raises(DatabaseUnusable, match="another program"):
        await SQLiteStore.open(db_path)


async def test_our_database_with_an_unknown_table_is_refused(db_path: Path) -> None:
    migrate(db_path)
    conn = sqlite3.connect(db_path)
    conn.execute("CREATE TABLE stranger (x)")
    conn.commit()
    conn.close()
    with pytest.raises(DatabaseUnusable, match="stranger"):
        await SQLiteStore.open(db_path)


async def test_a_database_with_a_missing_table_is_refused(db_path: Path) -> None:
    migrate(db_path)
    conn = sqlite3.connect(db_path)
    conn.execute("DROP TABLE audit_log")
    conn.commit()
    conn.close()
    with pytest.raises(DatabaseUnusable, match="missing tables: audit_log"):
        await SQLiteStore.open(db_path)


async def test_a_newer_schema_is_refused_without_touching_it(db_path: Path) -> None:
    migrate(db_path)
    conn = sqlite3.connect(db_path)
    conn.execute(f"PRAGMA user_version = {LATEST_VERSION + 1}")
    conn.commit()
    conn.close()
    before = db_path.read_bytes()
    with pytest.raises(DatabaseUnusable, match="newer") as info:
        await SQLiteStore.open(db_path)
    _assert_one_line(info.value, db_path)
    assert db_path.read_bytes() == before
    assert not list(db_path.parent.glob("*.bak-v*"))


async def test_a_missing_directory_gives_a_store_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="cannot open"):
        await SQLiteStore.open(tmp_path / "no" / "such" / "dir" / "mafia.db")


def test_processes_opening_a_new_file_at_once_migrate_it_once(tmp_path: Path) -> None:
    """Shards: several processes start on one new file at the same moment. Each
    reads the version again under the write lock, so the second finds the work done instead
    of failing on "table games already exists"."""
    import concurrent.futures
    import threading

    path = tmp_path / "shared.db"
    start = threading.Barrier(4)

    def open_it() -> int:
        start.wait()
        return migrations.migrate(path).new_version

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        versions = list(pool.map(lambda _: open_it(), range(4)))
    assert versions == [migrations.LATEST_VERSION] * 4
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == migrations.LATEST_VERSION
    finally:
        conn.close()


def test_a_new_file_another_process_is_writing_is_waited_for(tmp_path: Path) -> None:
    """A new file is in rollback-journal mode until its first opener switches it to WAL;
    while another process holds its write lock (creating the tables), switching answers
    "database is locked" at once instead of waiting: migrate tries again until the busy
    timeout has passed, so shards starting together on one new file all start."""
    import threading

    path = tmp_path / "shared.db"
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")  # the other process, in the middle of creating tables
    other.execute("CREATE TABLE creating (a INTEGER)")
    release = threading.Timer(0.3, lambda: other.execute("ROLLBACK"))
    release.start()
    try:
        report = migrations.migrate(path)
    finally:
        release.join()
        other.close()
    assert report.new_version == migrations.LATEST_VERSION
