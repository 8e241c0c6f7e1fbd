"""What only the PostgreSQL store has to prove: its migrations (once, under a lock,
refusing a schema that is not ours), exactly-once across processes (two stores on one
database appending and resolving at once), the read-only mode, a server that goes away, and
the values as PostgreSQL keeps them. A real server (tests/pgserver.py), a schema per test; the
engine-neutral behaviour is tested on both engines by the other tests of tests/db."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
from collections.abc import AsyncIterator
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

from db.errors import DatabaseUnusable, StaleGame, StoreError
from db.models import Fence, OutboxItem, PlayerSpec
from db.postgres import PostgresStore, migrations
from db.sqlite import migrations as sqlite_migrations
from db.store import open_store
from tests import pgserver

from .conftest import T0, running_game

NEXT = T0 + dt.timedelta(days=1)


@pytest.fixture
def url() -> str:
    """A fresh, empty schema of the test server."""
    return pgserver.fresh_url()


async def _fetch(url: str, sql: str, *args: object) -> list[asyncpg.Record]:
    conn = await asyncpg.connect(url)
    try:
        return list(await conn.fetch(sql, *args))
    finally:
        await conn.close()


async def _tables(url: str) -> set[str]:
    rows = await _fetch(url, "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
    return {r["tablename"] for r in rows}


# --- migrations ----------------------------------------------------------------------------------


def test_both_engines_have_the_same_numbered_migrations() -> None:
    assert migrations.LATEST_VERSION == sqlite_migrations.LATEST_VERSION
    assert len(migrations.MIGRATIONS) == len(sqlite_migrations.MIGRATIONS)
    # The same tables at every version (SQLite's built in memory; ours read from the text),
    # plus our version marker.
    for version in range(1, migrations.LATEST_VERSION + 1):
        assert migrations.expected_tables(version) == (
            sqlite_migrations.expected_tables(version) | {"schema_version"}
        ), version


async def test_a_fresh_schema_migrates_to_the_latest_version(url: str) -> None:
    async with await PostgresStore.open(url):
        pass
    [row] = await _fetch(url, "SELECT app, version FROM schema_version")
    assert (row["app"], row["version"]) == ("forum-mafia", migrations.LATEST_VERSION)
    assert await _tables(url) == migrations.expected_tables(migrations.LATEST_VERSION)
    # The invariants the schema carries: one open game per table, a seq once per game.
    indexes = {r["indexname"] for r in await _fetch(url, "SELECT indexname FROM pg_indexes")}
    assert {"games_one_open_per_table", "log_entries_game_id_seq_key", "players_nick"} <= indexes


async def test_a_second_open_changes_nothing(url: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="db.postgres.base")
    async with await PostgresStore.open(url) as store:
        game_id = await running_game(store)
    assert [r.message for r in caplog.records if "migrated" in r.message] != []
    caplog.clear()
    async with await PostgresStore.open(url) as again:
        assert [p.nick for p in await again.players(game_id)][:2] == ["Anna", "Bob"]
    assert [r.message for r in caplog.records if "migrated" in r.message] == []
    [row] = await _fetch(url, "SELECT version FROM schema_version")
    assert row["version"] == migrations.LATEST_VERSION


async def test_two_processes_opening_at_once_migrate_once(
    url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="db.postgres.base")
    stores = await asyncio.gather(*(PostgresStore.open(url) for _ in range(4)))
    try:
        # Every open succeeded; one of them migrated, the others found nothing to do.
        assert len([r for r in caplog.records if "migrated" in r.message]) == 1
        game_id = await running_game(stores[0])
        assert (await stores[3].require_game(game_id)).status == "running"
    finally:
        for store in stores:
            await store.close()


async def test_a_foreign_schema_is_refused_untouched(url: str) -> None:
    await _fetch(url, "CREATE TABLE customers (id INTEGER PRIMARY KEY)")
    with pytest.raises(DatabaseUnusable, match=r"not a forum-mafia database.*customers") as e:
        await PostgresStore.open(url)
    assert "\n" not in str(e.value)
    assert await _tables(url) == {"customers"}


async def test_a_newer_schema_is_refused(url: str) -> None:
    async with await PostgresStore.open(url):
        pass
    await _fetch(url, "UPDATE schema_version SET version = 99")
    with pytest.raises(DatabaseUnusable, match="schema version 99 is newer"):
        await PostgresStore.open(url)
    with pytest.raises(DatabaseUnusable, match="schema version 99 is newer"):
        await PostgresStore.open(url, read_only=True)


async def test_a_schema_without_our_marker_is_refused(url: str) -> None:
    await _fetch(url, "CREATE TABLE schema_version (app TEXT, version INTEGER)")
    await _fetch(url, "INSERT INTO schema_version VALUES ('another-bot', 1)")
    with pytest.raises(DatabaseUnusable, match="no schema marker"):
        await PostgresStore.open(url)


# --- exactly once across processes --------------------------------------------------------------


async def test_200_requests_across_two_stores_keep_gap_free_ordered_seqs(url: str) -> None:
    """Two stores (two processes' pools) appending to one game at once: every seq 1..200 once,
    each store's entries in the order it was asked, no error (no MAX(seq)+1 race)."""
    first = await PostgresStore.open(url)
    second = await PostgresStore.open(url)
    try:
        game_id = await running_game(first)

        async def send(i: int) -> int:
            store = first if i % 2 else second
            payload = {"by": "a" if i % 2 else "b", "n": i}
            return (await store.add_request(game_id, 1, "requests", payload, i)).seq

        seqs = await asyncio.gather(*(send(i) for i in range(200)))
        assert sorted(seqs) == list(range(1, 201))
        entries = await second.log_entries(game_id)
        assert [e.seq for e in entries] == list(range(1, 201))
        for tag in "ab":
            sent = [e.payload["n"] for e in entries if e.payload["by"] == tag]
            assert sent == sorted(sent)  # each process's own calls keep their order
            assert len(sent) == 100
    finally:
        await first.close()
        await second.close()


async def test_two_stores_resolving_one_turn_resolve_it_once(url: str) -> None:
    first = await PostgresStore.open(url)
    second = await PostgresStore.open(url)
    try:
        game_id = await running_game(first)
        calls = [
            store.record_resolution(
                game_id, 1, {"by": i}, [OutboxItem("deaths", {"by": i})], 2, NEXT
            )
            for i, store in enumerate([first, second] * 5)
        ]
        outcomes = await asyncio.gather(*calls)
        assert sorted(outcomes) == [False] * 9 + [True]
        winner = outcomes.index(True)
        assert [r.result for r in await second.resolutions(game_id)] == [{"by": winner}]
        assert [o.payload for o in await first.outbox(game_id)] == [{"by": winner}]
        # The pistol window of the next turn, claimed from both at once: opened once too.
        windows = await asyncio.gather(
            first.begin_pistol_window(game_id, 2, {"w": 1}, [OutboxItem("p", {})], NEXT),
            second.begin_pistol_window(game_id, 2, {"w": 2}, [OutboxItem("p", {})], NEXT),
        )
        assert sorted(windows) == [False, True]
        assert len(await first.outbox(game_id)) == 2
    finally:
        await first.close()
        await second.close()


async def test_fenced_appends_from_two_stores_at_once_admit_one(url: str) -> None:
    """the fence: ten requests validated against the same game (turn 1, no entry
    yet), sent at once through two stores: exactly one is logged, the others raise StaleGame
    writing nothing (each counts, after the game's row lock, the entry committed before)."""
    first = await PostgresStore.open(url)
    second = await PostgresStore.open(url)
    try:
        game_id = await running_game(first)
        game = await first.require_game(game_id)
        fence = Fence(turn=game.turn, phase=game.phase, entries=0)

        async def send(i: int) -> bool:
            store = first if i % 2 else second
            payload = {"by": f"p{i}", "do": "vote", "target": "Anna"}
            try:
                await store.add_request(game_id, 1, "requests", payload, i, fence=fence)
            except StaleGame:
                return False
            return True

        outcomes = await asyncio.gather(*(send(i) for i in range(10)))
        assert sorted(outcomes) == [False] * 9 + [True]
        [entry] = await second.log_entries(game_id)
        assert entry.payload["by"] == f"p{outcomes.index(True)}"
        head = await second.game_head(game_id)
        assert head is not None and head.entries == 1 and head.record == game
    finally:
        await first.close()
        await second.close()


async def _queue(store: PostgresStore, game_id: int, n: int) -> list[int]:
    return await store.add_outbox(game_id, 1, [OutboxItem("narrative", {"n": i}) for i in range(n)])


async def test_a_claim_skips_a_game_another_claim_is_taking_without_waiting(url: str) -> None:
    """a claim never waits for another (``FOR UPDATE SKIP LOCKED``). While another
    process's claim holds the lock on game A's first row, a claim takes game B's rows at once
    and none of A's (not its unlocked second row either: A's rows stay in order, with one
    deliverer); once that claim is gone, A's rows are claimable again."""
    async with await PostgresStore.open(url) as store:
        a, b = await running_game(store, 1), await running_game(store, 2)
        a_ids, b_ids = await _queue(store, a, 2), await _queue(store, b, 1)
        conn = await asyncpg.connect(url)
        try:
            busy = conn.transaction()
            await busy.start()
            await conn.execute("SELECT 1 FROM outbox WHERE id = $1 FOR UPDATE", a_ids[0])
            claimed = await asyncio.wait_for(store.claim_outbox("b"), timeout=5)
            assert [r.id for r in claimed] == b_ids
            await busy.rollback()
        finally:
            await conn.close()
        assert [r.id for r in await store.claim_outbox("b", lease_seconds=30)] == a_ids + b_ids
        # Leases are timed by the server's clock (hosts' clocks may disagree).
        rows = await _fetch(url, "SELECT lease_owner, lease_until - now() AS left FROM outbox")
        assert {r["lease_owner"] for r in rows} == {"b"}
        assert all(25 < r["left"].total_seconds() <= 30 for r in rows)


async def test_a_v6_outbox_is_claimable_after_migration_7(url: str) -> None:
    """Migration 7 on PostgreSQL: rows a v6 bot queued are unleased, pending, and claimed and
    sent as any other."""
    conn = await asyncpg.connect(url)
    try:
        assert await migrations.migrate(conn, "test", target=6) == (0, 6)
        game_id = await conn.fetchval(
            "INSERT INTO games (guild_id, seed, schedule_kind, timezone, status, turn, phase, "
            "created_at, updated_at, table_id) VALUES (1, 7, 'fast', 'UTC', 'running', 1, 'day', "
            "now(), now(), 1) RETURNING id"
        )
        await conn.execute(
            "INSERT INTO outbox (game_id, turn, kind, payload, sent, created_at) "
            "VALUES ($1, 1, 'narrative', '{\"text\": \"old\"}', FALSE, now())",
            game_id,
        )
    finally:
        await conn.close()
    async with await PostgresStore.open(url) as store:
        [row] = await store.claim_outbox("new")
        assert row.payload == {"text": "old"} and not row.retaken
        assert await store.mark_sent(row.id, "new")
        assert await store.pending_outbox() == []
    [row] = await _fetch(url, "SELECT lease_owner, lease_until FROM outbox")
    assert (row["lease_owner"], row["lease_until"]) == (None, None)  # sent: released


async def test_a_read_waits_for_the_writes_in_flight(url: str) -> None:
    """Reads run on other connections of the pool than the writes: a read still comes after
    every write already on its way, also one whose caller was cancelled (as on SQLite, where
    one connection does both: tests/db/test_table_cache.py)."""
    async with await PostgresStore.open(url) as store:
        game_id = await running_game(store)
        tasks = [
            asyncio.create_task(store.add_request(game_id, 1, "requests", {"n": i}, None))
            for i in range(20)
        ]
        await asyncio.sleep(0)  # every write on its way
        for t in tasks:
            t.cancel()
        entries = await store.log_entries(game_id)  # at once: no sleep
        assert [e.payload["n"] for e in entries] == list(range(20))
        await asyncio.gather(*tasks, return_exceptions=True)


# --- read-only, and a server that goes away ----------------------------------------------------


async def test_a_read_only_store_reads_and_refuses_every_write(url: str) -> None:
    with pytest.raises(DatabaseUnusable, match="no schema"):
        await PostgresStore.open(url, read_only=True)  # nothing created
    assert await _tables(url) == set()
    async with await PostgresStore.open(url) as store:
        game_id = await running_game(store)
    reader = await open_store(url, read_only=True)
    try:
        assert (await reader.require_game(game_id)).status == "running"
        assert (await reader.load_script(game_id))["seed"] == 7
        with pytest.raises(StoreError, match="read-only"):
            await reader.add_request(game_id, 1, "requests", {"by": "Anna", "do": "post"}, 1)
        with pytest.raises(StoreError, match="read-only"):
            await reader.create_game(2, seed=1, schedule_kind="fast", timezone="UTC")
    finally:
        await reader.close()
    async with await PostgresStore.open(url) as store:
        assert await store.log_entries(game_id) == []


def _with_port(url: str, port: int) -> str:
    parts = urlsplit(url)
    netloc = f"{parts.username}@{parts.hostname}:{port}"
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_no_server_is_a_store_error(url: str) -> None:
    with pytest.raises(DatabaseUnusable, match="cannot connect") as e:
        await PostgresStore.open(_with_port(url, _free_port()))
    assert "\n" not in str(e.value)


@pytest.mark.parametrize(
    "secret_url",
    [
        "postgresql://bot:s3cret@127.0.0.1:{port}/mafia",
        "postgresql://bot@127.0.0.1:{port}/mafia?password=s3cret",
    ],
)
async def test_a_message_never_shows_the_password(secret_url: str) -> None:
    """Wherever the URL holds the password (libpq and asyncpg take it in either place), the
    store's messages name the database without it (db/urls.py: the one redactor)."""
    with pytest.raises(DatabaseUnusable, match="cannot connect") as e:
        await PostgresStore.open(secret_url.format(port=_free_port()))
    assert "s3cret" not in str(e.value) and "127.0.0.1" in str(e.value)


@contextlib.asynccontextmanager
async def _proxy(url: str) -> AsyncIterator[tuple[str, asyncio.Event]]:
    """A TCP relay to the server (the network between the bot and its database): setting the
    event closes it and every connection through it, as a server that died would."""
    parts = urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 5432
    writers: list[asyncio.StreamWriter] = []
    cut = asyncio.Event()

    async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError):
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        writer.close()

    async def relay(client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        if cut.is_set():
            client_w.close()
            return
        server_r, server_w = await asyncio.open_connection(host, port)
        writers.extend([client_w, server_w])
        await asyncio.gather(pipe(client_r, server_w), pipe(server_r, client_w))

    server = await asyncio.start_server(relay, "127.0.0.1", 0)
    relay_port = server.sockets[0].getsockname()[1]

    async def cutter() -> None:
        await cut.wait()
        server.close()
        for w in writers:
            w.close()

    task = asyncio.create_task(cutter())
    try:
        yield _with_port(url, relay_port), cut
    finally:
        cut.set()
        await task
        await server.wait_closed()


async def test_a_server_that_goes_away_is_a_store_error(url: str) -> None:
    async with _proxy(url) as (relayed, cut):
        store = await PostgresStore.open(relayed)
        game_id = await running_game(store)
        cut.set()
        await asyncio.sleep(0.1)
        with pytest.raises(StoreError) as read:
            await store.get_game(game_id)
        with pytest.raises(StoreError) as write:
            await store.add_request(game_id, 1, "requests", {"by": "Anna", "do": "post"}, 1)
        for raised in (read.value, write.value):
            assert type(raised) is StoreError
            assert "cannot be reached" in str(raised)
        await store.close()  # closing a store whose server is gone still returns
    async with await PostgresStore.open(url) as again:  # nothing half written
        assert await again.log_entries(game_id) == []


# --- values as PostgreSQL keeps them -------------------------------------------------------------


async def test_times_come_back_in_utc_and_json_as_written(url: str) -> None:
    moscow = dt.timezone(dt.timedelta(hours=3))
    async with await PostgresStore.open(url) as store:
        game_id = await running_game(store)
        deadline = dt.datetime(2025, 3, 1, 21, 0, 0, 123456, tzinfo=moscow)
        game = await store.set_deadline(game_id, deadline)
        assert game.deadline == deadline and game.deadline.tzinfo is dt.UTC
        with pytest.raises(ValueError, match="naive"):
            await store.set_deadline(game_id, dt.datetime(2025, 3, 1, 21, 0))
        payload = {"z": 1, "a": "Журавль", "m": [2, 1]}
        await store.add_request(game_id, 1, "requests", payload, 1)
        assert list((await store.log_entries(game_id))[0].payload) == ["z", "a", "m"]
    # The stored text is the compact JSON the SQLite store writes, key order kept.
    [row] = await _fetch(url, "SELECT payload::text AS t FROM log_entries")
    assert row["t"] == '{"z":1,"a":"Журавль","m":[2,1]}'


async def test_nicknames_compare_case_insensitively_in_cyrillic_too(url: str) -> None:
    """R44 folds the case of every letter; PostgreSQL's lower() does so in a UTF-8 locale
    (SQLite's NOCASE folds ASCII only: the service checks names before they reach it)."""
    async with await PostgresStore.open(url) as store:
        game = await store.create_game(1, seed=1, schedule_kind="forum", timezone="UTC")
        specs = [PlayerSpec(1, "Журавль", "villager"), PlayerSpec(2, "ЖУРАВЛЬ", "mafioso")]
        with pytest.raises(StoreError, match="cannot seat"):
            await store.start_game(game.id, specs, deadline=None)
        await store.start_game(game.id, specs[:1], deadline=None)
        found = await store.player_by_nick(game.id, "жУРАВЛЬ")
        assert found is not None and found.user_id == 1


async def test_a_write_stuck_behind_a_lock_gives_up_with_a_store_error(url: str) -> None:
    """A statement that cannot finish (here: another connection holds the game's row lock and
    never lets go, as a hung process would) is cancelled after the command timeout: the
    caller gets a StoreError to answer with, not a command that never returns; nothing of
    it is written."""
    import asyncpg

    store = await PostgresStore.open(url, command_timeout=0.5)
    try:
        game_id = await running_game(store)
        holder = await asyncpg.connect(url)
        try:
            lock = holder.transaction()
            await lock.start()
            await holder.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", game_id)
            with pytest.raises(StoreError, match="did not answer in time"):
                await store.add_request(game_id, 1, "requests", {"by": "Anna", "do": "post"}, 1)
            await lock.rollback()
        finally:
            await holder.close()
        assert await store.log_entries(game_id) == []
        # The store works on once the lock is gone.
        await store.add_request(game_id, 1, "requests", {"by": "Anna", "do": "post"}, 1)
        assert len(await store.log_entries(game_id)) == 1
    finally:
        await store.close()
