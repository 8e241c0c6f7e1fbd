"""``main.py health`` and ``main.py backup`` on real stores (SQLite files and a PostgreSQL
server): the probe's verdict and its read-only open; a copy taken while the store is in use
exports exactly what the store exported at that moment; ``--keep``; pg_dump's password."""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import shutil
import sqlite3
import subprocess
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from core.health import health_main, judge, probe
from db.backup import COPY_NAME, backup, backup_main, copy_name, pg_dump_command, prune
from db.errors import BackupError
from db.interface import GameStore
from db.models import OutboxItem
from db.store import open_store
from db.urls import is_postgres_url
from tests.db.conftest import running_game

T = dt.datetime(2026, 12, 2, 18, 0, tzinfo=dt.UTC)


async def _scripts(store: GameStore) -> list[object]:
    """Everything the store exports: every game's script, in order."""
    latest = await store.latest_game()
    if latest is None:
        return []
    out = []
    for game_id in range(1, latest.id + 1):
        if await store.get_game(game_id) is not None:
            out.append(await store.load_script(game_id))
    return out


# --- health ---------------------------------------------------------------------------------


def test_the_verdict_on_the_newest_beat() -> None:
    assert not judge(None, T, 90).ok
    assert "no bot has ever beaten" in judge(None, T, 90).line
    fresh = judge(T - dt.timedelta(seconds=31), T, 90)
    assert fresh.ok and fresh.line == "healthy: the last beat was 31 s ago"
    stale = judge(T - dt.timedelta(minutes=5), T, 90)
    assert not stale.ok and stale.line == "unhealthy: the last beat was 5 min ago (over 90 s)"
    assert not judge(T + dt.timedelta(minutes=5), T, 90).ok  # the clocks disagree
    # A bot serving forum days beats every ten minutes: fresh until one and a half of that.
    assert judge(T - dt.timedelta(minutes=14), T, 90, pace=600).ok
    late = judge(T - dt.timedelta(minutes=16), T, 90, pace=600)
    assert not late.ok and late.line == "unhealthy: the last beat was 16 min ago (over 15 min)"


async def test_R59_health_reads_the_heartbeat_of_the_store(
    store: GameStore, target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    game_id = await running_game(store)
    assert not (await probe(target, T, 90)).ok  # no beat yet
    await store.beat("all", T, [game_id], gap=dt.timedelta(seconds=90), cause="down")
    await store.beat(
        "shards:2:1", T + dt.timedelta(seconds=30), [], gap=dt.timedelta(seconds=90), cause="down"
    )
    assert (await probe(target, T + dt.timedelta(seconds=100), 90)).ok  # the newest of any
    verdict = await probe(target, T + dt.timedelta(seconds=200), 90)
    assert not verdict.ok and "3 min ago" in verdict.line


def test_health_exits_0_or_1_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "store.db"

    async def beat() -> None:
        store = await open_store(path)
        try:
            await store.beat("all", T, [], gap=dt.timedelta(seconds=90), cause="down")
        finally:
            await store.close()

    asyncio.run(beat())
    size = path.stat().st_size
    assert health_main(path, 90, now=T + dt.timedelta(seconds=10)) == 0
    assert capsys.readouterr().out == "healthy: the last beat was 10 s ago\n"
    # No game runs: the bot beats every ten minutes, so a beat is stale after fifteen.
    assert health_main(path, 60, now=T + dt.timedelta(seconds=600)) == 0
    assert capsys.readouterr().out == "healthy: the last beat was 10 min ago\n"
    assert health_main(path, 60, now=T + dt.timedelta(seconds=901)) == 1
    assert capsys.readouterr().out.startswith("unhealthy: the last beat was 15 min ago")
    assert path.stat().st_size == size  # read-only: nothing written
    missing = tmp_path / "none.db"
    assert health_main(missing, 90, now=T) == 1
    out = capsys.readouterr().out
    assert out.startswith("unhealthy: cannot read the store") and out.count("\n") == 1
    assert not missing.exists()  # never created


# --- backup ---------------------------------------------------------------------------------


def test_copies_are_named_by_time_and_pruned_oldest_first(tmp_path: Path) -> None:
    assert copy_name(T, ".sqlite3", set()) == "mafia-20261202T180000Z.sqlite3"
    assert copy_name(T, ".sqlite3", {"mafia-20261202T180000Z.sqlite3"}) == (
        "mafia-20261202T180000Z-2.sqlite3"
    )
    for minutes in range(5):
        name = copy_name(T + dt.timedelta(minutes=minutes), ".sqlite3", set())
        assert COPY_NAME.match(name)
        (tmp_path / name).write_bytes(b"x")
    (tmp_path / "notes.txt").write_text("mine")  # not a copy: never removed
    removed = prune(tmp_path, 3)
    assert [p.name for p in removed] == [
        "mafia-20261202T180000Z.sqlite3",
        "mafia-20261202T180100Z.sqlite3",
    ]
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "mafia-20261202T180200Z.sqlite3",
        "mafia-20261202T180300Z.sqlite3",
        "mafia-20261202T180400Z.sqlite3",
        "notes.txt",
    ]


