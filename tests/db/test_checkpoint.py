"""The write-ahead log is checkpointed off the writers' path (db/sqlite/base.py): every
``CHECKPOINT_EVERY`` writes a PASSIVE checkpoint runs on a connection of its own in a worker
thread, so no player's vote pays for SQLite's automatic checkpoint (the p99 of ``make bench``),
and the log stays small. Durability is unchanged: every commit is in the log first."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from db.sqlite import SQLiteStore
from db.sqlite.base import AUTOCHECKPOINT_PAGES, CHECKPOINT_EVERY
from tests.db.conftest import connection_pragma, running_game


def log_frames(path: Path) -> int:
    """How many frames the log file has room for: the most it ever held at once (a checkpointed
    log is written again from its start, the file never shrinks while the store is open)."""
    wal = path.with_name(path.name + "-wal")
    conn = sqlite3.connect(path)
    try:
        page = int(conn.execute("PRAGMA page_size").fetchone()[0])
    finally:
        conn.close()
    return max(0, (wal.stat().st_size - 32) // (page + 24)) if wal.exists() else 0


async def writes(store: SQLiteStore, game: int, n: int, start: int = 0) -> None:
    for i in range(start, start + n):
        await store.set_kill_board(game, 1 + i % 5, 1000 + i)


async def test_the_log_is_checkpointed_in_the_background_and_stays_small(tmp_path: Path) -> None:
    path = tmp_path / "game.db"
    store = await SQLiteStore.open(path)
    try:
        assert await connection_pragma(store, "wal_autocheckpoint") == AUTOCHECKPOINT_PAGES
        game = await running_game(store)
        # Without the background checkpoints, 5 x CHECKPOINT_EVERY writes would all be in the
        # log: far below SQLite's own (safety net) threshold, it would never reset.
        before = log_frames(path)
        await writes(store, game, 20)
        per_write = (log_frames(path) - before) / 20
        assert per_write >= 1
        # Players' requests come in bursts with quiet between; here each burst ends with the
        # write that starts a checkpoint, which then finds the whole log to copy.
        done = 20
        for _burst in range(5):
            n = CHECKPOINT_EVERY - store._writes_since_checkpoint
            await writes(store, game, n, start=done)
            done += n
            while store._inflight:  # the checkpoint runs beside the writers
                await asyncio.sleep(0.01)
        frames = log_frames(path)
        # Each checkpoint let the next write start the log afresh: it never grew by more than
        # about one burst, where all of them would have made it 5 bursts longer.
        assert frames < before + 2 * CHECKPOINT_EVERY * per_write, (before, frames, per_write)
        assert 5 * CHECKPOINT_EVERY * per_write < AUTOCHECKPOINT_PAGES
    finally:
        await store.close()
    reopened = await SQLiteStore.open(path)  # every write is there after the close
    try:
        last = done - 1
        assert await reopened.kill_board(game, 1 + last % 5) == 1000 + last
    finally:
        await reopened.close()
