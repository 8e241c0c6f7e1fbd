"""The DM channel ids the bot keeps (migrations 14 and 16) and rows marked sent together, on
both engines: a DM channel opened once is known after a reopen (a restart), per bot account,
kept per server written for (so that it goes with the server's data, and with a member's data
on that server, while other servers keep theirs); rows that shared one Discord message are
marked sent in one write, with that message's id."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import asyncpg

from db.interface import GameStore
from db.models import OutboxItem
from db.postgres import migrations as pg_migrations
from db.sqlite import migrations
from db.sqlite.migrations import migrate
from db.store import SQLiteStore, is_postgres_url, open_store
from db.transfer import TABLES
from tests.db.conftest import T0, raw_rows, running_game
from tests.db.test_migrations import _make_v1_file

GUILD, OTHER = 700000000000000001, 700000000000000002


async def test_a_dm_channel_id_survives_a_reopen_per_bot(store: GameStore, target: str) -> None:
    assert await store.dm_channel(1, GUILD, 100) is None
    await store.save_dm_channel(1, GUILD, 100, 5000)
    await store.save_dm_channel(1, GUILD, 101, 5001)
    await store.save_dm_channel(2, GUILD, 100, 6000)  # another bot account: another channel
    assert await store.dm_channel(1, GUILD, 100) == 5000
    assert await store.dm_channel(2, GUILD, 100) == 6000
    await store.save_dm_channel(1, GUILD, 100, 5002)  # saved again: the later one is kept
    reopened = await open_store(target)
    try:
        assert await reopened.dm_channel(1, GUILD, 100) == 5002
        assert await reopened.dm_channel(1, GUILD, 101) == 5001
        assert await reopened.dm_channel(3, GUILD, 100) is None
    finally:
        await reopened.close()


async def test_a_dm_channel_is_kept_per_server_and_goes_with_its_data(
    store: GameStore, target: str
) -> None:
    """Known for one server, a member's DM channel is kept for the next one that writes to
    him (no new request); the bot leaving a server, or his data purged on it, forgets that
    server's row only."""
    await store.save_dm_channel(1, GUILD, 100, 5000)
    await store.save_dm_channel(1, GUILD, 101, 5001)
    assert await store.dm_channel(1, OTHER, 100) == 5000  # known: kept for OTHER too
    rows = "SELECT guild_id FROM dm_channels WHERE user_id = ? ORDER BY guild_id"
    assert await raw_rows(target, rows, 100) == [(GUILD,), (OTHER,)]

    assert await store.purge_guild(GUILD) == 0  # no game: its DM channels still go
    assert await raw_rows(target, rows, 100) == [(OTHER,)]
    assert await raw_rows(target, rows, 101) == []
    assert await store.dm_channel(1, OTHER, 100) == 5000

    await store.save_dm_channel(1, GUILD, 100, 5000)
    assert await store.purge_member(OTHER, 100) == 0
    assert await raw_rows(target, rows, 100) == [(GUILD,)]


def test_dm_channels_are_copied_by_migrate_store() -> None:
    assert "dm_channels" in TABLES


async def test_migration_14_adds_the_dm_channels_to_a_v12_sqlite_file(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    _make_v1_file(path)
    assert migrate(path, target=12).new_version == 12
    conn = sqlite3.connect(path)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_schema WHERE type='table'")}
    conn.close()
    assert "dm_channels" not in tables
    store = await SQLiteStore.open(path)
    try:
        await store.save_dm_channel(1, GUILD, 2, 3)
        assert await store.dm_channel(1, GUILD, 2) == 3
    finally:
        await store.close()


#: Version 15's rows: the games (id, server, host), their seats and sign-ups, the DM channels
#: (bot, user, channel) and a pending confirmation.
_V15 = [
    "INSERT INTO games (id, guild_id, seed, schedule_kind, timezone, host_user_id, status, "
    "created_at, updated_at) VALUES "
    "(1, 11, 1, 'fast', 'UTC', 300, 'finished', $t, $t), "
    "(2, 22, 1, 'fast', 'UTC', NULL, 'lobby', $t, $t)",
    "INSERT INTO players (game_id, seat, user_id, nick, role) VALUES (1, 0, 100, 'Anna', 'x')",
    "INSERT INTO signups (game_id, user_id, joined_at) VALUES (1, 100, $t), (2, 100, $t), "
    "(2, 200, $t)",
    "INSERT INTO dm_channels (bot_id, user_id, channel_id) VALUES (9, 100, 1000), "
    "(9, 200, 2000), (9, 300, 3000), (9, 400, 4000)",
    "INSERT INTO confirmations (token, expires_at, data) VALUES ('tok', $t, '{}')",
]


async def test_migration_16_keeps_each_dm_channel_for_the_servers_of_its_member(
    tmp_path: Path, target: str
) -> None:
    """A DM channel becomes its member's on every server where he played, signed up or
    hosted; one tied to no server is dropped (opened again when needed); pending
    confirmations, whose server is unknown, are dropped (they expire within the hour)."""
    if is_postgres_url(target):
        conn = await asyncpg.connect(target)
        try:
            await pg_migrations.migrate(conn, "test", target=15)
            for sql in _V15:
                await conn.execute(sql.replace("$t", "'2025-03-01T18:00:00+00:00'"))
            await pg_migrations.migrate(conn, "test")
        finally:
            await conn.close()
    else:
        migrate(Path(target), target=15)
        conn3 = sqlite3.connect(target)
        for sql in _V15:
            conn3.execute(sql.replace("$t", f"'{T0.isoformat()}'"))
        conn3.commit()
        conn3.close()
        assert migrate(Path(target)).new_version == migrations.LATEST_VERSION
    assert await raw_rows(
        target, "SELECT guild_id, user_id, bot_id, channel_id FROM dm_channels ORDER BY 1, 2"
    ) == [(11, 100, 9, 1000), (11, 300, 9, 3000), (22, 100, 9, 1000), (22, 200, 9, 2000)]
    assert await raw_rows(target, "SELECT token FROM confirmations") == []
    store = await open_store(target)
    try:
        assert await store.dm_channel(9, 22, 200) == 2000
        assert await store.dm_channel(9, 11, 400) is None
    finally:
        await store.close()


async def test_rows_sent_in_one_message_are_marked_in_one_write(store: GameStore) -> None:
    game = await running_game(store)
    items = [OutboxItem("narrative", {"text": f"row {i}"}) for i in range(3)]
    first, second, third = await store.add_outbox(game, 1, items)
    await store.claim_outbox("a")
    assert await store.mark_sent(first, "a", message_id=77, together=[second])
    rows = {row.id: row for row in await store.outbox(game)}
    assert rows[first].sent and rows[second].sent and not rows[third].sent
    assert rows[first].message_id == rows[second].message_id == 77
    assert not await store.mark_sent(first, "a")  # once