async def test_a_copy_of_a_store_in_use_exports_what_the_store_exported(
    store: GameStore, target: str, tmp_path: Path
) -> None:
    if is_postgres_url(target) and shutil.which("pg_dump") is None:
        pytest.fail("pg_dump is needed for the PostgreSQL backup (postgresql-client)")
    game_id = await running_game(store)
    await store.add_outbox(game_id, 1, [OutboxItem("results", {"audience": "public", "turn": 1})])
    before = await _scripts(store)
    # The store stays open (the bot runs) while the copy is taken.
    copy = await asyncio.to_thread(backup, target, tmp_path / "copies", at=T, keep=2)
    assert COPY_NAME.match(copy.name)
    assert [p.name for p in (tmp_path / "copies").iterdir()] == [copy.name]  # no partial left
    restored = await _restore(target, copy, tmp_path)
    copied = await open_store(restored, read_only=True)
    try:
        assert await _scripts(copied) == before
    finally:
        await copied.close()


def test_a_copy_taken_while_a_writer_commits_is_one_consistent_state(tmp_path: Path) -> None:
    """SQLite's online backup in one step: whatever the writer commits meanwhile, the copy
    holds whole transactions only (here: pairs of rows written together)."""
    path = tmp_path / "live.db"
    writer = sqlite3.connect(path, check_same_thread=False)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("CREATE TABLE pairs (n INTEGER, half INTEGER)")
    writer.commit()
    stop = threading.Event()
    written = [0]

    def write() -> None:
        while not stop.is_set() and written[0] < 20000:
            n = written[0]
            with writer:
                writer.execute("INSERT INTO pairs VALUES (?, 0)", (n,))
                writer.execute("INSERT INTO pairs VALUES (?, 1)", (n,))
            written[0] = n + 1

    thread = threading.Thread(target=write)
    thread.start()
    try:
        while written[0] < 50:  # the writer is under way
            stop.wait(0.001)
        copies = [backup(path, tmp_path / "b", at=T + dt.timedelta(seconds=i)) for i in range(3)]
    finally:
        stop.set()
        thread.join()
        writer.close()
    for copy in copies:
        conn = sqlite3.connect(copy)
        try:
            counts = conn.execute("SELECT n, COUNT(*) FROM pairs GROUP BY n").fetchall()
            assert counts and all(c == 2 for _, c in counts)
            numbers = [n for n, _ in counts]
            assert numbers == list(range(len(numbers)))  # a prefix of the commits
        finally:
            conn.close()


def test_backup_refuses_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert backup_main(tmp_path / "none.db", str(tmp_path / "b"), at=T, keep=None) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no database file" in err
    with pytest.raises(BackupError, match="pg_dump is not installed"):
        old = os.environ.get("PATH", "")
        os.environ["PATH"] = str(tmp_path)  # no pg_dump here
        try:
            backup("postgresql://u:pw@localhost/db", tmp_path / "b", at=T)
        finally:
            os.environ["PATH"] = old


def test_pg_dump_gets_the_password_in_its_environment_only(tmp_path: Path) -> None:
    url = "PostgreSQL://mafia:s3cret-pw@db.example:5433/mafia?search_path=t1&sslmode=require"
    command, env = pg_dump_command(url, tmp_path / "x.pgdump")
    assert not any("s3cret-pw" in part for part in command)
    assert env["PGPASSWORD"] == "s3cret-pw"
    assert "--schema=t1" in command
    dsn = command[-1]
    assert dsn == "postgresql://mafia@db.example:5433/mafia?sslmode=require"


async def _restore(target: str, copy: Path, tmp_path: Path) -> str:
    """Where the copy can be opened as a store: the SQLite copy itself, or a new PostgreSQL
    database restored from the dump by pg_restore (README's restore)."""
    if not is_postgres_url(target):
        return str(copy)
    import asyncpg

    parts = urlsplit(target)
    name = f"restored_{os.getpid()}_{copy.stat().st_ino}"
    admin = parts._replace(query="").geturl()
    conn = await asyncpg.connect(admin)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    new = parts._replace(path=f"/{name}")
    plain = new._replace(query="").geturl()
    await asyncio.to_thread(
        subprocess.run,
        ["pg_restore", "--no-owner", "-d", plain, str(copy)],
        check=True,
        capture_output=True,
    )
    return new.geturl()
