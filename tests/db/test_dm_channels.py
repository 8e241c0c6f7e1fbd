"""The DM channel ids the bot keeps (migration 14) and rows marked sent together, on both
engines: a DM channel opened once is known after a reopen (a restart), per bot account; rows
that shared one Discord message are marked sent in one write, with that message's id."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from db.interface import GameStore
from db.migrations import migrate
from db.models import OutboxItem
from db.store import SQLiteStore, open_store
from db.transfer import TABLES
from tests.db.conftest import running_game
from tests.db.test_migrations import _make_v1_file


async def test_a_dm_channel_id_survives_a_reopen_per_bot(store: GameStore, target: str) -> None:
    assert await store.dm_channel(1, 100) is None
    await store.save_dm_channel(1, 100, 5000)
    await store.save_dm_channel(1, 101, 5001)
    await store.save_dm_channel(2, 100, 6000)  # another bot account: another channel
    assert await store.dm_channel(1, 100) == 5000
    assert await store.dm_channel(2, 100) == 6000
    await store.save_dm_channel(1, 100, 5002)  # saved again: the later one is kept
    reopened = await open_store(target)
    try:
        assert await reopened.dm_channel(1, 100) == 5002
        assert await reopened.dm_channel(1, 101) == 5001
        assert await reopened.dm_channel(3, 100) is None
    finally:
        await reopened.close()


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
        await store.save_dm_channel(1, 2, 3)
        assert await store.dm_channel(1, 2) == 3
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
